"""Start-of-turn maneuvers, from the rulebook: "Some cards can only be played at the start of
your turn. Play these cards before beginning your draw step. Each start of turn maneuver may
be performed only once per turn." Cards of step `start`; Field Surgeon (support NPC, cost 2)
has Heal 1 at the start of its player's turn. Each state is built in both engines."""


import pytest

from sim.encounter import moments as Mo
from sim.encounter import state as S

from .test_encounter_decisions import POLICY_STREAM, twin
from .test_encounter_scenarios import Both


def start(b):
    b.step(twin(Mo.start_of_turn), lambda g: g.start_of_turn())


def pc_wounds(b):
    kernel, reference = int(b.P[0, S.PC_WOUNDS]), b.g.seats[0].pc.wounds
    assert kernel == reference
    return kernel


@pytest.mark.parametrize("limit", ["unlimited", "turn"])
@pytest.mark.parametrize("surgeons, left", [(1, 1), (2, 0)])
@pytest.mark.rule("ENC-14", "ENC-38")
def test_a_start_of_turn_heal_is_used_once_a_turn_a_copy(limit, surgeons, left):
    """The Orc's PC has 2 wounds and Field Surgeon in play: at the start of the turn careful
    uses its Heal 1 (a wound to heal is there), but once a turn, even where abilities may
    be used as often as paid (ability_limit unlimited): 1 wound is left. With two copies in
    play, each heals once: none left."""
    b = Both(rules={"ability_limit": limit}, pc_wounds=2)
    b.party(0, *["Field Surgeon"] * surgeons)
    start(b)
    assert pc_wounds(b) == left


@pytest.mark.rule("ENC-26", "ENC-38")
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


@pytest.mark.parametrize("policy", ["careful", "random"])
@pytest.mark.rule("ENC-38")
def test_the_engines_agree_and_the_start_of_turn_changes_the_records(policy):
    """Grey Expedition with Field Surgeon for its Medic against Orc Warband: both engines
    play the same matches, the Surgeon's Heal is used at the start of turns (EV_MANEUVER
    rows of its card), and with its step made boost the records differ."""
    from sim.encounter import codes as K

    from .encounter_swap import agree_and_matter, swapped

    m = swapped("grey-expedition", "orc-warband", policy, 0, {"medic": -1, "field-surgeon": 1})
    rec = agree_and_matter(m, "field-surgeon", {K.C_STEP: K.S_BOOST}, 80, logs=80)
    assert uses(rec, m.pool.ids.index("field-surgeon")) > 0


def uses(rec, card):
    """EV_MANEUVER rows of this card in the logged matches."""
    return sum(int(r[3]) == card and r[2] == S.EV_MANEUVER
               for i in range(len(rec.log_n)) for r in rec.log[i, : rec.log_n[i]])


def tower_in_play(b, p):
    from sim.encounter import actors as Ac

    from .test_encounter_decisions import card

    twin(Ac.put_in_play)(b.C[0], b.P, p, S.BULW, S.BULW_N, card("Lookout Tower"))
    b.g.seats[p].bulwark.append(b.g.cards[card("Lookout Tower")])


@pytest.mark.parametrize("limit", ["unlimited", "turn"])
@pytest.mark.rule("ENC-25", "ENC-61")
def test_each_player_may_act_at_the_start_of_the_quest_step_once_a_turn(limit):
    """"Before playing a quest, each player (starting with the active player and moving
    counter-clockwise) may perform maneuvers that take place at the start of the quest step.
    You may perform each such maneuver only once per turn." Both players have Lookout Tower
    (Draw 1 at the start of the quest step) in their bulwark and three cards in their draw
    decks: in the window each draws once, the active player first, and no more, even where
    abilities may be used as often as paid."""
    from sim.encounter import codes as K
    from sim.encounter import windows as Wi

    b = Both(rules={"ability_limit": limit})
    for p in (0, 1):
        tower_in_play(b, p)
        b.deck(p, "Goblin", "Troll", "Dragon")
    b.step(lambda C: twin(Wi.window)(C, K.S_QSTART), lambda g: g.window(K.S_QSTART))
    assert b.same(0)[0] == ["Goblin"] and b.same(1)[0] == ["Goblin"]
    draws = [(int(r[1]), int(r[2])) for r in b.C[8][: b.G[S.LOG_N]] if r[2] == S.EV_DRAW]
    assert [p for p, _ in draws] == [0, 1]


def test_no_maneuver_at_the_start_of_the_quest_step_no_moment():
    """Nobody holds such a card: the window does not open, and random players draw nothing
    from their streams."""
    from sim.encounter import codes as K
    from sim.encounter import windows as Wi

    b = Both(({"style": "random"}, {"style": "random"}))
    b.step(lambda C: twin(Wi.window)(C, K.S_QSTART), lambda g: g.window(K.S_QSTART))
    for p in (0, 1):
        assert int(b.G[S.CTR + POLICY_STREAM + p]) == b.g.counters[POLICY_STREAM + p] == 0


@pytest.mark.parametrize("policy", ["careful", "random"])
@pytest.mark.rule("ENC-61")
def test_the_engines_agree_and_the_quest_start_changes_the_records(policy):
    """Grey Expedition with two Lookout Towers for its two Insights, against Orc Warband:
    both engines play the same matches, the Towers are used at the start of quest steps,
    and with their step made boost the records differ."""
    from sim.encounter import codes as K

    from .encounter_swap import agree_and_matter, swapped

    m = swapped("grey-expedition", "orc-warband", policy, 0,
                {"insight": -2, "lookout-tower": 2})
    rec = agree_and_matter(m, "lookout-tower", {K.C_STEP: K.S_BOOST}, 80, logs=80)
    assert uses(rec, m.pool.ids.index("lookout-tower")) > 0
