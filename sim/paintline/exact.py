"""Rallies, games and matches in rally mode as Markov chains, solved exactly (no sampling)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from sim.jit import pure
from sim.paintline import keywords as K
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline.batch import Matchup
from sim.records import RALLY_BINS

TAIL = 1e-16  # stop following a rally once this little probability is still in play
# Deterministic policies draw no random numbers; these only give the call its types.
NO_KEYS = np.zeros(6, dtype=np.uint64)
NO_CTR = np.zeros(6, dtype=np.int64)
# The policies' own decision functions, run as plain Python (a chain has few states).
CHOOSE_HIT = pure(Pol.choose_hit)
CARD_WORTH = pure(Pol.card_worth)


@dataclass(frozen=True)
class RallyState:
    """Everything the rest of a rally depends on, seen from the server's side."""

    to_hit: int  # 0 server, 1 receiver
    step: int
    crit: bool
    pen: int
    in_type: int
    serve: bool
    mute: int
    taps: tuple[tuple[int, ...], tuple[int, ...]]  # server's cards, receiver's cards


@dataclass
class RallyAnswer:
    """Exact quantities of one rally with a given server."""

    server_wins: float
    length: np.ndarray  # P(rally lands exactly k shots), k = 0 .. RALLY_BINS-1 (last: k or more)
    top: np.ndarray  # P(highest index step reached == s)
    mean_length: float
    states: int

    @property
    def survival(self) -> np.ndarray:
        """P(rally reaches index step >= s) for every step s of the ladder."""
        return self.top[::-1].cumsum()[::-1]


def land_chances(bonus: float, need: int, crit_from: int) -> tuple[float, float]:
    """(P(lands without a critical), P(critical)) of one d20 roll; a fractional bonus
    (a player's worth on the die) mixes the two integer bonuses around it."""
    lo_b = math.floor(bonus)
    frac = bonus - lo_b
    crit = (21 - crit_from) / 20.0

    def plain(b: int) -> float:
        lo = max(need - b, 2)  # smallest natural roll that lands on its own
        return max(0, crit_from - lo) / 20.0

    return (1 - frac) * plain(lo_b) + frac * plain(lo_b + 1), crit


