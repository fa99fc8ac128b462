"""`simulate()` end to end against the kernel alone, alternating in one process: the kernel
plays one batch of K matches on two threads, then `simulate()` plays N matches into a
temporary results folder with the default chunking and workers (the whole call, exact check
included), the two in turn and which goes first alternating; printed per round, then the
medians of the rates and of their ratio with its quartiles, and the ratio of the pooled
rates (all matches over all seconds of each side). A first
`simulate()` of 100,000 matches before the rounds loads what a process loads once (pyarrow's
writers, the exact solver's scipy), so that the rounds measure the run itself.

Run from the repository root:
`python benchmarks/store_pace.py FOLDER POLICY RULES_JSON N K ROUNDS`, e.g. the pure dice
game: `python benchmarks/store_pace.py paintline default '{"rally_mode": true}' 3000000
1000000 3`.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time

from sim.core import blocks
from sim.kit import game as registry
from sim.kit.folders import read_folder
from sim.runner.run import simulate


def main() -> None:
    folder, policy, rules = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    n, k, rounds = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    info = read_folder(folder)
    game = registry.get(info.game)
    m = game.load_matchup(info.path, *info.decks, policy, policy, rules, [])
    blocks.set_threads(2)
    game.run_batch(m, 1000, 1)  # compiled (or loaded) before the first round
    out = tempfile.mkdtemp()
    simulate(game, m, 100_000, 1, results=out, run_id="first")
    shutil.rmtree(out)
    kernel, whole = [], []
    seconds = [0.0, 0.0]  # kernel, simulate: all rounds together

    def play_kernel():
        blocks.set_threads(2)
        start = time.perf_counter()
        game.run_batch(m, k, 1)
        seconds[0] += time.perf_counter() - start
        kernel.append(k / (time.perf_counter() - start))

    def play_whole():
        out = tempfile.mkdtemp()
        start = time.perf_counter()
        simulate(game, m, n, 1, results=out, run_id="pace")
        seconds[1] += time.perf_counter() - start
        whole.append(n / (time.perf_counter() - start))
        shutil.rmtree(out)

    for r in range(rounds):
        # Which goes first alternates, so that a drift in the machine's speed over a round
        # does not favour one side.
        for step in (play_kernel, play_whole) if r % 2 == 0 else (play_whole, play_kernel):
            step()
        print(f"round {r}: kernel {kernel[-1]:,.0f}/s, simulate {whole[-1]:,.0f}/s, "
              f"ratio {whole[-1] / kernel[-1]:.3f}", flush=True)
    ratios = sorted(s / q for s, q in zip(whole, kernel, strict=True))
    quartiles = statistics.quantiles(ratios, n=4) if rounds > 1 else ratios * 3
    pooled = (n * rounds / seconds[1]) / (k * rounds / seconds[0])
    print(f"median: kernel {statistics.median(kernel):,.0f}/s, simulate "
          f"{statistics.median(whole):,.0f}/s, ratio {statistics.median(ratios):.3f} "
          f"(quartiles {quartiles[0]:.3f} .. {quartiles[2]:.3f}, range {ratios[0]:.3f} .. "
          f"{ratios[-1]:.3f}), {rounds} rounds; all rounds pooled: {pooled:.3f}")

if __name__ == "__main__":
    main()
