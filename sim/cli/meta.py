"""The metagame commands: `meta` (a field's matrix and Nash mix), `deckbuild` (the strongest
legal deck against a field) and `climb` (each style's strongest deck against the field's
mix); `balance` is in sim/cli/balance.py."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.shared import (
    CardSets,
    Folder,
    Policy,
    Quiet,
    Results,
    RuleChanges,
    RunId,
    Scheduler,
    Seed,
    console,
    fail,
    guarded,
    interrupted,
    parse_overrides,
    print_frame,
    print_matrix,
    split_list,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.

Decks = Annotated[str | None, typer.Option(
    "--decks", "--field", help="the field: deck names or .deck files, comma-separated "
    "(default: [field] of game.toml)")]
Workers = Annotated[int, typer.Option(
    min=0, help="workers, each on cores / workers threads (0: cores / 2)")]
Backend = Annotated[str, typer.Option(help="loky, dask or serial")]


def load_field(folder: str | None, decks: str | None, policy: str | None,
               rules: list[str] | None, sets: list[str] | None):
    """The Field of the options (the folder's [field] by default); exit 2 on bad input."""
    from sim.experiments.meta import Field
    from sim.kit import game as registry
    from sim.kit.folders import default_folder, read_folder

    fol = folder or str(default_folder())
    info = guarded(lambda: read_folder(fol))
    game = guarded(lambda: registry.get(info.game))
    names = split_list(decks) if decks is not None else list(info.field)
    # What game.toml gives is told at its line there.
    if decks is None:
        guarded(lambda: info.require("field.decks"))
    if not policy:
        guarded(lambda: info.require("defaults.policy"))
    fld = guarded(lambda: Field(game, info.path, names, policy or info.policy,
                                parse_overrides(rules), tuple(sets or ())))
    guarded(fld.check)
    return fld


def bar(quiet: bool, label: str):
    """A rich progress bar over steps (None when quiet or piped) and its update(done, total)."""
    import os
    import sys

    if quiet or os.environ.get("CI") or not sys.stdout.isatty():
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    b = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    task = b.add_task(label, total=None)
    return b, lambda done, total: b.update(task, completed=done, total=total)


def with_bar(b, what: str, work, command: str, folder: Path):
    """Run `work` with the progress bar shown; on Ctrl-C, say that the finished `what` are
    kept and how to resume `folder` (`cardlab COMMAND ... --resume NAME`), or that nothing
    was kept, and exit 130."""
    try:
        if b:
            b.start()
        return guarded(work)
    except KeyboardInterrupt:
        interrupted(folder, f"finished {what}", f"cardlab {command} ... --resume "
                    f"{folder.name} (with the same options)")
    finally:
        if b:
            b.stop()


def show_meta(result: dict, names: list[str], title: str, health: bool = True) -> None:
    """The matrix (rate and interval per cell), the Nash mix and the health lines (without
    the last, the field's health judged deck by deck, where the caller judges otherwise)."""
    from analysis.meta import health_line

    print_matrix(result["matrix"], names, "deck", "opponent", title)
    print_frame(result["decks"], "Nash mix (bootstrap 95%) and average win rate against the "
                "field", ["deck", "nash", "nash_lo", "nash_hi", "in_mix_share", "field_rate",
                          "field_lo", "field_hi"])
    c = console()
    c.print(f"effective number of decks: {result['effective_decks']:.2f} "
            f"(95% {result['effective_lo']:.2f} .. {result['effective_hi']:.2f}) of "
            f"{len(names)}")
    dom = result["dominated"]
    if len(dom):
        print_frame(dom, "dominated decks", list(dom.columns))
    else:
        c.print("dominated decks: none")
    if health:
        c.print(health_line(result["health"], len(names)))


def meta(
    ctx: typer.Context,
    folder: Folder = None,
    decks: Decks = None,
    policy: Policy = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    matches: Annotated[int, typer.Option("--matches", "-n", min=2,
                                         help="matches per ordered pair")] = 2000,
    seed: Seed = 1,
    reps: Annotated[int, typer.Option(min=10, help="bootstrap resamples of the Nash mix")] = 200,
    workers: Workers = 0,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    chunk_size: Annotated[int | None, typer.Option(
        min=1, help="matches per chunk (default: a pair split over the workers)")] = None,
    results: Results = Path("results"),
    run_id: RunId = None,
    resume: Annotated[str | None, typer.Option(help="finish an interrupted meta run")] = None,
    quiet: Quiet = False,
):
    """Every deck of the field against every other from both seats on the same seeds: the
    matrix with 95% intervals, the Nash mix of the symmetric zero-sum game (bootstrap
    intervals), dominated decks and the field's health, into one results folder."""
    from sim.experiments.meta import meta as play_meta
    from sim.store.outputs import dated_name

    if scheduler:
        backend = "dask"
    if backend not in ("loky", "dask", "serial"):
        fail(f"unknown backend {backend!r}; one of loky, dask, serial")
    if resume:
        from sim.cli.resumed import resumed_field

        saved, fld = resumed_field(ctx, results / resume, "meta.json", load_field, folder, {
            "decks": decks, "policy": policy, "rules": rules, "sets": sets, "matches": matches,
            "seed": seed, "run_id": run_id})
        matches = saved["matches"]
    else:
        fld = load_field(folder, decks, policy, rules, sets)
    b, update = bar(quiet, "pairs")
    if run_id is None and not resume:
        run_id = dated_name("meta")
    result, path = with_bar(b, "pairs", lambda: play_meta(
        fld, matches, seed, results, run_id, workers or None, backend, scheduler, chunk_size,
        reps, resume, update), "meta", results / (resume or run_id))
    show_meta(result, fld.names, f"{fld.game.name}: row deck's win rate against the column "
              f"deck, {matches:,} matches a seat, 95% intervals")
    typer.echo(f"results: {path}")



def counts_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in sorted(counts.items(), key=lambda x: (-x[1], x[0])))


