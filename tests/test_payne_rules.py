"""Payne's rules, one scenario each: a state built by hand, the rulebook's answer written in."""

from pathlib import Path

import numpy as np
import pytest

from sim.game import get
from sim.payne import policy as Pol
from sim.payne import pool as T
from sim.payne.reference import Match
from sim.payne.state import END_DECK_OUT, END_POINTS, END_ROUND_CAP, END_SETUP

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
N, E, S, W = 1, 2, 4, 8


def match(policy="plain", **rules):
    m = GAME.load_matchup(FOLDER, "offense", "defense", policy, None, rules, [])
    return Match(m, 1, 0)


def card(g, cid):
    return g.m.pool.lookup(cid)


def field_by_hand(g, off_mask, def_mask, attacker=0):
    """Seat `attacker` fields an offensive character with off_mask, the other a defensive
    one with def_mask (cards chosen for their print, masks set as given)."""
    a, d = g.seats[attacker], g.seats[1 - attacker]
    a.off, d.dfn = card(g, "opal-wren"), card(g, "vera-thorne")
    a.off_mask = a.off_belief = off_mask
    d.dfn_mask = d.dfn_belief = def_mask
    g.know[:] = -1
    g.round = 2
    return a, d


@pytest.mark.parametrize("geometry,off_mask,def_mask,won", [
    ("facing", N, N, 1),  # arrow N lies on side N: both lit
    ("facing", N, E, 0),
    ("mirrored", S, N, 1),  # mirrored: the attacker's S lies on the defender's N
    ("mirrored", N, N, 0),
])
def test_geometry(geometry, off_mask, def_mask, won):
    g = match(geometry=geometry)
    field_by_hand(g, off_mask, def_mask)
    g.battle(0, 1)  # plain attacks the only side its own meeting arrow lights
    assert g.seats[0].attack_wins == won
    assert g.seats[0 if won else 1].score == 1


def test_arrow_units_skip_sides_in_target_state_and_respect_the_cap():
    g = match()
    order = [0, 1, 2, 3]
    assert g.change_arrows(N, N, 1, order) == (N | E, [0, 1, 0, 0])  # N already lit
    assert g.change_arrows(0, 0, 4, order)[0] == N | E | S  # the fourth unit is lost (cap 3)
    assert g.change_arrows(N | E | S | W, N | E | S | W, -3, [3, 2, 1, 0])[0] == N
    assert g.change_arrows(0, N | E | S | W, 2, order)[0] == N | E  # back toward the print
    g0 = match(max_changed=0)
    assert g0.change_arrows(E, E, 2, order)[0] == E


def test_arrow_advantage_lights_own_side_and_owner_knows():
    g = match("prior")
    a, d = field_by_hand(g, N, 0)
    g.seats[0].hand = []
    g.play_card(0, card(g, "laptop"))  # ArrowAdvantage 1 on his offensive character
    assert bin(a.off_mask).count("1") == 2 and a.off_belief == a.off_mask


@pytest.mark.parametrize("feedback", ["silent", "told"])
def test_blind_disadvantage_feedback(feedback):
    g = match("prior", blind_feedback=feedback)
    a, d = field_by_hand(g, N | E | S | W, N | E | S | W)
    g.seats[0].hand = []
    # Fire Drill is defensive: ArrowDisadvantage -1 on the opposing offensive character,
    # here seat 1 unlighting one of seat 0's four lit arrows, blind
    g.play_card(1, card(g, "fire-drill"))
    assert bin(a.off_mask).count("1") == 3
    assert a.off_belief == N | E | S | W  # the owner learns only n
    known = [int(v) for v in g.know[1, T.OFF]]
    assert known.count(0) == 1 and known.count(-1) == 3


def test_reveal_truthful_and_under_maylie():
    g = match("prior")
    a, d = field_by_hand(g, N, E)
    g.play_card(0, card(g, "pop-quiz"))  # the defender names an unlit side of his defender
    known = [int(v) for v in g.know[0, T.DEF]]
    assert known.count(0) == 1 and known[1] == -1  # E is lit, so never named as unlit
    g.know[:] = -1
    d.lie[T.DEF] = 1  # a MayLie in effect: the prior lies and the asker trusts nothing
    g.play_card(0, card(g, "pop-quiz"))
    assert (g.know[0] == -1).all()
    assert "names an unlit side of defensive character: E" in g.text[-1]


@pytest.mark.parametrize("clash,winner", [("cancel", 1), ("attacker", 0), ("defender", 1)])
def test_auto_win_clash(clash, winner):
    g = match(auto_win_clash=clash)
    a, d = field_by_hand(g, N, E)  # the arrows alone: the attack fails
    a.auto[T.OFF] = 1
    d.auto[T.DEF] = 1
    g.battle(0, 1)
    assert g.seats[winner].score == 1
    assert g.autowins == (0 if clash == "cancel" else 1)


