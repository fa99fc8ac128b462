"""Where a game's first compile goes: every compiled function and signature, with the time
spent in it (CPU seconds, its own, callees' compiles excluded), split into numba's typing,
its lowering, LLVM (optimisation and machine code) and numba's other passes, from an empty
compile cache.

    python benchmarks/compile_profile.py GAME [--top N] [--rule KEY=VALUE ...]

It plays one match of the folder's default matchup in a fresh process with its own empty
cache folder, recording numba's compile events, and prints: the total, the number of
functions and of signatures, the functions compiled for more than one signature (each extra
signature is a whole extra compile), and the functions that took longest.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import collections, json, sys, time
import numba.core.event as ev
from sim.kit import game as registry
from sim.kit.folders import read_folder

name, rules = sys.argv[1], json.loads(sys.argv[2])
g = registry.get(name)
info = read_folder(name)
m = g.load_matchup(info.path, *info.decks, info.policy, info.policy, rules, [])
stack, rows = [], []
# Every CPU second goes to the innermost thing running: a function's compile, one of its
# compiler passes, or LLVM (the llvm lock: optimisation and machine code), so that each
# function's typing, lowering and LLVM time is its own, callees' compiles excluded.
frames, phases, last = [], collections.defaultdict(float), [time.process_time()]


def charge():
    now = time.process_time()
    if frames:
        phases[frames[-1]] += now - last[0]
    last[0] = now


def enter(phase):
    charge()
    frames.append((frames[-1][0] if frames else "?", phase))


def leave():
    charge()
    frames.pop()


class Clock(ev.Listener):
    def on_start(self, event):
        stack.append([event.data["dispatcher"], event.data["args"], time.process_time(), 0.0])
        fn = event.data["dispatcher"].py_func
        charge()
        frames.append((f"{fn.__module__}.{fn.__qualname__}", "between passes"))

    def on_end(self, event):
        disp, args, start, inner = stack.pop()
        took = time.process_time() - start
        if stack:
            stack[-1][3] += took
        fn = disp.py_func
        rows.append([f"{fn.__module__}.{fn.__qualname__}", str(args), took - inner])
        leave()


class Passes(ev.Listener):
    def on_start(self, event):
        enter(event.data["name"].split(" [")[0])

    def on_end(self, event):
        leave()


class Llvm(ev.Listener):
    def on_start(self, event):
        enter("llvm")

    def on_end(self, event):
        leave()


start, cpu = time.perf_counter(), time.process_time()
with ev.install_listener("numba:compile", Clock()), \
        ev.install_listener("numba:run_pass", Passes()), \
        ev.install_listener("numba:llvm_lock", Llvm()):
    g.run_batch(m, 1, 0)
print(json.dumps({"total": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "rows": rows, "phases": [[f, p, t] for (f, p), t in phases.items()]}))
"""


# The phases of a compile: numba's type inference (and the rewrites on typed code), its
# lowering to LLVM IR, LLVM's optimisation and machine code (time under the llvm lock), and
# numba's other passes (bytecode, SSA, inlining, checks).
PHASES = ("typing", "lowering", "llvm", "other passes")
TYPING = ("nopython_type_inference", "partial_type_inference", "nopython_rewrites")
LOWERING = ("native_lowering", "cardlab_rule_lowering", "nopython_backend")


def phase_of(name: str) -> str:
    """The phase of a compiler pass (or of the llvm lock)."""
    return ("llvm" if name == "llvm" else "typing" if name in TYPING
            else "lowering" if name in LOWERING else "other passes")


def main() -> int:
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--rule", action="append", default=[], help="KEY=VALUE rule option")
    args = ap.parse_args()
    rules = dict(r.split("=", 1) for r in args.rule)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CARDLAB_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", PROBE, args.game, json.dumps(rules)],
                             cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(out.stderr)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    rows = data["rows"]
    per_fn: dict[str, list] = {}
    for fn, sig, own in rows:
        per_fn.setdefault(fn, []).append((sig, own))
    compiled = sum(own for _, _, own in rows)
    print(f"{args.game}: first match in {data['total']:.1f} s ({data['cpu']:.1f} s of CPU; "
          f"the wall time waits for other work on a shared machine), {compiled:.1f} s of it "
          f"in {len(rows)} compiles of {len(per_fn)} functions")
    multi = {fn: sigs for fn, sigs in per_fn.items() if len(sigs) > 1}
    extra = sum(sum(own for _, own in sigs) - max(own for _, own in sigs)
                for sigs in multi.values())
    print(f"\nfunctions compiled for several signatures: {len(multi)} "
          f"({sum(len(s) for s in multi.values()) - len(multi)} extra compiles, "
          f"about {extra:.1f} s)")
    for fn, sigs in sorted(multi.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(sigs):3d}  {fn}")
        for sig, own in sigs:
            print(f"         {own:6.2f} s  {sig[:110]}")
    split: dict[str, dict[str, float]] = {}
    passes: dict[str, float] = {}
    for fn, name, t in data["phases"]:
        phase = phase_of(name)
        split.setdefault(fn, {}).setdefault(phase, 0.0)
        split[fn][phase] += t
        if phase == "other passes":
            passes[name] = passes.get(name, 0.0) + t
    total = {p: sum(v.get(p, 0.0) for v in split.values()) for p in PHASES}
    print("\nwhere it goes: " + ", ".join(f"{p} {t:.1f} s ({t / max(compiled, 1e-9):.0%})"
                                          for p, t in total.items()))
    print("  the other passes: " + ", ".join(
        f"{name} {t:.1f} s" for name, t in sorted(passes.items(), key=lambda kv: -kv[1])[:5]))
    print(f"\nlongest own compile times (top {args.top}), split by phase:")
    print(f"  {'own':>7}  sig  " + "".join(f"{p:>14}" for p in PHASES) + "  function")
    ranked = sorted(((sum(own for _, own in sigs), len(sigs), fn)
                     for fn, sigs in per_fn.items()), reverse=True)
    for own, n, fn in ranked[:args.top]:
        cells = "".join(f"{split.get(fn, {}).get(p, 0.0):12.2f} s" for p in PHASES)
        print(f"  {own:6.2f} s  {n:2d}  {cells}  {fn}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