class RallyChain:
    """The rally of a rally-mode matchup as an absorbing Markov chain."""

    def __init__(self, matchup: Matchup, flat: tuple[float, float] = (0.0, 0.0)):
        if not matchup.rules.values["rally_mode"]:
            raise ValueError("the exact solver models rally mode (rally_mode = true)")
        for vec in matchup.policies:
            if vec[Pol.RANDOM] == 0 and vec[Pol.PLAYS] != 0 and np.all(
                    vec[[Pol.W_HIT, Pol.W_PEN, Pol.W_LOOK]] == 0):
                raise ValueError("policy has no weights")
        self.m = matchup
        self.table = matchup.pool.table
        self.r = matchup.rules.values
        self.ladder = list(self.r["escalation"])
        self.flat = flat  # a flat modifier on every roll of seat 0 / seat 1

    # --- one turn --------------------------------------------------------------------

    def ability(self, card: int, code: int) -> int:
        for ab, arg in ((T.C_AB1, T.C_ARG1), (T.C_AB2, T.C_ARG2)):
            if self.table[card, ab] == code:
                return int(self.table[card, arg])
        return -1

    def beats(self, t: int, incoming: int) -> bool:
        if t == T.NO_TYPE:
            return False
        return incoming == T.NO_TYPE or (t, incoming) in (
            (T.LOB, T.SPIN), (T.SPIN, T.DRIVE), (T.DRIVE, T.LOB))

    def shot(self, s: RallyState, card: int, adv: int):
        """(bonus, penalty, crit_from, surge, ignore, mute, active) of a hit."""
        if card < 0:
            return 0, 0, 20, 0, False, -1, False
        t = self.table
        bonus = int(t[card, T.C_ABONUS if adv else T.C_NBONUS])
        pen = int(t[card, T.C_APEN if adv else T.C_NPEN])
        cost = int(t[card, T.C_COST])
        active = s.mute < 0 or cost > s.mute or (cost == s.mute and self.r["tie_rule"] == "hitter")
        crit_from, surge, ignore, mute = 20, 0, False, -1
        if active:
            if self.ability(card, K.MUTE) >= 0:
                mute = cost
            ignore = self.ability(card, K.IGNORE) >= 0
            if (n := self.ability(card, K.CRIT)) >= 0:
                crit_from = max(20 - n, 2)
            surge = max(self.ability(card, K.SURGE), 0)
        return bonus, pen, crit_from, surge, ignore, mute, active

    def target(self, s: RallyState) -> int:
        return self.r["crit_target"] if s.crit else self.ladder[s.step]

    def features(self, s: RallyState, shot, cost: int) -> list[float]:
        """The same quantities the engine shows a policy (same arithmetic, same order)."""
        bonus, pen, crit_from, surge, ignore, _, _ = shot
        need = self.target(s) + (0 if ignore else s.pen)

        def chance(b, nd, cf):
            lo = max(min(nd - b, cf), 2)
            return 0.0 if lo > 20 else (21 - lo) / 20.0

        p_hit = chance(bonus, need, crit_from)
        p_crit = min((21 - crit_from) / 20.0, p_hit)
        nxt = min(s.step + 1 + surge, len(self.ladder) - 1)
        miss_c = 1.0 - chance(0, self.r["crit_target"] + pen, 20)
        miss = 1.0 - chance(0, self.ladder[nxt] + pen, 20)
        return [p_hit, pen, p_crit * miss_c + (p_hit - p_crit) * miss, cost]

    def untap_choices(self, prm, cards, taps) -> list[tuple[float, tuple[int, ...]]]:
        """Distribution of tap states after the policy's untap steps."""
        out = [(1.0, taps)]
        for _ in range(self.r["untap_steps"]):
            nxt = []
            for p, tp in out:
                tapped = [i for i, x in enumerate(tp) if x > 0]
                if not tapped or prm[Pol.PLAYS] == 0:
                    nxt.append((p, tp))
                    continue
                if prm[Pol.RANDOM] != 0:
                    picks = [(1 / (len(tapped) + 1), -1)] + [
                        (1 / (len(tapped) + 1), i) for i in tapped]
                else:
                    w = np.array([CARD_WORTH(prm, self.table, cards[i], False)
                                  for i in tapped])
                    picks = [(1.0, tapped[int(np.argmax(w))])]
                for q, i in picks:
                    new = list(tp)
                    if i >= 0:
                        new[i] -= 1
                    nxt.append((p * q, tuple(new)))
            out = nxt
        return out

    def turn(self, s: RallyState):
        """[(probability, next state or None for a miss, landed)] of one turn."""
        seat_of = self.server_seat if s.to_hit == 0 else 1 - self.server_seat
        prm = self.m.policies[seat_of]
        cards = self.m.arsenals[seat_of]
        mine = s.taps[s.to_hit]
        out = []
        for p_untap, taps in self.untap_choices(prm, cards, mine):
            options = [(-1, 0, -1)]
            for i, c in enumerate(cards):
                if taps[i] != 0:
                    continue
                if not s.serve and self.ability(c, K.SERVE) >= 0:
                    continue
                options.append((c, 0, i))
                t = int(self.table[c, T.C_TYPE])
                if t != T.NO_TYPE and (s.serve or self.beats(t, s.in_type)):
                    options.append((c, 1, i))
            shots = [self.shot(s, c, a) for c, a, _ in options]
            if prm[Pol.PLAYS] == 0:
                picks = [(1.0, 0)]
            elif prm[Pol.RANDOM] != 0:
                picks = [(1 / len(options), k) for k in range(len(options))]
            else:
                costs = [int(self.table[c, T.C_COST]) if c >= 0 else 0 for c, _, _ in options]
                feats = np.array([self.features(s, sh, c)
                                  for sh, c in zip(shots, costs, strict=True)])
                picks = [(1.0, int(CHOOSE_HIT(prm, feats, len(options), NO_KEYS, NO_CTR, 0)))]
            for p_pick, k in picks:
                out += self.resolve(s, seat_of, taps, options[k], shots[k], p_untap * p_pick)
        return out

    def resolve(self, s, seat_of, taps, option, shot, prob):
        card, adv, slot = option
        bonus, pen, crit_from, surge, ignore, mute, active = shot
        taps = list(taps)
        if card >= 0:
            if active and (n := self.ability(card, K.READY)) > 0:
                for _ in range(n):
                    others = [i for i, x in enumerate(taps) if i != slot and x > 0]
                    if not others:
                        break
                    best = max(others, key=lambda i: (taps[i], -i))
                    taps[best] -= 1
            taps[slot] = 2
        taps = tuple(taps)
        both = list(s.taps)
        both[s.to_hit] = taps
        need = self.target(s) + (0 if ignore else s.pen)
        p_plain, p_crit = land_chances(bonus + self.flat[seat_of], need, crit_from)
        p_miss = 1.0 - p_plain - p_crit
        top = len(self.ladder) - 1
        nxt_type = int(self.table[card, T.C_TYPE]) if card >= 0 else T.NO_TYPE
        out = []
        for p_land, crit in ((p_plain, False), (p_crit, True)):
            if p_land > 0:
                ns = RallyState(1 - s.to_hit, min(s.step + 1 + surge, top), crit, pen,
                                nxt_type, False, mute if active else -1, tuple(both))
                out.append((prob * p_land, ns, True))
        if p_miss > 0:
            if s.serve and self.r["serve_miss"] == "replay":
                ns = RallyState(s.to_hit, s.step, s.crit, s.pen, s.in_type, True, s.mute,
                                tuple(both))
                out.append((prob * p_miss, ns, False))
            else:
                out.append((prob * p_miss, None, False))
        return out

    # --- the whole rally -------------------------------------------------------------

    def solve(self, server_seat: int) -> RallyAnswer:
        """Exact rally with seat `server_seat` serving."""
        from scipy import sparse
        from scipy.sparse.linalg import splu

        self.server_seat = server_seat
        arsenals = self.m.arsenals
        start = RallyState(0, 0, False, 0, T.NO_TYPE, True, -1,
                           (tuple(0 for _ in arsenals[server_seat]),
                            tuple(0 for _ in arsenals[1 - server_seat])))
        index = {start: 0}
        order = [start]
        land, stay, miss = [], [], []
        k = 0
        while k < len(order):
            s = order[k]
            for p, ns, landed in self.turn(s):
                if ns is None:
                    miss.append((k, p))
                    continue
                if ns not in index:
                    index[ns] = len(order)
                    order.append(ns)
                (land if landed else stay).append((k, index[ns], p))
            k += 1
        n = len(order)

        def matrix(entries):
            if not entries:
                return sparse.csr_matrix((n, n))
            r, c, v = zip(*entries, strict=True)
            return sparse.csr_matrix((v, (r, c)), shape=(n, n))

        L, M = matrix(land), matrix(stay)
        a = np.zeros(n)
        for i, p in miss:
            a[i] += p
        # Non-landing moves (a replayed serve) are closed over before each landed shot.
        lu = splu(sparse.csc_matrix(sparse.identity(n) - M))
        steps = np.array([st.step for st in order])
        length = np.zeros(RALLY_BINS)
        top = np.zeros(len(self.ladder))
        v = np.zeros(n)
        v[0] = 1.0
        mean = server_wins = 0.0
        for landed in range(1_000_000):
            w = lu.solve(v, trans="T")  # where the mass is when the next shot is rolled
            ended = w * a  # ... and misses
            p_end = ended.sum()
            length[min(landed, RALLY_BINS - 1)] += p_end
            np.add.at(top, steps, ended)
            mean += landed * p_end
            if landed % 2 == 1:
                server_wins += p_end  # the server landed the last shot
            v = L.T @ w
            if v.sum() < TAIL:
                break
        return RallyAnswer(server_wins, length, top, mean, n)


