"""Responses, from the rulebook: "Each instant action states when it can be played (sometimes
only as a response to another event)". Step `response`: played by the active player only in
response to a strike NPC just played against its quest. Quick Retort: an instant, cost 1,
step response, Cancel 3. Each state is built in both engines."""

from pathlib import Path

import pytest

from sim.encounter import codes as K
from sim.encounter import turn as Tu

from .test_encounter_decisions import card, twin
from .test_encounter_scenarios import Both

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"


def quest_step(b):
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())


@pytest.mark.parametrize("grey, sent, answered", [
    (["Troll"], ["Troll"], ["Troll"]),
    (["Dragon"], ["Dragon"], []),
    (["Mind Fog"], [], [])])
def test_a_response_answers_a_strike_npc_played_against_the_quest(grey, sent, answered):
    """The Orc (careful, pool 3) plays Warband Muster (quest cost 4) holding Quick Retort.
    Grey (careful) answers with what it holds. A Troll (strike cost 3) sent is discarded at
    once in response (Cancel 3); a Dragon (strike cost 4) is beyond the Retort, which stays
    in hand; a strike action (Mind Fog) is no strike NPC, so no response is made."""
    b = Both()
    b.party(0, "Orc Grunt", "Orc Grunt")
    b.hand(0, "Warband Muster", "Quick Retort")
    b.pool(0, 3)
    b.hand(1, *grey)
    quest_step(b)
    hand = b.same(0)[0]
    states = b.striker_states()
    assert [b.g.cards[s.card.id].id for s in b.g.strikers] == [card(n) for n in sent]
    assert states == [2 if n in answered else 0 for n in sent]
    assert hand == ([] if answered else ["Quick Retort"])


@pytest.mark.parametrize("policy", ["careful", "random"])
def test_the_engines_agree_and_responses_change_the_records(policy):
    """Grey Expedition with two Quick Retorts for its two Banishes, against Orc Warband:
    both engines play the same matches, the Retorts are played, and as an encounter-step
    Cancel 3 instead the records differ."""
    from dataclasses import replace

    from sim.encounter import state as S
    from sim.encounter.batch import load_matchup
    from sim.kit.game import get

    game = get("encounter")
    m = load_matchup(FOLDER, "grey-expedition", "orc-warband", policy, policy)
    counts = game.building.counts(m, 0)
    counts["banish"] -= 2
    counts["quick-retort"] = 2
    m = game.building.with_counts(m, 0, counts, "grey-expedition-retort")
    rec = game.run_batch(m, 120, 5, 0, 2)
    assert rec.same_as(game.reference_batch(m, 120, 5, 0, 2))
    retort = m.pool.ids.index("quick-retort")
    assert rec.card_stats[0, retort, S.ST_PLAYED] > 0
    table = m.pool.table.copy()
    table[retort, K.C_STEP] = K.S_ENCOUNTER
    later = replace(m, pool=m.pool.with_table(table))
    assert not rec.same_as(game.run_batch(later, 120, 5, 0, 2))
