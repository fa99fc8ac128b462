"""A seat's view of the cards (Power.with_view): its policy weighs the cards as the view
holds them, the rules roll every shot with the card table's values."""

import numpy as np

from sim.kit.folders import read_folder
from sim.kit.game import get

from .conftest import ROOT

N = 2000
VALUES = ("normal_bonus", "normal_penalty", "advantage_bonus", "advantage_penalty")


def matchup():
    g = get("paintline")
    info = read_folder(ROOT / "decks" / "paintline")
    return g, g.load_matchup(info.path, *info.decks, "greedy", "greedy", {}, [])


def hits_and_landed(g, m, card):
    rec = g.run_batch(m, N, 3)
    c = list(m.pool.ids).index(card)
    stats = dict(zip(g.schema_of(m).all_card_stats, rec.card_stats[0, c], strict=True))
    return rec, stats["hit"], stats["landed"]


def test_a_view_equal_to_the_table_plays_every_match_as_before():
    g, m = matchup()
    same = {("high-lob", f): int(v) for f, v in
            g.power.cards(m).set_index("id").loc["high-lob", list(VALUES)].items()}
    before = g.run_batch(m, N, 3)
    after = g.run_batch(g.power.with_view(m, 0, same), N, 3)
    assert np.array_equal(before.matches, after.matches)
    assert np.array_equal(before.card_stats, after.card_stats)


def test_the_policy_reads_the_view_and_the_roll_the_table():
    # High Lob made a card with no values, which greedy seldom hits; seat A's view shows
    # it with 9 in every value. Greedy, which hits the shot most likely to land, then
    # hits it far more often; but it lands as a shot with no bonus does, well below the
    # rate of a High Lob that truly has 9 in every value.
    g, m = matchup()
    dead = g.power.with_values(m, {("high-lob", f): 0 for f in VALUES})
    strong = {("high-lob", f): 9 for f in VALUES}
    _, hit_dead, landed_dead = hits_and_landed(g, dead, "high-lob")
    viewed, hit_viewed, landed_viewed = hits_and_landed(
        g, g.power.with_view(dead, 0, strong), "high-lob")
    _, hit_strong, landed_strong = hits_and_landed(g, g.power.with_values(m, strong),
                                                   "high-lob")
    assert hit_viewed > 3 * max(hit_dead, 1)
    assert landed_viewed / hit_viewed < landed_strong / hit_strong - 0.1
    # Seat B's view is its own: a view for seat A leaves B's policy as it was.
    other = g.run_batch(g.power.with_view(dead, 1, strong), N, 3)
    c = list(m.pool.ids).index("high-lob")
    assert other.card_stats[0, c].tolist() == g.run_batch(dead, N, 3).card_stats[0, c].tolist()
