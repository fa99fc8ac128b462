"""Rule options, declared once per game: each option's name, kind, range or words, default and
doc line, read by one parser for rules.toml, `--rules KEY=VALUE`, a manifest and the docs
table. A game adds only the int64 vector its engine reads."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.datafiles import load_toml
from sim.core.problems import InputError, Problem, suggest


@dataclass(frozen=True)
class Option:
    """One rule option. Its kind follows from what is declared: words (`words`), a flag
    (a bool default), a list (a list default, checked by `check`) or a whole number in
    `lo .. hi` (or one of `allowed`)."""

    name: str
    default: object
    doc: str
    words: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    allowed: tuple[int, ...] = ()
    check: Callable[[object], str] | None = None  # a list's own check: "" when it is good

    @property
    def kind(self) -> str:
        if self.words:
            return "word"
        if isinstance(self.default, bool):
            return "flag"
        return "list" if isinstance(self.default, list) else "whole"

    @property
    def values(self) -> str:
        """What it may be, in words, for messages and the docs table."""
        if self.kind == "word":
            return ", ".join(self.words)
        if self.kind == "flag":
            return "true, false"
        if self.kind == "list":
            return "a list"
        if self.allowed:
            return ", ".join(map(str, self.allowed))
        return f"{self.lo}..{self.hi}"

    @staticmethod
    def show(value) -> str:
        """A value as rules.toml writes it (true, not True)."""
        return str(value).lower() if isinstance(value, bool) else str(value)

    def read(self, value) -> tuple[object, str]:
        """(the value as the engine takes it, "") or (None, what is wrong). Values are TOML
        values wherever they come from (`--rules` reads each as TOML), so a quoted number is
        a word, not a number."""
        if self.kind == "word":
            if value in self.words:
                return value, ""
            return None, (f"must be one of {self.values}; got {value!r}"
                          f"{suggest(str(value), self.words)}")
        if self.kind == "flag":
            return (value, "") if isinstance(value, bool) else (
                None, f"must be true or false, got {value!r}")
        if self.kind == "list":
            if not isinstance(value, list):
                return None, f"must be a list, got {value!r}"
            wrong = self.check(value) if self.check else ""
            return (None, wrong) if wrong else (list(value), "")
        if isinstance(value, bool) or not isinstance(value, int):
            return None, f"must be an integer, got {value!r}"
        if self.allowed and value not in self.allowed:
            return None, f"must be one of {self.values}, got {value}"
        if not self.allowed and not self.lo <= value <= self.hi:
            return None, f"{value} is out of range {self.values}"
        return value, ""

    def neighbours(self, value) -> list:
        """The other values `cardlab lint` tries: every other word (or allowed number), the
        other flag, the next whole number (the one below at the top of the range); lists are
        the game's."""
        if self.kind == "word":
            return [w for w in self.words if w != value]
        if self.kind == "flag":
            return [not value]
        if self.kind == "whole" and not self.allowed:
            step = value + 1 if value + 1 <= self.hi else value - 1
            return [step] if self.lo <= step <= self.hi else []
        if self.kind == "whole":
            return [v for v in self.allowed if v != value]
        return []


@dataclass(frozen=True)
class Rules:
    """A game's rule options by name, and as the int64 vector its engine reads."""

    values: dict
    vector: np.ndarray = field(repr=False, compare=False)
    options: Options = field(repr=False, compare=False)  # what checks a changed copy

    def __getitem__(self, key: str):
        return self.values[key]

    def replace(self, changes: dict | None = None, where: str = "--rules", **more) -> Rules:
        """A copy with some options changed, checked as a rules file is."""
        return self.options.changed(self, {**(changes or {}), **more}, where)


@dataclass(frozen=True)
class Options:
    """The declared options of a game and the vector its engine reads from their values:
    `to_vector(values)` where a game lays it out itself, else one number an option in
    declaration order (`in_order`)."""

    options: tuple[Option, ...]
    to_vector: Callable[[dict], np.ndarray] | None = None

    def in_order(self, values: dict) -> np.ndarray:
        """Each option as one number, in declaration order: a word by its place among the
        option's words, a flag or a whole number as itself."""
        return np.array([o.words.index(values[o.name]) if o.words else int(values[o.name])
                         for o in self.options], dtype=np.int64)

    @property
    def by_name(self) -> dict[str, Option]:
        return {o.name: o for o in self.options}

    def defaults(self) -> dict:
        return {o.name: copy.deepcopy(o.default) for o in self.options}

    def rules(self, values: dict | None = None) -> Rules:
        """A rule set of checked values (the defaults when none); the vector is read-only."""
        values = self.defaults() if values is None else values
        vector = np.asarray((self.to_vector or self.in_order)(values), dtype=np.int64)
        vector.setflags(write=False)
        return Rules(values, vector, self)

    def _read(self, values: dict, given: dict, where: str, lines: dict) -> Rules:
        out, problems = dict(values), []
        known = self.by_name
        for key, value in given.items():
            line = lines.get(key, 0)
            if key not in known:
                problems.append(Problem(where, line, f"unknown rule option {key!r}"
                                        f"{suggest(key, known)}; known: {', '.join(known)}"))
                continue
            read, wrong = known[key].read(value)
            if wrong:
                problems.append(Problem(where, line, f"rule option {key!r}: {wrong}"))
            else:
                out[key] = read
        if problems:
            raise InputError(problems)
        return self.rules(out)

    def load(self, path: Path | str | None) -> Rules:
        """rules.toml read and checked, each problem with its line; a missing key (or no
        file) takes its default."""
        if path is None:
            return self.rules()
        data, lines = load_toml(path)
        return self._read(self.defaults(), data, str(path), lines)

    def changed(self, rules: Rules, changes: dict, where: str = "--rules") -> Rules:
        """A copy with KEY=VALUE changes (from the command line, a tune, a manifest)."""
        return self._read(rules.values, changes, where, {})

    def from_manifest(self, values: dict) -> Rules:
        """The rule set a manifest recorded; an option added since takes its default."""
        return self._read(self.defaults(), values, "<manifest>", {})

    def problems(self, values: dict, where: str = "<rules>") -> list[Problem]:
        """What is wrong with values held in memory (the validator's word on a variant)."""
        out = []
        for o in self.options:
            _, wrong = o.read(values.get(o.name))
            if wrong:
                out.append(Problem(where, 0, f"rule option {o.name!r}: {wrong}"))
        return out

    def variants(self, values: dict, skip: tuple[str, ...] = ()) -> list[dict]:
        """One changed option a dict: every option's neighbours (`cardlab lint`), but for
        the options in `skip`."""
        return [{o.name: v} for o in self.options if o.name not in skip
                for v in o.neighbours(values[o.name])]

    def markdown(self) -> str:
        """The docs table of every option: its values, default and what it means."""
        rows = ["| option | values | default | what it means |", "|---|---|---|---|"]
        for o in self.options:
            rows.append(f"| `{o.name}` | {o.values} | `{o.show(o.default)}` | {o.doc} |")
        return "\n".join(rows) + "\n"
