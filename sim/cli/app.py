"""The `cardlab` command line: list games, check data files, simulate matchups into the
results store, replay, report and check against exact answers, for any registered game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.shared import (
    CardSets,
    DeckA,
    DeckB,
    FieldMatches,
    Folder,
    MarginShare,
    Policy,
    PolicyA,
    PolicyB,
    Quiet,
    Results,
    RuleChanges,
    RunId,
    Scheduler,
    Seed,
    Setup,
    Table,
    VerdictMax,
    VerdictPolicies,
    VerdictStart,
    console,
    fail,
    guarded,
    run_folder,
    run_store,
    split_list,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


@app.callback()
def main() -> None:
    """cardlab: Monte Carlo balance and deck analysis for card-game designers."""


@app.command()
def games() -> None:
    """The registered games with their sample folders and default matchups, and the template
    a new game copies (`cardlab new-game`)."""
    from rich.table import Table

    from sim.kit import game as registry
    from sim.kit.folders import default_folder, read_folder

    table = Table(caption=f"{', '.join(registry.templates())}: the template a new game "
                  "copies (cardlab new-game NAME)")
    for col in ("game", "title", "folder", "default decks", "policy"):
        table.add_column(col)
    for name in registry.names() + registry.templates():
        folder = default_folder(name)
        try:
            info = read_folder(folder)
            table.add_row(name, info.title, str(folder), " vs ".join(info.decks), info.policy)
        except Exception as err:  # a broken folder is listed, not fatal
            table.add_row(name, "", str(folder), f"unreadable: {err}", "")
    console().print(table)


@app.command()
def check(paths: list[Path] = typer.Argument(..., help="game folders, or files in one")):
    """Validate card pools, rule options and deck lists; report every problem."""
    from sim.core.problems import InputError, Problem
    from sim.kit import game as registry
    from sim.kit.folders import GAME_FILE, read_folder

    notes, problems = [], []
    for path in paths:
        if not path.exists():
            problems.append(Problem(str(path), 0, "no such file or folder"))
            continue
        folder = path if path.is_dir() else path.parent
        try:
            info = read_folder(folder)
            # game.toml is the folder's, not the game's: what it names is checked here.
            if path.is_dir() or path.name == GAME_FILE:
                problems += info.problems()
            if path.name == GAME_FILE:
                if not info.problems():
                    notes.append(f"{path}: game file valid ({info.game}, "
                                 f"{' vs '.join(info.decks)}, policy {info.policy})")
                continue
            n, p = registry.get(info.game).check_paths([path])
            notes += n
            problems += p
        except InputError as err:
            problems += err.problems
    for note in notes:
        typer.echo(note)
    for problem in problems:
        typer.echo(str(problem), err=True)
    if problems:
        typer.echo(f"{len(problems)} problem(s) found", err=True)
        raise typer.Exit(2)


@app.command()
def simulate(
    ctx: typer.Context,
    deck_a: DeckA = None,
    deck_b: DeckB = None,
    matches: Annotated[int, typer.Option("--matches", "--games", "-n", min=1,
                                         help="matches to play")] = 100_000,
    seed: Seed = 1,
    policy: Policy = None,
    policy_a: PolicyA = None,
    policy_b: PolicyB = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    folder: Folder = None,
    table: Table = None,
    results: Results = Path("results"),
    run_id: RunId = None,
    resume: Annotated[str | None, typer.Option(help="finish an interrupted run")] = None,
    chunk_size: Annotated[int | None, typer.Option(
        min=1, help="matches per chunk (default 50,000; with --target-ci, a quarter of the "
        "matches the target needs at a win rate of one half)")] = None,
    workers: Annotated[int, typer.Option(
        min=0, help="workers, each on cores / workers threads (0: cores / 2; one worker "
        "plays in this process)")] = 0,
    backend: Annotated[str, typer.Option(help="loky, dask or serial")] = "loky",
    scheduler: Scheduler = None,
    target_ci: Annotated[float | None, typer.Option(
        help="stop at this 95% half-width of deck A's win rate")] = None,
    max_matches: Annotated[int | None, typer.Option(
        "--max-matches", "--max-games", min=1, help="cap with --target-ci")] = None,
    quiet: Quiet = False,
):
    """Play DECK_A against DECK_B into the results store; print win rates with 95% intervals."""
    if scheduler:
        backend = "dask"
    game = m = None
    setup = Setup(folder, deck_a, deck_b, policy, policy_a, policy_b, tuple(rules or ()),
                  tuple(sets or ()), tuple(split_list(table)))
    if not resume:
        game, m, _ = setup.load()
    else:  # the engine ready before the progress bar starts
        from sim.cli.resumed import refuse_changes, simulate_given
        from sim.kit import game as registry
        from sim.runner.warmup import ensure
        from sim.store.runs import open_run

        manifest = guarded(lambda: open_run(results, resume).read_manifest())
        refuse_changes(ctx, results / resume, *simulate_given(manifest, setup, {
            "matches": matches, "seed": seed, "chunk_size": chunk_size, "target_ci": target_ci,
            "max_matches": max_matches, "run_id": run_id}))
        stored = guarded(lambda: registry.get(manifest["game"]))
        ensure(stored, stored.from_manifest(manifest))
    res = run_store(game, m, matches, seed, results, run_id, chunk_size, workers or None,
                    backend, scheduler, resume, target_ci, max_matches, quiet)
    print_summary(res.run.path)


def print_summary(run_path: Path) -> None:
    """Headline rates of a stored run with Wilson 95% intervals and n."""
    import json

    from rich.table import Table

    from analysis.summary import headline_counts

    manifest = json.loads((run_path / "manifest.json").read_text())
    rows, lengths, n = headline_counts(run_path, manifest)
    names = [d["name"] for d in manifest["decks"]]
    pols = [p["name"] for p in manifest["policies"]]
    seats = " vs ".join(f"{d} ({p})" for d, p in zip(names, pols, strict=True))
    table = Table(title=f"{manifest['game']}: {seats}, seed {manifest['seed']}")
    for col in ("quantity", "count", "n", "rate", "95% interval"):
        table.add_column(col, justify="right" if col != "quantity" else "left")
    for r in rows.itertuples():
        table.add_row(r.quantity, f"{r.k:,}", f"{r.n:,}", f"{r.rate:.4f}",
                      f"{r.lo:.4f} .. {r.hi:.4f}")
    out = console()
    out.print(table)
    rate = manifest.get("matches_per_second")
    parts = [f"{label} {mean:.2f} (95% +- {half:.2f})" for label, mean, half in lengths]
    out.print(", ".join(parts) + f"; {n:,} matches"
                  + (f", {rate:,.0f} matches/s" if rate else ""))
    check = manifest.get("exact_check")
    if check:
        verdict = "FLAGGED" if check["flagged"] else "agrees"
        out.print(f"exact check: {check['quantities']} quantities, max |z| "
                      f"{check['max_abs_z']:.2f}, {check['flagged']} flagged: {verdict} "
                      "(exact_check.parquet)")
    out.print(f"run: {run_path}")


@app.command()
def runs(results: Results = Path("results")):
    """List the runs in the results directory, then the folders experiments wrote there."""
    from rich.table import Table

    from sim.store.runs import results_in
    from sim.store.state import run_state

    def names(items) -> str:  # a run names its decks and policies in records, others plainly
        return " vs ".join(str(d["name"] if isinstance(d, dict) else d) for d in items or [])

    if not results.exists():  # a mistyped path lists nothing: say why
        typer.echo(f"no results folder at {results}", err=True)
    found = results_in(results)
    runs = Table(title="runs")
    for col in ("run", "game", "created", "status", "matches", "decks", "policies"):
        runs.add_column(col)
    for path, m in found:
        if "run_id" in m:
            # A killed run's manifest still says running: its state comes from its folder.
            state = run_state(path, m)
            runs.add_row(m["run_id"], m.get("game", ""), m.get("created", ""),
                         state.status, f"{state.matches:,}",
                         names(m.get("decks")), names(m.get("policies")))
    console().print(runs)
    others = [(path, m) for path, m in found if "run_id" not in m]
    if others:
        table = Table(title="experiments")
        for col in ("folder", "kind", "game", "created", "decks", "policies"):
            table.add_column(col)
        for path, m in others:
            table.add_row(path.name, str(m.get("kind", "")), str(m.get("game", "")),
                          str(m.get("created", "")), names(m.get("decks")),
                          names(m.get("policies")))
        console().print(table)


@app.command()
def replay(run: str = typer.Argument(..., help="run id, or a run folder"),
           match: int = typer.Argument(..., min=0, help="match index in the run"),
           results: Results = Path("results")):
    """The full log of one match of a run, from the reference engine, checked against the
    stored record."""
    import numpy as np

    from sim.kit import game as registry
    from sim.store.runs import open_run, read_table

    path = run_folder(run, results)
    folder = guarded(lambda: open_run(path.parent, path.name))
    manifest = guarded(folder.read_manifest)
    if match >= manifest["matches_done"] and manifest["status"] == "complete":
        fail(f"run {run} has matches 0 .. {manifest['matches_done'] - 1}")
    game = guarded(lambda: registry.get(manifest["game"]))
    m = game.from_manifest(manifest)
    g = game.replay(m, manifest["seed"], match)
    typer.echo("\n".join(g.text))
    df = read_table(folder.path, "matches")
    row = df[df.match_index == match]
    if len(row):
        stored = row[list(game.schema_of(m).match_columns)].to_numpy()[0]
        same = np.array_equal(stored, g.record)
        typer.echo(f"record {'matches' if same else 'DIFFERS FROM'} the batch record of match "
                   f"{match}")
        if not same:
            raise typer.Exit(1)


@app.command()
def report(run: str = typer.Argument(..., help="run id, or a run folder"),
           results: Results = Path("results"),
           with_verdicts: Annotated[bool, typer.Option(
               "--verdicts/--no-verdicts",
               help="compute the causal card verdicts when the run has none yet")] = True,
           margin_share: MarginShare = 0.5,
           policies: VerdictPolicies = 2,
           verdict_start: VerdictStart = 2000,
           verdict_max: VerdictMax = 64_000,
           field_matches: FieldMatches = 4000,
           with_seatings: Annotated[bool, typer.Option(
               "--seatings/--no-seatings",
               help="at a table of three or more, play the run's decks in every seating on "
               "its seeds (once; saved beside it) for the wins by turn position")] = True,
           quiet: Quiet = False):
    """Write report.html (figures embedded) and report.md into the run folder, with the
    causal card verdicts (computed first when the run has none: see `cardlab verdicts`)
    and, at a table of three or more, the wins by turn position over every seating of its
    decks (played first when the run has none)."""
    from analysis.report import build_report
    from sim.store.runs import RunFolder
    from sim.store.state import run_state

    path = run_folder(run, results)
    if with_seatings:
        from sim.experiments.seatings import current
        from sim.experiments.seatings import for_run as seat_run

        # Played again where the run holds other matches now (resumed since).
        if not current(path):
            guarded(lambda: seat_run(path))
    if with_verdicts and not (path / "verdicts.parquet").exists():
        from sim.cli.verdicts import compute_verdicts, precision_of

        compute_verdicts(path, precision_of(margin_share, verdict_start, verdict_max,
                                            policies), None, quiet, field_matches)
    html, md = build_report(path)
    typer.echo(f"report: {html}\nsummary: {md}")
    state = run_state(path, guarded(RunFolder(path.parent, path.name).read_manifest))
    if state.partial:
        typer.echo(state.sentence(path), err=True)


def mount_all() -> None:
    """The one place every command module is mounted: the experiment and solver commands,
    then each registered game's own commands, a game package's `commands.py` with
    `mount(app)`, imported alone so that the command line starts without loading any engine
    or the compiler."""
    import importlib
    import importlib.util

    from sim.cli import balance as cli_balance
    from sim.cli import engines as cli_engines
    from sim.cli import experiments as cli_experiments
    from sim.cli import meta as cli_meta
    from sim.cli import newgame as cli_newgame
    from sim.cli import options as cli_options
    from sim.cli import solvers as cli_solvers
    from sim.cli import verdicts as cli_verdicts
    from sim.cli import web as cli_web
    from sim.kit import game as registry

    cli_engines.mount(app)
    cli_verdicts.mount(app)
    cli_experiments.mount(app)
    cli_solvers.mount(app)
    cli_meta.mount(app)
    cli_balance.mount(app)
    cli_newgame.mount(app)
    cli_options.mount(app)
    cli_web.mount(app)
    for name in registry.names():
        module = f"sim.{name}.commands"
        # A game whose package is gone is reported where it is used (registry.get), not here.
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # its package sim.NAME is not there
            continue
        if found:
            importlib.import_module(module).mount(app)


mount_all()


if __name__ == "__main__":  # python -m sim.cli.app
    app()
