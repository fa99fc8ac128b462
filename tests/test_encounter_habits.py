"""Encounter: the habits a policy plays by under the rule options (strikers_after) and the
numbers training moves (weights, reserve, deny_defeat), each scenario built by hand in both
engines and checked against the stated rule; the engines agree at moved numbers."""

import pytest

from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import policy as Po
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import striking as St
from sim.encounter import targets as Ta
from sim.encounter import turn as Tu
from sim.encounter.params import policy_vector
from sim.encounter.reference_effects import Option

from .test_encounter_decisions import BASE, both, build, card, name, ref_name, striker_name, twin


@pytest.mark.parametrize("after, want", [("discard", "Dragon"), ("hand", "Goblin")])
@pytest.mark.rule("ENC-107")
def test_a_wound_kills_a_fought_striker_only_when_survivors_return(after, want):
    """Goblin (tough 1) has fought, Dragon and Troll wait. Under strikers_after = discard
    the Goblin leaves play at the settle step killed or not, so killing it is worth
    nothing and kill takes the strongest, Dragon; under hand a surviving Goblin strikes
    again, and kill takes it."""
    def kernel(C):
        return striker_name(C, twin(Ta.striker_target)(C, 0, 1))

    def reference(g):
        return ref_name(g.player(g.seats[0]).wound_striker(g.striker_options(), 1))

    fought = (("Goblin", 1, 0), ("Dragon", 0, 0), ("Troll", 0, 0))
    C, g = build(strikers=fought, rules={"strikers_after": after})
    assert both(C, g, 0, kernel, reference) == (want, want)


@pytest.mark.parametrize("after, ward", [("discard", -1), ("hand", 50)])
@pytest.mark.rule("ENC-99")
def test_the_striker_is_warded_only_when_survivors_return(after, ward):
    """Goblin (str 4, tough 1) against the Orc PC (6 + Brawny 1): the Goblin loses and its
    1 wound kills it. B's Ward 1 would save it: under discard it leaves play at the settle
    step anyway, so careful plays no Ward (-1); under hand it would strike again (50). A's
    Ward, saving its own defender, is worth the same under both."""
    C, g = build(strikers=(("Goblin", 0, 0),), rules={"strikers_after": after})
    C[3][S.C_STRIKER], C[3][S.C_DEF] = 0, -1
    g.combat = (g.strikers[0], g.seats[0].pc)
    assert twin(Ef.maneuver_score)(C, 1, K.WARD, 1, 1) == ward
    assert g.player(g.seats[1]).maneuver_score(K.WARD, 1) == ward


@pytest.mark.parametrize("after, want", [("discard", 1400), ("hand", 1525)])
def test_a_defenders_damage_counts_only_when_survivors_return(after, want):
    """Orc Berserker (party NPC, cost 3, str 5, tough 2, Damage 1): (5 x 1000 + 2 x 300 +
    1 x 500) // (3 + 1) = 1525 under hand; under discard its Damage, which only wounds a
    striker it beats, counts nothing: 5600 // 4 = 1400 (below Orc Grunt's 3300 // 2)."""
    berserker = card("Orc Berserker")
    C, g = build(rules={"strikers_after": after})
    assert twin(Po.boost_score)(C, 0, Po.OPT_HAND, berserker, 0, 0) == want
    assert g.player(g.seats[0]).card_score(g.cards[berserker]) == want


@pytest.mark.parametrize("deny, sent", [(False, ["Goblin", "Dragon"]), (True, ["Dragon"])])
@pytest.mark.rule("ENC-98")
def test_deny_defeat_sends_only_strikers_the_defenders_cannot_beat(deny, sent):
    """Slay the Dragon (DEFEAT 2, STR 7, cost 8) holds only if the Orc's defenders beat two
    strikers. Grey holds Goblin (str 4), Dragon (7) and Pitfall (Ambush 1). careful sends by
    strength per strike cost: Goblin, Dragon, then Pitfall. With deny_defeat it sends no
    striker the Orc's strongest character (6 + Brawny 1 = 7) beats or ties: Pitfall first
    (the Orc's strength 6 this turn), then Dragon (7 > 6), never Goblin."""
    C, g = build(({"cost_ratio": 2.0}, {"deny_defeat": deny}))
    P = C[2]
    twin(Ru.push)(P, 0, S.HAND, S.HAND_N, card("Slay the Dragon"))
    g.seats[0].hand.append(g.cards[card("Slay the Dragon")])
    for n in ("Goblin", "Dragon", "Pitfall"):
        twin(Ru.push)(P, 1, S.HAND, S.HAND_N, card(n))
        g.seats[1].hand.append(g.cards[card(n)])
    assert twin(Tu.quest_step)(C) and g.quest_step()
    G = C[3]
    assert [name(G[S.SCARD + k]) for k in range(G[S.S_N])] == sent
    assert [name(s.card.id) for s in g.strikers] == sent


@pytest.mark.parametrize("reserve, currency, want", [
    (0, "pool", 1200), (1, "pool", 1200), (2, "pool", -1), (3, "pool", -1),
    (2, "discard", 1200)])
