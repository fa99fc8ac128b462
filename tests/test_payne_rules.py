"""Payne's rules, one scenario each: a state built by hand, the rulebook's answer written in."""

from pathlib import Path

import numpy as np
import pytest

from sim.core.rng import POLICY
from sim.kit.game import get
from sim.payne import policy as Pol
from sim.payne import pool as T
from sim.payne.reference import Match
from sim.payne.state import END_DECK_OUT, END_POINTS, END_ROUND_CAP, END_SETUP

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
N, E, S, W = 1, 2, 4, 8
POLICY_SLOT = POLICY * 2  # seat A's policy stream


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


def battlers(g, attacker, off_id, off_mask, def_id, def_mask):
    """Seat `attacker` fields off_id with off_mask, the other seat def_id with def_mask."""
    a, d = g.seats[attacker], g.seats[1 - attacker]
    a.off, d.dfn = card(g, off_id), card(g, def_id)
    a.off_mask = a.off_belief = off_mask
    d.dfn_mask = d.dfn_belief = def_mask
    a.hand, d.hand = [], []
    g.know[:] = -1
    g.round = 2
    g.log_rows = 8
    return a, d


def defender_list_share(g):
    """Share of the defense list's defensive characters lit at each side (cards.csv)."""
    table, total, lit_copies = g.table, 0, np.zeros(4)
    for c, n in g.m.decks[1].counts:
        if table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == T.DEF:
            total += n
            lit_copies += n * np.array([(table[c, T.C_ARROWS] >> s) & 1 for s in range(4)])
    return lit_copies / total


def test_arrow_advantage_lights_the_arrow_meeting_the_likeliest_lit_side():
    """Laptop lights one unlit arrow of prior's own attacker, the one meeting the side it
    most expects lit (list shares, ties N E S W); the owner sees his card change."""
    g = match("prior")
    a, _ = battlers(g, 0, "brock-danner", E, "yuri-galt", S)
    share = defender_list_share(g)
    unlit = [0, 2, 3]  # Brock Danner lights E only
    expected = max(unlit, key=lambda s: (share[s], -s))
    g.play_card(0, card(g, "laptop"))
    assert a.off_mask == E | (1 << expected) and a.off_belief == a.off_mask
    assert (g.know == -1).all()  # an open change tells the opponent nothing


@pytest.mark.parametrize("geometry,lights", [("facing", S), ("mirrored", N)])
def test_arrow_advantage_lights_the_arrow_meeting_the_side_known_lit(geometry, lights):
    """Known: the defender is lit at S only. Prior lights the arrow that meets S (S facing,
    N mirrored), then attacks S and succeeds."""
    g = match("prior", geometry=geometry)
    a, _ = battlers(g, 0, "brock-danner", E, "yuri-galt", S)
    g.know[0, T.DEF] = [0, 0, 1, 0]
    g.play_card(0, card(g, "laptop"))
    assert a.off_mask == E | lights
    g.battle(0, 1)
    assert g.log[-1][5] == 2 and g.log[-1][9] == 1  # side S, the attack succeeds


@pytest.mark.parametrize("max_changed,mask,silent,told", [
    (3, E, [-1, 1, -1, -1], [-1, 1, -1, -1]),  # E took: both know it
    (0, 0, [-1, 1, -1, -1], [-1, -1, -1, -1]),  # the cap stopped it: silent assumes E
])
def test_blind_light_on_the_defender_silent_against_told(max_changed, mask, silent, told):
    """Jasper Reed lights one of the defender's arrows blind. Prior names first the side its
    attacker's lit arrows meet that the list leaves least likely lit: Eliza Penrose (NE..)
    meets N and E, and the defense list lights E less often than N."""
    share = defender_list_share(match())
    assert share[1] < share[0]
    for feedback, knows, side in (("silent", silent, 1), ("told", told, 0 if mask == 0 else 1)):
        g = match("prior", blind_feedback=feedback, max_changed=max_changed)
        _, d = battlers(g, 0, "eliza-penrose", N | E, "vera-thorne", 0)
        g.play_card(0, card(g, "jasper-reed"))
        assert d.dfn_mask == mask and d.dfn_belief == 0  # the owner learns only n
        assert [int(v) for v in g.know[0, T.DEF]] == knows
        g.battle(0, 1)  # it attacks the side it thinks lit, else N (the likelier by list)
        assert g.log[-1][5] == side and g.log[-1][9] == int(mask == E)


@pytest.mark.parametrize("printed,off_mask,max_changed,after,silent,told", [
    # N is already unlit: the unit passes to the next side named that is lit, E
    ("brock-danner", E, 3, 0, [0, -1, -1, -1], [-1, 0, -1, -1]),
    # nothing may change (cap 0): silent still assumes N, told learns nothing
    ("opal-wren", N | E | S | W, 0, N | E | S | W, [0, -1, -1, -1], [-1, -1, -1, -1]),
])
def test_blind_disadvantage_feedback(printed, off_mask, max_changed, after, silent, told):
    """Fire Drill (defensive) unlights one arrow of the attacker, blind. Prior names first
    the arrow meeting its own defender's lit side (Wade Ellison, N): N."""
    for feedback, knows in (("silent", silent), ("told", told)):
        g = match("prior", blind_feedback=feedback, max_changed=max_changed)
        a, _ = battlers(g, 0, printed, off_mask, "wade-ellison", N)
        g.play_card(1, card(g, "fire-drill"))
        assert a.off_mask == after
        assert a.off_belief == off_mask  # the owner learns only n
        assert [int(v) for v in g.know[1, T.OFF]] == knows


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


@pytest.mark.parametrize("who,off_mask,def_mask", [(T.OFF, N, E), (T.DEF, N, N)])
def test_single_auto_win_decides_without_a_side(who, off_mask, def_mask):
    """One AutoWin wins its player the battle against the arrows, and no side is named:
    the attacker's policy draws nothing for it."""
    g = match()
    a, d = battlers(g, 0, "opal-wren", off_mask, "vera-thorne", def_mask)
    (a if who == T.OFF else d).auto[who] = 1
    before = g.ctr.copy()
    g.battle(0, 1)
    winner = 0 if who == T.OFF else 1
    assert g.seats[winner].score == 1 and g.seats[1 - winner].score == 0
    assert g.log[-1][5] == -1 and g.log[-1][8] == (1 if who == T.OFF else 2)
    assert g.autowins == 1 and g.ctr[POLICY_SLOT] == before[POLICY_SLOT]


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
