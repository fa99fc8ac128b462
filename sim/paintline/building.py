"""Paint the Line's deck-building hooks: a seat's deck as card counts and back, and the groups
a swap stays within (the kind, and a shot's type: a lob for a lob)."""

from __future__ import annotations

from sim.kit.variants import Building
from sim.paintline import pool as T
from sim.paintline.batch import Matchup
from sim.paintline.decks import Deck


def counts(m: Matchup, seat: int) -> dict[str, int]:
    return {m.pool.ids[c]: n for c, n in m.decks[seat].counts}


def with_counts(m: Matchup, seat: int, cards: dict[str, int], name: str) -> Matchup:
    """The seat plays a deck of these counts (coach and nation read from its cards, as a
    loaded deck's are); the validator judges it, not this."""
    index = {cid: i for i, cid in enumerate(m.pool.ids)}
    kept = tuple((index[c], n) for c, n in cards.items() if n > 0)
    return m.with_deck(seat, Deck.of(m.decks[seat].path, name, kept, m.pool, (0,) * len(kept)))


def groups(m: Matchup) -> dict[str, str]:
    """Every card but the Blank filler: its kind, a shot's type beside it."""
    out = {}
    for i, cid in enumerate(m.pool.ids):
        kind = int(m.pool.table[i, T.C_KIND])
        if kind == T.BLANK:
            continue
        shot = T.SHOT_TYPES[int(m.pool.table[i, T.C_TYPE])]
        out[cid] = T.KINDS[kind] + (f":{shot}" if shot else "")
    return out


BUILDING = Building(counts=counts, with_counts=with_counts, groups=groups)
