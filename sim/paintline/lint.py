"""Paint the Line's hooks for `cardlab lint`: its rule options' alternatives, the card edits
beyond sensitivity's (costs, enhancements' values, keyword arguments), its card table by
field name, and which fields make one card better than another."""

from __future__ import annotations

import dataclasses

from sim.kit.game import Dominance, Lint
from sim.kit.variants import Variant
from sim.paintline import keywords
from sim.paintline import pool as T
from sim.paintline.edits import VALUE_FIELDS, value_edits
from sim.paintline.options import OPTIONS

TAKES_ARG = {k.opcode for k in keywords.KEYWORDS if k.takes_arg}


def rule_variants(m) -> list[dict]:
    """Every other word (and match length) of a word option, the other value of a flag,
    the next whole number of a numeric option, and every escalation step one higher. The
    arsenals, rally mode's card lists, are left to `cardlab exact`."""
    values = m.rules.values
    return [*OPTIONS.variants(values), {"escalation": [v + 1 for v in values["escalation"]]}]


def edits(m) -> list[Variant]:
    """Sensitivity's edits, then +1 on each cost, each enhancement's four values and each
    keyword argument of the cards in either deck."""
    out = value_edits(m)
    table = m.pool.table
    seen = set()
    for seat, deck in enumerate(m.decks):
        for card, _ in deck.counts:
            if card in seen:
                continue
            seen.add(card)
            kind = table[card, T.C_KIND]
            fields = []
            if kind in (T.BASIC_SHOT, T.TRICK_SHOT, T.ENHANCEMENT):
                fields.append("cost")
            if kind == T.ENHANCEMENT:
                fields += VALUE_FIELDS
            fields += [f for f, ab in (("arg1", T.C_AB1), ("arg2", T.C_AB2))
                       if table[card, ab] in TAKES_ARG]
            for f in fields:
                col = T.INT_COLUMNS[f]
                pool = m.pool.with_values({(card, col): int(table[card, col]) + 1})
                out.append(Variant(f"{m.pool.names[card]} {f} +1", seat,
                                   dataclasses.replace(m, pool=pool), m.pool.ids[card],
                                   m.pool.names[card], f))
    return out


# Every keyword argument is more of its effect (more cards drawn, a wider critical range, more
# steps climbed, a wider clutch); a bonus helps the shot land, a penalty hinders the return.
LINT = Lint(
    rule_variants=rule_variants,
    dominance=Dominance(costs=("cost",), benefits=(*VALUE_FIELDS, "arg1", "arg2"),
                        same=("nation", "shot_type", "ability1", "ability2")),
    edits=edits,
)
