"""High Card's exact check: the coin for the first lead, and who wins round 1 where neither
policy reads the led card (random and high), each from the deck lists alone, beside the
Monte Carlo estimate."""

from __future__ import annotations

import functools
from math import comb

from sim.highcard import params as Pa
from sim.highcard import pool as T
from sim.highcard.batch import Matchup
from sim.kit.checks import CheckTable


def values_of(m: Matchup, seat: int) -> list[int]:
    """The values of the seat's number cards, one a copy (Blanks are set aside when drawn)."""
    table = m.pool.table
    return [int(table[c, T.C_VALUE]) for c, n in m.decks[seat].counts
            if table[c, T.C_KIND] == T.NUMBER for _ in range(n)]


def first_card(m: Matchup, seat: int) -> dict[int, float] | None:
    """P(the seat's round-1 card has value v): the hand is hand_size of the number cards
    drawn without replacement; random plays any card of it (so any card of the deck alike),
    high plays its highest: P(highest <= v) = C(cards <= v, h) / C(cards, h). None for a
    policy that reads the led card."""
    kind = int(m.policies[seat][Pa.KIND])
    values = values_of(m, seat)
    n = len(values)
    if kind == Pa.RANDOM:
        return {v: values.count(v) / n for v in set(values)}
    if kind != Pa.HIGH:
        return None
    h = min(m.rules.values["hand_size"], n)

    def at_most(v):
        return comb(sum(x <= v for x in values), h) / comb(n, h)

    return {v: at_most(v) - at_most(v - 1) for v in set(values)}


def exact_check(m: Matchup, totals):
    """The exact checks the setting covers, each beside its estimate (sim.kit.checks)."""
    table = CheckTable()

    estimate = functools.partial(table.estimate, totals)

    estimate("deck A leads round 1 (the coin)", 0, 0.5, "first_leader == 0")
    a, b = first_card(m, 0), first_card(m, 1)
    if a is not None and b is not None:
        win_a = sum(pa * pb for va, pa in a.items() for vb, pb in b.items() if va > vb)
        win_b = sum(pa * pb for va, pa in a.items() for vb, pb in b.items() if va < vb)
        estimate("deck A wins round 1", 0, win_a, "round1 == 0")
        estimate("deck B wins round 1", 1, win_b, "round1 == 1")
        estimate("round 1 is a tie", -1, 1 - win_a - win_b, "round1 == -1")
    return table.frame()
