"""Card pool, rule options and deck lists: read from data files into validated integer tables."""

from __future__ import annotations

import copy
import csv
import difflib
import hashlib
import io
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.paintline import keywords

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

# Rule options: name -> (type, default). The engine reads them as one int64 vector.
SERVE_MISS = ("receiver_scores", "replay")
DECK_OUT = ("forfeit_on_empty_draw", "forfeit_when_empty")
TIE_RULE = ("hitter", "first")
MATCH_LENGTHS = (1, 3, 5, 7)
MAX_LADDER = 16
RULE_DEFAULTS: dict[str, object] = {
    "escalation": [6, 8, 10, 12, 14, 16, 18, 20],
    "crit_target": 20,
    "serve_miss": "receiver_scores",
    "deck_out": "forfeit_on_empty_draw",
    "points_to_win": 11,
    "win_by": 1,
    "hand_limit": 7,
    "opening_hand": 7,
    "mulligans": 1,
    "untap_steps": 1,
    "recycle_ratio": 2,
    "match_games": 1,
    "tie_rule": "hitter",
    "rally_mode": False,
}
(
    R_CRIT_TARGET, R_SERVE_MISS, R_DECK_OUT, R_POINTS_TO_WIN, R_WIN_BY, R_HAND_LIMIT,
    R_OPENING_HAND, R_MULLIGANS, R_UNTAP_STEPS, R_RECYCLE_RATIO, R_MATCH_GAMES, R_TIE_RULE,
    R_LADDER_LEN, R_LADDER,
) = range(14)  # fmt: skip
MAX_ARSENAL = 4  # rally mode: shot cards each player starts every rally with
R_RALLY_MODE = R_LADDER + MAX_LADDER
R_ARSENAL = R_RALLY_MODE + 1  # seat p's cards at R_ARSENAL + p * MAX_ARSENAL, -1 padded
N_RULES = R_ARSENAL + 2 * MAX_ARSENAL


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, at a line (0 when it concerns the whole file)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class PoolError(Exception):
    """Every problem found in the files that were read."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Pool:
    """The card pool: one row per card in the engine's integer table, plus the words."""

    path: Path
    ids: tuple[str, ...]
    names: tuple[str, ...]
    texts: tuple[str, ...]
    table: np.ndarray = field(repr=False)
    sha256: str = ""

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
        return Pool(self.path, self.ids, self.names, self.texts, table, self.sha256 + "+edited")


@dataclass(frozen=True)
class Deck:
    """A legal deck: its card indices with counts; the coach is the one COACH row or -1."""

    path: Path
    name: str
    counts: tuple[tuple[int, int], ...]
    coach: int
    nation: int

    def cards(self) -> np.ndarray:
        """The 60 card indices in list order (the coach included)."""
        return np.array([c for c, n in self.counts for _ in range(n)], dtype=np.int16)

    def bag(self) -> np.ndarray:
        """The cards that are shuffled into the bag: every card but the coach."""
        out = [c for c, n in self.counts for _ in range(n) if c != self.coach]
        return np.array(out, dtype=np.int16)


@dataclass(frozen=True)
class Rules:
    """Rule options by name and as the engine's int64 vector."""

    values: dict
    vector: np.ndarray = field(repr=False)

    def replace(self, **changes) -> Rules:
        """A copy with some options changed, validated like a rules file."""
        values = {**self.values, **changes}
        problems = [
            Problem("<override>", 0, f"unknown rule option {k!r}{_suggest(k, RULE_DEFAULTS)}")
            for k in changes
            if k not in RULE_DEFAULTS
        ]
        problems += _check_rule_values(values, "<override>", {k: 0 for k in values})
        if problems:
            raise PoolError(problems)
        return Rules(values, _rule_vector(values))


def _read_text(path: Path, problems: list[Problem]) -> str | None:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        problems.append(Problem(str(path), 0, "file not found"))
    except UnicodeDecodeError as err:
        problems.append(Problem(str(path), 0, f"not UTF-8 text (byte {err.start})"))
    except OSError as err:
        problems.append(Problem(str(path), 0, f"cannot read: {err.strerror}"))
    return None


