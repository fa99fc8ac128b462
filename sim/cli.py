"""The `cardlab` command line: check data files, simulate decks, print answers with intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)

# The sample game folder: the working directory's, else the one beside the package.
DEFAULT_FOLDER = next((p for p in (Path("decks/paintline"),
                                   Path(__file__).resolve().parents[1] / "decks" / "paintline")
                       if p.is_dir()), Path("decks/paintline"))


# Options the designed experiments share.
DeckA = Annotated[str, typer.Argument(help="deck A: a name in the folder or a .deck file")]
DeckB = Annotated[str, typer.Argument(help="deck B: a name in the folder or a .deck file")]
Games = Annotated[int, typer.Option("--games", "-n", min=10, help="matches per run")]
Seed = Annotated[int, typer.Option("--seed", min=0, max=2**63 - 1, help="master seed")]
Policy = Annotated[str, typer.Option("--policy", help="policy of both seats")]
RuleChanges = Annotated[list[str], typer.Option("--rules", help="rule option KEY=VALUE")]
Folder = Annotated[Path, typer.Option("--folder", help="game folder")]
Results = Annotated[Path, typer.Option("--results", help="results directory")]
RunId = Annotated[str | None, typer.Option("--run-id", help="name of the output folder")]


@app.callback()
def main() -> None:
    """cardlab: Monte Carlo balance and deck analysis for card-game designers."""


def fail(message: str) -> None:
    """One clear line on stderr and exit status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


@app.command()
def check(paths: list[Path] = typer.Argument(..., help="folders, cards.csv, rules.toml, .deck")):
    """Validate card pools, rule options and deck lists; report every problem."""
    from sim.paintline.pool import check_paths

    notes, problems = check_paths(paths)
    for note in notes:
        typer.echo(note)
    for problem in problems:
        typer.echo(str(problem), err=True)
    if problems:
        typer.echo(f"{len(problems)} problem(s) found", err=True)
        raise typer.Exit(2)


def parse_overrides(items: list[str]) -> dict:
    """KEY=VALUE pairs, each VALUE read as a TOML value (bare words as strings)."""
    import tomllib

    out = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            fail(f"--rules expects KEY=VALUE, got {item!r}")
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip()
        out[key.strip()] = value
    return out


def load_or_fail(folder: Path, deck_a: str, deck_b: str, policy_a: str, policy_b: str,
                 rules: list[str], sets: list[str], arsenals=None):
    """A matchup from the command line's words, or a one-line error and exit 2."""
    from sim.paintline.batch import load_matchup
    from sim.paintline.pool import PoolError, load_folder

    if not folder.is_dir():
        fail(f"{folder}: no such game folder")
    try:
        base = load_folder(folder).rules
        rule_set = base.replace(**parse_overrides(rules)) if rules else base
        m = load_matchup(folder, deck_a, deck_b, policy_a, policy_b, rule_set, arsenals)
    except PoolError as err:
        fail("\n".join(str(p) for p in err.problems))
    if sets:
        m = apply_card_sets(m, sets)
    return m


def apply_card_sets(m, sets: list[str]):
    """--set CARD.FIELD=VALUE: change card values for this run only."""
    import dataclasses

    from sim.paintline.pool import INT_COLUMNS

    changes = {}
    for item in sets:
        target, sep, raw = item.partition("=")
        card_name, dot, column = target.rpartition(".")
        if not sep or not dot:
            fail(f"--set expects CARD.FIELD=VALUE, got {item!r}")
        card = m.pool.lookup(card_name)
        if card is None:
            close = ", ".join(m.pool.closest(card_name)) or "none"
            fail(f"--set: unknown card {card_name!r}; closest: {close}")
        if column not in INT_COLUMNS:
            fail(f"--set: unknown field {column!r}; one of {', '.join(INT_COLUMNS)}")
        try:
            value = int(raw)
        except ValueError:
            fail(f"--set {item}: value must be an integer")
        if value < 0:
            fail(f"--set {item}: value must not be negative")
        changes[(card, INT_COLUMNS[column])] = value
    return dataclasses.replace(m, pool=m.pool.with_values(changes))


