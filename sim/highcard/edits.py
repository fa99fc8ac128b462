"""High Card's edits behind the designed experiments: sensitivity's value one higher, and the
sweeps (copies of one card, the rest made up with Blanks)."""

from __future__ import annotations

import dataclasses

from sim.core.problems import InputError
from sim.highcard import pool as T
from sim.highcard.batch import Matchup
from sim.highcard.building import BUILDING
from sim.kit import legality
from sim.kit.variants import Sweep, Variant


def value_edits(m: Matchup, cards=None) -> list[Variant]:
    """Sensitivity: each number card of each deck with its value one higher; one already at
    the highest value (9) is there with the card table's reason it cannot be."""
    out = []
    for seat, deck in enumerate(m.decks):
        for c, copies in deck.counts:
            cid, name = m.pool.ids[c], m.pool.names[c]
            value = int(m.pool.table[c, T.C_VALUE])
            if (cards and cid not in cards and name not in cards) \
                    or m.pool.table[c, T.C_KIND] != T.NUMBER:
                continue
            item = f"{name} value +1 ({value + 1})"
            try:
                changed, refused = dataclasses.replace(
                    m, pool=m.pool.with_sets([f"{cid}.value={value + 1}"])), ""
            except InputError as err:
                changed, refused = None, legality.reason(err.problems)
            out.append(Variant(item, seat, changed, cid, name, "value", copies, {"delta": 1},
                               refused))
    return out


SWEEPS = {
    "copies": Sweep("copies of one card, the rest made up with blanks", (0, 1, 2, 3, 4),
                    BUILDING.copies, needs_card=True),
}
