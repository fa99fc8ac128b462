"""Payne's Blank as a neutral filler: set aside when a draw meets it, the next card drawn in its
place, the shuffle over the whole deck; scenarios from the rule text and calibrations."""

import math
from pathlib import Path

import numpy as np
import pytest

from sim.core.rng import N_STREAMS, stream_key
from sim.core.stats import paired_difference
from sim.kit.game import get
from sim.payne import rules as Ru
from sim.payne import state as S
from sim.payne.edits import with_deck
from sim.payne.policy import load_policies
from sim.payne.reference import Match

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
POLICIES = list(load_policies(FOLDER / "policies.toml"))
CS = list(GAME.schema.all_card_stats)


def matchup(policy="prior", **rules):
    return GAME.load_matchup(FOLDER, "offense", "defense", policy, None, rules, [])


def card(m, cid):
    return m.pool.lookup(cid)


def non_characters_blanked(m, seat):
    """The seat's deck with its boosters and events swapped for as many Blanks: a legal
    60-card deck of 52 characters and 8 Blanks."""
    table, blank = m.pool.table, m.pool.filler()
    counts = {c: n for c, n in m.decks[seat].counts if table[c, 0] == 0}
    counts[blank] = sum(n for c, n in m.decks[seat].counts if table[c, 0] != 0)
    return with_deck(m, seat, counts)


# --- scenarios from the rule text --------------------------------------------------------


def test_reference_hand_holds_the_cards_after_the_blanks():
    m = matchup("plain", opening_hand=3)
    g = Match(m, 1, 0)
    B, a, d = card(m, "blank"), card(m, "avery-quill"), card(m, "oscar-bell")
    laptop = card(m, "laptop")
    g.seats[0].deck = [B, a, B, B, d, laptop, B, a, d]
    g.draw_opening_hand(0)
    assert g.seats[0].hand == [a, d, laptop]  # three cards, the Blanks before them set aside
    assert g.seats[0].deck == [B, a, d] and g.seats[0].set_aside == 3
    g.draw(0, 2)  # the Blank on top is set aside, the next two cards drawn
    assert g.seats[0].hand == [a, d, laptop, a, d] and g.seats[0].deck == []
    assert g.seats[0].set_aside == 4


def test_reference_only_blanks_left_is_an_empty_deck():
    m = matchup("plain", deck_out="lose")
    g = Match(m, 1, 0)
    B, a = card(m, "blank"), card(m, "avery-quill")
    g.seats[0].deck = [a, B, B]
    g.draw(0, 1)
    assert not g.seats[0].decked and g.seats[0].hand == [a]
    g.draw(0, 1)  # two Blanks and nothing after them: the draw meets an empty deck
    assert g.seats[0].decked and g.seats[0].hand == [a]


def kernel_player(m, deck):
    P = np.zeros((2, S.PLAYER_SIZE), dtype=np.int64)
    P[0, S.DECK:S.DECK + len(deck)] = deck
    P[0, S.DECK_LEN] = len(deck)
    return P


def test_kernel_hand_holds_the_cards_after_the_blanks():
    m = matchup("plain", opening_hand=3, deck_out="lose")
    table, R = m.pool.table, m.rules.vector
    B, a, d = card(m, "blank"), card(m, "avery-quill"), card(m, "oscar-bell")
    laptop = card(m, "laptop")
    P = kernel_player(m, [B, a, B, B, d, laptop, B, a, d, B])
    Ru.draw_opening_hand(table, R, P, 0)
    assert list(P[0, S.HAND:S.HAND + P[0, S.HAND_N]]) == [a, d, laptop]
    drawn = np.zeros((2, len(m.pool)), dtype=np.int64)
    Ru.draw_cards(table, R, P, 0, 2, drawn)
    assert list(P[0, S.HAND:S.HAND + P[0, S.HAND_N]]) == [a, d, laptop, a, d]
    assert drawn[0, B] == 0 and P[0, S.DECKED] == 0
    Ru.draw_cards(table, R, P, 0, 1, drawn)  # one Blank left: an empty deck
    assert P[0, S.HAND_N] == 5 and P[0, S.DECKED] == 1


