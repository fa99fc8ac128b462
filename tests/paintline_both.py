"""One Paint the Line turn played by both engines from the same hand-built state: the
kernel's take_turn on its arrays and the reference's take_turn on its seats, with the same
streams. What each left is read into one plain form, the two must be equal, and the rule is
then checked once on that form (so a rule read wrongly in both engines the same way is
still caught by the test's own numbers)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.rng import N_STREAMS, py_stream_key
from sim.kit.records import read_only
from sim.paintline import engine as E
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import state as S
from sim.paintline.batch import load_matchup
from sim.paintline.options import load_rules
from sim.paintline.reference import ReferenceGame, Seat
from sim.paintline.reference_turn import Forfeit, InPlay

from .conftest import FOLDER


@dataclass
class Side:
    """A seat's hand-built state at the start of a point: cards by name."""

    hand: tuple[str, ...] = ()
    play: tuple[str, ...] = ()  # shot cards in play
    taps: tuple[int, ...] = ()  # 0 ready, 1 single, 2 double tapped (default all ready)
    stamina: int = 0  # Stamina in the Power Plant
    ready: int | None = None  # of which untapped (default all)
    bag: tuple[str, ...] = ("Tycho Brahe",) * 10  # a coach in a bag: drawn, never played


@dataclass(frozen=True)
class Incoming:
    """The shot the player to hit returns (a rally under way, not the serve): the index
    step, whether it was a critical, its return penalty, its shot type, and the cost of its
    Mute (-1 for none)."""

    step: int = 0
    crit: bool = False
    pen: int = 0
    type: int = T.NO_TYPE
    mute: int = -1


@dataclass
class After:
    """What a turn left, in the engines' common words."""

    hand: list[int]
    play: list[tuple[int, int, int]]  # (card, tap, attachment) in play order
    stamina: int
    ready: int
    bag: int  # cards left to draw
    discards: int
    shot: dict | None  # the logged shot row
    forfeit: int = -1  # the seat that forfeited the game, -1 none
    rally: Incoming | None = None  # what the hitter's shot left for the return, if it landed


def matchup(policy="greedy", **rules):
    """The sample decks, both seats on one policy, the folder's rules with some changed."""
    changed = load_rules(FOLDER / "rules.toml").replace(**rules) if rules else None
    return load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", policy, policy,
                        rules=changed)


def _ids(m, names):
    out = []
    for n in names:
        c = m.pool.lookup(n)
        assert c is not None, n
        out.append(int(c))
    return out


def _kernel(m, sides, seat, seed, serve, incoming):
    table = m.pool.table
    P, G, H = S.new_state()
    for p, sd in enumerate(sides):
        P[p, S.COACH] = -1
        bag = _ids(m, sd.bag)
        P[p, S.BAG:S.BAG + len(bag)] = bag
        P[p, S.BAG_LEN] = len(bag)
        hand = _ids(m, sd.hand)
        P[p, S.HAND:S.HAND + len(hand)] = hand
        P[p, S.HAND_N] = len(hand)
        play = _ids(m, sd.play)
        taps = sd.taps or (0,) * len(play)
        for i, (c, t) in enumerate(zip(play, taps, strict=True)):
            P[p, S.PLAY + i], P[p, S.TAP + i], P[p, S.ATT + i] = c, t, -1
        P[p, S.PLAY_N] = len(play)
        P[p, S.PP:S.PP + sd.stamina] = m.pool.lookup("Stamina")
        P[p, S.PP_N] = sd.stamina
    Ru.reset_after_point(P, G)  # a point starts with every card ready: taps set after it
    for p, sd in enumerate(sides):
        P[p, S.PP_READY] = sd.stamina if sd.ready is None else sd.ready
        for i, t in enumerate(sd.taps):
            P[p, S.TAP + i] = t
    G[S.FORFEIT] = -1
    G[S.SERVER] = seat
    G[S.IS_SERVE] = int(serve)
    if incoming is not None:
        G[S.STEP], G[S.CRIT], G[S.IN_PEN] = incoming.step, int(incoming.crit), incoming.pen
        G[S.IN_TYPE], G[S.MUTE_COST], G[S.LANDED] = incoming.type, incoming.mute, 1
    keys = np.array([py_stream_key(seed, 0, s) for s in range(N_STREAMS)], dtype=np.uint64)
    ctr = np.zeros(N_STREAMS, dtype=np.int64)
    n = table.shape[0]
    log = np.zeros((1, 8, Rec.N_LOG), dtype=np.int32)
    log_n = np.zeros(1, dtype=np.int64)
    seen = np.zeros((2, n), dtype=np.int8)
    cs = np.zeros((2, n, len(Rec.CARD_STATS)), dtype=np.int64)
    # read-only, as run_batch passes them: one compiled signature, not one per caller
    table, vector, prm = (read_only(a) for a in (table, m.rules.vector, m.policies[seat]))
    landed = E.take_turn(table, table, vector, prm, P, G, H, seat, keys,
                         ctr, seen, cs, E.new_work(n), log, log_n, 0)
    rally = (Incoming(int(G[S.STEP]), bool(G[S.CRIT]), int(G[S.IN_PEN]), int(G[S.IN_TYPE]),
                      int(G[S.MUTE_COST])) if landed and G[S.FORFEIT] < 0 else None)
    shot = dict(zip(Rec.LOG_COLUMNS, log[0, 0].tolist(), strict=True)) if log_n[0] else None
    out = []
    for p in range(2):
        out.append(After(
            hand=sorted(int(c) for c in P[p, S.HAND:S.HAND + P[p, S.HAND_N]]),
            play=[(int(P[p, S.PLAY + i]), int(P[p, S.TAP + i]), int(P[p, S.ATT + i]))
                  for i in range(P[p, S.PLAY_N])],
            stamina=int(P[p, S.PP_N]), ready=int(P[p, S.PP_READY]),
            bag=int(P[p, S.BAG_LEN] - P[p, S.BAG_TOP]), discards=int(P[p, S.DISC_N]),
            shot=shot if p == seat else None, forfeit=int(G[S.FORFEIT]),
            rally=rally if p == seat else None))
    return out


