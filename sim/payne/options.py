"""Payne's rule options: rules.toml read and checked into named values and the int64 vector
the engine reads; a missing key takes its default."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.datafiles import load_toml
from sim.core.problems import InputError, Problem, suggest

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


@dataclass(frozen=True)
class Rules:
    """Rule options by name and as the engine's int64 vector."""

    values: dict
    vector: np.ndarray = field(repr=False)

    def replace(self, changes: dict, where: str = "<rules>") -> Rules:
        problems = [Problem(where, 0, f"unknown rule option {k!r}{suggest(k, RULE_DEFAULTS)}")
                    for k in changes if k not in RULE_DEFAULTS]
        values = {**self.values, **{k: v for k, v in changes.items() if k in RULE_DEFAULTS}}
        problems += rule_problems(values, where, {})
        if problems:
            raise InputError(problems)
        return Rules(values, _vector(values))


def default_rules() -> Rules:
    values = copy.deepcopy(RULE_DEFAULTS)
    return Rules(values, _vector(values))


def load_rules(path: Path | str) -> Rules:
    """Read and check rules.toml; a missing key takes its default."""
    data, lines = load_toml(path)
    problems = [Problem(str(path), lines.get(k, 0), f"unknown rule option {k!r}"
                        f"{suggest(k, RULE_DEFAULTS)}") for k in data if k not in RULE_DEFAULTS]
    values = {**copy.deepcopy(RULE_DEFAULTS), **{k: v for k, v in data.items()
                                                  if k in RULE_DEFAULTS}}
    problems += rule_problems(values, str(path), lines)
    if problems:
        raise InputError(problems)
    return Rules(values, _vector(values))


def rule_problems(values: dict, where: str, lines: dict) -> list[Problem]:
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
