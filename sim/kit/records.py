"""What a batch writes, for any game: the matches table, per-match histograms, card
statistics and sampled logs, as arrays shaped by plain column lists (a game's schema gives
them as its `layout`); to DataFrames."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

WINNER = 0  # every game's matches table starts with the winner: its seat (0 A, 1 B ...), -1 a draw
DRAW = -1
# Seat k's letter (0 is a): the suffix of its per-seat columns and, upper case, its label.
SEAT_LETTERS = "abcdefgh"


# A table of two: every game's default, and what a run recorded before tables of more.
DEFAULT_SEATS = 2


def seats_of(schema: dict) -> int:
    """Players at the table of a run's recorded schema (manifest["schema"])."""
    return int(schema.get("seats", DEFAULT_SEATS))


@dataclass(frozen=True)
class Layout:
    """The shape of a batch's arrays, as plain names: the match columns, each histogram's
    bin count, the card statistics and the sampled log's columns and rows."""

    match_columns: tuple[str, ...]
    hist_bins: dict[str, int]
    card_stats: tuple[str, ...]
    log_columns: tuple[str, ...] = ()
    log_rows: int = 0
    seats: int = DEFAULT_SEATS  # players at the table, each with its histograms and card stats


@dataclass
class BatchRecords:
    """Everything a batch writes, as arrays."""

    layout: Layout
    first_match: int
    matches: np.ndarray  # (n, match columns) int32
    hists: dict[str, np.ndarray]  # measure -> (n, seats, bins) int32
    card_stats: np.ndarray  # (seats, cards, card stats) int64
    log: np.ndarray  # (n_log, log rows, log columns) int32
    log_n: np.ndarray  # (n_log,) int64

    @classmethod
    def allocate(cls, layout, n: int, n_cards: int, n_log: int = 0,
                 first_match: int = 0, bins: dict[str, int] | None = None) -> BatchRecords:
        """Zeroed arrays for n matches of a Layout (or of anything that carries one as
        `.layout`, such as a game's schema); `bins` overrides a histogram's declared bin
        count (a rule can set it, e.g. the length of a ladder)."""
        layout = getattr(layout, "layout", layout)
        bins = bins or {}
        hists = {name: np.zeros((n, layout.seats, bins.get(name, b)), dtype=np.int32)
                 for name, b in layout.hist_bins.items()}
        n_log = min(n_log, n)
        return cls(
            layout, first_match,
            np.zeros((n, len(layout.match_columns)), dtype=np.int32),
            hists,
            np.zeros((layout.seats, n_cards, len(layout.card_stats)), dtype=np.int64),
            np.zeros((n_log, layout.log_rows, len(layout.log_columns)), dtype=np.int32),
            np.zeros(n_log, dtype=np.int64),
        )

    def __len__(self) -> int:
        return self.matches.shape[0]

    def column(self, name: str) -> np.ndarray:
        return self.matches[:, self.layout.match_columns.index(name)]

    def wins(self, seat: int) -> np.ndarray:
        """1 for each match the seat won (a draw is a win for neither)."""
        return (self.matches[:, WINNER] == seat).astype(np.int8)

    def matches_frame(self):
        # deferred: pandas and pyarrow load only when records are read or written
        import pandas as pd

        df = pd.DataFrame(self.matches, columns=list(self.layout.match_columns))
        df.insert(0, "match_index", np.arange(self.first_match, self.first_match + len(df)))
        return df

    def log_frame(self, k: int):
        """Log of sampled match k (a batch row < n_log)."""
        # deferred: pandas and pyarrow load only when records are read or written
        import pandas as pd

        return pd.DataFrame(self.log[k, : self.log_n[k]], columns=list(self.layout.log_columns))

    def totals(self) -> Totals:
        frame = self.matches_frame()
        return Totals.of_frame(frame,
                               {k: v.sum(axis=0, dtype=np.int64) for k, v in self.hists.items()},
                               lambda columns=None: iter([frame]), self.layout.seats)

    def same_as(self, other: BatchRecords) -> bool:
        """Every array equal, byte for byte."""
        return (np.array_equal(self.matches, other.matches)
                and self.hists.keys() == other.hists.keys()
                and all(np.array_equal(self.hists[k], other.hists[k]) for k in self.hists)
                and np.array_equal(self.card_stats, other.card_stats)
                and np.array_equal(self.log_n, other.log_n)
                and np.array_equal(self.log, other.log))


def play_in_pieces(layout, n: int, n_cards: int, seed: int, first_match: int, n_log: int,
                   play: Callable, block: int | None = None,
                   bins: dict[str, int] | None = None) -> BatchRecords:
    """A batch of matches first_match .. first_match + n - 1 played by a game's kernel in
    pieces of `block` matches (default: a few a thread) spread over the threads:
    play(rec, card_stats, lo, hi) plays one piece into the records, its card statistics
    into its own array (summed at the end, so the threads never share one)."""
    # deferred: the thread pool loads only when a batch is played
    from sim.core import blocks

    if n < 0 or first_match < 0 or (block is not None and block < 1):
        raise ValueError("n and first_match must be >= 0 and block >= 1")
    if not 0 <= seed < 2**63:
        raise ValueError("seed must be in 0 .. 2**63 - 1")
    rec = BatchRecords.allocate(layout, n, n_cards, n_log, first_match, bins)
    pieces = blocks.split(n, block)
    stats = np.zeros((len(pieces), *rec.card_stats.shape), dtype=np.int64)
    blocks.spread(pieces, lambda k, lo, hi: play(rec, stats[k], lo, hi))
    rec.card_stats = stats.sum(axis=0)
    return rec


