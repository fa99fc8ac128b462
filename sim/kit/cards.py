"""The card table every game shares: cards.csv read into a checked integer table by the
columns, types and row checks a game declares, with lookup by id or name and edited copies."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from sim.core.datafiles import read_text
from sim.core.problems import InputError, Problem, suggest

ID = re.compile(r"[a-z0-9-]+")


@dataclass(frozen=True)
class Column:
    """One column of cards.csv and how its cell becomes a number of the integer table.

    - slot: the column of the integer table it fills (None: kept as words, e.g. `text`);
    - words: a word column, each word's code (a sequence codes a word by its place); the
      cell is compared after `fold` (e.g. str.lower), messages spell the words as given;
    - parse(cell, row) -> int | None: a reader of the game's own (None: a problem, told
      with `hint`), given the whole row's cells;
    - neither: a whole number, `default` when the cell is empty (None: empty is a problem);
    - what: how messages name the column (default its name).
    """

    name: str
    slot: int | None = None
    words: Mapping[str, int] | Sequence[str] | None = None
    default: int | None = None
    parse: Callable[[str, dict], int | None] | None = None
    hint: str = ""
    what: str = ""
    fold: Callable[[str], str] = str

    def read(self, cell: str, row: dict) -> tuple[int, str]:
        """(value, problem) of one cell; the problem is "" when the cell is good."""
        what = self.what or self.name
        if self.parse is not None:
            value = self.parse(cell, row)
            return (0, f"{what} {cell!r}: {self.hint}") if value is None else (value, "")
        if self.words is not None:
            codes = (dict(self.words) if isinstance(self.words, Mapping)
                     else {w: i for i, w in enumerate(self.words)})
            folded = {self.fold(w): code for w, code in codes.items()}
            if self.fold(cell) in folded:
                return folded[self.fold(cell)], ""
            return 0, f"unknown {what} {cell!r}{suggest(cell, [w for w in codes if w])}"
        if cell == "" and self.default is not None:
            return self.default, ""
        try:
            return int(cell), ""
        except ValueError:
            return 0, f"{what} must be an integer, got {cell!r}"


@dataclass(frozen=True)
class Cards:
    """What a game declares of its cards.csv: the columns in file order (`id` and `name`
    first, any `text` kept as words), the width of the integer table, which slot holds the
    kind and the kind words, whether names must be unique, and its row check:
    check(row: list[int]) -> [message], the rules of one card, applied to each line of the
    file (when its cells read cleanly) and to a table edited in memory; `values`, checks of
    a row's numbers that hold even beside a cell that did not read (e.g. no negative cost)."""

    columns: tuple[Column, ...]
    width: int
    kind_slot: int
    kinds: tuple[str, ...]
    check: Callable[[list[int]], list[str]]
    unique_names: bool = True
    values: Callable[[list[int]], list[str]] | None = None
    # Fields a designer sets (CARD.FIELD=VALUE) that are not a whole-number column of their
    # own, each read by the game: setter(table, card, text) edits the row, or says why not.
    setters: Mapping[str, Callable[[np.ndarray, int, str], str]] = field(default_factory=dict)
    # The row check's answers by the row's values: an experiment checks hundreds of variant
    # tables, each every row of the pool again but the one it changed.
    checked: dict[bytes, tuple[str, ...]] = field(default_factory=dict, compare=False,
                                                  repr=False)

    @property
    def header(self) -> list[str]:
        return [c.name for c in self.columns]

    def row_problems(self, row: np.ndarray) -> tuple[str, ...]:
        """`check` of one row of the integer table, remembered by its values."""
        key = np.asarray(row, dtype=np.int64).tobytes()
        if key not in self.checked:
            if len(self.checked) >= 100_000:  # a long session's variants: start again
                self.checked.clear()
            self.checked[key] = tuple(self.check([int(v) for v in row]))
        return self.checked[key]


