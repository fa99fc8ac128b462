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
@pytest.mark.rule("ENC-22", "ENC-53", "ENC-70")
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
@pytest.mark.rule("ENC-53")
def test_the_engines_agree_and_responses_change_the_records(policy):
    """Grey Expedition with two Quick Retorts for its two Banishes, against Orc Warband:
    both engines play the same matches, the Retorts are played, and as an encounter-step
    Cancel 3 instead the records differ."""
    from sim.encounter import state as S

    from .encounter_swap import agree_and_matter, swapped

    m = swapped("grey-expedition", "orc-warband", policy, 0,
                {"banish": -2, "quick-retort": 2})
    rec = agree_and_matter(m, "quick-retort", {K.C_STEP: K.S_ENCOUNTER}, 120)
    assert rec.card_stats[0, m.pool.ids.index("quick-retort"), S.ST_PLAYED] > 0
