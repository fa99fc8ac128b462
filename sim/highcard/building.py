"""High Card's deck-building hooks: a seat's deck as card counts and back, and the group a
swap stays within (a number card for a number card)."""

from __future__ import annotations

from sim.highcard import decks as D
from sim.highcard import pool as T
from sim.kit.game import Building


def counts(m, seat: int) -> dict[str, int]:
    return {m.pool.ids[c]: n for c, n in m.decks[seat].counts}


def with_counts(m, seat: int, cards: dict[str, int], name: str):
    """The seat plays a deck of these counts; the validator judges it, not this."""
    index = {cid: i for i, cid in enumerate(m.pool.ids)}
    deck = D.Deck(m.decks[seat].path, name,
                  tuple((index[c], n) for c, n in cards.items() if n > 0))
    return m.with_deck(seat, deck)


def groups(m) -> dict[str, str]:
    """Every number card, in one group (the Blank filler is left out)."""
    return {cid: "number" for i, cid in enumerate(m.pool.ids)
            if m.pool.table[i, T.C_KIND] == T.NUMBER}


BUILDING = Building(counts=counts, with_counts=with_counts, groups=groups)
