"""Rallies, games and matches in rally mode as Markov chains, solved exactly (no sampling)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from sim.core.jit import pure
from sim.kit.checks import CheckTable
from sim.paintline import abilities as A
from sim.paintline import keywords as K
from sim.paintline import order as Ord
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import shots as Sh
from sim.paintline.batch import Matchup
from sim.paintline.options import TIE_RULE
from sim.paintline.schema import RALLY_BINS, TOP_STEP
from sim.paintline.scoring import game_win, match_win

TAIL = 1e-16  # stop following a rally once this little probability is still in play
# Deterministic policies draw no random numbers; these only give the call its types.
NO_KEYS = np.zeros(6, dtype=np.uint64)
NO_CTR = np.zeros(6, dtype=np.int64)
# The engine's own rules and the policies' own decisions, run as plain Python (a chain has
# few states): one copy of the keyword logic and the odds, shared with the kernel.
CHOOSE_HIT = pure(Pol.choose_hit)
UNTAP_WORTH = pure(Pol.untap_worth)
ABILITY_ARG = pure(A.ability_arg)
SERVE_ONLY = pure(A.serve_only)
IN_FORCE = pure(A.abilities_in_force)
SHOT_SHAPE = pure(A.shot_shape)
VALUE_SET = pure(Sh.value_set)
OPTION_ODDS = pure(Sh.option_odds)
HAS_ADVANTAGE = pure(Ru.has_advantage)
HIT_CHANCE = pure(Ru.hit_chance)


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
        return HIT_CHANCE(b, need, crit_from) - crit

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

    def shot(self, s: RallyState, card: int, adv: int):
        """(bonus, penalty, crit_from, surge, ignore, mute, active) of a hit."""
        if card < 0:
            return 0, 0, 20, 0, False, -1, False
        bonus, pen = VALUE_SET(self.table, card, adv)
        active = IN_FORCE(self.table, card, s.mute, TIE_RULE.index(self.r["tie_rule"]))
        crit_from, surge, ignore, mute = SHOT_SHAPE(self.table, card) if active else (
            20, 0, 0, -1)
        return int(bonus), int(pen), int(crit_from), int(surge), bool(ignore), int(mute), active

    def target(self, s: RallyState) -> int:
        return self.r["crit_target"] if s.crit else self.ladder[s.step]

    def features(self, s: RallyState, shot, cost: int) -> list[float]:
        """The same quantities the engine shows a policy, by the engine's own function."""
        bonus, pen, crit_from, surge, ignore, _, _ = shot
        need = self.target(s) + (0 if ignore else s.pen)
        nxt = self.ladder[min(s.step + 1 + surge, len(self.ladder) - 1)]
        p_hit, look = OPTION_ODDS(bonus, pen, crit_from, need, nxt, self.r["crit_target"], True)
        return [p_hit, pen, look, cost]

    def untap_choices(self, prm, cards, taps) -> list[tuple[float, tuple[int, ...]]]:
        """Distribution of tap states after the policy's untap steps."""
        out = [(1.0, taps)]
        for _ in range(self.r["untap_steps"]):
            nxt = []
            for p, tp in out:
                nxt += self.step_choices(prm, cards, tp, -1, optional=True, prob=p)
            out = nxt
        return out

    def step_choices(self, prm, cards, taps, skip, optional, prob):
        """[(probability, taps)] after one untap step on a card the policy picks among the
        distinct tapped cards but skip (the engine's tapped_choices and choose_untap or
        choose_ready); optional steps may be passed up (the untap, not Ready)."""
        slots, seen = [], []
        for i, x in enumerate(taps):
            if i != skip and x > 0 and (cards[i], x) not in seen:
                seen.append((cards[i], x))
                slots.append(i)
        if not slots or (optional and prm[Pol.PLAYS] == 0):
            return [(prob, taps)]
        if prm[Pol.RANDOM] != 0:
            picks = [-1] * optional + slots
            q = 1 / len(picks)
        else:
            w = [UNTAP_WORTH(prm, self.table, cards[i], taps[i]) for i in slots]
            picks, q = [slots[int(np.argmax(w))]], 1.0
        out = []
        for i in picks:
            new = list(taps)
            if i >= 0:
                new[i] -= 1
            out.append((prob * q, tuple(new)))
        return out

    def turn(self, s: RallyState):
        """[(probability, next state or None for a miss, landed)] of one turn: the untap
        before or after the hit is chosen, as the policy orders them."""
        seat_of = self.server_seat if s.to_hit == 0 else 1 - self.server_seat
        prm = self.m.policies[seat_of]
        cards = self.m.arsenals[seat_of]
        mine = s.taps[s.to_hit]
        code = int(prm[Pol.ORDER])
        first = 0.5 if code < 0 else float(list(Ord.PERMS[code]).index(Ord.UNTAP)
                                           < list(Ord.PERMS[code]).index(Ord.PLAY))
        out = []
        for p_order, untap_first in ((first, True), (1.0 - first, False)):
            if p_order == 0:
                continue
            for p_untap, taps in self.untap_choices(prm, cards, mine):
                # Hit chosen after the untap, or before it (the untap then cannot reach it).
                for p_pick, option, shot in self.hits(s, prm, cards, taps if untap_first
                                                      else mine):
                    out += self.resolve(s, seat_of, taps, option, shot,
                                        p_order * p_untap * p_pick)
        return out

    def hits(self, s: RallyState, prm, cards, taps):
        """[(probability, option, shot)] of the policy's hit among the ready cards."""
        options = [(-1, 0, -1)]
        for i, c in enumerate(cards):
            if taps[i] != 0 or any(taps[j] == 0 and cards[j] == c for j in range(i)):
                continue  # tapped, or a copy of a ready card already offered
            if not s.serve and SERVE_ONLY(self.table, c):
                continue
            options.append((c, 0, i))
            if HAS_ADVANTAGE(int(self.table[c, T.C_TYPE]), s.in_type, int(s.serve)):
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
        return [(p, options[k], shots[k]) for p, k in picks]

    def resolve(self, s, seat_of, taps, option, shot, prob):
        card, adv, slot = option
        if card < 0 or not shot[6] or (n := ABILITY_ARG(self.table, card, K.READY)) <= 0:
            return self.resolve_taps(s, seat_of, taps, option, shot, prob)
        # Ready n: the policy's choice of card for each step, then the hit card is tapped.
        prm = self.m.policies[seat_of]
        cards = self.m.arsenals[seat_of]
        outs = [(prob, tuple(taps))]
        for _ in range(n):
            outs = [o for p, tp in outs
                    for o in self.step_choices(prm, cards, tp, slot, optional=False, prob=p)]
        return [r for p, tp in outs
                for r in self.resolve_taps(s, seat_of, tp, option, shot, p)]

    def resolve_taps(self, s, seat_of, taps, option, shot, prob):
        card, adv, slot = option
        bonus, pen, crit_from, surge, ignore, mute, active = shot
        taps = list(taps)
        if card >= 0:
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
        # deferred: scipy and statsmodels load only when a statistic needs them
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


