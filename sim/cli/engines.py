"""`cardlab exact` and `cardlab warm`: a game's exact answer beside a simulation of it, and
every game's engine compiled ahead of its first run."""

from __future__ import annotations

from typing import Annotated

import typer

from sim.cli.shared import (
    CardSets,
    DeckA,
    DeckB,
    Folder,
    Policy,
    PolicyA,
    PolicyB,
    RuleChanges,
    Seed,
    Setup,
    fail,
    guarded,
    print_frame,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.


def exact(
    deck_a: DeckA = None,
    deck_b: DeckB = None,
    folder: Folder = None,
    policy: Policy = None,
    policy_a: PolicyA = None,
    policy_b: PolicyB = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    check_matches: Annotated[int, typer.Option(
        "--check", min=1, help="matches simulated beside the exact answer")] = 20_000,
    seed: Seed = 1,
):
    """The game's exact answer for a setting beside a simulation of it, with z-scores;
    exit status 1 when any quantity is off by more than 4 standard errors."""
    setup = Setup(folder, deck_a, deck_b, policy, policy_a, policy_b, tuple(rules or ()),
                  tuple(sets or ()))
    game, m, info = setup.load()
    if game.exact_check is None:
        fail(f"{game.name} has no exact solver")
    rec = game.run_batch(m, check_matches, seed)
    df = guarded(lambda: game.exact_check(m, rec.totals()))
    if df is None:
        fail(f"{game.name}: this setting is not covered by the exact solver")
    print_frame(df.assign(flag=df.flag.map({True: "FLAG |z|>4", False: ""})),
                f"{game.name}: exact vs {check_matches:,} simulated matches (seed {seed})",
                ["quantity", "seat", "exact", "estimate", "se", "z", "n", "flag"])
    if df.flag.any():
        raise typer.Exit(1)


def warm(folders: Annotated[list[str] | None, typer.Option(
        "--folder", "-f", help="game folders or names (default: every registered game)")] = None,
         jobs: Annotated[int, typer.Option(
             "--jobs", "-j", min=0, help="games compiled at once, each in its own process "
             "(0: one per core)")] = 0):
    """Compile each game's engine now (it is cached, keyed to the engine's sources), so that
    the first run after an install or an engine change starts at once; prints each game's
    compile time. Games compile side by side, one per core."""
    import os
    import time

    from sim.kit import game as registry
    from sim.kit.folders import read_folder
    from sim.runner.warmup import warm_all

    start = time.perf_counter()
    folders = folders or registry.names()
    guarded(lambda: [registry.get(read_folder(f).game) for f in folders])
    for name, seconds, took in warm_all(folders, jobs or os.cpu_count() or 1):
        typer.echo(f"{name}: " + (f"compiled in {seconds:.1f} s" if seconds is not None
                                  else f"already compiled (loaded in {took:.1f} s)"))
    if len(folders) > 1:
        typer.echo(f"{len(folders)} engines ready in {time.perf_counter() - start:.1f} s")


def mount(app: typer.Typer) -> None:
    app.command()(exact)
    app.command()(warm)
