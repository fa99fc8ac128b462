"""Paint the Line's numbers that carry a card's power: a shot's or an enhancement's four
values, each stronger when higher, priced by the card's stamina cost."""

from __future__ import annotations

import dataclasses

from sim.game import Power
from sim.paintline import pool as T
from sim.paintline.edits import VALUE_FIELDS
from sim.paintline.lint import cards


def with_values(m, values: dict[tuple[str, str], int]):
    """The matchup with some cards' values changed ({(card id, field): value})."""
    cells = {(m.pool.ids.index(card), T.INT_COLUMNS[field]): int(v)
             for (card, field), v in values.items()}
    return dataclasses.replace(m, pool=m.pool.with_values(cells))


# A bonus helps the shot land; a penalty hinders the return: more of either is stronger.
POWER = Power(cards=cards, stronger={f: 1 for f in VALUE_FIELDS},
              bounds={f: (0, T.MAX_VALUE) for f in VALUE_FIELDS}, with_values=with_values,
              cost={"": "cost"})
