"""Encounter's hooks for `cardlab lint`: its rule options' alternatives (the table size left
alone, the strengths list shortened) and which fields make one card better than another."""

from __future__ import annotations

from sim.encounter.options import OPTIONS
from sim.kit.game import Dominance, Lint


def rule_variants(m) -> list[dict]:
    """Every other word of a word option, the other value of a flag, the next whole number
    of a numeric option, and encounter_strengths without its last strength."""
    out = OPTIONS.variants(m.rules.values, skip=("players",))
    strengths = list(m.rules["encounter_strengths"])
    out.append({"encounter_strengths": strengths[:-1] if len(strengths) > 1
                else [min(strengths[0] + 1, 99)]})
    return out


# A keyword's argument is more of its effect for the card's owner (Might, Ward, Heal,
# Damage, Hex...); an objective's argument and its word must match to compare.
LINT = Lint(
    rule_variants=rule_variants,
    dominance=Dominance(
        costs=("cost", "quest_cost", "ability_cost"),
        benefits=("dex", "int", "str", "tough", "quest_points", "loot_points", "arg1", "arg2"),
        same=("nature", "unique", "race", "requires", "step", "terrain", "obj1", "oarg1",
              "obj2", "oarg2", "ability1", "ability2")),
)
