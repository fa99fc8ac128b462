"""Paint the Line's numbers that carry a card's power: a shot's or an enhancement's four
values, each stronger when higher, priced by the card's stamina cost."""

from __future__ import annotations

from sim.kit.power import Power, table_writer, view_writer
from sim.paintline import pool as T
from sim.paintline.edits import VALUE_FIELDS

# A bonus helps the shot land; a penalty hinders the return: more of either is stronger.
POWER = Power(stronger={f: 1 for f in VALUE_FIELDS},
              bounds={f: (0, T.MAX_VALUE) for f in VALUE_FIELDS},
              with_values=table_writer({f: T.INT_COLUMNS[f] for f in VALUE_FIELDS}),
              cost={"": "cost"},
              with_view=view_writer({f: T.INT_COLUMNS[f] for f in VALUE_FIELDS}))
