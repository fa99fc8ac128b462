"""High Card's number that carries a card's power: its value, more being stronger. There is
no cost: a number card is judged beside every number card of the pool."""

from __future__ import annotations

from sim.highcard import pool as T
from sim.kit.power import Power, table_writer, view_writer

SLOTS = {"value": T.C_VALUE}
POWER = Power(stronger={"value": 1}, bounds={"value": (T.LOWEST, T.HIGHEST)},
              with_values=table_writer(SLOTS), with_view=view_writer(SLOTS))
