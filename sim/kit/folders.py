"""A game folder's game.toml, read with clear errors: which game the folder holds, its
default matchup, its field, its table and the decks of every seat there."""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.core.problems import InputError, Problem
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


def read_folder(folder: Path | str) -> FolderInfo:
    """A game folder (or a registered game's name) -> its game.toml, with clear errors."""
    path = Path(folder)
    if not path.is_dir() and known(str(folder)):
        path = default_folder(str(folder))
    file = path / GAME_FILE
    if not path.is_dir():
        raise InputError([Problem(str(path), 0, "no such game folder")])
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError([Problem(str(file), 0, "a game folder needs a game.toml naming its "
                                  "game (game = \"NAME\")")]) from None
    except tomllib.TOMLDecodeError as err:
        raise InputError([Problem(str(file), getattr(err, "lineno", 0) or 0,
                                  f"not valid TOML: {err}")]) from None
    game = data.get("game")
    if not known(game):
        raise InputError([Problem(str(file), 1, f"game {game!r} is not registered; "
                                  f"registered: {', '.join(REGISTRY)}")])
    defaults = data.get("defaults", {})
    decks = defaults.get("decks", [])
    if not (isinstance(decks, list) and len(decks) == 2 and all(isinstance(d, str)
                                                                 for d in decks)):
        raise InputError([Problem(str(file), 0, "defaults.decks must list two deck names")])
    policy = defaults.get("policy", "random")
    trained = defaults.get("trained")
    field = data.get("field", {}).get("decks", decks)
    table = data.get("table", {}).get("decks", field)
    for key, value in (("field", field), ("table", table)):
        if not (isinstance(value, list) and all(isinstance(d, str) for d in value)):
            raise InputError([Problem(str(file), 0, f"{key}.decks must list deck names")])
    return FolderInfo(path, game, str(data.get("title", game)), (decks[0], decks[1]),
                      str(policy), str(trained) if trained else None, tuple(field),
                      tuple(table))


def folder_policies(folder: Path | str) -> list[str]:
    """The policy names of a folder's policies.toml, in file order; InputError naming the
    file when it cannot be read."""
    path = Path(folder) / "policies.toml"
    try:
        return list(tomllib.loads(path.read_text(encoding="utf-8")))
    except OSError as err:
        raise InputError([Problem(str(path), 0, f"cannot read: {err}")]) from None
    except tomllib.TOMLDecodeError as err:
        raise InputError([Problem(str(path), getattr(err, "lineno", 0) or 0,
                                  f"not valid TOML: {err}")]) from None


def default_folder(name: str | None = None) -> Path:
    """A registered game's sample folder: ./decks/NAME when run from a checkout, else the
    one beside the package."""
    name = name or next(iter(REGISTRY))
    local = Path("decks") / name
    return local if local.is_dir() else DECKS / name


def table_decks(folder: Path) -> tuple[str, ...]:
    """The folder's decks for a table of more than two, seat by seat: game.toml's [table]
    decks, else its [field] decks (none for a folder without a readable game.toml)."""
    try:
        return read_folder(folder).table
    except InputError:
        return ()


def seat_decks(folder: Path, deck_a, deck_b, table, seats: int) -> list:
    """The decks of every seat: A and B as given, then `table` for seats C, D ..., then
    for the seats it leaves open the folder's table decks at those seats."""
    names = [deck_a, deck_b, *table][:seats]
    if len(names) < seats:
        spare = table_decks(folder)
        names += list(spare[len(names): seats])
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