def deckbuild(
    ctx: typer.Context,
    folder: Folder = None,
    against: Annotated[str, typer.Option(
        help="field (every field deck alike) or nash (the field's Nash mix)")] = "field",
    decks: Decks = None,
    policy: Policy = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    rounds: Annotated[int, typer.Option(min=1, help="rounds of mutation")] = 6,
    mutants: Annotated[int, typer.Option(min=1, help="new legal decks a round")] = 12,
    start: Annotated[int, typer.Option(
        min=2, help="matches a series at the first rung (doubled each rung)")] = 100,
    elite: Annotated[int, typer.Option(min=1, help="decks kept as parents")] = 2,
    confirm: Annotated[int, typer.Option(min=10, help="held-out matches a series")] = 4000,
    threshold: Annotated[float, typer.Option(
        help="margin over the best shipped deck that makes a deck broken")] = 0.03,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
    resume: Annotated[str | None, typer.Option(help="finish an interrupted search")] = None,
    quiet: Quiet = False,
):
    """Search the legal decks of the pool for the strongest against the field (or its Nash
    mix), confirm the winner on held-out seeds, and report a broken deck with the cards
    that make the difference."""
    from sim.solvers.deckbuild import Search
    from sim.solvers.deckbuild import deckbuild as search_decks
    from sim.store.outputs import dated_name

    search = Search(rounds, mutants, start, elite, confirm, threshold)
    if resume:
        from sim.cli.resumed import resumed_field

        _, fld = resumed_field(ctx, results / resume, "state.json", load_field, folder, {
            "decks": decks, "policy": policy, "rules": rules, "sets": sets,
            "against": against, **search.__dict__, "seed": seed, "run_id": run_id})
    else:
        fld = load_field(folder, decks, policy, rules, sets)
        guarded(search.check)
    b, update = bar(quiet, "rounds")

    def progress(done, total, best, score):
        if update:
            update(done, total)
        elif not quiet:
            typer.echo(f"round {done}/{total}: best {best.name} ({best.parent}) "
                       f"{score[0]:.3f} +- {1.96 * score[1]:.3f}", err=True)

    if run_id is None and not resume:
        run_id = dated_name("deckbuild")
    out = with_bar(b, "rounds", lambda: search_decks(fld, against, search, seed, results,
                                                     run_id, resume, progress),
                   "deckbuild", results / (resume or run_id))
    v = out["verdict"]
    print_frame(out["confirm"], f"held-out: each deck's win rate against the {against}, 95% "
                "intervals", ["deck", "score", "lo", "hi", "n"])
    c = console()
    c.print(f"found deck (from {out['found'].parent}): {counts_line(out['found'].counts)}")
    c.print(f"against the best shipped deck {v['best_shipped']}: {v['margin']:+.4f} "
            f"(95% {v['lo']:+.4f} .. {v['hi']:+.4f}), paired on the held-out seeds; "
            f"threshold {v['threshold']}")
    if v["broken"]:
        c.print("[bold red]broken deck[/]: beats the best shipped deck by more than the "
                "threshold")
        print_frame(out["ablation"], "the cards that make the difference (each taken out of "
                    "the found deck)", ["name", "copies", "added", "worth", "lo", "hi", "n"])
    else:
        c.print(f"no deck found beats the best shipped deck by more than {v['threshold']}")
    typer.echo(f"{out['played']:,} matches; {out['rejected']} mutants rejected by the "
               f"validator, never played\nresults: {out['path']}")