def winner_text(winner: int) -> str:
    """A reference log's last word on who won (seat letters A, B ...)."""
    return f"Winner: {SEAT_LETTERS[winner].upper() if winner >= 0 else 'none (draw)'}"


def read_only(a):
    """An input of a kernel as one numba type whatever built it: a writable or strided
    array is another type to numba, so another whole compile of the kernel (half a minute
    for Encounter) where a test or an experiment built a table of its own. Anything but an
    array (a number) passes as it is."""
    if not isinstance(a, np.ndarray):
        return a
    a = np.ascontiguousarray(a)
    if a.flags.writeable:
        a = a.view()
        a.flags.writeable = False
    return a


def distinct_writes(args) -> bool:
    """Check that no array a kernel's entry writes (a writable one, tuples opened) shares
    memory with another of its arguments: the entry is compiled on that promise (numba's
    noalias, sim.core.jit.njit), so that its code keeps what it read from one array across a
    write to another. Unchecked, a game whose scratch broke it would get wrong records
    rather than an error. True when none does."""
    flat = []
    for a in args:
        flat.extend(a if isinstance(a, tuple) else (a,))
    arrays = [a for a in flat if isinstance(a, np.ndarray)]
    for i, a in enumerate(arrays):
        for b in arrays[i + 1:]:
            if (a.flags.writeable or b.flags.writeable) and np.may_share_memory(a, b):
                raise ValueError("two arrays given to a kernel's entry share memory, and one "
                                 f"is written: shapes {a.shape} and {b.shape}")
    return True


def kernel_entry(schema, engine: str, work: Callable | None = None,
                 bins: Callable | None = None) -> Callable:
    """A compiled kernel's run_batch (the Game contract's), where the module `engine`, imported
    at the first batch, has play_piece(lo, hi, *matchup.arrays(), seed, first_match, matches,
    *one array a histogram of the schema in its order, card_stats, log, log_n, *work(engine,
    matchup)); work gives a thread its scratch (default: engine.new_work(cards in the pool)),
    bins(matchup) the bins of a histogram a rule sizes. `schema` is the game's Schema or its
    schema_for(matchup)."""
    def run_batch(matchup, n: int, seed: int, first_match: int = 0, n_log: int = 0,
                  block: int | None = None) -> BatchRecords:
        """Play matches first_match .. first_match + n - 1 with the compiled kernel, in pieces
        of `block` matches (default: a few pieces a thread) spread over the threads."""
        # deferred: the compiled engine loads only when a batch is played
        kernel = importlib.import_module(engine)
        arrays = tuple(read_only(a) for a in matchup.arrays())
        written = schema(matchup) if callable(schema) else schema
        n_cards = len(matchup.pool)

        checked = []

        def play(rec: BatchRecords, card_stats: np.ndarray, lo: int, hi: int) -> None:
            scratch = work(kernel, matchup) if work else (kernel.new_work(n_cards),)
            args = (*arrays, seed, first_match, rec.matches,
                    *(rec.hists[h] for h in written.histograms), card_stats, rec.log,
                    rec.log_n, *scratch)
            if not checked:  # every piece's arrays are made the same way
                distinct_writes(args)
                checked.append(True)
            kernel.play_piece(lo, hi, *args)

        return play_in_pieces(written, n, n_cards, seed, first_match, n_log, play, block,
                              bins(matchup) if bins else None)

    return run_batch


def reference_records(layout, n: int, n_cards: int, first_match: int, n_log: int,
                      play: Callable, bins: dict[str, int] | None = None) -> BatchRecords:
    """A batch of matches first_match .. first_match + n - 1 played one at a time by a game's
    reference engine, in the records the kernel writes: play(match_index, log_rows) ->
    (the match's row, {measure: its histogram row}, its card statistics, its log rows (at
    most log_rows of them, none when 0))."""
    if n < 0 or first_match < 0:
        raise ValueError("n and first_match must be >= 0")
    rec = BatchRecords.allocate(layout, n, n_cards, n_log, first_match, bins)
    for i in range(n):
        logged = i < rec.log.shape[0]
        row, hists, stats, log = play(first_match + i, rec.log.shape[1] if logged else 0)
        rec.matches[i] = row
        for measure, counts in hists.items():
            rec.hists[measure][i] = counts
        rec.card_stats += stats
        if logged and len(log):
            rows = np.asarray(log, dtype=np.int32).reshape(len(log), -1)[: rec.log.shape[1]]
            rec.log[i, : len(rows)] = rows
            rec.log_n[i] = len(rows)
    return rec


