"""Generic records: allocation by schema, totals and the ratio estimates exact checks read."""

import numpy as np
import pandas as pd
import pytest

from sim.kit.game import Histogram, Schema
from sim.kit.records import BatchRecords, Totals

SCHEMA = Schema(match_columns={"winner": "", "first": "", "x": "", "tried": ""},
                first_player="first", first_player_label="first player",
                histograms={"h": Histogram("a count", "seat", bins=4)},
                card_stats={"used": ""})


def test_allocation_follows_the_schema():
    rec = BatchRecords.allocate(SCHEMA, 5, 3, n_log=9, first_match=10, bins={"h": 6})
    assert rec.matches.shape == (5, 4) and rec.hists["h"].shape == (5, 2, 6)
    assert rec.card_stats.shape == (2, 3, 5)  # four common statistics and the game's one
    assert rec.log.shape[0] == 5  # never more sampled logs than matches
    assert rec.matches_frame().match_index.tolist() == [10, 11, 12, 13, 14]


def test_totals_count_wins_and_draws_apart_and_ratios_by_hand():
    frame = pd.DataFrame({"winner": [0, 1, -1, 0], "first": [0, 0, 1, 1],
                          "x": [2, 4, 6, 8], "tried": [1, 0, 1, 1]})
    asked = []

    def frames(columns=None):  # the store reads back only the columns asked for
        asked.append(columns)
        cols = columns or list(frame.columns)
        return iter([frame.iloc[:2][cols], frame.iloc[2:][cols]])

    t = Totals.of_frame(frame, {}, frames)
    assert t.wins == (2, 1) and t.draws == 1 and t.n == 4
    mean, se, n = t.ratio("x")
    assert mean == pytest.approx(5.0) and n == 4
    assert se == pytest.approx(np.std([2, 4, 6, 8], ddof=1) / 2)
    assert t.mean("x") == (pytest.approx(5.0), pytest.approx(se))
    # The mean of x over the matches that tried: (2 + 6 + 8) / 3.
    r, se_r, used = t.ratio("x * tried", "tried")
    assert r == pytest.approx(16 / 3) and used == 3 and se_r > 0
    rate, _, _ = t.ratio("winner == first")
    assert rate == pytest.approx(0.25)
    assert asked == [["x"], ["tried", "x"], ["first", "winner"]]
