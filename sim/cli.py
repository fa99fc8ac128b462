"""The `cardlab` command line: check data files, simulate decks, print answers with intervals."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)

DEFAULT_FOLDER = Path("decks/paintline")


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


@app.command()
def simulate(
    deck_a: str = typer.Argument("us-red-tide", help="deck name in the folder, or a .deck file"),
    deck_b: str = typer.Argument("ussr-red-tide", help="deck name in the folder, or a .deck file"),
    games: int = typer.Option(100_000, "--games", "-n", min=1, help="matches to play"),
    seed: int = typer.Option(1, "--seed", min=0, help="master seed"),
    policy: str = typer.Option("greedy", "--policy", help="policy of both seats"),
    policy_a: str = typer.Option(None, "--policy-a", help="policy of deck A"),
    policy_b: str = typer.Option(None, "--policy-b", help="policy of deck B"),
    rules: list[str] = typer.Option([], "--rules", help="rule option override KEY=VALUE"),
    folder: Path = typer.Option(DEFAULT_FOLDER, "--folder", help="game folder"),
    threads: int = typer.Option(0, "--threads", min=0, help="kernel threads (0: all cores)"),
):
    """Play DECK_A against DECK_B and print win rates with 95% intervals."""
    import time

    from sim.paintline.batch import load_matchup, run_batch
    from sim.paintline.pool import PoolError, load_folder

    if not folder.is_dir():
        fail(f"{folder}: no such game folder")
    try:
        base = load_folder(folder).rules
        rule_set = base.replace(**parse_overrides(rules)) if rules else base
        m = load_matchup(folder, deck_a, deck_b, policy_a or policy, policy_b or policy,
                         rule_set)
    except PoolError as err:
        fail("\n".join(str(p) for p in err.problems))
    import numba

    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    run_batch(m, 1, seed)  # compile (or load from cache) outside the timed run
    start = time.perf_counter()
    rec = run_batch(m, games, seed)
    wall = time.perf_counter() - start
    print_summary(m, rec.matches_frame(), seed, wall)


def print_summary(m, df, seed: int, wall: float) -> None:
    """Headline rates with Wilson 95% intervals and n."""
    from rich.console import Console
    from rich.table import Table
    from statsmodels.stats.proportion import proportion_confint

    n = len(df)
    names = [d.name for d in m.decks]
    table = Table(title=f"{names[0]} ({m.policy_names[0]}) vs {names[1]} "
                  f"({m.policy_names[1]}), seed {seed}")
    for col in ("quantity", "count", "n", "rate", "95% interval"):
        table.add_column(col, justify="right" if col != "quantity" else "left")

    def rate(label: str, k: int, total: int) -> None:
        lo, hi = proportion_confint(k, total, alpha=0.05, method="wilson") if total else (0, 0)
        table.add_row(label, f"{k:,}", f"{total:,}", f"{k / total:.4f}" if total else "-",
                      f"{lo:.4f} .. {hi:.4f}")

    rate(f"{names[0]} wins", int((df.winner == 0).sum()), n)
    rate(f"{names[1]} wins", int((df.winner == 1).sum()), n)
    rate("first server wins", int((df.winner == df.first_server).sum()), n)
    rate("match ended by deck-out", int((df.end == 1).sum()), n)
    console = Console()
    console.print(table)
    sd = df.points.std(ddof=1) / n**0.5 if n > 1 else 0.0
    console.print(f"points per match {df.points.mean():.2f} (95% +- {1.96 * sd:.2f}), "
                  f"turns per match {df.turns.mean():.1f}; {n:,} matches in {wall:.2f} s "
                  f"({n / wall:,.0f} matches/s)")
