"""Payne turns, battles and rounds played by both engines from one hand-built state (the
kernel's functions on its arrays and the reference's on its seats, from the same streams),
what each left read into one plain form and asserted equal, and small readers of the
matches both engines play alike; the Payne rule-index tests build on it."""


import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.kit.game import get
from sim.payne import engine as E
from sim.payne import pool as T
from sim.payne import rules as Ru
from sim.payne import state as S
from sim.payne import unseen as U
from sim.payne.params import CHOICE_FIELDS
from sim.payne.reference import Match
from sim.payne.schema import SCHEMA

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
N, E_, S_, W = 1, 2, 4, 8
ALL = N | E_ | S_ | W
# log columns
ROUND, KIND, ATT, OFF_CARD, DEF_CARD, SIDE, OFF_MASK, DEF_MASK, AUTO, SUCCESS, PTS_A, PTS_B = \
    range(12)



def matchup(policy="plain", policy_b=None, decks=("offense", "defense"), **rules):
    return GAME.load_matchup(FOLDER, *decks, policy, policy_b, rules, [])


def with_choices(m, seat, **choices):
    """The matchup with one seat's policy choices (reveal_answer, effect_order) changed."""
    vecs = [v.copy() for v in m.policies]
    for key, word in choices.items():
        slot, words = CHOICE_FIELDS[key]
        vecs[seat][slot] = words.index(word)
    return dataclasses.replace(m, policies=tuple(vecs))


def lit_count(mask):
    return bin(int(mask)).count("1")


# One hand-built state, both engines ------------------------------------------------------


@dataclass
class Side:
    """A seat's hand-built state: cards by id."""

    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ("avery-quill", "kurt-osgood", "laptop", "pop-quiz") * 3
    off: str | None = None  # a fielded character (battles only)
    dfn: str | None = None
    off_mask: int | None = None  # its arrows now (default: the print)
    dfn_mask: int | None = None
    score: int = 0
    ban_next: int = 0  # a Ban from the round before: binds him in the round about to start
    ban_now: int = 0
    lie: tuple[int, int] = (0, 0)  # MayLie in effect, by role
    auto: tuple[int, int] = (0, 0)  # AutoWin in effect, by role
    pending: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # played, by role


@dataclass
class Seen:
    """What one seat holds after the engine ran, in the engines' common words."""

    hand: list[int]
    deck: list[int]  # undrawn, the next first
    discards: int
    score: int
    off: int
    dfn: int
    off_mask: int
    dfn_mask: int
    off_belief: int
    dfn_belief: int
    ban_now: int
    ban_next: int
    lie: list[int]
    auto: list[int]
    pending: list[int]  # cards waiting for their battle, by role
    unfielded: int
    redraws: int
    attacks: int
    attack_wins: int
    decked: int


@dataclass
class Left:
    """What a step of play left: both seats, the match's state, its log and streams."""

    seats: list[Seen]
    round: int
    over: int
    winner: int
    end: int
    autowins: int
    log: list[tuple[int, ...]]
    know: list
    seen: list
    ctr: list
    card_stats: list
    answer: str | None = None  # a Reveal step's answer: a side, or "none"


def start(m, sides, rnd=1, seed=1, know=-1):
    """The reference match in the hand-built state, in round `rnd` (a round step plays the
    next one); what each seat knows of the opposing battlers: `know` ([seat, role, side], or
    one value for all)."""
    g = Match(m, seed, 0, SCHEMA.log_rows)
    for seat, sd in zip(g.seats, sides, strict=True):
        seat.deck, seat.hand = ids(m, *sd.deck), ids(m, *sd.hand)
        seat.score, seat.ban_next, seat.ban_now = sd.score, sd.ban_next, sd.ban_now
        seat.lie, seat.auto = list(sd.lie), list(sd.auto)
        seat.pending = [ids(m, *sd.pending[0]), ids(m, *sd.pending[1])]
        for role, (name, mask) in enumerate(((sd.off, sd.off_mask), (sd.dfn, sd.dfn_mask))):
            c = -1 if name is None else ids(m, name)[0]
            m0 = 0 if c < 0 else int(m.pool.table[c, T.C_ARROWS]) if mask is None else mask
            attr = ("off", "dfn")[role]
            setattr(seat, attr, c)
            setattr(seat, f"{attr}_mask", m0)
            setattr(seat, f"{attr}_belief", m0)
    g.round = rnd
    g.know[:] = know
    return g


