"""High Card's deck-building hooks: a seat's deck as card counts and back, and the group a
swap stays within (a number card for a number card)."""

from __future__ import annotations

from sim.highcard import pool as T
from sim.kit.variants import Building


def groups(m) -> dict[str, str]:
    """Every number card, in one group (the Blank filler is left out)."""
    return {cid: "number" for i, cid in enumerate(m.pool.ids)
            if m.pool.table[i, T.C_KIND] == T.NUMBER}


BUILDING = Building.of_counts(groups)
