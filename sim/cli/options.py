"""`cardlab options`: a game's declared rule options, with what each may be, its default, the
folder's own value and what it means (the docs' tables are this command's `--markdown`)."""

from __future__ import annotations

from typing import Annotated

import typer

from sim.cli.shared import Folder, console, guarded

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.


def options(
    folder: Folder = None,
    markdown: Annotated[bool, typer.Option(
        "--markdown", help="the markdown table of the rules docs")] = False,
) -> None:
    """A game's rule options: values, default, this folder's value (its rules.toml) and
    meaning. Any of them can be set in rules.toml or with --rules KEY=VALUE."""
    from rich.markup import escape
    from rich.table import Table

    from sim.kit import game as registry
    from sim.kit.folders import default_folder, read_folder

    info = guarded(lambda: read_folder(folder or str(default_folder())))
    declared = guarded(lambda: registry.get(info.game)).options
    if markdown:
        typer.echo(declared.markdown(), nl=False)
        return
    here = guarded(lambda: declared.load(info.path / "rules.toml"
                                         if (info.path / "rules.toml").is_file() else None))
    table = Table(title=escape(f"{info.game}: rule options ({info.path / 'rules.toml'})"))
    for col in ("option", "values", "default", "this folder", "what it means"):
        table.add_column(col, overflow="fold")
    for o in declared.options:
        now = here.values[o.name]
        # The words are the docs' own: a [table] in them is text, not Rich markup.
        table.add_row(*map(escape, (o.name, o.values, o.show(o.default),
                                    "" if now == o.default else o.show(now), o.doc)))
    console().print(table)


def mount(app: typer.Typer) -> None:
    app.command()(options)
