"""Payne's deck-building hooks: a seat's deck as card counts and back, and the groups a swap
stays within (a character for a character of its role, a booster or event for one of its
role)."""

from __future__ import annotations

from sim.kit.game import Building
from sim.payne import decks as D
from sim.payne import pool as T


def counts(m, seat: int) -> dict[str, int]:
    return {m.pool.ids[c]: n for c, n in m.decks[seat].counts}


def with_counts(m, seat: int, cards: dict[str, int], name: str):
    """The seat plays a deck of these counts; the validator judges it, not this."""
    index = {cid: i for i, cid in enumerate(m.pool.ids)}
    deck = D.Deck(m.decks[seat].path, name,
                  tuple((index[c], n) for c, n in cards.items() if n > 0))
    return m.with_deck(seat, deck)


def groups(m) -> dict[str, str]:
    """Every card but the blank filler: a character by its role, boosters and events by
    theirs (both play beside a battler of that role)."""
    out = {}
    for i, cid in enumerate(m.pool.ids):
        kind = int(m.pool.table[i, T.C_KIND])
        if T.KINDS[kind] == "blank":
            continue
        role = T.ROLES[int(m.pool.table[i, T.C_ROLE])]
        out[cid] = ("character:" if T.KINDS[kind] == "character" else "card:") + role
    return out


BUILDING = Building(counts=counts, with_counts=with_counts, groups=groups)
