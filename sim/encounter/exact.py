"""Exact answers of the spec beside the simulation: first-player odds, opening-hand quest
odds, a single combat's outcome, and the encounter-mode Markov chain."""

from __future__ import annotations

from math import comb, sqrt

import numpy as np

from sim.encounter import codes as K
from sim.encounter.params import BEHIND, FIRST, M_FIRST, PICK_RANDOM
from sim.kit.checks import CheckTable


def combat_outcome(s_def, s_str, i_def, i_str, tie, dmg_def=0, dmg_str=0):
    """One combat with no actions: (winner, wounds): winner 1 defender, -1 striker, 0 none;
    the loser takes 1 + the winner's Damage."""
    if s_def != s_str:
        w = 1 if s_def > s_str else -1
    elif tie == "intelligence":
        w = 1 if i_def > i_str else -1
    else:
        w = {"striker": -1, "defender": 1, "none": 0}[tie]
    return w, (0 if w == 0 else 1 + (dmg_def if w == 1 else dmg_str))


def p_quest_in_opening(q: int, deck: int = 40, hand: int = 8) -> float:
    """P(at least one of q quests among `deck` cards in an opening hand of `hand`)."""
    return 1.0 - comb(deck - q, hand) / comb(deck, hand)


def _pc(m, p):
    t = m.pool.table
    d = m.decks[p]
    cards = [d.pc, *d.chars]
    return {c: int(sum(t[x, col] for x in cards)) for c, col in
            (("str", K.C_STR), ("int", K.C_INT), ("tough", K.C_TOUGH))}


def p_first(m) -> float:
    """P(deck A goes first): the PC of higher intelligence chooses (a die on a tie) by its
    policy's `first`: itself (first), the other (second), or a coin (random)."""
    i0, i1 = _pc(m, 0)["int"], _pc(m, 1)["int"]
    if i0 == i1:
        # Each seat chooses half the time: A goes first when it picks itself or B picks A.
        return sum(0.5 if m.policies[c][M_FIRST] == PICK_RANDOM else
                   float((m.policies[c][M_FIRST] == FIRST) == (c == 0)) for c in (0, 1)) / 2
    chooser = 0 if i0 > i1 else 1
    how = m.policies[chooser][M_FIRST]
    if how == PICK_RANDOM:
        return 0.5
    return 1.0 if (how == FIRST) == (chooser == 0) else 0.0


def _choosers(m) -> list[tuple[int, float]]:
    """(seat that chooses who goes first, its probability): the PC of higher intelligence,
    each seat half the time on a tie (the die)."""
    i0, i1 = _pc(m, 0)["int"], _pc(m, 1)["int"]
    if i0 == i1:
        return [(0, 0.5), (1, 0.5)]
    return [(0 if i0 > i1 else 1, 1.0)]


def _first_of_round(how: int, chooser: int, done0: int, done1: int) -> dict[int, float]:
    """{seat that goes first in a round: probability} by the chooser's `first` (behind:
    itself while it has completed fewer quests, all worth the same points)."""
    mine = (done0, done1)  # quests completed by seat 0 and seat 1
    if how == PICK_RANDOM:
        return {0: 0.5, 1: 0.5}
    if how == FIRST or (how == BEHIND and mine[chooser] < mine[1 - chooser]):
        return {chooser: 1.0}
    return {1 - chooser: 1.0}


