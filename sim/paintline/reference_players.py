"""The reference engine's players: every decision of docs/rules.md ("Decisions") in plain
Python, written from those words, sharing no code with the kernel's policies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from sim.paintline import pool as T
from sim.paintline.params import FIELDS

# The 24 orders of the actions before the hit, numbered as the docs say.
ACTIONS = ("untap", "recycle", "stamina", "play")
ORDERS = list(permutations(ACTIONS))
DEFAULT_ORDER = 0


@dataclass(frozen=True)
class Settings:
    """A policy's settings by name, read from its parameter vector. Numbers stay floats:
    a trained setting need not be a whole number, and the rules compare it as it is."""

    random: bool
    plays_cards: bool
    hit: float
    pen: float
    look: float
    cost: float
    stamina_cap: float
    mulligan_below: float
    mulligan_above: float
    recycle_above: float
    bag_reserve: float
    build: bool
    enhance: bool
    order: int  # a number of ORDERS, or -1 for a random order each turn

    @classmethod
    def from_vector(cls, vector: np.ndarray) -> Settings:
        values = {}
        for name, (slot, kind, _) in FIELDS.items():
            v = float(vector[slot])
            values[name] = v != 0 if kind is bool else int(v) if kind is str else v
        return cls(**values)


class Player:
    """One seat's player. `below(n)` draws a uniform integer 0 .. n-1 from the seat's policy
    stream; only a random policy calls it."""

    def __init__(self, vector: np.ndarray, cards: np.ndarray, below: Callable[[int], int]):
        self.s = Settings.from_vector(vector)
        self.cards = cards
        self.below = below

    # --- worth ---------------------------------------------------------------------------

    def worth(self, card: int) -> float:
        """10 plus the four values for a shot card, 5 plus them for an enhancement."""
        row = self.cards[card]
        values = int(row[T.C_NBONUS] + row[T.C_NPEN] + row[T.C_ABONUS] + row[T.C_APEN])
        if row[T.C_KIND] == T.STAMINA:
            return -1.0
        if row[T.C_KIND] == T.ENHANCEMENT:
            return 5.0 + values
        return 10.0 + values

    def hand_worths(self, hand: list[int], in_plant: int) -> list[float]:
        """Worth of each hand card: a Stamina is 100 while still wanted, counting the Power
        Plant and the hand's earlier Stamina against stamina_cap, else -1."""
        out = []
        stamina = in_plant
        for card in hand:
            if self.cards[card, T.C_KIND] == T.STAMINA:
                out.append(100.0 if stamina < self.s.stamina_cap else -1.0)
                stamina += 1
            else:
                out.append(self.worth(card))
        return out

    def step_worth(self, card: int, tap: int) -> float:
        """An untap step: the card's worth, halved when it only goes from double tapped to
        single tapped."""
        return self.worth(card) / 2 if tap == 2 else self.worth(card)

    # --- helpers -------------------------------------------------------------------------

    def coin(self) -> bool:
        return self.below(2) == 1

    @staticmethod
    def best(scores: list[float]) -> int:
        """The highest score; the first listed on ties."""
        return max(range(len(scores)), key=lambda i: scores[i])

    @staticmethod
    def lowest(worths: list[float], m: int) -> list[int]:
        """The m lowest worths; the earliest first on ties."""
        return sorted(range(len(worths)), key=lambda i: (worths[i], i))[:m]

    def partial_shuffle(self, n: int, m: int) -> list[int]:
        """m of n places at random: place a swaps with a + (a draw below n - a)."""
        places = list(range(n))
        for a in range(m):
            j = a + self.below(n - a)
            places[a], places[j] = places[j], places[a]
        return places[:m]

    def score(self, f) -> float:
        """hit x P(lands) + pen x return penalty + look x P(lands, plain return misses) -
        cost x stamina spent, summed in that order."""
        return self.s.hit * f[0] + self.s.pen * f[1] + self.s.look * f[2] - self.s.cost * f[3]

    # --- the decisions, numbered as in the docs -----------------------------------------

    def order(self) -> tuple[str, ...]:
        """0. The order of untap, recycle, Stamina and play this turn."""
        if not self.s.plays_cards:
            return ORDERS[DEFAULT_ORDER]
        if self.s.order < 0:
            return ORDERS[self.below(len(ORDERS))]
        return ORDERS[self.s.order]

    def mulligan(self, stamina_in_hand: int) -> bool:
        """1. Mulligan when the hand's Stamina is below or above the policy's bounds."""
        if not self.s.plays_cards:
            return False
        if self.s.random:
            return self.coin()
        return stamina_in_hand < self.s.mulligan_below or stamina_in_hand > self.s.mulligan_above

    def untap(self, tapped: list[tuple[int, int]]) -> int | None:
        """2. Which (card, tap) option takes an untap step, or None."""
        if not tapped or not self.s.plays_cards:
            return None
        if self.s.random:
            k = self.below(len(tapped) + 1)
            return None if k == 0 else k - 1
        return self.best([self.step_worth(c, tap) for c, tap in tapped])

    def recycle(self, hand: list[int], table: list[tuple[int, int]], plant: int,
                bag_left: int, ratio: int) -> list[int]:
        """3. The units to discard (positions in hand, then table, then Power Plant), a
        multiple of ratio; empty for no recycle."""
        units = len(hand) + len(table) + plant
        if not self.s.plays_cards or units < ratio:
            return []
        if self.s.random:
            k = self.below(units // ratio + 1)
            return self.partial_shuffle(units, k * ratio)
        if bag_left <= self.s.bag_reserve or len(hand) <= self.s.recycle_above:
            return []
        k = max(1, int((len(hand) - self.s.recycle_above) // ratio))
        k = min(k, units // ratio)
        worths = self.hand_worths(hand, plant)
        for card, attached in table:
            worths.append(self.worth(card) + self.cards[card, T.C_COST]
                          + (self.worth(attached) if attached >= 0 else 0.0))
        worths += [100.0 if i < self.s.stamina_cap else -1.0 for i in range(plant)]
        return self.lowest(worths, k * ratio)

    def recycle_draws(self, k: int, safe: int) -> int:
        """3. How many of the k draws to take: never one that forfeits."""
        most = min(k, safe)
        return self.below(most + 1) if self.s.random else most

    def put_stamina(self, in_play: int) -> bool:
        """4. Put a Stamina into play while fewer than stamina_cap are in play."""
        if not self.s.plays_cards:
            return False
        if self.s.random:
            return self.coin()
        return in_play < self.s.stamina_cap

    def hit(self, features: list) -> int:
        """5. Which listed hit option (0 is the Default Shot)."""
        if not self.s.plays_cards:
            return 0
        if self.s.random:
            return self.below(len(features))
        return self.best([self.score(f) for f in features])

    def boost(self, now, features: list) -> int | None:
        """6. Which single-use enhancement to add, or None; now is the shot as it stands."""
        if not features or not self.s.plays_cards or not self.s.enhance:
            return None
        if self.s.random:
            k = self.below(len(features) + 1)
            return None if k == 0 else k - 1
        scores = [self.score(f) for f in features]
        b = self.best(scores)
        return b if scores[b] > self.score(now) else None

    def play(self, options: list[tuple[int, int]]) -> int | None:
        """7. Which (card, shot card it attaches to or -1) option to play, or None."""
        if not options or not self.s.plays_cards or not (self.s.random or self.s.build):
            return None
        if self.s.random:
            k = self.below(len(options) + 1)
            return None if k == 0 else k - 1
        return self.best([self.worth(c) + (0.001 * self.worth(t) if t >= 0 else 0.0)
                          for c, t in options])

    def ready(self, tapped: list[tuple[int, int]]) -> int:
        """8. Which (card, tap) option a Ready step goes to: not optional."""
        if self.s.random:
            return self.below(len(tapped))
        return self.best([self.step_worth(c, tap) for c, tap in tapped])

    def reroll(self, at_stake: bool) -> bool:
        """9. Roll a missed shot again when the miss costs the point."""
        if self.s.random:
            return self.coin()
        return at_stake

    def discards(self, hand: list[int], in_plant: int, m: int) -> list[int]:
        """10. The m hand positions to discard down to the hand limit."""
        if self.s.random:
            return self.partial_shuffle(len(hand), m)
        return self.lowest(self.hand_worths(hand, in_plant), m)
