"""Par read off the pool, worked by hand: the points a card of its kind has at its cost,
shared as the typical card shares them, as the card does, or alike."""

import pandas as pd

from sim.experiments.par import par_values
from sim.kit.power import Power

POWER = Power(cards=None, stronger={"a": 1, "b": 1}, bounds={"a": (0, 9), "b": (0, 9)},
              with_values=None, cost={"": "cost"})
# Traits of one cost, each carrying one number: the median of each number is 0, the median
# of the points (a + b) is 2; `plain` has neither number.
TRAITS = pd.DataFrame({"id": ["t1", "t2", "t3", "t4", "plain"], "kind": ["trait"] * 5,
                       "cost": [1] * 5, "a": [2, 0, 2, 0, 0], "b": [0, 2, 0, 2, 0]})


def test_a_card_of_one_number_is_priced_by_its_points_in_its_own_shape():
    assert par_values(POWER, TRAITS, "t1") == {("t1", "a"): 2, ("t1", "b"): 0}
    assert par_values(POWER, TRAITS, "t2") == {("t2", "a"): 0, ("t2", "b"): 2}


def test_a_card_with_no_numbers_shares_its_kinds_points_alike():
    # Neither the typical card (0, 0) nor the card has a shape: 2 points, one each. Par is
    # never the card with no effect.
    assert par_values(POWER, TRAITS, "plain") == {("plain", "a"): 1, ("plain", "b"): 1}


def test_a_card_with_no_numbers_takes_the_typical_shape_where_there_is_one():
    # Shots: the typical shot has a 3 and b 1 at cost 2 (4 points); a card of words alone
    # at that cost is priced as that typical shot.
    shots = pd.DataFrame({"id": ["s1", "s2", "s3", "words"], "kind": ["shot"] * 4,
                          "cost": [2] * 4, "a": [3, 3, 3, 0], "b": [1, 1, 1, 0]})
    assert par_values(POWER, shots, "words") == {("words", "a"): 3, ("words", "b"): 1}
