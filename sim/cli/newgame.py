"""`cardlab new-game`: a new game begun from the template, a whole small game (High Card) whose
package and folder are copied under the new name, registered and placed in the layer
contracts, ready to be rewritten rule by rule with its tests passing from the start."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.shared import guarded

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.


def new_game(
    name: Annotated[str, typer.Argument(help="the game's name: a Python name in lower case")],
    title: Annotated[str, typer.Option("--title", help="the game's title")] = "",
    root: Annotated[Path | None, typer.Option(
        "--root", help="the checkout to write into (default: the one that holds sim/)")] = None,
) -> None:
    """Begin a new game from the template: sim/NAME (the rules, engines and hooks of every
    file role), decks/NAME (cards, rules, decks, policies), docs/NAME-rules.md (its rules
    and the table of its rule options) and tests/test_NAME_rules.py (its rule scenarios),
    registered and in the layer contracts. It plays at once, and
    `python -m pytest tests/test_contract.py tests/test_NAME_rules.py` passes."""
    from sim.kit import template

    made = guarded(lambda: template.begin(name, title or name.title(),
                                          root or template.ROOT))
    typer.echo(f"package: {made.package}\nfolder:  {made.folder}")
    if made.doc:
        typer.echo(f"rules:   {made.doc}")
    if made.tests:
        typer.echo(f"tests:   {made.tests}")
    for path in made.edited:
        typer.echo(f"edited:  {path}")
    for line in made.to_do:
        typer.echo(f"to do:   {line}")
    typer.echo(f"next: cardlab simulate --folder {made.folder}; the guide's \"Add a game\" "
               "lists each file's role")


def mount(app: typer.Typer) -> None:
    app.command("new-game")(new_game)
