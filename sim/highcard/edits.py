"""High Card's edits behind the designed experiments: sensitivity's value one higher, and the
sweeps (copies of one card, the rest made up with Blanks)."""

from __future__ import annotations

import dataclasses

from sim.highcard import pool as T
from sim.highcard.batch import Matchup
from sim.highcard.building import BUILDING
from sim.kit.variants import Sweep, Variant


def value_edits(m: Matchup, cards=None) -> list[Variant]:
    """Sensitivity: each number card of each deck with its value one higher (up to 9)."""
    out = []
    for seat, deck in enumerate(m.decks):
        for c, copies in deck.counts:
            cid, name = m.pool.ids[c], m.pool.names[c]
            value = int(m.pool.table[c, T.C_VALUE])
            if (cards and cid not in cards and name not in cards) \
                    or m.pool.table[c, T.C_KIND] != T.NUMBER or value >= T.HIGHEST:
                continue
            pool = m.pool.with_sets([f"{cid}.value={value + 1}"])
            out.append(Variant(f"{name} value +1 ({value + 1})", seat,
                               dataclasses.replace(m, pool=pool), cid, name, "value", copies,
                               {"delta": 1}))
    return out


SWEEPS = {
    "copies": Sweep("copies of one card, the rest made up with blanks", (0, 1, 2, 3, 4),
                    BUILDING.copies, needs_card=True),
}