def encounter_chain(m) -> dict:
    """Encounter mode exactly: per combat loss/win chances from the strength list, per turn
    Binomial losses stopped at death, points, settle_heal; the game as a Markov chain over
    (turn, wounds, completions) of both seats up to the cap."""
    r = m.rules
    pts, goal, k = r["encounter_points"], r["points_to_win"], r["encounter_strikers"]
    need = -(-goal // pts)
    heal, tie = r["settle_heal"], r["combat_tie"]
    # Two seats: a round is two turns; max_turns, where set, may cut it shorter.
    cap = 2 * r["max_rounds"] if not r["max_turns"] else min(r["max_turns"],
                                                              2 * r["max_rounds"])
    obj, arg = r["encounter_objective"], r["encounter_arg"]
    per = []
    for p in range(2):
        pc = _pc(m, p)
        lose = win = 0.0
        for s in r["encounter_strengths"]:
            w, _ = combat_outcome(pc["str"], s, pc["int"], 0, tie)
            lose += (w == -1) / len(r["encounter_strengths"])
            win += (w == 1) / len(r["encounter_strengths"])
        # Outcomes of one turn from w wounds: {(new wounds or -1 dead, completed): prob}.
        table = {}
        for w0 in range(pc["tough"]):
            out: dict = {}
            for losses in range(k + 1):
                for wins in range(k - losses + 1):
                    ties = k - losses - wins
                    pr = (comb(k, losses) * comb(k - losses, wins) * lose**losses * win**wins
                          * (1 - lose - win) ** ties)
                    if w0 + losses >= pc["tough"]:
                        # Dead at the combat that killed it: stopped there, whatever follows.
                        key = (-1, 0)
                    else:
                        done = losses <= arg if obj == "UNHURT" else wins >= arg
                        key = (max(0, w0 + losses - heal), int(done))
                    out[key] = out.get(key, 0.0) + pr
            table[w0] = out
        per.append((pc["tough"], table))
    res = {"win_a": 0.0, "win_b": 0.0, "draw": 0.0, "killed": 0.0, "points": 0.0,
           "dead_a": 0.0, "dead_b": 0.0}
    each_turn = r["choose_first"] == "each_turn"
    for chooser, pc in _choosers(m):
        how = int(m.policies[chooser][M_FIRST])
        # State: wounds a, wounds b, completions a, completions b, the round's first seat.
        states: dict = {}
        for f, q in _first_of_round(how, chooser, 0, 0).items():
            states[(0, 0, 0, 0, f)] = pc * q
        for turn in range(cap):
            if each_turn and turn > 0 and turn % 2 == 0:
                again: dict = {}
                for (wa, wb, ca, cb, _), pr in states.items():
                    for f, q in _first_of_round(how, chooser, ca, cb).items():
                        key = (wa, wb, ca, cb, f)
                        again[key] = again.get(key, 0.0) + pr * q
                states = again
            nxt: dict = {}
            for (wa, wb, ca, cb, f), pr in states.items():
                a = f if turn % 2 == 0 else 1 - f
                w = (wa, wb)[a]
                for (nw, done), q in per[a][1][w].items():
                    if nw < 0:
                        res["win_b" if a == 0 else "win_a"] += pr * q
                        res["killed"] += pr * q
                        res["dead_a" if a == 0 else "dead_b"] += pr * q
                        continue
                    c = ((ca, cb)[a]) + done
                    if c >= need:
                        res["win_a" if a == 0 else "win_b"] += pr * q
                        res["points"] += pr * q
                        continue
                    key = (nw, wb, c, cb, f) if a == 0 else (wa, nw, ca, c, f)
                    nxt[key] = nxt.get(key, 0.0) + pr * q
            states = nxt
        res["draw"] += sum(states.values())
    return res


def exact_check(m, totals):
    """The spec's exact checks that the matchup's setting covers, beside the simulation
    (sim.kit.checks); None when it covers none."""
    n = totals.n
    if n == 0 or len(m.decks) > 2:
        return None  # the exact answers are for two players
    table = CheckTable()

    def rate(quantity, seat, exact, expr):
        est, _, _ = totals.ratio(expr)
        # The standard error at the exact rate, floored at one count in n: a rare event
        # seen once is not a disagreement.
        q = min(max(exact, 1 / n), 1 - 1 / n) if n > 1 else 0.5
        table.add(quantity, seat, exact, est, sqrt(q * (1 - q) / n), n)

    rate("P(deck A goes first)", 0, p_first(m), "first_player == 0")
    if m.rules["encounter_mode"]:
        ex = encounter_chain(m)
        rate("P(A wins)", 0, ex["win_a"], "winner == 0")
        rate("P(B wins)", 1, ex["win_b"], "winner == 1")
        rate("P(draw at the round or turn cap)", -1, ex["draw"], "winner == -1")
        rate("P(ends by a killed PC)", -1, ex["killed"], "end == 1")
        rate("P(A's PC killed)", 0, ex["dead_a"], "pc_death_turn_a >= 0")
        rate("P(B's PC killed)", 1, ex["dead_b"], "pc_death_turn_b >= 0")
    elif m.rules["mulligans"] == 0:
        h = m.rules["hand_size"]
        kinds = m.pool.table[:, K.C_KIND]
        for p, s in ((0, "a"), (1, "b")):
            # A Blank is set aside when met, so the hand comes from the other cards alone.
            draw = [c for c in m.decks[p].draw if kinds[c] != K.BLANK]
            q = sum(1 for c in draw if kinds[c] == K.QUEST)
            if h <= len(draw):
                rate("P(a quest in the opening hand)", p, p_quest_in_opening(q, len(draw), h),
                     f"opening_quests_{s} > 0")
    return table.frame()


__all__ = ["combat_outcome", "encounter_chain", "exact_check", "np", "p_first",
           "p_quest_in_opening"]