@dataclass
class ExactAnswer:
    """Rally, game and match quantities of a rally-mode matchup."""

    rallies: tuple[RallyAnswer, RallyAnswer]
    game_a_opens: float
    game_b_opens: float
    match: float

    def table(self):
        """Tidy long table: quantity, server, value."""
        # deferred: pandas and pyarrow load only when records are read or written
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
    # deferred: scipy and statsmodels load only when a statistic needs them
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
          matches: int):
    """Monte Carlo against exact, one row per quantity (sim.kit.checks). rally_len and rally_top
    are rally counts summed over matches, [server seat, shots landed] and [server seat,
    highest step]."""
    table = CheckTable()
    bins = np.arange(rally_len.shape[1])
    for s, ans in enumerate(answer.rallies):
        counts = rally_len[s]
        n = int(counts.sum())
        table.rate("P(server wins point)", s, ans.server_wins, int(counts[1::2].sum()), n)
        if n > 1:
            mean = float((bins * counts).sum() / n)
            var = float((counts * (bins - mean) ** 2).sum() / (n - 1))
            table.mean("mean rally length", s, float((bins * ans.length).sum()), mean, var, n)
        top = rally_top[s]
        reached = top[::-1].cumsum()[::-1]
        for k in range(1, len(top)):
            table.rate(f"P(index step >= {k})", s, float(ans.survival[k]), int(reached[k]), n,
                       TOP_STEP, k)
    table.rate("P(A wins match)", -1, answer.match, a_wins, matches)
    return table.frame()