def progress_bar(quiet: bool):
    """A rich progress callback on a terminal; None in CI, with --quiet or when piped."""
    import os
    import sys

    if quiet or os.environ.get("CI") or not sys.stdout.isatty():
        return None, None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(TextColumn("matches"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                   TimeRemainingColumn())
    task = bar.add_task("run", total=None, rate="")
    import time

    start = time.perf_counter()

    def update(done: int, total: int, _: int) -> None:
        rate = done / max(time.perf_counter() - start, 1e-9)
        bar.update(task, completed=done, total=total, rate=f"{rate:,.0f}/s")

    return bar, update


def run_store(m, games, seed, results, run_id, chunk_size, workers, backend, scheduler,
              resume, target_ci, max_games, quiet):
    """simulate() with a progress bar, clear errors and the resume hint on Ctrl-C."""
    from sim.paintline.pool import PoolError
    from sim.run import simulate as run_simulation
    from sim.store import StoreError

    bar, update = progress_bar(quiet)
    try:
        if bar:
            bar.start()
        return run_simulation(m, games, seed, results=results, run_id=run_id,
                              chunk_size=chunk_size, workers=workers, backend=backend,
                              scheduler=scheduler, resume=resume, target_ci=target_ci,
                              max_games=max_games, progress=update)
    except (StoreError, PoolError) as err:
        fail(str(err))
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: finished chunks are kept. Resume with:\n  cardlab simulate "
                   f"--results {results} --resume {resume or run_id}", err=True)
        raise typer.Exit(130) from None
    finally:
        if bar:
            bar.stop()


