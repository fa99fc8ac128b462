"""The designer's solver commands: tune a card value or rule option to a target rate, train a
policy against an opponent, and measure how much good play matters (skill)."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Annotated

import typer

from sim.cli.shared import (
    MarginShare,
    Matches,
    Quiet,
    Results,
    RunId,
    Seed,
    Setup,
    VerdictMax,
    VerdictPolicies,
    VerdictStart,
    console,
    fail,
    guarded,
    interrupted,
    parse_overrides,
    print_frame,
    split_list,
    with_setup,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.

# What a plant of each class needs the unchanged matchup to have shown (calibrate).
CHANGE = {"buff": "gain from par made strong", "nerf": "loss to the card with no effect",
          "clone": "verdict"}


def first(name: str):
    """Put the command's own argument `name` before the shared deck arguments."""

    def move(command):
        sig = inspect.signature(command)
        params = list(sig.parameters.values())
        p = next(x for x in params if x.name == name)
        command.__signature__ = sig.replace(parameters=[p, *(x for x in params if x is not p)])
        return command

    return move


@first("what")
@with_setup
def tune(
    setup: Setup,
    what: str = typer.Argument(..., help="CARD.FIELD, or a rule option"),
    target: float = typer.Option(..., help="the rate to reach, e.g. 0.5"),
    rate: Annotated[str | None, typer.Option(
        help="the headline rate (default: deck A's win rate)")] = None,
    values: Annotated[str | None, typer.Option(
        help="LO..HI or A,B,C (default: the current value -5 .. +5)")] = None,
    matches: Matches = 4000,
    max_matches: Annotated[int, typer.Option(min=1, help="most matches at one value")] = 64_000,
    precision: Annotated[float, typer.Option(
        help="whole numbers: refine the best value to this 95% half-width")] = 0.01,
    tolerance: Annotated[float | None, typer.Option(
        help="continuous options: stop when the bracket is this narrow")] = None,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
    quiet: Quiet = False,
):
    """The value of a card field or rule option that brings a rate to --target: every value
    on the same seeds, more matches where the decision is close; the best value with its
    95% interval and every value not told apart from it."""
    from sim.solvers.tune import target_place
    from sim.solvers.tune import tune as solve

    game, m, info = setup.load()

    def load(extra):  # InputError for a value the card table refuses: tune skips it
        return dataclasses.replace(setup, sets=setup.sets + tuple(extra)).matchup(info)[1]

    def progress(step, df):
        if not quiet:
            close = ", ".join(f"{v:g}" for v in df.value[df.indistinguishable])
            typer.echo(f"round {step}: closest {close}", err=True)

    df, answer = guarded(lambda: solve(game, m, what, target, load, rate, values, matches,
                                       max_matches, seed, tolerance, results, run_id,
                                       progress, precision))
    print_frame(df.assign(value=df.value.map(lambda v: f"{v:g}")),
                f"{what}: {answer['quantity']} against target {target}",
                ["value", "n", "rate", "lo", "hi", "consistent", "indistinguishable", "best"])
    out = console()
    out.print(f"best {what} = {answer['value']:g}: {answer['rate']:.4f} "
              f"[{answer['lo']:.4f}, {answer['hi']:.4f}] (n {answer['n']:,})"
              + (f", now {answer['current']:g}" if answer.get("current") is not None else ""))
    out.print("not told apart from it: "
              + ", ".join(f"{v:g}" for v in answer["indistinguishable"]))
    out.print(target_place(df, target))
    if "bracket" in answer:
        out.print(f"bracket {answer['bracket']}; stopped: {answer['stopped']}")
    for s in answer.get("skipped", []):
        out.print(f"skipped {what}={s['value']:g}: the validator rejects it ({s['reason']})")
    out.print(f"plot: {answer['path']}/tune.png")


SEATS = {"both": (0, 1), "a": (0,), "b": (1,)}  # train's --seat: the seats it plays


