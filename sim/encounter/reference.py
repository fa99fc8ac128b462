"""The plain-Python reference engine: the rule functions run uncompiled on Python-level
streams (sim.rng's py_ twins), with a readable step-by-step log of each match."""

from __future__ import annotations

import functools
import types
from dataclasses import dataclass

import numba
import numpy as np

from sim.encounter import codes as K
from sim.encounter import engine as E
from sim.encounter import state as S
from sim.rng import below, py_below, py_stream_key


def _py_below(key, counter, n):
    return py_below(int(key), int(counter), int(n))


_SUBS = {below: _py_below}


@functools.cache
def twin(dispatcher):
    """The uncompiled twin of a compiled function, its compiled callees replaced by their
    twins (random draws by the Python-level stream functions)."""
    if dispatcher in _SUBS:
        return _SUBS[dispatcher]
    py = dispatcher.py_func
    env = dict(py.__globals__)
    for name in py.__code__.co_names:
        value = env.get(name)
        if isinstance(value, numba.core.registry.CPUDispatcher):
            env[name] = twin(value)
    return types.FunctionType(py.__code__, env, py.__name__, py.__defaults__, py.__closure__)


def play_one(arrays, seed: int, index: int, row, death, card_stats, L) -> int:
    """Play match `index` of the seed, write its row, deaths and card statistics; return the
    number of log rows written into L."""
    T, R, M, D, in_deck = arrays
    P, G, X, KY, OP = E.new_work.py_func(T.shape[0])
    E.reset.py_func(P, G, X)
    G[S.QUEST], G[S.C_STRIKER], G[S.C_DEF] = -1, -1, -2
    for s in range(S.N_STREAMS):
        KY[s] = np.uint64(py_stream_key(seed, index, s))
    C = (T, R, P, G, X, card_stats, KY, M, L, OP)
    twin(E.play_match)(C, D)
    twin(E.write_record)(C, row, death, in_deck)
    return int(G[S.LOG_N])


@dataclass
class Replay:
    """One match replayed with its full log."""

    text: list[str]
    record: np.ndarray


def replay(m, seed: int, match_index: int, rows: int = 20000) -> Replay:
    """Match `match_index` of a seed, played by the reference engine, as readable lines."""
    from sim.encounter.game import SCHEMA

    arrays = m.arrays()
    row = np.zeros(len(SCHEMA.match_columns), dtype=np.int32)
    death = np.zeros((2, E.DEATH_BINS), dtype=np.int32)
    cs = np.zeros((2, len(m.pool), S.N_CARD_STATS), dtype=np.int64)
    L = np.zeros((rows, S.LOG_COLS), dtype=np.int32)
    n = play_one(arrays, seed, match_index, row, death, cs, L)
    return Replay(render(m, L[:n]), row)


_SENTENCES = {
    S.EV_FIRST: "{who} chooses who goes first (intelligence {b100} against {bm100}): {deck_a}",
    S.EV_TURN: "-- turn {turn}: {who} (points {a}-{b})",
    S.EV_DRAW: "{who} draws {card}",
    S.EV_DISCARD: "{who} discards {card}",
    S.EV_PLAY: "boost: {who} plays {card}",
    S.EV_QUEST: "quest: {who} plays {card}; strike budget {a}",
    S.EV_STRIKE: "strike: {who} plays {card} (cost {a}, budget left {b})",
    S.EV_MANEUVER: "{who} uses {card}: {kw} {b}",
    S.EV_COMBAT: "combat: {card} (strength {bm1000}) against {def_card} (strength "
                 "{am1000}): {result}",
    S.EV_WOUND: "{card} ({who}) takes {a} wound(s), {b} prevented",
    S.EV_KILL: "{card} ({who}) is killed",
    S.EV_OBJECTIVE: "objective {obj} {am1000}: {holds}",
    S.EV_SCORE: "score: {who} completes {card} for {a} points ({b} in all)",
    S.EV_FAIL: "score: {who} fails {card}; it goes under the draw deck",
    S.EV_REVEAL: "loot: {who} reveals {card}",
    S.EV_LOOT: "loot: {who} plays {card}",
    S.EV_END: "== game over: {end}, winner {who}",
    S.EV_CANCEL: "{who} cancels {card}",
    S.EV_HEAL: "{card} ({who}) heals {a} wound(s)",
    S.EV_REVIVE: "{who} revives {card}",
    S.EV_DECKOUT: "{who}'s draw deck is empty",
    S.EV_MULLIGAN: "{who} takes mulligan {a}",
}


def render(m, rows) -> list[str]:
    """Log rows (turn, seat, event, card, a, b) as sentences."""
    names = m.pool.names
    decks = [d.name for d in m.decks]
    out = []
    for turn, seat, ev, card, a, b in (tuple(int(x) for x in r) for r in rows):
        fields = {
            "turn": turn, "a": a, "b": b, "who": decks[seat] if seat >= 0 else "none (draw)",
            "card": names[card] if card >= 0 else ("the quest" if ev in (
                S.EV_QUEST, S.EV_SCORE, S.EV_FAIL) else "striker"),
            "b100": b // 100, "bm100": b % 100, "bm1000": b % 1000, "am1000": a % 1000,
            "deck_a": decks[a] if ev == S.EV_FIRST and 0 <= a < 2 else "",
            "kw": K.KEYWORDS[a] if ev == S.EV_MANEUVER else "",
            "def_card": names[a // 1000] if ev == S.EV_COMBAT else "",
            "result": {1: "defender wins", -1: "striker wins", 0: "no winner"}.get(
                round(b / 1000), ""),
            "obj": K.OBJECTIVES[a // 1000] if ev == S.EV_OBJECTIVE else "",
            "holds": "holds" if b else "fails",
            "end": K.END_REASONS[a] if ev == S.EV_END else "",
        }
        out.append(_SENTENCES[ev].format(**fields))
    return out
