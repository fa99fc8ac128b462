"""What the designed experiments vary: one arm (`Variant`), a deck-composition sweep
(`Sweep`), and a game's deck-building hooks (`Building`) with the ablation and the copies
sweep the kit makes from them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.core.problems import InputError, Problem


@dataclass(frozen=True)
class Variant:
    """One arm of a designed experiment: a changed matchup and what changed."""

    item: str  # e.g. "Drive Shot normal_bonus +1" or "Drive Shot (us-red-tide)"
    seat: int  # the seat whose win rate the change is about
    matchup: Any
    card: str = ""  # card id, when the change is about one card
    name: str = ""  # that card's name
    field: str = ""
    copies: int = 0
    extra: dict = dataclasses.field(default_factory=dict)  # further columns for the result row
    # Why the change cannot be made at all (the card table refuses the value); such a
    # variant has no matchup and is listed among the skipped, never played.
    refused: str = ""


def by_deck(variants: list[Variant], decks: list[str]) -> list[Variant]:
    """The variants, each whose item another one shares named with its seat's deck (or the
    seat's letter, where both seats play decks of one name)."""
    items = [v.item for v in variants]
    distinct = len(set(decks)) == len(decks)
    return [v if items.count(v.item) == 1 else dataclasses.replace(
        v, item=f"{v.item} in {decks[v.seat] if distinct else 'seat ' + chr(65 + v.seat)}")
        for v in variants]


@dataclass(frozen=True)
class Sweep:
    """A deck-composition sweep: `make(matchup, seat, value, options)` gives the Variant of
    one point; `values` is the default range; `needs_card` when it varies one card."""

    help: str
    values: tuple[int, ...]
    make: Callable[..., Variant]
    needs_card: bool = False


def cards_in_play(game, m) -> set[str] | None:
    """The ids of the cards a matchup can play: those of every seat's deck (the game's
    Building; a key's "@" tail names a part of a deck, such as Encounter's starting cards)
    and those its rule options name (Paint the Line's rally-mode arsenals). A change to any
    other card moves no match. None for a game without deck-building hooks: it cannot say."""
    if game.building is None:
        return None
    held = {key.partition("@")[0] for seat in range(len(m.decks))
            for key, n in game.building.counts(m, seat).items() if n > 0}
    words = {str(w) for v in game.describe(m)["rules"].values()
             for w in (v if isinstance(v, list | tuple) else (v,))}
    return held | {cid for cid, name in zip(m.pool.ids, m.pool.names, strict=True)
                   if cid in words or name in words}


def blanked(counts: dict[str, int], card: str, keep: int, blank: str) -> dict[str, int]:
    """The counts with `card` down to `keep` copies and the rest of them blanks listed right
    after it, so that every other card keeps its place in the list, and so in any shuffle of
    it: the variant draws the other cards in the baseline's order (the closest common random
    numbers; appended at the end, they would move every card listed after it). A deck that
    holds blanks already has one entry for them, which takes the new ones."""
    spare = counts.get(card, 0) - keep
    if spare <= 0 or blank in counts:
        return counts | {card: keep, blank: counts.get(blank, 0) + max(spare, 0)}
    out = {}
    for cid, n in counts.items():
        out[cid] = keep if cid == card else n
        if cid == card:
            out[blank] = spare
    return out


