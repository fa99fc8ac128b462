"""What a High Card batch records, with meanings: the schema the contract's analysis reads."""

from __future__ import annotations

from sim.highcard.pool import HIGHEST
from sim.highcard.state import END_REASONS
from sim.kit.game import Histogram, Rate, Schema, end_meaning

MATCH_COLUMNS = {
    "winner": "0: deck A won, 1: deck B won, -1: a draw",
    "points_a": "deck A's points", "points_b": "deck B's points",
    "rounds": "rounds played",
    "end": end_meaning(END_REASONS),
    "first_leader": "seat the coin made leader of round 1",
    "ties": "rounds of equal cards",
    "round1": "who won round 1: 0 deck A, 1 deck B, -1 equal cards",
}
(M_WINNER, M_POINTS_A, M_POINTS_B, M_ROUNDS, M_END, M_FIRST, M_TIES,
 M_ROUND1) = range(len(MATCH_COLUMNS))

CARD_STATS = {"played": "times played", "won": "rounds it won"}
LOG_COLUMNS = {
    "round": "round number", "leader": "seat that led", "led": "card led",
    "followed": "card the other seat played", "scored": "seat that scored (-1 nobody, 2 both)",
    "points_a": "deck A's points after it", "points_b": "deck B's points after it",
}
VALUE_BINS = HIGHEST + 1  # values 0 .. HIGHEST: a bin for every value a card may have
VALUE_PLAYED = "value_played"

SCHEMA = Schema(
    match_columns=MATCH_COLUMNS,
    first_player="first_leader",
    end_reasons=END_REASONS,
    lengths={"rounds": "rounds per match", "ties": "ties per match"},
    histograms={VALUE_PLAYED: Histogram("cards played, by value", "player", bins=VALUE_BINS,
                                        axis="value of the card played",
                                        subject="cards played of at least this value")},
    card_stats=CARD_STATS,
    use_success=("played", "won"),
    played="played",
    flag_kinds=("number",),
    rates=(Rate("{a} wins round 1", "round1 == 0"), Rate("{b} wins round 1", "round1 == 1"),
           Rate("match ends by points", "end == 0")),
    log_columns=LOG_COLUMNS,
    log_rows=64,
)
