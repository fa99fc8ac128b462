"""Payne's exact chain of role-lacking hands (sim/payne/fielding_chain.py): hand-worked
small decks, and the expected unfielded rounds beside matches the kernel plays."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from sim.kit.decklists import Deck
from sim.kit.game import get
from sim.payne import fielding_chain as F

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
rule = pytest.mark.rule


def matchup(a, b, **rules):
    """Plain on both seats with decks given as {card id: copies}."""
    m = GAME.load_matchup(FOLDER, "offense", "defense", "plain", None, {}, [])
    decks = tuple(Deck("", name, tuple((int(m.pool.lookup(c)), n) for c, n in counts.items()))
                  for name, counts in (("a", a), ("b", b)))
    size = sum(a.values())
    return GAME.with_rules(dataclasses.replace(m, decks=decks), {"deck_size": size, **rules})


@rule("PAY-24")
@pytest.mark.parametrize("draw,unfielded_draw,expected", [
    # two of each role, hands of two: round 1 fields the one of each an opening hand must
    # hold; the deck's other two come back after it and are fielded in round 2; from round
    # 3 the hand is empty: rounds 3 and 4 unfielded
    (2, True, 2.0),
    # one card drawn after round 1 is one role: round 2 unfielded for both (nobody fields),
    # the draw after it completes the pair, fielded in round 3; round 4 unfielded
    (1, True, 2.0),
    # no draw after an unfielded round: rounds 2, 3 and 4 unfielded
    (1, False, 3.0),
])
def test_the_chain_counts_the_rounds_a_hand_lacks_a_role(draw, unfielded_draw, expected):
    """"If you cannot play an offensive AND defensive character at the beginning of the next
    round, you automatically lose both battles that round": decks of two offensive and two
    defensive characters, hands of two, four rounds, worked by hand."""
    seat = F.Seat(4, 2)
    assert F.unfielded_means(seat, seat, 2, draw, unfielded_draw, 4, 1000) == \
        pytest.approx((expected, expected))
    m = matchup({"avery-quill": 2, "kurt-osgood": 2}, {"brock-danner": 2, "oscar-bell": 2},
                opening_hand=2, attack_draw=draw, unfielded_draw=unfielded_draw,
                max_rounds=4, points_to_win=99)
    rec = GAME.run_batch(m, 200, 1)
    cols = list(GAME.schema.match_columns)
    for col in ("unfielded_a", "unfielded_b"):
        assert (rec.matches[:, cols.index(col)] == expected).all()


def test_the_chain_agrees_with_matches_played():
    """Decks of characters and blanks, one short of defenders: the expected unfielded rounds
    of each seat (exact check 3) beside 4,000 matches, within four standard errors."""
    a = {"avery-quill": 3, "pia-langford": 3, "rosa-keel": 3, "kurt-osgood": 3,
         "oscar-bell": 3, "lena-marlowe": 3, "blank": 2}
    b = {"brock-danner": 3, "quinn-ashby": 3, "petra-quist": 3, "nadia-rhee": 3,
         "hazel-ibbot": 3, "kurt-osgood": 3, "blank": 2}
    m = matchup(a, b, opening_hand=5, attack_draw=1, max_rounds=9, points_to_win=999)
    table = GAME.exact_check(m, GAME.run_batch(m, 4000, 2).totals())
    chain = table[table.quantity.str.contains("role chain")]
    assert len(chain) == 2 and (chain.exact > 1).all()
    assert (chain.z.abs() < 4).all(), chain


def test_the_chain_draws_by_the_hypergeometric_law():
    """The chain's draw probabilities beside scipy's hypergeometric distribution (the chain
    computes them from binomial coefficients, so that a run loads no scipy.stats)."""
    from scipy.stats import hypergeom

    for total, marked, drawn in ((40, 20, 5), (7, 3, 7), (12, 0, 4), (30, 30, 2), (9, 4, 0)):
        k = np.arange(-1, drawn + 2)
        np.testing.assert_allclose(F.hypergeom_pmf(k, total, marked, drawn),
                                   hypergeom.pmf(k, total, marked, drawn), rtol=1e-13,
                                   atol=1e-300)
