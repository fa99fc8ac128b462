"""Payne's hooks for `cardlab lint`: its card table by field name (each side of a character as
whether it helps the character's role) and which fields make one card better than another;
its rule options' alternatives are the declared ones'."""

from __future__ import annotations

import pandas as pd

from sim.kit.game import Dominance, Lint
from sim.payne import pool as T
from sim.payne.pool import helping


def cards(m) -> pd.DataFrame:
    """The pool by field name, words as codes, and sides n, e, s, w: 1 where the side helps
    a character's role: lit on an offensive one (an attack through it can succeed), unlit on
    a defensive one (an attack on it fails); 0 on other kinds."""
    df, t = m.pool.frame(), m.pool.table
    helps = [helping(k, r, a) for k, r, a in
             zip(t[:, T.C_KIND], t[:, T.C_ROLE], t[:, T.C_ARROWS], strict=True)]
    for s, side in enumerate(T.SIDES.lower()):
        df[side] = [h >> s & 1 for h in helps]
    return df


# Rarity is what a character pays for its arrows: fewer copies allowed. An effect's sign
# says whom it binds, so effects compare only when equal.
LINT = Lint(
    cards=cards,
    dominance=Dominance(costs=("rarity",), benefits=("n", "e", "s", "w"),
                        same=("role", "effect1", "arg1", "effect2", "arg2")),
)