def test_kernel_redraws_keep_every_other_card_where_the_baseline_has_it():
    """A deck with Blanks for a card's copies, shuffled from the same stream, holds every
    other card where the deck without the swap holds it after any equal number of
    redraws (the hand and its set-aside Blanks go back and the whole deck is shuffled); its
    hand is the first opening_hand cards that are not Blanks."""
    m = matchup("plain")
    table, R = m.pool.table, m.rules.vector
    B, x = card(m, "blank"), card(m, "laptop")
    # many offensive characters, few defensive: redraws are common
    base = np.array([card(m, "avery-quill")] * 45 + [card(m, "oscar-bell")] * 3 + [x] * 12)
    variant = np.where(base == x, B, base)
    same_redraws = redrawn = 0
    for index in range(300):
        keys = np.array([stream_key(5, index, s) for s in range(N_STREAMS)], dtype=np.uint64)
        out = []
        for cards in (base, variant):
            P = np.zeros((2, S.PLAYER_SIZE), dtype=np.int64)
            ctr = np.zeros(N_STREAMS, dtype=np.int64)
            drawn = np.zeros((2, len(m.pool)), dtype=np.int64)
            Ru.set_up(table, R, P, 0, cards, keys, ctr, drawn)
            out.append(P)
        Pb, Pv = out
        deck_b = Pb[0, S.DECK:S.DECK + 60]
        deck_v = Pv[0, S.DECK:S.DECK + 60]
        real = deck_v[deck_v != B]
        assert list(Pv[0, S.HAND:S.HAND + Pv[0, S.HAND_N]]) == list(real[:7])
        assert drawn[0, B] == 0
        if Pb[0, S.REDRAWS] == Pv[0, S.REDRAWS]:
            same_redraws += 1
            redrawn += Pb[0, S.REDRAWS] > 0
            assert np.array_equal(np.where(deck_b == x, B, deck_b), deck_v)
    assert same_redraws > 100 and redrawn > 20


@pytest.mark.parametrize("policy", POLICIES)
def test_kernel_equals_reference_with_blanks(policy):
    for rules in ({}, {"deck_out": "lose", "attack_draw": 6, "points_to_win": 60},
                  {"opening_hand": 12, "defense_timing": "defender_window"}):
        m = non_characters_blanked(matchup(policy, **rules), 0)
        m = with_deck(m, 1, {**dict(m.decks[1].counts), m.pool.filler(): 4})
        assert GAME.run_batch(m, 30, 3, 0, 3).same_as(GAME.reference_batch(m, 30, 3, 0, 3))


def test_no_blank_is_ever_drawn_fielded_played_or_logged():
    m = non_characters_blanked(matchup("random"), 1)
    m = with_deck(m, 0, {**dict(m.decks[0].counts), m.pool.filler(): 4})
    rec = GAME.run_batch(m, 2000, 9, 0, 50)
    B = m.pool.filler()
    assert (rec.card_stats[:, B, CS.index("matches_in_deck")] == 2000).all()
    for stat in ("matches_drawn", "fielded", "played_event", "played_booster", "battles"):
        assert (rec.card_stats[:, B, CS.index(stat)] == 0).all()
    rows = np.concatenate([rec.log[i, :rec.log_n[i]] for i in range(50)])
    assert len(rows) > 0 and not (rows[:, 3:5] == B).any()  # the battlers


def hand_lacks_role(n, o, d, h):
    """P(h cards from n, o offensive and d defensive characters, miss a role)."""
    return (math.comb(n - o, h) + math.comb(n - d, h) - math.comb(n - o - d, h)) \
        / math.comb(n, h)


