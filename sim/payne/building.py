"""Payne's deck-building hooks: a seat's deck as card counts and back, and the groups a swap
stays within (a character for a character of its role, a booster or event for one of its
role)."""

from __future__ import annotations

from sim.kit.variants import Building
from sim.payne import pool as T


def groups(m) -> dict[str, str]:
    """Every card but the blank filler: a character by its role, boosters and events by
    theirs (both play beside a battler of that role)."""
    out = {}
    for i, cid in enumerate(m.pool.ids):
        kind = int(m.pool.table[i, T.C_KIND])
        if T.KINDS[kind] == "blank":
            continue
        role = T.ROLES[int(m.pool.table[i, T.C_ROLE])]
        out[cid] = ("character:" if T.KINDS[kind] == "character" else "card:") + role
    return out


BUILDING = Building.of_counts(groups)
