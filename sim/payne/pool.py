"""Payne's card pool, rule options and deck lists, read into checked integer tables."""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.problems import InputError, Problem, suggest

KINDS = ("character", "booster", "event", "blank")
CHARACTER, BOOSTER, EVENT, BLANK = range(4)
ROLES = ("offensive", "defensive")
OFF, DEF = 0, 1
RARITIES = ("common", "uncommon", "rare", "super_rare")
COMMON, UNCOMMON, RARE, SUPER_RARE = range(4)
ORIGINS = ("sample", "invented")
SIDES = "NESW"  # bit s of an arrow mask is side SIDES[s]

# Keywords: name -> (opcode, whether it takes an argument +-1..3).
KEYWORDS = {"ArrowAdvantage": (1, True), "ArrowDisadvantage": (2, True), "Reveal": (3, False),
            "AutoWin": (4, False), "Ban": (5, True), "MayLie": (6, False)}
NONE, ARROW_ADVANTAGE, ARROW_DISADVANTAGE, REVEAL, AUTO_WIN, BAN, MAY_LIE = range(7)
KEYWORD_NAMES = ("",) + tuple(KEYWORDS)

COLUMNS = ("id", "name", "kind", "role", "arrows", "rarity", "effect1", "arg1", "effect2",
           "arg2", "origin", "text")
C_KIND, C_ROLE, C_ARROWS, C_RARITY, C_EFF1, C_ARG1, C_EFF2, C_ARG2, C_ORIGIN = range(9)
N_CARD_COLUMNS = 9

# Rarity of a character from its lit arrows, by role (the rulebook's rule).
RARITY_BY_LIT = ((COMMON, COMMON, UNCOMMON, RARE, SUPER_RARE),
                 (SUPER_RARE, RARE, UNCOMMON, COMMON, COMMON))
MAX_PER_NAME = 6
MAX_BY_RARITY = (3, 2, 1, 1)  # rare and super rare share the one slot

CHOICES = {"geometry": ("facing", "mirrored"), "defense_timing": ("own_turn", "defender_window"),
           "blind_feedback": ("silent", "told"),
           "auto_win_clash": ("cancel", "attacker", "defender"),
           "both_unfielded": ("both_score", "none_score"), "deck_out": ("continue", "lose")}
RULE_DEFAULTS: dict[str, object] = {
    "points_to_win": 10, "deck_size": 60, "opening_hand": 7, "attack_draw": 2,
    "geometry": "facing", "max_changed": 3, "defense_timing": "own_turn",
    "blind_feedback": "silent", "auto_win_clash": "cancel", "unfielded_points": 2,
    "unfielded_draw": True, "both_unfielded": "both_score", "deck_out": "continue",
    "setup_redraw_cap": 1000, "max_rounds": 100, "battle_mode": False,
}
RANGES = {"points_to_win": (1, 999), "deck_size": (1, 60), "opening_hand": (1, 60),
          "attack_draw": (0, 60), "max_changed": (0, 4), "unfielded_points": (0, 999),
          "setup_redraw_cap": (0, 100000), "max_rounds": (1, 10000)}
RULE_KEYS = tuple(RULE_DEFAULTS)
N_RULES = len(RULE_KEYS)
(R_POINTS, R_DECK_SIZE, R_OPENING, R_ATTACK_DRAW, R_GEOMETRY, R_MAX_CHANGED, R_TIMING,
 R_FEEDBACK, R_CLASH, R_UNF_POINTS, R_UNF_DRAW, R_BOTH_UNF, R_DECK_OUT, R_REDRAW_CAP,
 R_MAX_ROUNDS, R_BATTLE_MODE) = range(N_RULES)


def parse_arrows(text: str) -> int | None:
    """'N.S.' -> the mask with bits N and S; None when malformed."""
    if len(text) != 4 or any(ch not in (side, ".") for ch, side in zip(text, SIDES,
                                                                        strict=True)):
        return None
    return sum(1 << s for s, ch in enumerate(text) if ch != ".")


