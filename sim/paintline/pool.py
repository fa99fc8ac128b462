"""The card pool: cards.csv read into the engine's validated integer table, with the words."""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.paintline import keywords
from sim.problems import InputError, Problem, suggest

DECK_SIZE = 60
MAX_VALUE = 999  # no printed card or rule value comes near this
MAX_COPIES = 4

# Card kinds, nations and shot types as the integer codes the engine reads.
KINDS = ("coach", "stamina", "basic_shot", "trick_shot", "enhancement", "blank")
COACH, STAMINA, BASIC_SHOT, TRICK_SHOT, ENHANCEMENT, BLANK = range(6)
NATIONS = ("neutral", "US", "USSR")
NEUTRAL = 0
SHOT_TYPES = ("", "lob", "spin", "drive")
NO_TYPE, LOB, SPIN, DRIVE = range(4)

# Columns of the card table.
COLUMNS = (
    "id", "name", "nation", "kind", "cost", "shot_type", "normal_bonus", "normal_penalty",
    "advantage_bonus", "advantage_penalty", "ability1", "arg1", "ability2", "arg2", "text",
)  # fmt: skip
C_KIND, C_NATION, C_COST, C_TYPE = 0, 1, 2, 3
C_NBONUS, C_NPEN, C_ABONUS, C_APEN = 4, 5, 6, 7
C_AB1, C_ARG1, C_AB2, C_ARG2 = 8, 9, 10, 11
N_CARD_COLUMNS = 12
INT_COLUMNS = {
    "cost": C_COST, "normal_bonus": C_NBONUS, "normal_penalty": C_NPEN,
    "advantage_bonus": C_ABONUS, "advantage_penalty": C_APEN, "arg1": C_ARG1, "arg2": C_ARG2,
}  # fmt: skip


@dataclass(frozen=True)
class Pool:
    """The card pool: one row per card in the engine's integer table, plus the words."""

    path: Path
    ids: tuple[str, ...]
    names: tuple[str, ...]
    texts: tuple[str, ...]
    table: np.ndarray = field(repr=False)
    sha256: str = ""
    # Each card's line in cards.csv (empty when not read from one): provenance, not content.
    lines: tuple[int, ...] = field(default=(), compare=False)

    def __len__(self) -> int:
        return len(self.ids)

    def lookup(self, name: str) -> int | None:
        """Index of a card given its id or name, case-insensitive; None when unknown."""
        key = name.strip().lower()
        for i, (cid, cname) in enumerate(zip(self.ids, self.names, strict=True)):
            if key == cid or key == cname.lower():
                return i
        return None

    def closest(self, name: str, n: int = 3) -> list[str]:
        """The known card names nearest to a misspelt one."""
        lowered = {c.lower(): c for c in self.names}
        hits = difflib.get_close_matches(name.strip().lower(), list(lowered), n=n, cutoff=0.5)
        return [lowered[h] for h in hits]

    def with_values(self, overrides: dict[tuple[int, int], int]) -> Pool:
        """A copy with some integer cells changed: {(card, column): value}."""
        table = self.table.copy()
        for (card, col), value in overrides.items():
            table[card, col] = value
        table.setflags(write=False)
        return Pool(self.path, self.ids, self.names, self.texts, table, self.sha256 + "+edited",
                    self.lines)

    def problems(self) -> list[Problem]:
        """The problems of the card table as it stands (values changed in memory included),
        by the checks cards.csv is read with; each names the card and its line."""
        out = []
        for i, cid in enumerate(self.ids):
            line = self.lines[i] if i < len(self.lines) else 0
            out += card_problems(str(self.path), line, f"card {cid!r}",
                                 [int(v) for v in self.table[i]])
        return out


def read_text(path: Path, problems: list[Problem]) -> str | None:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        problems.append(Problem(str(path), 0, "file not found"))
    except UnicodeDecodeError as err:
        problems.append(Problem(str(path), 0, f"not UTF-8 text (byte {err.start})"))
    except OSError as err:
        problems.append(Problem(str(path), 0, f"cannot read: {err.strerror}"))
    return None



