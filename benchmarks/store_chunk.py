"""The store's work on one chunk against the kernel's, in CPU time on one thread: the kernel
playing the chunk, tabling it (`chunk_tables`), the sums the exact check keeps
(`chunk_totals`) and writing it (`write_chunk`), each the minimum of several repeats on the
same records, and the chunk's size on disk.

Run from the repository root:
`python benchmarks/store_chunk.py FOLDER POLICY RULES_JSON [MATCHES] [REPEATS]`, e.g. the
pure dice game: `python benchmarks/store_chunk.py paintline default '{"rally_mode": true}'
100000 7`.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from sim.core import blocks
from sim.kit import game as registry
from sim.kit.folders import read_folder
from sim.runner.run import histogram_bins, new_manifest
from sim.store.runs import RunFolder, chunk_tables, chunk_totals, write_chunk


def least_cpu(fn, repeats: int) -> float:
    """The fewest CPU milliseconds of `repeats` calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    folder, policy, rules = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
    repeats = int(sys.argv[5]) if len(sys.argv) > 5 else 7
    info = read_folder(folder)
    game = registry.get(info.game)
    m = game.load_matchup(info.path, *info.decks, policy, policy, rules, [])
    blocks.set_threads(1)
    rec = game.run_batch(m, n, 1)
    manifest = new_manifest(game, m, "chunk", 1, n, n, None)
    ids, bins = tuple(manifest["card_pool"]["ids"]), histogram_bins(manifest)
    seats = manifest["schema"].get("seats", 2)
    tables = chunk_tables(rec, ids)
    root = Path(tempfile.mkdtemp())
    run = RunFolder(root, "chunk")
    (run.path / "chunks").mkdir(parents=True)

    def write():
        write_chunk(run, 0, tables)
        shutil.rmtree(run.chunk_path(0))

    kernel = least_cpu(lambda: game.run_batch(m, n, 1), max(2, repeats // 3))
    tabling = least_cpu(lambda: chunk_tables(rec, ids), repeats)
    sums = least_cpu(lambda: chunk_totals(tables, bins, seats), repeats)
    writing = least_cpu(write, repeats)
    write_chunk(run, 0, tables)
    size = sum(p.stat().st_size for p in run.chunk_path(0).iterdir()) / 1000
    shutil.rmtree(root)
    store = tabling + sums + writing
    print(f"{n:,} matches, CPU ms on one thread: kernel {kernel:.0f}, tabling {tabling:.1f}, "
          f"sums {sums:.1f}, writing {writing:.1f}; store / kernel {store / kernel:.3f}; "
          f"chunk on disk {size:,.0f} kB")


if __name__ == "__main__":
    main()
