"""Compiling a game's engine before its first use, and saying so while it compiles.

A game's compiled code is cached on disk, keyed to its sources (sim/core/jit.py); the first run
after an install or an engine change compiles it, which takes from seconds to minutes. That
wait is announced, with the time the last compile of the same game took on this machine,
and `cardlab warm` does it ahead of time. A marker file beside the cache says that a folder
holds a whole engine.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from rich.console import Console

from sim.core import jit
from sim.kit import game as registry
from sim.kit.folders import read_folder

MARKER = "compiled.json"


def _folder(game_name: str) -> Path | None:
    return jit.cache_folder(game_name)


def is_compiled(game_name: str) -> bool:
    """True when this machine's cache holds the game's engine for its current sources."""
    return _marked(_folder(game_name))


def _marked(folder: Path | None) -> bool:
    return folder is not None and (folder / MARKER).is_file()


def last_seconds(game_name: str, fallback: float) -> float:
    """How long the game's latest compile on this machine took (any earlier version of its
    sources), or the game's own figure when it never compiled here."""
    return _last_seconds(_folder(game_name), fallback)


def _last_seconds(folder: Path | None, fallback: float) -> float:
    if folder is None:
        return fallback
    seen = []
    for marker in folder.parent.glob(f"*/{MARKER}"):
        try:
            taken = json.loads(marker.read_text())["seconds"]
            if taken is not None:
                seen.append((marker.stat().st_mtime, float(taken)))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return max(seen)[1] if seen else fallback


def _about(seconds: float) -> str:
    return f"about {seconds:.0f} s" if seconds < 90 else f"about {seconds / 60:.0f} min"


def ensure(game, matchup, quiet: bool = False) -> float | None:
    """Compile (or load) the game's engine for this matchup by playing one match. When the
    cache has no engine yet, say so on stderr while it compiles (a spinner on a terminal),
    then record the time it took. Returns the compile's seconds, or None when the engine was
    already cached."""
    folder = _folder(game.name)  # hashes the engine's sources: once a call

    def play_one():  # numba compiles (or loads) the engine here
        game.run_batch(matchup, 1, 0)

    if _marked(folder) or (folder is not None and any(
            jit.WRAPPED not in path.parts for path in folder.rglob("*.nbi"))):
        # Cached, whole or in part (a run before the marker existed): a load, not a compile.
        # (Twins a test called from Python, cached apart, are not the engine.)
        play_one()
        if folder is not None and not (folder / MARKER).is_file():
            (folder / MARKER).write_text(json.dumps({"game": game.name, "seconds": None}))
        return None
    note = (f"compiling the {game.title} engine (first run after an install or an engine "
            f"change, {_about(_last_seconds(folder, game.compile_seconds))})")
    start = time.perf_counter()
    if quiet:
        play_one()
    elif sys.stderr.isatty():
        with Console(stderr=True).status(note):
            play_one()
    else:
        print(note, file=sys.stderr, flush=True)
        play_one()
    seconds = time.perf_counter() - start
    if folder is not None:
        (folder / MARKER).write_text(json.dumps({"game": game.name, "seconds": round(seconds, 1)}))
    if not quiet:
        print(f"compiled the {game.title} engine in {seconds:.0f} s", file=sys.stderr,
              flush=True)
    return seconds


def warm_folder(folder: str) -> tuple[str, float | None, float]:
    """Compile (or load) the engine of a game folder's default matchup: (game, compile
    seconds or None when it was cached, seconds taken)."""
    start = time.perf_counter()
    info = read_folder(folder)
    game = registry.get(info.game)
    m = game.load_matchup(info.path, info.decks[0], info.decks[1], info.policy, info.policy,
                          {}, [])
    seconds = ensure(game, m, quiet=True)
    return game.name, seconds, time.perf_counter() - start


def warm_all(folders: list[str], jobs: int) -> Iterator[tuple[str, float | None, float]]:
    """warm_folder of each folder, in the order they finish, `jobs` processes at once: numba
    compiles a game on one core, so games compile side by side, the longest started first.
    The folders are read here first, so that a bad one is this process's clear error."""
    games = [registry.get(read_folder(f).game) for f in folders]
    if jobs <= 1 or len(folders) <= 1:
        yield from map(warm_folder, folders)
        return

    order = sorted(range(len(folders)), key=lambda i: -last_seconds(games[i].name,
                                                                    games[i].compile_seconds))
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no inherited threads
    with ProcessPoolExecutor(max_workers=min(jobs, len(folders)), mp_context=context) as pool:
        futures = [pool.submit(warm_folder, folders[i]) for i in order]
        for done in as_completed(futures):
            yield done.result()