def _reference(m, sides, seat, seed, serve, incoming):
    g = ReferenceGame(m, seed, 0)
    for p, sd in enumerate(sides):
        play = _ids(m, sd.play)
        taps = sd.taps or (0,) * len(play)
        g.seats[p] = Seat(bag=_ids(m, sd.bag), hand=_ids(m, sd.hand),
                          table=[InPlay(c, t) for c, t in zip(play, taps, strict=True)],
                          power_plant=[int(m.pool.lookup("Stamina"))] * sd.stamina)
    g.game_no = g.point_no = g.turns = g.shots = 0
    g.reset_after_point()
    for s, sd in zip(g.seats, sides, strict=True):
        s.ready_stamina = sd.stamina if sd.ready is None else sd.ready
        for c, t in zip(s.table, sd.taps, strict=False):
            c.tap = t
    g.server = seat
    g.is_serve = serve
    if incoming is not None:
        g.step, g.after_crit, g.incoming_penalty = incoming.step, incoming.crit, incoming.pen
        g.incoming_type, g.mute_cost, g.landed = incoming.type, incoming.mute, 1
    forfeit, rally = -1, None
    try:
        if g.take_turn(seat):
            rally = Incoming(g.step, g.after_crit, g.incoming_penalty, g.incoming_type,
                             g.mute_cost)
    except Forfeit as out:  # the reference's game loop ends the game on it
        forfeit = out.seat
    shot = (dict(zip(Rec.LOG_COLUMNS, g.shot_rows[0], strict=True)) if g.shot_rows else None)
    out = []
    for p, s in enumerate(g.seats):
        out.append(After(
            hand=sorted(s.hand), play=[(c.card, c.tap, c.attached) for c in s.table],
            stamina=len(s.power_plant), ready=s.ready_stamina, bag=len(s.bag),
            discards=len(s.discard), shot=shot if p == seat else None, forfeit=forfeit,
            rally=rally if p == seat else None))
    return out, g.text


def both_turn(sides, seat=0, seed=1, serve=True, policy="greedy", incoming=None, **rules):
    """Seat `seat` takes one turn from `sides` (two Side) in both engines, on the serve or,
    given `incoming` (an Incoming), returning that shot; returns what it left (both engines
    equal, asserted), the reference's narrative and the matchup."""
    serve = serve and incoming is None
    m = matchup(policy, **rules)
    k = _kernel(m, sides, seat, seed, serve, incoming)
    r, text = _reference(m, sides, seat, seed, serve, incoming)
    assert k == r, f"kernel {k}\nreference {r}\n" + "\n".join(text)
    return k, text, m