@dataclass(frozen=True)
class CardTable:
    """A game's cards: one row per card in the engine's integer table, plus the words. A
    game subclasses it with its declaration as `CARDS`."""

    CARDS: ClassVar[Cards]

    path: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    texts: tuple[str, ...] = field(compare=False)
    table: np.ndarray = field(repr=False)
    sha256: str = ""
    # Each card's line in cards.csv (empty when not read from one): provenance, not content.
    lines: tuple[int, ...] = field(default=(), compare=False)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Each card's kind, as a word."""
        return tuple(self.CARDS.kinds[k] for k in self.table[:, self.CARDS.kind_slot])

    @property
    def blank(self) -> int:
        """The first card of kind "blank" (the filler of ablations and sweeps), -1 for none."""
        return next((i for i, k in enumerate(self.kinds) if k == "blank"), -1)

    @property
    def numbers(self) -> dict[str, int]:
        """The whole-number fields of a card (its columns that are neither words nor read by
        the game's own reader): field name -> slot of the integer table."""
        return {c.name: c.slot for c in self.CARDS.columns
                if c.slot is not None and c.words is None and c.parse is None}

    def field_of(self, what: str, where: str = "--set") -> tuple[int, str]:
        """"CARD.FIELD" (by id or name) -> (card, field), or an InputError naming the closest
        cards or the fields there are."""
        name, dot, fld = what.rpartition(".")
        card = self.lookup(name) if dot else None
        fields = [*self.numbers, *self.CARDS.setters]
        if card is None:
            said = self.unknown(name) if dot else f"expects CARD.FIELD, got {what!r}"
            raise InputError([Problem(where, 0, said)])
        if fld not in fields:
            raise InputError([Problem(where, 0, f"unknown field {fld!r} of {what!r}"
                                      f"{suggest(fld, fields)}; one of {', '.join(fields)}")])
        return card, fld

    def value_of(self, what: str, where: str = "tune") -> int:
        """The number in "CARD.FIELD" (a whole-number field)."""
        card, fld = self.field_of(what, where)
        numbers = self.numbers
        if fld not in numbers:
            raise InputError([Problem(where, 0, f"{what!r} is not a whole number")])
        return int(self.table[card, numbers[fld]])

    def with_sets(self, sets: Sequence[str], where: str = "--set") -> CardTable:
        """A copy with "CARD.FIELD=VALUE" edits (a whole number into a numeric field, or the
        game's own reading of a field it sets), each edited card checked as cards.csv
        checks a line; every problem is told at once."""
        if not sets:
            return self
        table, problems, edited = self.table.copy(), [], set()
        numbers = self.numbers
        for item in sets:
            what, sep, text = str(item).partition("=")
            if not sep:
                problems.append(Problem(where, 0, f"expects CARD.FIELD=VALUE, got {item!r}"))
                continue
            try:
                card, fld = self.field_of(what.strip(), where)
            except InputError as err:
                problems += err.problems
                continue
            text = text.strip()
            if fld in self.CARDS.setters:
                wrong = self.CARDS.setters[fld](table, card, text)
            else:
                wrong = "" if text.lstrip("-").isdigit() else "the value must be a whole number"
                if not wrong:
                    table[card, numbers[fld]] = int(text)
            if wrong:
                problems.append(Problem(where, 0, f"{item!r}: {wrong}"))
            edited.add(card)
        out = self.with_table(table)
        problems += [p for card in sorted(edited) for p in out.card_problems(card, where, 0)]
        if problems:
            raise InputError(problems)
        return out

    def frame(self):
        """The pool by field name, one row per card: id, name, kind (a word) and every
        column of the integer table (words as their codes)."""
        # deferred: pandas and pyarrow load only when records are read or written
        import pandas as pd  # here, not at the top: the command line starts without pandas

        df = pd.DataFrame({"id": self.ids, "name": self.names, "kind": self.kinds})
        for column in self.CARDS.columns:
            if column.slot is not None and column.slot != self.CARDS.kind_slot:
                df[column.name] = self.table[:, column.slot]
        return df

    def filler(self) -> int:
        """The blank card that takes a removed card's place in ablations and sweeps, or an
        InputError naming the pool when it has none."""
        blank = self.blank
        if blank < 0:
            raise InputError([Problem(str(self.path), 0, "the pool has no blank card (kind "
                                      "blank), needed as the filler of ablations and sweeps")])
        return blank

    def lookup(self, word: str) -> int | None:
        """A card by id, or by a name (regardless of case) only one card has; None else."""
        key = word.strip().lower()
        if key in self.ids:
            return self.ids.index(key)
        hits = [i for i, n in enumerate(self.names) if n.lower() == key]
        return hits[0] if len(hits) == 1 else None

    def unknown(self, word: str) -> str:
        """The message for a word that names no card: the ids to use when several cards
        share the name, else the nearest names."""
        word = word.strip()
        shared = [self.ids[i] for i, n in enumerate(self.names) if n.lower() == word.lower()]
        hint = (f"; several cards have that name, use an id: {', '.join(shared)}" if shared
                else suggest(word, self.names))
        return f"unknown card {word!r}{hint}"

    def card(self, word, where: str = "--card") -> int:
        """A card by id or name, or an InputError naming `where` and the nearest names."""
        found = self.lookup(str(word or ""))
        if found is None:
            raise InputError([Problem(where, 0, self.unknown(str(word or "")))])
        return found

    def with_table(self, table: np.ndarray, tag: str = "+edited") -> CardTable:
        """A copy with another integer table (the words and lines kept)."""
        table = np.array(table, dtype=np.int64)
        table.setflags(write=False)
        return dataclasses.replace(self, table=table, sha256=self.sha256 + tag)

    def with_twin(self, card: int, twin_id: str) -> CardTable:
        """A copy with one more card at the end: the card's row again (name, words and
        values) under another id, so that one seat's copies can change alone."""
        out = dataclasses.replace(
            self, ids=(*self.ids, twin_id), names=(*self.names, self.names[card]),
            texts=(*self.texts, self.texts[card]) if self.texts else self.texts,
            lines=(*self.lines, self.lines[card]) if card < len(self.lines) else self.lines)
        return out.with_table(np.vstack([self.table, self.table[card:card + 1]]), "+twin")

    def with_values(self, overrides: dict[tuple[int, int], int]) -> CardTable:
        """A copy with some integer cells changed: {(card, slot): value}."""
        table = self.table.copy()
        for (card, slot), value in overrides.items():
            table[card, slot] = value
        return self.with_table(table)

    def card_problems(self, card: int, where: str = "", line: int | None = None
                      ) -> list[Problem]:
        """The game's row check on one card as the table holds it, named by its line in
        cards.csv (or by `where` and `line`, e.g. "--set", 0)."""
        if line is None:
            line = self.lines[card] if card < len(self.lines) else 0
        return [Problem(where or self.path, line, f"card {self.ids[card]!r}: {m}")
                for m in self.CARDS.row_problems(self.table[card])]

    def problems(self) -> list[Problem]:
        """The problems of the whole table as it stands (values changed in memory too)."""
        return [p for card in range(len(self)) for p in self.card_problems(card)]

    @classmethod
    def from_words(cls, path, ids, names, texts, table, sha256: str = "") -> CardTable:
        """A table rebuilt from a manifest's words and values (no file read). A table
        recorded before a column was added is narrower: the columns after its own read 0,
        each column's default, as its run played them."""
        table = np.array(table, dtype=np.int64).reshape(len(ids), -1)
        if table.shape[1] < cls.CARDS.width:
            table = np.pad(table, ((0, 0), (0, cls.CARDS.width - table.shape[1])))
        table.setflags(write=False)
        return cls(str(path), tuple(ids), tuple(names),
                   tuple(texts) if texts else ("",) * len(ids), table, sha256)

    @classmethod
    def load(cls, path: Path | str) -> CardTable:
        """Read and check cards.csv; InputError lists every problem as file:line, naming
        the card."""
        return read_cards(cls, path)