def load_pool(path: Path | str) -> Pool:
    """Read and validate cards.csv; raise InputError listing every problem."""
    path = Path(path)
    problems: list[Problem] = []
    text = read_text(path, problems)
    if text is None:
        raise InputError(problems)
    where = str(path)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != list(COLUMNS):
        raise InputError([Problem(where, 1, f"header must be: {','.join(COLUMNS)}")])
    ids: list[str] = []
    names: list[str] = []
    texts: list[str] = []
    table: list[list[int]] = []
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    lines: list[int] = []
    kw_names = [k.name for k in keywords.KEYWORDS]
    for line, row in enumerate(rows[1:], start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(COLUMNS):
            label = row[0].strip() if row else ""
            problems.append(Problem(where, line, f"card {label!r}: {len(row)} columns, "
                                    f"expected {len(COLUMNS)}"))
            continue
        cell = dict(zip(COLUMNS, (c.strip() for c in row), strict=True))
        cid, name = cell["id"], cell["name"]
        label = f"card {cid!r}"
        bad = len(problems)
        if not cid or not all(ch.isalnum() or ch == "-" for ch in cid) or cid != cid.lower():
            problems.append(Problem(where, line, f"{label}: id must be lower-case letters, "
                                    "digits and '-'"))
        if cid in seen_ids:
            problems.append(Problem(where, line, f"{label}: duplicate id (first on line "
                                    f"{seen_ids[cid]})"))
        if name.lower() in seen_names:
            problems.append(Problem(where, line, f"{label}: duplicate name {name!r} (first on "
                                    f"line {seen_names[name.lower()]})"))
        if not name:
            problems.append(Problem(where, line, f"{label}: empty name"))
        seen_ids.setdefault(cid, line)
        seen_names.setdefault(name.lower(), line)
        out = [0] * N_CARD_COLUMNS
        if cell["kind"] in KINDS:
            out[C_KIND] = KINDS.index(cell["kind"])
        else:
            problems.append(Problem(where, line, f"{label}: unknown kind {cell['kind']!r}"
                                    f"{suggest(cell['kind'], KINDS)}"))
        if cell["nation"] in NATIONS:
            out[C_NATION] = NATIONS.index(cell["nation"])
        else:
            problems.append(Problem(where, line, f"{label}: unknown nation {cell['nation']!r}"
                                    f"{suggest(cell['nation'], NATIONS)}"))
        if cell["shot_type"] in SHOT_TYPES:
            out[C_TYPE] = SHOT_TYPES.index(cell["shot_type"])
        else:
            hint = suggest(cell["shot_type"], SHOT_TYPES)
            problems.append(Problem(where, line, f"{label}: unknown shot type "
                                    f"{cell['shot_type']!r}{hint}"))
        for col, idx in INT_COLUMNS.items():
            raw = cell[col]
            try:
                out[idx] = int(raw)
            except ValueError:
                problems.append(Problem(where, line, f"{label}: {col} must be an integer, "
                                        f"got {raw!r}"))
        for col, idx in (("ability1", C_AB1), ("ability2", C_AB2)):
            word = cell[col]
            if not word:
                continue
            kw = keywords.BY_NAME.get(word.lower())
            if kw is None:
                problems.append(Problem(where, line, f"{label}: unknown ability {word!r}"
                                        f"{suggest(word, kw_names)}"))
            else:
                out[idx] = kw.opcode
        problems.extend(value_problems(where, line, label, out))
        if len(problems) == bad:
            problems.extend(_check_card_shape(where, line, label, out))
        ids.append(cid)
        lines.append(line)
        names.append(name)
        texts.append(cell["text"])
        table.append(out)
    if not ids and not problems:
        problems.append(Problem(where, 1, "no cards"))
    if problems:
        raise InputError(problems)
    arr = np.array(table, dtype=np.int64)
    arr.setflags(write=False)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Pool(path, tuple(ids), tuple(names), tuple(texts), arr, digest, tuple(lines))


def card_problems(where: str, line: int, label: str, row: list[int]) -> list[Problem]:
    """One card's row of the engine's table: codes it knows, values in range, then fields
    that fit the card's kind; the checks of cards.csv, for a table changed in memory."""
    return value_problems(where, line, label, row) or _check_card_shape(where, line, label, row)


def value_problems(where: str, line: int, label: str, row: list[int]) -> list[Problem]:
    """Codes the engine knows and whole-number values in 0 .. MAX_VALUE."""
    out = []
    for col, idx, known in (("kind", C_KIND, KINDS), ("nation", C_NATION, NATIONS),
                            ("shot_type", C_TYPE, SHOT_TYPES)):
        if not 0 <= row[idx] < len(known):
            out.append(Problem(where, line, f"{label}: {col} code {row[idx]} is none of "
                                            f"{', '.join(k or 'none' for k in known)}"))
    for col, idx in (("ability1", C_AB1), ("ability2", C_AB2)):
        if row[idx] != keywords.NONE and row[idx] not in keywords.NAMES:
            out.append(Problem(where, line, f"{label}: {col} code {row[idx]} is no ability"))
    for col, idx in INT_COLUMNS.items():
        if row[idx] < 0:
            out.append(Problem(where, line, f"{label}: {col} must not be negative, "
                                            f"got {row[idx]}"))
        elif row[idx] > MAX_VALUE:
            out.append(Problem(where, line, f"{label}: {col} is too large "
                                            f"(at most {MAX_VALUE}), got {row[idx]}"))
    return out


def _check_card_shape(where: str, line: int, label: str, row: list[int]) -> list[Problem]:
    """A card's fields must fit its kind: shots have a type, abilities sit on the right kind."""
    out = []
    kind = row[C_KIND]
    is_shot = kind in (BASIC_SHOT, TRICK_SHOT)
    if is_shot and row[C_TYPE] == NO_TYPE:
        out.append(Problem(where, line, f"{label}: a shot card needs a shot type"))
    if not is_shot and row[C_TYPE] != NO_TYPE:
        out.append(Problem(where, line, f"{label}: only shot cards have a shot type"))
    if kind == BASIC_SHOT and row[C_NATION] != NEUTRAL:
        out.append(Problem(where, line, f"{label}: basic shots are neutral"))
    if kind in (TRICK_SHOT, COACH) and row[C_NATION] == NEUTRAL:
        out.append(Problem(where, line, f"{label}: a {KINDS[kind]} belongs to a nation"))
    for ab in (row[C_AB1], row[C_AB2]):
        if ab in keywords.COACH_ONLY and kind != COACH:
            out.append(Problem(where, line, f"{label}: this ability is for coaches only"))
        if ab in keywords.ENHANCEMENT_ONLY and kind != ENHANCEMENT:
            out.append(Problem(where, line, f"{label}: Attach is for enhancements only"))
        if kind == COACH and ab not in keywords.COACH_ONLY and ab != keywords.NONE:
            out.append(Problem(where, line, f"{label}: a coach takes a coach ability"))
        elif ab in keywords.SHOT_ONLY and not is_shot:
            out.append(Problem(where, line, f"{label}: {keywords.NAMES[ab]} does nothing on a "
                                            f"{KINDS[kind].replace('_', ' ')}; it acts only "
                                            "when a shot card is hit"))
    return out