def _suggest(word: str, known) -> str:
    close = difflib.get_close_matches(word.lower(), [k.lower() for k in known], n=3, cutoff=0.5)
    return f"; did you mean {', '.join(close)}?" if close else ""


def load_pool(path: Path | str) -> Pool:
    """Read and validate cards.csv; raise PoolError listing every problem."""
    path = Path(path)
    problems: list[Problem] = []
    text = _read_text(path, problems)
    if text is None:
        raise PoolError(problems)
    where = str(path)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != list(COLUMNS):
        raise PoolError([Problem(where, 1, f"header must be: {','.join(COLUMNS)}")])
    ids: list[str] = []
    names: list[str] = []
    texts: list[str] = []
    table: list[list[int]] = []
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
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
                                    f"{_suggest(cell['kind'], KINDS)}"))
        if cell["nation"] in NATIONS:
            out[C_NATION] = NATIONS.index(cell["nation"])
        else:
            problems.append(Problem(where, line, f"{label}: unknown nation {cell['nation']!r}"
                                    f"{_suggest(cell['nation'], NATIONS)}"))
        if cell["shot_type"] in SHOT_TYPES:
            out[C_TYPE] = SHOT_TYPES.index(cell["shot_type"])
        else:
            hint = _suggest(cell["shot_type"], SHOT_TYPES)
            problems.append(Problem(where, line, f"{label}: unknown shot type "
                                    f"{cell['shot_type']!r}{hint}"))
        for col, idx in INT_COLUMNS.items():
            raw = cell[col]
            try:
                value = int(raw)
            except ValueError:
                problems.append(Problem(where, line, f"{label}: {col} must be an integer, "
                                        f"got {raw!r}"))
                continue
            if value < 0:
                problems.append(Problem(where, line, f"{label}: {col} must not be negative, "
                                        f"got {value}"))
            elif value > MAX_VALUE:
                problems.append(Problem(where, line, f"{label}: {col} is too large "
                                        f"(at most {MAX_VALUE}), got {value}"))
                value = 0
            out[idx] = value
        for col, idx in (("ability1", C_AB1), ("ability2", C_AB2)):
            word = cell[col]
            if not word:
                continue
            kw = keywords.BY_NAME.get(word.lower())
            if kw is None:
                problems.append(Problem(where, line, f"{label}: unknown ability {word!r}"
                                        f"{_suggest(word, kw_names)}"))
            else:
                out[idx] = kw.opcode
        if len(problems) == bad:
            problems.extend(_check_card_shape(where, line, label, out))
        ids.append(cid)
        names.append(name)
        texts.append(cell["text"])
        table.append(out)
    if not ids and not problems:
        problems.append(Problem(where, 1, "no cards"))
    if problems:
        raise PoolError(problems)
    arr = np.array(table, dtype=np.int64)
    arr.setflags(write=False)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Pool(path, tuple(ids), tuple(names), tuple(texts), arr, digest)


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
    return out


def load_rules(path: Path | str | None = None) -> Rules:
    """Read and validate rules.toml; missing keys take their defaults; None gives defaults."""
    if path is None:
        values = copy.deepcopy(RULE_DEFAULTS)
        return Rules(values, _rule_vector(values))
    path = Path(path)
    problems: list[Problem] = []
    text = _read_text(path, problems)
    if text is None:
        raise PoolError(problems)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"line (\d+)", str(err))
        line = getattr(err, "lineno", 0) or (int(found.group(1)) if found else 0)
        raise PoolError([Problem(str(path), line, f"not valid TOML: {err}")]) from None
    lines = _key_lines(text)
    values = copy.deepcopy(RULE_DEFAULTS)
    for key, value in data.items():
        if key not in RULE_DEFAULTS:
            problems.append(Problem(str(path), lines.get(key, 0), f"unknown rule option "
                                    f"{key!r}{_suggest(key, RULE_DEFAULTS)}"))
            continue
        values[key] = value
    problems += _check_rule_values(values, str(path), lines)
    if problems:
        raise PoolError(problems)
    return Rules(values, _rule_vector(values))


def _key_lines(text: str) -> dict[str, int]:
    out = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        head = raw.split("#", 1)[0]
        if "=" in head:
            out.setdefault(head.split("=", 1)[0].strip().strip('"'), i)
    return out