@dataclass(frozen=True)
class Building:
    """The optional hooks behind `cardlab deckbuild`: a seat's deck as card counts, and back.

    - counts(matchup, seat) -> {card id: copies}: the seat's deck as it stands.
    - with_counts(matchup, seat, counts, name) -> matchup: the seat plays a deck of those
      counts under that name; whether it is legal is the validator's word (`validate`),
      never assumed.
    - groups(matchup) -> {card id: group}: every card a deck may be built from, with the
      group a swap stays within (cards alike in kind and role); the filler is left out.
    """

    counts: Callable[[Any, int], dict[str, int]]
    with_counts: Callable[..., Any]
    groups: Callable[[Any], dict[str, str]]

    @classmethod
    def of_counts(cls, groups: Callable[[Any], dict[str, str]]) -> Building:
        """The hooks of a game whose decks are card counts (a deck with `name` and `counts`
        of (card index, copies), such as sim.kit.decklists.Deck), with its `groups`."""
        def counts(m, seat: int) -> dict[str, int]:
            return {m.pool.ids[c]: n for c, n in m.decks[seat].counts}

        def with_counts(m, seat: int, cards: dict[str, int], name: str):
            index = {cid: i for i, cid in enumerate(m.pool.ids)}
            deck = dataclasses.replace(m.decks[seat], name=name, counts=tuple(
                (index[c], n) for c, n in cards.items() if n > 0))
            return m.with_deck(seat, deck)

        return cls(counts, with_counts, groups)

    def ablations(self, m, kinds: tuple[str, ...]) -> list[Variant]:
        """Ablation: every copy of one card of the flagged kinds swapped for the blank filler,
        one card and one seat at a time, so the deck keeps its length (a card whose name
        another card shares is named by its id too); the validator judges each."""
        pool = m.pool
        blank = pool.ids[pool.filler()]
        index = {cid: i for i, cid in enumerate(pool.ids)}
        kinds_of, names = pool.kinds, [n.lower() for n in pool.names]
        out = []
        for seat, deck in enumerate(m.decks):
            counts = self.counts(m, seat)
            for cid, n in counts.items():
                c = index.get(cid, -1)  # a key that names no card is a part the game keeps
                if c < 0 or cid == blank or kinds_of[c] not in kinds:
                    continue
                name = pool.names[c]
                without = blanked(counts, cid, 0, blank)
                variant = self.with_counts(m, seat, without, f"{deck.name}-without-{cid}")
                out.append(Variant(f"{name} ({cid}, {deck.name})" if names.count(name.lower()) > 1
                                   else f"{name} ({deck.name})", seat, variant, cid, name,
                                   copies=n))
        return out

    def copies(self, m, seat: int, value: int, options: dict | None = None,
               gives_way: tuple[str, ...] = ()) -> Variant:
        """The copies sweep: `value` copies of one card (`options["card"]`) in the seat's
        deck, the difference made up with blanks; more copies than the deck's card and
        blanks hold take the place of other cards of the kinds in `gives_way`, first
        listed first. The deck keeps its length; the validator judges the rest."""
        pool = m.pool
        c = pool.card((options or {}).get("card"))
        card, name, blank = pool.ids[c], pool.names[c], pool.ids[pool.filler()]
        if card == blank:
            raise InputError([Problem("--card", 0, "the copies sweep varies a card against "
                                      "the blank filler; the blank itself cannot be the card")])
        if value < 0:
            raise InputError([Problem("--values", 0, f"copies must be 0 or more, got {value}")])
        counts = self.counts(m, seat)
        now = counts.get(card, 0)
        if value <= now:  # the copies it keeps and every other card stay where they lie
            counts = blanked(counts, card, value, blank)
        else:
            counts[card] = value
            counts[blank] = counts.get(blank, 0) + now - value
        kinds = dict(zip(pool.ids, pool.kinds, strict=True))
        for cid in [k for k in counts if kinds.get(k) in gives_way and k != card]:
            take = min(counts[cid], max(0, -counts[blank]))
            counts[cid] -= take
            counts[blank] += take
        deck = m.decks[seat]
        if counts[blank] < 0:
            others = "".join(f" or {k}" for k in gives_way)
            raise InputError([Problem(str(getattr(deck, "path", "")), 0, f"no room for "
                                      f"{value} copies of {name!r}: not enough blanks{others} "
                                      "to give way")])
        label = f"{deck.name}-{card}x{value}"
        return Variant(label, seat, self.with_counts(m, seat, counts, label), card, name)
