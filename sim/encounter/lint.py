"""Encounter's hooks for `cardlab lint`: its rule options' alternatives, its card table by
field name, and which fields make one card better than another."""

from __future__ import annotations

import pandas as pd

from sim.encounter import codes as K
from sim.encounter.options import OPTIONS
from sim.encounter.pool import INT_FIELDS
from sim.kit.game import Dominance, Lint

WORD_FIELDS = {"nature": K.C_NATURE, "race": K.C_RACE, "requires": K.C_REQUIRES,
               "step": K.C_STEP, "obj1": K.C_OBJ1, "obj2": K.C_OBJ2, "ability1": K.C_AB1,
               "ability2": K.C_AB2}


def rule_variants(m) -> list[dict]:
    """Every other word of a word option, the other value of a flag, the next whole number
    of a numeric option, and encounter_strengths without its last strength."""
    out = OPTIONS.variants(m.rules.values, skip=("players",))
    strengths = list(m.rules["encounter_strengths"])
    out.append({"encounter_strengths": strengths[:-1] if len(strengths) > 1
                else [min(strengths[0] + 1, 99)]})
    return out


def cards(m) -> pd.DataFrame:
    """The pool by field name; words as the engine's codes."""
    pool = m.pool
    df = pd.DataFrame({"id": pool.ids, "name": pool.names, "kind": pool.kinds})
    for name, col in {**INT_FIELDS, **WORD_FIELDS}.items():
        df[name] = pool.table[:, col]
    return df


# A keyword's argument is more of its effect for the card's owner (Might, Ward, Heal,
# Damage, Hex...); an objective's argument and its word must match to compare.
LINT = Lint(
    rule_variants=rule_variants,
    cards=cards,
    dominance=Dominance(
        costs=("cost", "quest_cost", "ability_cost"),
        benefits=("dex", "int", "str", "tough", "quest_points", "loot_points", "arg1", "arg2"),
        same=("nature", "unique", "race", "requires", "step", "terrain", "obj1", "oarg1",
              "obj2", "oarg2", "ability1", "ability2")),
)
