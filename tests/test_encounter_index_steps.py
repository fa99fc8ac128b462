"""Encounter's rulebook sentences (docs/encounter-rules.md, "Rule index") of the quest,
encounter and score steps that no other test pins, played by both engines from one
hand-built state; the expected numbers are worked out from the sentence and cards.csv."""

from __future__ import annotations

import pytest

from sim.encounter import actors as Ac
from sim.encounter import codes as K
from sim.encounter import rules as Ru
from sim.encounter import scoring as Sc
from sim.encounter import state as S
from sim.encounter import stats as Sts
from sim.encounter import striking as St
from sim.encounter import turn as Tu
from sim.encounter.reference_state import WAITING

from .encounter_both import edited, ring, rows, stat, window, zone
from .test_encounter_decisions import (
    POLICY_STREAM,
    build,
    card,
    name,
    party_name,
    random_picks,
    ref_name,
    striker_name,
    twin,
)
from .test_encounter_scenarios import Both

rule = pytest.mark.rule


# -- The quest step --------------------------------------------------------------------------
def quest_step(b):
    kernel = bool(twin(Tu.quest_step)(b.C))
    assert kernel == b.g.quest_step()
    return kernel


@rule("ENC-60", "ENC-62", "ENC-63", "ENC-97")
@pytest.mark.parametrize("held, mandatory, plays", [
    ("Probe the Humans", True, False),  # requires a Grey PC: the Orc may not play it
    ("Smash the Gate", False, False),  # STR 8 against 7: careful holds it back
    ("Smash the Gate", True, True),  # quest_mandatory: it must, being able to
    (None, True, False)])  # no quest in hand: that's fine
def test_a_quest_is_played_if_its_requirements_are_met_and_may_be_held(held, mandatory,
                                                                        plays):
    b = Both(rules={"quest_mandatory": mandatory})
    if held:
        b.hand(0, held)
    assert quest_step(b) == plays
    quests = [c for _, _, c, _, _ in rows(b, S.EV_QUEST)]
    assert quests == ([held] if plays else [])
    assert b.same(0)[0] == ([] if plays or not held else [held])


@rule("ENC-97")
@pytest.mark.parametrize("location, played", [("Badlands", True), (None, False)])
def test_careful_plays_a_quest_costing_exactly_its_share_of_the_party(location, played):
    """Decisions, quest: careful plays a quest whose cost is at most cost_ratio (0.75) x its
    party's strength. Smash the Gate costs 6 and asks STR 8: the Orc PC alone with Badlands
    (+1) has strength 8, and 6 <= 0.75 x 8 holds with equality, so it is played; without
    Badlands (7) it is neither affordable (6 > 5.25) nor its objective met."""
    b = Both()
    if location:
        twin(Sts.place_location)(b.C[0], b.P, 0, card(location))
        b.g.seats[0].location = b.g.cards[card(location)]
    assert stat(b, 0, -1, K.C_STR, "str") == (8 if location else 7)
    b.hand(0, "Smash the Gate")
    assert quest_step(b) is played


@rule("ENC-67", "ENC-68")
def test_a_strike_card_is_played_only_against_another_players_quest():
    """The Orc quests holding a Goblin and a Pitfall of its own: they stay in its hand;
    Grey's Goblin strikes."""
    b = Both(rules={"quest_mandatory": True})
    b.hand(0, "Warband Muster", "Goblin", "Pitfall")
    b.hand(1, "Goblin")
    assert quest_step(b)
    assert b.same(0)[0] == ["Goblin", "Pitfall"] and b.same(1)[0] == []
    assert [(s, c) for s, _, c, _, _ in rows(b, S.EV_STRIKE)] == [(1, "Goblin")]
    assert b.striker_states() == [WAITING]


# -- The encounter step: the choices ---------------------------------------------------------
STRIKERS = (("Goblin", 0, 0), ("Dragon", 0, 0), ("Troll", 0, 0), ("Bandit", 2, 0))


@rule("ENC-77", "ENC-100")
def test_the_opponent_chooses_a_waiting_striker():
    """Goblin (4), Dragon (7) and Troll (6) wait, Bandit is gone: careful sends the
    strongest, Dragon; random any of the three waiting."""
    def kernel(C):
        return striker_name(C, twin(St.pick_striker)(C, 1))

    def reference(g):
        waiting = [s for s in g.strikers if s.state == WAITING]
        return ref_name(g.player(g.seats[1]).striker(waiting))

    C, g = build(strikers=STRIKERS)
    assert random_picks(C, g, 1, kernel, reference) == {"Dragon"}
    C, g = build(({}, {"style": "random"}), strikers=STRIKERS)
    assert random_picks(C, g, 1, kernel, reference) == {"Goblin", "Dragon", "Troll"}


