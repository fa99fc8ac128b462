"""Escaping an encounter, from the rulebook: intelligence "influences how easily he or she can
complete quests, and also how quickly he or she can escape or win an encounter." The keyword
Escape n (encounter step, the active player): the PC escapes a striker still to fight whose
printed intelligence is at least n under the PC's now; the striker is discarded before it
fights. Smoke Bomb: an instant, cost 1, Escape 1. Each state is built in both engines."""

from pathlib import Path

import pytest

from sim.encounter import codes as K
from sim.encounter import windows as Wi

from .test_encounter_decisions import twin
from .test_encounter_scenarios import Both

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"


def encounter_window(b):
    b.step(lambda C: twin(Wi.window)(C, K.S_ENCOUNTER), lambda g: g.window(K.S_ENCOUNTER))


@pytest.mark.rule("ENC-9", "ENC-23", "ENC-76", "ENC-106")
def test_the_pc_escapes_a_striker_of_lower_intelligence():
    """The Orc's PC has intelligence 2. Against Goblin (intelligence 0), Drone (1) and
    Cultist (2), Smoke Bomb may discard Goblin or Drone (at least 1 under 2), not Cultist;
    careful's Cancel habit takes the strongest of them, Drone (5 against Goblin's 4). The
    bomb is paid (1 of 3) and discarded; Goblin and Cultist still fight."""
    b = Both()
    b.strikers("Goblin", "Drone", "Cultist")
    b.hand(0, "Smoke Bomb")
    b.pool(0, 3)
    encounter_window(b)
    hand, pile, _, pool = b.same(0)
    assert hand == [] and pile == ["Smoke Bomb"] and pool == 2
    assert b.striker_states() == [0, 2, 0]


@pytest.mark.parametrize("strikers", [("Cultist",), ("Cultist", "Politician")])
@pytest.mark.rule("ENC-9")
def test_no_escape_from_a_striker_as_smart_as_the_pc(strikers):
    """Cultist (2) and Politician (4) are not under the Orc's intelligence 2: nothing to
    escape, so the bomb is not played."""
    b = Both()
    b.strikers(*strikers)
    b.hand(0, "Smoke Bomb")
    b.pool(0, 3)
    encounter_window(b)
    assert b.same(0)[0] == ["Smoke Bomb"]
    assert b.striker_states() == [0] * len(strikers)


@pytest.mark.parametrize("policy", ["careful", "random"])
def test_the_engines_agree_and_escape_changes_the_records(policy):
    """Grey Expedition (its PC's intelligence 6 + Keen Mind 1) with two Smoke Bombs for its
    two Banishes, against Orc Warband: both engines play the same matches, the bombs are
    played, and as a Cancel 1 instead the records differ."""
    from sim.encounter import state as S

    from .encounter_swap import agree_and_matter, swapped

    m = swapped("grey-expedition", "orc-warband", policy, 0, {"banish": -2, "smoke-bomb": 2})
    rec = agree_and_matter(m, "smoke-bomb", {K.C_AB1: K.CANCEL}, 120)
    assert rec.card_stats[0, m.pool.ids.index("smoke-bomb"), S.ST_PLAYED] > 0
