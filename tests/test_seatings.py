"""Every seating of a table's decks on the same seeds (sim.experiments.seatings): the design,
the wins by turn position with intervals from the matches as clusters, and what the rules
fix whatever the seating (Encounter's chooser going first)."""

from pathlib import Path

import numpy as np
import pytest

from sim.encounter.batch import load_matchup
from sim.experiments.seatings import deck_positions, position_edge, position_wins, seatings
from sim.kit.game import get

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"


def test_every_order_of_the_decks_once_the_runs_own_first():
    assert seatings(3) == [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    assert len(seatings(4)) == 24 and len(set(seatings(4))) == 24


def test_the_edge_counts_a_matchs_seatings_as_one_observation():
    """Two seatings of four matches at three seats; position 0 wins 4 of the 8, position 1
    two, position 2 one (one draw). Per match,
    the share of its seatings position 0 won: 1/2, 1, 0, 1/2; their mean 1/2 and standard
    error sd/sqrt(4) = 0.4082/2, so the edge over 1/3 is 1/6 +- 1.96 x 0.2041."""
    wins = np.array([[0, 0, 1, -1], [1, 0, 2, 0]])
    t = position_edge(wins, 3).set_index("position")
    assert (t.k.tolist(), t.n.tolist()) == ([4, 2, 1], [8, 8, 8])
    se = np.std([0.5, 1, 0, 0.5], ddof=1) / 2
    assert t.rate[0] == pytest.approx(0.5) and t.edge[0] == pytest.approx(1 / 6)
    assert t.edge_hi[0] - t.edge[0] == pytest.approx(1.959964 * se, rel=1e-5)
    assert t.rate[1] == pytest.approx(2 / 8) and t.edge[1] == pytest.approx(2 / 8 - 1 / 3)


def test_the_chooser_goes_first_in_every_seating_and_the_others_share_the_rest():
    """Encounter at three: the PC of highest intelligence chooses who goes first, and
    careful's choice is itself: Grey Expedition (intelligence 2 + 1 from Grey's start)
    against two Orcs (2). So in every seating Grey Expedition holds position 0, and over
    the six seatings each Orc deck holds positions 1 and 2 half of the time each, whatever
    the seat numbers. The first seating is the run itself."""
    game = get("encounter")
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful", "careful",
                     {"players": 3})
    wins, held = position_wins(game, m, [(0, 60)], 4)
    rec = game.run_batch(m, 60, 4)
    first, winner = rec.column("first_player"), rec.column("winner")
    assert np.array_equal(wins[0], np.where(winner >= 0, (winner - first) % 3, -1))
    t = deck_positions(wins, held, [d.name for d in m.decks]).set_index(["position", "deck"])
    assert t.share[0, "grey-expedition"] == 1.0
    for p in (1, 2):
        assert t.share[p, "orc-warband"] == t.share[p, "orc-ambush"] == 0.5
    assert t.k.sum() == (wins >= 0).sum()


def test_the_seatings_of_a_partial_run_play_its_own_matches_and_again_once_resumed(tmp_path):
    """A run of 600 matches in chunks of 200 whose middle chunk never finished holds
    matches 0 .. 199 and 400 .. 599: its seatings play those (they played 0 .. 399, so the
    first seating was not the run), and once the run is resumed, `report` plays them
    again on all 600 (it kept the table of the 400)."""
    import pandas as pd

    from sim.experiments.seatings import for_run
    from sim.runner.run import simulate
    from sim.store.runs import RunFolder, read_table
    from sim.store.state import finished

    from .conftest import cardlab

    game = get("encounter")
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful", "careful",
                     {"players": 3})
    simulate(game, m, 600, 4, results=tmp_path, run_id="r", chunk_size=200, backend="serial")
    run = RunFolder(tmp_path, "r")
    run.remove_chunk(1)
    manifest = run.read_manifest() | {"status": "interrupted"}
    run.write_manifest(manifest)
    assert finished(run.path, manifest) == [(0, 200), (400, 200)]
    wins, held = position_wins(game, m, [(0, 200), (400, 200)], 4)
    rec = read_table(run.path, "matches")
    assert rec.match_index.tolist() == [*range(200), *range(400, 600)]
    first, winner = rec.first_player.to_numpy(), rec.winner.to_numpy()
    assert np.array_equal(wins[0], np.where(winner >= 0, (winner - first) % 3, -1))
    pd.testing.assert_frame_equal(for_run(run.path), position_edge(wins, 3))
    simulate(None, None, 0, 0, results=tmp_path, resume="r", backend="serial")
    # Without seatings, the report does not pass the old table off as the run's.
    out = cardlab("report", "r", "--results", str(tmp_path), "--no-verdicts",
                  "--no-seatings", "-q")
    assert out.returncode == 0, out.stderr
    md = " ".join((run.path / "report.md").read_text(encoding="utf-8").split())
    assert "Played on 400 matches, before the run was resumed; it holds 600 now" in md
    out = cardlab("report", "r", "--results", str(tmp_path), "--no-verdicts", "-q")
    assert out.returncode == 0, out.stderr
    table = pd.read_parquet(run.path / "seatings.parquet")
    assert table.n.tolist() == [6 * 600] * 3
    whole, _ = position_wins(game, m, [(0, 600)], 4)
    pd.testing.assert_frame_equal(table, position_edge(whole, 3))
