"""Rule options: rules.toml read and validated into named values and the int64 vector the
engine reads; every option has a default, so a missing file means the rulebook's defaults."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.datafiles import load_toml
from sim.core.problems import InputError, Problem, suggest
from sim.paintline.pool import MAX_VALUE

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
    "boosts_per_shot": 60,
    "boost_default_shot": False,
    "rally_mode": False,
    "arsenal_a": [],
    "arsenal_b": [],
}
ARSENALS = ("arsenal_a", "arsenal_b")
(
    R_CRIT_TARGET, R_SERVE_MISS, R_DECK_OUT, R_POINTS_TO_WIN, R_WIN_BY, R_HAND_LIMIT,
    R_OPENING_HAND, R_MULLIGANS, R_UNTAP_STEPS, R_RECYCLE_RATIO, R_MATCH_GAMES, R_TIE_RULE,
    R_LADDER_LEN, R_LADDER,
) = range(14)  # fmt: skip
MAX_ARSENAL = 4  # rally mode: shot cards each player starts every rally with
R_RALLY_MODE = R_LADDER + MAX_LADDER
R_ARSENAL = R_RALLY_MODE + 1  # seat p's cards at R_ARSENAL + p * MAX_ARSENAL, -1 padded
R_BOOSTS = R_ARSENAL + 2 * MAX_ARSENAL  # single-use enhancements one shot may take
R_BOOST_DEFAULT = R_BOOSTS + 1  # 1 when single-use enhancements may boost the Default Shot
N_RULES = R_BOOST_DEFAULT + 1


@dataclass(frozen=True)
class Rules:
    """Rule options by name and as the engine's int64 vector."""

    values: dict
    vector: np.ndarray = field(repr=False)

    def replace(self, **changes) -> Rules:
        """A copy with some options changed, validated like a rules file."""
        values = {**self.values, **changes}
        problems = [
            Problem("<override>", 0, f"unknown rule option {k!r}{suggest(k, RULE_DEFAULTS)}")
            for k in changes
            if k not in RULE_DEFAULTS
        ]
        problems += rule_problems(values, "<override>", {k: 0 for k in values})
        if problems:
            raise InputError(problems)
        return Rules(values, _rule_vector(values))


def load_rules(path: Path | str | None = None) -> Rules:
    """Read and validate rules.toml; missing keys take their defaults; None gives defaults."""
    if path is None:
        values = copy.deepcopy(RULE_DEFAULTS)
        return Rules(values, _rule_vector(values))
    path = Path(path)
    problems: list[Problem] = []
    data, lines = load_toml(path)
    values = copy.deepcopy(RULE_DEFAULTS)
    for key, value in data.items():
        if key not in RULE_DEFAULTS:
            problems.append(Problem(str(path), lines.get(key, 0), f"unknown rule option "
                                    f"{key!r}{suggest(key, RULE_DEFAULTS)}"))
            continue
        values[key] = value
    problems += rule_problems(values, str(path), lines)
    if problems:
        raise InputError(problems)
    return Rules(values, _rule_vector(values))


def rule_problems(values: dict, where: str, lines: dict[str, int]) -> list[Problem]:
    problems = []

    def bad(key: str, message: str) -> None:
        problems.append(Problem(where, lines.get(key, 0), f"rule option {key!r}: {message}"))

    for key, default in RULE_DEFAULTS.items():
        value = values[key]
        if key in ARSENALS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                bad(key, f"must be a list of card names, got {value!r}")
            elif len(value) > MAX_ARSENAL:
                bad(key, f"at most {MAX_ARSENAL} cards")
        elif isinstance(default, list):
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
            elif value < (0 if key in ("mulligans", "untap_steps", "boosts_per_shot") else 1):
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
    v[R_BOOSTS] = values["boosts_per_shot"]
    v[R_BOOST_DEFAULT] = int(values["boost_default_shot"])
    v.setflags(write=False)
    return v
