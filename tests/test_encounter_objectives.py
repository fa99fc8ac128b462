"""Encounter: the objectives that count what happened this turn, RULES-encounter.md's
"UNHURT n: A's PC took <= n wounds this turn" and "DEFEAT n: A's defenders won >= n combats
this turn" ("A striker is 'defeated' when a defender wins its combat"), played in both
engines from hand-built states; the expected values are worked out from those sentences and
cards.csv."""

from __future__ import annotations

import pytest

from sim.encounter import codes as K
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter import wounds as Wo
from sim.encounter.reference_state import FOUGHT, GONE

from .test_encounter_decisions import twin
from .test_encounter_scenarios import Both

rule = pytest.mark.rule


def holds(b, obj, arg):
    """Whether the active Orc's objective holds now, the same in both engines."""
    kernel = bool(twin(Ru.objective_holds)(b.C, 0, obj, arg))
    assert kernel == b.g.objective_holds(b.g.seats[0], obj, arg)
    return kernel


def wound(b, p, who, n):
    seat = b.g.seats[p]
    b.step(lambda C: twin(Wo.wound)(C, p, who, n),
           lambda g: g.wound(seat, seat.pc if who < 0 else seat.party[who], n))


@rule("ENC-88")
def test_unhurt_counts_the_wounds_the_active_pc_took_this_turn():
    """The Orc (active) PC with Ward 1 takes 2 wounds: 1 prevented, 1 taken, so UNHURT 0
    fails and UNHURT 1 holds. Healing it does not undo what it took (UNHURT 0 still fails).
    Wounds to its party NPC and to Grey's PC are not the Orc PC's: UNHURT 1 still holds."""
    b = Both(party=(("Hired Blade", 0),))
    b.P[0, S.PC_WARD] = b.g.seats[0].pc.ward = 1
    assert holds(b, K.O_UNHURT, 0)
    wound(b, 0, -1, 2)
    assert int(b.P[0, S.PC_WOUNDS]) == b.g.seats[0].pc.wounds == 1
    assert not holds(b, K.O_UNHURT, 0) and holds(b, K.O_UNHURT, 1)
    assert int(twin(Wo.heal)(b.C, 0, -1, 1)) == b.g.heal(b.g.seats[0].pc, 1) == 1
    assert not holds(b, K.O_UNHURT, 0)
    wound(b, 0, 0, 1)
    wound(b, 1, -1, 1)
    assert holds(b, K.O_UNHURT, 1) and not holds(b, K.O_UNHURT, 0)


@rule("ENC-88")
def test_defeat_counts_combats_won_not_strikers_gone():
    """Goblin (strength 4, toughness 1) and Troll (strength 6) strike the Orc, who holds
    Sniper Shot (Wound 1, cost 1). In the encounter window it kills the Goblin, which so
    never fights; the Troll is sent, and the Orc PC (strength 7) defends and wins. Two
    strikers are gone but one combat was won: DEFEAT 1 holds, DEFEAT 2 fails."""
    b = Both(strikers=(("Goblin", 0, 0), ("Troll", 0, 0)))
    b.hand(0, "Sniper Shot")
    b.pool(0, 1)
    b.step(twin(Tu.encounter_step), lambda g: g.encounter_step())
    assert b.striker_states() == [GONE, FOUGHT]
    assert int(b.G[S.WINS]) == b.g.wins == 1
    assert holds(b, K.O_DEFEAT, 1) and not holds(b, K.O_DEFEAT, 2)


@rule("ENC-81", "ENC-88")
def test_a_combat_nobody_wins_defeats_no_striker():
    """combat_tie = none: the Orc PC (strength 6 + Brawny 1 = 7) defends against Dragon
    (strength 7): equal, so nobody wins and nobody is wounded; the Dragon has fought, but
    no combat was won, so DEFEAT 1 fails."""
    b = Both(rules={"combat_tie": "none"}, strikers=(("Dragon", 0, 0),))
    b.step(lambda C: twin(Tu.combat)(C, 0, -1), lambda g: g.fight(g.strikers[0], g.a.pc))
    assert b.striker_states() == [FOUGHT]
    assert int(b.G[S.SWOUND]) == b.g.strikers[0].wounds == 0
    assert int(b.P[0, S.PC_WOUNDS]) == b.g.seats[0].pc.wounds == 0
    assert int(b.G[S.WINS]) == b.g.wins == 0
    assert not holds(b, K.O_DEFEAT, 1)
