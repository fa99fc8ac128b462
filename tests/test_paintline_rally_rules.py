"""Paint the Line's rulebook sentences about a rally under way (the index, criticals, the
natural 1, Advantage by shot type, Mute against Ignore, a card readied), each pinned in both
engines: one hand-built return from a given incoming shot, with a chosen d20 roll, read
against numbers worked out here from the sentence."""

from __future__ import annotations

import pytest

from sim.paintline import pool as T

from .paintline_both import Incoming, Side, both_turn
from .test_paintline_turns import seed_rolling

rule = pytest.mark.rule
# The sample pool's cards these scenarios hit (decks/paintline/cards.csv): name, cost, type,
# Normal bonus/penalty, Advantage bonus/penalty, abilities.
#   Red Star Smash   3 drive 5/2 5/3 Surge 1     Order of Lenin   4 lob 6/1 8/2
#   Liberty Lob      2 lob   4/1 4/2 Ignore      High Lob         0 lob 1/0 2/1
#   Chop             1 spin  1/1 2/1             Drive Shot       1 drive 1/1 2/2


def rolling(roll: int, seat: int = 0) -> int:
    """A seed whose first d20 roll for `seat` is `roll`."""
    return seed_rolling(seat, (roll,))


@rule("PTL-34", "PTL-57")
def test_a_critical_keeps_the_cards_effects_and_penalty_and_the_return_needs_20_plus():
    """"The Escalation Index is increased normally in such cases, but the return shot has a
    target number of 20. Additionally, if a shot card was used, all effects and penalties
    apply." Index 10 (step 2), a Spin coming in: Red Star Smash (Drive, so Normal 5/2) rolls
    a natural 20. It lands as a critical, climbs one step and its Surge one more (step 4,
    index 14), and the return faces 20 plus its penalty 2 = 22."""
    incoming = Incoming(step=2, type=T.SPIN)
    (a, _), _, m = both_turn([Side(play=("Red Star Smash",), stamina=3), Side()],
                             seed=rolling(20), incoming=incoming)
    smash = m.pool.lookup("Red Star Smash")
    assert a.shot["card"] == smash and a.shot["advantage"] == 0
    assert (a.shot["need"], a.shot["landed"], a.shot["critical"]) == (10, 1, 1)
    assert a.rally == Incoming(step=4, crit=True, pen=2, type=T.DRIVE)


@rule("PTL-35", "PTL-57")
@pytest.mark.parametrize(("roll", "lands"), [(16, True), (15, False)])
def test_the_return_of_a_critical_needs_20_plus_the_penalty_then_the_target_is_normal(
        roll, lands):
    """The return of that critical: target 20 plus the penalty 2 = 22. Order of Lenin (a Lob
    returning a Drive: no Advantage, Normal +6) lands on 16 (16 + 6 = 22), not on 15. "If a
    critical shot is returned successfully, the Escalation Index is increased as usual and
    the target number returns to normal": step 5, index 16, no critical pending."""
    incoming = Incoming(step=4, crit=True, pen=2, type=T.DRIVE)
    (_, b), _, m = both_turn([Side(), Side(play=("Order of Lenin",), stamina=4)], seat=1,
                             seed=rolling(roll, seat=1), incoming=incoming)
    assert b.shot["card"] == m.pool.lookup("Order of Lenin") and b.shot["advantage"] == 0
    assert (b.shot["need"], b.shot["bonus"], b.shot["landed"]) == (22, 6, int(lands))
    assert b.rally == (Incoming(step=5, pen=1, type=T.LOB) if lands else None)


@rule("PTL-33")
@pytest.mark.parametrize(("step", "side", "roll", "policy"), [
    (7, Side(), 20, "default"),  # at 20: a landed shot leaves it at 20
    (6, Side(play=("Red Star Smash",), stamina=3), 15, "greedy"),  # 18, Surge: 20, not past
])
def test_the_index_stays_at_20(step, side, roll, policy):
    """"If the Escalation Index reaches 20, it remains at 20 until the rally ends." At 20 a
    landed Default Shot (a natural 20) leaves the index at 20 (step 7), the critical's
    return still at 20; at 18 a Red Star Smash (Drive against a Lob: Advantage 5/3) landing
    on 15 + 5 = 20 climbs one step and its Surge one more, but the index stops at 20."""
    incoming = Incoming(step=step, type=T.LOB)
    (a, _), _, m = both_turn([side, Side()], seed=rolling(roll), incoming=incoming,
                             policy=policy)
    assert a.shot["need"] == (20 if step == 7 else 18) and a.shot["landed"] == 1
    assert a.rally is not None and a.rally.step == 7


