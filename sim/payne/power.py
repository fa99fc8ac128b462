"""Payne's number that carries a character's power: how many of its sides help its role (lit
on an offensive character, unlit on a defensive one), more being stronger. Rarity follows
the arrows, so a character is judged beside all characters of its role, not its rarity."""

from __future__ import annotations

import dataclasses

import pandas as pd

from sim.kit.game import Power, with_view_cells
from sim.payne import pool as T
from sim.payne.pool import sides, with_sides


def cards(m) -> pd.DataFrame:
    """id, name, kind, role and sides (how many sides help the role; 0 on other kinds)."""
    t = m.pool.table
    return pd.DataFrame({
        "id": m.pool.ids, "name": m.pool.names, "kind": [T.KINDS[k] for k in t[:, T.C_KIND]],
        "role": t[:, T.C_ROLE],
        "sides": [sides(k, r, a) for k, r, a in
                  zip(t[:, T.C_KIND], t[:, T.C_ROLE], t[:, T.C_ARROWS], strict=True)]})


def with_values(m, values: dict[tuple[str, str], int]):
    """The matchup with some characters' helping sides changed ({(card id, "sides"): k});
    rarity follows the lit arrows, as the rulebook prices them."""
    table = m.pool.table.copy()
    for (card, _field), k in values.items():
        c = m.pool.ids.index(card)
        kind, role = int(table[c, T.C_KIND]), int(table[c, T.C_ROLE])
        if kind != T.CHARACTER:
            continue
        mask = with_sides(kind, role, int(table[c, T.C_ARROWS]), int(k))
        table[c, T.C_ARROWS] = mask
        table[c, T.C_RARITY] = T.RARITY_BY_LIT[role][bin(mask).count("1")]
    return dataclasses.replace(m, pool=m.pool.with_table(table))


def with_view(m, seat: int, values: dict[tuple[str, str], int]):
    """The matchup with the seat's policy reading some characters with other helping sides
    ({(card id, "sides"): k}), fielding them and naming sides as it would such a card, while
    they battle with their own arrows."""
    cells = {}
    for (card, _field), k in values.items():
        c = m.pool.ids.index(card)
        kind, role = int(m.pool.table[c, T.C_KIND]), int(m.pool.table[c, T.C_ROLE])
        if kind == T.CHARACTER:
            cells[c, T.C_ARROWS] = with_sides(kind, role, int(m.pool.table[c, T.C_ARROWS]),
                                              int(k))
    return with_view_cells(m, seat, cells)


POWER = Power(cards=cards, stronger={"sides": 1}, bounds={"sides": (0, len(T.SIDES))},
              with_values=with_values, group=("role",), with_view=with_view)
