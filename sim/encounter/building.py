"""Encounter's deck-building hooks: a seat's deck as card counts and back, and the groups a
swap stays within (a kind and its nature: a strike NPC for a strike NPC, a loot card for a
loot card). The PC and the two starting characteristics are kept as they are: their keys
carry "@start" and belong to no group, so no mutation touches them."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter.decks import Deck
from sim.kit.variants import Building

START = "@start"


def counts(m, seat: int) -> dict[str, int]:
    d = m.decks[seat]
    ids = m.pool.ids
    out = {ids[d.pc] + START: 1}
    for c in d.chars:
        out[ids[c] + START] = out.get(ids[c] + START, 0) + 1
    for c in d.draw + d.loot:
        out[ids[c]] = out.get(ids[c], 0) + 1
    return out


def with_counts(m, seat: int, cards: dict[str, int], name: str):
    """The seat plays a deck of these counts: loot cards in the loot deck, every other
    card in the draw deck; the validator judges it, not this."""
    index = {cid: i for i, cid in enumerate(m.pool.ids)}
    kinds = m.pool.table[:, K.C_KIND]
    pc, chars, draw, loot = -1, [], [], []
    for key, n in cards.items():
        if key.endswith(START):
            c = index[key[:-len(START)]]
            if kinds[c] == K.KINDS.index("pc"):
                pc = c
            else:
                chars += [c] * n
            continue
        c = index[key]
        (loot if kinds[c] == K.KINDS.index("loot") else draw).extend([c] * n)
    deck = Deck(name, m.decks[seat].path, pc, tuple(chars), tuple(draw), tuple(loot))
    return m.with_deck(seat, deck)


def groups(m) -> dict[str, str]:
    """Every card a draw or loot deck may hold (not a PC, not the blank), by kind and
    nature."""
    out = {}
    for i, cid in enumerate(m.pool.ids):
        kind = K.KINDS[int(m.pool.table[i, K.C_KIND])]
        if kind in ("pc", "blank"):
            continue
        out[cid] = f"{kind}:{K.NATURES[int(m.pool.table[i, K.C_NATURE])]}"
    return out


BUILDING = Building(counts=counts, with_counts=with_counts, groups=groups)
