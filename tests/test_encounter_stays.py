"""Encounter strike cards that play to a character (stays = character), from the rulebook's
"Some strike cards play to characters or your bulwark": the opponent's card goes on the
active player's character its policy picks, its stats count there while it stays, and it
leaves with that character to its owner's discard pile. Both engines play each scenario."""

from dataclasses import replace
from pathlib import Path

import pytest

from sim.encounter import codes as K
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter import wounds as Wo
from sim.kit.game import get

from .test_encounter_decisions import card, twin
from .test_encounter_scenarios import Both

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
GAME = get("encounter")


def quest_with_hamstring(stays_on, squire_str=2):
    """The Orc (A: strength 6 + Brawny 1 = 7) with a Squire plays Warband Muster (quest
    cost 4); Grey holds Hamstring (strike action, cost 1, strength -1, stays = character)."""
    b = Both(({}, {"stays_on": stays_on}), rules={"quest_mandatory": True})
    T = b.C[0].copy()  # the shared card table is read-only
    T[card("Squire"), K.C_STR] = squire_str
    b.C = (T, *b.C[1:])
    b.g.cards[card("Squire")].stats["str"] = squire_str
    b.party(0, "Squire")
    b.hand(0, "Warband Muster")
    b.hand(1, "Hamstring")
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())
    return b


def strength(b, who):
    ch = b.g.seats[0].pc if who < 0 else b.g.seats[0].party[who]
    kernel = int(twin(Ru.stat)(b.C, 0, who, K.C_STR))
    assert kernel == b.g.stat(b.g.seats[0], ch, "str")
    return kernel


@pytest.mark.rule("ENC-69", "ENC-105")
def test_the_card_goes_on_the_active_pc_and_lowers_its_strength():
    b = quest_with_hamstring("pc")
    ham = card("Hamstring")
    assert b.same(1)[:2] == ([], [])  # not in Grey's hand, not discarded
    assert list(b.P[0, S.ATT: S.ATT + b.P[0, S.ATT_N]]) == [ham]
    assert [(c.id, bearer.is_pc, owner.index) for c, bearer, owner in b.g.seats[0].borne] == [
        (ham, True, 1)]
    assert strength(b, -1) == 6 and strength(b, 0) == 2  # 7 - 1; the Squire untouched
    stays = [tuple(r[1:]) for r in b.C[8][: b.G[S.LOG_N]] if r[2] == S.EV_STAY]
    assert stays == [(1, S.EV_STAY, ham, K.STAY_CHARACTER, -1)]
    assert stays == [r[1:] for r in b.g.log if r[2] == S.EV_STAY]


@pytest.mark.rule("ENC-16", "ENC-105")
def test_it_leaves_with_the_character_to_its_owners_discard_pile():
    """strongest: a Squire of strength 9 (edited) is stronger than the PC (7): Hamstring goes
    on it (9 - 1 = 8); one wound kills the Squire (toughness 1): the Squire goes to the Orc's
    discard pile, Hamstring to Grey's, and the PC's strength is 7."""
    b = quest_with_hamstring("strongest", squire_str=9)
    assert strength(b, 0) == 8 and strength(b, -1) == 7
    b.step(lambda C: twin(Wo.wound)(C, 0, 0, 1),
           lambda g: g.wound(g.seats[0], g.seats[0].party[0], 1))
    assert b.same(0)[1:3] == (["Squire"], [])
    assert b.same(1)[1] == ["Hamstring"]
    assert b.P[0, S.ATT_N] == 0 and b.g.seats[0].borne == []
    assert strength(b, -1) == 7


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("pair, word", [(("random", "random"), "random"),
                                        (("careful", "careful"), "strongest"),
                                        (("aggressive", "careful"), "pc"),
                                        (("trained", "aggressive"), "pc")])
@pytest.mark.rule("ENC-69")
def test_the_engines_agree_and_the_card_changes_the_records(players, pair, word):
    """Grey Expedition against Orc Raiders (Hamstring, War Camp, War Shaman; 3 players: a
    second Orc Raiders): both engines play the same matches; Hamstring is played; and with
    its strength -1 made 0 the records differ."""
    from sim.encounter.params import PARAMS
    m = GAME.load_matchup(FOLDER, "grey-expedition", "orc-raiders", *pair,
                          {"players": players}, [], table=("orc-raiders",))
    slot, words = PARAMS["stays_on"][:2]
    pols = [v.copy() for v in m.policies]
    for v in pols[1:]:
        v[slot] = words.index(word)
    m = replace(m, policies=tuple(pols))
    kernel = GAME.run_batch(m, 30, 9, 0, 2)
    assert kernel.same_as(GAME.reference_batch(m, 30, 9, 0, 2))
    ham = m.pool.ids.index("hamstring")
    assert kernel.card_stats[1:, ham, S.ST_PLAYED].sum() > 0
    table = m.pool.table.copy()
    table[ham, K.C_STR] = 0
    inert = replace(m, pool=m.pool.with_table(table))
    assert not kernel.same_as(GAME.run_batch(inert, 30, 9, 0, 2))  # combat strengths logged


def test_ability_cost_is_a_value_edit_of_cards_with_an_ability():
    m = GAME.load_matchup(FOLDER, "orc-raiders", "grey-expedition", "careful", "careful",
                          {}, [])
    names = {v.item for v in GAME.value_edits(m, None)}
    assert {"War Shaman ability_cost +1", "Medic ability_cost +1"} <= names
    assert "Goblin ability_cost +1" not in names and "Hamstring ability_cost +1" not in names


def test_a_named_card_in_neither_deck_has_no_value_edit():
    """Elf (a PC) is in neither deck of the sample matchup: a change of its numbers could
    move no match, so it has no +1 to measure (sensitivity then says nothing was measured,
    as for the other games), where it had three measured at a delta of exactly 0."""
    m = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful", "careful",
                          {}, [])
    assert GAME.value_edits(m, ["elf"]) == []
    assert {v.item for v in GAME.value_edits(m, ["elf", "orc"])} >= {"Orc str +1"}
