"""A/B throughput of two checkouts of the project on the same machine: a game's kernel on its
folder's default matchup and policy, on 1 and 2 threads, and `simulate()` end to end, each
tree in its own processes, alternating, best of three batches a round; prints every round
and the medians with their ratio.

Run: `python benchmarks/compare.py OLD_TREE NEW_TREE [--game GAME ...] [--matches N]
[--rounds K] [--policy NAME]`, where each tree is a checkout of the game contract (every
game by default) with a warm or cold compile cache (compilation is never timed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CODE = r'''
import json, sys, tempfile, time
from sim.core.blocks import set_threads
from sim.kit import game as registry
from sim.kit.folders import read_folder
from sim.runner.run import simulate

name, policy, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
g, info = registry.get(name), read_folder(name)
policy = policy or info.policy
m = g.load_matchup(info.path, *info.decks, policy, policy, {}, [])
g.run_batch(m, 2000, 1)  # compiled or loaded before any timing
out = {}
for t in (1, 2):
    set_threads(t)
    best = 0
    for _ in range(3):
        s = time.perf_counter()
        g.run_batch(m, n, 1)
        best = max(best, n / (time.perf_counter() - s))
    out[f"{name} kernel, {t} thread(s)"] = best
set_threads(None)
with tempfile.TemporaryDirectory() as d:
    simulate(g, m, 1000, 1, results=d, run_id="warm", chunk_size=500, workers=1)
    best = 0
    for r in range(2):
        s = time.perf_counter()
        simulate(g, m, n, 1, results=d, run_id=f"r{r}", chunk_size=n // 8, workers=1)
        best = max(best, n / (time.perf_counter() - s))
    out[f"{name} simulate(), 1 worker"] = best
print(json.dumps(out))
'''
GAMES = ("paintline", "payne", "encounter")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--game", action="append", help="a registered game (repeatable; all)")
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--policy", default="", help="both seats' policy (the folder's default)")
    args = ap.parse_args()
    trees = {"old": args.old, "new": args.new}
    rows = []
    for game in args.game or GAMES:
        runs = {k: [] for k in trees}
        for _ in range(args.rounds):
            for name, path in trees.items():
                env = {**os.environ, "PYTHONPATH": path}
                out = subprocess.run([sys.executable, "-c", CODE, game, args.policy,
                                      str(args.matches)], cwd=path, env=env,
                                     capture_output=True, text=True, check=True)
                runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
                print(name, {k: round(v) for k, v in runs[name][-1].items()}, flush=True)
        for key in runs["old"][0]:
            old = sorted(r[key] for r in runs["old"])[args.rounds // 2]
            new = sorted(r[key] for r in runs["new"])[args.rounds // 2]
            rows.append(f"| {key} | {old:,.0f} | {new:,.0f} | {new / old:.3f} |")
    print("| matches a second | old | new | new / old |\n|---|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
