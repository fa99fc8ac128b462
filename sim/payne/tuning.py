"""Payne's tuning hooks: a policy's trainable weights and habits with bounds, a seat given
changed values, and a card field's current value (for `cardlab tune`, `train` and `skill`)."""

from __future__ import annotations

from sim.payne import pool as T
from sim.payne.decks import FILES
from sim.payne.params import SETTINGS

# What training may move is what the policy's kind reads (params.READ_BY): random
# its two rates, prior its effect values, bar, keeping and spending habits and fielding
# weights; plain reads no number. The kind of player is not trained.


def card_value(m, what: str) -> int:
    """The value of "CARD.FIELD" in the matchup's pool: arg1, arg2, or sides (how many of a
    character's sides help its role). Arrows are a pattern, not a number: sides carry them
    (sensitivity's one-more and one-fewer arrow edits also cover them)."""
    card, field = m.pool.field_of(what, "tune")
    if field != "sides":
        return m.pool.value_of(what)
    row = m.pool.table[card]
    return T.sides(int(row[T.C_KIND]), int(row[T.C_ROLE]), int(row[T.C_ARROWS]))


def csv_cells(m, what: str, value: int) -> dict[str, str]:
    """cards.csv's cells for "CARD.FIELD" = value: a character's sides as its arrows and the
    rarity that follows them; arg1 and arg2 as themselves."""
    card, field = m.pool.field_of(what, "tune")
    if field != "sides":
        return {field: str(value)}
    row = m.pool.with_sets([f"{what}={value}"]).table[card]
    return {"arrows": T.arrows_text(int(row[T.C_ARROWS])),
            "rarity": T.RARITIES[int(row[T.C_RARITY])]}


TUNING = SETTINGS.tuning(FILES, card_value=card_value, csv_cells=csv_cells)