def _check_rule_values(values: dict, where: str, lines: dict[str, int]) -> list[Problem]:
    problems = []

    def bad(key: str, message: str) -> None:
        problems.append(Problem(where, lines.get(key, 0), f"rule option {key!r}: {message}"))

    for key, default in RULE_DEFAULTS.items():
        value = values[key]
        if isinstance(default, list):
            if not isinstance(value, list) or not value or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                bad(key, f"must be a list of integers, got {value!r}")
            elif any(b <= a for a, b in zip(value, value[1:], strict=False)):
                bad(key, f"must be strictly increasing, got {value}")
            elif len(value) > MAX_LADDER:
                bad(key, f"at most {MAX_LADDER} steps")
            elif value[0] < 1 or value[-1] > MAX_VALUE:
                bad(key, "targets start at 1 or more")
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                bad(key, f"must be true or false, got {value!r}")
        elif isinstance(default, str):
            allowed = {"serve_miss": SERVE_MISS, "deck_out": DECK_OUT, "tie_rule": TIE_RULE}[key]
            if not isinstance(value, str):
                bad(key, f"must be a string, one of {', '.join(allowed)}; got {value!r}")
            elif value not in allowed:
                bad(key, f"must be one of {', '.join(allowed)}; got {value!r}")
        else:
            if not isinstance(value, int) or isinstance(value, bool):
                bad(key, f"must be an integer, got {value!r}")
            elif key == "match_games" and value not in MATCH_LENGTHS:
                bad(key, f"must be one of {MATCH_LENGTHS}, got {value}")
            elif not -MAX_VALUE <= value <= MAX_VALUE:
                bad(key, f"out of range: {value}")
            elif value < (0 if key in ("mulligans", "untap_steps") else 1):
                bad(key, f"out of range: {value}")
    return problems


def _rule_vector(values: dict) -> np.ndarray:
    v = np.zeros(N_RULES, dtype=np.int64)
    v[R_CRIT_TARGET] = values["crit_target"]
    v[R_SERVE_MISS] = SERVE_MISS.index(values["serve_miss"])
    v[R_DECK_OUT] = DECK_OUT.index(values["deck_out"])
    v[R_POINTS_TO_WIN] = values["points_to_win"]
    v[R_WIN_BY] = values["win_by"]
    v[R_HAND_LIMIT] = values["hand_limit"]
    v[R_OPENING_HAND] = values["opening_hand"]
    v[R_MULLIGANS] = values["mulligans"]
    v[R_UNTAP_STEPS] = values["untap_steps"]
    v[R_RECYCLE_RATIO] = values["recycle_ratio"]
    v[R_MATCH_GAMES] = values["match_games"]
    v[R_TIE_RULE] = TIE_RULE.index(values["tie_rule"])
    ladder = values["escalation"]
    v[R_LADDER_LEN] = len(ladder)
    v[R_LADDER : R_LADDER + len(ladder)] = ladder
    v[R_RALLY_MODE] = int(values["rally_mode"])
    v[R_ARSENAL : R_ARSENAL + 2 * MAX_ARSENAL] = -1
    v.setflags(write=False)
    return v