def rally_answers(matchup: Matchup, flat=(0.0, 0.0)) -> tuple[RallyAnswer, RallyAnswer]:
    """The rally with seat 0 serving and with seat 1 serving."""
    chain = RallyChain(matchup, flat)
    return chain.solve(0), chain.solve(1)


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


@dataclass
class ExactAnswer:
    """Rally, game and match quantities of a rally-mode matchup."""

    rallies: tuple[RallyAnswer, RallyAnswer]
    game_a_opens: float
    game_b_opens: float
    match: float

    def table(self):
        """Tidy long table: quantity, server, value."""
        import pandas as pd

        rows = []
        for seat, ans in enumerate(self.rallies):
            rows.append(("P(server wins point)", seat, ans.server_wins))
            rows.append(("mean rally length", seat, ans.mean_length))
            for k, p in enumerate(ans.survival):
                rows.append((f"P(index step >= {k})", seat, p))
        rows.append(("P(A wins game), A opens", -1, self.game_a_opens))
        rows.append(("P(A wins game), B opens", -1, self.game_b_opens))
        rows.append(("P(A wins match)", -1, self.match))
        return pd.DataFrame(rows, columns=["quantity", "server", "exact"])


def solve(matchup: Matchup, flat=(0.0, 0.0)) -> ExactAnswer:
    a, b = rally_answers(matchup, flat)
    r = matchup.rules.values
    ga = game_win(a.server_wins, b.server_wins, r["points_to_win"], r["win_by"], True)
    gb = game_win(a.server_wins, b.server_wins, r["points_to_win"], r["win_by"], False)
    return ExactAnswer((a, b), ga, gb, match_win(ga, gb, r["match_games"]))