@rule("PTL-36")
@pytest.mark.parametrize(("roll", "lands"), [(1, False), (2, True)])
def test_a_natural_one_misses_whatever_the_bonus(roll, lands):
    """"A roll of 1 is always a failure." Order of Lenin serves with Advantage (+8) against
    a target of 6: a natural 1 (1 + 8 = 9) misses, a natural 2 lands."""
    (a, _), _, m = both_turn([Side(play=("Order of Lenin",), stamina=4), Side()],
                             seed=rolling(roll))
    assert a.shot["card"] == m.pool.lookup("Order of Lenin") and a.shot["bonus"] == 8
    assert a.shot["landed"] == int(lands) and (a.rally is None) == (not lands)


# Which shot type has Advantage over which: Lob > Spin > Drive > Lob, and every type over
# the Default Shot (no type).
ADVANTAGE = {"High Lob": (T.SPIN, T.NO_TYPE), "Chop": (T.DRIVE, T.NO_TYPE),
             "Drive Shot": (T.LOB, T.NO_TYPE)}


@rule("PTL-39", "PTL-40", "PTL-59")
@pytest.mark.parametrize("card", list(ADVANTAGE))
@pytest.mark.parametrize("incoming", [T.NO_TYPE, T.LOB, T.SPIN, T.DRIVE],
                         ids=["default", "lob", "spin", "drive"])
def test_advantage_by_the_type_of_the_shot_returned(card, incoming):
    """"In order for a shot card to have Advantage, it must either be hit during a Serve, or
    when it returns a shot that is of a shot type it has Advantage over": "Lob shots have
    advantage over Spin shots", "Spin shots have Advantage over Drive shots", "Drive shots
    have Advantage over Lob shots", and the Default Shot "always convey[s] advantage to your
    opponent". Each card's Advantage bonus is one more than its Normal one, so a player
    who makes its shots takes the Advantage values whenever they are open to it."""
    (a, _), _, m = both_turn([Side(play=(card,), stamina=1), Side()],
                             incoming=Incoming(type=incoming))
    assert a.shot["card"] == m.pool.lookup(card)
    assert a.shot["advantage"] == int(incoming in ADVANTAGE[card])


@rule("PTL-22")
@pytest.mark.parametrize(("mute", "tie_rule", "need"), [
    (-1, "hitter", 10), (1, "hitter", 10), (2, "hitter", 10), (2, "first", 13),
    (3, "hitter", 13),
])
def test_a_mute_against_an_ignore_goes_to_the_higher_cost(mute, tie_rule, need):
    """"If shot card abilities conflict directly, such as "Mute" and "Ignore," the higher
    cost card trumps the lower cost card." Index 10 and a return penalty of 3 coming in
    from a Spin; Liberty Lob (cost 2, Ignore) returns it. With no Mute, or a Mute of cost 1,
    Ignore stands: 10. Against a Mute of cost 3 the Mute trumps it: 10 + 3 = 13. At equal
    cost (2) the rule option decides: `tie_rule = "hitter"` keeps the Ignore (10),
    `"first"` lets the Mute win (13)."""
    incoming = Incoming(step=2, pen=3, type=T.SPIN, mute=mute)
    (a, _), _, m = both_turn([Side(play=("Liberty Lob",), stamina=2), Side()],
                             incoming=incoming, tie_rule=tie_rule)
    assert a.shot["card"] == m.pool.lookup("Liberty Lob") and a.shot["need"] == need


@rule("PTL-58", "PTL-26")
def test_a_card_untapped_to_ready_can_be_hit_in_the_same_turn():
    """"When a card is untapped, or right side up, it is "ready" and available for use." A
    single-tapped Red Star Smash takes the turn's untap step, is ready, and is hit (then
    double tapped)."""
    (a, _), _, m = both_turn([Side(play=("Red Star Smash",), taps=(1,), stamina=3), Side()],
                             incoming=Incoming(type=T.LOB))
    smash = m.pool.lookup("Red Star Smash")
    assert a.shot["card"] == smash and a.play == [(smash, 2, -1)] and a.ready == 0