def arrows_text(mask: int) -> str:
    return "".join(side if mask >> s & 1 else "." for s, side in enumerate(SIDES))


@dataclass(frozen=True)
class Pool:
    """The card pool: the engine's integer table plus the words."""

    path: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    texts: tuple[str, ...]
    table: np.ndarray = field(repr=False)
    sha256: str = ""
    lines: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.ids)

    def lookup(self, word: str) -> int | None:
        """A card by id, or by a name only one row has; None otherwise."""
        key = word.strip().lower()
        if key in self.ids:
            return self.ids.index(key)
        hits = [i for i, n in enumerate(self.names) if n.lower() == key]
        return hits[0] if len(hits) == 1 else None

    def with_table(self, table: np.ndarray, tag: str = "+edited") -> Pool:
        table = np.array(table, dtype=np.int64)
        table.setflags(write=False)
        return Pool(self.path, self.ids, self.names, self.texts, table, self.sha256 + tag,
                    self.lines)


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError([Problem(str(path), 0, "file not found")]) from None
    except UnicodeDecodeError as err:
        raise InputError([Problem(str(path), 0, f"not UTF-8 text (byte {err.start})")]) from None


def card_problems(row: list[int], where: str, line: int, label: str) -> list[Problem]:
    """What is wrong with one card's integer row (shared by cards.csv and --set edits)."""
    out = []
    kind, role, mask = row[C_KIND], row[C_ROLE], row[C_ARROWS]
    if kind == CHARACTER:
        lit = bin(mask).count("1")
        want = RARITY_BY_LIT[role][lit]
        if row[C_RARITY] != want:
            out.append(Problem(where, line, f"{label}: a {ROLES[role]} character with {lit} lit "
                               f"arrows is {RARITIES[want]}, not {RARITIES[row[C_RARITY]]}"))
    else:
        if mask:
            out.append(Problem(where, line, f"{label}: only characters have arrows"))
        if row[C_RARITY] != COMMON:
            out.append(Problem(where, line, f"{label}: boosters, events and blanks are common"))
    if kind in (BOOSTER, EVENT) and row[C_EFF1] == NONE:
        out.append(Problem(where, line, f"{label}: a {KINDS[kind]} needs an effect"))
    if kind == BLANK and (row[C_EFF1] or row[C_EFF2]):
        out.append(Problem(where, line, f"{label}: a blank has no effect"))
    for e, a in ((C_EFF1, C_ARG1), (C_EFF2, C_ARG2)):
        takes = row[e] != NONE and KEYWORDS[KEYWORD_NAMES[row[e]]][1]
        if takes and not (1 <= abs(row[a]) <= 3):
            out.append(Problem(where, line, f"{label}: {KEYWORD_NAMES[row[e]]} takes an "
                               f"argument in -3..-1 or 1..3, got {row[a]}"))
        if not takes and row[a] != 0:
            out.append(Problem(where, line, f"{label}: argument {row[a]} given to "
                               f"{KEYWORD_NAMES[row[e]] or 'no effect'}, which takes none"))
    return out