def point_win(matchup: Matchup, flat=(0.0, 0.0)) -> float:
    """P(seat A wins a point), serving half the points and receiving half."""
    a, b = rally_answers(matchup, flat)
    return 0.5 * a.server_wins + 0.5 * (1 - b.server_wins)


def worth_on_the_die(matchup: Matchup) -> float:
    """The flat d20 modifier that gives seat A with only the Default Shot the same
    point-win probability as seat A's arsenal and policy against the same opponent."""
    import dataclasses

    from scipy.optimize import brentq

    goal = point_win(matchup)
    plain_policy = np.array([d for _, _, d in Pol.FIELDS.values()], dtype=np.float64)
    plain_policy[Pol.PLAYS] = 0
    bare = dataclasses.replace(matchup, arsenals=((), matchup.arsenals[1]),
                               policies=(plain_policy, matchup.policies[1]))
    f = lambda x: point_win(bare, (x, 0.0)) - goal  # noqa: E731
    lo, hi = -19.0, 19.0
    if f(lo) > 0 or f(hi) < 0:
        return float("nan")
    return brentq(f, lo, hi, xtol=1e-6)


def check(answer: ExactAnswer, rally_len: np.ndarray, rally_top: np.ndarray, a_wins: int,
          matches: int, flag_z: float = 4.0):
    """Monte Carlo against exact: per quantity the exact value, the estimate, its standard
    error, z and a flag when |z| > flag_z. rally_len and rally_top are rally counts summed
    over matches, [server seat, shots landed] and [server seat, highest step]."""
    import pandas as pd

    rows = []

    def add(quantity, server, exact_value, k, n, mean=None, var=None):
        if n == 0:
            return
        if mean is None:
            est = k / n
            se = math.sqrt(max(est * (1 - est), 0.0) / n)
        else:
            est, se = mean, math.sqrt(var / n)
        if se > 0:
            z = (est - exact_value) / se
        else:  # every draw alike: the exact value must be that one, up to rounding
            z = 0.0 if abs(est - exact_value) < 1e-9 else math.inf
        rows.append((quantity, server, exact_value, est, se, z, n))

    bins = np.arange(rally_len.shape[1])
    for s, ans in enumerate(answer.rallies):
        counts = rally_len[s]
        n = int(counts.sum())
        add("P(server wins point)", s, ans.server_wins, int(counts[1::2].sum()), n)
        exact_capped = float((bins * ans.length).sum())
        if n > 1:
            mean = float((bins * counts).sum() / n)
            var = float((counts * (bins - mean) ** 2).sum() / (n - 1))
            add("mean rally length", s, exact_capped, 0, n, mean, var)
        top = rally_top[s]
        reached = top[::-1].cumsum()[::-1]
        for k in range(1, len(top)):
            add(f"P(index step >= {k})", s, float(ans.survival[k]), int(reached[k]), n)
    add("P(A wins match)", -1, answer.match, a_wins, matches)
    df = pd.DataFrame(rows, columns=["quantity", "server", "exact", "estimate", "se", "z", "n"])
    df["flag"] = df.z.abs() > flag_z
    return df
