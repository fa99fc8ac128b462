"""Encounter's numbers that carry a card's power: characteristics, strength and toughness,
a quest's points, each stronger when higher; a quest priced by its quest cost, any other
card by its cost, and each judged beside cards of its own nature."""

from __future__ import annotations

import dataclasses

from sim.encounter.lint import cards
from sim.encounter.pool import INT_FIELDS, MAX_VALUE
from sim.game import Power

FIELDS = ("dex", "int", "str", "tough", "quest_points", "loot_points")


def with_values(m, values: dict[tuple[str, str], int]):
    """The matchup with some cards' values changed ({(card id, field): value})."""
    cells = {(m.pool.ids.index(card), INT_FIELDS[field]): int(v)
             for (card, field), v in values.items()}
    return dataclasses.replace(m, pool=m.pool.with_values(cells))


POWER = Power(cards=cards, stronger={f: 1 for f in FIELDS},
              bounds={f: (0, MAX_VALUE) for f in FIELDS}, with_values=with_values,
              cost={"": "cost", "quest": "quest_cost"}, group=("nature",))
