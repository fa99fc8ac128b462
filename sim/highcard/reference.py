"""High Card's rules again in plain, readable Python over the same random streams, with its
own players: the kernel's referee, and the source of a readable round-by-round log."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.core.rng import DICE, N_STREAMS, POLICY, SHUFFLE, py_next_below, py_shuffle, py_stream_key
from sim.highcard import params as Pa
from sim.highcard import pool as T
from sim.highcard.batch import Matchup
from sim.highcard.schema import SCHEMA, VALUE_BINS, VALUE_PLAYED
from sim.highcard.state import END_OUT, END_POINTS
from sim.kit.records import reference_entries, winner_text

SEATS = "AB"


@dataclass
class Seat:
    deck: list[int]  # undrawn cards, the next one first
    hand: list[int] = field(default_factory=list)
    score: int = 0


class Player:
    """A seat's policy, reading its own cards' values as its view holds them."""

    def __init__(self, vec, values: dict[int, int], rand):
        self.kind, self.lead_with, self.beat_up_to = int(vec[Pa.KIND]), vec[Pa.LEAD_WITH], \
            vec[Pa.BEAT_UP_TO]
        self.values, self.rand = values, rand

    def first_highest(self, hand: list[int]) -> int:
        values = [self.values[c] for c in hand]
        return values.index(max(values))

    def lead(self, hand: list[int]) -> int:
        """The hand position of the card to lead."""
        if self.kind == Pa.RANDOM:
            return self.rand(len(hand))
        if self.kind == Pa.HIGH:
            return self.first_highest(hand)
        # aim: nearest to lead_with, the lower of two as near, then the first
        return min(range(len(hand)), key=lambda i: (abs(self.values[hand[i]] - self.lead_with),
                                                    self.values[hand[i]], i))

    def follow(self, hand: list[int], led: int) -> int:
        """The hand position of the card to follow a led value with."""
        if self.kind == Pa.RANDOM:
            return self.rand(len(hand))
        if self.kind == Pa.HIGH:
            return self.first_highest(hand)
        values = [self.values[c] for c in hand]
        beats = [i for i, v in enumerate(values) if led < v <= self.beat_up_to]
        if beats:
            return min(beats, key=lambda i: (values[i], i))
        return values.index(min(values))


class Match:
    """One match played by the rules in plain Python, with a readable log."""

    def __init__(self, m: Matchup, seed: int, index: int, log_rows: int = -1):
        self.m, self.R = m, m.rules.values
        self.value = {c: int(m.pool.table[c, T.C_VALUE]) for c in range(len(m.pool))}
        self.keys = np.array([py_stream_key(seed, index, s) for s in range(N_STREAMS)],
                             dtype=np.uint64)
        self.ctr = np.zeros(N_STREAMS, dtype=np.int64)
        views = m.views_array()
        self.players = [Player(m.policies[p], {c: int(views[p][c, T.C_VALUE])
                                               for c in range(len(m.pool))},
                               lambda n, p=p: self.rand(p, POLICY, n)) for p in range(2)]
        n = len(m.pool)
        self.in_deck = np.zeros((2, n), dtype=np.int64)
        for p, deck in enumerate(m.decks):
            for c, k in deck.counts:
                self.in_deck[p, c] += k
        self.drawn = np.zeros((2, n), dtype=np.int64)
        self.cs = np.zeros((2, n, len(SCHEMA.all_card_stats)), dtype=np.int64)
        self.hist = np.zeros((2, VALUE_BINS), dtype=np.int64)
        self.seats = [Seat(list(d.cards())) for d in m.decks]
        self.round, self.first, self.ties, self.round1 = 0, -1, 0, -1
        self.winner, self.end = -1, END_POINTS
        self.text: list[str] = []
        self.log: list[tuple[int, ...]] = []
        self.log_rows = log_rows

    def rand(self, p: int, purpose: int, n: int) -> int:
        return py_next_below(self.keys, self.ctr, p, purpose, n)

    def name(self, c: int) -> str:
        return f"{self.m.pool.names[c]} ({self.value[c]})"

    def draw(self, p: int) -> None:
        """The top card to the hand; a Blank is set aside and the next card taken."""
        seat = self.seats[p]
        while seat.deck:
            c = seat.deck.pop(0)
            if self.m.pool.table[c, T.C_KIND] == T.BLANK:
                continue
            seat.hand.append(c)
            self.drawn[p, c] = 1
            return

    def play_from_hand(self, p: int, i: int) -> int:
        """The card at position i leaves the hand; the last card takes its place."""
        hand = self.seats[p].hand
        c = hand[i]
        hand[i] = hand[-1]
        hand.pop()
        self.cs[p, c, 4] += 1
        self.hist[p, self.value[c]] += 1
        return c

    def play_round(self, leader: int) -> tuple[bool, int]:
        """One round; (whether the match is over, who leads the next round)."""
        follower = 1 - leader
        self.round += 1
        led = self.play_from_hand(leader, self.players[leader].lead(self.seats[leader].hand))
        followed = self.play_from_hand(follower, self.players[follower].follow(
            self.seats[follower].hand, self.value[led]))
        a, b = self.value[led], self.value[followed]
        if a == b:
            scored = 2 if self.R["ties"] == "both" else -1
            if scored == 2:
                self.seats[0].score += 1
                self.seats[1].score += 1
            self.ties += 1
        else:
            scored = leader if a > b else follower
            self.seats[scored].score += 1
            self.cs[scored, led if scored == leader else followed, 5] += 1
        if self.round == 1:
            self.round1 = scored if scored in (0, 1) else -1
        score = [s.score for s in self.seats]
        who = "nobody" if scored == -1 else "both" if scored == 2 else SEATS[scored]
        self.text.append(f"Round {self.round}: {SEATS[leader]} leads {self.name(led)}, "
                         f"{SEATS[follower]} follows {self.name(followed)}: {who} scores "
                         f"({score[0]}-{score[1]})")
        if len(self.log) < self.log_rows:
            self.log.append((self.round, leader, led, followed, scored, *score))
        reached = [s >= self.R["points_to_win"] for s in score]
        if any(reached):
            self.end = END_POINTS
            self.winner = -1 if all(reached) else reached.index(True)
            return True, leader
        self.draw(leader)
        self.draw(follower)
        if not self.R["winner_leads"]:
            return False, follower
        return False, scored if scored in (0, 1) else leader

    def play(self) -> None:
        for p, seat in enumerate(self.seats):
            py_shuffle(seat.deck, lambda n, p=p: self.rand(p, SHUFFLE, n))
            for _ in range(self.R["hand_size"]):
                self.draw(p)
        leader = self.first = self.rand(0, DICE, 2)
        self.text.append(f"The coin: {SEATS[leader]} leads")
        while True:
            if not self.seats[0].hand or not self.seats[1].hand:
                self.end = END_OUT
                a, b = self.seats[0].score, self.seats[1].score
                self.winner = 0 if a > b else (1 if b > a else -1)
                break
            over, leader = self.play_round(leader)
            if over:
                break
        self.text.append(f"{winner_text(self.winner)}, end {SCHEMA.end_reasons[self.end]}")

    def record(self) -> np.ndarray:
        a, b = self.seats
        return np.array([self.winner, a.score, b.score, self.round, self.end, self.first,
                         self.ties, self.round1], dtype=np.int32)


# The contract's two entries (sim.kit.records.reference_entries).
reference_batch, replay = reference_entries(SCHEMA, Match, VALUE_PLAYED)