@rule("ENC-77", "ENC-101")
@pytest.mark.parametrize("style, party, striker, want", [
    # Knight Errant (4, intelligence 1) beats the Goblin (4, intelligence 0) on the tie, as
    # the PC (7) does: the weakest winner.
    ("careful", ("Hired Blade", "Squire", "Knight Errant"), "Goblin", {"Knight Errant"}),
    # Nobody beats the Dragon (7, intelligence 2; the PC ties and loses): the weakest NPC.
    ("careful", ("Hired Blade", "Squire", "Knight Errant"), "Dragon", {"Squire"}),
    ("careful", (), "Dragon", {"PC"}),  # the PC last
    ("random", ("Hired Blade", "Squire", "Knight Errant"), "Goblin",
     {"PC", "Hired Blade", "Squire", "Knight Errant"})])
def test_the_active_player_chooses_a_party_character_to_defend(style, party, striker, want):
    def kernel(C):
        P, OP = C[2], C[9]
        n = int(P[0, S.PARTY_N])
        for j in range(n):
            OP[j, 0] = j
        OP[n, 0] = -1
        return party_name(C, 0, twin(St.pick_defender)(C, 0, 0, n + 1))

    def reference(g):
        a = g.seats[0]
        return ref_name(g.player(a).defender(g.strikers[0], [*a.party, a.pc]))

    C, g = build(({"style": style}, {}), party=[(n, 0) for n in party],
                 strikers=((striker, 0, 0),))
    assert random_picks(C, g, 0, kernel, reference) == want


