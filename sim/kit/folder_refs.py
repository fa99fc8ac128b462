"""What a folder's game.toml names (decks and policies), checked against the folder's
.deck files and policies.toml, each missing name told at its key's line in game.toml."""

from __future__ import annotations

from pathlib import Path

from sim.core.datafiles import load_toml, unknown_policy
from sim.core.problems import InputError, Problem, suggest

# The keys of game.toml that name decks or policies, and the key whose value one takes
# when left out ([field] decks default to the default pair, [table] decks to the field).
DECK_KEYS = ("defaults.decks", "field.decks", "table.decks")
POLICY_KEYS = ("defaults.policy", "defaults.trained", "pure_dice.policy")
FALLBACK = {"field.decks": "defaults.decks", "table.decks": "field.decks"}


def key_line(lines: dict[str, int], key: str) -> int:
    """The line of a game.toml key: its own, else its table's (an inline table), else the
    line of the key it falls back to, else 0."""
    while key:
        line = lines.get(key) or lines.get(key.split(".")[0])
        if line:
            return line
        key = FALLBACK.get(key, "")
    return 0


def deck_on_disk(folder: Path, name: str) -> bool:
    """Whether a deck named in game.toml (a name in the folder, or a .deck file) is there."""
    path = Path(name)
    if path.suffix != ".deck":
        path = folder / f"{name}.deck"
    elif not path.is_absolute():
        path = folder / path
    return path.is_file()


def policy_names(folder: Path) -> list[str] | None:
    """The policies of the folder's policies.toml, or None when it cannot be read (its own
    problems are told where it is read)."""
    try:
        return list(load_toml(folder / "policies.toml")[0])
    except InputError:
        return None


def unknown_names(folder: Path, file: Path, named: dict[str, list[str]],
                  lines: dict[str, int]) -> dict[str, dict[str, Problem]]:
    """{key: {name: problem}} for each deck or policy a key of game.toml names (`named`:
    the names of each key, as read) that the folder lacks, told at the key's line."""
    decks = sorted(p.stem for p in folder.glob("*.deck"))
    policies = policy_names(folder)
    out: dict[str, dict[str, Problem]] = {}
    for key, names in named.items():
        where = key_line(lines, key)
        for name in dict.fromkeys(names):
            if key in DECK_KEYS and not deck_on_disk(folder, name):
                said = (f"{key} names deck {name!r}: no such deck{suggest(name, decks)}; "
                        f"known: {', '.join(decks)}")
            elif key in POLICY_KEYS and policies is not None and name not in policies:
                said = f"{key} names an {unknown_policy(name, policies)}"
            else:
                continue
            out.setdefault(key, {})[name] = Problem(str(file), where, said)
    return out
