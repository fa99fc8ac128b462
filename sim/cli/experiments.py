"""The designed-experiment commands (sensitivity, ablation, sweep, what-if, diff, flags,
round robin), each on the shared matchup options block."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.shared import (
    Folder,
    MarginShare,
    Matches,
    Quiet,
    Results,
    RuleChanges,
    RunId,
    Seed,
    Setup,
    VerdictMax,
    VerdictStart,
    fail,
    guarded,
    parse_overrides,
    print_frame,
    print_matrix,
    print_skipped,
    run_folder,
    run_store,
    split_list,
    with_setup,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.

DELTA_COLUMNS = ["item", "deck", "delta", "lo", "hi"]


@with_setup
def sensitivity(
    setup: Setup,
    matches: Matches = 10_000,
    seed: Seed = 1,
    card: Annotated[list[str] | None, typer.Option(help="only these cards (repeatable)")] = None,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Change in win rate per +1 of each numeric card value, paired on the same seeds,
    with the game's exact price of each card where it has one."""
    from sim.experiments.designs import sensitivity as run

    game, m, _ = setup.load()
    df = guarded(lambda: run(game, m, matches, seed, results, run_id, card or None))
    print_frame(df, f"card-value sensitivity, {matches:,} paired matches each",
                [*DELTA_COLUMNS, "variance_reduction", game.schema.worth_label or "worth"])
    print_skipped(df)


