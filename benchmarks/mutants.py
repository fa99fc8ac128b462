"""Mutation score: apply each written small mutation of a game's rules or decisions to a copy
of the tree, run that game's tests, and count the mutants the tests kill.

    python benchmarks/mutants.py [GAME ...] [--jobs N] [--only NAME] [--json FILE]

Each game lists its mutations in `benchmarks/mutants/GAME.toml`:

    pytest = ["tests/test_rules.py", "-k", "not slow"]   # the game's tests, as pytest args
    jit = true          # false: run with NUMBA_DISABLE_JIT=1 (no compile per mutant)
    timeout = 900       # seconds per mutant; a mutant that runs out is counted as killed

    [[mutant]]
    name = "short-unique-id"
    file = "sim/GAME/rules.py"
    old = "text that occurs exactly once in the file"
    new = "its replacement"
    what = "what the mutation means, in a designer's words"

A misreading of one rulebook sentence made the same way in both engines (or in both
implementations of a policy decision) is one mutant of several edits, applied together; it
names the rule index id it misreads and quotes the sentence in its `what`:

    [[mutant]]
    name = "both-natural-one"
    rule = "PTL-36"
    what = 'both engines: "A roll of 1 is always a failure." read as ...'
    [[mutant.edit]]
    file = "sim/GAME/shots.py"
    old = "..."
    new = "..."
    [[mutant.edit]]
    file = "sim/GAME/reference_shots.py"
    old = "..."
    new = "..."

The two classes, one engine (killed by the kernel-against-reference tests by construction)
and both engines (killed only by a test from the rule's text), are scored apart.

The unmutated tree runs first; if its tests fail, nothing is scored. Every mutant runs in its
own copy of the tracked and untracked-but-not-ignored files. Compiled kernels of a mutant
are keyed to its sources, so it compiles its own game once; that cache folder is removed
afterwards so mutants leave nothing behind.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LISTS = ROOT / "benchmarks" / "mutants"


@dataclass(frozen=True)
class Edit:
    file: str
    old: str
    new: str


@dataclass(frozen=True)
class Mutant:
    name: str
    edits: tuple[Edit, ...]
    what: str
    rule: str = ""  # the rule index id a both-engines mutant misreads

    @property
    def kind(self) -> str:
        return "both engines" if self.rule else "one engine"


@dataclass(frozen=True)
class Plan:
    game: str
    pytest: list[str]
    jit: bool
    timeout: float
    mutants: list[Mutant]


@dataclass(frozen=True)
class Outcome:
    game: str
    kind: str
    name: str
    what: str
    status: str  # killed | survived | timeout | baseline-failed
    seconds: float
    detail: str


def read_plan(game: str) -> Plan:
    """A game's mutation list, checked: every edit names a file and text found exactly once."""
    path = LISTS / f"{game}.toml"
    if not path.exists():
        sys.exit(f"{path}: no mutation list for game {game!r}")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    mutants, seen, problems = [], set(), []
    for k, row in enumerate(data.get("mutant", []), start=1):
        rows = row.get("edit", [row] if "file" in row else [])
        missing = ({"name"} - set(row)) | {f for e in rows for f in ("file", "old", "new")
                                            if f not in e}
        if missing or not rows:
            problems.append(f"{path}: mutant {k} lacks {', '.join(sorted(missing)) or 'edits'}")
            continue
        edits = tuple(Edit(e["file"], e["old"], e["new"]) for e in rows)
        m = Mutant(row["name"], edits, row.get("what", ""), row.get("rule", ""))
        if m.name in seen:
            problems.append(f"{path}: mutant {m.name!r} named twice")
        seen.add(m.name)
        texts: dict[str, str] = {}
        for e in edits:
            target = ROOT / e.file
            if not target.exists():
                problems.append(f"{path}: mutant {m.name!r}: no file {e.file}")
                continue
            text = texts.setdefault(e.file, target.read_text(encoding="utf-8"))
            count = text.count(e.old)
            if count != 1 or e.old == e.new:
                problems.append(f"{path}: mutant {m.name!r}: its text occurs {count} times "
                                f"in {e.file} (needs exactly once, and a different "
                                "replacement)")
            else:
                texts[e.file] = text.replace(e.old, e.new, 1)
        mutants.append(m)
    if problems:
        sys.exit("\n".join(problems))
    return Plan(game, list(data.get("pytest", ["tests"])), bool(data.get("jit", True)),
                float(data.get("timeout", 900)), mutants)


