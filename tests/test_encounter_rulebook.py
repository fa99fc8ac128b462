"""Encounter as its rulebook reads (../shared/seeds/003_9bec2f871bbd5f81.txt): who goes first
each turn, abilities used as many times as you like, strike cards that stay. Expected values
come from the rule text; both engines play each scenario."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sim.encounter import policy as Po
from sim.encounter import state as S
from sim.encounter.params import policy_vector
from sim.encounter.reference import Table
from sim.game import get

from .test_encounter_decisions import build, random_picks, twin

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
GAME = get("encounter")
GREY = 1  # Grey (intelligence 6 + Keen Mind 1) chooses over the Orc (2 + 0)


def matchup(first_b="behind", rules=None, policy="careful"):
    """Orc Warband (seat 0, careful) against Grey Expedition (seat 1, the chooser), Grey's
    `first` as given."""
    m = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", policy, None,
                          rules or {}, [])
    grey = policy_vector({"style": policy, "first": first_b})[0]
    return replace(m, policies=(m.policies[0], grey))


def rounds(log):
    """From a whole match's log: each EV_FIRST row as (turn, chooser, first seat), and each
    turn's (turn, active seat, points of seat 0, points of seat 1) at its start."""
    firsts = [(t, s, a) for t, s, ev, _, a, _ in log if ev == S.EV_FIRST]
    turns = [(t, s, a, b) for t, s, ev, _, a, b in log if ev == S.EV_TURN]
    return firsts, turns


# -- 1. Who goes first: "decides which player goes first each turn" -----------------------
@pytest.mark.parametrize("points, first", [((0, 0), 0), ((5, 0), GREY), ((5, 5), 0),
                                           ((0, 4), 0)])
def test_behind_goes_first_only_while_it_has_fewer_points(points, first):
    """first = behind: the chooser puts itself first while it has fewer points than the
    other player, else the other player; no draw from its stream."""
    def kernel(C):
        return int(twin(Po.choose_first)(C, GREY))

    def reference(g):
        return g.player(g.seats[GREY]).goes_first()

    C, g = build(({}, {"first": "behind"}))
    for p in (0, 1):
        C[2][p, S.POINTS] = g.seats[p].points = points[p]
    assert random_picks(C, g, GREY, kernel, reference) == {first}


@pytest.mark.parametrize("how", ["behind", "random"])
def test_the_chooser_decides_who_goes_first_in_every_round(how):
    """choose_first = each_turn: a round is both players' turns; at its start the chooser
    (Grey, always) names who goes first, that seat takes the round's first turn and the
    other its second. behind: Grey first exactly when it has fewer points at the round's
    start. Both engines write the same log."""
    m = matchup(how)
    t = Table(m)
    kernel = GAME.run_batch(m, 6, 4, n_log=6)
    assert kernel.same_as(GAME.reference_batch(m, 6, 4, n_log=6))
    seen_both_orders = set()
    for i in range(6):
        g = t.play(4, i, 100000)
        n = int(kernel.log_n[i])
        assert [tuple(r) for r in kernel.log[i, :n]] == [tuple(r) for r in g.log[:n]]
        firsts, turns = rounds(g.log)
        assert [t for t, _, _ in firsts] == list(range(0, len(turns), 2))
        assert {s for _, s, _ in firsts} == {GREY}
        for (start, _, first), (t1, seat1, p0, p1) in zip(firsts, turns[::2], strict=True):
            assert t1 == start + 1 and seat1 == first
            if how == "behind":
                assert first == (GREY if p1 < p0 else 0)
            if t1 < len(turns):
                assert turns[t1][1] == 1 - first  # the round's second turn
            seen_both_orders.add(first)
    assert seen_both_orders == {0, 1}


def test_once_alternates_turns_after_one_choice():
    """choose_first = once: one choice at set-up, then the turns alternate."""
    m = matchup("behind", {"choose_first": "once"})
    g = Table(m).play(4, 0, 100000)
    firsts, turns = rounds(g.log)
    assert [(t, s) for t, s, _ in firsts] == [(0, GREY)]
    seats = [s for _, s, _, _ in turns]
    assert seats == [firsts[0][2], 1 - firsts[0][2]] * (len(seats) // 2) + seats[
        len(seats) // 2 * 2:]
    assert all(a != b for a, b in zip(seats, seats[1:], strict=False))


def test_first_or_second_every_round_is_the_alternation_of_once():
    """A chooser that always picks itself (or always the other) alternates the turns under
    each_turn as under once: the matches are the same, only the log names each round's
    choice."""
    for how in ("first", "second"):
        each = GAME.run_batch(matchup(how), 60, 8)
        once = GAME.run_batch(matchup(how, {"choose_first": "once"}), 60, 8)
        assert np.array_equal(each.matches, once.matches)
        assert np.array_equal(each.card_stats, once.card_stats)


@pytest.mark.parametrize("how", ["behind", "random"])
def test_the_encounter_mode_chain_follows_the_choice_of_every_round(how):
    """Encounter mode's Markov chain splits each round by the chooser's pick (behind: by
    the quests completed so far, all worth the same points), and the simulation agrees.
    Each seat's turns draw from its own dice stream, so the order of turns within a round
    only decides who ends the match first: under behind, Grey (behind) takes its turn first
    and may fall before the Orc scores its last quest, so more matches end by a killed PC
    than under once, with the same winners; a fair coin every round gives once's chances."""
    from sim.encounter.exact import encounter_chain, exact_check

    rules = {"encounter_mode": True, "encounter_strengths": [2, 8], "points_to_win": 15,
             "encounter_objective": "DEFEAT", "encounter_arg": 1}
    m = matchup(how, rules)
    each = encounter_chain(m)
    once = encounter_chain(GAME.with_rules(m, {"choose_first": "once"}))
    assert each["win_a"] + each["win_b"] + each["draw"] == pytest.approx(1.0)
    assert each["win_b"] == pytest.approx(once["win_b"])
    if how == "behind":
        assert each["killed"] - once["killed"] > 0.03
    else:
        assert each["killed"] == pytest.approx(once["killed"])
    table = exact_check(m, GAME.run_batch(m, 20000, 2).totals())
    assert (table.z.abs() < 4).all(), table