def load_pool(path: Path | str) -> Pool:
    """Read and check cards.csv; InputError lists every problem with file, line and card."""
    path = Path(path)
    where = str(path)
    text = _read(path)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != list(COLUMNS):
        raise InputError([Problem(where, 1, f"header must be: {','.join(COLUMNS)}")])
    problems: list[Problem] = []
    ids, names, texts, table, lines = [], [], [], [], []
    for line, raw in enumerate(rows[1:], start=2):
        if not raw or all(not c.strip() for c in raw):
            continue
        if len(raw) != len(COLUMNS):
            problems.append(Problem(where, line, f"card {raw[0].strip()!r}: {len(raw)} "
                                    f"columns, expected {len(COLUMNS)}"))
            continue
        cell = dict(zip(COLUMNS, (c.strip() for c in raw), strict=True))
        cid, label = cell["id"], f"card {cell['id']!r}"
        before = len(problems)
        if not re.fullmatch(r"[a-z0-9-]+", cid):
            problems.append(Problem(where, line, f"{label}: id must be lower-case letters, "
                                    "digits and '-'"))
        if cid in ids:
            problems.append(Problem(where, line, f"{label}: duplicate id (first on line "
                                    f"{lines[ids.index(cid)]})"))
        if not cell["name"]:
            problems.append(Problem(where, line, f"{label}: empty name"))
        row = [0] * N_CARD_COLUMNS
        for col, idx, words in (("kind", C_KIND, KINDS), ("rarity", C_RARITY, RARITIES),
                                ("origin", C_ORIGIN, ORIGINS)):
            if cell[col] in words:
                row[idx] = words.index(cell[col])
            else:
                problems.append(Problem(where, line, f"{label}: {col} {cell[col]!r} is not one "
                                        f"of {', '.join(words)}{suggest(cell[col], words)}"))
        if cell["role"] in ROLES:
            row[C_ROLE] = ROLES.index(cell["role"])
        elif not (cell["role"] == "" and cell["kind"] == "blank"):
            problems.append(Problem(where, line, f"{label}: role {cell['role']!r} is not "
                                    f"offensive or defensive{suggest(cell['role'], ROLES)}"))
        if cell["kind"] == "character" or cell["arrows"]:
            mask = parse_arrows(cell["arrows"])
            if mask is None:
                problems.append(Problem(where, line, f"{label}: arrows {cell['arrows']!r} must "
                                        "be four places N E S W, the letter if lit else '.', "
                                        "e.g. 'N.S.'"))
            else:
                row[C_ARROWS] = mask
        for e, a in (("effect1", "arg1"), ("effect2", "arg2")):
            word = cell[e]
            if word and word not in KEYWORDS:
                problems.append(Problem(where, line, f"{label}: unknown keyword {word!r}"
                                        f"{suggest(word, KEYWORDS)}"))
            elif word:
                row[C_EFF1 if e == "effect1" else C_EFF2] = KEYWORDS[word][0]
            try:
                row[C_ARG1 if a == "arg1" else C_ARG2] = int(cell[a] or 0)
            except ValueError:
                problems.append(Problem(where, line, f"{label}: {a} must be an integer, got "
                                        f"{cell[a]!r}"))
        if len(problems) == before:
            problems += card_problems(row, where, line, label)
        ids.append(cid)
        names.append(cell["name"])
        texts.append(cell["text"])
        table.append(row)
        lines.append(line)
    if not ids and not problems:
        problems.append(Problem(where, 1, "no cards"))
    if problems:
        raise InputError(problems)
    arr = np.array(table, dtype=np.int64)
    arr.setflags(write=False)
    return Pool(where, tuple(ids), tuple(names), tuple(texts), arr,
                hashlib.sha256(text.encode("utf-8")).hexdigest(), tuple(lines))


@dataclass(frozen=True)
class Rules:
    """Rule options by name and as the engine's int64 vector."""

    values: dict
    vector: np.ndarray = field(repr=False)

    def replace(self, changes: dict, where: str = "<rules>") -> Rules:
        problems = [Problem(where, 0, f"unknown rule option {k!r}{suggest(k, RULE_DEFAULTS)}")
                    for k in changes if k not in RULE_DEFAULTS]
        values = {**self.values, **{k: v for k, v in changes.items() if k in RULE_DEFAULTS}}
        problems += _rule_problems(values, where, {})
        if problems:
            raise InputError(problems)
        return Rules(values, _vector(values))


def default_rules() -> Rules:
    values = copy.deepcopy(RULE_DEFAULTS)
    return Rules(values, _vector(values))