def climb(
    folder: Folder = None,
    decks: Decks = None,
    policy: Policy = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    rounds: Annotated[int, typer.Option("--rounds", "-k", min=1, help="rounds of the "
                                        "climb, at most")] = 6,
    search_rounds: Annotated[int, typer.Option(min=1, help="search rounds a style, each "
                                               "climb round")] = 6,
    mutants: Annotated[int, typer.Option(min=1, help="new legal decks a search round")] = 12,
    matches: Annotated[int, typer.Option("--matches", "-n", min=2, help="matches per "
                                         "ordered pair for the Nash mix")] = 1000,
    confirm: Annotated[int, typer.Option(min=10, help="held-out matches a series")] = 4000,
    seed: Seed = 1,
    results: Results = Path("results"),
    run_id: RunId = None,
    quiet: Quiet = False,
):
    """The strongest decks of the pool, style by style: each round, a search from every
    style's strongest deck (a style: the decks grown from one deck of the field) against the
    field's Nash mix, the best on held-out seeds joining the field, until no style's deck
    beats the mix (as far as the search sees); then the grown field with each style's
    strongest deck: its matrix, Nash mix and the styles the mix holds."""
    from sim.solvers.climb import climb as run_climb
    from sim.solvers.deckbuild import Search

    fld = load_field(folder, decks, policy, rules, sets)
    search = Search(search_rounds, mutants, 100, 2, confirm)

    def progress(r, top, converged):
        if not quiet:
            typer.echo(f"round {r}: best {top['deck']} {top['score']:.3f} ({top['lo']:.3f} .. "
                       f"{top['hi']:.3f}) against the mix"
                       + (", no deck beats the mix" if converged else ", joins"), err=True)

    out = guarded(lambda: run_climb(fld, rounds, search, matches, seed, results, run_id,
                                    progress))
    print_frame(out["rounds"], "each style's strongest deck against the field's Nash mix, "
                "held-out 95% intervals", ["round", "style", "score", "lo", "hi", "n",
                                           "joins"])
    c = console()
    for name, f in out["found"].items():
        c.print(f"{name} (style {f['style']}): {counts_line(f['counts'])}")
    for name, counts in out["tops"].items():
        c.print(f"{name} (the style's strongest, did not join): {counts_line(counts)}")
    for style, deck in out["kept"].items():
        c.print(f"{style}: the style's strongest is {deck}, in the field already"
                + (" (its search found no deck better)" if deck == style else ""))
    # The grown field holds several decks of a style: its health is judged by styles (the
    # last line), not by asking a Nash mix of all but one of its decks.
    show_meta(out["summary"], out["field"], f"the grown field: row deck's win rate against "
              f"the column deck, {matches:,} matches a seat, 95% intervals", health=False)
    styles = out["styles"]
    end = ("the climb ended: no style's deck the search found beats the mix; "
           if out["converged"] else
           f"the climb stopped after {rounds} rounds, a deck still beating the mix; ")
    every = out["decks"]["style"].nunique()
    c.print(end + f"the Nash mix holds {len(styles)} of the {every} styles (weight 0.05 or "
            f"more): {', '.join(styles)}")
    typer.echo(f"results: {out['path']}")


def mount(app: typer.Typer) -> None:
    """Put this module's commands on the `cardlab` app (sim/cli/app.py mounts every module)."""
    for command in (meta, deckbuild, climb):
        app.command()(command)
