"""Payne's tuning hooks: a policy's trainable weights and habits with bounds, a seat given
changed values, and a card field's current value (for `cardlab tune`, `train` and `skill`)."""

from __future__ import annotations

from pathlib import Path

from sim.game import Param, Tuning, named_policy, seat_policy
from sim.problems import InputError, Problem

# What training may move is what the policy's kind reads (policy_params.READ_BY): random
# its two rates, prior its effect values, bar, keeping and spending habits and fielding
# weights; plain reads no number. The kind of player is not trained.


def _policy(folder: Path | str, policy: str):
    from sim.payne.policy import load_policies

    return named_policy(load_policies, folder, policy)


def trainable(vec) -> tuple[str, ...]:
    """The numeric fields the policy's kind reads."""
    from sim.payne.policy_params import KIND, READ_BY

    return READ_BY[int(vec[KIND])]


def params(folder: Path | str, policy: str) -> list[Param]:
    from sim.payne.policy_params import FIELDS

    vec = _policy(folder, policy)
    out = []
    for name in trainable(vec):
        slot, _, lo, hi, typ = FIELDS[name]
        value = vec[slot]
        out.append(Param(name, bool(value) if typ == "bool" else
                         int(value) if typ == "int" else float(value), float(lo),
                         float(hi), typ))
    return out


def with_policy(m, seat: int, folder: Path | str, policy: str, values: dict, name: str):
    from sim.payne.policy_params import FIELDS

    vec = _policy(folder, policy).copy()
    known = trainable(vec)
    for key, value in values.items():
        if key not in known:
            raise InputError([Problem("policy", 0, f"unknown setting {key!r} of {policy!r}; "
                                      f"one of {', '.join(known) or '(none)'}")])
        slot, _, lo, hi, typ = FIELDS[key]
        value = min(max(float(value), float(lo)), float(hi))
        vec[slot] = float(round(value)) if typ in ("int", "bool") else value
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