def load_rules(path: Path | str) -> Rules:
    """Read and check rules.toml; a missing key takes its default."""
    path = Path(path)
    text = _read(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError([Problem(str(path), getattr(err, "lineno", 0) or 0,
                                  f"not valid TOML: {err}")]) from None
    lines = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        head = raw.split("#", 1)[0]
        if "=" in head:
            lines.setdefault(head.split("=", 1)[0].strip().strip('"'), i)
    problems = [Problem(str(path), lines.get(k, 0), f"unknown rule option {k!r}"
                        f"{suggest(k, RULE_DEFAULTS)}") for k in data if k not in RULE_DEFAULTS]
    values = {**copy.deepcopy(RULE_DEFAULTS), **{k: v for k, v in data.items()
                                                  if k in RULE_DEFAULTS}}
    problems += _rule_problems(values, str(path), lines)
    if problems:
        raise InputError(problems)
    return Rules(values, _vector(values))


def _rule_problems(values: dict, where: str, lines: dict) -> list[Problem]:
    out = []
    for key, default in RULE_DEFAULTS.items():
        value, line = values[key], lines.get(key, 0)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                out.append(Problem(where, line, f"rule option {key!r}: must be true or false, "
                                   f"got {value!r}"))
        elif isinstance(default, str):
            if value not in CHOICES[key]:
                out.append(Problem(where, line, f"rule option {key!r}: must be one of "
                                   f"{', '.join(CHOICES[key])}; got {value!r}"))
        elif not isinstance(value, int) or isinstance(value, bool):
            out.append(Problem(where, line, f"rule option {key!r}: must be an integer, got "
                               f"{value!r}"))
        elif not RANGES[key][0] <= value <= RANGES[key][1]:
            out.append(Problem(where, line, f"rule option {key!r}: {value} is out of range "
                               f"{RANGES[key][0]}..{RANGES[key][1]}"))
    return out


def _vector(values: dict) -> np.ndarray:
    v = np.array([CHOICES[k].index(values[k]) if k in CHOICES else int(values[k])
                  for k in RULE_KEYS], dtype=np.int64)
    v.setflags(write=False)
    return v


@dataclass(frozen=True)
class Deck:
    """A legal deck: card indices with counts, in list order."""

    path: str
    name: str
    counts: tuple[tuple[int, int], ...]

    def cards(self) -> np.ndarray:
        return np.array([c for c, n in self.counts for _ in range(n)], dtype=np.int64)


def parse_deck(path: Path | str, pool: Pool) -> tuple[Deck, list[Problem], dict[int, int]]:
    """A deck list's cards, with the problems of reading it (not yet its legality)."""
    path = Path(path)
    where = str(path)
    problems: list[Problem] = []
    counts: dict[int, int] = {}
    first: dict[int, int] = {}
    for line, raw in enumerate(_read(path).splitlines(), start=1):
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        head, _, word = entry.partition(" ")
        if not head.isdecimal() or not word.strip():
            problems.append(Problem(where, line, f"expected 'COUNT card', got {entry!r}"))
            continue
        card = pool.lookup(word)
        if card is None:
            shared = [pool.ids[i] for i, n in enumerate(pool.names)
                      if n.lower() == word.strip().lower()]
            hint = (f"; several cards have that name, use an id: {', '.join(shared)}" if shared
                    else suggest(word.strip(), pool.names + pool.ids))
            problems.append(Problem(where, line, f"unknown card {word.strip()!r}{hint}"))
            continue
        if int(head) < 1:
            problems.append(Problem(where, line, f"card {pool.ids[card]!r}: count must be at "
                                    "least 1"))
            continue
        counts[card] = counts.get(card, 0) + int(head)
        first.setdefault(card, line)
    ordered = tuple(sorted(counts.items(), key=lambda kv: first[kv[0]]))
    return Deck(where, path.stem, ordered), problems, first


def deck_problems(deck: Deck, pool: Pool, rules: Rules, first: dict[int, int]) -> list[Problem]:
    """Every deck rule: size, copies per name by rarity, a character of each role."""
    out = []
    table, where = pool.table, deck.path
    size = rules.values["deck_size"]
    total = sum(n for _, n in deck.counts)
    last = max(first.values(), default=0)
    if total != size:
        out.append(Problem(where, last, f"deck lists {total} cards, must be exactly {size} "
                           "(rule option deck_size)"))
    by_name: dict[str, list[tuple[int, int]]] = {}
    for card, n in deck.counts:
        if table[card, C_KIND] != BLANK:
            by_name.setdefault(pool.names[card].lower(), []).append((card, n))
    for entries in by_name.values():
        card0 = entries[-1][0]
        label = f"card {pool.ids[card0]!r} ({pool.names[card0]})"
        line = max(first[c] for c, _ in entries)
        if sum(n for _, n in entries) > MAX_PER_NAME:
            out.append(Problem(where, line, f"{label}: {sum(n for _, n in entries)} copies of "
                               f"the name, at most {MAX_PER_NAME}"))
        for group, cap in ((COMMON,), 3), ((UNCOMMON,), 2), ((RARE, SUPER_RARE), 1):
            k = sum(n for c, n in entries if table[c, C_RARITY] in group)
            if k > cap:
                kinds = "/".join(RARITIES[g] for g in group)
                out.append(Problem(where, line, f"{label}: {k} {kinds} copies of the name, "
                                   f"at most {cap}"))
    for role in (OFF, DEF):
        if not any(table[c, C_KIND] == CHARACTER and table[c, C_ROLE] == role
                   for c, _ in deck.counts):
            out.append(Problem(where, last, f"the deck needs a {ROLES[role]} character"))
    return out


def load_deck(path: Path | str, pool: Pool, rules: Rules) -> Deck:
    deck, problems, first = parse_deck(path, pool)
    problems += deck_problems(deck, pool, rules, first) if not problems else []
    if problems:
        raise InputError(problems)
    return deck


@dataclass(frozen=True)
class Folder:
    pool: Pool
    rules: Rules
    decks: dict[str, Deck]


def load_folder(path: Path | str) -> Folder:
    """A whole folder (cards.csv, rules.toml, *.deck), every problem gathered."""
    path = Path(path)
    problems: list[Problem] = []
    pool = rules = None
    try:
        pool = load_pool(path / "cards.csv")
    except InputError as err:
        problems += err.problems
    try:
        rules = load_rules(path / "rules.toml") if (path / "rules.toml").exists() \
            else default_rules()
    except InputError as err:
        problems += err.problems
    decks = {}
    if pool is not None:
        for deck_path in sorted(path.glob("*.deck")):
            try:
                decks[deck_path.stem] = load_deck(deck_path, pool, rules or default_rules())
            except InputError as err:
                problems += err.problems
    if problems:
        raise InputError(problems)
    return Folder(pool, rules, decks)


def check_paths(paths) -> tuple[list[str], list[Problem]]:
    """Validate folders, cards.csv, rules.toml or .deck files: (good news, problems)."""
    notes: list[str] = []
    problems: list[Problem] = []
    for path in map(Path, paths):
        try:
            if path.is_dir():
                folder = load_folder(path)
                notes.append(f"{path}: {len(folder.pool)} cards, rule options valid")
                notes += [f"{d.path}: legal ({sum(n for _, n in d.counts)} cards)"
                          for d in folder.decks.values()]
            elif path.suffix == ".deck":
                folder_rules = path.parent / "rules.toml"
                rules = load_rules(folder_rules) if folder_rules.exists() else default_rules()
                deck = load_deck(path, load_pool(path.parent / "cards.csv"), rules)
                notes.append(f"{path}: legal ({sum(n for _, n in deck.counts)} cards)")
            elif path.suffix == ".toml":
                load_rules(path)
                notes.append(f"{path}: rule options valid")
            elif path.suffix == ".csv":
                notes.append(f"{path}: {len(load_pool(path))} cards valid")
            else:
                problems.append(Problem(str(path), 0, "no such folder, cards.csv, rules.toml "
                                        "or .deck file"))
        except InputError as err:
            problems += err.problems
    return notes, problems