def load_deck(path: Path | str, pool: Pool) -> Deck:
    """Read and validate a deck list against the pool; raise PoolError listing every problem."""
    path = Path(path)
    where = str(path)
    problems: list[Problem] = []
    text = _read_text(path, problems)
    if text is None:
        raise PoolError(problems)
    table = pool.table
    counts: dict[int, int] = {}
    first_line: dict[int, int] = {}
    coach_line = 0
    coach = -1
    nation = NEUTRAL
    nation_card = ""
    last_line = 0
    listed = 0
    for line, raw in enumerate(text.splitlines(), start=1):
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        last_line = line
        head, _, name = entry.partition(" ")
        name = name.strip()
        if not head.isdecimal() or not name:
            problems.append(Problem(where, line, f"expected 'COUNT Card Name', got {entry!r}"))
            continue
        count = int(head)
        listed += count
        card = pool.lookup(name)
        if card is None:
            close = pool.closest(name)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            problems.append(Problem(where, line, f"unknown card {name!r}{hint}"))
            continue
        cname = pool.names[card]
        if count < 1:
            problems.append(Problem(where, line, f"card {cname!r}: count must be at least 1"))
            continue
        before = counts.get(card, 0)
        counts[card] = before + count
        first_line.setdefault(card, line)
        kind = table[card, C_KIND]
        if kind not in (STAMINA, BLANK) and counts[card] > MAX_COPIES:
            problems.append(Problem(where, line, f"card {cname!r}: {counts[card]} copies, at "
                                    f"most {MAX_COPIES} of any card but Stamina"))
        if kind == COACH:
            if coach >= 0 and card != coach or counts[card] > 1:
                already = (f"already {pool.names[coach]!r} on line {coach_line}" if coach >= 0
                           else f"{counts[card]} copies listed")
                problems.append(Problem(where, line, f"card {cname!r}: a deck has at most one "
                                        f"coach ({already})"))
            else:
                coach, coach_line = card, line
        card_nation = int(table[card, C_NATION])
        if card_nation != NEUTRAL:
            if nation == NEUTRAL:
                nation, nation_card = card_nation, cname
            elif card_nation != nation:
                problems.append(Problem(where, line, f"card {cname!r} is {NATIONS[card_nation]}"
                                        f" but the deck is {NATIONS[nation]} (from "
                                        f"{nation_card!r}); one nation per deck"))
    if listed != DECK_SIZE:
        problems.append(Problem(where, last_line, f"deck lists {listed} cards, must be "
                                f"exactly {DECK_SIZE} (coach included)"))
    if problems:
        raise PoolError(problems)
    ordered = tuple(sorted(counts.items(), key=lambda kv: first_line[kv[0]]))
    return Deck(path, path.stem, ordered, coach, nation)


@dataclass(frozen=True)
class Folder:
    """A game folder: the pool, the rule options and the deck lists it holds."""

    pool: Pool
    rules: Rules
    decks: dict[str, Deck]


def load_folder(path: Path | str) -> Folder:
    """Read a whole folder (cards.csv, rules.toml, *.deck), gathering every problem."""
    path = Path(path)
    problems: list[Problem] = []
    pool = rules = None
    try:
        pool = load_pool(path / "cards.csv")
    except PoolError as err:
        problems += err.problems
    try:
        rules = load_rules(path / "rules.toml") if (path / "rules.toml").exists() else load_rules()
    except PoolError as err:
        problems += err.problems
    decks = {}
    if pool is not None:
        for deck_path in sorted(path.glob("*.deck")):
            try:
                decks[deck_path.stem] = load_deck(deck_path, pool)
            except PoolError as err:
                problems += err.problems
    if problems:
        raise PoolError(problems)
    return Folder(pool, rules, decks)


def check_paths(paths: list[Path]) -> tuple[list[str], list[Problem]]:
    """Validate folders, cards.csv, rules.toml or .deck files; return (good news, problems)."""
    notes: list[str] = []
    problems: list[Problem] = []
    for path in paths:
        path = Path(path)
        try:
            if path.is_dir():
                folder = load_folder(path)
                notes.append(f"{path}: {len(folder.pool)} cards, rule options valid")
                for deck in folder.decks.values():
                    notes.append(f"{deck.path}: legal ({describe_deck(deck, folder.pool)})")
            elif path.suffix == ".deck":
                pool = load_pool(path.parent / "cards.csv")
                deck = load_deck(path, pool)
                notes.append(f"{path}: legal ({describe_deck(deck, pool)})")
            elif path.suffix == ".toml":
                load_rules(path)
                notes.append(f"{path}: rule options valid")
            elif path.suffix == ".csv":
                notes.append(f"{path}: {len(load_pool(path))} cards valid")
            elif not path.exists():
                problems.append(Problem(str(path), 0, "no such file or folder"))
            else:
                problems.append(Problem(str(path), 0, "not a folder, cards.csv, rules.toml or "
                                        ".deck file"))
        except PoolError as err:
            problems += err.problems
    return notes, problems


def describe_deck(deck: Deck, pool: Pool) -> str:
    total = sum(n for _, n in deck.counts)
    coach = pool.names[deck.coach] if deck.coach >= 0 else "no coach"
    return f"{total} cards, {NATIONS[deck.nation]}, coach {coach}"
