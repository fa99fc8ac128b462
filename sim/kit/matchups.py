"""What every game's matchup holds and the kit reads of it: one card pool under one rule set,
and a deck and a policy (its name and its parameter vector) for each seat."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.kit.power import seat_views


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

    @classmethod
    def read(cls, files, path, decks: Sequence, policies: Sequence[str],
             rules: dict | None = None, sets: Sequence[str] | None = None, **own):
        """A matchup from the game folder at `path` read by the game's `files` (a
        sim.core.datafiles.FolderFiles): the rule changes (a dict) and the card edits
        ("CARD.FIELD=VALUE"); a deck a seat by file or name, read and judged under the rules
        and cards as changed (a deck_size agreed on judges the decks' length, a card made
        rare its copies, each problem on its line); a policy a seat by name; `own`: the
        game's further fields."""
        folder = Path(path)
        data = files.base(folder)
        played = data.rules.replace(dict(rules)) if rules else data.rules
        pool = data.pool.with_sets(list(sets or []))
        read = tuple(files.deck(folder, d, pool, played) for d in decks)
        return cls(pool, played, read, tuple(policies), files.policies(folder, list(policies)),
                   **own)

    @classmethod
    def loader(cls, files, policy: str):
        """A two-seat game's load_matchup (the contract's): a matchup of this class `read`
        from a folder by the game's `files`, seat B playing A's policy unless it names one,
        `policy` where neither does; the folder kept in the matchup."""
        def load_matchup(folder, deck_a, deck_b, policy_a: str = policy,
                         policy_b: str | None = None, rules: dict | None = None,
                         sets: Sequence[str] | None = None):
            """A matchup from a game folder: decks by file or name, policies by name, rule
            changes as a dict, card edits as "CARD.FIELD=VALUE"; each deck judged as it is
            read, under the rules and cards as changed."""
            return cls.read(files, folder, (deck_a, deck_b), (policy_a, policy_b or policy_a),
                            rules, sets, folder=str(folder))

        return load_matchup


@dataclass(frozen=True)
class Viewed(Matchup):
    """A matchup whose seats' policies may read some cards otherwise than the rules play
    them, so that a changed card can be played as par is played (sim.kit.power.Power's
    with_view): each seat's ((card, column), value) cells."""

    views: tuple = ((), ())

    def views_array(self):
        """Each seat's card table as its policy reads it (sim.kit.power.seat_views)."""
        return seat_views(self.pool.table, self.views)