def tree_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, check=True).stdout
    return [f for f in out.decode().split("\0") if f and (ROOT / f).is_file()]


def copy_tree(files: list[str], dest: Path) -> None:
    for f in files:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, target)


def apply(mutant: Mutant, tree: Path) -> None:
    for e in mutant.edits:
        path = tree / e.file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(e.old, e.new, 1), encoding="utf-8")


def game_cache(tree: Path, game: str, env: dict) -> Path | None:
    """The compile-cache folder of the copy's game (keyed to its sources), to remove later."""
    probe = subprocess.run(
        [sys.executable, "-c", f"from sim import jit; print(jit.cache_folder({game!r}))"],
        cwd=tree, env=env, capture_output=True, text=True)
    text = probe.stdout.strip()
    return Path(text) if probe.returncode == 0 and text not in ("", "None") else None


def run_tests(plan: Plan, files: list[str], mutant: Mutant | None) -> Outcome:
    name = mutant.name if mutant else "(unmutated)"
    with tempfile.TemporaryDirectory(prefix="cardlab-mutant-") as tmp:
        tree = Path(tmp)
        copy_tree(files, tree)
        if mutant:
            apply(mutant, tree)
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
        if not plan.jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        cache = game_cache(tree, plan.game, env) if (plan.jit and mutant) else None
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                 *plan.pytest], cwd=tree, env=env, capture_output=True, text=True,
                timeout=plan.timeout)
            status = "survived" if proc.returncode == 0 else "killed"
            if proc.returncode not in (0, 1):
                status = "killed" if mutant else "baseline-failed"
            lines = (proc.stdout + proc.stderr).strip().splitlines()
            detail = next((ln for ln in reversed(lines) if ln.startswith("FAILED")),
                          lines[-1] if lines else "")
        except subprocess.TimeoutExpired:
            status, detail = "timeout", f"ran past {plan.timeout:.0f} s"
        seconds = time.perf_counter() - start
        if cache is not None and cache.exists():
            shutil.rmtree(cache, ignore_errors=True)
    if mutant is None and status != "survived":
        status = "baseline-failed"
    return Outcome(plan.game, mutant.kind if mutant else "", name,
                   mutant.what if mutant else "", status, seconds, detail)


def score(plan: Plan, jobs: int, only: set[str], kind: str | None = None) -> list[Outcome]:
    files = tree_files()
    base = run_tests(plan, files, None)
    print(f"[{plan.game}] unmutated tree: {base.status} in {base.seconds:.0f} s", flush=True)
    if base.status != "survived":
        print(f"[{plan.game}] the tests fail without any mutation: {base.detail}")
        return [base]
    chosen = [m for m in plan.mutants
              if (not only or m.name in only) and (kind is None or m.kind == kind)]

    def one(m: Mutant) -> Outcome:
        out = run_tests(plan, files, m)
        print(f"[{plan.game}] {out.status:8s} {out.seconds:5.0f} s  {m.name}", flush=True)
        return out

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, chosen))


def table(outcomes: list[Outcome]) -> str:
    rows = ["| game | class | mutants | killed | timeout | survived | score | survivors |",
            "|---|---|---:|---:|---:|---:|---:|---|"]
    for game, kind in dict.fromkeys((o.game, o.kind) for o in outcomes if o.kind):
        mine = [o for o in outcomes if o.game == game and o.kind == kind]
        killed = sum(o.status == "killed" for o in mine)
        timeout = sum(o.status == "timeout" for o in mine)
        survivors = [o.name for o in mine if o.status == "survived"]
        rows.append(f"| {game} | {kind} | {len(mine)} | {killed} | {timeout} | "
                    f"{len(survivors)} | "
                    f"{(killed + timeout) / len(mine):.0%} | {', '.join(survivors) or '-'} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games to score (default: every list)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    ap.add_argument("--only", action="append", default=[], help="score only this mutant")
    ap.add_argument("--json", type=Path, help="write every outcome to this file")
    ap.add_argument("--class", dest="kind", choices=("one", "both"),
                    help="score only the one-engine or the both-engines mutants")
    args = ap.parse_args(argv)
    games = args.games or sorted(p.stem for p in LISTS.glob("*.toml"))
    plans = [read_plan(g) for g in games]
    kind = {"one": "one engine", "both": "both engines", None: None}[args.kind]
    outcomes = [o for plan in plans for o in score(plan, args.jobs, set(args.only), kind)]
    print()
    print(table(outcomes))
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    failed = any(o.status == "baseline-failed" for o in outcomes)
    return 2 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
