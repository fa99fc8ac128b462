"""Encounter's numbers that carry a card's power: characteristics, strength and toughness,
a quest's points, each stronger when higher; a quest priced by its quest cost, any other
card by its cost, and each judged beside cards of its own nature."""

from __future__ import annotations

from sim.encounter.pool import INT_FIELDS, MAX_VALUE
from sim.kit.power import Power, table_writer

FIELDS = ("dex", "int", "str", "tough", "quest_points", "loot_points")

POWER = Power(stronger={f: 1 for f in FIELDS},
              bounds={f: (0, MAX_VALUE) for f in FIELDS},
              with_values=table_writer({f: INT_FIELDS[f] for f in FIELDS}),
              cost={"": "cost", "quest": "quest_cost"}, group=("nature",))