@rule("ENC-77", "ENC-101")
@pytest.mark.parametrize("limit, second", [("any", "Knight Errant"), ("once", "Orc")])
def test_a_party_npc_may_defend_again_in_the_same_turn(limit, second):
    """"the active player chooses one of his or her party characters (either the PC or a
    party NPC) to defend": nothing bars a character that has defended (defend_limit any).
    Two Goblins (4, intelligence 0) strike; careful sends its weakest winner, Knight Errant
    (4, intelligence 1, wins the tie), against the first and again against the second;
    under defend_limit once it has had its turn and the PC (7) takes the second."""
    b = Both(rules={"defend_limit": limit})
    b.party(0, "Knight Errant")
    b.strikers("Goblin", "Goblin")
    b.step(twin(Tu.encounter_step), lambda g: g.encounter_step())
    defenders = [name(x // 1000) if x // 1000 >= 0 else "?" for _, _, _, x, _ in
                 rows(b, S.EV_COMBAT)]
    assert defenders == ["Knight Errant", second]


# -- The score step ---------------------------------------------------------------------------
def questing(quest, points=0, wins=0, location=None, loot=(), pc_wounds=0, deck=(),
             tables=({}, {})):
    b = Both(tables, pc_wounds=pc_wounds)
    q = card(quest)
    b.G[S.QUEST], b.g.quest = q, b.g.cards[q]
    b.P[0, S.POINTS] = b.g.seats[0].points = points
    b.G[S.WINS] = b.g.wins = wins
    if location:
        twin(Sts.place_location)(b.C[0], b.P, 0, card(location))
        b.g.seats[0].location = b.g.cards[card(location)]
    for n in loot:
        twin(Ru.loot_bottom)(b.P, 0, card(n))
        b.g.seats[0].loot.append(b.g.cards[card(n)])
    b.deck(0, *deck)
    return b


def score(b):
    b.step(twin(Sc.score_step), lambda g: g.score_step())
    seat = b.g.seats[0]
    kernel = (int(b.P[0, S.POINTS]), int(b.P[0, S.PC_WOUNDS]),
              [name(c) for c in ring(b.P, 0, S.DECK, S.DECK_HEAD, S.DECK_N)],
              [name(c) for c in ring(b.P, 0, S.LOOTD, S.LOOT_HEAD, S.LOOT_N)],
              zone(b, 0, S.LOOTS, S.LOOTS_N, seat.loot_in_play))
    assert kernel == (seat.points, seat.pc.wounds, [name(c.id) for c in seat.deck],
                      [name(c.id) for c in seat.loot], kernel[4])
    return kernel


@rule("ENC-7", "ENC-8", "ENC-85", "ENC-90")
def test_a_completed_quest_scores_rewards_and_reveals_its_loot():
    """Survey the Rings (PLACE 3; 4 points, 1 loot point, reward Heal 1) with Rings of
    Saturn (terrain 3) in play: 4 points, the quest leaves play for the score zone (neither
    in hand nor deck), the PC's wound is healed, Iron Sword is revealed and played."""
    b = questing("Survey the Rings", location="Rings of Saturn", loot=("Iron Sword",
                 "Great Axe"), pc_wounds=1, deck=("Goblin",))
    assert score(b) == (4, 0, ["Goblin"], ["Great Axe"], ["Iron Sword"])
    assert b.same(0)[0] == []
    assert [(c, x) for _, _, c, x, _ in rows(b, S.EV_SCORE)] == [("Survey the Rings", 4)]


@rule("ENC-88", "ENC-89")
def test_a_failed_quest_goes_under_the_draw_deck_without_points_or_loot():
    """No location: PLACE 3 fails, so the quest goes to the bottom of the draw deck; no
    points, no reward (the wound stays), no loot revealed."""
    b = questing("Survey the Rings", loot=("Iron Sword", "Great Axe"), pc_wounds=1,
                 deck=("Goblin",))
    assert score(b) == (0, 1, ["Goblin", "Survey the Rings"], ["Iron Sword", "Great Axe"],
                        [])
    assert rows(b, S.EV_REVEAL, S.EV_SCORE) == []


@rule("ENC-88")
@pytest.mark.parametrize("wins, done", [(1, True), (0, False)])
def test_every_objective_must_be_fulfilled(wins, done):
    """Arena Champion: STR 7 (the Orc PC's 7 holds) and DEFEAT 1: with one combat won both
    hold and the quest is completed; with none, one objective fails and so does the
    quest."""
    b = questing("Arena Champion", wins=wins, loot=("Iron Sword", "Iron Sword"))
    points = score(b)[0]
    assert [x for _, _, _, _, x in rows(b, S.EV_OBJECTIVE)] == [1, wins]
    assert points == (5 if done else 0)


@rule("ENC-90", "ENC-102")
@pytest.mark.parametrize("style", ["careful", "random"])
def test_revealed_loot_is_played_or_returns_under_the_loot_deck(style):
    """Arena Champion completed (2 loot points) reveals Vorpal Blade twice: careful plays
    the first; the second, unique with a copy in play, cannot be played and goes under the
    loot deck, after Iron Sword. random plays each it may or not (a draw over 2)."""
    seen = set()
    for counter in range(8 if style == "random" else 1):
        b = questing("Arena Champion", wins=1, loot=("Vorpal Blade", "Vorpal Blade",
                                                     "Iron Sword"),
                     tables=({"style": style}, {}))
        b.G[S.CTR + POLICY_STREAM] = b.g.counters[POLICY_STREAM] = counter
        points, _, _, loot, played = score(b)
        assert points == 5
        if played:
            assert played == ["Vorpal Blade"] and loot == ["Iron Sword", "Vorpal Blade"]
        else:
            assert loot == ["Iron Sword", "Vorpal Blade", "Vorpal Blade"]
        seen.add(bool(played))
    assert seen == ({True} if style == "careful" else {True, False})


@rule("ENC-8", "ENC-91")
def test_reaching_thirty_points_wins_at_once():
    """26 points and Survey the Rings (4): 30, and the Orc wins at once (end points),
    before the reward and the loot."""
    b = questing("Survey the Rings", points=26, location="Rings of Saturn",
                 loot=("Iron Sword",), pc_wounds=1)
    assert score(b) == (30, 1, [], ["Iron Sword"], [])
    assert b.end() == (True, (0, K.END_POINTS))


@rule("ENC-86")
def test_score_maneuvers_come_before_the_objectives_are_read():
    """Silent Infiltration (UNHURT 0, DEX 3) with Nimble on the Orc PC (dexterity 3). Grey
    holds Sniper Shot made a score-step instant (Wound 1): in the score window, before the
    objectives are read, it wounds the PC, so UNHURT 0 fails. Without it the quest is
    completed (4 points)."""
    for shot in (False, True):
        b = questing("Silent Infiltration")
        twin(Ac.put_in_play)(b.C[0], b.P, 0, S.CHARS, S.CHAR_N, card("Nimble"))
        b.g.seats[0].characteristics.append(b.g.cards[card("Nimble")])
        edited(b, "Sniper Shot", K.C_STEP, K.S_SCORE, "step")
        if shot:
            b.hand(1, "Sniper Shot")
            b.pool(1, 1)
        assert score(b)[:2] == ((0, 1) if shot else (4, 0))
        events = [ev for _, ev, _, _, _ in rows(b, S.EV_MANEUVER, S.EV_OBJECTIVE)]
        assert events == ([S.EV_MANEUVER] if shot else []) + [S.EV_OBJECTIVE] * 2


@rule("ENC-87")
def test_score_maneuvers_go_counterclockwise_from_the_active_player():
    """Three players, the Orc (seat 0) active, a Troll of seat 1's still there: each seat
    holds Sniper Shot made a score-step instant and 2 in its pool; the shots come from seat
    0, then 2 (its right), then 1, until all pass in a row."""
    b = Both(players=3)
    edited(b, "Sniper Shot", K.C_STEP, K.S_SCORE, "step")
    b.strikers("Troll")
    for p in range(3):
        b.hand(p, "Sniper Shot")
        b.pool(p, 2)
    window(b, K.S_SCORE)
    assert [s for s, _, _, _, _ in rows(b, S.EV_MANEUVER)] == [0, 2, 1]