def refuse_train_changes(ctx: typer.Context, path: Path, manifest: dict, kept: Setup,
                         setup: Setup, options: dict) -> None:
    """Exit 2 naming each option typed on a resumed `train` that differs from the run's
    (`kept`: its matchup options, compared as the run resolved them; --generations and
    --write are read from the command line, and --name only names what is written)."""
    from sim.cli.resumed import refuse_changes, train_given

    stored, given = train_given(manifest, kept, setup)
    stored |= {"trained": manifest["policy"], "against": manifest["opponent"],
               "seat": next(k for k, v in SEATS.items() if list(v) == manifest["seats"]),
               **{k: manifest[k] for k in ("matches", "popsize", "sigma", "holdout", "seed")}}
    refuse_changes(ctx, path, stored, {**given, **options})


@first("trained")
@with_setup
def train(
    ctx: typer.Context,
    setup: Setup,
    trained: str = typer.Argument(..., metavar="POLICY", help="the policy to tune (its "
                                  "settings are the starting point)"),
    against: Annotated[str | None, typer.Option(
        help="the fixed opponent (default: the folder's policy)")] = None,
    name: Annotated[str | None, typer.Option(
        help="name of the tuned policy (default: POLICY-tuned)")] = None,
    seat: Annotated[str, typer.Option(help="both, a or b: the seats it plays")] = "both",
    matches: Annotated[int, typer.Option("--matches", "-n", min=1,
                                         help="matches a candidate plays on each seat")] = 500,
    popsize: Annotated[int, typer.Option(min=2, help="candidates a generation")] = 8,
    generations: Annotated[int | None, typer.Option(
        min=1, help="CMA-ES generations in all (default 10); a resume goes on to the run's "
        "own count unless given, and one below the generations the run has trained already "
        "trains no more: the best of those is checked and written")] = None,
    sigma: Annotated[float, typer.Option(help="initial step on the unit scale, above 0")] = 0.1,
    holdout: Annotated[int, typer.Option(min=1, help="held-out matches a seat")] = 10_000,
    seed: Seed = 1,
    write: Annotated[bool, typer.Option(help="append the tuned policy to policies.toml")
                     ] = True,
    results: Results = Path("results"),
    run_id: RunId = None,
    resume: Annotated[str | None, typer.Option(help="continue an interrupted run")] = None,
    quiet: Quiet = False,
):
    """Tune a policy's weights and habits against a fixed opponent (CMA-ES, common random
    numbers in each generation); report train and held-out win rates; write the tuned
    policy into the folder's policies.toml."""
    from sim.solvers.train import new_id
    from sim.solvers.train import train as run

    policy = trained

    if resume:
        from sim.solvers.train import load as read_state

        state, manifest = guarded(lambda: read_state(results / resume))
        done = state["generation"]
        if generations is not None and generations < done:
            typer.echo(f"the run has {done} generations already, more than --generations "
                       f"{generations}: nothing more is trained; the best of its {done} is "
                       "checked on held-out seeds" + (" and written" if write else ""),
                       err=True)
        kept = Setup(**{k: tuple(v) if isinstance(v, list) else v
                        for k, v in manifest["setup"].items()})
        refuse_train_changes(ctx, results / resume, manifest, kept, setup, {
            "trained": trained, "against": against, "seat": seat, "matches": matches,
            "popsize": popsize, "sigma": sigma, "holdout": holdout, "seed": seed,
            "run_id": run_id})
        setup = kept
        # The name it writes may change (it is only the name): --name typed here, or the run's.
        policy, against = manifest["policy"], manifest["opponent"]
        name, run_id = name or manifest["name"], resume
    seats = SEATS.get(seat)
    if seats is None:
        fail(f"--seat is both, a or b, not {seat!r}")
    if not resume and (setup.policy or setup.policy_a or setup.policy_b):
        fail("train plays POLICY against --against (the folder's policy when left out): "
             "--policy is not one of its options; name the opponent with --against")
    info = setup.info()
    if not resume:  # the names as typed; a resumed run's were checked when it began
        from sim.kit.folders import require_policies

        guarded(lambda: (require_policies(info.path, [policy], "POLICY"),
                         against and require_policies(info.path, [against], "--against")))
    against = against or info.policy
    game, base, info = dataclasses.replace(setup, policy=against).load()
    if game.tuning is None:
        fail(f"{game.name} does not list its policies' parameters: train needs its tuning "
             "hook")
    run_id = run_id or new_id("train")

    def progress(g, total, top, mean, best):
        if not quiet:
            typer.echo(f"generation {g + 1}/{total}: top {top:.4f}, mean {mean:.4f}, best so "
                       f"far {best:.4f}", err=True)

    try:
        table, manifest = guarded(lambda: run(
            game, info.path, base, policy, against, name or f"{policy}-tuned", seats,
            matches, popsize, generations, sigma, holdout, seed, results, run_id,
            bool(resume), write, dataclasses.asdict(setup), progress))
    except KeyboardInterrupt:
        # The options a resume reads from its command line, not from the run, are named.
        interrupted(results / run_id, "every finished generation",
                    f"cardlab train --results {results} --resume {run_id} {policy}"
                    + ("" if generations is None else f" --generations {generations}")
                    + ("" if write else " --no-write"))
    print_frame(table, f"{policy} against {against}: train and held-out win rates",
                ["item", "k", "n", "rate", "lo", "hi"])
    # Plain echo: rich would read "[name]" as markup.
    typer.echo("tuned settings: " + ", ".join(f"{k} = {v}" for k, v in
                                              manifest["best"]["values"].items()))
    if manifest.get("written"):
        typer.echo(f"written as [{manifest['name']}] in {manifest['written']}")
    typer.echo(f"run: {results / run_id}")


