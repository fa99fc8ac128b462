"""What the `cardlab` commands share: the matchup options block, clear errors with exit
status 2, the progress bar and table printing."""

from __future__ import annotations

import functools
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from sim.core.problems import InputError, Problem

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.

DeckA = Annotated[str | None, typer.Argument(
    help="deck A: a name in the folder or a .deck file (default: the folder's game.toml)")]
DeckB = Annotated[str | None, typer.Argument(help="deck B: likewise")]
Matches = Annotated[int, typer.Option("--matches", "--games", "-n", min=1,
                                      help="matches per run")]
Seed = Annotated[int, typer.Option("--seed", min=0, max=2**63 - 1, help="master seed")]
Policy = Annotated[str | None, typer.Option(
    "--policy", help="policy of both seats (default: the folder's game.toml)")]
PolicyA = Annotated[str | None, typer.Option("--policy-a", help="policy of deck A")]
PolicyB = Annotated[str | None, typer.Option("--policy-b", help="policy of deck B")]
Table = Annotated[str | None, typer.Option(
    "--table", help="decks of seats C, D ... of a game for more than two players, "
    "comma-separated (default: the folder's [table] decks)")]
RuleChanges = Annotated[list[str] | None, typer.Option(
    "--rules", help="rule option KEY=VALUE (repeatable)")]
CardSets = Annotated[list[str] | None, typer.Option(
    "--set", help="card value CARD.FIELD=VALUE for this run (repeatable)")]
Folder = Annotated[str | None, typer.Option(
    "--folder", help="game folder, or a registered game's name (default: the first game)")]
def results_folder(path: Path) -> Path:
    """--results: a folder, or a path where one can be made; a file there is refused at once
    (exit 2), before any command reads or writes under it."""
    if path.exists() and not path.is_dir():
        fail(f"{path}:0: --results names a file, not a folder")
    return path


Results = Annotated[Path, typer.Option("--results", help="results directory",
                                       callback=results_folder)]


def scheduler_address(value: str | None) -> str | None:
    """--scheduler: tcp://HOST:PORT, the port a number; anything else is refused at once
    (exit 2), before a run folder is made."""
    if value is not None and not re.fullmatch(r"tcp://[^\s:/]+:\d{1,5}", value):
        fail(f"--scheduler:0: expects tcp://HOST:PORT (a Dask scheduler's address), got "
             f"{value!r}")
    return value


Scheduler = Annotated[str | None, typer.Option(help="tcp://HOST:PORT of a Dask cluster",
                                               callback=scheduler_address)]
RunId = Annotated[str | None, typer.Option("--run-id", help="name of the output folder")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]
# The options of the card verdicts (verdicts, report, flags, calibrate).
MarginShare = Annotated[float, typer.Option(
    "--margin-share", help="the verdict margin: this share of the gap between par and the "
    "same card with no effect (per copy)")]
VerdictPolicies = Annotated[int, typer.Option(
    "--policies", help="the folder's policies that play each deck: the trained one and the "
    "best of the others")]
VerdictFolder = Annotated[str | None, typer.Option(
    "--folder", help="the game folder whose policies play the decks (default: the run's game "
    "folder)")]
FieldMatches = Annotated[int, typer.Option(
    "--field-matches", min=0, help="matches of each card against each deck of the folder's "
    "field (0: none)")]
VerdictStart = Annotated[int, typer.Option(
    "--verdict-start", help="matches every card's paired arm starts with")]
VerdictMax = Annotated[int, typer.Option(
    "--verdict-max", help="most matches one card's arm may take")]


