"""A table of more than two seats through the generic layers, by hand: records shaped per
seat, the store's tables and totals, and the analysis of every seat (no engine involved)."""

import numpy as np
import pandas as pd
import pytest

from analysis import metrics
from analysis.load import Run
from analysis.quantities import label, rate_specs
from sim.kit.game import Histogram, Rate, Schema
from sim.kit.records import BatchRecords, Totals

SCHEMA = Schema(match_columns={"winner": "", "first": "", "points_a": "", "points_b": "",
                               "points_c": ""},
                first_player="first", first_player_label="first player",
                histograms={"h": Histogram("a count", "seat", bins=3)},
                rates=(Rate("{c} scored", "points_c > 0"),), seats=3)


def test_records_and_totals_have_a_row_per_seat():
    rec = BatchRecords.allocate(SCHEMA, 4, 2)
    assert rec.hists["h"].shape == (4, 3, 3) and rec.card_stats.shape == (3, 2, 4)
    rec.matches[:, 0] = [2, 0, 2, -1]
    t = rec.totals()
    assert t.wins == (1, 0, 2) and t.draws == 1
    assert (t + t).wins == (2, 0, 4)


def test_the_store_keeps_every_seat(tmp_path):
    from sim.store.runs import chunk_tables, create_run, read_table, totals, write_chunk

    rec = BatchRecords.allocate(SCHEMA, 3, 2)
    rec.hists["h"][0, 2, 1] = 5  # seat C of match 0 counted 5 at value 1
    rec.hists["h"][2, 1, 2] = 1
    rec.card_stats[2, 1, 0] = 7  # seat C held card "y" in 7 matches
    run = create_run(tmp_path, "r", {"status": "running"})
    write_chunk(run, 0, chunk_tables(rec, ("x", "y")))
    long = read_table(run.path, "histograms")
    assert long.seat.tolist() == [2, 1] and long["count"].tolist() == [5, 1]
    cards = read_table(run.path, "cards").set_index(["seat", "card"])
    assert cards.loc[(2, "y"), "matches_in_deck"] == 7
    t = totals(run.path, {"h": 3}, seats=3)
    assert t.hists["h"][2].tolist() == [0, 5, 0] and t.hists["h"][1].tolist() == [0, 0, 1]
    assert t.wins == (3, 0, 0)  # every winner column still 0


def test_labels_and_rates_name_every_seat():
    assert label("{a} before {c}", ("A", "B", "C")) == "A before C"
    specs = rate_specs(SCHEMA.to_json(), ("A", "B", "C"))
    assert specs[:3] == [("A wins", "winner == 0", ""), ("B wins", "winner == 1", ""),
                         ("C wins", "winner == 2", "")]
    assert ("C scored", "points_c > 0", "") in specs


def _run(tmp_path, winner, first):
    manifest = {"schema": SCHEMA.to_json(), "decks": [{"name": d} for d in "ABC"],
                "policies": [{"name": p} for p in "pqr"],
                "card_pool": {"ids": [], "names": [], "kinds": []}}
    n = len(winner)
    matches = pd.DataFrame({"match_index": range(n), "winner": winner, "first": first,
                            "points_a": 0, "points_b": 0, "points_c": 0})
    return Run(tmp_path, manifest, matches, pd.DataFrame(), pd.DataFrame(), None)


def test_win_table_and_positions_by_hand(tmp_path):
    # Six matches at a table of three. Turn order goes A, B, C from whoever starts.
    winner = [0, 1, 2, 2, 0, -1]
    first = [0, 0, 1, 2, 2, 0]
    run = _run(tmp_path, winner, first)
    assert run.seats == 3 and run.label == "A (p) vs B (q) vs C (r)"
    wins = metrics.seat_wins(run).set_index("deck")
    assert wins.k.tolist() == [2, 1, 2] and (wins.n == 6).all()
    assert wins.loc["C", "rate"] == pytest.approx(2 / 6)
    # Position of the winner after the first player: 0, 1, 1, 0, 1, (draw).
    pos = metrics.position_edge(run).set_index("position")
    assert pos.k.tolist() == [2, 3, 0]
    assert pos.loc[0, "edge"] == pytest.approx(2 / 6 - 1 / 3)
    assert pos.loc[1, "edge"] == pytest.approx(3 / 6 - 1 / 3)
    assert (pos.lo <= pos.rate).all() and (pos.rate <= pos.hi).all()
    head = metrics.headline(run)
    edge = metrics.first_player_edge(run, head).iloc[0]
    assert edge.edge == pytest.approx(2 / 6 - 1 / 3)  # a fair share is a third, not a half
    matrix = metrics.seat_matrix(run).set_index("first")
    assert matrix.loc["C is first player", "k"] == 1  # A won one of the two C started


def test_two_seat_totals_are_unchanged():
    frame = pd.DataFrame({"winner": [0, 1, 1, -1]})
    assert Totals.of_frame(frame, {}).wins == (1, 2)
    assert np.array_equal(BatchRecords.allocate(SCHEMA.__class__(
        match_columns={"winner": ""}, first_player="winner", first_player_label="x"),
        2, 1).card_stats.shape, (2, 1, 4))
