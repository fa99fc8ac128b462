"""Reading a game folder's files with clear problems: UTF-8 text, TOML with the line of
every key, so that validators name the file and the line, and a whole folder of cards, rule
options and decks with every problem gathered."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.problems import InputError, Problem


def read_text(path: Path | str) -> str:
    """A text file as UTF-8 (a byte-order mark is dropped); InputError when unreadable."""
    path = Path(path)
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError([Problem(str(path), 0, "file not found")]) from None
    except UnicodeDecodeError as err:
        raise InputError([Problem(str(path), 0, f"not UTF-8 text: {err.reason}")]) from None
    except OSError as err:
        raise InputError([Problem(str(path), 0, f"cannot read: {err.strerror}")]) from None


def key_lines(text: str) -> dict[str, int]:
    """The line of each top-level `key = value` of a TOML text (the first, if repeated)."""
    out = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        head = raw.split("#", 1)[0]
        if "=" in head:
            out.setdefault(head.split("=", 1)[0].strip().strip('"'), i)
    return out


def load_toml(path: Path | str) -> tuple[dict, dict[str, int]]:
    """(values, line of each key) of a TOML file; InputError naming the line when it does
    not parse."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"line (\d+)", str(err))
        line = getattr(err, "lineno", 0) or (int(found.group(1)) if found else 0)
        raise InputError([Problem(str(path), line, f"not valid TOML: {err}")]) from None
    return data, key_lines(text)


def attempt(problems: list[Problem], read: Callable, *args):
    """read(*args), or None with its problems added to `problems` (a validator goes on)."""
    try:
        return read(*args)
    except InputError as err:
        problems.extend(err.problems)
        return None


@dataclass(frozen=True)
class Folder:
    """A game folder as read: the card pool, the rule options and the deck lists by name."""

    pool: Any
    rules: Any
    decks: dict[str, Any]


def read_game_folder(path: Path | str, read_pool: Callable, read_rules: Callable,
                     read_deck: Callable) -> Folder:
    """cards.csv, rules.toml (read_rules(None): the defaults, when the folder has none) and
    every *.deck (read_deck(path, pool, rules)) of a folder; the problems of every file are
    gathered into one InputError."""
    path = Path(path)
    problems: list[Problem] = []
    pool = attempt(problems, read_pool, path / "cards.csv")
    rules_file = path / "rules.toml"
    rules = attempt(problems, read_rules, rules_file if rules_file.exists() else None)
    decks = {}
    if pool is not None:
        deck_rules = rules if rules is not None else read_rules(None)
        for deck_path in sorted(path.glob("*.deck")):
            deck = attempt(problems, read_deck, deck_path, pool, deck_rules)
            if deck is not None:
                decks[deck_path.stem] = deck
    if problems:
        raise InputError(problems)
    return Folder(pool, rules, decks)
