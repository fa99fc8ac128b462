"""The card numbers that carry power, behind causal verdicts and `cardlab calibrate`: which
way of each is stronger, how a matchup is changed to hold other numbers, and what a seat's
policy reads of them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


def pool_frame(m):
    """The card table by field name (Lint.cards and Power.cards unless a game adds fields of
    its own) (sim.kit.cards.CardTable.frame)."""
    return m.pool.frame()


@dataclass(frozen=True)
class Power:
    """The optional hooks behind causal verdicts and `cardlab calibrate`: which numbers carry a
    card's power and which way of each is stronger, so that the lab can price a card
    against par for its kind and cost and plant changes whose direction is known.

    - cards(matchup) -> DataFrame: the pool, one row per card: id, kind (a word), and every
      field named below, as numbers (default: the card table by field name).
    - stronger: {field: +1 when more of it is stronger, -1 when less is}: the card's numbers
      that par sets and planted buffs and nerfs move (words and keywords are the card's own).
    - bounds: {field: (lo, hi)}: the values a field may take.
    - cost: {kind: field} the field par is priced by ("" for every other kind); a kind
      without one is priced as a whole.
    - group: further fields a card shares with its par (e.g. a role), besides its kind.
    - with_values(matchup, {(card id, field): value}) -> matchup: the card table changed,
      the decks as they were; whether it is legal is the validator's word.
    - with_view(matchup, seat, {(card id, field): value}) -> matchup, optional: the seat's
      policy reads the card with these numbers while the rules play it as it is, so that
      a changed card may be played exactly as par is played (the verdicts' best play).
    - forms(matchup, {(card id, field): value}) -> [values], optional: the cards these
      numbers may be where they leave the card's shape open, each as values that
      with_values and with_view read (Payne Academy's k helping sides: each of the ways to
      have k of four). Par, no effect and par made strong are played in every form and
      their wins averaged match by match, so that par is the typical card of its numbers,
      not one shape the card happens to keep (default: the values alone).
    """

    stronger: dict[str, int]
    bounds: dict[str, tuple[int, int]]
    with_values: Callable[..., Any]
    cards: Callable[[Any], Any] = pool_frame
    cost: dict[str, str] = dataclasses.field(default_factory=dict)
    group: tuple[str, ...] = ()
    with_view: Callable[..., Any] | None = None
    forms: Callable[..., list] | None = None

    def alike(self, m, values: dict) -> list[dict]:
        """The forms of these values (`forms`), or the values alone."""
        return self.forms(m, values) if self.forms is not None else [values]

    def made(self, m, values: dict) -> list:
        """The matchup with the values, one per form (with_values)."""
        return [self.with_values(m, v) for v in self.alike(m, values)]

    def read_as(self, m, seat: int, values: dict) -> list:
        """The matchup with the seat reading the card as these values, one per form
        (with_view)."""
        return [self.with_view(m, seat, v) for v in self.alike(m, values)]

    def cost_field(self, kind: str) -> str:
        return self.cost.get(kind, self.cost.get("", ""))


def table_writer(slots: dict[str, int]) -> Callable[..., Any]:
    """Power.with_values for a game whose power numbers are columns of its card table
    ({field: column}): the matchup with those cells of its pool changed."""

    def with_values(m, values: dict[tuple[str, str], int]):
        cells = {(m.pool.ids.index(card), slots[field]): int(v)
                 for (card, field), v in values.items()}
        return dataclasses.replace(m, pool=m.pool.with_values(cells))

    return with_values


def with_view_cells(m, seat: int, cells: dict[tuple[int, int], int]):
    """The matchup with these (card, column) cells added to the seat's view (a matchup that
    holds each seat's view as ((card, column), value) cells in `views`)."""
    views = list(m.views)
    views[seat] = tuple(sorted((dict(views[seat]) | cells).items()))
    return dataclasses.replace(m, views=tuple(views))


def seat_views(table, views) -> Any:
    """Each seat's card table as its policy reads it: the table with the seat's view cells
    in place (one table per seat, stacked)."""
    out = np.stack([table] * len(views))
    for p, cells in enumerate(views):
        for (card, column), value in cells:
            out[p, card, column] = value
    # Writable as the table is: a compiled rule read with a seat's view and with the table
    # is then compiled once, not once for each (numba types a read-only array apart).
    out.setflags(write=bool(np.asarray(table).flags.writeable))
    return out


def view_writer(slots: dict[str, int]) -> Callable[..., Any]:
    """Power.with_view for a game whose power numbers are columns of its card table and
    whose matchup holds each seat's view as cells (`with_view_cells`)."""

    def with_view(m, seat: int, values: dict[tuple[str, str], int]):
        return with_view_cells(m, seat, {(m.pool.ids.index(card), slots[field]): int(v)
                                         for (card, field), v in values.items()})

    return with_view
