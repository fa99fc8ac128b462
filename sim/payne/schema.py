"""What a Payne batch records, with meanings: the schema the contract's analysis reads."""

from __future__ import annotations

from sim.kit.game import Histogram, Rate, Schema, end_meaning
from sim.payne.state import END_REASONS

MATCH_COLUMNS = {
    "winner": "0: deck A won, 1: deck B won, -1: a draw",
    "points_a": "deck A's points", "points_b": "deck B's points",
    "rounds": "rounds begun (fielded or not)",
    "end": end_meaning(END_REASONS),
    "first_attacker": "seat the coin made attacker in round 1 (-1: no round)",
    "unfielded_a": "rounds deck A could not field", "unfielded_b": "rounds deck B could not field",
    "redraws_a": "opening hands deck A redrew", "redraws_b": "opening hands deck B redrew",
    "attacks_a": "battles deck A attacked", "attacks_b": "battles deck B attacked",
    "attack_wins_a": "of those, won", "attack_wins_b": "of those, won",
    "autowins": "battles decided by AutoWin",
    "rounds_0": "fully played rounds where deck A scored 0",
    "rounds_1": "fully played rounds where deck A scored 1",
    "rounds_2": "fully played rounds where deck A scored 2",
    "r1_attack_a": "deck A's attack in round 1: 1 succeeded, 0 failed, -1 none",
    "r1_attack_b": "deck B's attack in round 1: 1 succeeded, 0 failed, -1 none",
}
COL = {name: i for i, name in enumerate(MATCH_COLUMNS)}
(M_WINNER, M_POINTS_A, M_POINTS_B, M_ROUNDS, M_END, M_FIRST, M_UNF_A, M_UNF_B, M_REDRAWS_A,
 M_REDRAWS_B, M_ATTACKS_A, M_ATTACKS_B, M_WINS_A, M_WINS_B, M_AUTOWINS, M_ROUNDS_0, M_ROUNDS_1,
 M_ROUNDS_2, M_R1_A, M_R1_B) = range(len(MATCH_COLUMNS))

CARD_STATS = {
    "fielded": "times fielded as a battler",
    "played_event": "times played as an event (characters included)",
    "played_booster": "times played as a booster",
    "battles": "battles fought as a battler",
    "battles_won": "of those, won",
}
LOG_COLUMNS = {
    "round": "round number", "kind": "0 battle, 1 unfielded round",
    "attacker": "attacking seat (-1: none)", "off_card": "attacking character",
    "def_card": "defending character", "side": "side attacked (0 N, 1 E, 2 S, 3 W; -1 none)",
    "off_mask": "attacker's arrows at the flip (unfielded: seat A could field)",
    "def_mask": "defender's arrows at the flip (unfielded: seat B could field)",
    "auto": "0 arrows decided, 1 attacker's AutoWin, 2 defender's AutoWin",
    "success": "1 the attack succeeded, 0 it failed, -1 no battle",
    "points_a": "deck A's points after it", "points_b": "deck B's points after it",
}
LOG_ROWS = 256
ROUND_BINS = 3


def _rate(label, k, n=""):
    return Rate(label, k, n)


SCHEMA = Schema(
    match_columns=MATCH_COLUMNS,
    first_player="first_attacker",
    end_reasons=END_REASONS,
    lengths={"rounds": "rounds per match", "autowins": "AutoWin battles per match"},
    histograms={"round_points": Histogram("points scored in a fully played round", "seat",
                                          bins=ROUND_BINS, axis="points in the round",
                                          subject="rounds scoring at least this many points")},
    card_stats=CARD_STATS,
    use_success=("battles", "battles_won"),
    played="fielded + played_event + played_booster",
    flag_kinds=("character", "booster", "event"),
    rates=(_rate("{a} attack succeeds", "attack_wins_a", "attacks_a"),
           _rate("{b} attack succeeds", "attack_wins_b", "attacks_b"),
           _rate("match ends by points", "end == 0")),
    sections=(
        ("Battle success by side", "share of attacks that succeed, by attacking deck",
         (_rate("{a} attacking", "attack_wins_a", "attacks_a"),
          _rate("{b} attacking", "attack_wins_b", "attacks_b"),
          _rate("battles decided by AutoWin", "autowins", "attacks_a + attacks_b"))),
        ("Points per round", "fully played rounds by deck A's score (2: both battles won)",
         (_rate("{a} scores 2", "rounds_2", "rounds_0 + rounds_1 + rounds_2"),
          _rate("split 1-1", "rounds_1", "rounds_0 + rounds_1 + rounds_2"),
          _rate("{b} scores 2", "rounds_0", "rounds_0 + rounds_1 + rounds_2"))),
        ("Fielding and set-up", "rounds a deck could not field; opening-hand redraws",
         (_rate("{a} cannot field", "unfielded_a", "rounds"),
          _rate("{b} cannot field", "unfielded_b", "rounds"),
          _rate("{a} redrew its opening hand", "redraws_a > 0"),
          _rate("{b} redrew its opening hand", "redraws_b > 0"))),
    ),
    log_columns=LOG_COLUMNS,
    log_rows=LOG_ROWS,
)
