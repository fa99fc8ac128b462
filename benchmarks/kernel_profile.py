"""Where a game's kernel spends its time: runs a batch on one thread under `perf record`
with a perf map naming every compiled function, then prints each function's share of the
samples in compiled code. Short functions are normally inlined into their callers; with
`--no-inline` none is forced, so the profile names each rule (at some cost in speed).

Run from the repository root (needs Linux `perf`):
`python benchmarks/kernel_profile.py GAME [--policy NAME] [--matches N] [--rule KEY=VALUE ...]`
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = "CARDLAB_PROFILE_CHILD"


def symbol_name(mangled: str) -> str:
    """sim.paintline.shots.legal_hits from numba's mangled symbol (_ZN3sim9paintline...)."""
    i = mangled.find("_ZN") + 3 if "_ZN" in mangled else 0
    words = []
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while mangled[j].isdigit():
            j += 1
        length = int(mangled[i:j])
        words.append(mangled[j:j + length])
        i = j + length
    return ".".join(words[-3:]) if words else mangled[:60]


def write_perf_map() -> int:
    """/tmp/perf-<pid>.map from the object code of every compiled function in this process."""
    import gc

    from numba.core.registry import CPUDispatcher

    from sim.core.linking import LinkOnly

    lines, seen = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        obj_path = Path(tmp) / "lib.o"
        for dispatcher in [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]:
            for cres in dispatcher.overloads.values():
                lib = cres.library
                # A link-only rule has no object of its own: the kernel's names it.
                if id(lib) in seen or isinstance(lib, LinkOnly):
                    continue
                seen.add(id(lib))
                obj_path.write_bytes(lib._get_compiled_object())
                out = subprocess.run(["nm", "-S", "--defined-only", str(obj_path)],
                                     capture_output=True, text=True, check=True).stdout
                syms = [(int(a, 16), int(s, 16), name) for a, s, kind, name in
                        (row.split() for row in out.splitlines() if len(row.split()) == 4)
                        if kind in "tTW"]  # W: a rule linked in (linkonce_odr)
                entry = cres.fndesc.llvm_func_name
                offsets = [a for a, _, name in syms if name == entry]
                if not offsets:
                    continue
                base = lib.get_pointer_to_function(entry) - offsets[0]
                lines += [f"{base + a:x} {size:x} {symbol_name(name)}" for a, size, name in syms]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return len(lines)


def child(args) -> None:
    import sim.core.jit

    sim.core.jit._cache_for = lambda module: False  # compile here, so every library has its code
    from sim.cli.shared import Setup
    from sim.core import blocks

    game, m, _ = Setup(args.game, None, None, args.policy, None, None,
                       tuple(args.rule)).load()
    blocks.set_threads(1)
    game.run_batch(m, 10, 1)
    write_perf_map()
    start = time.perf_counter()
    rec = game.run_batch(m, args.matches, 1)
    wall = time.perf_counter() - start
    print(f"{args.game}, {args.policy or 'default policy'}, {' '.join(args.rule)}: "
          f"{args.matches / wall:,.0f} matches/s on 1 thread ({len(rec.matches):,} matches)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--policy")
    ap.add_argument("--matches", type=int, default=50_000)
    ap.add_argument("--rule", action="append", default=[], help="rule option KEY=VALUE")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--no-inline", action="store_true", help="inline no function by force")
    args = ap.parse_args()
    if os.environ.get(CHILD):
        child(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "perf.data")
        cmd = ["perf", "record", "-F", "999", "-o", data, "--", sys.executable, *sys.argv]
        env = dict(os.environ, **{CHILD: "1"}, **({"CARDLAB_INLINE": "0"} if args.no_inline
                                                    else {}))
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        print(run.stdout.strip())
        if run.returncode:
            sys.exit(run.stderr)
        dsos = subprocess.run(["perf", "report", "-i", data, "--sort", "dso", "--stdio"],
                              capture_output=True, text=True).stdout
        jit = re.search(r"\[JIT\] tid \d+", dsos)
        if jit is None:
            sys.exit("no samples in compiled code")
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--stdio",
                                 "--dsos", jit.group(0), "--percentage", "relative",
                                 "--sort", "sym"], capture_output=True, text=True).stdout
    print("\n| compiled function | share of samples in compiled code |\n|---|---:|")
    rows = [r.split() for r in report.splitlines() if r.strip() and not r.startswith("#")]
    for row in rows[: args.top]:
        print(f"| {row[-1]} | {row[0]} |")


if __name__ == "__main__":
    main()