def fail(message: str) -> None:
    """One clear line on stderr and exit status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def interrupted(folder: Path, kept: str, again: str) -> None:
    """On Ctrl-C: how to resume `folder` (`again`, the command) where something was kept
    there; else that nothing was, and no empty folder left behind; exit 130."""
    if folder.is_dir() and any(folder.iterdir()):
        typer.echo(f"\ninterrupted: {kept} are kept. Resume with:\n  {again}", err=True)
    else:
        if folder.is_dir():
            folder.rmdir()
        typer.echo("\ninterrupted before anything was kept: nothing to resume", err=True)
    raise typer.Exit(130)


def guarded(fn):
    """Run fn(); bad input becomes clear lines and exit status 2, never a traceback."""
    from sim.store.runs import StoreError

    try:
        return fn()
    except InputError as err:
        fail("\n".join(str(p) for p in err.problems))
    except (StoreError, FileExistsError) as err:
        fail(str(err))
    except OSError as err:  # a Dask scheduler not answering, a folder that cannot be made
        fail(str(err))


def run_folder(run: str, results: Path) -> Path:
    """A run id under --results, or a run folder's path (as `simulate` prints it); exit 2
    for a folder an experiment wrote (its manifest names its kind and no run)."""
    from sim.store.runs import RunFolder, check_run_id

    path = Path(run)
    folder = (RunFolder(path.parent, path.name) if path.is_dir()
              else RunFolder(Path(results), guarded(lambda: check_run_id(run))))
    manifest = guarded(folder.read_manifest)
    if "run_id" not in manifest:
        fail(f"{folder.path} holds what `cardlab {manifest.get('kind', 'an experiment')}` "
             "wrote, not a simulation run; `cardlab runs` lists the runs")
    return folder.path


def parse_overrides(items: list[str] | None, where: str = "--rules") -> dict:
    """KEY=VALUE pairs, each VALUE read as a TOML value (bare words as strings); `where`:
    the option they were given with, that an error names."""
    import tomllib

    out = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            fail(str(Problem(where, 0, f"expects KEY=VALUE, got {item!r}")))
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip()
        out[key.strip()] = value
    return out


def split_list(text: str | None) -> list[str]:
    return [c.strip() for c in (text or "").split(",") if c.strip()]


@dataclass(frozen=True)
class Setup:
    """The matchup options block as given on the command line."""

    folder: str | None = None
    deck_a: str | None = None
    deck_b: str | None = None
    policy: str | None = None
    policy_a: str | None = None
    policy_b: str | None = None
    rules: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    table: tuple[str, ...] = ()  # the decks of seats C, D ... where the game seats more

    def info(self):
        """The folder's game.toml (the first registered game's folder by default)."""
        from sim.kit.folders import default_folder, read_folder

        folder = self.folder or str(default_folder())
        return guarded(lambda: read_folder(folder))

    def load(self, rules: dict | None = None, engine: bool = True):
        """(game, matchup, folder info) from the options, or a clear error and exit 2; with
        `engine`, the game's compiled engine loaded (compiled first, announced, if needed)."""
        info = self.info()
        game, m = guarded(lambda: self.matchup(info, rules))
        if engine:
            from sim.runner.warmup import ensure

            ensure(game, m)
        return game, m, info

    def matchup(self, info, rules: dict | None = None):
        """(game, matchup) from the options and the folder's info; InputError on bad input
        (a solver trying values catches it)."""
        from sim.kit import game as registry
        from sim.kit.folders import folder_policies, require_policies

        game = registry.get(info.game)
        typed = [(option, name) for option, name in (("--policy-a", self.policy_a),
                                                      ("--policy-b", self.policy_b),
                                                      ("--policy", self.policy)) if name]
        known = folder_policies(info.path) if typed else None  # read once, not per option
        for option, name in typed:
            require_policies(info.path, [name], option, known)
        deck_a = self.deck_a or info.decks[0]
        deck_b = self.deck_b or info.decks[1]
        pa = self.policy_a or self.policy or info.policy
        pb = self.policy_b or self.policy or info.policy
        # What game.toml gives is told at its line there, not as a name typed here.
        info.require("defaults.decks", [d for d, given in zip(info.decks, (self.deck_a,
                                                                           self.deck_b),
                                                              strict=True) if not given])
        if not (self.policy_a or self.policy) or not (self.policy_b or self.policy):
            info.require("defaults.policy")
        changes = {**parse_overrides(list(self.rules)), **(rules or {})}
        # Only a game seating more than two takes the decks of further seats.
        more = {"table": self.table} if self.table else {}
        if more and game.seats[1] == 2:
            raise InputError([Problem("--table", 0, f"{game.title} seats two players; "
                                      "--table names the decks of further seats")])
        m = game.load_matchup(info.path, deck_a, deck_b, pa, pb, changes, list(self.sets),
                              **more)
        # A deck --table names that no seat takes would be dropped without a word.
        if more and len(m.decks) < 2 + len(self.table):
            n = len(m.decks)
            raise InputError([Problem("--table", 0, f"{len(self.table)} deck(s) for seats C, "
                                      f"D ..., but the table seats {n} (rule option players "
                                      f"= {n}), {n - 2} after A and B: --table applies to a "
                                      "table of 3 or more (--rules players=N)")])
        return game, m


def _setup_template(
    deck_a: DeckA = None,
    deck_b: DeckB = None,
    folder: Folder = None,
    policy: Policy = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    table: Table = None,
):
    """The shared options' declarations, read by `with_setup`."""