def kernel_of(g):
    """The kernel's arrays holding the reference match's state."""
    P = np.zeros((2, S.PLAYER_SIZE), dtype=np.int64)
    for p, seat in enumerate(g.seats):
        P[p, S.SCORE] = seat.score
        P[p, S.DECK:S.DECK + len(seat.deck)] = seat.deck
        P[p, S.DECK_TOP], P[p, S.DECK_LEN] = 0, len(seat.deck)
        P[p, S.HAND:S.HAND + len(seat.hand)] = seat.hand
        P[p, S.HAND_N] = len(seat.hand)
        P[p, S.DISC_N] = len(seat.discard)
        P[p, S.OFF], P[p, S.DEF] = seat.off, seat.dfn
        P[p, S.OFF_MASK], P[p, S.DEF_MASK] = seat.off_mask, seat.dfn_mask
        P[p, S.OFF_BELIEF], P[p, S.DEF_BELIEF] = seat.off_belief, seat.dfn_belief
        P[p, S.BAN_NOW], P[p, S.BAN_NEXT] = seat.ban_now, seat.ban_next
        P[p, S.LIE_OFF], P[p, S.LIE_DEF] = seat.lie
        P[p, S.AUTO_OFF], P[p, S.AUTO_DEF] = seat.auto
        P[p, S.PEND_OFF], P[p, S.PEND_DEF] = map(len, seat.pending)
        P[p, S.UNFIELDED], P[p, S.REDRAWS] = seat.unfielded, seat.redraws
        P[p, S.ATTACKS], P[p, S.ATTACK_WINS] = seat.attacks, seat.attack_wins
        P[p, S.SETUP_FAIL], P[p, S.DECKED] = seat.setup_failed, seat.decked
        P[p, S.ROUND_PTS] = seat.round_points
    G = np.zeros(S.GAME_SIZE, dtype=np.int64)
    G[S.ROUND], G[S.FIRST], G[S.END], G[S.OVER] = g.round, g.first, g.end, g.over
    G[S.WINNER], G[S.AUTOWINS] = g.winner, g.autowins
    G[S.ROUNDS_0:S.ROUNDS_0 + 3] = g.rounds_by_points
    G[S.R1_ATTACK:S.R1_ATTACK + 2] = g.round1_attacks
    table, views, R, prms, _, _, in_deck, battlers, n_battlers = g.m.arrays()
    return dict(table=table, views=views, R=R, prms=prms, P=P, G=G,
                KN=g.know.copy(), in_deck=in_deck, seen=kernel_seen(views, in_deck, g.seen),
                drawn=g.drawn.copy(),
                battlers=battlers, n_battlers=n_battlers, cs=g.cs.copy(),
                hist=np.zeros((1, 2, 3), dtype=np.int32), keys=g.keys.copy(),
                ctr=g.ctr.copy(), fw=np.zeros(8), buf=np.zeros(S.CAP, dtype=np.int64),
                order=np.zeros(4, dtype=np.int64), flipped=np.zeros(4, dtype=np.int64),
                log=np.zeros((1, SCHEMA.log_rows, len(SCHEMA.log_columns)), dtype=np.int32))


def kernel_seen(views, in_deck, seen) -> np.ndarray:
    """A seat's counts of cards seen as the kernel keeps them: followed by his tallies of
    the opposing characters not yet seen (counted afresh from the counts) and what the
    matchup's matches start from."""
    n = seen.shape[1]
    out = np.zeros((2, U.width(n)), dtype=np.int64)
    U.prepare(views, in_deck, out)
    out[:, :n] = seen
    U.count_unseen(views, in_deck, out)
    return out


def left_by_kernel(k):
    """What the kernel left, in the reference's plain form; the tallies of unseen characters
    it kept card by card must equal those counted afresh from what each seat has seen."""
    P, G, n = k["P"], k["G"], len(k["table"])
    seen = k["seen"]
    assert (seen == kernel_seen(k["views"], k["in_deck"], seen[:, :n])).all(), seen[:, n:]
    seats = []
    for p in range(2):
        def at(slot, p=p):
            return int(P[p, slot])
        seats.append(Seen(
            P[p, S.HAND:S.HAND + at(S.HAND_N)].tolist(),
            P[p, S.DECK + at(S.DECK_TOP):S.DECK + at(S.DECK_LEN)].tolist(),
            at(S.DISC_N), at(S.SCORE), at(S.OFF), at(S.DEF), at(S.OFF_MASK), at(S.DEF_MASK),
            at(S.OFF_BELIEF), at(S.DEF_BELIEF), at(S.BAN_NOW), at(S.BAN_NEXT),
            [at(S.LIE_OFF), at(S.LIE_DEF)], [at(S.AUTO_OFF), at(S.AUTO_DEF)],
            [at(S.PEND_OFF), at(S.PEND_DEF)], at(S.UNFIELDED), at(S.REDRAWS), at(S.ATTACKS),
            at(S.ATTACK_WINS), at(S.DECKED)))
    log = [tuple(int(v) for v in row) for row in k["log"][0, :G[S.LOG_N]]]
    return Left(seats, int(G[S.ROUND]), int(G[S.OVER]), int(G[S.WINNER]), int(G[S.END]),
                int(G[S.AUTOWINS]), log, k["KN"].tolist(), seen[:, :n].tolist(), k["ctr"].tolist(),
                k["cs"].tolist())


