"""Payne's rulebook sentences (docs/payne-rules.md, "Rule index") of what a player knows of
his own battlers after the cards of both players changed them, pinned in both engines
(tests/payne_both.py) against numbers worked out from the sentence."""


import numpy as np
import pytest

from sim.payne import pool as T

from .payne_both import E_, SIDE, SUCCESS, N, Side, both, matchup, printed

rule = pytest.mark.rule


@rule("PAY-30", "PAY-34", "PAY-49")
def test_his_own_arrow_change_shows_him_the_sides_it_flipped():
    """"It's your choice which ones (tell a third party so you don't cheat ;))." and, of a
    blind change, "the opponent's choice, tell a third party": B's attacker Eliza Penrose
    (N, E lit) loses N to A's Fire Drill, blind (A's defender Wade Ellison lights N only,
    so A names N first); B, told only that one arrow went out, still pictures N lit. B then
    plays his Laptop on her: knowing A's defender lit at N alone, he names N first, and as
    N is out it is N that the Laptop lights. B has lit N himself, so he pictures N lit, as
    it is: N and E. He attacks N, where his arrow and A's defender are both lit, and wins."""
    m = matchup("prior")
    assert printed(m, "eliza-penrose") == N | E_ and printed(m, "wade-ellison") == N
    know = np.full((2, 2, 4), -1)
    know[1, T.DEF] = [1, 0, 0, 0]  # B knows A's defender: N lit, E, S, W unlit
    a = Side(off="avery-quill", dfn="wade-ellison")
    b = Side(off="eliza-penrose", dfn="xena-brooks")
    drill, laptop, battle = both(m, [a, b], ("card", 0, "fire-drill"), ("card", 1, "laptop"),
                                 ("battle", 1, 1), know=know)[0]
    assert (drill.seats[1].off_mask, drill.seats[1].off_belief) == (E_, N | E_)
    assert (laptop.seats[1].off_mask, laptop.seats[1].off_belief) == (N | E_, N | E_)
    (row,) = battle.log
    assert (row[SIDE], row[SUCCESS]) == (0, 1)
    assert [s.score for s in battle.seats] == [0, 1]
