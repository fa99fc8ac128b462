"""A deck file's count lines ("COUNT CARD", whatever sections and comments a game's deck format
has around them): read as a table, and rewritten with new counts, every other byte kept."""

from __future__ import annotations

import re

import pandas as pd

COUNT = re.compile(r"^(\s*)(\d+)(\s+)(\S.*?)\s*$")


def deck_lines(text: str) -> pd.DataFrame:
    """The count lines of a .deck file: line (1-based), card, copies."""
    rows = [(n, m.group(4), int(m.group(2))) for n, line in enumerate(text.splitlines(), 1)
            if (m := COUNT.match(line)) and not line.lstrip().startswith("#")]
    return pd.DataFrame(rows, columns=["line", "card", "copies"])


def with_counts(text: str, counts: dict[int, int]) -> str:
    """A .deck file's text with the count on each given line replaced, all else as it was."""
    lines = text.splitlines(True)
    for n, copies in counts.items():
        m = COUNT.match(lines[n - 1].rstrip("\r\n"))
        end = lines[n - 1][len(lines[n - 1].rstrip("\r\n")):]
        lines[n - 1] = f"{m.group(1)}{copies}{m.group(3)}{m.group(4)}{end}"
    return "".join(lines)