def left_by_reference(g):
    seats = [Seen(list(s.hand), list(s.deck), len(s.discard), s.score, s.off, s.dfn,
                  s.off_mask, s.dfn_mask, s.off_belief, s.dfn_belief, s.ban_now, s.ban_next,
                  list(s.lie), list(s.auto), [len(x) for x in s.pending], s.unfielded,
                  s.redraws, s.attacks, s.attack_wins, int(s.decked)) for s in g.seats]
    return Left(seats, g.round, int(g.over), g.winner, g.end, g.autowins, list(g.log),
                g.know.tolist(), g.seen.tolist(), g.ctr.tolist(), g.cs.tolist())


def both(m, sides, *steps, rnd=1, seed=1, know=-1):
    """Each engine takes the steps in turn from the same hand-built state, in round `rnd`:
    ("round",) plays the next round whole, ("battle", attacker, k) battle k of this round,
    ("card", p, card) seat p plays a card, ("reveal", p, role) seat p asks a Reveal of the
    opposing battler of that role. Returns what both left after each step (equal in the two
    engines) and the reference's narrative."""
    g = start(m, sides, rnd, seed, know)
    k = kernel_of(g)
    a = [k[x] for x in ("table", "views", "R", "prms", "P", "G", "KN")]
    lefts = []
    for step in steps:
        answer = None
        if step[0] == "round":
            E.play_round(*a, k["in_deck"], k["seen"], k["drawn"], k["battlers"],
                         k["n_battlers"], k["cs"], k["hist"], 0, k["keys"], k["ctr"], k["fw"],
                         k["buf"], k["order"], k["flipped"], k["log"], 0)
            g.play_round()
        elif step[0] == "battle":
            _, att, nth = step
            E.battle(*a, att, nth, k["in_deck"], k["seen"], k["drawn"], k["cs"], k["keys"],
                     k["ctr"], k["fw"], k["buf"], k["order"], k["flipped"], k["log"], 0)
            g.battle(att, nth)
        elif step[0] == "card":
            _, p, name = step
            c = int(m.pool.lookup(name))
            Ru.play_card(k["table"], k["views"], k["R"], k["prms"], k["P"], k["KN"], p, c,
                         k["in_deck"], k["seen"], k["cs"], k["keys"], k["ctr"], k["fw"],
                         k["order"], k["flipped"])
            g.play_card(p, c)
        else:
            _, p, role = step
            got = Ru.reveal(k["views"], k["R"], k["prms"], k["P"], k["KN"], p, role,
                            k["seen"], k["keys"], k["ctr"], k["fw"], k["order"])
            g.reveal(p, role)
            answer = "none" if got < 0 else T.SIDES[got]
            told = g.text[-1].split(": ")[-1].split(" ")[0]
            assert answer == told, (answer, told)
        kernel, reference = left_by_kernel(k), left_by_reference(g)
        assert kernel == reference, step
        reference.answer = answer
        lefts.append(reference)
    return lefts, g.text


def ids(m, *names):
    return [int(m.pool.lookup(n)) for n in names]



def list_share(m, seat, role):
    """Per side, the share of a deck list's characters of a role with that arrow lit."""
    table, total, share = m.pool.table, 0, np.zeros(4)
    for c, n in m.decks[seat].counts:
        if table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == role:
            total += n
            share += n * np.array([(table[c, T.C_ARROWS] >> s) & 1 for s in range(4)])
    return share / total


def printed(m, name):
    return int(m.pool.table[m.pool.lookup(name), T.C_ARROWS])


@functools.cache
def played(policy="random", policy_b=None, decks=("tricks", "defense"), n=150, seed=7):
    """n matches played alike by both engines (records, card statistics and logs equal)."""
    m = matchup(policy, policy_b, decks)
    rec = GAME.run_batch(m, n, seed, 0, n)
    assert rec.same_as(GAME.reference_batch(m, n, seed, 0, n))
    return m, rec


def log_rows(rec):
    """Each match's log rows, in play order."""
    return [[tuple(int(v) for v in row) for row in rec.log[i, :rec.log_n[i]]]
            for i in range(len(rec))]


def lit(mask, side):
    return (int(mask) >> side) & 1
