"""Throughput harness, one table per registered game: the kernel on 1 and 2 threads, the
reference engine on the same matches (and a check that both give the same records), a
pure-dice baseline where the folder's game.toml names one ([pure_dice]), the cold and warm
start of a new process, and `simulate()` end to end against the kernel; then the raw d20
stream.

Run from the repository root: `python benchmarks/bench.py [--matches N] [--game NAME]
[--no-starts]` (`--no-starts` leaves out the cold and warm start).
Prints markdown tables of figures, all measured in this one run.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import tomllib
from datetime import date
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def raw_d20_rate(n: int) -> float:
    """Rolls per second of the bare d20 stream in a compiled loop (the ceiling)."""
    from sim.core.jit import njit
    from sim.core.rng import below, stream_key

    @njit
    def roll_many(n):
        key = stream_key(1, 0, 2)
        total = 0
        for i in range(n):
            total += below(key, i, 20) + 1
        return total

    roll_many(10)
    _, wall = timed(roll_many, n)
    return n / wall


def start_seconds(name: str) -> tuple[float, float]:
    """(cold, warm): a new process to its first match with an empty compile cache (the
    first run of a fresh install), then again with the cache that run left."""
    code = ("from sim.cli.shared import Setup;"
            f"game, m, _ = Setup({name!r}).load(); game.run_batch(m, 1, 1)")
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CARDLAB_CACHE_DIR=cache)
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            out.append(time.perf_counter() - start)
    return out[0], out[1]


def load(name: str, policy: str | None = None, rules: dict | None = None):
    from sim.kit import game as registry
    from sim.kit.folders import default_folder, read_folder

    info = read_folder(default_folder(name))
    game = registry.get(name)
    p = policy or info.policy
    return game, game.load_matchup(info.path, *info.decks, p, p, rules or {}, []), info


def pure_dice(info) -> dict | None:
    """The folder's pure-dice setting ([pure_dice] of game.toml: a policy and rule options
    under which no card is played), for the baseline row."""
    data = tomllib.loads((info.path / "game.toml").read_text(encoding="utf-8"))
    return data.get("pure_dice")


def game_rows(name: str, matches: int, reference_matches: int,
              starts: bool = True) -> list[tuple]:
    from sim.core import blocks
    from sim.runner.run import simulate

    game, m, info = load(name)
    label = f"{info.decks[0]} v {info.decks[1]}, {info.policy}"
    rows = []
    game.run_batch(m, 10, 1)
    rates = {}
    for threads in (1, 2):
        blocks.set_threads(threads)
        _, wall = timed(game.run_batch, m, matches, 1)
        rates[threads] = matches / wall
        rows.append((f"kernel, {label}, {threads} thread(s)", f"{rates[threads]:,.0f}",
                     "matches/s"))
    rows.append(("thread scaling (2 / 1)", f"{rates[2] / rates[1]:.2f}", "x"))
    game.reference_batch(m, 3, 1)  # load what the reference calls, untimed
    ref, ref_wall = timed(game.reference_batch, m, reference_matches, 1)
    assert game.run_batch(m, reference_matches, 1).same_as(ref), "engines disagree"
    ref_rate = reference_matches / ref_wall
    rows.append(("reference engine, same matches", f"{ref_rate:,.1f}", "matches/s"))
    rows.append(("kernel (2 threads) / reference", f"{rates[2] / ref_rate:,.0f}", "x"))
    rows.append(("kernel (1 thread) / reference", f"{rates[1] / ref_rate:,.0f}", "x"))
    dice = pure_dice(info)
    if dice:
        _, dm, _ = load(name, dice["policy"], dice.get("rules", {}))
        game.run_batch(dm, 10, 1)
        rules = ", ".join(f"{k} = {v}" for k, v in dice.get("rules", {}).items())
        for threads in (1, 2):
            blocks.set_threads(threads)
            _, dwall = timed(game.run_batch, dm, 10 * matches, 1)
            rows.append((f"pure dice (`{dice['policy']}` policy, {rules}), {threads} thread(s)",
                         f"{10 * matches / dwall:,.0f}", "matches/s"))
    if starts:
        cold, warm = start_seconds(name)
        rows.append(("cold start: new process, empty compile cache, to first match",
                     f"{cold:.1f}", "s"))
        rows.append(("warm start: new process to first match", f"{warm:.2f}", "s"))
    # simulate() on a run of several chunks, each as large as the kernel's batch above.
    blocks.set_threads(2)
    with tempfile.TemporaryDirectory() as results:
        for workers in (1, 2):
            _, wall = timed(simulate, game, m, 4 * matches, 1, results=results,
                            run_id=f"w{workers}", chunk_size=matches, workers=workers,
                            backend="loky")
            rate = 4 * matches / wall
            rows.append((f"`simulate()` end to end, loky, {workers} worker(s), store included",
                         f"{rate:,.0f}", "matches/s"))
            rows.append((f"`simulate()` ({workers} worker(s)) / kernel (2 threads)",
                         f"{rate / rates[2]:.2f}", "x"))
    return rows


def main() -> None:
    from sim.kit import game as registry

    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", "--games", type=int, default=200_000)
    ap.add_argument("--reference-matches", type=int, default=300)
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--no-starts", action="store_true",
                    help="leave out the cold and warm start (minutes from an empty cache)")
    args = ap.parse_args()

    print(f"machine: {platform.processor() or platform.machine()}, "
          f"{numba.config.NUMBA_NUM_THREADS} cores, Python {platform.python_version()}, "
          f"numba {numba.__version__}, {date.today()}")
    for name in args.game or registry.names():
        rows = game_rows(name, args.matches, args.reference_matches, not args.no_starts)
        print(f"\n### {name} ({args.matches:,} matches a batch)\n")
        print("| figure | value | unit |")
        print("|---|---:|---|")
        for figure, value, unit in rows:
            print(f"| {figure} | {value} | {unit} |")
    print(f"\nraw d20 stream, 1 thread: {raw_d20_rate(50_000_000):,.0f} rolls/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
