"""Payne's number that carries a character's power: how many of its sides help its role (lit
on an offensive character, unlit on a defensive one), more being stronger. Rarity follows
the arrows, so a character is judged beside all characters of its role, not its rarity.
Which sides help matters as much as how many, against a given deck; so par with k helping
sides is every way to have k of the four, played alike and averaged (`forms`), never one
shape the judged card happens to keep."""

from __future__ import annotations

import dataclasses
import itertools

import pandas as pd

from sim.kit.power import Power, with_view_cells
from sim.payne import pool as T
from sim.payne.pool import helping, sides, with_sides


def cards(m) -> pd.DataFrame:
    """id, name, kind, role and sides (how many sides help the role; 0 on other kinds)."""
    t = m.pool.table
    return pd.DataFrame({
        "id": m.pool.ids, "name": m.pool.names, "kind": [T.KINDS[k] for k in t[:, T.C_KIND]],
        "role": t[:, T.C_ROLE],
        "sides": [sides(k, r, a) for k, r, a in
                  zip(t[:, T.C_KIND], t[:, T.C_ROLE], t[:, T.C_ARROWS], strict=True)]})


def masks(m, values: dict[tuple[str, str], int]) -> dict[int, int]:
    """{card row: arrow mask} for the characters among the values: the mask given as
    (card, "arrows"), else the card's own helping sides kept where it can (with_sides)."""
    table, out = m.pool.table, {}
    for (card, field), k in values.items():
        c = m.pool.ids.index(card)
        kind, role = int(table[c, T.C_KIND]), int(table[c, T.C_ROLE])
        if kind != T.CHARACTER or (field == "sides" and (card, "arrows") in values):
            continue
        out[c] = int(k) if field == "arrows" else with_sides(kind, role,
                                                             int(table[c, T.C_ARROWS]), int(k))
    return out


def with_values(m, values: dict[tuple[str, str], int]):
    """The matchup with some characters' helping sides changed ({(card id, "sides"): k}, or
    the arrows themselves as (card id, "arrows")); rarity follows the lit arrows, as the
    rulebook prices them."""
    table = m.pool.table.copy()
    for c, mask in masks(m, values).items():
        table[c, T.C_ARROWS] = mask
        table[c, T.C_RARITY] = T.RARITY_BY_LIT[table[c, T.C_ROLE]][bin(mask).count("1")]
    return dataclasses.replace(m, pool=m.pool.with_table(table))


def with_view(m, seat: int, values: dict[tuple[str, str], int]):
    """The matchup with the seat's policy reading some characters with other helping sides
    (as with_values reads them), fielding them and naming sides as it would such a card,
    while they battle with their own arrows."""
    return with_view_cells(m, seat, {(c, T.C_ARROWS): mask
                                     for c, mask in masks(m, values).items()})


def forms(m, values: dict[tuple[str, str], int]) -> list[dict[tuple[str, str], int]]:
    """Every way the characters among the values may have their k helping sides (each
    character's masks in increasing order, one value dict per combination)."""
    table, choices = m.pool.table, []
    for (card, field), k in values.items():
        c = m.pool.ids.index(card)
        kind, role = int(table[c, T.C_KIND]), int(table[c, T.C_ROLE])
        if field != "sides" or kind != T.CHARACTER:
            choices.append([{(card, field): k}])
            continue
        choices.append([{(card, field): k, (card, "arrows"): mask} for mask in range(T.ALL + 1)
                        if bin(helping(kind, role, mask)).count("1") == int(k)])
    return [dict(pair for part in combo for pair in part.items())
            for combo in itertools.product(*choices)]


POWER = Power(cards=cards, stronger={"sides": 1}, bounds={"sides": (0, len(T.SIDES))},
              with_values=with_values, group=("role",), with_view=with_view, forms=forms)
