"""A card-value patch as files: the designer's cards.csv with some values changed, written
into a copy of the game folder beside a unified diff; the designer's own file only on
request."""

from __future__ import annotations

import csv
import difflib
import io
import shutil
from pathlib import Path

from sim.core.problems import InputError, Problem


def patched_csv(path: Path, changes: dict[str, int | dict[str, str]]) -> str:
    """cards.csv's text with each "CARD.FIELD" changed (the card by its id column, the
    field by its header), or, where the value is {column: text}, those cells of the card's
    row (a number the game derives from other columns); every line without a change byte
    for byte as it was."""
    lines = path.read_text(encoding="utf-8").splitlines(True)
    header = next(csv.reader(lines[:1]))
    wanted: dict[str, dict[int, int]] = {}
    problems = []
    for key, value in sorted(changes.items()):
        card, _, field = key.rpartition(".")
        cells = value if isinstance(value, dict) else {field: value}
        for column, text in cells.items():
            if column not in header:
                problems.append(Problem(str(path), 1, f"no column {column!r} for {key}"))
            else:
                wanted.setdefault(card, {})[header.index(column)] = text
    for n, line in enumerate(lines[1:], start=2):
        row = next(csv.reader([line]), [])
        if row and row[0] in wanted:
            for col, value in wanted.pop(row[0]).items():
                row[col] = str(value)
            out = io.StringIO()
            csv.writer(out, lineterminator=line[len(line.rstrip("\r\n")):] or "\n").writerow(row)
            lines[n - 1] = out.getvalue()
    problems += [Problem(str(path), 0, f"no card with id {card!r}") for card in wanted]
    if problems:
        raise InputError(problems)
    return "".join(lines)


def write_patch(folder: Path, changes: dict[str, int | dict[str, str]], dest: Path,
                write: bool = False) -> tuple[Path, str]:
    """dest/folder: a copy of the game folder with the patched cards.csv, and
    dest/cards.diff; with `write`, the folder's own cards.csv too. (copy, diff text)"""
    new = patched_csv(Path(folder) / "cards.csv", changes)
    return write_texts(folder, {"cards.csv": new}, dest, write)


def write_texts(folder: Path, texts: dict[str, str], dest: Path,
                write: bool = False) -> tuple[Path, str]:
    """dest/folder: a copy of the game folder with the given files' new texts (by file
    name), and dest/cards.diff, the unified diff of every file that changed; with `write`,
    the folder's own files too. (copy, diff text)"""
    folder = Path(folder)
    olds = {name: (folder / name).read_text(encoding="utf-8") for name in texts}
    # Named from the folder down, so that `patch -p1` applies it inside the folder's parent.
    diff = "".join("".join(difflib.unified_diff(olds[name].splitlines(True),
                                                new.splitlines(True), f"a/{folder.name}/{name}",
                                                f"b/{folder.name}/{name}"))
                   for name, new in sorted(texts.items()))
    copy = dest / "folder"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, new in texts.items():
        (copy / name).write_text(new, encoding="utf-8")
    (dest / "cards.diff").write_text(diff, encoding="utf-8")
    if write:
        for name, new in texts.items():
            if olds[name] != new:
                (folder / name).write_text(new, encoding="utf-8")
    return copy, diff
