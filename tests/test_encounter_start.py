"""Start-of-turn maneuvers, from the rulebook: "Some cards can only be played at the start of
your turn. Play these cards before beginning your draw step. Each start of turn maneuver may
be performed only once per turn." Cards of step `start`; Field Surgeon (support NPC, cost 2)
has Heal 1 at the start of its player's turn. Each state is built in both engines."""

from pathlib import Path

import pytest

from sim.encounter import state as S
from sim.encounter import turn as Tu

from .test_encounter_decisions import POLICY_STREAM, twin
from .test_encounter_scenarios import Both


def start(b):
    b.step(twin(Tu.start_of_turn), lambda g: g.start_of_turn())


def pc_wounds(b):
    kernel, reference = int(b.P[0, S.PC_WOUNDS]), b.g.seats[0].pc.wounds
    assert kernel == reference
    return kernel


@pytest.mark.parametrize("limit", ["unlimited", "turn"])
@pytest.mark.parametrize("surgeons, left", [(1, 1), (2, 0)])
def test_a_start_of_turn_heal_is_used_once_a_turn_a_copy(limit, surgeons, left):
    """The Orc's PC has 2 wounds and Field Surgeon in play: at the start of the turn careful
    uses its Heal 1 (a wound to heal is there), but once a turn, even where abilities may
    be used as often as paid (ability_limit unlimited): 1 wound is left. With two copies in
    play, each heals once: none left."""
    b = Both(rules={"ability_limit": limit}, pc_wounds=2)
    b.party(0, *["Field Surgeon"] * surgeons)
    start(b)
    assert pc_wounds(b) == left


def test_nothing_to_heal_no_use_and_no_card_no_moment():
    """Unwounded, careful passes (Heal scores only with a wound to heal). A player with no
    start-of-turn card has no such moment at all: even the random policy draws nothing from
    its stream, so matches without such cards play as before."""
    b = Both()
    b.party(0, "Field Surgeon")
    start(b)
    assert pc_wounds(b) == 0
    b = Both(({"style": "random"}, {}), pc_wounds=1)
    start(b)
    assert int(b.G[S.CTR + POLICY_STREAM]) == b.g.counters[POLICY_STREAM] == 0
    assert pc_wounds(b) == 1


def test_the_engines_agree_and_the_start_of_turn_changes_the_records():
    """Grey Expedition with Field Surgeon for its Medic against Orc Warband, careful and
    random: both engines play the same matches, the Surgeon's Heal is used at the start of
    turns (EV_MANEUVER rows of its card), and with its step made boost the records differ."""
    from dataclasses import replace

    from sim.encounter import codes as K
    from sim.encounter.batch import load_matchup
    from sim.kit.game import get

    game = get("encounter")
    folder = Path(__file__).resolve().parents[1] / "decks" / "encounter"
    for policy in ("careful", "random"):
        m = load_matchup(folder, "grey-expedition", "orc-warband", policy, policy)
        counts = game.building.counts(m, 0)
        counts["medic"] -= 1
        counts["field-surgeon"] = 1
        m = game.building.with_counts(m, 0, counts, "grey-expedition-surgeon")
        rec = game.run_batch(m, 80, 5, 0, 80)
        assert rec.same_as(game.reference_batch(m, 80, 5, 0, 80))
        surgeon = m.pool.ids.index("field-surgeon")
        used = sum(int(r[3]) == surgeon and r[2] == S.EV_MANEUVER
                   for i in range(80) for r in rec.log[i, : rec.log_n[i]])
        assert used > 0, policy
        table = m.pool.table.copy()
        table[surgeon, K.C_STEP] = K.S_BOOST
        boost = replace(m, pool=m.pool.with_table(table))
        assert not rec.same_as(game.run_batch(boost, 80, 5, 0, 80))
