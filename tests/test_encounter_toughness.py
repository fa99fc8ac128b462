"""Encounter: toughness that a card entering or leaving play changes, not a wound. The
rulebook kills a character whose toughness is reduced to 0 whatever reduced it, and
RULES-encounter.md adds a bulwark's and a location's numbers, toughness among them, to each
party character. Each state is built by hand in both engines; the numbers are worked out
from the sentences and cards.csv (a card's stat edited where the sample pool has no card
with it)."""

from __future__ import annotations

import pytest

from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import state as S
from sim.encounter import stats as St

from .encounter_both import edited_stat, stat
from .test_encounter_decisions import card, twin
from .test_encounter_index_steps import questing, score
from .test_encounter_scenarios import Both

rule = pytest.mark.rule


def play(b, p=0, i=0):
    """Seat p plays hand position i at its boost step, in both engines."""
    b.step(lambda C: twin(Ef.play_from_hand)(C, p, i),
           lambda g: g.play_boost_card(g.seats[p], i))


@rule("ENC-12", "ENC-15")
@pytest.mark.parametrize("wounds, killed", [(2, False), (3, True)])
def test_a_characteristic_that_lowers_toughness_to_the_wounds_kills(wounds, killed):
    """"When a character's toughness is reduced to 0, that character is immediately killed.
    If your PC is killed, you automatically lose the game." The Orc PC has toughness 4 +
    Thick Hide 1 = 5. Iron Will, made a trade of toughness -2, reduces it to 3: with 3
    wounds none is left and the PC is killed as the card is played, the Orc losing (Grey
    wins, end pc_killed); with 2 wounds one is left and the match goes on."""
    b = Both(pc_wounds=wounds)
    edited_stat(b, "Iron Will", K.C_TOUGH, -2)
    b.hand(0, "Iron Will")
    assert stat(b, 0, -1, K.C_TOUGH, "tough") == 5
    play(b)
    assert stat(b, 0, -1, K.C_TOUGH, "tough") == 3
    assert b.end() == ((True, (1, K.END_KILLED)) if killed else (False, None))


@rule("ENC-12", "ENC-16")
def test_a_character_action_that_lowers_toughness_to_the_wounds_kills_its_bearer():
    """"If one of your NPCs are killed, place it (and any cards it bears) in the discard
    pile." Plate Armor, made toughness -1, goes on Hired Blade (toughness 2, 1 wound): 2 - 1
    = 1 toughness, all of it wounded, so the NPC is killed at once and goes to the discard
    pile, then the armour it bears; the PC and the match go on."""
    b = Both(party=(("Hired Blade", 1),))
    edited_stat(b, "Plate Armor", K.C_TOUGH, -1)
    b.hand(0, "Plate Armor")
    b.pool(0, 3)
    play(b)
    hand, pile, party, pool = b.same(0)
    assert party == [] and pile == ["Hired Blade", "Plate Armor"] and pool == 1
    assert b.end() == (False, None)


@rule("ENC-51", "ENC-56")
def test_a_bulwark_and_a_location_add_their_toughness_to_each_party_character():
    """RULES-encounter.md: a bulwark action's and a location's dex/int/str/tough are "added
    to each party character". Battle Banner and Badlands, each made toughness +1, in play:
    the Orc PC's toughness 5 becomes 7, Hired Blade's 2 becomes 4."""
    b = Both(party=(("Hired Blade", 0),))
    edited_stat(b, "Battle Banner", K.C_TOUGH, 1)
    edited_stat(b, "Badlands", K.C_TOUGH, 1)
    b.hand(0, "Battle Banner", "Badlands")
    b.pool(0, 3)
    play(b)
    play(b)
    assert b.same(0)[0] == [] and int(b.P[0, S.BULW_N]) == 1 and int(b.P[0, S.LOC]) >= 0
    assert stat(b, 0, -1, K.C_TOUGH, "tough") == 7
    assert stat(b, 0, 0, K.C_TOUGH, "tough") == 4


@rule("ENC-15", "ENC-58")
@pytest.mark.parametrize("pc_wounds, end, party", [
    (4, (False, None), []),  # the PC keeps 1; Hired Blade, 2 of 2 wounded, is killed
    (5, (True, (1, K.END_KILLED)), [("Hired Blade", 2)])])  # the PC first: the Orc loses
def test_a_location_that_leaves_play_takes_its_toughness_and_may_kill(pc_wounds, end,
                                                                      party):
    """"If you already have a location in play, you must discard it in order to play a new
    location from your hand." Badlands, made toughness +1, is in play: the Orc PC has
    toughness 6, Hired Blade 3 (2 wounds). Rome Arena replaces it: the PC's toughness is 5,
    Hired Blade's 2, and a character with no toughness left is killed at once ("When a
    character's toughness is reduced to 0, that character is immediately killed"), the PC
    first, which ends the match."""
    b = Both(party=(("Hired Blade", 2),), pc_wounds=pc_wounds)
    edited_stat(b, "Badlands", K.C_TOUGH, 1)
    twin(St.place_location)(b.C[0], b.P, 0, card("Badlands"))
    b.g.seats[0].location = b.g.cards[card("Badlands")]
    assert stat(b, 0, -1, K.C_TOUGH, "tough") == 6
    assert stat(b, 0, 0, K.C_TOUGH, "tough") == 3
    b.hand(0, "Rome Arena")
    play(b)
    hand, pile, kept, _ = b.same(0)
    assert kept == party and b.end() == end
    assert pile == (["Badlands"] if party else ["Badlands", "Hired Blade"])


@rule("ENC-7", "ENC-15", "ENC-90")
def test_a_loot_card_that_lowers_toughness_to_the_wounds_kills_the_pc():
    """Loot attaches to the PC and adds to its numbers. Arena Champion completed (STR 7 and
    one combat won; 5 points, 2 loot points) reveals Chain Mail, made toughness -2, and Iron
    Sword. The Orc PC (toughness 5, 3 wounds) plays Chain Mail: toughness 3, none left, so
    it is killed at once and the Orc loses; Iron Sword, not played, goes under the loot
    deck."""
    b = questing("Arena Champion", wins=1, loot=("Chain Mail", "Iron Sword"), pc_wounds=3)
    edited_stat(b, "Chain Mail", K.C_TOUGH, -2)
    points, wounds, _, loot, played = score(b)
    assert (points, wounds, loot, played) == (5, 3, ["Iron Sword"], ["Chain Mail"])
    assert b.end() == (True, (1, K.END_KILLED))
