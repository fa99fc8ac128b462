"""What a Paint the Line batch records: the matches columns, the rally histograms, the card
statistics and the shot log, with meanings; the index constants the kernel writes by."""

from __future__ import annotations

from sim.kit.game import CARD_STATS_COMMON, Histogram, Rate, Schema

MATCH_COLUMNS = {
    "winner": "seat that won the match (0: deck A, 1: deck B)",
    "games_a": "games of the match won by seat 0",
    "games_b": "games of the match won by seat 1",
    "score_a": "points won by seat 0, over all games of the match",
    "score_b": "points won by seat 1, over all games of the match",
    "points": "points played",
    "turns": "turns taken (one shot is one turn)",
    "shots": "shots rolled",
    "end": "how the last game ended: 0 points, 1 deck-out forfeit",
    "deckouts": "games of the match ended by a deck-out forfeit",
    "first_server": "seat that served first in the match",
    "mulligans_a": "mulligans taken by seat 0",
    "mulligans_b": "mulligans taken by seat 1",
    "cut_len": "shots landed in the rally cut short by a forfeit, -1 for none",
    "cut_server": "server of that rally, -1 for none",
}
(WINNER, GAMES_A, GAMES_B, SCORE_A, SCORE_B, POINTS, TURNS, SHOTS, END, DECKOUTS,
 FIRST_SERVER, MULL_A, MULL_B, CUT_LEN, CUT_SERVER) = range(15)  # fmt: skip
N_MATCH = len(MATCH_COLUMNS)

# Rally counts per match and server seat: shots landed (the last bin is "or more") and the
# highest index step reached (one bin per step of the ladder).
RALLY_BINS = 32
LENGTH, TOP_STEP = "length", "top_step"

CARD_STATS = {
    **CARD_STATS_COMMON,
    "played": "times played from hand",
    "hit": "times hit",
    "landed": "hits that landed",
    "dead_turns": "end-of-turn moments spent in hand",
}

# Card statistics kept per seat and card (summed over games): the order of the schema.
(CS_IN_DECK, CS_DRAWN, CS_WINS_DRAWN, CS_WINS_NOT_DRAWN, CS_PLAYED, CS_HIT,
 CS_LANDED, CS_DEAD) = (list(CARD_STATS).index(k) for k in (
    "matches_in_deck", "matches_drawn", "wins_drawn", "wins_not_drawn", "played", "hit", "landed",
    "dead_turns"))  # fmt: skip

LOG_COLUMNS = {
    "game": "game of the match", "point": "point of the match, from 1",
    "turn": "turn of the match", "seat": "seat hitting", "card": "card hit, -1 Default Shot",
    "advantage": "1 when hit with its Advantage values", "bonus": "total bonus",
    "need": "target plus incoming penalty", "roll": "natural d20 roll",
    "landed": "1 when the shot landed", "critical": "1 on a critical",
    "step": "index step after the shot", "penalty_out": "return penalty put on the opponent",
    "saved": "coach save: 0 none, 1 reroll, 2 clutch",
    "attachment": "enhancement attached to the card, -1 none",
    "boosts": "single-use enhancements boosting the shot",
    "boost": "first single-use enhancement, -1 none", "boost2": "second one, -1 none",
    "boost3": "third one, -1 none", "boost4": "fourth one, -1 none",
}  # fmt: skip
(L_GAME, L_POINT, L_TURN, L_SEAT, L_CARD, L_ADV, L_BONUS, L_NEED, L_ROLL, L_LANDED, L_CRIT,
 L_STEP, L_PEN_OUT, L_SAVED, L_ATT, L_BOOSTS, L_BOOST) = range(17)  # fmt: skip
LOG_BOOSTS = 4  # boosts named by the log, from L_BOOST on; L_BOOSTS counts them all
N_LOG = len(LOG_COLUMNS)
LOG_ROWS = 2048

SCHEMA = Schema(
    match_columns=MATCH_COLUMNS,
    first_player="first_server",
    end_reasons=("points", "deck-out forfeit"),
    lengths={"points": "points per match", "turns": "turns per match"},
    histograms={
        LENGTH: Histogram("shots landed in a rally", "server", RALLY_BINS,
                          "rally length (shots landed)",
                          censored=("cut_len * (cut_server == 0) - (cut_server != 0)",
                                    "cut_len * (cut_server == 1) - (cut_server != 1)"),
                          subject="rallies landing at least this many shots"),
        TOP_STEP: Histogram("highest escalation index a rally reached", "server",
                            axis="escalation index", subject="rallies reaching this index"),
    },
    card_stats={k: v for k, v in CARD_STATS.items() if k not in CARD_STATS_COMMON},
    use_success=("hit", "landed"),
    played="played + hit",
    flag_kinds=("basic_shot", "trick_shot", "enhancement"),
    rates=(Rate("{a} wins when serving first", "winner == 0 and first_server == 0",
                "first_server == 0"),
           Rate("{a} wins when receiving first", "winner == 0 and first_server == 1",
                "first_server == 1"),
           Rate("{a} took a mulligan", "mulligans_a > 0"),
           Rate("{b} took a mulligan", "mulligans_b > 0")),
    log_columns=LOG_COLUMNS,
    log_rows=LOG_ROWS,
    worth_label="worth_d20",
)
