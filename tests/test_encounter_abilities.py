"""Encounter's repeatable abilities in play, written from the rule text: "You may use each
ability as many times as you like (even repeatedly during the same step), as long as you
meet the requirements for it and pay its costs". War Shaman (support NPC, cost 2) has
Might 1 in combat, its ability_cost 1 paid on each use. Each state is built in both engines
and the numbers that must follow are worked out here from cards.csv."""

import pytest

from sim.encounter import state as S
from sim.encounter import turn as Tu

from .test_encounter_decisions import card, twin
from .test_encounter_scenarios import Both, boost


@pytest.mark.parametrize("repeat, pool, won", [(3, 3, True), (1, 3, False), (3, 2, False)])
@pytest.mark.rule("ENC-25", "ENC-26", "ENC-27", "ENC-80", "ENC-99")
def test_might_is_used_again_and_again_to_close_a_gap(repeat, pool, won):
    """The Orc's Orc Grunt (strength 3, toughness 1) defends against Grey's Thug (strength
    5, toughness 2), War Shaman in the Orc's party. Three uses (+3: 6 against 5) win the
    combat, two only tie it. With a pool of 3 and a policy that plans three uses in a row
    (repeat 3), careful uses Might three times, paying 1 each: the pool ends at 0 and the
    Thug takes the loser's wound. Planning one use at a time (repeat 1, the reading before),
    or a pool of 2, no use closes the gap, so none is made: the pool stays, and the Grunt
    takes its one wound and dies."""
    b = Both(({"repeat": repeat}, {}))
    b.party(0, "Orc Grunt", "War Shaman")  # a support NPC stays beside the party
    b.pool(0, pool)
    b.strikers("Thug")
    b.step(lambda C: twin(Tu.combat)(C, 0, 0),
           lambda g: g.fight(g.strikers[0], g.seats[0].party[0]))
    _, pile, party, left = b.same(0)
    wounds = (int(b.G[S.SWOUND]), b.g.strikers[0].wounds)
    if won:
        assert left == 0 and party == [("Orc Grunt", 0)]
        assert wounds == (1, 1)
    else:
        assert left == pool and party == [] and pile == ["Orc Grunt"]
        assert wounds == (0, 0)


@pytest.mark.parametrize("value, played", [(0.5, True), (0.0, False)])
@pytest.mark.rule("ENC-96")
def test_a_card_with_might_in_play_is_worth_its_uses_at_the_boost_step(value, played):
    """careful at its boost step with War Shaman in hand and a pool of 3: the card has no
    strength of its own, its worth is its Might, counted for the uses a turn's pool of 3
    pays (3 at cost 1) at might_value strength a point. Worth anything, it is played (its
    cost 2 paid); counted for nothing (might_value 0), it stays in hand."""
    b = Both(({"might_value": value}, {}))
    b.hand(0, "War Shaman")
    b.pool(0, 3)
    boost(b)
    hand, _, _, pool = b.same(0)
    supports = b.g.seats[0].supports
    if played:
        assert hand == [] and pool == 1 and [c.id for c in supports] == [card("War Shaman")]
    else:
        assert hand == ["War Shaman"] and pool == 3 and supports == []


@pytest.mark.parametrize("policy", ["careful", "trained"])
def test_the_default_table_plays_every_mechanic(policy):
    """Orc Ambush, a deck of the folder's [table] (the hand-built decks), holds the cards of
    the newer mechanics: War Camp (a strike card that stays in its owner's bulwark),
    Hamstring (one that stays on a character of the questing player's) and War Shaman (an
    ability paid on each use).
    Played by careful and by trained against Grey Expedition, each card is played, each
    strike card stays (an EV_STAY row), and War Shaman's Might is used, in 2,000 matches."""
    from pathlib import Path

    from sim.encounter.batch import load_matchup, run_batch
    from sim.kit.folders import read_folder

    folder = Path(__file__).resolve().parents[1] / "decks" / "encounter"
    assert "orc-ambush" in read_folder(str(folder)).table
    m = load_matchup(folder, "orc-ambush", "grey-expedition", policy, policy)
    rec = run_batch(m, 2000, 5, 0, 2000)
    ids = {c: m.pool.ids.index(c) for c in ("war-camp", "hamstring", "war-shaman")}
    played = {c: int(rec.card_stats[0, i, S.N_CARD_STATS - 3]) for c, i in ids.items()}
    assert all(n > 0 for n in played.values()), played
    rows = [rec.log[i, : rec.log_n[i]] for i in range(2000)]
    stays = {int(r[3]) for log in rows for r in log if r[1] == 0 and r[2] == S.EV_STAY}
    used = sum(int(r[3]) == ids["war-shaman"] for log in rows for r in log
               if r[1] == 0 and r[2] == S.EV_MANEUVER)
    assert {ids["war-camp"], ids["hamstring"]} <= stays and used > 0
