"""Rule options: rules.toml read and validated into named values and the int64 vector the
engine reads; every option has a default, so a missing file means the rulebook's defaults."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.kit.options import Option, Options, Rules
from sim.paintline.pool import MAX_VALUE

SERVE_MISS = ("receiver_scores", "replay")
DECK_OUT = ("forfeit_on_empty_draw", "forfeit_when_empty")
TIE_RULE = ("hitter", "first")
MATCH_LENGTHS = (1, 3, 5, 7)
MAX_LADDER = 16
MAX_ARSENAL = 4  # rally mode: shot cards each player starts every rally with


def _ladder(value: list) -> str:
    """The escalation's check: strictly increasing whole numbers, at most MAX_LADDER."""
    if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return f"must be a list of integers, got {value!r}"
    if any(b <= a for a, b in zip(value, value[1:], strict=False)):
        return f"must be strictly increasing, got {value}"
    if len(value) > MAX_LADDER:
        return f"at most {MAX_LADDER} steps"
    return "" if value[0] >= 1 and value[-1] <= MAX_VALUE else "targets start at 1 or more"


def _arsenal(value: list) -> str:
    if not all(isinstance(v, str) for v in value):
        return f"must be a list of card names, got {value!r}"
    return f"at most {MAX_ARSENAL} cards" if len(value) > MAX_ARSENAL else ""


def _whole(name: str, default: int, doc: str, lo: int = 1) -> Option:
    return Option(name, default, doc, lo=lo, hi=MAX_VALUE)


# The engine reads them as one int64 vector (_rule_vector).
OPTIONS_DECLARED = (
    Option("escalation", [6, 8, 10, 12, 14, 16, 18, 20], "the rally's targets, step by step",
           check=_ladder),
    _whole("crit_target", 20, "the next shot's target after a critical"),
    Option("serve_miss", "receiver_scores", "a missed serve: the receiver scores, or it is "
           "served again", words=SERVE_MISS),
    Option("deck_out", "forfeit_on_empty_draw", "a player forfeits on a draw from an empty "
           "bag, or as soon as the bag is empty", words=DECK_OUT),
    _whole("points_to_win", 11, "points that win a game"),
    _whole("win_by", 1, "the lead a game is won by"),
    _whole("hand_limit", 7, "cards kept at the end of one's own turn"),
    _whole("opening_hand", 7, "cards drawn at set-up"),
    _whole("mulligans", 1, "mulligans a player may take", lo=0),
    _whole("untap_steps", 1, "steps of untap each turn", lo=0),
    _whole("recycle_ratio", 2, "cards discarded for each card drawn by recycling"),
    Option("match_games", 1, "games of a match, first to a majority", allowed=MATCH_LENGTHS),
    Option("tie_rule", "hitter", "a Mute against a card of its own cost: the card hit keeps "
           "its abilities, or the Mute wins", words=TIE_RULE),
    _whole("boosts_per_shot", 60, "single-use enhancements one shot may take", lo=0),
    Option("boost_default_shot", False, "whether single-use enhancements may boost the "
           "Default Shot"),
    Option("rally_mode", False, "rallies only, from fixed arsenals (what shots are worth)"),
    Option("arsenal_a", [], "rally mode: seat A's shot cards, names or ids", check=_arsenal),
    Option("arsenal_b", [], "rally mode: seat B's shot cards, names or ids", check=_arsenal),
)
RULE_DEFAULTS = {o.name: o.default for o in OPTIONS_DECLARED}
(
    R_CRIT_TARGET, R_SERVE_MISS, R_DECK_OUT, R_POINTS_TO_WIN, R_WIN_BY, R_HAND_LIMIT,
    R_OPENING_HAND, R_MULLIGANS, R_UNTAP_STEPS, R_RECYCLE_RATIO, R_MATCH_GAMES, R_TIE_RULE,
    R_LADDER_LEN, R_LADDER,
) = range(14)  # fmt: skip
R_RALLY_MODE = R_LADDER + MAX_LADDER
R_ARSENAL = R_RALLY_MODE + 1  # seat p's cards at R_ARSENAL + p * MAX_ARSENAL, -1 padded
R_BOOSTS = R_ARSENAL + 2 * MAX_ARSENAL  # single-use enhancements one shot may take
R_BOOST_DEFAULT = R_BOOSTS + 1  # 1 when single-use enhancements may boost the Default Shot
N_RULES = R_BOOST_DEFAULT + 1


def load_rules(path: Path | str | None = None) -> Rules:
    """Read and validate rules.toml; missing keys take their defaults; None gives defaults."""
    return OPTIONS.load(path)


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
    return v


OPTIONS = Options(OPTIONS_DECLARED, _rule_vector)
