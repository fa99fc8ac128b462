"""Peak memory of a long run: launches `cardlab simulate` and samples the summed RSS of
its whole process tree (driver and workers) every 0.5 s.

Run from the repository root: `python benchmarks/memory.py GAMES [extra cardlab args]`.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

import psutil


def main() -> None:
    games = sys.argv[1] if len(sys.argv) > 1 else "10000000"
    extra = sys.argv[2:]
    results = tempfile.mkdtemp(prefix="cardlab-mem-")
    cmd = [sys.executable, "-c", "from sim.cli.app import app; app()", "simulate", "-n", games,
           "--results", results, "--run-id", "mem", "-q", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd)
    root = psutil.Process(proc.pid)
    peak_tree = peak_one = 0
    while proc.poll() is None:
        try:
            procs = [root, *root.children(recursive=True)]
            rss = [p.memory_info().rss for p in procs]
        except psutil.Error:
            continue
        peak_tree = max(peak_tree, sum(rss))
        peak_one = max(peak_one, max(rss))
        time.sleep(0.5)
    wall = time.perf_counter() - start
    print(f"{int(games):,} matches, exit {proc.returncode}, {wall:.0f} s "
          f"({int(games) / wall:,.0f} matches/s end to end)")
    print(f"peak RSS, whole process tree: {peak_tree / 2**20:,.0f} MiB; "
          f"largest single process: {peak_one / 2**20:,.0f} MiB; results in {results}")


if __name__ == "__main__":
    main()
