"""Encounter's rulebook sentences (docs/encounter-rules.md, "Rule index") of set-up, the
cards in play, maneuvers and the draw step that no other test pins, each played by both
engines from one hand-built state; the expected numbers are worked out from the sentence
and cards.csv."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.jit import pure
from sim.core.rng import py_stream_key
from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import engine as E
from sim.encounter import state as S
from sim.encounter import stats as St
from sim.encounter import targets as Ta
from sim.encounter import turn as Tu
from sim.encounter.reference import Table
from sim.encounter.reference_turn import Encounter

from .encounter_both import edited, ring, rows, stat, window, zone
from .test_encounter_decisions import (
    BASE,
    POLICY_STREAM,
    build,
    card,
    name,
    party_name,
    random_picks,
    ref_name,
    twin,
)
from .test_encounter_scenarios import Both, boost

rule = pytest.mark.rule


# -- Setting up the game --------------------------------------------------------------------
def set_up_both(seed):
    """Set-up of the sample matchup (Orc Warband against Grey Expedition, careful) in both
    engines on the streams of (seed, match 0)."""
    T, R, M, D, _ = BASE.arrays()
    P, G, X, KY, OP = E.new_work(T.shape[0], 2)
    pure(E.reset)(P, G, X)
    KY[:] = np.array([py_stream_key(seed, 0, s) for s in range(S.N_PURPOSES * 2)],
                     dtype=np.uint64)
    cs = np.zeros((2, T.shape[0], S.N_CARD_STATS), np.int64)
    L = np.zeros((500, S.LOG_COLS), np.int32)
    C = (T, R, P, G, X, cs, KY, M, L, OP)
    twin(E.set_up)(C, D)
    t = Table(BASE)
    g = Encounter(t.cards, t.rules, t.styles, seed, 0, 500)
    g.set_up(BASE.decks)
    return C, g


@rule("ENC-4", "ENC-29", "ENC-30", "ENC-32", "ENC-33", "ENC-34")
def test_set_up_reveals_two_characteristics_shuffles_both_decks_and_draws_eight():
    """Each player's PC has its 2 characteristics; the 40-card draw deck is shuffled and 8
    drawn (32 left); the 20 loot cards are shuffled into the loot deck; the PC of highest
    intelligence (Grey 6 + Keen Mind 1 = 7 against the Orc's 2 + 0) chooses who goes first
    (careful: itself). A cut changes nothing: the order is the shuffle's."""
    hands = set()
    for seed in (3, 4):
        C, g = set_up_both(seed)
        P = C[2]
        for p, deck in enumerate(BASE.decks):
            seat = g.seats[p]
            assert len(deck.chars) == 2 and len(deck.draw) == 40 and len(deck.loot) == 20
            chars = [int(c) for c in P[p, S.CHARS: S.CHARS + P[p, S.CHAR_N]]]
            assert chars == [c.id for c in seat.characteristics] == list(deck.chars)
            hand = [int(c) for c in P[p, S.HAND: S.HAND + P[p, S.HAND_N]]]
            drawn = ring(P, p, S.DECK, S.DECK_HEAD, S.DECK_N)
            assert hand == [c.id for c in seat.hand] and len(hand) == 8
            assert drawn == [c.id for c in seat.deck] and len(drawn) == 32
            assert sorted(hand + drawn) == sorted(deck.draw)  # the rest form the draw deck
            assert hand + drawn != list(deck.draw)  # shuffled
            loot = ring(P, p, S.LOOTD, S.LOOT_HEAD, S.LOOT_N)
            assert loot == [c.id for c in seat.loot] and sorted(loot) == sorted(deck.loot)
            assert loot != list(deck.loot)
            hands.add((p, tuple(hand)))
        first = [tuple(int(x) for x in r[1:]) for r in C[8][: C[3][S.LOG_N]]
                 if r[2] == S.EV_FIRST]
        assert first == [r[1:] for r in g.log if r[2] == S.EV_FIRST]
        assert first == [(1, S.EV_FIRST, -1, 1, 2 * 100 + 7)]  # Grey chooses, goes first
    assert len(hands) == 4  # another seed, other hands


# -- NPCs, characteristics, locations, actions -----------------------------------------------
@rule("ENC-2", "ENC-42", "ENC-44", "ENC-47")
def test_a_party_npc_joins_the_party_a_support_npc_adds_to_the_pc():
    """The Orc plays Orc Grunt (party NPC, cost 1, strength 3) and Trainer (support NPC,
    cost 1, strength +1) at its boost step: the Grunt joins the party, the Trainer stands
    behind the PC and adds its strength to the PC only (6 + Brawny 1 + 1 = 8; the Grunt 3)."""
    b = Both()
    b.hand(0, "Orc Grunt", "Trainer")
    b.pool(0, 3)
    boost(b)
    hand, _, party, pool = b.same(0)
    assert hand == [] and party == [("Orc Grunt", 0)] and pool == 1
    assert zone(b, 0, S.SUP, S.SUP_N, b.g.seats[0].supports) == ["Trainer"]
    assert stat(b, 0, -1, K.C_STR, "str") == 8 and stat(b, 0, 0, K.C_STR, "str") == 3


@rule("ENC-2", "ENC-13", "ENC-77", "ENC-101")
def test_a_support_npc_neither_defends_nor_takes_wounds():
    """"Only characters with toughness can be wounded": Trainer (support, no toughness) is
    never a defender nor the target of B's Wound; the PC and the party NPC are. A random
    defender and a random Wound target, over positions of the policy stream."""
    defenders = set()
    for counter in range(12):
        b = Both(({"style": "random"}, {}))
        b.party(0, "Orc Grunt", "Trainer")
        b.strikers("Goblin")
        b.G[S.CTR + POLICY_STREAM] = b.g.counters[POLICY_STREAM] = counter
        b.step(twin(Tu.encounter_step), lambda g: g.encounter_step())
        (fight,) = rows(b, S.EV_COMBAT)
        defenders.add(name(fight[3] // 1000))
    assert defenders == {"Orc", "Orc Grunt"}

    def kernel(C):
        return party_name(C, 0, twin(Ta.party_target)(C, 1, 0))

    def reference(g):
        return ref_name(g.player(g.seats[1]).wound_party(g.seats[0]))

    C, g = build(({}, {"wound_party": "random"}), party=(("Orc Grunt", 0),))
    pure(Ef.enter_npc)(C, 0, card("Trainer"))
    g.enter_npc(g.seats[0], g.cards[card("Trainer")])
    assert random_picks(C, g, 1, kernel, reference) == {"PC", "Orc Grunt"}


@rule("ENC-5", "ENC-44", "ENC-46", "ENC-49")
def test_characteristics_without_limit_each_paid():
    """Pool 3; in hand Brawny (cost 0, +1 strength), Giant Blood (2, +2), Veteran (2, +1
    strength +1 toughness), Keen Mind (0, +1 intelligence), Nimble (0, +1 dexterity). careful
    plays Brawny, Giant Blood (pool 1), Keen Mind and Nimble: six characteristics under the
    PC (strength 6 + 1 + 1 + 2 = 10, intelligence 3, dexterity 3); Veteran's cost cannot be
    paid, so it stays in hand."""
    b = Both()
    b.hand(0, "Brawny", "Giant Blood", "Veteran", "Keen Mind", "Nimble")
    b.pool(0, 3)
    boost(b)
    hand, _, _, pool = b.same(0)
    assert hand == ["Veteran"] and pool == 1
    assert zone(b, 0, S.CHARS, S.CHAR_N, b.g.seats[0].characteristics) == [
        "Brawny", "Thick Hide", "Brawny", "Giant Blood", "Keen Mind", "Nimble"]
    assert stat(b, 0, -1, K.C_STR, "str") == 10
    assert stat(b, 0, -1, K.C_INT, "int") == 3 and stat(b, 0, -1, K.C_DEX, "dex") == 3


@rule("ENC-6", "ENC-44", "ENC-55", "ENC-56", "ENC-57", "ENC-58", "ENC-96")
def test_one_location_a_turn_replacing_the_one_in_play_for_no_cost():
    """Badlands (intelligence -1, strength +1) is in play: the Orc PC has strength 8 and
    intelligence 1. In hand Rome Arena (+1 strength) and Starship Deck (+1 dexterity, +1
    strength): careful plays Starship Deck (it gains more over Badlands), Badlands goes to
    the discard pile, nothing is paid; Rome Arena may not follow this turn, one location a
    turn and one in play."""
    b = Both()
    pure(St.place_location)(b.C[0], b.P, 0, card("Badlands"))
    b.g.seats[0].location = b.g.cards[card("Badlands")]
    assert stat(b, 0, -1, K.C_STR, "str") == 8 and stat(b, 0, -1, K.C_INT, "int") == 1
    b.hand(0, "Rome Arena", "Starship Deck")
    b.pool(0, 3)
    boost(b)
    hand, pile, _, pool = b.same(0)
    assert hand == ["Rome Arena"] and pile == ["Badlands"] and pool == 3
    loc = b.g.seats[0].location
    assert name(b.P[0, S.LOC]) == name(loc.id) == "Starship Deck"
    assert stat(b, 0, -1, K.C_STR, "str") == 8 and stat(b, 0, -1, K.C_INT, "int") == 2
    assert stat(b, 0, -1, K.C_DEX, "dex") == 3


@rule("ENC-55", "ENC-56", "ENC-96")
def test_a_second_location_waits_for_the_next_turn():
    """"Once per turn, you may play a location.": careful plays Rome Arena (+1 strength)
    into an empty location slot; Starship Deck (+1 dexterity, +1 strength, which it would
    rather have) reaches the hand in the same turn and waits: the boost step offered again
    plays nothing. The location's +1 reaches the party too: a Tracker (strength 2) has 3."""
    b = Both()
    b.party(0, "Tracker")
    b.hand(0, "Rome Arena")
    b.pool(0, 3)
    boost(b)
    assert name(b.P[0, S.LOC]) == name(b.g.seats[0].location.id) == "Rome Arena"
    assert stat(b, 0, 0, K.C_STR, "str") == 3
    b.hand(0, "Starship Deck")
    boost(b)
    hand, _, _, _ = b.same(0)
    assert hand == ["Starship Deck"]
    assert name(b.P[0, S.LOC]) == name(b.g.seats[0].location.id) == "Rome Arena"


@rule("ENC-3", "ENC-21", "ENC-42", "ENC-44", "ENC-45", "ENC-46", "ENC-50", "ENC-51", "ENC-52",
      "ENC-53", "ENC-54")
@pytest.mark.parametrize("pool", [4, 2])
def test_the_three_kinds_of_action(pool):
    """With Orc Grunt in the party, in hand Battle Banner (bulwark, cost 2, +1 strength),
    Sharp Blade (character, cost 1, +1 strength) and Insight (instant, boost, cost 1, Draw
    2). Pool 4: the Banner stays in the bulwark and reaches each party character, the Blade
    stays on its character (careful: the PC), Insight resolves (2 drawn) and is discarded:
    PC 6 + 1 + 1 + 1 = 9, Grunt 3 + 1 = 4. Pool 2: the Banner only; the others' cost cannot
    be paid."""
    b = Both()
    b.party(0, "Orc Grunt")
    b.hand(0, "Battle Banner", "Sharp Blade", "Insight")
    b.deck(0, "Goblin", "Goblin", "Goblin")
    b.pool(0, pool)
    boost(b)
    hand, pile, _, left = b.same(0)
    seat = b.g.seats[0]
    assert zone(b, 0, S.BULW, S.BULW_N, seat.bulwark) == ["Battle Banner"] and left == 0
    if pool == 4:
        assert hand == ["Goblin", "Goblin"] and pile == ["Insight"]
        assert zone(b, 0, S.ATT, S.ATT_N, [c for c, _ in seat.gear]) == ["Sharp Blade"]
        assert int(b.P[0, S.ATT_ON]) == -1 and seat.gear[0][1] is seat.pc
        assert stat(b, 0, -1, K.C_STR, "str") == 9 and stat(b, 0, 0, K.C_STR, "str") == 4
    else:
        assert hand == ["Sharp Blade", "Insight"] and pile == [] and seat.gear == []
        assert stat(b, 0, -1, K.C_STR, "str") == 8 and stat(b, 0, 0, K.C_STR, "str") == 4


@rule("ENC-43")
def test_only_the_active_player_boosts():
    """Both players hold Hired Blade (party NPC, cost 2) with a pool of 3: at the Orc's
    boost step the Orc plays it; Grey, not the active player, does not."""
    b = Both()
    for p in (0, 1):
        b.hand(p, "Hired Blade")
        b.pool(p, 3)
    boost(b)
    assert b.same(0) == ([], [], [("Hired Blade", 0)], 1)
    assert b.same(1) == (["Hired Blade"], [], [], 3)


# -- Maneuvers --------------------------------------------------------------------------------
@rule("ENC-18", "ENC-22", "ENC-23", "ENC-76")
def test_an_instant_is_played_only_in_the_step_its_maneuver_names():
    """The Orc holds Sniper Shot (encounter, Wound 1) and Berserk (combat, Might 1), pool 3,
    and Troll (toughness 3) strikes. Neither is played at the boost step nor in the quest
    or score window; in the encounter window Sniper Shot is played, once for its one copy
    (one maneuver, one wound on the Troll), and discarded; Berserk waits for a combat."""
    b = Both()
    b.strikers("Troll")
    b.hand(0, "Sniper Shot", "Berserk")
    b.pool(0, 3)
    boost(b)
    for step in (K.S_QUEST, K.S_SCORE):
        window(b, step)
    assert b.same(0) == (["Sniper Shot", "Berserk"], [], [], 3)
    window(b, K.S_ENCOUNTER)
    assert b.same(0) == (["Berserk"], ["Sniper Shot"], [], 2)
    assert [r[:3] for r in rows(b, S.EV_MANEUVER)] == [(0, S.EV_MANEUVER, "Sniper Shot")]
    assert int(b.G[S.SWOUND]) == b.g.strikers[0].wounds == 1


@rule("ENC-19", "ENC-24", "ENC-78")
def test_might_lasts_its_combat_only():
    """The Orc PC (strength 7, intelligence 2) holds one Berserk (Might 1) and meets Dragon
    (7, intelligence 2: the tie is the striker's) and Goblin (4). careful Grey sends the
    Dragon first; the Orc plays Berserk in that combat, 8 against 7, and wins; the Might
    ends with the combat: against the Goblin the PC fights at 7."""
    b = Both()
    b.hand(0, "Berserk")
    b.strikers("Dragon", "Goblin")
    b.step(twin(Tu.encounter_step), lambda g: g.encounter_step())
    fights = [(c, x % 1000, y // 1000) for _, _, c, x, y in rows(b, S.EV_COMBAT)]
    assert fights == [("Dragon", 8, 1), ("Goblin", 7, 1)]
    assert b.same(0)[:2] == ([], ["Berserk"])


@rule("ENC-24", "ENC-66", "ENC-69")
def test_a_discarded_strike_action_weakens_the_party_for_the_turn():
    """Grey answers Warband Muster (quest cost 4) with Goblin (strike cost 1) and Pitfall
    (strike action, cost 1, Ambush 1). Pitfall is discarded at once, yet its effect lasts
    the turn: the Orc PC fights the Goblin at 7 - 1 = 6; once the turn ends it has 7."""
    b = Both(rules={"quest_mandatory": True})
    b.hand(0, "Warband Muster")
    b.hand(1, "Pitfall", "Goblin")
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())
    assert b.same(1)[:2] == ([], ["Pitfall"])
    assert stat(b, 0, -1, K.C_STR, "str") == 6
    b.step(twin(Tu.encounter_step), lambda g: g.encounter_step())
    assert [(c, x % 1000) for _, _, c, x, _ in rows(b, S.EV_COMBAT)] == [("Goblin", 6)]
    b.step(twin(Tu.end_turn), lambda g: g.end_turn())
    assert stat(b, 0, -1, K.C_STR, "str") == 7


@rule("ENC-19", "ENC-24")
def test_hex_is_the_pcs_ambush_the_partys_and_wards_end_with_the_turn():
    """The strike actions' cards: "Hex n: A's PC -n intelligence and dexterity this turn",
    "Ambush n: A's party characters -n strength this turn"; a Ward prevents wounds "this
    turn". With Hex 1 and Ambush 1 on the Orc's turn, a party Tracker (dex 1, int 1, str 2)
    keeps its intelligence and dexterity and loses 1 strength; the PC loses 1 of each. Once
    the turn ends every figure is back and no ward is left, in both engines."""
    b = Both()
    b.party(0, "Tracker")
    cols = ((K.C_STR, "str"), (K.C_INT, "int"), (K.C_DEX, "dex"))
    before = {who: [stat(b, 0, who, c, f) for c, f in cols] for who in (-1, 0)}
    b.G[S.HEX], b.g.hex = 1, 1
    b.G[S.AMBUSH], b.g.ambush = 1, 1
    b.P[0, S.PC_WARD], b.g.seats[0].pc.ward = 2, 2
    b.P[0, S.PWARD], b.g.seats[0].party[0].ward = 1, 1
    assert [stat(b, 0, 0, c, f) for c, f in cols] == [2 - 1, 1, 1]
    assert [stat(b, 0, -1, c, f) for c, f in cols] == [max(v - 1, 0) for v in before[-1]]
    b.step(twin(Tu.end_turn), lambda g: g.end_turn())
    assert {who: [stat(b, 0, who, c, f) for c, f in cols] for who in (-1, 0)} == before
    assert (b.P[0, S.PC_WARD], b.P[0, S.PWARD]) == (0, 0)
    assert (b.g.seats[0].pc.ward, b.g.seats[0].party[0].ward) == (0, 0)


# -- The draw step ---------------------------------------------------------------------------
def deck_size(b, p):
    kernel = int(b.P[p, S.DECK_N])
    assert kernel == len(b.g.seats[p].deck)
    return kernel


@rule("ENC-39", "ENC-40")
@pytest.mark.parametrize("held", [3, 8])
def test_the_draw_step_draws_to_exactly_eight(held):
    b = Both()
    b.hand(0, *["Squire"] * held)
    b.deck(0, *["Goblin"] * 10)
    b.step(twin(Tu.draw_step), lambda g: g.draw_step())
    assert len(b.same(0)[0]) == 8 and deck_size(b, 0) == 10 - (8 - held)


HAND_OF_TEN = ("Squire", "Psionic", "Raid the Caravan", "Goblin", "Troll", "Elven Grace",
               "Squire", "Squire", "Squire", "Warband Muster")


@rule("ENC-40", "ENC-95")
@pytest.mark.parametrize("style", ["careful", "random"])
def test_a_hand_over_eight_is_discarded_down_to_eight(style):
    """The Orc holds ten cards: two are discarded, none drawn. careful keeps quests (3)
    over other cards (2) over cards for another race (0), discarding the last of the
    lowest: Elven Grace (elf), then Psionic (grey). random: any two."""
    kept = set()
    for counter in range(8 if style == "random" else 1):
        b = Both(({"style": style}, {}))
        b.hand(0, *HAND_OF_TEN)
        b.deck(0, "Goblin")
        b.G[S.CTR + POLICY_STREAM] = b.g.counters[POLICY_STREAM] = counter
        b.step(twin(Tu.draw_step), lambda g: g.draw_step())
        hand, pile, _, _ = b.same(0)
        assert len(hand) == 8 and len(pile) == 2 and deck_size(b, 0) == 1
        assert sorted(hand + pile) == sorted(HAND_OF_TEN)
        assert [c for _, _, c, _, _ in rows(b, S.EV_DISCARD)] == pile
        kept.add(tuple(pile))
    if style == "careful":
        assert kept == {("Elven Grace", "Psionic")}
    else:
        assert len(kept) > 2


@rule("ENC-39", "ENC-41")
def test_a_draw_step_card_is_played_before_the_hand_is_replenished():
    """Insight (Draw 2, cost 1) made a draw-step instant; the Orc (random) holds it and two
    Squires, ten cards in its deck. When it plays Insight in the draw step's window it
    draws 2 (hand 4), then replenishes to 8: six drawn, Insight in the pile. Replenished
    first, the hand would end at 9. When it passes, five are drawn."""
    played = set()
    for counter in range(10):
        b = Both(({"style": "random"}, {}))
        edited(b, "Insight", K.C_STEP, K.S_DRAW, "step")
        b.hand(0, "Insight", "Squire", "Squire")
        b.deck(0, *["Goblin"] * 10)
        b.pool(0, 3)
        b.G[S.CTR + POLICY_STREAM] = b.g.counters[POLICY_STREAM] = counter
        b.step(twin(Tu.draw_step), lambda g: g.draw_step())
        hand, pile, _, _ = b.same(0)
        assert len(hand) == 8
        assert deck_size(b, 0) == (4 if pile == ["Insight"] else 5)
        played.add(pile == ["Insight"])
    assert played == {True, False}


