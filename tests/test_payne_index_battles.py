"""Payne's rulebook sentences (docs/payne-rules.md, "Rule index") of the attacker's window,
boosters, characters as events, facing, the draw, unfielded rounds and arrow changes, each
pinned in both engines (tests/payne_both.py) against numbers worked out from the sentence."""


import dataclasses

import numpy as np
import pytest

from sim.payne import pool as T
from sim.payne import rules as Ru
from sim.payne import state as S
from sim.payne.reference import Match

from .payne_both import (
    ALL,
    DEF_MASK,
    E_,
    KIND,
    OFF_MASK,
    S_,
    SIDE,
    SUCCESS,
    N,
    Side,
    W,
    both,
    ids,
    lit,
    lit_count,
    matchup,
    printed,
)

rule = pytest.mark.rule


@rule("PAY-12", "PAY-15", "PAY-45")
def test_the_attacker_plays_his_cards_then_names_a_side():
    """The attacker (prior) plays every card of his hand worth playing (Reveal first, then
    in hand order; a character without a power is no event); the defender plays nothing
    in this window. Then the attacker names a side. Offensive cards go with this battle;
    the defensive Raincoat waits for the next one."""
    m = matchup("prior")
    a = Side(off="brock-danner", dfn="kurt-osgood",
             hand=("laptop", "pop-quiz", "raincoat", "avery-quill"))
    b = Side(off="quinn-ashby", dfn="yuri-galt", hand=("fire-drill", "study-hall"))
    (left,), text = both(m, [a, b], ("battle", 0, 0))
    (row,) = left.log
    A, B = left.seats
    assert sorted(A.hand) == sorted(ids(m, "avery-quill", *a.deck[:2]))
    assert A.discards == 3 and A.pending == [0, 1]  # Brock Danner, Pop Quiz, Laptop
    assert B.hand == ids(m, "fire-drill", "study-hall")
    assert 0 <= row[SIDE] < 4
    assert lit_count(row[OFF_MASK]) == 2 and lit_count(A.dfn_mask) == 2  # Laptop, Raincoat
    assert left.know[0][T.DEF].count(0) == 1  # Pop Quiz: one unlit side named
    plays = [i for i, t in enumerate(text) if " plays " in t]
    assert [text[i].split(" plays ")[1].split(" as ")[0] for i in plays] == \
        ["Pop Quiz", "Laptop", "Raincoat"]
    assert max(plays) < next(i for i, t in enumerate(text) if " attacks " in t)


@rule("PAY-13", "PAY-26", "PAY-27", "PAY-28")
def test_boosters_change_their_players_character_of_their_role():
    """Laptop (offensive booster, ArrowAdvantage 1) lights one arrow of its player's
    attacker; Raincoat (defensive, ArrowAdvantage -1) unlights one of his defender; Study
    Hall (defensive event, -2) two of it. Nothing else changes, and the owner sees it."""
    m = matchup("prior")
    a = Side(off="brock-danner", dfn="kurt-osgood")
    b = Side(off="quinn-ashby", dfn="yuri-galt")
    lefts, _ = both(m, [a, b], ("card", 0, "laptop"), ("card", 0, "raincoat"),
                    ("card", 0, "study-hall"))
    off, dfn = printed(m, "brock-danner"), printed(m, "kurt-osgood")
    steps = [(1, 0), (1, -1), (1, -3)]  # arrows lit more than the print: attacker, defender
    for left, (d_off, d_dfn) in zip(lefts, steps, strict=True):
        A, B = left.seats
        assert lit_count(A.off_mask) - lit_count(off) == d_off
        assert lit_count(A.dfn_mask) - lit_count(dfn) == d_dfn
        assert A.off_mask & off == off and A.dfn_mask & dfn == A.dfn_mask  # lit, unlit
        assert (A.off_belief, A.dfn_belief) == (A.off_mask, A.dfn_mask)
        assert (B.off_mask, B.dfn_mask) == (printed(m, "quinn-ashby"), printed(m, "yuri-galt"))


@rule("PAY-14", "PAY-46")
def test_a_character_played_as_an_event_uses_its_power():
    """Dorian Vale (offensive character, power ArrowAdvantage 1) played as an event lights
    an arrow of the attacker; prior plays a character so only while two of its role are in
    hand (keep_role), and a character without a power never."""
    m = matchup("prior")
    b = Side(off="quinn-ashby", dfn="yuri-galt")
    dorian = ids(m, "dorian-vale")[0]
    for hand, as_event in ((("dorian-vale", "quinn-ashby", "kurt-osgood"), True),
                           (("dorian-vale", "kurt-osgood"), False)):
        a = Side(off="avery-quill", dfn="oscar-bell", hand=hand)
        (left,), _ = both(m, [a, b], ("battle", 0, 0))
        A = left.seats[0]
        mask = left.log[0][OFF_MASK]
        assert mask & N and lit_count(mask) == 1 + as_event  # Avery Quill: N lit
        assert (dorian in A.hand) != as_event
        assert A.discards == 1 + as_event
        assert left.card_stats[0][dorian][5] == as_event  # played_event
        assert ids(m, "quinn-ashby")[0] in A.hand or not as_event


