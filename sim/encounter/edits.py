"""Designed-experiment arms for Encounter: +1 value edits, ablations and deck sweeps."""

from __future__ import annotations

from dataclasses import replace

from sim.core.problems import InputError, Problem
from sim.encounter import codes as K
from sim.encounter.decks import Deck
from sim.encounter.pool import INT_FIELDS, has_ability
from sim.kit.variants import Sweep, Variant

# Numeric fields worth a +1 per kind (sensitivity of strength, toughness, costs, points).
FIELDS_OF = {
    K.PC: ("dex", "int", "str", "tough"),
    K.CHARACTERISTIC: ("cost", "dex", "int", "str", "tough"),
    K.NPC: ("cost", "dex", "int", "str", "tough"),
    K.ACTION: ("cost", "dex", "int", "str", "tough"),
    K.LOCATION: ("dex", "int", "str"),
    K.LOOT: ("dex", "int", "str", "tough"),
    K.QUEST: ("quest_cost", "quest_points", "loot_points"),
    K.BLANK: (),
}


def _seat_of(m, card: int) -> int:
    for p, d in enumerate(m.decks):
        if card in d.counts():
            return p
    return 0


def value_edits(m, cards: list[str] | None = None) -> list[Variant]:
    """+1 on each numeric value (and each keyword or objective argument, and the
    ability_cost of a card with an in-play ability) of the cards in either deck, or of the
    named cards among them."""
    pool = m.pool
    held = sorted({c for d in m.decks for c in d.counts()})
    # A named card in neither deck has no edit: its change could move no match.
    idx = [c for c in (pool.card(name) for name in cards) if c in held] if cards else held
    out = []
    for c in idx:
        row = pool.table[c]
        fields = list(FIELDS_OF[int(row[K.C_KIND])])
        fields += [f for f, col in (("arg1", K.C_ARG1), ("arg2", K.C_ARG2), ("oarg1", K.C_OARG1),
                                    ("oarg2", K.C_OARG2)) if row[col - 1]]
        if has_ability(row):
            fields.append("ability_cost")  # each use of its in-play ability costs one more
        for f in fields:
            table = pool.table.copy()
            table[c, INT_FIELDS[f]] += 1
            out.append(Variant(f"{pool.names[c]} {f} +1", _seat_of(m, c),
                               replace(m, pool=pool.with_table(table)), pool.ids[c],
                               pool.names[c], f))
    return out


def _swap(deck: Deck, card: int, blank: int) -> Deck:
    return replace(deck, draw=tuple(blank if x == card else x for x in deck.draw),
                   loot=tuple(blank if x == card else x for x in deck.loot))


def ablations(m) -> list[Variant]:
    """Each card of each draw or loot deck replaced by Blank (the neutral filler)."""
    blank = m.pool.blank
    out = []
    for p, deck in enumerate(m.decks):
        for c in dict.fromkeys(deck.draw + deck.loot):
            if c == blank:
                continue
            n = deck.draw.count(c) + deck.loot.count(c)
            out.append(Variant(f"{m.pool.names[c]} ({deck.name})", p,
                               m.with_deck(p, _swap(deck, c, blank)), m.pool.ids[c],
                               m.pool.names[c], copies=n))
    return out


def _quests(m, seat: int, value: int, options=None) -> Variant:
    """The seat's draw deck with `value` quests: quests beyond it become Blank; missing ones
    replace non-quest cards from the end, copying the deck's quests in turn."""
    deck = m.decks[seat]
    kinds = m.pool.table[:, K.C_KIND]
    draw = list(deck.draw)
    quests = [i for i, c in enumerate(draw) if kinds[c] == K.QUEST]
    if not quests:
        raise InputError([Problem(deck.path, 0, "the deck has no quest to sweep")])
    kinds_in = [draw[i] for i in quests]
    if value < len(quests):
        for i in quests[value:]:
            draw[i] = m.pool.blank
    else:
        others = [i for i, c in enumerate(draw) if kinds[c] != K.QUEST][::-1]
        for j, i in enumerate(others[: value - len(quests)]):
            draw[i] = kinds_in[j % len(kinds_in)]
    return Variant(f"{value} quests ({deck.name})", seat,
                   m.with_deck(seat, replace(deck, draw=tuple(draw))),
                   extra={"quests": value})


def _copies(m, seat: int, value: int, options=None) -> Variant:
    """`value` copies of one card in the seat's draw deck, the rest Blank."""
    c = m.pool.card((options or {}).get("card"))
    deck = m.decks[seat]
    blank = m.pool.blank
    draw = [blank if x == c else x for x in deck.draw]
    slots = [i for i, x in enumerate(draw) if x == blank][::-1]
    if value > len(slots):
        raise InputError([Problem(deck.path, 0, f"no room for {value} copies of "
                                  f"{m.pool.names[c]!r}: the draw deck has {len(slots)} "
                                  "places for it (its own and the Blanks)")])
    for i in slots[:value]:
        draw[i] = c
    return Variant(f"{value} x {m.pool.names[c]} ({deck.name})", seat,
                   m.with_deck(seat, replace(deck, draw=tuple(draw))), m.pool.ids[c],
                   m.pool.names[c], copies=value)


SWEEPS = {
    "quests": Sweep("quests among the 40 draw cards (extra quests copy the deck's own; "
                    "fewer: Blank)", (6, 8, 10, 12, 14, 16), _quests),
    "copies": Sweep("copies of one card in the draw deck (the rest Blank)", (0, 1, 2, 3, 4),
                    _copies, needs_card=True),
}
