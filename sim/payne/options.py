"""Payne's rule options: rules.toml read and checked into named values and the int64 vector
the engine reads; a missing key takes its default."""

from __future__ import annotations

from pathlib import Path

from sim.kit.options import Option, Options, Rules

OPTIONS_DECLARED = (
    Option("points_to_win", 10, "points that win the match", lo=1, hi=999),
    Option("deck_size", 60, "cards a deck lists, exactly", lo=1, hi=60),
    Option("opening_hand", 7, "cards each player draws at set-up", lo=1, hi=60),
    Option("attack_draw", 2, "cards the attacker draws after a battle", lo=0, hi=60),
    Option("geometry", "facing", "where the attacker's arrow meets the defender's side: the "
           "same side (facing) or the opposite one (mirrored)", words=("facing", "mirrored")),
    Option("max_changed", 3, "arrows an arrow change may leave unlike the print", lo=0, hi=4),
    Option("defense_timing", "own_turn", "when defensive cards are played: by the attacker "
           "in his order, or in the defender's own window", words=("own_turn",
                                                                    "defender_window")),
    Option("blind_feedback", "silent", "whether a blind change tells its chooser the sides "
           "it flipped", words=("silent", "told")),
    Option("auto_win_clash", "cancel", "two AutoWins in one battle: both cancelled, or the "
           "attacker's or the defender's stands", words=("cancel", "attacker", "defender")),
    Option("unfielded_points", 2, "points the other player scores when a player cannot "
           "field", lo=0, hi=999),
    Option("unfielded_draw", True, "whether both draw `attack_draw` after a round nobody "
           "fielded"),
    Option("both_unfielded", "both_score", "neither can field: each scores, or nobody",
           words=("both_score", "none_score")),
    Option("deck_out", "continue", "a draw from an empty deck: play on, or lose",
           words=("continue", "lose")),
    Option("setup_redraw_cap", 1000, "redraws at set-up before the player loses", lo=0,
           hi=100000),
    Option("max_rounds", 100, "rounds before the match is a draw", lo=1, hi=10000),
    Option("battle_mode", False, "one battle a match from fixed characters (the exact "
           "check's setting)"),
)
RULE_KEYS = tuple(o.name for o in OPTIONS_DECLARED)
CHOICES = {o.name: o.words for o in OPTIONS_DECLARED if o.words}
N_RULES = len(RULE_KEYS)
(R_POINTS, R_DECK_SIZE, R_OPENING, R_ATTACK_DRAW, R_GEOMETRY, R_MAX_CHANGED, R_TIMING,
 R_FEEDBACK, R_CLASH, R_UNF_POINTS, R_UNF_DRAW, R_BOTH_UNF, R_DECK_OUT, R_REDRAW_CAP,
 R_MAX_ROUNDS, R_BATTLE_MODE) = range(N_RULES)


OPTIONS = Options(OPTIONS_DECLARED)


def load_rules(path: Path | str | None) -> Rules:
    """Read and check rules.toml; a missing key (or no file: None) takes its default."""
    return OPTIONS.load(path)
