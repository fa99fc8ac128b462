"""A table of more than two seats played in every seating of its decks on the same seeds:
every deck at every seat, after every other deck, equally often, so that the wins by turn
position are told apart from the decks that sat there (the seat analysis's balanced
design)."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.stats import Z95, with_rate
from sim.kit.game import get
from sim.runner.warmup import ensure
from sim.store.lock import writing
from sim.store.outputs import save_tables
from sim.store.state import finished


def seated(m, order: tuple[int, ...]):
    """The matchup with seat s playing what seat order[s] played: its deck and policy."""
    return dataclasses.replace(m, decks=tuple(m.decks[i] for i in order),
                               policies=tuple(m.policies[i] for i in order),
                               policy_names=tuple(m.policy_names[i] for i in order))


def seatings(n: int) -> list[tuple[int, ...]]:
    """Every order of n decks at n seats, the run's own first."""
    return list(itertools.permutations(range(n)))


def position_wins(game, m, spans: list[tuple[int, int]], seed: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Under each seating, on the run's seed and matches (`spans`: (first match, count)
    each, as `sim.store.state.finished` gives them): the turn position of each match's
    winner (0 the first player, 1 the next in turn order ..., -1 a draw), shape (seatings,
    matches); and which of the run's decks held each position, shape (seatings, matches,
    positions)."""
    n = len(m.decks)
    orders = seatings(n)
    matches = sum(count for _, count in spans)
    wins = np.full((len(orders), matches), -1, dtype=np.int64)
    held = np.zeros((len(orders), matches, n), dtype=np.int64)
    for r, order in enumerate(orders):
        at = 0
        for start, count in spans:
            rec = game.run_batch(seated(m, order), count, seed, first_match=start)
            first, winner = rec.column(game.schema.first_player), rec.column("winner")
            rows = slice(at, at + count)
            wins[r, rows] = np.where(winner >= 0, (winner - first) % n, -1)
            for p in range(n):
                held[r, rows, p] = np.asarray(order)[(first + p) % n]
            at += count
    return wins, held


def deck_positions(wins: np.ndarray, held: np.ndarray, names: list[str]) -> pd.DataFrame:
    """Each deck at each turn position over the seatings: how often it sat there (share of
    the matches x seatings) and its wins there (Wilson 95% interval). Where the rules tie
    a position to a deck (a chooser that puts itself first), no seating moves it, and this
    table shows it."""
    rows = []
    for p in range(held.shape[2]):
        for d, name in enumerate(names):
            sat = held[:, :, p] == d
            rows.append({"position": p, "deck": name, "share": float(sat.mean()),
                         "k": int((sat & (wins == p)).sum()), "n": int(sat.sum())})
    out = pd.DataFrame(rows)
    return with_rate(out[out.n > 0].reset_index(drop=True))


def position_edge(wins: np.ndarray, seats: int) -> pd.DataFrame:
    """Wins by turn position over the seatings: per position, its wins k of n (matches x
    seatings), the rate, and the edge over a fair share 1/N with a 95% interval from the
    matches as clusters (a match's seatings share its seeds, so they count as one
    observation, the share of them its position won)."""
    n_seat, n = wins.shape
    rows = []
    for p in range(seats):
        share = (wins == p).mean(axis=0)  # per match, over its rotations
        rate, se = share.mean(), share.std(ddof=1) / np.sqrt(n)
        rows.append({"position": p, "k": int((wins == p).sum()), "n": int(wins.size),
                     "rate": rate, "lo": rate - Z95 * se, "hi": rate + Z95 * se,
                     "edge": rate - 1 / seats, "edge_lo": rate - Z95 * se - 1 / seats,
                     "edge_hi": rate + Z95 * se - 1 / seats, "seatings": n_seat})
    return pd.DataFrame(rows)


def current(path) -> bool:
    """Whether the run's seatings.parquet was played on the matches the run holds now (a
    partial run resumed since holds more)."""
    path = Path(path)
    if not (path / "seatings.parquet").is_file():
        return False
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    table = pd.read_parquet(path / "seatings.parquet", columns=["n", "seatings"])
    held = sum(count for _, count in finished(path, manifest))
    return int(table.n.iloc[0]) == int(table.seatings.iloc[0]) * held


def for_run(path) -> pd.DataFrame | None:
    """A stored run of more than two seats, its matchup played in every seating of its decks
    on the run's seed and matches; the wins by position saved beside it as
    seatings.parquet, and each deck at each position as seating_decks.parquet (the first
    seating is the run itself, match for match). None for a run of two seats, whose
    seatings the run already plays from both sides (its game is not loaded)."""
    path = Path(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    if len(manifest["decks"]) <= 2:
        return None
    game = get(manifest["game"])
    m = game.from_manifest(manifest)
    ensure(game, m)
    # The matches the run holds, by their chunks (a killed run's manifest never counted
    # them, and a partial run's need not be matches 0 .. n-1).
    wins, held = position_wins(game, m, finished(path, manifest), int(manifest["seed"]))
    table = position_edge(wins, len(m.decks))
    decks = deck_positions(wins, held, [d.name for d in m.decks])
    with writing(path, "every seating of the decks"):
        save_tables(path, {"seatings": table, "seating_decks": decks}, None)
    return table
