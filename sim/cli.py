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