@app.command()
def simulate(
    deck_a: str = typer.Argument("us-red-tide", help="deck name in the folder, or a .deck file"),
    deck_b: str = typer.Argument("ussr-red-tide", help="deck name in the folder, or a .deck file"),
    games: int = typer.Option(100_000, "--games", "-n", min=1, help="matches to play"),
    seed: int = typer.Option(1, "--seed", min=0, max=2**63 - 1, help="master seed"),
    policy: str = typer.Option("greedy", "--policy", help="policy of both seats"),
    policy_a: str = typer.Option(None, "--policy-a", help="policy of deck A"),
    policy_b: str = typer.Option(None, "--policy-b", help="policy of deck B"),
    rules: list[str] = typer.Option([], "--rules", help="rule option KEY=VALUE (repeatable)"),
    sets: list[str] = typer.Option([], "--set", help="card value CARD.FIELD=VALUE (repeatable)"),
    folder: Path = typer.Option(DEFAULT_FOLDER, "--folder", help="game folder"),
    results: Path = typer.Option(Path("results"), "--results", help="results directory"),
    run_id: str = typer.Option(None, "--run-id", help="name of the run folder"),
    resume: str = typer.Option(None, "--resume", help="finish an interrupted run"),
    chunk_size: int = typer.Option(50_000, "--chunk-size", min=1, help="matches per chunk"),
    workers: int = typer.Option(0, "--workers", min=0, help="worker processes (0: cores / 2)"),
    backend: str = typer.Option("loky", "--backend", help="loky, dask or serial"),
    scheduler: str = typer.Option(None, "--scheduler", help="tcp://HOST:PORT of a Dask cluster"),
    target_ci: float = typer.Option(None, "--target-ci", help="stop at this 95% half-width"),
    max_games: int = typer.Option(None, "--max-games", min=1, help="cap with --target-ci"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
    arsenal_a: str = typer.Option(None, "--arsenal-a", help="rally mode: seat A's shot cards"),
    arsenal_b: str = typer.Option(None, "--arsenal-b", help="rally mode: seat B's shot cards"),
):
    """Play DECK_A against DECK_B into the results store; print win rates with 95% intervals."""
    if scheduler:
        backend = "dask"
    m = None
    if not resume:
        arsenals = None
        if arsenal_a is not None or arsenal_b is not None:
            rules = [*rules, "rally_mode=true"]
            arsenals = (split_cards(arsenal_a), split_cards(arsenal_b))
        m = load_or_fail(folder, deck_a, deck_b, policy_a or policy, policy_b or policy, rules,
                         sets, arsenals)
    res = run_store(m, games, seed, results, run_id, chunk_size, workers or None, backend,
                    scheduler, resume, target_ci, max_games, quiet)
    print_summary(res.run.path)


def print_summary(run_path: Path) -> None:
    """Headline rates of a stored run with Wilson 95% intervals and n."""
    import json

    from rich.console import Console
    from rich.table import Table
    from statsmodels.stats.proportion import proportion_confint

    from sim.store import summarise

    manifest = json.loads((run_path / "manifest.json").read_text())
    c = summarise(run_path)
    n = c["n"]
    names = [d["name"] for d in manifest["decks"]]
    pols = [p["name"] for p in manifest["policies"]]
    table = Table(title=f"{names[0]} ({pols[0]}) vs {names[1]} ({pols[1]}), "
                  f"seed {manifest['seed']}")
    for col in ("quantity", "count", "n", "rate", "95% interval"):
        table.add_column(col, justify="right" if col != "quantity" else "left")

    def rate(label: str, k: int, total: int) -> None:
        lo, hi = proportion_confint(k, total, alpha=0.05, method="wilson")
        table.add_row(label, f"{k:,}", f"{total:,}", f"{k / total:.4f}", f"{lo:.4f} .. {hi:.4f}")

    rate(f"{names[0]} wins", c["a_wins"], n)
    rate(f"{names[1]} wins", c["b_wins"], n)
    rate("first server wins", c["first_server_wins"], n)
    rate("match ended by deck-out", c["deckouts"], n)
    console = Console()
    console.print(table)
    mean = c["points_sum"] / n
    var = max(c["points_sq"] / n - mean**2, 0.0) * n / max(n - 1, 1)
    gps = manifest.get("games_per_second")
    console.print(f"points per match {mean:.2f} (95% +- {1.96 * (var / n) ** 0.5:.2f}), "
                  f"turns per match {c['turns_sum'] / n:.1f}; {n:,} matches"
                  + (f", {gps:,.0f} matches/s" if gps else ""))
    check = manifest.get("exact_check")
    if check:
        verdict = "FLAGGED" if check["flagged"] else "agrees"
        console.print(f"exact check: {check['quantities']} quantities, max |z| "
                      f"{check['max_abs_z']:.2f}, {check['flagged']} flagged: {verdict} "
                      "(exact_check.parquet)")
    console.print(f"run: {run_path}")


@app.command()
def runs(results: Path = typer.Option(Path("results"), "--results")):
    """List the runs in the results directory."""
    from rich.console import Console
    from rich.table import Table

    from sim.store import list_runs

    table = Table()
    for col in ("run", "created", "status", "matches", "decks", "policies"):
        table.add_column(col)
    for m in list_runs(results):
        table.add_row(m["run_id"], m["created"], m["status"], f"{m['games_done']:,}",
                      " vs ".join(d["name"] for d in m["decks"]),
                      " vs ".join(p["name"] for p in m["policies"]))
    Console().print(table)


@app.command()
def replay(run: str = typer.Argument(..., help="run id"),
           game: int = typer.Argument(..., min=0, help="match index in the run"),
           results: Path = typer.Option(Path("results"), "--results")):
    """The full turn-by-turn log of one match of a run, from the reference engine."""
    import numpy as np

    from sim.paintline.reference import replay as replay_match
    from sim.records import MATCH_COLUMNS
    from sim.run import matchup_from_manifest
    from sim.store import StoreError, open_run, read_table

    try:
        folder = open_run(results, run)
        manifest = folder.read_manifest()
    except StoreError as err:
        fail(str(err))
    if game >= manifest["games_done"] and manifest["status"] == "complete":
        fail(f"run {run} has matches 0 .. {manifest['games_done'] - 1}")
    m = matchup_from_manifest(manifest)
    g = replay_match(m, manifest["seed"], game)
    typer.echo("\n".join(g.text))
    df = read_table(folder.path, "matches")
    row = df[df.game_index == game]
    if len(row):
        stored = row[list(MATCH_COLUMNS)].to_numpy()[0]
        same = np.array_equal(stored, g.record)
        typer.echo(f"record {'matches' if same else 'DIFFERS FROM'} the batch record of match "
                   f"{game}")
        if not same:
            raise typer.Exit(1)


def split_cards(text: str | None) -> list[str]:
    return [c.strip() for c in (text or "").split(",") if c.strip()]


@app.command()
def exact(
    arsenal_a: str = typer.Option("", "--arsenal-a", help="seat A's shot cards, comma separated"),
    arsenal_b: str = typer.Option("", "--arsenal-b", help="seat B's shot cards, comma separated"),
    policy: str = typer.Option("greedy", "--policy", help="policy of both seats"),
    policy_a: str = typer.Option(None, "--policy-a"),
    policy_b: str = typer.Option(None, "--policy-b"),
    rules: list[str] = typer.Option([], "--rules", help="rule option KEY=VALUE (repeatable)"),
    folder: Path = typer.Option(DEFAULT_FOLDER, "--folder", help="game folder"),
    check_games: int = typer.Option(0, "--check", min=0, help="also simulate N matches"),
    seed: int = typer.Option(1, "--seed", min=0),
    worth: bool = typer.Option(False, "--worth", help="also A's arsenal's worth on the d20"),
):
    """Exact rally, game and match odds of a rally-mode setting (each seat starts every
    rally with its arsenal); with --check N, a simulation beside it with z-scores."""
    from sim.paintline import exact as ex
    from sim.paintline.batch import load_matchup
    from sim.paintline.pool import PoolError, load_folder

    if not folder.is_dir():
        fail(f"{folder}: no such game folder")
    try:
        data = load_folder(folder)
        overrides = parse_overrides(rules)
        overrides["rally_mode"] = True
        rule_set = data.rules.replace(**overrides)
        decks = list(data.decks)
        m = load_matchup(folder, decks[0], decks[-1], policy_a or policy, policy_b or policy,
                         rule_set, (split_cards(arsenal_a), split_cards(arsenal_b)))
        answer = ex.solve(m)
    except PoolError as err:
        fail("\n".join(str(p) for p in err.problems))
    except ValueError as err:
        fail(str(err))
    from rich.console import Console
    from rich.table import Table

    console = Console()
    names = [", ".join(m.pool.names[c] for c in cards) or "Default Shot only"
             for cards in m.arsenals]
    console.print(f"A ({m.policy_names[0]}): {names[0]}")
    console.print(f"B ({m.policy_names[1]}): {names[1]}")
    table = Table(title="exact, rally mode")
    for col in ("quantity", "A serves", "B serves"):
        table.add_column(col, justify="right" if col != "quantity" else "left")
    a, b = answer.rallies
    table.add_row("P(server wins point)", f"{a.server_wins:.6f}", f"{b.server_wins:.6f}")
    table.add_row("mean rally length (shots landed)", f"{a.mean_length:.4f}",
                  f"{b.mean_length:.4f}")
    for k in range(1, len(a.survival)):
        table.add_row(f"P(index reaches {m.rules.values['escalation'][k]})",
                      f"{a.survival[k]:.6f}", f"{b.survival[k]:.6f}")
    console.print(table)
    console.print(f"P(A wins game) {answer.game_a_opens:.6f} when A opens, "
                  f"{answer.game_b_opens:.6f} when B opens; P(A wins match) "
                  f"{answer.match:.6f}")
    if worth:
        console.print(f"A's arsenal is worth {ex.worth_on_the_die(m):+.3f} on the d20 (the "
                      "flat modifier giving the bare Default Shot the same point-win odds)")
    if check_games:
        from sim.paintline.batch import run_batch

        rec = run_batch(m, check_games, seed)
        df = ex.check(answer, rec.rally_len.sum(axis=0), rec.rally_top.sum(axis=0),
                      int((rec.matches[:, 0] == 0).sum()), check_games)
        cmp = Table(title=f"exact vs {check_games:,} simulated matches (seed {seed})")
        for col in ("quantity", "server", "exact", "estimate", "se", "z", "n", ""):
            cmp.add_column(col, justify="right" if col not in ("quantity", "") else "left")
        for r in df.itertuples():
            server = "AB"[r.server] if r.server >= 0 else "-"
            cmp.add_row(r.quantity, server, f"{r.exact:.5f}", f"{r.estimate:.5f}",
                        f"{r.se:.5f}", f"{r.z:+.2f}", f"{r.n:,}", "FLAG |z|>4" if r.flag else "")
        console.print(cmp)
        if df.flag.any():
            raise typer.Exit(1)


@app.command()
def matchup(
    decks: list[str] = typer.Argument(..., help="deck names or .deck files"),
    policies: str = typer.Option("greedy", "--policies", help="comma-separated policies"),
    games: int = typer.Option(20_000, "--games", "-n", min=1, help="matches per pairing"),
    seed: int = typer.Option(1, "--seed", min=0, max=2**63 - 1),
    rules: list[str] = typer.Option([], "--rules", help="rule option KEY=VALUE (repeatable)"),
    folder: Path = typer.Option(DEFAULT_FOLDER, "--folder", help="game folder"),
    results: Path = typer.Option(Path("results"), "--results", help="results directory"),
    run_id: str = typer.Option(None, "--run-id", help="name of the round-robin folder"),
    chunk_size: int = typer.Option(50_000, "--chunk-size", min=1),
    workers: int = typer.Option(0, "--workers", min=0),
    quiet: bool = typer.Option(False, "--quiet", "-q"),
):
    """Round robin: every (deck, policy) entrant against every other, one run each, in one
    folder results/RUN/; prints the matrix of win rates."""
    import json
    from datetime import UTC, datetime

    from sim.store import StoreError, check_run_id

    entrants = [(d, p) for d in decks for p in split_cards(policies)]
    if len(entrants) < 2:
        fail("a round robin needs at least two (deck, policy) entrants")
    run_id = run_id or datetime.now(UTC).strftime("rr-%Y%m%d-%H%M%S")
    try:
        check_run_id(run_id)
    except StoreError as err:
        fail(str(err))
    root = results / run_id
    pairings = []
    for i, (da, pa) in enumerate(entrants):
        for db, pb in entrants[i + 1:]:
            m = load_or_fail(folder, da, db, pa, pb, rules, [])
            name = f"{len(pairings):03d}"
            res = run_store(m, games, seed, root, name, chunk_size, workers or None, "loky", None,
                            None, None, None, quiet)
            pairings.append({"run": name, "a": [m.decks[0].name, pa], "b": [m.decks[1].name, pb],
                             "games": res.games})
    (root / "roundrobin.json").write_text(json.dumps({"run_id": run_id, "seed": seed,
                                                      "pairings": pairings}, indent=2))
    from analysis.metrics import matchup_matrix

    table = matchup_matrix(root)
    typer.echo(table.to_string())
    typer.echo(f"round robin: {root}")


@app.command()
def report(run: str = typer.Argument(..., help="run id, or a run folder"),
           results: Path = typer.Option(Path("results"), "--results")):
    """Write report.html (figures embedded) and report.md into the run folder."""
    from analysis.report import build_report
    from sim.store import StoreError, open_run

    path = Path(run)
    if not (path / "manifest.json").is_file():
        try:
            path = open_run(results, run).path
        except StoreError as err:
            fail(str(err))
    html, md = build_report(path)
    typer.echo(f"report: {html}\nsummary: {md}")


def print_frame(df, title: str, columns: list[str]) -> None:
    """A DataFrame as a rich table (floats to 4 places)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for c in columns:
        table.add_column(c, justify="left" if df[c].dtype == object else "right")
    for row in df[columns].itertuples(index=False):
        table.add_row(*[f"{v:.4f}" if isinstance(v, float) else str(v) for v in row])
    Console().print(table)


@app.command()
def sensitivity(
    deck_a: DeckA = "us-red-tide",
    deck_b: DeckB = "ussr-red-tide",
    games: Games = 10_000,
    seed: Seed = 1,
    policy: Policy = "greedy",
    card: list[str] = typer.Option([], "--card", help="only these cards (repeatable)"),
    rules: RuleChanges = [],  # noqa: B006 (typer reads the default, never mutates it)
    folder: Folder = DEFAULT_FOLDER,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Change in win rate per +1 of each shot card's bonus and penalty (both value sets),
    paired on the same seeds, with each card's worth on the d20."""
    from sim.experiments import sensitivity as run_sensitivity

    m = load_or_fail(folder, deck_a, deck_b, policy, policy, rules, [])
    df = guarded(lambda: run_sensitivity(m, games, seed, results, run_id, card or None))
    print_frame(df, f"card-value sensitivity, {games:,} paired matches each",
                ["item", "deck", "delta", "lo", "hi", "variance_reduction", "worth_d20"])


@app.command()
def ablation(
    deck_a: DeckA = "us-red-tide",
    deck_b: DeckB = "ussr-red-tide",
    games: Games = 10_000,
    seed: Seed = 1,
    policy: Policy = "greedy",
    rules: RuleChanges = [],  # noqa: B006 (typer reads the default, never mutates it)
    folder: Folder = DEFAULT_FOLDER,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Each card's causal worth: all its copies swapped for Blanks on the same seeds."""
    from sim.experiments import ablation as run_ablation

    m = load_or_fail(folder, deck_a, deck_b, policy, policy, rules, [])
    df = guarded(lambda: run_ablation(m, games, seed, results, run_id))
    print_frame(df.sort_values("delta", ascending=False), "win rate the card adds to its deck",
                ["item", "copies", "delta", "lo", "hi", "p_adjusted", "reject"])


@app.command()
def sweep(
    deck_a: DeckA = "us-red-tide",
    deck_b: DeckB = "ussr-red-tide",
    vary: str = typer.Option("stamina", "--vary", help="stamina, copies or mix"),
    card: str = typer.Option(None, "--card", help="with --vary copies"),
    mix: str = typer.Option("drive,lob", "--mix", help="with --vary mix: FROM,TO shot types"),
    values: str = typer.Option(None, "--values", help="comma-separated; default full range"),
    seat: int = typer.Option(0, "--seat", min=0, max=1, help="0 sweeps deck A, 1 deck B"),
    games: Games = 10_000,
    seed: Seed = 1,
    policy: Policy = "greedy",
    rules: RuleChanges = [],  # noqa: B006 (typer reads the default, never mutates it)
    folder: Folder = DEFAULT_FOLDER,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Win rate against a deck-composition count (stamina 10..30, or copies of a card 0..4),
    same seeds at every point, with the optimum and the values it is not told apart from."""
    from sim.experiments import sweep as run_sweep

    default = {"stamina": range(10, 31, 2), "copies": range(0, 5), "mix": range(0, 7)}.get(
        vary, range(0, 5))
    mix_types = tuple(split_cards(mix))
    if len(mix_types) != 2:
        fail(f"--mix expects FROM,TO, got {mix!r}")
    try:
        vals = [int(v) for v in split_cards(values)] if values else list(default)
    except ValueError:
        fail(f"--values must be integers, got {values!r}")
    m = load_or_fail(folder, deck_a, deck_b, policy, policy, rules, [])
    df = guarded(lambda: run_sweep(m, seat, vary, vals, games, seed, results, run_id, card,
                                   mix=mix_types))
    cols = ["value", "k", "n", "rate", "lo", "hi", "optimum_set"] + [
        c for c in df.columns if c.startswith("p_stamina")]
    print_frame(df, f"sweep of {vary} in {m.decks[seat].name}", cols)


@app.command()
def whatif(
    deck_a: DeckA = "us-red-tide",
    deck_b: DeckB = "ussr-red-tide",
    rules: list[str] = typer.Option(..., "--rules", help="the variant's KEY=VALUE changes"),
    games: Games = 20_000,
    seed: Seed = 1,
    policy: Policy = "greedy",
    folder: Folder = DEFAULT_FOLDER,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Baseline against variant rules on the same seeds: every delta with its interval."""
    from sim.experiments import whatif as run_whatif

    m = load_or_fail(folder, deck_a, deck_b, policy, policy, [], [])
    changes = parse_overrides(rules)
    df = guarded(lambda: run_whatif(m, changes, games, seed, results, run_id))
    print_frame(df, f"what if {', '.join(rules)} ({games:,} paired matches)",
                ["item", "baseline", "variant", "delta", "lo", "hi"])


@app.command()
def diff(run_a: str, run_b: str, results: Path = typer.Option(Path("results"), "--results")):
    """What moved between two runs beyond noise (Benjamini-Hochberg at 5%)."""
    from sim.experiments import diff_runs
    from sim.store import StoreError, open_run

    try:
        a, b = open_run(results, run_a).path, open_run(results, run_b).path
    except StoreError as err:
        fail(str(err))
    df = diff_runs(a, b)
    print_frame(df, f"{run_a} -> {run_b} ({'paired' if df.paired.iat[0] else 'unpaired'})",
                ["item", "run_a", "run_b", "delta", "lo", "hi", "p_adjusted", "moved"])


def guarded(fn):
    """Run an experiment; bad input becomes one clear line and exit status 2."""
    from sim.paintline.pool import PoolError
    from sim.store import StoreError

    try:
        return fn()
    except PoolError as err:
        fail("\n".join(str(p) for p in err.problems))
    except (StoreError, FileExistsError) as err:
        fail(str(err))


@app.command()
def flags(
    deck_a: DeckA = "us-red-tide",
    deck_b: DeckB = "ussr-red-tide",
    policies: str = typer.Option("greedy,pressure,lookahead", "--policies"),
    games: Games = 20_000,
    seed: Seed = 1,
    folder: Folder = DEFAULT_FOLDER,
    results: Results = Path("results"),
    run_id: RunId = None,
):
    """Balance flags under several policies: which verdicts are robust to how cards are
    played (no sign change, no large rank change, at least three policies)."""
    from sim.experiments import robust_flags

    names = split_cards(policies)
    if len(names) < 3:
        typer.echo("note: robustness needs at least three policies", err=True)
    df = guarded(lambda: robust_flags(folder, deck_a, deck_b, names, games, seed, results,
                                      run_id))
    print_frame(df.sort_values(["deck", "robust"]), "verdicts by policy",
                ["deck", "name", *names, "sign_change", "rank_change", "robust"])
