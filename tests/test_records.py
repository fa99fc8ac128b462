"""Generic records: allocation by schema, a kernel's batch in pieces (kernel_entry), a
reference engine's entries (reference_entries), totals and the ratio estimates exact checks
read."""

import sys
import types
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from sim.kit.game import Histogram, Schema
from sim.kit.records import BatchRecords, Totals, kernel_entry, reference_entries, winner_text

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


def fake_engine(name: str) -> types.ModuleType:
    """A kernel module by the contract's word: play_piece writes match first_match + i into
    row i (winner: the match's parity, x: the table's value, tried: the thread's scratch
    size), one count in histogram bin 1 of seat 0, card 2 used once."""
    engine = types.ModuleType(name)

    def play_piece(lo, hi, table, value, seed, first_match, out, h, card_stats, log, log_n,
                   scratch):
        for i in range(lo, hi):
            out[i] = ((first_match + i) % 2, seed, table[0], len(scratch))
            h[i, 0, 1] += value
        card_stats[0, 2, 4] += hi - lo

    engine.play_piece = play_piece
    engine.new_work = lambda n_cards: np.zeros(n_cards)
    sys.modules[name] = engine
    return engine


@dataclass(frozen=True)
class FakeMatchup:
    pool: tuple = ("a", "b", "c")

    def arrays(self):
        return np.array([7]), 1


def test_kernel_entry_plays_every_match_once_with_its_arrays_in_order():
    fake_engine("fake_engine_for_records")
    run = kernel_entry(SCHEMA, "fake_engine_for_records")
    rec = run(FakeMatchup(), 10, 5, first_match=3, block=4)  # pieces of 4, 4 and 2
    assert rec.matches[:, 0].tolist() == [1, 0, 1, 0, 1, 0, 1, 0, 1, 0]  # matches 3 .. 12
    assert (rec.matches[:, 1] == 5).all() and (rec.matches[:, 2] == 7).all()
    assert (rec.matches[:, 3] == 3).all()  # new_work sized by the pool's three cards
    assert rec.hists["h"][:, 0, 1].tolist() == [1] * 10 and rec.card_stats[0, 2, 4] == 10
    # a game's own scratch and histogram bins
    sized = kernel_entry(SCHEMA, "fake_engine_for_records",
                         work=lambda engine, m: (np.zeros(9),), bins=lambda m: {"h": 6})
    rec = sized(FakeMatchup(), 2, 5)
    assert (rec.matches[:, 3] == 9).all() and rec.hists["h"].shape == (2, 2, 6)


class FakeMatch:
    """A reference match by the contract's word: seat `index % 2` wins; each seat holds
    card 0 (drawn) and card 1 (not drawn); the game's own statistic 'used' is 1 on card 2."""

    def __init__(self, m, seed, index, log_rows=-1):
        self.index, self.played = index, False
        self.in_deck = np.array([[1, 2, 0], [1, 1, 0]])
        self.drawn = np.array([[1, 0, 0], [1, 0, 0]])
        self.cs = np.zeros((2, 3, 5), dtype=np.int64)
        self.cs[0, 2, 4] = 1
        self.hist, self.log, self.text = np.zeros((2, 4), dtype=np.int64), [], []

    def play(self):
        self.played = True
        self.text.append(winner_text(self.index % 2))

    def record(self):
        assert self.played
        return np.array([self.index % 2, 0, 0, 0])


def test_reference_entries_tally_the_common_card_statistics_as_the_kernels_do():
    batch, replay = reference_entries(SCHEMA, FakeMatch, "h")
    rec = batch(FakeMatchup(), 3, 1, first_match=4)  # matches 4, 5, 6: A, B, A win
    # matches in deck, drawn, wins drawn, wins not drawn; then the game's own
    assert rec.card_stats[0, 0].tolist() == [3, 3, 2, 0, 0]
    assert rec.card_stats[0, 1].tolist() == [3, 0, 0, 2, 0]
    assert rec.card_stats[1, 0].tolist() == [3, 3, 1, 0, 0]
    assert rec.card_stats[0, 2].tolist() == [0, 0, 0, 0, 3]  # never in a deck
    assert replay(FakeMatchup(), 1, 5).text == ["Winner: B"]
    assert winner_text(-1) == "Winner: none (draw)"


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