@with_setup
def ablation(
    setup: Setup,
    matches: Matches = 10_000,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Each card's causal worth: the card taken out of its deck on the same seeds."""
    from sim.experiments.designs import ablation as run

    game, m, _ = setup.load()
    df = guarded(lambda: run(game, m, matches, seed, results, run_id))
    print_frame(df.sort_values("delta", ascending=False), "win rate the card adds to its deck",
                ["item", "copies", "delta", "lo", "hi", "p_adjusted", "reject"])
    print_skipped(df)


@with_setup
def sweep(
    setup: Setup,
    vary: Annotated[str, typer.Option(help="the game's sweep (see the guide)")] = "copies",
    card: Annotated[str | None, typer.Option(help="the card, for sweeps of one card")] = None,
    mix: Annotated[str | None, typer.Option(help="FROM,TO, for sweeps between kinds")] = None,
    values: Annotated[str | None, typer.Option(
        help="comma-separated; default: the sweep's range")] = None,
    seat: Annotated[int, typer.Option(min=0, max=1, help="0 sweeps deck A, 1 deck B")] = 0,
    matches: Matches = 10_000,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Win rate against a deck-composition count, the same seeds at every point, with the
    optimum and the values it is not told apart from."""
    from sim.experiments.designs import sweep as run

    game, m, _ = setup.load()
    if vary not in game.sweeps:
        fail(f"unknown sweep {vary!r} for {game.name}; one of {', '.join(game.sweeps)}")
    try:
        vals = [int(v) for v in split_list(values)] if values else list(game.sweeps[vary].values)
    except ValueError:
        fail(f"--values must be integers, got {values!r}")
    options = {"card": card, "mix": split_list(mix) if mix else None}
    df = guarded(lambda: run(game, m, seat, vary, vals, matches, seed, results, run_id,
                             options))
    cols = ["value", "k", "n", "rate", "lo", "hi", "vs_best", "vs_best_lo", "vs_best_hi",
            "optimum_set"] + [
        c for c in df.columns if c.startswith("p_")]
    print_frame(df, f"sweep of {vary} in {m.decks[seat].name}", cols)
    print_skipped(df)


@with_setup
def whatif(
    setup: Setup,
    change: Annotated[list[str] | None, typer.Option(
        "--change", help="the variant's rule option KEY=VALUE (repeatable)")] = None,
    matches: Matches = 20_000,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Baseline against variant rules on the same seeds: every delta with its interval.
    Without --change, --rules is the variant against the folder's rules; with --change,
    --rules sets both arms and --change the variant alone."""
    import dataclasses

    from sim.experiments.designs import whatif as run

    where = "--change"
    if not change:
        where, change, setup = "--rules", list(setup.rules), dataclasses.replace(setup, rules=())
    if not change:
        fail("what if what? give the variant's rule options with --rules KEY=VALUE")
    changes = parse_overrides(change, where)
    game, m, _ = setup.load()
    df = guarded(lambda: run(game, m, changes, matches, seed, results, run_id, where))
    print_frame(df, f"what if {', '.join(change)} ({matches:,} paired matches)",
                ["item", "baseline", "variant", "delta", "lo", "hi"])


def diff(run_a: str = typer.Argument(..., help="run id, or a run folder"),
         run_b: str = typer.Argument(..., help="run id, or a run folder"),
         results: Results = Path("results")):
    """What moved between two runs beyond noise (Benjamini-Hochberg at 5%)."""
    from sim.experiments.comparisons import diff_runs

    a, b = run_folder(run_a, results), run_folder(run_b, results)
    df = guarded(lambda: diff_runs(a, b))
    print_frame(df, f"{a.name} -> {b.name} ({'paired' if df.paired.iat[0] else 'unpaired'})",
                ["item", "run_a", "run_b", "delta", "lo", "hi", "p_adjusted", "moved"])


@with_setup
def flags(
    setup: Setup,
    policies: Annotated[str | None, typer.Option(
        help="comma-separated policies (default: the folder's trained policy and two others)")
    ] = None,
    trained: Annotated[str | None, typer.Option(
        help="the policy every verdict must hold under (default: game.toml's trained)")
    ] = None,
    with_tuned: Annotated[bool, typer.Option(
        help="add every policy `cardlab train` wrote to the folder")] = False,
    seed: Seed = 1,
    margin_share: MarginShare = 0.5,
    verdict_start: VerdictStart = 2000,
    verdict_max: VerdictMax = 64_000,
    results: Results = Path("results"),
    run_id: RunId = None,
    quiet: Quiet = False,
):
    """Causal card verdicts under several policies: a card is over- or under-powered only
    when that holds under the trained policy and at least two other policies."""
    from sim.experiments.comparisons import robust_flags
    from sim.experiments.verdicts import Precision
    from sim.kit.folders import require_policies

    info = setup.info()
    guarded(lambda: (require_policies(info.path, split_list(policies), "--policies"),
                     require_policies(info.path, [trained] if trained else [], "--trained")))
    game, m, info = setup.load()
    anchor = trained or info.trained
    if not trained:
        guarded(lambda: info.require("defaults.trained"))
    names = split_list(policies) or default_policies(info.path, anchor)
    if with_tuned:
        from sim.solvers.train import tuned_policies

        names += [p for p in tuned_policies(info.path) if p not in names]
    if anchor and anchor not in names:
        names.insert(0, anchor)
    if len(names) < 3:
        fail(f"a verdict must hold under three policies; got {', '.join(names)}")
    precision = Precision(verdict_start, verdict_max, share=margin_share, policies=1)
    guarded(precision.check)
    rules = parse_overrides(list(setup.rules))

    def said(policy, rounds, n, still, played):
        if not quiet:
            typer.echo(f"  {policy}: round {rounds + 1}, {n:,} matches per card, {still} "
                       "open", err=True)

    df = guarded(lambda: robust_flags(game, info.path, m.decks[0].name, m.decks[1].name,
                                      names, seed, precision, anchor, results, run_id, rules,
                                      list(setup.sets), said))
    print_frame(df.sort_values(["deck", "verdict"]),
                f"verdicts by policy (must hold under {df.anchor.iat[0]} and two others; "
                f"{df.attrs['matches']:,} matches)", ["deck", "label", *names, "verdict"])


def default_policies(folder: Path, trained: str | None) -> list[str]:
    """The trained policy first, then the folder's policies that play cards their own way
    (all but random and default): three in all."""
    from sim.kit.folders import folder_policies

    data = folder_policies(folder)
    names = [trained] if trained in data else []
    names += [p for p in data if p not in ("random", "default", *names)]
    return names[:3]


def matchup(
    decks: Annotated[list[str], typer.Argument(help="deck names or .deck files")],
    policies: Annotated[str | None, typer.Option(help="comma-separated policies")] = None,
    matches: Matches = 20_000,
    seed: Seed = 1,
    rules: RuleChanges = None,
    folder: Annotated[str | None, typer.Option(help="game folder or game name")] = None,
    results: Results = Path("results"),
    run_id: Annotated[str | None, typer.Option(help="name of the round-robin folder")] = None,
    chunk_size: Annotated[int, typer.Option(min=1)] = 50_000,
    workers: Annotated[int, typer.Option(min=0)] = 0,
    quiet: Quiet = False,
):
    """Round robin: every (deck, policy) entrant against every other, one run each, in one
    folder results/RUN/; prints the matrix of win rates."""
    import json
    from datetime import UTC, datetime

    from sim.kit.folders import require_policies
    from sim.store.runs import check_run_id

    info = Setup(folder).info()
    guarded(lambda: require_policies(info.path, split_list(policies), "--policies"))
    entrants = [(d, p) for d in decks for p in (split_list(policies) or [info.policy])]
    if len(entrants) < 2:
        fail("a round robin needs at least two (deck, policy) entrants")
    run_id = run_id or datetime.now(UTC).strftime("rr-%Y%m%d-%H%M%S")
    guarded(lambda: check_run_id(run_id))
    root = results / run_id
    pairings = []
    for i, (da, pa) in enumerate(entrants):
        for db, pb in entrants[i + 1:]:
            game, m, _ = Setup(folder, da, db, None, pa, pb, tuple(rules or ())).load()
            name = f"{len(pairings):03d}"
            res = run_store(game, m, matches, seed, root, name, chunk_size, workers or None,
                            quiet=quiet)
            pairings.append({"run": name, "a": [m.decks[0].name, pa], "b": [m.decks[1].name, pb],
                             "matches": res.matches})
    (root / "roundrobin.json").write_text(json.dumps({"run_id": run_id, "seed": seed,
                                                      "pairings": pairings}, indent=2))
    from analysis.metrics import matchup_matrix

    cells = matchup_matrix(root)
    print_matrix(cells, list(dict.fromkeys(cells.entrant)), "entrant", "opponent",
                 f"row entrant's win rate against the column entrant, {matches:,} matches a "
                 "pair, 95% intervals")
    typer.echo(f"round robin: {root}")


def lint(
    folder: Folder = None,
    matches: Annotated[int, typer.Option("--matches", "-n", min=1,
                                         help="matches per setting")] = 400,
    seed: Seed = 1,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", help="a policy of the folder, both seats (repeatable; default: every "
        "policy in policies.toml)")] = None,
    rules: RuleChanges = None,
    out: Annotated[Path | None, typer.Option(
        help="write the findings: FILE.json, else parquet")] = None,
):
    """What does nothing and what is dominated: card fields and rule options that leave
    every record byte-identical on the same seeds under every policy, cards no policy
    plays, and cards no better than another of their kind at no lower cost. Exit 0 with
    findings: lint informs."""
    import json

    from sim.kit.folders import default_folder
    from sim.solvers.lint import lint as run

    target = folder or str(default_folder())
    res = guarded(lambda: run(target, policy, parse_overrides(rules), matches, seed))
    f = res.findings
    c = res.checked
    for kind, cols in (("inert card field", ["card", "name", "field", "edit", "settings"]),
                       ("inert rule option", ["option", "edit", "settings"]),
                       ("dead card", ["card", "name", "kind", "decks", "evidence"]),
                       ("dominated card", ["card", "name", "kind", "edit", "other_card",
                                           "other_name", "evidence"])):
        rows = f[f.finding == kind]
        if kind == "dominated card":
            rows = rows.rename(columns={"edit": "relation", "other_card": "by",
                                        "other_name": "by name"})
            cols = ["card", "name", "kind", "relation", "by", "by name", "evidence"]
        if not len(rows):
            typer.echo(f"{kind}s: none")
            continue
        print_frame(rows, f"{kind}s: {len(rows)}", cols)
        if kind.startswith("inert"):
            typer.echo(f"evidence: records byte-identical (matches, histograms, card "
                       f"statistics), matches 0..{matches - 1} of seed {seed}, in every setting "
                       f"that holds the card or option (counted under settings) of: "
                       f"{'; '.join(c['settings'])}")
    for line in res.skipped:
        typer.echo(f"not tried (cannot be made, or not legal with the folder's decks): {line}")
    for note in res.notes:
        typer.echo(f"note: {note}")
    counts = ", ".join(f"{(f.finding == k).sum()} {k}s" for k in
                       ("inert card field", "inert rule option", "dead card", "dominated card"))
    # What was tried, of what was listed: an edit not tried is judged neither inert nor not.
    typer.echo(f"lint of {c['game']}: {len(c['settings'])} setting(s), "
               f"{c['card_edits_tried']} of {c['card_edits']} card edits and "
               f"{c['rule_variants_tried']} of {c['rule_variants']} rule variants tried, "
               f"{c['batches']:,} batches, "
               f"{c['matches_played']:,} matches in {c['seconds']} s: {counts}")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix == ".json":
            out.write_text(json.dumps({"checked": c, "skipped": res.skipped, "notes": res.notes,
                                       "findings": f.to_dict(orient="records")}, indent=2,
                                      default=str) + "\n", encoding="utf-8")
        else:
            f.to_parquet(out, index=False)
        typer.echo(f"findings: {out}")


def mount(app: typer.Typer) -> None:
    """Put this module's commands on the `cardlab` app (sim/cli/app.py mounts every module)."""
    for command in (sensitivity, ablation, sweep, whatif, diff, flags, matchup, lint):
        app.command()(command)
