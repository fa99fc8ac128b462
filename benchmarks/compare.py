"""A/B throughput of two checkouts of the project on the same machine: Paint the Line's
kernel on 1 and 2 threads and `simulate()` end to end, each tree in its own processes,
alternating, best of three batches a round; prints every round and the medians.

Run: `python benchmarks/compare.py OLD_TREE NEW_TREE [--matches N] [--rounds K]`, where each
tree is a checkout with a warm or cold compile cache (compilation is never timed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CODE = r'''
import inspect, json, tempfile, time
import numba
from sim.paintline.batch import load_matchup, run_batch
from sim.runner.run import simulate

m = load_matchup("decks/paintline", "us-red-tide", "ussr-red-tide", "{policy}")
run_batch(m, 2000, 1)
out = {{}}
try:  # pieces over a thread pool, or the older parallel kernel
    from sim.core.blocks import set_threads
except ImportError:
    set_threads = numba.set_num_threads
for t in (1, 2):
    set_threads(t)
    best = 0
    for _ in range(3):
        s = time.perf_counter()
        run_batch(m, {n}, 1)
        best = max(best, {n} / (time.perf_counter() - s))
    out[f"kernel, {{t}} thread(s)"] = best
# Before the game contract simulate() took the matchup first; after, the game.
args = (m,) if "game" not in inspect.signature(simulate).parameters else (
    __import__("sim.kit.game").game.get("paintline"), m)
with tempfile.TemporaryDirectory() as d:
    simulate(*args, 1000, 1, results=d, run_id="warm", chunk_size=500, workers=1)
    best = 0
    for r in range(2):
        s = time.perf_counter()
        simulate(*args, {n}, 1, results=d, run_id=f"r{{r}}", chunk_size={n} // 8, workers=1)
        best = max(best, {n} / (time.perf_counter() - s))
    out["simulate(), 1 loky worker"] = best
print(json.dumps(out))
'''


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--policy", default="greedy")
    args = ap.parse_args()
    trees = {"old": args.old, "new": args.new}
    runs = {k: [] for k in trees}
    for _ in range(args.rounds):
        for name, path in trees.items():
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run([sys.executable, "-c", CODE.format(policy=args.policy,
                                                                     n=args.matches)],
                                 cwd=path, env=env, capture_output=True, text=True, check=True)
            runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(name, {k: round(v) for k, v in runs[name][-1].items()}, flush=True)
    print("| figure | old | new | new / old |\n|---|---:|---:|---:|")
    for key in runs["old"][0]:
        old = sorted(r[key] for r in runs["old"])[args.rounds // 2]
        new = sorted(r[key] for r in runs["new"])[args.rounds // 2]
        print(f"| {key} | {old:,.0f} | {new:,.0f} | {new / old:.3f} |")


if __name__ == "__main__":
    main()
