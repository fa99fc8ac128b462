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

from sim.core.problems import InputError, Problem, suggest


def read_text(path: Path | str) -> str:
    """A text file as UTF-8 (a byte-order mark is dropped); InputError when unreadable."""
    path = Path(path)
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError([Problem(str(path), 0, "file not found")]) from None
    except UnicodeDecodeError as err:
        raise InputError([Problem(str(path), 0, f"not UTF-8 text (byte {err.start})")]) from None
    except OSError as err:
        raise InputError([Problem(str(path), 0, f"cannot read: {err.strerror}")]) from None


def key_lines(text: str) -> dict[str, int]:
    """The line of each key of a TOML text (the first, if repeated): a top-level key by its
    name, a [table] by its name and a key inside one as "table.key"."""
    out: dict[str, int] = {}
    section = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        head = raw.split("#", 1)[0].strip()
        if head.startswith("[") and head.endswith("]"):
            section = head.strip("[] ")
            out.setdefault(section, i)
        elif "=" in head:
            key = head.split("=", 1)[0].strip().strip('"')
            out.setdefault(f"{section}.{key}" if section else key, i)
    return out


def load_toml(path: Path | str) -> tuple[dict, dict[str, int]]:
    """(values, line of each key: `key_lines`) of a TOML file; InputError naming the line
    when it does not parse."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"line (\d+)", str(err))
        line = getattr(err, "lineno", 0) or (int(found.group(1)) if found else 0)
        raise InputError([Problem(str(path), line, f"not valid TOML: {err}")]) from None
    return data, key_lines(text)


def load_tables(path: Path | str, what: str = "policy"
                ) -> tuple[dict[str, dict], dict[str, int], list[Problem]]:
    """A TOML file of [tables] (policies.toml): (each table by name, the line of each key
    (`key_lines`), a problem for each top-level value that is no table); InputError when
    the file cannot be read or does not parse."""
    data, lines = load_toml(path)
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    problems = [Problem(str(path), lines.get(k, 0), f"{what} {k!r}: expected a [table] "
                        f"[{k}]") for k in data if k not in tables]
    return tables, lines, problems


def load_policies(path: Path | str, read: Callable[[str, dict], tuple[Any, list]]
                  ) -> dict[str, Any]:
    """policies.toml -> {policy name: what `read(name, table)` makes of its table}; `read`
    also gives its problems as (setting, sentence), each told at its setting's line (the
    table's where the setting is None or not in the file); InputError with every problem
    of the file."""
    where = str(path)
    data, lines, problems = load_tables(path)
    out = {}
    for name, table in data.items():
        line = lines.get(name, 0)
        out[name], bad = read(name, table)
        problems += [Problem(where, lines.get(f"{name}.{key}", line), said)
                     for key, said in bad]
    if problems:
        raise InputError(problems)
    return out


def attempt(problems: list[Problem], read: Callable, *args):
    """read(*args), or None with its problems added to `problems` (a validator goes on)."""
    try:
        return read(*args)
    except InputError as err:
        problems.extend(err.problems)
        return None



def unknown_policy(name: str, known) -> str:
    """What is said of a policy name that policies.toml lacks: the closest names and every
    policy it has."""
    return (f"unknown policy {name!r}{suggest(name, known)} (policies.toml has: "
            f"{', '.join(known)})")

@dataclass(frozen=True)
class Folder:
    """A game folder as read: the card pool, the rule options and the deck lists by name."""

    pool: Any
    rules: Any
    decks: dict[str, Any]


def read_cards_and_rules(path: Path, read_pool: Callable, read_rules: Callable,
                         problems: list[Problem]) -> tuple[Any, Any]:
    """(pool, rules) of a folder's cards.csv and rules.toml (read_rules(None): the defaults,
    when the folder has none), None for a file whose problems went to `problems`."""
    pool = attempt(problems, read_pool, path / "cards.csv")
    rules_file = path / "rules.toml"
    return pool, attempt(problems, read_rules, rules_file if rules_file.exists() else None)


def read_game_folder(path: Path | str, read_pool: Callable, read_rules: Callable,
                     read_deck: Callable) -> Folder:
    """cards.csv, rules.toml (read_rules(None): the defaults, when the folder has none) and
    every *.deck (read_deck(path, pool, rules)) of a folder; the problems of every file are
    gathered into one InputError."""
    path = Path(path)
    problems: list[Problem] = []
    pool, rules = read_cards_and_rules(path, read_pool, read_rules, problems)
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


@dataclass(frozen=True)
class FolderFiles:
    """How a game reads the files of its folder: read_pool(path), read_rules(path or None
    for the defaults), read_deck(path, pool, rules), read_policies(path) and
    say_deck(deck, pool), a few words on a legal deck. From them, the whole folder read at
    once and the validator behind `cardlab check`."""

    read_pool: Callable
    read_rules: Callable
    read_deck: Callable
    read_policies: Callable
    say_deck: Callable[[Any, Any], str]

    def read(self, path: Path | str) -> Folder:
        """cards.csv, rules.toml and every *.deck of a folder, every problem gathered."""
        return read_game_folder(path, self.read_pool, self.read_rules, self.read_deck)

    def base(self, path: Path | str) -> Folder:
        """cards.csv and rules.toml of a folder, both files' problems gathered, and no deck:
        a command reads (`deck`) and judges only the decks it plays, so that a draft deck
        elsewhere in the folder blocks nothing but `cardlab check`."""
        problems: list[Problem] = []
        pool, rules = read_cards_and_rules(Path(path), self.read_pool, self.read_rules,
                                           problems)
        if problems:
            raise InputError(problems)
        return Folder(pool, rules, {})

    def deck(self, folder: Path | str, word, pool, rules):
        """A deck by its .deck file or by its name in the folder; InputError naming the
        folder's decks when there is none."""
        path = Path(str(word))
        if path.suffix != ".deck":
            path = Path(folder) / f"{word}.deck"
        if not path.is_file():
            known = sorted(f.stem for f in Path(folder).glob("*.deck"))
            raise InputError([Problem(str(word), 0, f"no such deck{suggest(str(word), known)}; "
                                      f"known: {', '.join(known)}")])
        return self.read_deck(path, pool, rules)

    def policies(self, folder: Path | str, names) -> tuple:
        """The named policies' parameter vectors from the folder's policies.toml; InputError
        naming the file and its policies for a name it lacks (a command checks the names
        its options carry first, sim.kit.folders.require_policies, naming the option)."""
        path = Path(folder) / "policies.toml"
        table = self.read_policies(path)
        for name in dict.fromkeys(names):
            if name not in table:
                raise InputError([Problem(str(path), 0, unknown_policy(name, table))])
        return tuple(table[name] for name in names)

    def check_paths(self, paths) -> tuple[list[str], list[Problem]]:
        """Validate folders, cards.csv, rules.toml, policies.toml or .deck files: (good
        news, problems), every problem of every file gathered."""
        notes: list[str] = []
        problems: list[Problem] = []
        for path in map(Path, paths):
            try:
                notes += self.check_one(path)
            except InputError as err:
                problems += err.problems
        return notes, problems

    def check_one(self, path: Path) -> list[str]:
        """The good news of one path; InputError with its problems."""
        if path.is_dir():
            problems: list[Problem] = []
            folder = attempt(problems, self.read, path)
            policies = attempt(problems, self.read_policies, path / "policies.toml")
            if problems:
                raise InputError(problems)
            return [f"{path}: {len(folder.pool)} cards, rule options valid, "
                    f"{len(policies)} policies"] + [
                f"{deck.path}: legal ({self.say_deck(deck, folder.pool)})"
                for deck in folder.decks.values()]
        if path.suffix == ".deck":
            rules_file = path.parent / "rules.toml"
            rules = self.read_rules(rules_file if rules_file.exists() else None)
            pool = self.read_pool(path.parent / "cards.csv")
            deck = self.read_deck(path, pool, rules)
            return [f"{path}: legal ({self.say_deck(deck, pool)})"]
        if path.name == "policies.toml":
            return [f"{path}: {len(self.read_policies(path))} policies"]
        if path.suffix == ".toml":
            self.read_rules(path)
            return [f"{path}: rule options valid"]
        if path.suffix == ".csv":
            return [f"{path}: {len(self.read_pool(path))} cards valid"]
        if not path.exists():
            raise InputError([Problem(str(path), 0, "no such file or folder")])
        raise InputError([Problem(str(path), 0, "not a folder, cards.csv, rules.toml, "
                                  "policies.toml or .deck file")])
