"""Par where a card's numbers leave its shape open: par is every form its numbers may take,
played alike and averaged match by match, never the one shape the judged card keeps; Payne
Academy's forms read from the rulebook's arrows; and an arm of several matchups."""

from dataclasses import dataclass, replace
from math import comb

import numpy as np
import pandas as pd
import pytest

from sim.experiments.arms import Arms
from sim.experiments.verdicts import Precision, card_verdicts
from sim.kit.game import Schema
from sim.kit.power import Power
from sim.kit.variants import Building

# --- a stand-in game: a character has four sides, of which only side 0 ever wins anything.
# Deck A's one copy of x (all four sides) adds K to A's chance when side 0 is among its
# sides; A wins a match when its uniform U lies below that chance (common random numbers).
K = 0.02
U = np.random.default_rng(11).random(200_000)
# The pool: id -> sides mask. Par for x is read off the pool's characters: 2 sides (median).
POOL = {"x": 0b1111, "y": 0b0011, "z": 0b0100}
ORDER = list(POOL)


@dataclass(frozen=True)
class Deck:
    name: str


@dataclass(frozen=True)
class Matchup:
    masks: tuple = tuple(POOL.values())
    decks: tuple = (Deck("A"), Deck("B"))
    policy_names: tuple = ("p", "p")

    def mask(self, card):
        return self.masks[ORDER.index(card)]


def keep_own(mask: int, k: int) -> int:
    """k sides of the mask, its highest given up first (a shape the card keeps)."""
    for s in reversed(range(4)):
        if bin(mask).count("1") > k and mask >> s & 1:
            mask &= ~(1 << s)
    for s in range(4):
        if bin(mask).count("1") < k and not mask >> s & 1:
            mask |= 1 << s
    return mask


def with_values(m, values):
    masks = list(m.masks)
    for (card, field), v in values.items():
        if field == "mask":
            masks[ORDER.index(card)] = v
        elif (card, "mask") not in values:
            masks[ORDER.index(card)] = keep_own(m.mask(card), v)
    return replace(m, masks=tuple(masks))


def forms(m, values):
    (card, _), k = next(iter(values.items()))
    return [{(card, "sides"): k, (card, "mask"): mask} for mask in range(16)
            if bin(mask).count("1") == k]


def cards(m):
    return pd.DataFrame({"id": ORDER, "kind": "character",
                         "sides": [bin(m.mask(c)).count("1") for c in ORDER]})


class Records:
    def __init__(self, m, first, n):
        chance = 0.5 + K * (m.mask("x") & 1)
        self.matches = np.where(U[first:first + n] < chance, 0, 1).astype(np.int32)[:, None]
        # the schema's common statistics, then "played": x played in every match
        self.card_stats = np.zeros((2, len(POOL), 5), np.int64)
        self.card_stats[0, 0, 4] = n

    def wins(self, seat):
        return (self.matches[:, 0] == seat).astype(np.int8)


class Sides:
    name = "sides"
    schema = Schema({"winner": ""}, "first", "first", flag_kinds=("character",),
                    card_stats={"played": "copies played"}, played="played")
    building = Building(counts=lambda m, seat: {"x": 1} if seat == 0 else {},
                        with_counts=None, groups=None)
    tuning = None
    validate = None

    def __init__(self, with_forms: bool):
        self.power = Power(cards=cards, stronger={"sides": 1}, bounds={"sides": (0, 4)},
                           with_values=with_values, forms=forms if with_forms else None)

    def schema_of(self, m):
        return self.schema

    def run_batch(self, m, n, seed, first_match=0, n_log=0):
        return Records(m, first_match, n)

    def describe(self, m):
        return {"card_pool": {"ids": ORDER, "names": ORDER, "kinds": ["character"] * 3}}


def test_a_card_whose_sides_par_keeps_is_judged_against_every_form_of_par():
    # x has all four sides; par has two. Kept from x's own shape (its highest sides given
    # up), par holds side 0 and wins all x wins: x would look like par. Every form of two
    # sides holds side 0 in 3 of 6, so par wins K/2 over no effect, x K/2 over par, and par
    # made strong (x itself) K/2 over par: margins of K/4, which x clears.
    p = Precision(start=8000, max_matches=64_000)
    v = card_verdicts(Sides(True), Matchup(), 1, p).set_index("card")
    assert v.loc["x", "par"] == "sides 2"
    assert v.loc["x", "relative"] == pytest.approx(K / 2, abs=0.004)
    assert v.loc["x", "gap"] == pytest.approx(K / 2, abs=0.004)
    assert v.loc["x", "verdict"] == "over-powered"
    one = card_verdicts(Sides(False), Matchup(), 1, p).set_index("card")
    assert one.loc["x", "relative"] == 0 and one.loc["x", "verdict"] != "over-powered"


def test_an_arm_of_several_matchups_wins_their_mean_match_by_match():
    class Game:
        def run_batch(self, m, n, seed, first_match=0, n_log=0):
            return Records(m, first_match, n)

    arms = Arms(Game(), 1)
    side0, other = Matchup(masks=(0b0001, 3, 4)), Matchup(masks=(0b0010, 3, 4))
    arms.add("mix", [side0, other], 0)
    arms.add("side0", side0, 0)
    arms.add("other", other, 0)
    mix = arms.extend("mix", 1000)
    assert np.array_equal(mix, (arms.extend("side0", 1000) + arms.extend("other", 1000)) / 2)
    assert set(np.unique(mix)) <= {0.0, 0.5, 1.0}
    assert not arms.same("mix", "side0", 1000)  # one of its matchups plays otherwise
    arms.add("twice", [side0, side0], 0)
    assert arms.same("twice", "side0", 1000)


def test_payne_par_takes_every_way_to_have_its_helping_sides():
    # The rulebook: an attack succeeds iff both arrows are lit, so lit arrows help an
    # offensive character and unlit ones a defensive character. k helping sides of four
    # come in comb(4, k) ways.
    from pathlib import Path

    from sim.kit.game import get

    game = get("payne")
    folder = Path(__file__).resolve().parents[1] / "decks" / "payne"
    m = game.load_matchup(folder, "offense", "defense", "prior", None, {}, [])
    pool = game.power.cards(m).set_index("id")
    off = next(c for c in pool.index if pool.at[c, "kind"] == "character"
               and pool.at[c, "role"] == 0)
    dfn = next(c for c in pool.index if pool.at[c, "kind"] == "character"
               and pool.at[c, "role"] == 1)
    for card, lit_helps in ((off, True), (dfn, False)):
        for k in range(5):
            forms = game.power.alike(m, {(card, "sides"): k})
            masks = [f[card, "arrows"] for f in forms]
            assert len(set(masks)) == comb(4, k)
            lit = [bin(mask).count("1") for mask in masks]
            assert lit == [k if lit_helps else 4 - k] * comb(4, k)
            for f in forms:
                row = game.power.cards(game.power.with_values(m, f)).set_index("id")
                assert row.at[card, "sides"] == k
