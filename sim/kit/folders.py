"""A game folder's game.toml, read with clear errors: which game the folder holds, its
default matchup, its field, its table and the decks of every seat there."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from sim.core.datafiles import load_toml, unknown_policy
from sim.core.problems import InputError, Problem
from sim.kit.folder_refs import FALLBACK, key_line, unknown_names
from sim.kit.game import REGISTRY, known

DECKS = Path(__file__).resolve().parents[2] / "decks"
GAME_FILE = "game.toml"


@dataclass(frozen=True)
class FolderInfo:
    """A game folder's game.toml: which game it holds and its default matchup."""

    path: Path
    game: str
    title: str
    decks: tuple[str, str]
    policy: str
    trained: str | None = None  # the policy `cardlab train` made, that verdicts must hold under
    field: tuple[str, ...] = ()  # the decks `cardlab meta` plays by default ([field] decks)
    # The decks of a table of more than two players, seat by seat ([table] decks; the
    # field's by default): seats a command line leaves open take these.
    table: tuple[str, ...] = ()
    # Each deck or policy a key names that the folder lacks ({key: {name: problem}}): told
    # by `cardlab check`, and by a command when it plays what the key names.
    unknown: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)
    given: tuple[str, ...] = ()  # the keys that name decks or policies in the file

    def problems(self, key: str | None = None, names=None) -> list[Problem]:
        """game.toml's problems with the names `key` gives (or the key it falls back to,
        when the file leaves it out; those of `names` alone, when given; every key's when no
        key is)."""
        if key is None:
            keys = list(self.unknown)
        else:
            while key and key not in self.given:
                key = FALLBACK.get(key, "")
            keys = [key] if key else []
        return [p for k in keys for name, p in self.unknown.get(k, {}).items()
                if names is None or name in names]

    def require(self, key: str, names=None) -> None:
        """InputError at game.toml's line of `key` when a name it gives (of `names`, when
        given) is not in the folder."""
        found = self.problems(key, names)
        if found:
            raise InputError(found)


def read_folder(folder: Path | str) -> FolderInfo:
    """A game folder (or a registered game's name) -> its game.toml, with clear errors at
    the lines of its keys (a name it gives that the folder lacks is kept in `unknown`)."""
    path = Path(folder)
    if not path.is_dir() and known(str(folder)):
        path = default_folder(str(folder))
    file = path / GAME_FILE
    if not path.is_dir():
        raise InputError([Problem(str(path), 0, "no such game folder")])
    if not file.is_file():
        raise InputError([Problem(str(file), 0, "a game folder needs a game.toml naming its "
                                  "game (game = \"NAME\")")])
    data, lines = load_toml(file)
    game = data.get("game")
    if not known(game):
        raise InputError([Problem(str(file), lines.get("game", 0), f"game {game!r} is not "
                                  f"registered; registered: {', '.join(REGISTRY)}")])
    problems = []
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise InputError([Problem(str(file), lines.get("defaults", 0),
                                  "defaults must be a [defaults] table")])
    decks = defaults.get("decks", [])
    if not (isinstance(decks, list) and len(decks) == 2 and all(isinstance(d, str)
                                                                 for d in decks)):
        problems.append(Problem(str(file), key_line(lines, "defaults.decks"),
                                "defaults.decks must list two deck names"))
    named = {"defaults.decks": decks}
    for key in ("policy", "trained"):
        value = defaults.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(Problem(str(file), key_line(lines, f"defaults.{key}"),
                                    f"defaults.{key} must name a policy"))
        elif value is not None:
            named[f"defaults.{key}"] = [value]
    field = section(data, "field", decks)
    table = section(data, "table", field)
    for key, value in (("field", field), ("table", table)):
        if not (isinstance(value, list) and all(isinstance(d, str) for d in value)):
            problems.append(Problem(str(file), key_line(lines, f"{key}.decks"),
                                    f"{key}.decks must list deck names"))
        elif key in data:
            named[f"{key}.decks"] = value
    dice = data.get("pure_dice", {})
    if isinstance(dice, dict) and isinstance(dice.get("policy"), str):
        named["pure_dice.policy"] = [dice["policy"]]
    if problems:
        raise InputError(problems)
    policy = defaults.get("policy", "random")
    trained = defaults.get("trained")
    return FolderInfo(path, game, str(data.get("title", game)), (decks[0], decks[1]),
                      str(policy), str(trained) if trained else None, tuple(field),
                      tuple(table), unknown_names(path, file, named, lines), tuple(named))


def section(data: dict, name: str, default):
    """The decks of game.toml's [name] table (`default` without one); None, which no check
    accepts, when [name] is no table."""
    value = data.get(name, {})
    return value.get("decks", default) if isinstance(value, dict) else None


def folder_policies(folder: Path | str) -> list[str]:
    """The policy names of a folder's policies.toml, in file order; InputError naming the
    file, and the line where it does not parse, when it cannot be read."""
    return list(load_toml(Path(folder) / "policies.toml")[0])


def require_policies(folder: Path | str, names, where: str, known=None) -> None:
    """InputError naming `where` (the option that carried the names) for each name the
    folder's policies.toml lacks (`known`: its policies, where the caller read them), before
    anything is read or played by it."""
    known = folder_policies(folder) if known is None else known
    missing = [n for n in dict.fromkeys(names) if n not in known]
    if missing:
        raise InputError([Problem(where, 0, unknown_policy(n, known)) for n in missing])


def default_folder(name: str | None = None) -> Path:
    """A registered game's sample folder: ./decks/NAME when run from a checkout, else the
    one beside the package."""
    name = name or next(iter(REGISTRY))
    local = Path("decks") / name
    return local if local.is_dir() else DECKS / name


def seat_decks(folder: Path, deck_a, deck_b, table, seats: int) -> list:
    """The decks of every seat: A and B as given, then `table` for seats C, D ..., then
    for the seats it leaves open the folder's table decks at those seats."""
    names = [deck_a, deck_b, *table][:seats]
    if len(names) < seats:
        try:
            info = read_folder(folder)
        except InputError:
            info = None
        if info is not None:
            info.require("table.decks", info.table[len(names): seats])
            names += list(info.table[len(names): seats])
    if len(names) < seats:
        raise InputError([Problem(str(folder / "game.toml"), 0, f"players = {seats} needs "
                                  f"{seats} decks; {len(names)} given or named by [table] "
                                  "decks")])
    return names


def reseated(m, rules, read_deck):
    """The matchup under `rules` at the table size they give (rule option players): the first
    seats kept, new ones taking the folder's table decks (read_deck(path, pool, rules)) and
    B's policy; the matchup has `folder`, `pool`, `decks`, `policy_names` and `policies`."""
    seats = rules["players"]
    if seats == len(m.decks):
        return dataclasses.replace(m, rules=rules)
    folder = Path(m.folder)
    names = seat_decks(folder, m.decks[0].name, m.decks[1].name, [], seats)
    decks = m.decks[:seats] + tuple(read_deck(folder / f"{d}.deck", m.pool, rules)
                                    for d in names[len(m.decks):])
    return dataclasses.replace(m, rules=rules, decks=decks,
                               policy_names=(m.policy_names + m.policy_names[1:2] * seats)[:seats],
                               policies=(m.policies + m.policies[1:2] * seats)[:seats])
