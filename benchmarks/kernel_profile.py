"""Where a game's kernel spends its time: runs a batch on one thread under `perf record`
with a perf map naming every compiled function, then prints each function's share of the
samples in compiled code. Short functions are normally inlined into their callers; with
`--no-inline` none is forced, so the profile names each rule (at some cost in speed). With
`--lines` the engine compiles with line tables (NUMBA_DEBUGINFO) and each sample is read
back to the rule it ran in and its source line, inlined code included (binutils'
`addr2line`): the share of each line. Line tables change what LLVM makes of some engines:
the run prints its rate, to be set beside a plain run's (Paint the Line's is close to it,
Payne's and Encounter's under half, so their shares are a guide only).

Run from the repository root (needs Linux `perf`):
`python benchmarks/kernel_profile.py GAME [--policy NAME] [--matches N] [--rule KEY=VALUE ...]
[--freq HZ] [--no-inline | --lines]` (HZ: perf's samples a second, 999 by default)
"""

from __future__ import annotations

import argparse
import collections
import json
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


def write_perf_map(keep: Path | None = None) -> int:
    """/tmp/perf-<pid>.map from the object code of every compiled function in this process;
    with `keep`, each library's object file is kept there and libraries.json lists them with
    their load address and symbols (for `--lines`)."""
    import gc

    from numba.core.registry import CPUDispatcher

    from sim.core.linking import LinkOnly

    lines, seen, kept = [], set(), []
    with tempfile.TemporaryDirectory() as tmp:
        for dispatcher in [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]:
            for cres in dispatcher.overloads.values():
                lib = cres.library
                # A link-only rule has no object of its own: the kernel's names it.
                if id(lib) in seen or isinstance(lib, LinkOnly):
                    continue
                seen.add(id(lib))
                obj_path = (keep or Path(tmp)) / f"lib{len(seen)}.o"
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
                kept.append({"object": str(obj_path), "base": base,
                             "spans": [(base + a, base + a + size) for a, size, _ in syms]})
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    if keep is not None:
        (keep / "libraries.json").write_text(json.dumps(kept))
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
    write_perf_map(Path(args.keep) if args.keep else None)
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
    ap.add_argument("--freq", type=int, default=999, help="samples a second (perf -F)")
    ap.add_argument("--no-inline", action="store_true", help="inline no function by force")
    ap.add_argument("--lines", action="store_true", help="each source line's share (line "
                    "tables on)")
    ap.add_argument("--keep", help=argparse.SUPPRESS)  # the child's folder for --lines
    args = ap.parse_args()
    if os.environ.get(CHILD):
        child(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "perf.data")
        extra = ["--keep", tmp] if args.lines else []
        cmd = ["perf", "record", "-F", str(args.freq), "-o", data, "--", sys.executable,
               *sys.argv, *extra]
        env = dict(os.environ, **{CHILD: "1"}, **({"CARDLAB_INLINE": "0"} if args.no_inline
                                                    else {}),
                   **({"NUMBA_DEBUGINFO": "1"} if args.lines else {}))
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        print(run.stdout.strip())
        if run.returncode:
            sys.exit(run.stderr)
        dsos = subprocess.run(["perf", "report", "-i", data, "--sort", "dso", "--stdio"],
                              capture_output=True, text=True).stdout
        jit = re.search(r"\[JIT\] tid \d+", dsos)
        if jit is None:
            sys.exit("no samples in compiled code")
        if args.lines:
            print_lines(data, Path(tmp), args.top)
            return
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--stdio",
                                 "--dsos", jit.group(0), "--percentage", "relative",
                                 "--sort", "sym"], capture_output=True, text=True).stdout
    print("\n| compiled function | share of samples in compiled code |\n|---|---:|")
    rows = [r.split() for r in report.splitlines() if r.strip() and not r.startswith("#")]
    for row in rows[: args.top]:
        print(f"| {row[-1]} | {row[0]} |")


def source_lines(data: str, folder: Path) -> tuple[collections.Counter, collections.Counter, int]:
    """Samples in compiled code by (innermost function) and by source line: the first line
    of the inlining chain that has one (code LLVM made for a call, such as spills, has
    none and is charged to the line that called), with the function it ran in."""
    libraries = json.loads((folder / "libraries.json").read_text())
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip,dso"], capture_output=True,
                         text=True).stdout
    at = collections.Counter()  # (library, offset in its object) -> samples
    total = 0
    for row in ips.splitlines():
        if "perf-" not in row:  # samples outside compiled code
            continue
        total += 1
        ip = int(row.split()[0], 16)
        for k, lib in enumerate(libraries):
            if any(lo <= ip < hi for lo, hi in lib["spans"]):
                at[(k, ip - lib["base"])] += 1
                break
    by_function, by_line = collections.Counter(), collections.Counter()
    for k, lib in enumerate(libraries):
        offsets = [(o, n) for (j, o), n in at.items() if j == k]
        if not offsets:
            continue
        out = subprocess.run(["addr2line", "-a", "-f", "-i", "-e", lib["object"]],
                             input="\n".join(hex(o) for o, _ in offsets), capture_output=True,
                             text=True).stdout
        chunks = re.split(r"^0x[0-9a-f]+\n", out, flags=re.M)[1:]
        for (_, n), chunk in zip(offsets, chunks, strict=True):
            rows = [r.strip() for r in chunk.splitlines() if r.strip()]
            chain = [(symbol_name(rows[i]), rows[i + 1]) for i in range(0, len(rows) - 1, 2)]
            if not chain:
                continue
            by_function[chain[0][0]] += n
            known = [where for _, where in chain if not where.endswith("?")]
            where = (known[0] if known else chain[0][1]).split(" (")[0]
            by_line[(re.sub(r".*?/(sim|benchmarks|tests)/", r"\1/", where), chain[0][0])] += n
    return by_function, by_line, total


def print_lines(data: str, folder: Path, top: int) -> None:
    by_function, by_line, total = source_lines(data, folder)
    print(f"\n{total:,} samples in compiled code\n\n| function the sample ran in | share |\n"
          "|---|---:|")
    for name, n in by_function.most_common(top):
        print(f"| {name} | {100 * n / total:.2f}% |")
    print("\n| source line | function | share |\n|---|---|---:|")
    for (where, name), n in by_line.most_common(3 * top):
        print(f"| {where} | {name} | {100 * n / total:.2f}% |")


if __name__ == "__main__":
    main()
