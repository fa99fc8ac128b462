"""Payne's hooks for `cardlab lint`: its rule options' alternatives, its card table by field
name (each side of a character as whether it helps the character's role), and which fields
make one card better than another."""

from __future__ import annotations

import pandas as pd

from sim.kit.game import Dominance, Lint
from sim.payne import pool as T
from sim.payne.options import OPTIONS
from sim.payne.pool import helping


def rule_variants(m) -> list[dict]:
    """Every other word of a word option, the other value of a flag, the next whole number
    of a numeric option."""
    return OPTIONS.variants(m.rules.values)


def cards(m) -> pd.DataFrame:
    """The pool by field name, words as codes. Sides n, e, s, w are 1 where the side helps
    a character's role: lit on an offensive one (an attack through it can succeed), unlit on
    a defensive one (an attack on it fails); 0 on other kinds."""
    pool = m.pool
    t = pool.table
    df = pd.DataFrame({"id": pool.ids, "name": pool.names,
                       "kind": [T.KINDS[k] for k in t[:, T.C_KIND]]})
    for name, col in (("role", T.C_ROLE), ("rarity", T.C_RARITY), ("effect1", T.C_EFF1),
                      ("arg1", T.C_ARG1), ("effect2", T.C_EFF2), ("arg2", T.C_ARG2)):
        df[name] = t[:, col]
    helps = [helping(k, r, a) for k, r, a in
             zip(t[:, T.C_KIND], t[:, T.C_ROLE], t[:, T.C_ARROWS], strict=True)]
    for s, side in enumerate(T.SIDES.lower()):
        df[side] = [h >> s & 1 for h in helps]
    return df


# Rarity is what a character pays for its arrows: fewer copies allowed. An effect's sign
# says whom it binds, so effects compare only when equal.
LINT = Lint(
    rule_variants=rule_variants,
    cards=cards,
    dominance=Dominance(costs=("rarity",), benefits=("n", "e", "s", "w"),
                        same=("role", "effect1", "arg1", "effect2", "arg2")),
)