def test_opening_hand_role_odds_are_those_of_the_cards_without_the_blanks():
    """The rule text: a hand is 7 cards, Blanks set aside, so its role odds are those of 7
    cards from the 52 characters (30 offensive, 22 defensive), not of 7 from 60 with the
    Blanks (0.0165 against 0.0380)."""
    m = non_characters_blanked(matchup("plain"), 0)
    n = 20000
    rec = GAME.run_batch(m, n, 4)
    k = int((rec.matches_frame().redraws_a > 0).sum())
    q = hand_lacks_role(52, 30, 22, 7)
    se = math.sqrt(q * (1 - q) / n)
    assert abs(k / n - q) < 4 * se, (k / n, q)
    assert abs(k / n - hand_lacks_role(60, 30, 22, 7)) > 10 * se


# --- calibration: the filler costs nothing -------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_adding_blanks_moves_the_win_rate_by_less_than_a_point(seat):
    """Four Blanks added to a sample deck (64 cards, built in memory: the size rule counts
    Blanks, and both decks must list deck_size cards, so no legal pair of decks differs by
    Blanks alone), prior against prior, 40 000 matches paired on seeds: under the rule the
    other cards come in the same random order, so the win rate must not move."""
    m = matchup("prior")
    n = 40000
    base = GAME.run_batch(m, n, 11)
    more = with_deck(m, seat, {**dict(m.decks[seat].counts), m.pool.filler(): 4})
    d = paired_difference(base.wins(seat), GAME.run_batch(more, n, 11).wins(seat))
    assert abs(d["delta"]) < 0.01 and -0.012 < d["lo"] and d["hi"] < 0.012, d


@pytest.mark.parametrize("seat", [0, 1])
def test_taking_out_cards_without_effect_is_worth_nothing(seat):
    """What "no effect" means here. A Payne card acts by being played (a policy's choice),
    by being fielded and battling (characters), by counting toward the roles a hand needs to
    field (characters), and by the draw it takes: a card drawn is a character not drawn.
    Under `plain` (plays nothing, fields uniformly among the characters in hand) a booster or
    event is never played, never fielded, never counts toward a role; with an opening hand
    of 30 a hand never lacks a role (no unfielded round), and then the characters fielded
    are a uniform draw from the deck's characters whatever else the deck holds, so the draw
    the card takes changes nothing either. Such cards have no effect under the rules; taking
    all eight of a sample deck's out (Blanks in their place) must be worth 0, within a
    point, over 40 000 paired matches."""
    m = matchup("plain", opening_hand=30)
    n = 40000
    base = GAME.run_batch(m, n, 21)
    assert base.matches_frame()[["unfielded_a", "unfielded_b"]].to_numpy().sum() <= n // 1000
    out = GAME.run_batch(non_characters_blanked(m, seat), n, 21)
    d = paired_difference(out.wins(seat), base.wins(seat))  # base - variant: the worth
    assert d["lo"] <= 0 <= d["hi"] and -0.01 < d["lo"] and d["hi"] < 0.01, d


# --- the experiments' decks --------------------------------------------------------------


def test_taking_a_card_out_keeps_every_other_card_in_its_place():
    """Ablation and the copies sweep swap a card's copies for blanks where the copies lie in
    the deck's list, so the shuffle puts every other card where it puts it in the deck itself
    (the rule text's "every other card lies where it lies in the deck without the swap")."""
    m = matchup()
    blank = m.pool.filler()
    for seat in (0, 1):
        base = list(m.decks[seat].cards())
        for v in (v for v in GAME.ablations(m) if v.seat == seat):
            x = m.pool.lookup(v.card)
            assert list(v.matchup.decks[seat].cards()) == [blank if c == x else c
                                                          for c in base], v.item
    # Laptop, three copies, listed near the end of the offense deck: kept to one, its first
    # copy stays and the other two are blanks in their places.
    laptop = m.pool.lookup("laptop")
    base = list(m.decks[0].cards())
    at = [i for i, c in enumerate(base) if c == laptop]
    want = [blank if i in at[1:] else c for i, c in enumerate(base)]
    v = GAME.sweeps["copies"].make(m, 0, 1, {"card": "laptop"})
    assert list(v.matchup.decks[0].cards()) == want
