"""What the Encounter rule-index tests share: both engines' zones, stats and log rows read
side by side (each asserted equal), and a card column edited in both."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.jit import pure
from sim.core.rng import py_below, py_stream_key
from sim.encounter import actors as Ac
from sim.encounter import engine as E
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import windows as Wi
from sim.encounter.batch import load_matchup

from .test_encounter_decisions import card, name, twin


def ring(P, p, block, head, n):
    """A deck kept as a ring of CAP slots (draw or loot deck), top first."""
    return [int(P[p, block + (P[p, head] + i) % S.CAP]) for i in range(P[p, n])]


def rows(b, *events):
    """The log rows of these events as (seat, event, card name, a, b), the same in both."""
    kernel = [(int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
              for r in b.C[8][: b.G[S.LOG_N]] if r[2] in events]
    assert kernel == [tuple(r[1:]) for r in b.g.log if r[2] in events]
    return [(s, ev, name(c) if c >= 0 else "-", x, y) for s, ev, c, x, y in kernel]


def stat(b, p, who, col, field):
    """A party character's stat now (who: -1 the PC, k party slot k), the same in both."""
    seat = b.g.seats[p]
    ch = seat.pc if who < 0 else seat.party[who]
    kernel = int(twin(Ru.stat)(b.C, p, who, col))
    assert kernel == b.g.stat(seat, ch, field)
    return kernel


def zone(b, p, block, count, ref):
    """A zone of seat p as card names, the same in both engines."""
    kernel = [name(c) for c in b.P[p, block: block + b.P[p, count]]]
    assert kernel == [name(c.id) for c in ref]
    return kernel


def recount(b):
    """What the kernel keeps of each seat's cards in play (the cards that can maneuver, the
    stat sums) counted again from the edited table, as a match's table never changes."""
    for p in range(b.P.shape[0]):
        twin(Ac.count_actors)(b.C[0], b.P, p)


def edited(b, card_name, column, value, field):
    """The card's column set to value in both engines (the shared table is read-only)."""
    c = card(card_name)
    T = b.C[0].copy()
    T[c, column] = value
    b.C = (T, *b.C[1:])
    recount(b)
    setattr(b.g.cards[c], field, value)


def edited_stat(b, card_name, column, value):
    """The card's stat column (dex, int, str, tough) set to value in both engines."""
    from sim.encounter.reference_state import STAT_COLUMN

    c = card(card_name)
    T = b.C[0].copy()
    T[c, column] = value
    b.C = (T, *b.C[1:])
    recount(b)
    field = next(f for f, col in STAT_COLUMN.items() if col == column)
    b.g.cards[c].stats[field] = value


def window(b, step):
    """A maneuver window of the step, in both engines."""
    b.step(lambda C: twin(Wi.window)(C, step), lambda g: g.window(step))


def plain_below(key, counter, n):
    """The streams' draw in plain integers, for the kernel's plain-Python twins."""
    return py_below(int(key), int(counter), int(n))


def twin_matches(take_turn, settings, matches=10):
    """Whole matches of the sample decks in the kernel's plain-Python twin, `take_turn` in
    place of its turn (a check wrapped round the twin's own): for each (players, policy,
    rules) of `settings`, `matches` matches; yields each match's player rows as it ends."""
    folder = Path(__file__).resolve().parents[1] / "decks" / "encounter"
    play = pure(E.play_match, take_turn=take_turn, below=plain_below)
    for players, policy, rules in settings:
        m = load_matchup(folder, "orc-warband", "grey-expedition", policy,
                         rules={"players": players, **rules})
        T, R, M, D, _ = m.arrays()
        for match in range(matches):
            P, G, X, KY, OP = E.new_work(T.shape[0], players)
            pure(E.reset)(P, G, X)
            KY[:] = [py_stream_key(5, match, s) for s in range(S.N_PURPOSES * players)]
            cs = np.zeros((players, T.shape[0], S.N_CARD_STATS), np.int64)
            L = np.zeros((1, S.LOG_COLS), np.int32)
            play((T, R, P, G, X, cs, KY, M, L, OP), D)
            yield P