def with_setup(fn):
    """A command taking `setup: Setup` gets the shared matchup options (decks, --folder,
    --policy, --rules, --set) appended to its own, declared once in _setup_template."""
    # Annotations evaluated here, each in its own module, so that typer reads real types.
    shared = inspect.signature(_setup_template, eval_str=True).parameters
    own = [p for p in inspect.signature(fn, eval_str=True).parameters.values()
           if p.name != "setup"]
    # typer's Context has no default: passed by keyword, it goes last, after the defaults.
    context = [p.replace(kind=p.KEYWORD_ONLY) for p in own if p.annotation is typer.Context]
    own = [p for p in own if p.annotation is not typer.Context]
    first = [shared["deck_a"], shared["deck_b"]]
    rest = [p for name, p in shared.items() if name not in ("deck_a", "deck_b")] + context

    @functools.wraps(fn)
    def command(**kwargs):
        values = {name: kwargs.pop(name) for name in shared}
        values["rules"] = tuple(values["rules"] or ())
        values["sets"] = tuple(values["sets"] or ())
        values["table"] = tuple(split_list(values["table"]))
        return fn(setup=Setup(**values), **kwargs)

    command.__signature__ = inspect.Signature(first + own + rest)
    command.__annotations__ = {p.name: p.annotation for p in first + own + rest}
    return command


def progress_bar(quiet: bool):
    """A rich progress callback on a terminal; None in CI, with --quiet or when piped."""
    import os
    import sys
    import time

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
    start = time.perf_counter()

    def update(done: int, total: int, _: int) -> None:
        rate = done / max(time.perf_counter() - start, 1e-9)
        bar.update(task, completed=done, total=total, rate=f"{rate:,.0f}/s")

    return bar, update


def run_store(game, m, matches, seed, results, run_id, chunk_size=None, workers=None,
              backend="loky", scheduler=None, resume=None, target_ci=None, max_matches=None,
              quiet=False):
    """simulate() with a progress bar, clear errors and the resume hint on Ctrl-C (the run
    named before it starts, so that the hint can name it)."""
    from sim.runner.run import new_run_id, target_chunk
    from sim.runner.run import simulate as run_simulation

    if chunk_size is None:
        chunk_size = target_chunk(target_ci) if target_ci and 0 < target_ci < 0.5 else 50_000
    if run_id is None and not resume:
        run_id = new_run_id(seed)
    bar, update = progress_bar(quiet)
    try:
        if bar:
            bar.start()
        return guarded(lambda: run_simulation(
            game, m, matches, seed, results=results, run_id=run_id, chunk_size=chunk_size,
            workers=workers, backend=backend, scheduler=scheduler, resume=resume,
            target_ci=target_ci, max_matches=max_matches, progress=update))
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: finished chunks are kept. Resume with:\n  cardlab simulate "
                   f"--results {results} --resume {resume or run_id}", err=True)
        raise typer.Exit(130) from None
    finally:
        if bar:
            bar.stop()


def console():
    """A rich console; when the output is piped or captured, wide enough that tables keep
    one line a row (rich would wrap them at 80 columns)."""
    import sys

    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=200)


# Columns that count (matches, successes, copies): whole numbers, even where a row without
# one (NaN) made pandas store the column as floats.
COUNTS = frozenset({"n", "k", "copies"})


def cell(column: str, v) -> str:
    """One value of a printed table: a count whole, a float to 4 places, blank where
    missing."""
    if isinstance(v, float) and v != v:  # v != v: NaN, a value the row does not have
        return ""
    if column in COUNTS and isinstance(v, float):
        return f"{v:.0f}"
    return f"{v:.4f}" if isinstance(v, float) else str(v)


def print_frame(df, title: str, columns: list[str]) -> None:
    """A DataFrame as a rich table (floats to 4 places, counts whole)."""
    import pandas as pd
    from rich.table import Table

    table = Table(title=title)
    columns = [c for c in columns if c in df.columns]
    for c in columns:
        numeric = pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
        table.add_column(c, justify="right" if numeric else "left")
    for row in df[columns].itertuples(index=False):
        table.add_row(*[cell(c, v) for c, v in zip(columns, row, strict=True)])
    console().print(table)


def print_matrix(cells, names: list[str], row: str, col: str, title: str) -> None:
    """Rates of each row against each column (a tidy table: row, col, rate, lo, hi) as a
    matrix, each cell the rate with its 95% interval, "-" where a row meets itself or no
    cell was played."""
    import pandas as pd

    wide = {r: {c: "-" for c in names} for r in names}
    for x in cells.itertuples():
        a, b = getattr(x, row), getattr(x, col)
        if a != b:
            wide[a][b] = f"{x.rate:.3f} ({x.lo:.3f}..{x.hi:.3f})"
    table = pd.DataFrame([{f"{row} \\ {col}": n, **wide[n]} for n in names])
    print_frame(table, title, list(table.columns))


def print_skipped(df) -> None:
    """The variants the validator (or, for a sweep's point, the deck's building) refused:
    attrs["skipped"] of an experiment's table."""
    skipped = df.attrs.get("skipped")
    if skipped is not None and len(skipped):
        print_frame(skipped, f"{len(skipped)} variants skipped: they cannot be built or the "
                    "validator rejects them",
                    ["item", "reason"])
