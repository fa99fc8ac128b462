"""Output schema of a batch: columns, dtypes and meanings; allocation; DataFrames."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Per-match record: one int32 row per match.
MATCH_COLUMNS = {
    "winner": "seat that won the match (0: deck A, 1: deck B)",
    "games_a": "games won by seat 0",
    "games_b": "games won by seat 1",
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

# Rally counts per match: [match, server seat, shots landed] (the last bin is "or more")
# and [match, server seat, highest index step reached].
RALLY_BINS = 32

# Card statistics summed over matches: [seat, card, stat] (see sim/paintline/rules.py).
CARD_STATS = {
    "games_in_deck": "matches with the card in the seat's deck",
    "games_drawn": "of those, matches in which it was drawn (kept opening hand or later)",
    "wins_drawn": "matches won when drawn",
    "wins_not_drawn": "matches won when in the deck but not drawn",
    "played": "times played from hand",
    "hit": "times hit",
    "landed": "hits that landed",
    "dead_turns": "end-of-turn moments spent in hand",
}

# Shot log of sampled matches: [match, row, column].
LOG_COLUMNS = {
    "game": "game of the match", "point": "point of the match, from 1",
    "turn": "turn of the match", "seat": "seat hitting", "card": "card hit, -1 Default Shot",
    "advantage": "1 when hit with its Advantage values", "bonus": "total bonus",
    "need": "target plus incoming penalty", "roll": "natural d20 roll",
    "landed": "1 when the shot landed", "critical": "1 on a critical",
    "step": "index step after the shot", "penalty_out": "return penalty put on the opponent",
    "saved": "coach save: 0 none, 1 reroll, 2 clutch", "boost": "single-use enhancement, -1",
}  # fmt: skip
(L_GAME, L_POINT, L_TURN, L_SEAT, L_CARD, L_ADV, L_BONUS, L_NEED, L_ROLL, L_LANDED, L_CRIT,
 L_STEP, L_PEN_OUT, L_SAVED, L_BOOST) = range(15)  # fmt: skip
N_LOG = len(LOG_COLUMNS)
LOG_ROWS = 2048


@dataclass
class BatchRecords:
    """Everything a batch writes, as arrays."""

    first_game: int
    matches: np.ndarray  # (n, N_MATCH) int32
    rally_len: np.ndarray  # (n, 2, RALLY_BINS) int32
    rally_top: np.ndarray  # (n, 2, ladder steps) int32
    card_stats: np.ndarray  # (2, cards, len(CARD_STATS)) int64
    log: np.ndarray  # (n_log, LOG_ROWS, N_LOG) int32
    log_n: np.ndarray  # (n_log,) int64

    @classmethod
    def allocate(cls, n: int, steps: int, n_cards: int, n_log: int, first_game: int = 0):
        return cls(
            first_game,
            np.zeros((n, N_MATCH), dtype=np.int32),
            np.zeros((n, 2, RALLY_BINS), dtype=np.int32),
            np.zeros((n, 2, steps), dtype=np.int32),
            np.zeros((2, n_cards, len(CARD_STATS)), dtype=np.int64),
            np.zeros((min(n_log, n), LOG_ROWS, N_LOG), dtype=np.int32),
            np.zeros(min(n_log, n), dtype=np.int64),
        )

    def matches_frame(self):
        import pandas as pd

        df = pd.DataFrame(self.matches, columns=list(MATCH_COLUMNS))
        df.insert(0, "game_index", np.arange(self.first_game, self.first_game + len(df)))
        return df

    def log_frame(self, k: int):
        """Shot log of sampled match k (a batch row < n_log)."""
        import pandas as pd

        return pd.DataFrame(self.log[k, : self.log_n[k]], columns=list(LOG_COLUMNS))
