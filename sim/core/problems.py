"""Problems found in input files, reported as file:line: message, and the error that
carries them to the command line (exit status 2)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, at a line (0 when it concerns the whole file)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class InputError(Exception):
    """Every problem found in the files or options that were read."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def suggest(word: str, known) -> str:
    """"; did you mean 'X', 'Y'?" with the closest known words (matched regardless of case,
    spelled as known), or nothing."""
    spelled = {str(k).lower(): str(k) for k in known}
    close = difflib.get_close_matches(word.lower(), list(spelled), n=3, cutoff=0.5)
    return f"; did you mean {', '.join(repr(spelled[c]) for c in close)}?" if close else ""
