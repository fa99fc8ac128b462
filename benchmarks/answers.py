"""Time to answer: the wall time of a designer's main answers on each game's shipped folder,
one after another from the command line with --quiet, engines compiled (`cardlab warm`
first): `simulate -n 100000`, the `verdicts` of that run, `flags`, `meta -n 2000`,
`deckbuild` and `balance --fields F`. Prints a markdown table.

Run as `python benchmarks/answers.py [--tree DIR] [--game NAME ...]
[--only ANSWER ...]`. `--tree` times another checkout (a worktree of an older commit) with
the same commands, for a before-and-after table in one sitting.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The fields each game's balance answer may change (the ones the README's table used).
BALANCE_FIELDS = {"paintline": "normal_bonus,advantage_bonus", "payne": "arg1,arg2",
                  "encounter": "str"}
ANSWERS = ("simulate", "verdicts", "flags", "meta", "deckbuild", "balance")


def commands(game: str, results: str) -> dict[str, list[str]]:
    """Each answer's arguments to `python -m sim`, in the order they run (verdicts reads the
    run simulate writes)."""
    at = ["--folder", game, "--results", results, "--quiet"]
    return {
        "simulate": ["simulate", "-n", "100000", "--run-id", "answer", *at],
        "verdicts": ["verdicts", "answer", "--results", results, "--quiet"],
        "flags": ["flags", *at],
        "meta": ["meta", "-n", "2000", *at],
        "deckbuild": ["deckbuild", *at],
        "balance": ["balance", "--fields", BALANCE_FIELDS[game], *at],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]),
                    help="the checkout to time (default: the one this script is in)")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--only", action="append", choices=ANSWERS, help="only these answers")
    args = ap.parse_args()
    tree = Path(args.tree).resolve()
    env = dict(os.environ, PYTHONPATH=str(tree))
    subprocess.run([sys.executable, "-m", "sim", "warm"], cwd=tree, env=env, check=True,
                   capture_output=True)
    print(f"tree {tree}\n\n| game | answer | wall s | exit |\n|---|---|---:|---:|", flush=True)
    wanted = args.only or ANSWERS
    for game in args.game or list(BALANCE_FIELDS):
        with tempfile.TemporaryDirectory() as results:
            for answer, argv in commands(game, results).items():
                if answer not in wanted and answer != "simulate":
                    continue  # verdicts reads simulate's run: it always plays
                start = time.perf_counter()
                done = subprocess.run([sys.executable, "-m", "sim", *argv], cwd=tree, env=env,
                                      capture_output=True, text=True)
                wall = time.perf_counter() - start
                if answer in wanted:
                    print(f"| {game} | `{answer}` | {wall:.1f} | {done.returncode} |",
                          flush=True)
                if done.returncode not in (0, 1):  # 1: a verdict or a check said no
                    print(done.stderr[-2000:], file=sys.stderr)


if __name__ == "__main__":
    main()