@rule("PAY-16", "PAY-48")
@pytest.mark.parametrize("geometry,attacker,won", [
    ("facing", "avery-quill", 1),  # arrow N lies on side N: lit on lit
    ("facing", "celia-marsh", 0),  # arrow S on side S: unlit
    ("mirrored", "avery-quill", 0),  # the variant: arrow N on side S
    ("mirrored", "celia-marsh", 1),
])
def test_the_cards_face_their_owners(geometry, attacker, won):
    """Wade Ellison defends with side N lit only; plain attacks the side its one lit arrow
    lies on. Both battlers are then flipped: each player has seen the other's."""
    m = matchup("plain", geometry=geometry)
    (left,), _ = both(m, [Side(off=attacker, dfn="kurt-osgood"),
                          Side(off="brock-danner", dfn="wade-ellison")], ("battle", 0, 0))
    (row,) = left.log
    lies_on = {"facing": {"avery-quill": 0, "celia-marsh": 2},
               "mirrored": {"avery-quill": 2, "celia-marsh": 0}}[geometry][attacker]
    assert row[SIDE] == lies_on and row[SUCCESS] == won
    assert [s.score for s in left.seats] == ([1, 0] if won else [0, 1])
    assert left.seen[1][ids(m, attacker)[0]] == 1 and left.seen[0][ids(m, "wade-ellison")[0]] == 1


@rule("PAY-17", "PAY-18", "PAY-30", "PAY-49", "PAY-48")
def test_the_arrows_after_the_cards_decide():
    """Brock Danner (E lit) against Yuri Galt (S lit): by the print no side has lit on lit.
    The attacker knows side S lit (a Reveal before): his Laptop is his to place, and
    prior lights the arrow meeting S, attacks S and wins. Without the Laptop the attack
    on E fails and the defender scores."""
    m = matchup("prior")
    know = np.full((2, 2, 4), -1)
    know[0, T.DEF] = [-1, -1, 1, -1]
    b = Side(off="quinn-ashby", dfn="yuri-galt")
    for hand, side, won in ((("laptop",), 2, 1), ((), 1, 0)):
        (left,), _ = both(m, [Side(off="brock-danner", dfn="kurt-osgood", hand=hand), b],
                          ("battle", 0, 0), know=know)
        (row,) = left.log
        assert row[OFF_MASK] == (E_ | S_ if hand else E_)
        assert (row[SIDE], row[SUCCESS]) == (side, won)
        assert [s.score for s in left.seats] == [won, 1 - won]
        assert left.know[1] == [[-1] * 4] * 2  # the defender is told nothing of the Laptop


@rule("PAY-19")
def test_the_attacker_then_draws_two_cards():
    """After each battle its attacker takes the top two cards of his deck; the defender
    draws nothing."""
    m = matchup("plain")
    deck = ("pia-langford", "oscar-bell", "laptop", "rosa-keel")
    a = Side(off="avery-quill", dfn="kurt-osgood", hand=("pop-quiz",), deck=deck)
    b = Side(off="brock-danner", dfn="xena-brooks", hand=("fire-drill",), deck=deck)
    first, second = both(m, [a, b], ("battle", 0, 0), ("battle", 1, 1))[0]
    for left, att in ((first, 0), (second, 1)):
        A, B = left.seats
        assert A.hand == ids(m, "pop-quiz", *deck[:2]) and A.deck == ids(m, *deck[2:])
        assert (B.hand, B.deck) == ((ids(m, "fire-drill"), ids(m, *deck)) if att == 0 else
                                    (ids(m, "fire-drill", *deck[:2]), ids(m, *deck[2:])))


@rule("PAY-24")
@pytest.mark.parametrize("hand_a", [
    ("avery-quill", "laptop"),  # A has no defensive character
    ("avery-quill", "pia-langford"),
    ("kurt-osgood",),  # no offensive one
])
def test_a_player_who_cannot_field_loses_both_battles(hand_a):
    """From round 2, a hand without a character of each role cannot field: no battle is
    fought and the opponent scores 2; (both_score) when neither can, each scores 2."""
    m = matchup("plain")
    for hand_b, expected in ((("brock-danner", "xena-brooks"), [0, 2]),
                             (("brock-danner",), [2, 2])):
        (left,), _ = both(m, [Side(hand=hand_a, score=3), Side(hand=hand_b, score=3)],
                          ("round",))
        assert [s.score - 3 for s in left.seats] == expected
        assert [s.attacks for s in left.seats] == [0, 0]
        assert [r[KIND] for r in left.log] == [S.LOG_UNFIELDED]
        assert [s.unfielded for s in left.seats] == [1, int(len(hand_b) == 1)]
        assert [len(s.hand) for s in left.seats] == [len(hand_a) + 2, len(hand_b) + 2]


