"""What every game's matchup holds and the kit reads of it: one card pool under one rule set,
and a deck and a policy (its name and its parameter vector) for each seat."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Matchup:
    """The fields every game's matchup starts with; a game's own subclass adds what its
    engine needs (a folder, each seat's view of the cards, rally-mode arsenals)."""

    pool: Any  # the card table (sim.kit.cards.CardTable)
    rules: Any  # the rule options (sim.kit.options.Rules)
    decks: tuple  # a deck a seat, each with its `name`
    policy_names: tuple[str, ...]
    policies: tuple  # a parameter vector a seat

    def with_deck(self, seat: int, deck):
        """The matchup with one seat playing another deck (the validator judges it)."""
        decks = list(self.decks)
        decks[seat] = deck
        return dataclasses.replace(self, decks=tuple(decks))
