"""Payne's card effects as scenarios from the rule text, played in both engines from the same
hand-built state: the kernel's rule functions and the reference must each give the
rulebook's answer (the matches between them reach some of these paths rarely)."""

from pathlib import Path

import numpy as np
import pytest

from sim.kit.game import get
from sim.payne import pool as T
from sim.payne import rules as Ru
from sim.payne import state as S
from sim.payne.reference import Match
from sim.payne.schema import SCHEMA

from .payne_both import kernel_seen

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
N, E, S_, W = 1, 2, 4, 8
ALL = N | E | S_ | W
UNKNOWN = [-1, -1, -1, -1]


def scenario(rules, off_id, off_mask, def_id, def_mask, lie=False):
    """Seat 0 (offense, prior) attacks with off_id, seat 1 (defense, prior) defends with
    def_id; lie: seat 1 has a MayLie in effect."""
    m = GAME.load_matchup(FOLDER, "offense", "defense", "prior", None, rules, [])
    g = Match(m, 1, 0)
    a, d = g.seats
    a.off, d.dfn = m.pool.lookup(off_id), m.pool.lookup(def_id)
    a.off_mask = a.off_belief = off_mask
    d.dfn_mask = d.dfn_belief = def_mask
    d.lie[T.DEF] = int(lie)
    g.know[:] = -1
    g.round = 2
    return g


def kernel_state(g):
    """The reference match's state as the kernel's arrays: player rows, knowledge, seen,
    stream counters, policy vectors and the seats' views of the cards."""
    P = np.zeros((2, S.PLAYER_SIZE), dtype=np.int64)
    for q, seat in enumerate(g.seats):
        P[q, S.OFF], P[q, S.DEF] = seat.off, seat.dfn
        P[q, S.OFF_MASK], P[q, S.DEF_MASK] = seat.off_mask, seat.dfn_mask
        P[q, S.OFF_BELIEF], P[q, S.DEF_BELIEF] = seat.off_belief, seat.dfn_belief
        P[q, S.LIE_OFF], P[q, S.LIE_DEF] = seat.lie
    views, in_deck = g.m.arrays()[1], g.in_deck
    return (P, g.know.copy(), kernel_seen(views, in_deck, g.seen), g.ctr.copy(),
            np.stack(g.m.policies).astype(np.float64), views)


def kernel_play(g, p, c):
    """The kernel's play_card on the reference match's state; returns its player rows and
    what each seat knows."""
    P, KN, seen, ctr, prms, views = kernel_state(g)
    Ru.play_card(g.table, views, g.m.rules.vector, prms, P, KN, p, c, g.in_deck, seen,
                 np.zeros((2, len(g.table), len(SCHEMA.all_card_stats)), dtype=np.int64),
                 g.keys, ctr, np.zeros(8), np.zeros(4, dtype=np.int64),
                 np.zeros(4, dtype=np.int64))
    return P, KN


def both(g, p, card_id):
    """(masks, knowledge) after the card, from the kernel and from the reference."""
    c = g.m.pool.lookup(card_id)
    P, KN = kernel_play(g, p, c)
    kernel = ([int(P[0, S.OFF_MASK]), int(P[1, S.DEF_MASK])], KN.tolist())
    g.play_card(p, c)
    reference = ([g.seats[0].off_mask, g.seats[1].dfn_mask], g.know.tolist())
    return kernel, reference


@pytest.mark.rule("PAY-28", "PAY-32", "PAY-33", "PAY-34", "PAY-36", "PAY-37", "PAY-38",
                  "PAY-43", "PAY-50")