@dataclass
class Replay:
    """One match replayed by a game's reference engine (Game.replay): its log as readable
    lines and its row of the matches table."""

    text: list[str]
    record: np.ndarray


def reference_entries(schema, match: Callable, histogram: str) -> tuple[Callable, Callable]:
    """A reference engine's reference_batch and replay (the Game contract's), where
    match(matchup, seed, index, log_rows=-1) is one match, played by the rules by its
    .play(), that holds .record() (its row), .hist (its row of the `histogram` measure),
    .cs (its card statistics), .in_deck and .drawn (each seat's copies of each card, and
    whether drawn), .log (its log rows) and .text (its readable log). The statistics every
    game records first are tallied here, as the kernels' record_match tallies them."""
    def reference_batch(matchup, n: int, seed: int, first_match: int = 0,
                        n_log: int = 0) -> BatchRecords:
        # deferred: sim.core.cardstats brings numba, loaded only when a batch is played
        from sim.core.cardstats import py_tally_cards

        def play(index: int, log_rows: int):
            game = match(matchup, seed, index, log_rows)
            game.play()
            row = game.record()
            py_tally_cards(game.cs, int(row[WINNER]), game.in_deck, game.drawn)
            return row, {histogram: game.hist}, game.cs, game.log

        return reference_records(schema, n, len(matchup.pool), first_match, n_log, play)

    def replay(matchup, seed: int, match_index: int) -> Replay:
        game = match(matchup, seed, match_index)
        game.play()
        return Replay(game.text, game.record())

    return reference_batch, replay


@dataclass
class Totals:
    """Sums over a run's matches in constant size: what summaries and exact checks read
    (from a batch, or chunk by chunk from the store). `ratio` scans the matches again, a
    chunk at a time, for any estimate an exact check wants."""

    n: int
    wins: tuple[int, ...]  # per seat
    draws: int
    sums: dict[str, float]  # match column -> sum over matches
    squares: dict[str, float]  # match column -> sum of squares
    hists: dict[str, np.ndarray]  # measure -> (seats, bins) counts summed over matches
    # The matches tables, chunk by chunk, of the named columns (None: all of them).
    frames: Callable[[list[str] | None], Iterable] | None = None

    @classmethod
    def of_frame(cls, matches, hists: dict[str, np.ndarray], frames=None,
                 seats: int = DEFAULT_SEATS) -> Totals:
        """From a matches DataFrame (or a part of one) and summed histograms."""
        return cls.of_columns({c: matches[c].to_numpy() for c in matches.columns}, hists,
                              frames, seats)

    @classmethod
    def of_columns(cls, matches: dict[str, np.ndarray], hists: dict[str, np.ndarray],
                   frames=None, seats: int = DEFAULT_SEATS) -> Totals:
        """From the matches table's columns as arrays and summed histograms."""
        w = matches["winner"]
        cols = [c for c in matches if c not in ("match_index",)]
        return cls(len(w), tuple(int((w == s).sum()) for s in range(seats)),
                   int((w == DRAW).sum()),
                   {c: float(matches[c].sum()) for c in cols},
                   {c: float((matches[c].astype(np.float64) ** 2).sum()) for c in cols},
                   hists, frames)

    def __add__(self, other: Totals) -> Totals:
        hists = {k: self.hists[k] + other.hists[k] for k in self.hists}
        return Totals(self.n + other.n, tuple(a + b for a, b in zip(self.wins, other.wins,
                                                                    strict=True)),
                      self.draws + other.draws,
                      {k: v + other.sums[k] for k, v in self.sums.items()},
                      {k: v + other.squares[k] for k, v in self.squares.items()}, hists,
                      self.frames or other.frames)

    def mean(self, column: str) -> tuple[float, float]:
        """Mean of a match column and its standard error."""
        m = self.sums[column] / self.n
        var = max(self.squares[column] / self.n - m * m, 0.0) * self.n / max(self.n - 1, 1)
        return m, (var / self.n) ** 0.5

    def ratio(self, k: str, n: str = "") -> tuple[float, float, int]:
        """(estimate, standard error, matches counted) of sum(k) / sum(n) over matches, k
        and n pandas expressions of the match columns (n empty: one per match); the error
        by the delta method, so a rate, a mean and a mean over some matches read alike."""
        sk = sn = skk = skn = snn = 0.0
        used = 0
        # Only the columns the expressions name are read back from the store.
        columns = sorted(set(re.findall(r"[A-Za-z_]\w*", f"{k} {n}")) & set(self.sums))
        for df in self.frames(columns or None):
            kv = np.asarray(df.eval(k), dtype=np.float64)
            nv = np.asarray(df.eval(n), dtype=np.float64) if n else np.ones(len(df))
            sk, sn = sk + kv.sum(), sn + nv.sum()
            skk, skn, snn = skk + kv @ kv, skn + kv @ nv, snn + nv @ nv
            used += int((nv != 0).sum())
        if sn == 0:
            return float("nan"), float("nan"), 0
        r = sk / sn
        total = self.n
        resid = max(skk - 2 * r * skn + r * r * snn, 0.0)
        se = (resid / max(total - 1, 1)) ** 0.5 / (sn / total) / total**0.5
        return r, se, used
