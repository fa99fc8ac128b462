"""Payne's rules again in plain, readable Python over the same random streams: the kernel's
referee, and the source of a readable battle-by-battle log of any match."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np

from sim.core.rng import DICE, N_STREAMS, POLICY, SHUFFLE, py_next_below, py_shuffle, py_stream_key
from sim.kit.records import reference_entries, winner_text
from sim.payne import pool as T
from sim.payne.batch import Matchup
from sim.payne.reference_battle import SEATS, BattleRules
from sim.payne.reference_players import make_player
from sim.payne.schema import SCHEMA
from sim.payne.state import END_POINTS, END_ROUND_CAP, END_SETUP


@dataclass
class Seat:
    deck: list[int]  # undrawn cards, the next one first
    hand: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)  # what the opening draw took, in order
    set_aside: int = 0  # Blanks met by draws, out of the game
    discard: list[int] = field(default_factory=list)
    score: int = 0
    off: int = -1  # the fielded characters (-1: none) with their arrows now and as known
    dfn: int = -1
    off_mask: int = 0
    dfn_mask: int = 0
    off_belief: int = 0
    dfn_belief: int = 0
    ban_now: int = 0
    ban_next: int = 0
    lie: list[int] = field(default_factory=lambda: [0, 0])  # MayLie in effect, by role
    auto: list[int] = field(default_factory=lambda: [0, 0])  # AutoWin, by role
    pending: list[list[int]] = field(default_factory=lambda: [[], []])  # played, by role
    unfielded: int = 0
    redraws: int = 0
    attacks: int = 0
    attack_wins: int = 0
    setup_failed: bool = False
    decked: bool = False
    round_points: int = 0


class Match(BattleRules):
    """One match played by the rules in plain Python, with a readable log."""

    def __init__(self, m: Matchup, seed: int, index: int, log_rows: int = -1):
        self.m, self.table = m, m.pool.table
        self.R = m.rules.values
        self.keys = np.array([py_stream_key(seed, index, s) for s in range(N_STREAMS)],
                             dtype=np.uint64)
        self.ctr = np.zeros(N_STREAMS, dtype=np.int64)
        # each seat's player decides from his own view, drawing from his policy stream
        self.players = [make_player(m.policies[p], partial(self.rand, p, POLICY))
                        for p in range(2)]
        self.in_deck = m.arrays()[6]
        self.battlers = [[[c for c in d.cards() if self.table[c, T.C_KIND] == T.CHARACTER
                           and self.table[c, T.C_ROLE] == role] for role in (T.OFF, T.DEF)]
                         for d in m.decks]
        n = len(m.pool)
        self.seen = np.zeros((2, n), dtype=np.int64)  # opponent's cards each seat has seen
        self.know = np.zeros((2, 2, 4), dtype=np.int64)  # what each knows of the battlers
        self.drawn = np.zeros((2, n), dtype=np.int64)
        self.cs = np.zeros((2, n, len(SCHEMA.all_card_stats)), dtype=np.int64)
        self.hist = np.zeros((2, 3), dtype=np.int64)
        self.seats = [Seat(list(d.cards())) for d in m.decks]
        self.round = 0
        self.first = -1
        self.over, self.winner, self.end = False, -1, END_POINTS
        self.autowins = 0
        self.rounds_by_points = [0, 0, 0]
        self.round1_attacks = [-1, -1]
        self.text: list[str] = []
        self.log: list[tuple[int, ...]] = []
        self.log_rows = log_rows

    # --- words and streams ---------------------------------------------------------

    def name(self, c: int) -> str:
        return self.m.pool.names[c]

    def say(self, line: str) -> None:
        self.text.append(line)

    def rand(self, p: int, purpose: int, n: int) -> int:
        return py_next_below(self.keys, self.ctr, p, purpose, n)

    def log_row(self, *values: int) -> None:
        if len(self.log) < self.log_rows:
            self.log.append(tuple(int(v) for v in values))

    # --- set-up --------------------------------------------------------------------

    def shuffle(self, p: int) -> None:
        py_shuffle(self.seats[p].deck, lambda n: self.rand(p, SHUFFLE, n))

    def has_both_roles(self, p: int) -> bool:
        roles = {int(self.table[c, T.C_ROLE]) for c in self.seats[p].hand
                 if self.table[c, T.C_KIND] == T.CHARACTER}
        return roles == {T.OFF, T.DEF}

    def is_blank(self, c: int) -> bool:
        return self.table[c, T.C_KIND] == T.BLANK

    def draw_opening_hand(self, p: int) -> None:
        """Cards off the top until the hand holds opening_hand (or the deck is spent); a
        Blank met is set aside and the next card taken in its place."""
        seat = self.seats[p]
        seat.hand, seat.taken = [], []
        while len(seat.hand) < self.R["opening_hand"] and seat.deck:
            c = seat.deck.pop(0)
            seat.taken.append(c)
            if self.is_blank(c):
                seat.set_aside += 1
            else:
                seat.hand.append(c)

    def set_up(self, p: int) -> None:
        """Shuffle and draw; a hand without both roles goes back and is redrawn."""
        seat = self.seats[p]
        self.shuffle(p)
        self.draw_opening_hand(p)
        while not self.has_both_roles(p):
            if seat.redraws >= self.R["setup_redraw_cap"]:
                seat.setup_failed = True
                break
            # everything the draw took goes back on top, the Blanks set aside included,
            # as it came off: the shuffle is over the whole deck
            seat.deck = seat.taken + seat.deck
            seat.set_aside -= sum(self.is_blank(c) for c in seat.taken)
            seat.hand = []
            self.shuffle(p)
            self.draw_opening_hand(p)
            seat.redraws += 1
        for c in seat.hand:
            self.drawn[p, c] = 1
        blanks = f" ({seat.set_aside} Blanks set aside)" if seat.set_aside else ""
        self.say(f"{SEATS[p]} opens with {len(seat.hand)} cards after {seat.redraws} "
                 f"redraws{blanks}")

    def draw(self, p: int, n: int) -> None:
        """Draw n cards, each Blank met set aside and the next card drawn in its place."""
        seat = self.seats[p]
        for _ in range(n):
            while seat.deck and self.is_blank(seat.deck[0]):
                seat.deck.pop(0)
                seat.set_aside += 1
            if not seat.deck:
                if self.R["deck_out"] == "lose":
                    seat.decked = True
                return
            c = seat.deck.pop(0)
            seat.hand.append(c)
            self.drawn[p, c] = 1

    # --- effects -------------------------------------------------------------------

    # --- battles and rounds --------------------------------------------------------

    def play_round(self) -> None:
        self.round += 1
        self.say(f"Round {self.round}")
        for seat in self.seats:
            seat.ban_now, seat.ban_next, seat.round_points = seat.ban_next, 0, 0
        if not self.R["battle_mode"] and self.round >= 2:
            can = [self.has_both_roles(0), self.has_both_roles(1)]
            if not all(can):
                self.unfielded_round(can)
                return
        for p in range(2):
            self.field(p)
        self.know[:] = -1
        first = self.rand(0, DICE, 2)  # the coin comes from seat 0's dice stream
        if self.round == 1:
            self.first = first
        self.say(f"  coin: {SEATS[first]} attacks first")
        for k in range(2):
            self.battle(first if k == 0 else 1 - first, k)
            if self.over:
                return
        pts = [s.round_points for s in self.seats]
        self.rounds_by_points[pts[0]] += 1
        self.hist[0, pts[0]] += 1
        self.hist[1, pts[1]] += 1

    def play(self) -> None:
        if not self.R["battle_mode"]:
            for p in range(2):
                self.set_up(p)
        failed = [s.setup_failed for s in self.seats]
        if any(failed):
            self.over, self.end = True, END_SETUP
            self.winner = -1 if all(failed) else (1 if failed[0] else 0)
        while not self.over:
            if self.round >= self.R["max_rounds"]:
                self.end, self.winner = END_ROUND_CAP, -1
                break
            self.play_round()
        a, b = self.seats
        self.say(f"{winner_text(self.winner)}, {a.score}-{b.score}, "
                 f"end {SCHEMA.end_reasons[self.end]}")

    def record(self) -> np.ndarray:
        a, b = self.seats
        return np.array([self.winner, a.score, b.score, self.round, self.end, self.first,
                         a.unfielded, b.unfielded, a.redraws, b.redraws, a.attacks, b.attacks,
                         a.attack_wins, b.attack_wins, self.autowins, *self.rounds_by_points,
                         *self.round1_attacks],
                        dtype=np.int32)


# The contract's two entries (sim.kit.records.reference_entries).
reference_batch, replay = reference_entries(SCHEMA, Match, "round_points")
