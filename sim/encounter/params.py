"""The policy vector of Encounter's policies: one integer per parameter of policies.toml, its
words and numbers, defaults by style, and the file's loader with errors naming file and line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.datafiles import load_policies as read_policies
from sim.core.problems import suggest

STYLES = ("random", "careful", "aggressive")
RANDOM, CAREFUL, AGGRESSIVE = 0, 1, 2

# A choice holds the index of its word; the first word of every choice is "random" (uniform
# on the seat's policy stream), so a choice's code 0 (PICK_RANDOM) reads the same for all of
# them in the kernel. A weight is held in thousandths of a strength point.
(M_STYLE, M_RATIO, M_FIRST, M_CANCEL, M_WOUND_S, M_WOUND_P, M_REVIVE, M_WARD, M_HEAL,
 M_GEAR, M_DEFEAT, M_HEAL_VALUE, M_MIND, M_TOUGH, M_SNEAK, M_BUDGET, M_DRAW, M_HEX,
 M_RESERVE, M_DENY, M_STAYS_ON, M_CYCLE, M_MIGHT, M_REPEAT) = range(24)
N_PARAMS = 24
PICK_RANDOM = 0
# name: (slot, words, the random policy's default, careful's and aggressive's default);
# words None: a number (weights in thousandths, reserve a whole number, the checks bools).
PARAMS = {
    "style": (M_STYLE, STYLES, "random", None),
    "cost_ratio": (M_RATIO, None, 0.75, 0.75),
    "first": (M_FIRST, ("random", "first", "second", "behind"), "random", "first"),
    "cancel": (M_CANCEL, ("random", "strongest"), "random", "strongest"),
    "wound_striker": (M_WOUND_S, ("random", "kill"), "random", "kill"),
    "wound_party": (M_WOUND_P, ("random", "weakest"), "random", "weakest"),
    "revive": (M_REVIVE, ("random", "costliest"), "random", "costliest"),
    "ward": (M_WARD, ("random", "combatant"), "random", "combatant"),
    "heal": (M_HEAL, ("random", "most_wounded", "pc_first"), "random", "most_wounded"),
    "gear": (M_GEAR, ("random", "pc"), "random", "pc"),
    "defeat_check": (M_DEFEAT, None, False, False),
    "heal_value": (M_HEAL_VALUE, None, 0, 0),
    "mind_value": (M_MIND, None, 0.3, 0.3),
    "tough_value": (M_TOUGH, None, 0.3, 0.3),
    "sneak_value": (M_SNEAK, None, 0.5, 0.5),
    "budget_value": (M_BUDGET, None, 0.5, 0.5),
    "draw_value": (M_DRAW, None, 0.3, 0.3),
    "hex_value": (M_HEX, None, 0.6, 0.6),
    "reserve": (M_RESERVE, None, 0, 0),
    "deny_defeat": (M_DENY, None, False, False),
    "stays_on": (M_STAYS_ON, ("random", "pc", "strongest"), "random", "pc"),
    "cycle_quests": (M_CYCLE, None, False, True),
    "might_value": (M_MIGHT, None, 0.5, 0.5),
    "repeat": (M_REPEAT, None, 3, 3),
}
FIRST, SECOND, BEHIND = 1, 2, 3
HEAL_MOST, HEAL_PC = 1, 2
STAYS_PC, STAYS_STRONGEST = 1, 2
# Numbers: name -> (lowest, highest) accepted in policies.toml; weights in strength points.
RANGES = {"cost_ratio": (0.0, 100.0), "heal_value": (0.0, 100.0), "mind_value": (0.0, 100.0),
          "tough_value": (0.0, 100.0), "sneak_value": (0.0, 100.0),
          "budget_value": (0.0, 100.0), "draw_value": (0.0, 100.0),
          "hex_value": (0.0, 100.0), "might_value": (0.0, 100.0), "reserve": (0, 99),
          "repeat": (1, 256)}


def _number(name: str, value) -> int | None:
    """A number parameter's integer in the vector, None when out of its range."""
    if name in ("defeat_check", "deny_defeat", "cycle_quests"):
        return int(value) if isinstance(value, bool) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    lo, hi = RANGES[name]
    if name in ("reserve", "repeat"):
        return int(value) if isinstance(value, int) and lo <= value <= hi else None
    if lo <= value <= hi:
        return round(value * 1000)
    return None


def policy_vector(table: dict) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """One policies.toml table -> (parameter vector, problems as (the setting, in words)).
    Parameters not given take their style's default (random: every choice random)."""
    v = np.zeros(N_PARAMS, dtype=np.int64)
    bad = []
    style = table.get("style", "random")
    if style not in STYLES:
        bad.append(("style", f"style {style!r} is not one of {', '.join(STYLES)}"
                   f"{suggest(str(style), STYLES)}"))
        style = "random"
    for name, (slot, words, rnd, scripted) in PARAMS.items():
        value = table.get(name, style if name == "style" else (
            rnd if style == "random" else scripted))
        if words is None:
            got = _number(name, value)
            if got is None:
                bad.append((name, f"bad setting {name} = {value!r}"))
            else:
                v[slot] = got
        elif value in words:
            v[slot] = words.index(value)
        else:
            bad.append((name, f"{name} {value!r} is not one of {', '.join(words)}"
                       f"{suggest(str(value), words)}"))
    for key in table:
        if key not in PARAMS:
            bad.append((key, f"unknown setting {key!r}{suggest(key, PARAMS)}"))
    return v, bad


def manifest_params(values: list) -> np.ndarray:
    """A policy vector from a manifest; one written before cycle_quests, might_value and
    repeat holds fewer values: its runs never sent a quest to make room, counted an in-play
    Might for nothing at the boost step and planned one use of an ability at a time (0 for
    each; a repeat of 0 plans one), and replay so."""
    return np.array([*values, *[0] * (N_PARAMS - len(values))], dtype=np.int64)


def load_policies(path: Path | str) -> dict[str, np.ndarray]:
    """policies.toml -> {name: parameter vector}."""
    def read(name, table):
        vec, bad = policy_vector(table)
        return vec, [(key, f"policy {name}: {said}") for key, said in bad]

    return read_policies(path, read)