@rule("PAY-13", "PAY-22", "PAY-25", "PAY-26", "PAY-27")
def test_cards_work_in_the_battle_of_their_role_and_go_with_it():
    """A attacks first (prior) and plays all: Pop Quiz and Laptop (offensive) for his own
    battle; Fire Drill (defensive event: one of B's attacker's arrows out, blind), Raincoat
    (defensive booster) and Wade Ellison as an event (defensive, ArrowAdvantage -1) for B's
    battle, when A defends. The offensive ones are discarded with the battlers of battle 1,
    the defensive ones wait and go after battle 2. B, attacking in battle 2 after his
    defender has battled, plays no defensive card."""
    m = matchup("prior")
    a = Side(off="avery-quill", dfn="kurt-osgood",
             hand=("pop-quiz", "laptop", "fire-drill", "raincoat", "wade-ellison",
                   "petra-quist"))
    b = Side(off="eliza-penrose", dfn="yuri-galt", hand=("raincoat", "fire-drill"))
    (first, second), _ = both(m, [a, b], ("battle", 0, 0), ("battle", 1, 1))
    off_a, dfn_a, off_b, dfn_b = (printed(m, c) for c in ("avery-quill", "kurt-osgood",
                                                           "eliza-penrose", "yuri-galt"))
    battle1, battle2 = first.log[0], second.log[1]
    assert lit_count(battle1[OFF_MASK]) == lit_count(off_a) + 1 and battle1[DEF_MASK] == dfn_b
    assert lit_count(battle2[OFF_MASK]) == lit_count(off_b) - 1  # Fire Drill, in B's attack
    assert lit_count(battle2[DEF_MASK]) == lit_count(dfn_a) - 2  # Raincoat, Wade Ellison
    A = first.seats[0]
    assert A.hand[:1] == ids(m, "petra-quist")
    assert A.discards == 3 and A.pending == [0, 3]  # Avery Quill, Pop Quiz, Laptop
    A = second.seats[0]
    assert A.discards == 3 + 1 + 3 and A.pending == [0, 0]
    B = second.seats[1]
    assert B.discards == 2  # Yuri Galt, then Eliza Penrose
    assert B.hand[:2] == ids(m, "raincoat", "fire-drill")  # his defender has battled


@rule("PAY-31", "PAY-32", "PAY-35", "PAY-36")
@pytest.mark.parametrize("mask,printed_,n,order,after", [
    (0, 0, 4, "NESW", N | E_ | S_),  # gain 3 past the print, the fourth unit is lost
    (ALL, ALL, -4, "WSEN", N),  # lose 3
    (N | E_ | S_, 0, 1, "WNES", N | E_ | S_),  # 3 unlike the print already: no more
    (N | E_ | S_, 0, -1, "NESW", E_ | S_),  # back toward the print
    (N, N, 1, "NESW", N | E_),  # N lit already: the unit lights the next side named
    (E_, E_, -1, "NESW", 0),  # N unlit already: E goes out
    (ALL, N, 2, "NESW", ALL),  # 4 lit at most
    (0, E_, -1, "NESW", 0),  # 0 lit at least
    (W, W, 3, "SENW", ALL),  # S, E, then N (W is lit)
])
def test_arrow_changes_stop_at_three_and_skip_sides_already_so(mask, printed_, n, order,
                                                               after):
    """A unit lights (or unlights) the first side named not yet in that state, keeping at
    most 3 arrows unlike the print; a unit with no such side is lost. Both engines' rule."""
    m = matchup()
    g = Match(m, 1, 0)
    sides = [T.SIDES.index(c) for c in order]
    flipped = np.zeros(4, dtype=np.int64)
    kernel = Ru.change_arrows(m.rules.vector, mask, printed_, n, np.array(sides), flipped)
    reference, ref_flipped = g.change_arrows(mask, printed_, n, sides)
    assert kernel == reference == after
    assert flipped.tolist() == ref_flipped == [lit(mask ^ after, s) for s in range(4)]


@rule("PAY-31", "PAY-35", "PAY-28")
def test_cards_of_three_arrows_twice_change_three_at_most():
    """Laptop and Raincoat made +3 and -3 (legal arguments): each played twice, the
    attacker ends with every arrow lit, the defender with none (3 changed), then the same."""
    m = matchup("prior")
    table = m.pool.table.copy()
    table[m.pool.lookup("laptop"), T.C_ARG1] = 3
    table[m.pool.lookup("raincoat"), T.C_ARG1] = -3
    m = dataclasses.replace(m, pool=m.pool.with_table(table))
    assert not T.card_problems(list(table[m.pool.lookup("laptop")]))
    lefts, _ = both(m, [Side(off="avery-quill", dfn="kurt-osgood"),
                        Side(off="quinn-ashby", dfn="yuri-galt")],
                    ("card", 0, "laptop"), ("card", 0, "laptop"), ("card", 0, "raincoat"),
                    ("card", 0, "raincoat"))
    assert [(x.seats[0].off_mask, x.seats[0].dfn_mask) for x in lefts] == [
        (ALL, N | E_ | S_), (ALL, N | E_ | S_), (ALL, 0), (ALL, 0)]


