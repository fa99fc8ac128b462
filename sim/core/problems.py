"""Problems found in input files, reported as file:line: message, and the error that
carries them to the command line (exit status 2)."""

from __future__ import annotations

import dataclasses
import difflib
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, at a line (0 when it concerns the whole file); a
    problem of no file or option (path "": a field of a form that names itself) is its
    message alone."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.path else self.message


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


@contextmanager
def told_as(said: str, where: str):
    """Problems raised inside, those told of `said` told of `where` instead: the option
    (or field) the values really came from, where a shared reader names its usual one."""
    try:
        yield
    except InputError as err:
        raise InputError([dataclasses.replace(p, path=where) if p.path == said else p
                          for p in err.problems]) from None
