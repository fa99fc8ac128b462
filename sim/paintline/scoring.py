"""Game and match odds from point odds, exactly: first to N points by a lead of k with the
serve alternating, and a match of 1, 3, 5 or 7 games with the opening serve alternating."""

from __future__ import annotations

from functools import cache

import numpy as np


def game_win(p_a_serving: float, p_b_serving: float, points: int, win_by: int,
             a_serves_first: bool, score: tuple[int, int] = (0, 0)) -> float:
    """P(seat A wins a game from `score` (A's points, B's points)): the serve alternates
    every point, A served the game's first point when a_serves_first; first to `points`
    with a lead of `win_by`. p_x_serving is P(the server wins the point) when x serves."""

    def p_a_point(t: int) -> float:
        a_serves = (t % 2 == 0) == a_serves_first
        return p_a_serving if a_serves else 1 - p_b_serving

    # Once both scores are at least points - win_by only the lead and whose serve it is
    # matter: a small linear system over (lead, parity of the point number) solves it.
    leads = [(d, par) for d in range(-win_by + 1, win_by) for par in (0, 1)]
    idx = {key: i for i, key in enumerate(leads)}
    A = np.eye(len(leads))
    rhs = np.zeros(len(leads))
    for (d, par), i in idx.items():
        p = p_a_point(par)
        for dd, q in ((d + 1, p), (d - 1, 1 - p)):
            if dd >= win_by:
                rhs[i] += q
            elif dd > -win_by:
                A[i, idx[(dd, 1 - par)]] -= q
    late = np.linalg.solve(A, rhs)

    @cache
    def win(a: int, b: int) -> float:
        if a >= points and a - b >= win_by:
            return 1.0
        if b >= points and b - a >= win_by:
            return 0.0
        if min(a, b) >= points - win_by:
            return float(late[idx[(a - b, (a + b) % 2)]])
        p = p_a_point(a + b)
        return p * win(a + 1, b) + (1 - p) * win(a, b + 1)

    return win(*score)


def game_table(p_a_serving: float, p_b_serving: float, points: int, win_by: int,
               a_serves_first: bool):
    """P(A wins the game) from every score up to points + win_by, as a tidy table."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pandas as pd

    rows = [(a, b, game_win(p_a_serving, p_b_serving, points, win_by, a_serves_first, (a, b)))
            for a in range(points + win_by) for b in range(points + win_by)]
    return pd.DataFrame(rows, columns=["score_a", "score_b", "p_a_wins_game"])


def match_win(g_a_opens: float, g_b_opens: float, games: int) -> float:
    """P(seat A wins a best-of-`games` match; the first server of the match is decided by
    the roll-off (even odds) and the opening serve alternates game to game."""
    need = games // 2 + 1

    def from_start(a_opens_first: bool) -> float:
        @cache
        def win(a: int, b: int) -> float:
            if a == need:
                return 1.0
            if b == need:
                return 0.0
            a_opens = ((a + b) % 2 == 0) == a_opens_first
            g = g_a_opens if a_opens else g_b_opens
            return g * win(a + 1, b) + (1 - g) * win(a, b + 1)

        return win(0, 0)

    return 0.5 * from_start(True) + 0.5 * from_start(False)
