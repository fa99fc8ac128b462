"""Payne's exact answers (battle success, points per round, role-lacking hands, the battle-mode
score chain) beside the simulation's estimates, for the settings they cover."""

from __future__ import annotations

import functools
import math

import numpy as np

from sim.kit.checks import CheckTable
from sim.payne import options as O
from sim.payne import policy as Pol
from sim.payne import pool as T
from sim.payne.batch import Matchup


def role_counts(m: Matchup, seat: int) -> tuple[int, int, int]:
    """(cards, offensive characters, defensive characters) of a seat's deck; Blanks are not
    counted, as draws set them aside."""
    table = m.pool.table
    n = o = d = 0
    for c, k in m.decks[seat].counts:
        n += k * (table[c, T.C_KIND] != T.BLANK)
        if table[c, T.C_KIND] == T.CHARACTER:
            o += k * (table[c, T.C_ROLE] == T.OFF)
            d += k * (table[c, T.C_ROLE] == T.DEF)
    return n, o, d


def lacks_role(n: int, o: int, d: int, h: int) -> float:
    """P(a hand of h from n cards lacks a role) = [C(n-o,h) + C(n-d,h) - C(n-o-d,h)] / C(n,h)."""
    return (math.comb(n - o, h) + math.comb(n - d, h) - math.comb(n - o - d, h)) / math.comb(n, h)


def side_law(m: Matchup, seat: int, mask: int, shares: np.ndarray) -> np.ndarray:
    """q(s): how the seat's policy names a side with its offensive arrows `mask`, in round 1
    with no effects (prior: its argmax over the list shares, ties at random)."""
    kind = m.policies[seat][Pol.KIND]
    g = O.CHOICES["geometry"].index(m.rules.values["geometry"])
    meets = np.array([(mask >> (s if g == 0 else (s + 2) % 4)) & 1 for s in range(4)])
    if kind == Pol.RANDOM or meets.sum() == 0 and kind == Pol.PLAIN:
        return np.full(4, 0.25)
    if kind == Pol.PLAIN:
        return meets / meets.sum()
    allowed = meets if meets.sum() else np.ones(4, dtype=int)
    best = max(shares[s] for s in range(4) if allowed[s])
    top = np.array([allowed[s] and shares[s] == best for s in range(4)], dtype=float)
    return top / top.sum()


def battle_success(m: Matchup, seat: int) -> float:
    """Check 1 averaged over the seat's offensive copies: P = sum_s q(s) o[meet(s)] w(s),
    w(s) = share of the other deck's defensive copies with s lit."""
    table = m.pool.table
    g = O.CHOICES["geometry"].index(m.rules.values["geometry"])
    shares = np.zeros(4)
    total = 0
    for c, k in m.decks[1 - seat].counts:
        if table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == T.DEF:
            total += k
            shares += k * np.array([(table[c, T.C_ARROWS] >> s) & 1 for s in range(4)])
    shares /= total
    p = n_off = 0.0
    for c, k in m.decks[seat].counts:
        if table[c, T.C_KIND] != T.CHARACTER or table[c, T.C_ROLE] != T.OFF:
            continue
        mask = int(table[c, T.C_ARROWS])
        q = side_law(m, seat, mask, shares)
        hit = sum(q[s] * ((mask >> (s if g == 0 else (s + 2) % 4)) & 1) * shares[s]
                  for s in range(4))
        p += k * hit
        n_off += k
    return p / n_off


def plays_nothing(m: Matchup, seat: int) -> bool:
    """Round 1 has no effects from this seat: plain, or no playable card in the deck."""
    kind = m.policies[seat][Pol.KIND]
    if kind == Pol.PLAIN:
        return True
    table = m.pool.table
    return kind == Pol.RANDOM and not any(
        table[c, T.C_KIND] in (T.BOOSTER, T.EVENT)
        or table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_EFF1] != T.NONE
        for c, _ in m.decks[seat].counts)


def role_chain(m: Matchup) -> tuple[float, float] | None:
    """Check 3's chain (sim.payne.fielding_chain): each seat's expected unfielded rounds,
    where it applies: decks of characters and blanks, no card either seat plays (plain, or
    no character with a power), no deck-out loss, and a match no score can end before
    `max_rounds` (each round gives a player at most 2 points or `unfielded_points`)."""
    # deferred: the chain loads scipy, wanted only where a setting it covers is checked
    from sim.payne import fielding_chain as F

    R, table = m.rules.values, m.pool.table
    if R["battle_mode"] or R["deck_out"] != "continue" \
            or R["points_to_win"] <= R["max_rounds"] * max(2, R["unfielded_points"]):
        return None
    seats = []
    for seat in (0, 1):
        counts = m.decks[seat].counts
        if any(table[c, T.C_KIND] not in (T.CHARACTER, T.BLANK) for c, _ in counts):
            return None
        if m.policies[seat][Pol.KIND] != Pol.PLAIN and any(
                table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_EFF1] != T.NONE
                for c, _ in counts):
            return None
        n, o, _ = role_counts(m, seat)
        seats.append(F.Seat(n, o))
    return F.unfielded_means(*seats, R["opening_hand"], R["attack_draw"],
                             R["unfielded_draw"], R["max_rounds"], R["setup_redraw_cap"])


