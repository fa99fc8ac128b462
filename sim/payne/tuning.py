"""Payne's tuning hooks: a policy's trainable rates with bounds, a seat given changed rates,
and a card field's current value (for `cardlab tune`, `train` and `skill`)."""

from __future__ import annotations

from pathlib import Path

from sim.game import Param, Tuning, named_policy, seat_policy
from sim.problems import InputError, Problem

# The policies' numbers are probabilities: how often a random player plays a legal card,
# and how often it lies when MayLie lets it. The kind of player is not trained.
TRAINABLE = ("play_rate", "lie_rate")


def _policy(folder: Path | str, policy: str):
    from sim.payne.policy import load_policies

    return named_policy(load_policies, folder, policy)


def params(folder: Path | str, policy: str) -> list[Param]:
    from sim.payne.policy import FIELDS

    vec = _policy(folder, policy)
    return [Param(name, float(vec[FIELDS[name][0]]), 0.0, 1.0) for name in TRAINABLE]


def with_policy(m, seat: int, folder: Path | str, policy: str, values: dict, name: str):
    from sim.payne.policy import FIELDS

    vec = _policy(folder, policy).copy()
    for key, value in values.items():
        if key not in TRAINABLE:
            raise InputError([Problem("policy", 0, f"unknown setting {key!r}; one of "
                                      f"{', '.join(TRAINABLE)}")])
        vec[FIELDS[key][0]] = min(max(float(value), 0.0), 1.0)
    vec.setflags(write=False)
    return seat_policy(m, seat, vec, name)


def card_value(m, what: str) -> int:
    """The value of "CARD.FIELD" (arg1, arg2) in the matchup's pool; arrows are a pattern,
    not a number: sensitivity's one-more and one-fewer arrow edits cover them."""
    from sim.payne.batch import SET_FIELDS

    card_name, dot, field = what.rpartition(".")
    card = m.pool.lookup(card_name) if dot else None
    if card is None or field not in SET_FIELDS or field == "arrows":
        raise InputError([Problem("tune", 0, f"{what!r}: expects CARD.FIELD with a known card "
                                  "and FIELD one of arg1, arg2")])
    return int(m.pool.table[card, SET_FIELDS[field]])


TUNING = Tuning(params=params, with_policy=with_policy, card_value=card_value)