def test_reserve_keeps_pool_for_the_instants_in_hand(reserve, currency, want):
    """The Orc, pool 3, holds Rally Cry and Shield Up (combat instants, cost 1 each) and
    Hired Blade (cost 2, str 3, tough 2: (3000 + 600) // 3 = 1200). reserve n keeps up to
    n of the 2 their costs sum to: 1 leaves Hired Blade playable (3 - 2 >= 1), 2 and 3 do
    not. Under cost_currency = discard no pool is kept."""
    C, g = build(({"reserve": reserve}, {}), rules={"cost_currency": currency})
    P, a = C[2], g.seats[0]
    for n in ("Rally Cry", "Shield Up", "Hired Blade"):
        twin(Ru.push)(P, 0, S.HAND, S.HAND_N, card(n))
        a.hand.append(g.cards[card(n)])
    P[0, S.POOL] = a.pool = 3
    blade = card("Hired Blade")
    assert twin(Po.boost_score)(C, 0, Po.OPT_HAND, blade, 0, 0) == want
    assert g.player(a).boost_score(Option(True, 2, g.cards[blade], "card")) == want


def test_the_weights_price_what_a_card_brings():
    """Boost score (worth // (cost + 1), weights in thousandths of a strength point) and
    strike score (power x 2 // (2 x cost + 1)) at careful's defaults and at changed weights:
    Sage (cost 1, int 1), Scout (cost 1, Sneak 1), Warlord (cost 2, Budget 1), Shield
    Bearer (cost 2, str 2, tough 3), Insight (Draw 2), Mind Fog (cost 2, Hex 2)."""
    changed = {"mind_value": 1.0, "sneak_value": 2.0, "budget_value": 1.5,
               "tough_value": 1.0, "draw_value": 2.5, "hex_value": 1.5}
    for table, want in (({}, (150, 250, 166, 966, 300, 480)),
                        (changed, (500, 1000, 500, 1666, 2500, 1200))):
        C, g = build((table, table))
        a, b = g.seats
        got = [twin(Po.boost_score)(C, 0, Po.OPT_HAND, card(n), 0, 0)
               for n in ("Sage", "Scout", "Warlord", "Shield Bearer")]
        ref = [g.player(a).card_score(g.cards[card(n)]) for n in ("Sage", "Scout", "Warlord",
                                                                 "Shield Bearer")]
        insight = card("Insight")
        got.append(twin(Po.boost_score)(C, 0, Po.OPT_HAND, insight, K.DRAW, 2))
        ref.append(g.player(a).boost_score(Option(True, 0, g.cards[insight])))
        got.append(twin(St.strike_score)(C, 1, card("Mind Fog")))
        ref.append(g.player(b).strike_score(g.cards[card("Mind Fog")]))
        assert tuple(got) == tuple(ref) == want


def test_engines_agree_at_changed_weights_and_habits():
    """careful with every number moved off its default (reserve, deny_defeat included):
    the two engines' records are byte-equal."""
    from dataclasses import replace

    from sim.encounter.batch import run_batch
    from sim.encounter.reference import reference_batch

    vec = policy_vector({"style": "careful", "cost_ratio": 1.5, "heal_value": 0.7,
                         "mind_value": 0.9, "tough_value": 0.05, "sneak_value": 2.0,
                         "budget_value": 1.2, "draw_value": 2.0, "hex_value": 1.1,
                         "reserve": 2, "defeat_check": True, "deny_defeat": True})[0]
    m = replace(BASE, policies=(vec, BASE.policies[1]), policy_names=("moved", "careful"))
    k = run_batch(m, 60, 9, 0, 10)
    assert k.same_as(reference_batch(m, 60, 9, 0, 10))
    m = replace(m, policies=(BASE.policies[0], vec), policy_names=("careful", "moved"))
    assert run_batch(m, 60, 9, 0, 10).same_as(reference_batch(m, 60, 9, 0, 10))


@pytest.mark.parametrize("tie, might_1", [("none", -1), ("intelligence", -1), ("defender", 100)])
@pytest.mark.rule("ENC-99")
def test_might_is_played_only_to_win(tie, might_1):
    """Hired Blade (str 3) defends against Goblin (str 4) and loses. Might 2 makes it win
    (5 > 4): 100 under every combat_tie. Might 1 only ties (4 = 4): under none nobody wins
    and under intelligence the Goblin still does (0 = 0, the striker), so careful keeps it
    (-1); under defender the tie is the defender's, so Might 1 turns the loss (100)."""
    C, g = build(party=(("Hired Blade", 0),), strikers=(("Goblin", 0, 0),),
                 rules={"combat_tie": tie})
    C[3][S.C_STRIKER], C[3][S.C_DEF] = 0, 0
    g.combat = (g.strikers[0], g.seats[0].party[0])
    player = g.player(g.seats[0])
    for n, want in ((1, might_1), (2, 100)):
        assert twin(Ef.maneuver_score)(C, 0, K.MIGHT, n, 1) == want
        assert player.maneuver_score(K.MIGHT, n) == want