@with_setup
def skill(
    setup: Setup,
    policies: Annotated[str | None, typer.Option(
        help="comma-separated (default: every policy of the folder)")] = None,
    against: Annotated[str | None, typer.Option(
        help="the reference opponent (default: the folder's policy)")] = None,
    decks: Annotated[str | None, typer.Option(
        help="comma-separated decks, or 'all' for every .deck of the folder "
             "(default: the matchup's two)")] = None,
    matches: Matches = 5000,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """How much good play matters: each policy's win rate against one opponent on both seats
    (same seeds for all), from random through the shipped to the tuned policies, and the
    paired spread between the weakest and the best."""
    from sim.kit.folders import folder_policies, require_policies
    from sim.solvers.skill import pairings, run
    from sim.solvers.train import tuned_policies

    info = setup.info()
    guarded(lambda: (require_policies(info.path, split_list(policies), "--policies"),
                     require_policies(info.path, [against] if against else [], "--against")))
    game, m, info = setup.load()
    known = folder_policies(info.path)
    names = split_list(policies) or known
    against = against or info.policy
    if decks == "all":
        deck_names = sorted(p.stem for p in info.path.glob("*.deck"))
    else:
        deck_names = split_list(decks) or [setup.deck_a or info.decks[0],
                                           setup.deck_b or info.decks[1]]
    if len(deck_names) < 2:
        fail("skill needs at least two decks")
    rules = parse_overrides(list(setup.rules))

    def load(a, b, pa, pb):
        return game.load_matchup(info.path, a, b, pa, pb, rules, list(setup.sets))

    df, summary = guarded(lambda: run(game, load, pairings(deck_names), names, against,
                                      matches, seed, results, run_id,
                                      tuple(tuned_policies(info.path))))
    ref = summary["reference"]
    print_frame(df, f"win rate against {against}, both seats of {len(summary['pairings'])} "
                f"pairing(s), {matches:,} matches a seat",
                ["policy", "tuned", "k", "n", "rate", "lo", "hi", f"gain_over_{ref}",
                 "gain_lo", "gain_hi"])
    console().print(f"skill spread ({summary['worst']} -> {summary['best']}, paired): "
                    f"{summary['spread']:+.4f} [{summary['lo']:+.4f}, {summary['hi']:+.4f}] "
                    f"(n {summary['n']:,}); {summary['path']}")


@with_setup
def calibrate(
    setup: Setup,
    plants: Annotated[int, typer.Option(
        "--plants", min=1, help="buffs, nerfs and clones planted, this many of each")] = 10,
    seed: Seed = 1,
    margin_share: MarginShare = 0.5,
    policies: VerdictPolicies = 2,
    verdict_start: VerdictStart = 2000,
    verdict_max: VerdictMax = 64_000,
    others: Annotated[int, typer.Option(
        "--others", min=0, help="plants judged against every other card's verdict too (a "
        "whole verdict run each)")] = 0,
    results: Results = Path("results"),
    run_id: RunId = None,
    quiet: Quiet = False,
):
    """How well the card verdicts recover planted truths on this matchup: strong buffs,
    crippling nerfs (the card with no effect) and clones of a deck-mate, planted one at a
    time on cards drawn by the seed (of the cards the unchanged matchup judges: not untested
    here, dead or without par), each judged on the same seeds; the recovery rate of each
    class with its 95% interval, and every contradiction (a buff under-powered, a card with
    no effect balanced or over-powered). A clone is judged beside its original and must get
    its label; as_before counts the clones whose label is also the one the original had
    before the clone came. With --others K, K buffs and nerfs are each judged
    against every other card's verdict: a label that changes without an interval touching
    its margin is a verdict that moved with a deck-mate (every verdict table behind the
    count is saved, as others_verdicts.parquet)."""
    from sim.experiments.calibrate import calibrate as run_calibration
    from sim.experiments.calibrate import others_moved
    from sim.experiments.verdicts import Precision, card_verdicts
    from sim.store.outputs import new_folder, save_tables

    game, m, info = setup.load()
    precision = Precision(verdict_start, verdict_max, share=margin_share, policies=policies)
    guarded(precision.check)

    def said(k, plant, verdict):
        if not quiet:
            typer.echo(f"  plant {k + 1}: {plant.what} of {plant.card}"
                       f"{' as ' + plant.like if plant.like else ''}: {verdict}", err=True)

    guarded(lambda: info.require("defaults.trained"))
    folder = str(info.path)
    base = guarded(lambda: card_verdicts(game, m, seed, precision, folder=folder,
                                         trained=info.trained))
    rows, summary = guarded(lambda: run_calibration(game, m, folder, seed, plants, precision,
                                                    said, trained=info.trained, base=base))
    tables = {"calibrate": summary, "plants": rows}
    if others:
        def moved(k, plant, unexcused):
            if not quiet:
                typer.echo(f"  others {k + 1}: {plant.what} of {plant.card}: {unexcused} "
                           "other labels changed off their boundaries", err=True)

        tables["others"] = guarded(lambda: others_moved(game, m, folder, seed, others,
                                                        precision, info.trained, moved,
                                                        base=base))
        tables["others_verdicts"] = tables["others"].attrs["verdicts"]
    path = new_folder(results, run_id, "calibrate")
    save_tables(path, tables,
                {"kind": "calibrate", "game": game.name, "seed": seed, "plants": plants,
                 "decks": [d.name for d in m.decks], **summary.attrs})
    # Only a clone has an original whose label it had before.
    shown = rows.fillna({"like_before": ""}) if "like_before" in rows else rows
    print_frame(shown, "planted changes", ["class", "deck", "card", "like", "change", "before",
                                          "verdict", "like_before", "relative", "margin",
                                          "size", "powered", "n"])
    if others:
        print_frame(tables["others"], "other cards' verdicts under each plant",
                    ["class", "deck", "card", "others", "changed", "excused", "unexcused",
                     "with_worth", "cards"])
    gap = summary.attrs["pooled_gap"][""]
    # A rate of no plants is no number: its cells stay empty (the line below says why).
    shown = summary.astype({c: object for c in ("rate", "lo", "hi", "rate_powered")})
    shown.loc[summary.planted == 0, ["rate", "lo", "hi"]] = ""
    shown.loc[summary.powered == 0, "rate_powered"] = ""
    print_frame(shown, f"recovery of planted truths (game's gap {gap:.4f} a copy; {path})",
                ["class", "planted", "recovered", "rate", "lo", "hi", "powered",
                 "recovered_powered", "rate_powered", "contradictions", "misplayed",
                 "as_before", "skipped", "untested"])
    for what, why in summary.attrs["unplanted"].items():
        typer.echo(f"{what}: {why}")
    if summary.attrs["unjudged"] and not quiet:
        typer.echo("no plants on cards this matchup does not judge: "
                   + "; ".join(summary.attrs["unjudged"]), err=True)
    for what, names in summary.attrs["untestable"].items():
        if names and not quiet:
            typer.echo(f"no {what}s where the run told no {CHANGE[what]}: "
                       + "; ".join(names), err=True)


def mount(app: typer.Typer) -> None:
    """Put this module's commands on the `cardlab` app (sim/cli/app.py mounts every module)."""
    for command in (tune, train, skill, calibrate):
        app.command()(command)
