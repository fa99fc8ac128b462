"""Throughput and memory harness: kernel vs reference engine, threads, dice-only, warm start.

Run from the repository root: `python benchmarks/bench.py [--games N]`. Prints a markdown
table of figures, all measured in this one run.
"""

from __future__ import annotations

import argparse
import platform
import resource
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "decks" / "paintline"


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def raw_d20_rate(n: int) -> float:
    """Rolls per second of the bare d20 stream in a compiled loop (the ceiling)."""
    from sim.jit import njit
    from sim.rng import below, stream_key

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


def warm_start_seconds() -> float:
    """A fresh process with a warm compile cache: import, load, simulate one match."""
    code = ("from sim.paintline.batch import load_matchup, run_batch;"
            f"m = load_matchup({str(FOLDER)!r}, 'us-red-tide', 'ussr-red-tide', 'greedy');"
            "run_batch(m, 1, 1)")
    subprocess.run([sys.executable, "-c", code], check=True)  # make sure the cache is warm
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def main() -> None:
    from sim.paintline.batch import load_matchup, run_batch
    from sim.paintline.reference import reference_batch

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--reference-games", type=int, default=300)
    args = ap.parse_args()

    rows = []
    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
    run_batch(m, 10, 1)
    rates = {}
    for threads in (1, 2):
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        rec, wall = timed(run_batch, m, args.games, 1)
        rates[threads] = args.games / wall
        rows.append((f"kernel, greedy v greedy, {threads} thread(s)", f"{rates[threads]:,.0f}",
                     "matches/s"))
    turns = rec.matches[:, 7].mean()
    rows.append(("shots per match (mean)", f"{turns:.1f}", ""))
    rows.append(("thread scaling (2 / 1)", f"{rates[2] / rates[1]:.2f}", "x"))
    reference_batch(m, 3, 1)  # load the compiled policy decisions it calls, untimed
    ref_rec, ref_wall = timed(reference_batch, m, args.reference_games, 1)
    kernel_same = run_batch(m, args.reference_games, 1)
    assert np.array_equal(kernel_same.matches, ref_rec.matches), "engines disagree"
    ref_rate = args.reference_games / ref_wall
    rows.append(("reference engine, same games", f"{ref_rate:,.1f}", "matches/s"))
    rows.append(("kernel (2 threads) / reference", f"{rates[2] / ref_rate:,.0f}", "x"))
    rows.append(("kernel (1 thread) / reference", f"{rates[1] / ref_rate:,.0f}", "x"))

    dice = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "default")
    run_batch(dice, 10, 1)
    drec, dwall = timed(run_batch, dice, args.games, 1)
    shots = drec.matches[:, 7].sum()
    raw = raw_d20_rate(50_000_000)
    rows.append(("dice-only (default v default), 2 threads", f"{args.games / dwall:,.0f}",
                 "matches/s"))
    rows.append(("dice-only shots", f"{shots / dwall:,.0f}", "shots/s"))
    rows.append(("raw d20 stream, 1 thread", f"{raw:,.0f}", "rolls/s"))
    rows.append(("dice-only shots / raw d20 rolls", f"{shots / dwall / raw:.3f}", "x"))
    rows.append(("warm start: new process to first match", f"{warm_start_seconds():.2f}", "s"))
    import tempfile

    from sim.run import simulate

    with tempfile.TemporaryDirectory() as results:
        for workers in (1, 2):
            res, wall = timed(simulate, m, args.games, 1, results=results,
                              run_id=f"w{workers}", chunk_size=args.games // 8,
                              workers=workers, backend="loky")
            rows.append((f"simulate() end to end, loky, {workers} worker(s), store included",
                         f"{args.games / wall:,.0f}", "matches/s"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows.append((f"peak RSS of this process ({args.games:,} matches a batch)", f"{peak:,.0f}",
                 "MiB"))

    print(f"machine: {platform.processor() or platform.machine()}, "
          f"{numba.config.NUMBA_NUM_THREADS} cores, Python {platform.python_version()}, "
          f"numba {numba.__version__}, {date.today()}")
    print()
    print("| figure | value | unit |")
    print("|---|---:|---|")
    for name, value, unit in rows:
        print(f"| {name} | {value} | {unit} |")


if __name__ == "__main__":
    main()
