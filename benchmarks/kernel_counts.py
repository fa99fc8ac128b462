"""A game's kernel counted rather than timed: instructions and mispredicted branches per
match under valgrind (`cachegrind --branch-sim=yes`), the difference between a batch of
SMALL and one of LARGE matches of the folder's default matchup on one thread, so that the
start-up and the cache's load cancel out. A count of the same compiled code moves by up to
2% (mispredictions 6%), where a timing on a shared machine moves by 5 to 10%; valgrind's
branch predictor is a simple one, so its mispredictions show where they change, not how
many a processor makes. Each run compiles afresh, and numba's code for the same source
seems to differ a little from one compile to the next (Paint the Line: 4% either way).

valgrind has no AVX-512, and numba keys its compile cache to the processor it sees: the
kernel is compiled for a Haswell (`NUMBA_CPU_NAME`, `NUMBA_CPU_FEATURES`) in a fresh cache
first, without valgrind, and both counted runs load it.

Run from the repository root of the tree to count (needs valgrind):
`python benchmarks/kernel_counts.py GAME [--policy NAME] [--small N] [--large N]`
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

BATCH = """
import sys
from sim.core.blocks import set_threads
from sim.kit import game as registry
from sim.kit.folders import read_folder
game, policy, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
g = registry.get(game); info = read_folder(game)
m = g.load_matchup(info.path, *info.decks, policy or info.policy, policy or info.policy, {}, [])
set_threads(1)
g.run_batch(m, n, 3)
"""


def counts(env: dict, game: str, policy: str, n: int) -> tuple[int, int]:
    """(instructions, mispredicted branches) of a whole run of n matches under valgrind."""
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
                          "--cachegrind-out-file=/dev/null", sys.executable, "-c", BATCH, game,
                          policy, str(n)], env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(run.stderr[-2000:])
    refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    missed = re.search(r"Mispredicts:\s+([\d,]+)", run.stderr)
    return int(refs.group(1).replace(",", "")), int(missed.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--policy", default="")
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=3000)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind not found")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CARDLAB_CACHE_DIR=cache, NUMBA_CPU_NAME="haswell",
                   NUMBA_CPU_FEATURES="+avx2")
        subprocess.run([sys.executable, "-c", BATCH, args.game, args.policy, "100"], env=env,
                       check=True)
        small = counts(env, args.game, args.policy, args.small)
        large = counts(env, args.game, args.policy, args.large)
    n = args.large - args.small
    print(f"{args.game}, {args.policy or 'default policy'}: "
          f"{(large[0] - small[0]) / n:,.0f} instructions and "
          f"{(large[1] - small[1]) / n:,.1f} mispredicted branches a match (valgrind)")


if __name__ == "__main__":
    main()