def score_chain(a: float, b: float, points: int, max_rounds: int):
    """Battle mode: P(A wins), P(draw) and the law of rounds, by dynamic programming over
    (score A, score B) at the start of each round."""
    law = np.zeros(max_rounds + 1)
    win = draw = 0.0
    states = {(0, 0): 1.0}
    for r in range(1, max_rounds + 1):
        nxt: dict[tuple[int, int], float] = {}
        for (x, y), pr in states.items():
            for first in (0, 1):
                for o1 in (0, 1):
                    p1 = (a if first == 0 else b) if o1 else 1 - (a if first == 0 else b)
                    x1, y1 = x, y
                    won1 = first if o1 else 1 - first
                    x1 += won1 == 0
                    y1 += won1 == 1
                    mass = pr * 0.5 * p1
                    if max(x1, y1) >= points:
                        law[r] += mass
                        win += mass * (x1 >= points)
                        continue
                    second = 1 - first
                    for o2 in (0, 1):
                        pa = a if second == 0 else b
                        p2 = pa if o2 else 1 - pa
                        won2 = second if o2 else first
                        x2, y2 = x1 + (won2 == 0), y1 + (won2 == 1)
                        if max(x2, y2) >= points:
                            law[r] += mass * p2
                            win += mass * p2 * (x2 >= points)
                        else:
                            nxt[(x2, y2)] = nxt.get((x2, y2), 0.0) + mass * p2
        states = nxt
    rest = sum(states.values())
    law[max_rounds] += rest
    draw += rest
    return win, draw, law


def exact_check(m: Matchup, totals):
    """The exact checks the setting covers, each beside its Monte Carlo estimate
    (sim.kit.checks); None when the setting covers none."""
    R = m.rules.values
    table = CheckTable()

    estimate = functools.partial(table.estimate, totals)

    if not R["battle_mode"] and R["setup_redraw_cap"] >= 1:
        for seat, col in enumerate(("redraws_a", "redraws_b")):
            n, o, d = role_counts(m, seat)
            q = lacks_role(n, o, d, min(R["opening_hand"], n))
            estimate("opening hand lacks a role", seat, q, f"{col} > 0")
            estimate("mean setup redraws", seat,
                     sum(q**k for k in range(1, R["setup_redraw_cap"] + 1)), col)
    quiet = R["battle_mode"] or (plays_nothing(m, 0) and plays_nothing(m, 1)
                                 and m.policies[0][Pol.KIND] != Pol.PRIOR
                                 and m.policies[1][Pol.KIND] != Pol.PRIOR)
    if quiet and R["points_to_win"] >= 2:
        a, b = battle_success(m, 0), battle_success(m, 1)
        # Round 1 of the matches where both seats fielded an attack.
        ok = "((r1_attack_a >= 0) & (r1_attack_b >= 0))"
        estimate("round-1 attack succeeds", 0, a, f"r1_attack_a * {ok}", ok)
        estimate("round-1 attack succeeds", 1, b, f"r1_attack_b * {ok}", ok)
        for v, ex in ((2, a * (1 - b)), (1, a * b + (1 - a) * (1 - b)), (0, (1 - a) * b)):
            estimate(f"round-1 points of A = {v}", 0, ex,
                     f"((r1_attack_a + 1 - r1_attack_b) == {v}) & {ok}", ok)
        scripted = all(m.policies[s][Pol.KIND] != Pol.PRIOR for s in (0, 1))
        if scripted and R["points_to_win"] > R["max_rounds"] * max(2, R["unfielded_points"]):
            # no score ends a match: every round is played whole or not at all, and a
            # fielded character is any copy of its role alike (plain and random field
            # blind to arrows), so each fully played round scores as round 1 does
            full = "rounds_0 + rounds_1 + rounds_2"
            for v, ex in ((2, a * (1 - b)), (1, a * b + (1 - a) * (1 - b)), (0, (1 - a) * b)):
                estimate(f"full-round points of A = {v}", 0, ex, f"rounds_{v}", full)
        iid = R["battle_mode"] and scripted
        if iid:
            win, draw, law = score_chain(a, b, R["points_to_win"], R["max_rounds"])
            estimate("A wins (score chain)", 0, win, "winner == 0")
            if draw > 0:
                estimate("draw (score chain)", -1, draw, "winner == -1")
            estimate("mean rounds (score chain)", -1,
                     float((law * np.arange(len(law))).sum()), "rounds")
            for r in np.argsort(law)[::-1][:2]:
                estimate(f"rounds = {r} (score chain)", -1, float(law[r]), f"rounds == {r}")
    chain = role_chain(m)
    if chain is not None:
        for seat, (col, value) in enumerate(zip(("unfielded_a", "unfielded_b"), chain,
                                                strict=True)):
            estimate("mean rounds unfielded (role chain)", seat, value, col)
    df = table.frame()
    return df if len(df) else None
