"""Encounter's tuning hooks: a policy's trainable cost ratio with bounds, a seat given a
changed ratio, and a card field's current value (for `cardlab tune`, `train` and `skill`)."""

from __future__ import annotations

from pathlib import Path

from sim.game import Param, Tuning, named_policy, seat_policy
from sim.problems import InputError, Problem

# The careful player's one number: it plays a quest whose cost is at most this times its
# party's summed strength. Bounds from never (0) to three times the party's strength.
COST_RATIO = (0.0, 3.0)


def _policy(folder: Path | str, policy: str):
    from sim.encounter.policy import load_policies

    return named_policy(load_policies, folder, policy)


def params(folder: Path | str, policy: str) -> list[Param]:
    from sim.encounter.policy import M_RATIO

    vec = _policy(folder, policy)
    return [Param("cost_ratio", float(vec[M_RATIO]) / 1000, *COST_RATIO)]


def with_policy(m, seat: int, folder: Path | str, policy: str, values: dict, name: str):
    from sim.encounter.policy import M_RATIO

    vec = _policy(folder, policy).copy()
    for key, value in values.items():
        if key != "cost_ratio":
            raise InputError([Problem("policy", 0, f"unknown setting {key!r}; one of "
                                      "cost_ratio")])
        vec[M_RATIO] = round(min(max(float(value), COST_RATIO[0]), COST_RATIO[1]) * 1000)
    vec.setflags(write=False)
    return seat_policy(m, seat, vec, name)


def card_value(m, what: str) -> int:
    """The value of a numeric "CARD.FIELD" (strength, toughness, costs, points, ...)."""
    from sim.encounter.pool import INT_FIELDS

    card_name, dot, field = what.rpartition(".")
    card = m.pool.lookup(card_name) if dot else None
    if card is None or field not in INT_FIELDS:
        raise InputError([Problem("tune", 0, f"{what!r}: expects CARD.FIELD with a known card "
                                  f"and FIELD one of {', '.join(INT_FIELDS)}")])
    return int(m.pool.table[card, INT_FIELDS[field]])


TUNING = Tuning(params=params, with_policy=with_policy, card_value=card_value)