def read_cards(cls: type[CardTable], path: Path | str) -> CardTable:
    """cards.csv -> the game's CardTable, every problem gathered (see CardTable.load)."""
    spec = cls.CARDS
    path = Path(path)
    where = str(path)
    text = read_text(path)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != spec.header:
        raise InputError([Problem(where, 1, f"header must be: {','.join(spec.header)}")])
    problems: list[Problem] = []
    ids: list[str] = []
    names: list[str] = []
    texts: list[str] = []
    table: list[list[int]] = []
    lines: list[int] = []
    first_id: dict[str, int] = {}
    first_name: dict[str, int] = {}
    for line, raw in enumerate(rows[1:], start=2):
        if not raw or all(not c.strip() for c in raw):
            continue
        if len(raw) != len(spec.columns):
            problems.append(Problem(where, line, f"card {raw[0].strip()!r}: {len(raw)} "
                                    f"columns, expected {len(spec.columns)}"))
            continue
        cell = dict(zip(spec.header, (c.strip() for c in raw), strict=True))
        cid, name = cell["id"], cell["name"]
        said = [*row_identity(cid, name, line, first_id, first_name, spec.unique_names)]
        row = [0] * spec.width
        for column in spec.columns:
            if column.slot is None:
                continue
            row[column.slot], problem = column.read(cell[column.name], cell)
            if problem:
                said.append(problem)
        if spec.values is not None:
            said += spec.values(row)
        if not said:
            said = spec.check(row)
        problems += [Problem(where, line, f"card {cid!r}: {m}") for m in said]
        first_id.setdefault(cid, line)
        first_name.setdefault(name.lower(), line)
        ids.append(cid)
        names.append(name)
        texts.append(cell.get("text", ""))
        table.append(row)
        lines.append(line)
    if not ids and not problems:
        problems.append(Problem(where, 1, "no cards"))
    if problems:
        raise InputError(problems)
    arr = np.array(table, dtype=np.int64)
    arr.setflags(write=False)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return cls(where, tuple(ids), tuple(names), tuple(texts), arr, digest, tuple(lines))


def row_identity(cid: str, name: str, line: int, first_id: dict, first_name: dict,
                 unique_names: bool):
    """The problems of a card's id and name: the id's spelling, no id twice, no empty name
    and, where the game asks it, no name twice."""
    if not ID.fullmatch(cid):
        yield "id must be lower-case letters, digits and '-'"
    if cid in first_id:
        yield f"duplicate id (first on line {first_id[cid]})"
    if not name:
        yield "empty name"
    elif unique_names and name.lower() in first_name:
        yield f"duplicate name {name!r} (first on line {first_name[name.lower()]})"