def test_single_auto_win_decides_without_a_side():
    g = match()
    a, d = field_by_hand(g, N, E)
    a.auto[T.OFF] = 1
    g.battle(0, 1)
    assert g.seats[0].score == 1 and g.log == [] and g.autowins == 1


def test_ban_binds_the_right_player_next_round():
    g = match()
    field_by_hand(g, N, N)
    g.play_card(0, card(g, "snow-day"))  # AutoWin, Ban 3: binds its own player
    g.play_card(1, card(g, "detention"))  # Ban -1: binds the opponent (seat 0)
    assert g.seats[0].ban_next == 3 and g.seats[1].ban_next == 0
    table = g.table
    legal = Pol.legal_play.py_func
    assert not legal(table, card(g, "laptop"), 3, 2)  # no boosters under ban 2
    assert legal(table, card(g, "laptop"), 3, 1)
    assert not legal(table, card(g, "pop-quiz"), 3, 1)  # no events under ban 1
    assert not legal(table, card(g, "felix-orton"), 3, 1)  # nor characters as events


@pytest.mark.parametrize("rule,can,scores", [
    ("both_score", [True, False], [2, 0]),
    ("both_score", [False, False], [2, 2]),
    ("none_score", [False, False], [0, 0]),
])
def test_unfielded_rounds(rule, can, scores):
    g = match(both_unfielded=rule)
    g.round = 2
    g.unfielded_round(can)
    assert [s.score for s in g.seats] == scores
    assert [s.unfielded for s in g.seats] == [int(not c) for c in can]
    assert [len(s.hand) for s in g.seats] == [2, 2]  # unfielded_draw: both draw 2


def test_both_reach_points_unfielded_higher_wins_equal_draws():
    g = match()
    g.seats[0].score, g.seats[1].score = 9, 9
    g.unfielded_round([False, False])
    assert g.over and g.winner == -1 and g.end == END_POINTS
    g = match()
    g.seats[0].score, g.seats[1].score = 9, 8
    g.unfielded_round([False, False])
    assert g.winner == 0


def test_setup_redraws_until_both_roles_or_the_cap():
    g = match(setup_redraw_cap=5)
    off, blank = card(g, "avery-quill"), card(g, "blank")
    g.seats[0].deck = [off] + [blank] * 10
    g.set_up(0)
    assert g.seats[0].setup_failed and g.seats[0].redraws == 5
    g = match()
    g.seats[0].deck = [off, card(g, "oscar-bell")]
    g.set_up(0)
    assert g.seats[0].redraws == 0 and len(g.seats[0].hand) == 2


def test_setup_failure_loses_the_match():
    m = GAME.load_matchup(FOLDER, "offense", "defense", "plain", None,
                          {"setup_redraw_cap": 0, "opening_hand": 1}, [])
    rec = GAME.reference_batch(m, 5, 1)
    assert (rec.matches[:, 4] == END_SETUP).all()  # one card never holds both roles
    assert (rec.matches[:, 0] == -1).all()  # both fail: a draw


def test_points_end_the_game_mid_round_and_round_cap_draws():
    g = match(points_to_win=1)
    field_by_hand(g, N, N)
    g.battle(0, 0)
    assert g.over and g.winner == 0 and g.end == END_POINTS
    m = GAME.load_matchup(FOLDER, "offense", "defense", "plain", None,
                          {"points_to_win": 999, "max_rounds": 3}, [])
    rec = GAME.reference_batch(m, 3, 1)
    assert (rec.matches[:, 0] == -1).all() and (rec.matches[:, 4] == END_ROUND_CAP).all()
    assert (rec.matches[:, 3] == 3).all()


def test_deck_out_lose():
    g = match(deck_out="lose")
    field_by_hand(g, N, N)
    g.seats[0].deck = [card(g, "blank")]
    g.battle(0, 0)  # the attacker wins, must draw 2 from a deck of 1
    assert g.over and g.winner == 1 and g.end == END_DECK_OUT
    g = match()
    field_by_hand(g, N, N)
    g.seats[0].deck = []
    g.battle(0, 0)
    assert not g.over  # continue: draws nothing


def test_battle_mode_has_no_hands():
    m = GAME.load_matchup(FOLDER, "offense", "defense", "random", None, {"battle_mode": True},
                          [])
    rec = GAME.reference_batch(m, 20, 4)
    cols = list(GAME.schema.match_columns)
    assert (rec.matches[:, cols.index("redraws_a")] == 0).all()
    assert (rec.matches[:, cols.index("unfielded_a")] == 0).all()
    assert (rec.card_stats[:, :, 5:7] == 0).all()  # no card is ever played
    assert np.all(rec.matches[:, cols.index("autowins")] == 0)
