"""Encounter: the maneuvers of a combat's window, and a Ward outside one. "Perform Combat
Maneuvers ... This includes: Playing an instant action that must be played during a combat.
Using a combat ability." RULES-encounter.md: each keyword has one handler, and "the card's
`step` says when it may be used". Each state is built by hand in both engines (a card's
step edited where the sample pool has none of that step); the numbers come from the
sentences and cards.csv."""

from __future__ import annotations

import pytest

from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter.reference_state import FOUGHT, GONE

from .encounter_both import edited, rows
from .test_encounter_decisions import name, twin
from .test_encounter_scenarios import Both

rule = pytest.mark.rule


def fight(b, k, who):
    """Striker k against A's defender `who` (-1 the PC, j party slot j), in both engines."""
    b.step(lambda C: twin(Tu.combat)(C, k, who),
           lambda g: g.fight(g.strikers[k], g.seats[0].pc if who < 0 else
                             g.seats[0].party[who]))


def offered(b, p, step):
    """The maneuvers seat p is offered now in a window of the step, as card names, the same
    in both engines."""
    n = twin(Ef.list_maneuvers)(b.C, p, step, 0)
    kernel = [name(b.C[9][i, 2]) for i in range(n)]
    assert kernel == [name(o.card.id) for o in b.g.maneuvers(b.g.seats[p], step)]
    return kernel


def in_combat(b, k, who):
    """Striker k fighting A's defender `who` (its window open), in both engines."""
    b.G[S.C_STRIKER], b.G[S.C_DEF] = k, who
    seat = b.g.seats[0]
    b.g.combat = (b.g.strikers[k], seat.pc if who < 0 else seat.party[who])


@rule("ENC-12", "ENC-80")
def test_a_wound_played_in_a_combat_kills_the_striker_before_it_is_resolved():
    """Sniper Shot (Wound 1, cost 1) made a combat instant. Troll (strength 6, toughness 3,
    2 wounds) against Orc Grunt (strength 3, toughness 1): in the combat's window the Orc
    plays it (its pool pays 1), the Troll's last toughness goes and it is killed at once,
    to Grey's discard pile. The combat ends with no winner: the Grunt takes no wound and no
    combat is won (DEFEAT counts none)."""
    b = Both(party=(("Orc Grunt", 0),), strikers=(("Troll", 0, 2),))
    edited(b, "Sniper Shot", K.C_STEP, K.S_COMBAT, "step")
    b.hand(0, "Sniper Shot")
    b.pool(0, 1)
    fight(b, 0, 0)
    assert b.striker_states() == [GONE]
    hand, pile, party, pool = b.same(0)
    assert (hand, pile, party, pool) == ([], ["Sniper Shot"], [("Orc Grunt", 0)], 0)
    assert b.same(1)[1] == ["Troll"]
    assert int(b.G[S.WINS]) == b.g.wins == 0
    assert rows(b, S.EV_COMBAT) == []


@rule("ENC-12", "ENC-16", "ENC-80")
def test_the_strikers_wound_in_a_combat_kills_the_defender_and_ends_it():
    """Grey holds Sniper Shot made a combat instant. Troll against Orc Grunt (toughness 1):
    the Orc passes, Grey plays it on the weakest of the Orc's party (the Grunt, 1 left):
    the Grunt is killed at once and goes to the discard pile; the combat ends with no
    result, the Troll unwounded and fought."""
    b = Both(party=(("Orc Grunt", 0),), strikers=(("Troll", 0, 0),))
    edited(b, "Sniper Shot", K.C_STEP, K.S_COMBAT, "step")
    b.hand(1, "Sniper Shot")
    b.pool(1, 1)
    fight(b, 0, 0)
    assert b.striker_states() == [FOUGHT]
    assert int(b.G[S.SWOUND]) == b.g.strikers[0].wounds == 0
    assert b.same(0)[1:3] == (["Orc Grunt"], [])
    assert b.same(1)[:2] == ([], ["Sniper Shot"])
    assert rows(b, S.EV_COMBAT) == []


@rule("ENC-80")
def test_a_cancel_in_a_combat_takes_a_striker_still_to_fight_not_the_one_fighting():
    """Banish (Cancel 3, cost 2) made a combat instant. Troll (strength 6, strike cost 3)
    fights the Orc PC (strength 7) while Goblin (strength 4, cost 1) waits: the Cancel
    discards a striker "before it fights", so the Goblin, not the Troll. The combat then
    resolves: 7 against 6, the PC wins and the Troll takes 1 wound."""
    b = Both(strikers=(("Troll", 0, 0), ("Goblin", 0, 0)))
    edited(b, "Banish", K.C_STEP, K.S_COMBAT, "step")
    b.hand(0, "Banish")
    b.pool(0, 2)
    fight(b, 0, -1)
    assert b.striker_states() == [FOUGHT, GONE]
    assert int(b.G[S.SWOUND]) == b.g.strikers[0].wounds == 1
    assert b.same(1)[1] == ["Goblin"]
    assert int(b.G[S.WINS]) == b.g.wins == 1


@rule("ENC-22", "ENC-80")
def test_an_instant_of_a_combat_is_offered_in_its_window_whatever_its_keyword():
    """Insight (Draw 2) and Second Chance (Revive 3), made combat instants, with Orc Grunt
    in the Orc's discard pile to revive: both are offered in the combat's window, beside
    Rally Cry (Might 2); none of them outside a combat."""
    b = Both(strikers=(("Troll", 0, 0),), discard=("Orc Grunt",))
    for card_name in ("Insight", "Second Chance"):
        edited(b, card_name, K.C_STEP, K.S_COMBAT, "step")
    b.hand(0, "Insight", "Rally Cry", "Second Chance")
    b.pool(0, 3)
    assert offered(b, 0, K.S_ENCOUNTER) == []
    in_combat(b, 0, -1)
    assert offered(b, 0, K.S_COMBAT) == ["Insight", "Rally Cry", "Second Chance"]


@rule("ENC-18", "ENC-22")
def test_a_ward_of_another_step_is_offered_there():
    """Shield Up (Ward 2: "prevent the next n wounds to your character this turn") made an
    encounter instant: the active Orc is offered it in the encounter window, and its Ward
    covers its PC there (careful's target outside a combat); Grey, holding one too, is
    offered it only while it has a striker not gone."""
    b = Both()
    edited(b, "Shield Up", K.C_STEP, K.S_ENCOUNTER, "step")
    b.hand(0, "Shield Up")
    b.hand(1, "Shield Up")
    b.pool(0, 1)
    b.pool(1, 1)
    assert offered(b, 0, K.S_ENCOUNTER) == ["Shield Up"]
    assert offered(b, 1, K.S_ENCOUNTER) == []
    b.strikers("Goblin")
    assert offered(b, 1, K.S_ENCOUNTER) == ["Shield Up"]
    b.G[S.S_N] = 0
    b.g.strikers.clear()
    assert offered(b, 0, K.S_ENCOUNTER) == ["Shield Up"]  # the option rows: the Orc's
    b.step(lambda C: twin(Ef.use_option)(C, 0, 0), lambda g: g.use(
        g.seats[0], g.maneuvers(g.seats[0], K.S_ENCOUNTER)[0]))
    assert int(b.P[0, S.PC_WARD]) == b.g.seats[0].pc.ward == 2