@pytest.mark.parametrize("name,rules,setup,p,card_id,masks,knows", [
    # Pop Quiz: the defender names an unlit side; with none unlit he says "none" and the
    # asker knows all four lit
    ("reveal none", {}, ("opal-wren", N, "kurt-osgood", ALL), 0, "pop-quiz", [N, ALL],
     (0, T.DEF, [1, 1, 1, 1])),
    # the only unlit side is named: known unlit
    ("reveal the one", {}, ("opal-wren", N, "kurt-osgood", N | E | S_), 0, "pop-quiz",
     [N, N | E | S_], (0, T.DEF, [-1, -1, -1, 0])),
    # under the defender's MayLie the asker trusts nothing
    ("reveal under maylie", {}, ("opal-wren", N, "kurt-osgood", N | E | S_, True), 0,
     "pop-quiz", [N, N | E | S_], (0, T.DEF, UNKNOWN)),
    # Delia Frost asks a lit arrow of the attacker; with none lit: all four known unlit
    ("attacker reveal none", {}, ("brock-danner", 0, "delia-frost", N), 1, "delia-frost",
     [0, N], (1, T.OFF, [0, 0, 0, 0])),
    # Fire Drill, blind: N (the arrow meeting the defender's lit side) is named first; it
    # is unlit already, so E, the one lit, goes out. Silent: he assumes N; told: he learns E
    ("fire drill silent", {}, ("brock-danner", E, "wade-ellison", N), 1, "fire-drill",
     [0, N], (1, T.OFF, [0, -1, -1, -1])),
    ("fire drill told", {"blind_feedback": "told"}, ("brock-danner", E, "wade-ellison", N), 1,
     "fire-drill", [0, N], (1, T.OFF, [-1, 0, -1, -1])),
    # the cap (0) stops the unit: silent still assumes N, told learns nothing
    ("capped silent", {"max_changed": 0}, ("opal-wren", ALL, "wade-ellison", N), 1,
     "fire-drill", [ALL, N], (1, T.OFF, [0, -1, -1, -1])),
    ("capped told", {"max_changed": 0, "blind_feedback": "told"},
     ("opal-wren", ALL, "wade-ellison", N), 1, "fire-drill", [ALL, N], (1, T.OFF, UNKNOWN)),
    # Jasper Reed lights one defender arrow, blind: E first (met by Eliza Penrose's lit E,
    # least likely lit by the defense list), here already lit, so N is lit
    ("jasper silent", {}, ("eliza-penrose", N | E, "xena-brooks", E), 0, "jasper-reed",
     [N | E, N | E], (0, T.DEF, [-1, 1, -1, -1])),
    ("jasper told", {"blind_feedback": "told"}, ("eliza-penrose", N | E, "xena-brooks", E), 0,
     "jasper-reed", [N | E, N | E], (0, T.DEF, [1, -1, -1, -1])),
    # Laptop lights the own attacker's arrow meeting the likeliest lit side (N, tied with
    # S by the defense list: N first); nothing is learnt of the opponent
    ("laptop", {}, ("brock-danner", E, "yuri-galt", S_), 0, "laptop", [N | E, S_],
     (0, T.DEF, UNKNOWN)),
    # Study Hall unlights two of the own defender's arrows, those the offense list's
    # attackers light most (N, then E)
    ("study hall", {}, ("opal-wren", ALL, "kurt-osgood", N | E | S_), 1, "study-hall",
     [ALL, S_], (1, T.OFF, UNKNOWN)),
])
def test_card_effects_in_both_engines(name, rules, setup, p, card_id, masks, knows):
    g = scenario(rules, *setup)
    kernel, reference = both(g, p, card_id)
    seat, role, known = knows
    for engine, (got_masks, got_know) in (("kernel", kernel), ("reference", reference)):
        assert got_masks == masks, (name, engine)
        assert got_know[seat][role] == known, (name, engine)
        assert got_know[1 - seat] == [UNKNOWN, UNKNOWN], (name, engine)


@pytest.mark.rule("PAY-41", "PAY-43", "PAY-52")
@pytest.mark.parametrize("def_mask,answer", [(N | E | S_, "S"), (N | E, "E"), (0, "none")])
def test_prior_lies_under_maylie_in_both_engines(def_mask, answer):
    """Under its MayLie prior always lies: asked an unlit side of its defender, it names the
    first side of its guarded order (S, W, E, N: the offense list's attackers light the
    arrows meeting them least often first) that is lit, or "none" when none is. The asker
    ignores any answer."""
    g = scenario({}, "opal-wren", N, "kurt-osgood", def_mask, lie=True)
    P, KN, seen, ctr, prms, views = kernel_state(g)
    got = Ru.reveal(views, g.m.rules.vector, prms, P, KN, 0, T.DEF, seen, g.keys, ctr,
                    np.zeros(8), np.zeros(4, dtype=np.int64))
    g.reveal(0, T.DEF)
    named = g.text[-1].split(": ")[-1].split(" ")[0]
    assert ("none" if got < 0 else "NESW"[got]) == named == answer
    assert (KN == -1).all() and (g.know == -1).all()
