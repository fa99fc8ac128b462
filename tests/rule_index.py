"""The rule index of each rules doc: every rule an id beside the rulebook sentence it comes
from, and the scenario tests that pin it, read from their `@pytest.mark.rule(ID)` markers.

    python -m tests.rule_index          # say which docs' tests columns are out of date
    python -m tests.rule_index --write  # rewrite them from the markers

The ids and sentences are written by hand; the tests column is generated from the markers
(tests/test_rule_index.py keeps it so), never kept by hand."""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOKS = ROOT / "docs" / "rulebooks"
# Prefix -> (the rules doc, the rulebook it quotes, as published, under docs/rulebooks/).
INDEXES = {
    "PTL": (ROOT / "docs" / "rules.md", "paint-the-line.txt"),
    "PAY": (ROOT / "docs" / "payne-rules.md", "payne-academy.txt"),
    "ENC": (ROOT / "docs" / "encounter-rules.md", "encounter.txt"),
}
BEGIN = "<!-- rule index: ids and sentences by hand, the tests column generated -->"
END = "<!-- rule index: end -->"
SCOPE_BEGIN = "<!-- out of scope -->"
SCOPE_END = "<!-- out of scope: end -->"
ID = re.compile(r"^(PTL|PAY|ENC)-\d+$")


@dataclass(frozen=True)
class Rule:
    id: str
    sentence: str  # the rulebook's words, in double quotes; "..." marks words left out
    reading: str  # how the lab reads it: the rule option, the docs' section, the decision
    tests: str  # the generated column


def _rows(text: str, begin: str, end: str) -> list[list[str]]:
    if begin not in text:
        return []
    body = text.split(begin, 1)[1].split(end, 1)[0]
    rows = []
    for line in body.strip().splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] in ("id", "sentence"):
            continue  # the header
        rows.append(cells)
    return rows


def rules(prefix: str) -> list[Rule]:
    """The rules of one game's index, in the doc's order (empty when it has none)."""
    text = INDEXES[prefix][0].read_text(encoding="utf-8")
    return [Rule(*(cells + [""] * 4)[:4]) for cells in _rows(text, BEGIN, END)]


def out_of_scope(prefix: str) -> list[tuple[str, str]]:
    """(sentence, why it is no rule of the engine) for each sentence set aside."""
    text = INDEXES[prefix][0].read_text(encoding="utf-8")
    return [(c[0], c[1] if len(c) > 1 else "") for c in _rows(text, SCOPE_BEGIN, SCOPE_END)]


def rulebook(prefix: str) -> str:
    return (BOOKS / INDEXES[prefix][1]).read_text(encoding="utf-8")


def _words(text: str) -> str:
    """Text compared as words: quotes straightened, whitespace one space, case kept."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'")
    return " ".join(text.replace("\\|", "|").split())


def quoted_parts(sentence: str) -> list[str]:
    """The rulebook's words of a sentence cell: between its outer quotes, split where "..."
    marks words left out."""
    s = sentence.strip()
    if len(s) < 2 or not (s.startswith('"') and s.endswith('"')):
        return []
    return [_words(p) for p in s[1:-1].split("...") if p.strip()]


def found_in(sentence: str, book: str) -> bool:
    """Each quoted part stands in the rulebook, in order."""
    text, at = _words(book), 0
    for part in quoted_parts(sentence):
        k = text.find(part, at)
        if k < 0:
            return False
        at = k + len(part)
    return bool(quoted_parts(sentence))


def _marker_ids(deco: ast.expr) -> list[str]:
    """The ids of a `pytest.mark.rule("X-1", ...)` decorator (or `rule(...)`, with
    `rule = pytest.mark.rule` in the module), else none."""
    if not isinstance(deco, ast.Call):
        return []
    f = deco.func
    if not ((isinstance(f, ast.Attribute) and f.attr == "rule")
            or (isinstance(f, ast.Name) and f.id == "rule")):
        return []
    return [a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def tagged_tests(folder: Path = ROOT / "tests") -> dict[str, list[str]]:
    """Rule id -> the tests marked with it, as `file::test`, in file and line order."""
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                for deco in node.decorator_list:
                    for rid in _marker_ids(deco):
                        out.setdefault(rid, []).append(f"{path.name}::{node.name}")
    return out


def tests_cell(rid: str, tagged: dict[str, list[str]]) -> str:
    return ", ".join(f"`{t}`" for t in tagged.get(rid, [])) or "none yet"


def rendered(prefix: str, tagged: dict[str, list[str]] | None = None) -> str:
    """The doc with its index's tests column regenerated from the markers."""
    tagged = tagged_tests() if tagged is None else tagged
    path = INDEXES[prefix][0]
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text:
        return text
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    lines = []
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("|") and ID.match(cells[0]):
            cells = (cells + [""] * 4)[:4]
            cells[3] = tests_cell(cells[0], tagged)
            line = "| " + " | ".join(cells) + " |"
        lines.append(line)
    return head + BEGIN + "\n".join(lines) + END + tail


def main(argv: list[str]) -> int:
    tagged = tagged_tests()
    stale = []
    for prefix, (path, _) in INDEXES.items():
        new = rendered(prefix, tagged)
        if new != path.read_text(encoding="utf-8"):
            stale.append(path)
            if "--write" in argv:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{path.relative_to(ROOT)}: {'rewritten' if '--write' in argv else 'out of date'}")
    return 1 if stale and "--write" not in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
