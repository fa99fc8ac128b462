"""A seat's policy as its game's parameter vector (read by the game's FolderFiles.policies):
put in a matchup and given changed settings, the pieces of a game's Tuning hooks."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from sim.core.problems import InputError, Problem


def seat_policy(matchup, seat: int, vector, name: str):
    """The matchup with one seat playing another policy vector under another name (for a
    game's tuning hooks; every matchup has `policies` and `policy_names`)."""
    vecs, names = list(matchup.policies), list(matchup.policy_names)
    vecs[seat], names[seat] = vector, name
    return dataclasses.replace(matchup, policies=tuple(vecs), policy_names=tuple(names))


def policy_with(matchup, seat: int, vector, values: dict, store: Callable, name: str):
    """The matchup with one seat playing a policy vector with some settings changed (a
    game's Tuning.with_policy): `store(key, value)` -> (slot, the number the vector holds
    there), raising InputError for a setting the policy does not take."""
    vector = vector.copy()
    for key, value in values.items():
        slot, number = store(key, value)
        vector[slot] = number
    vector.setflags(write=False)
    return seat_policy(matchup, seat, vector, name)


def bounded(settings: dict, policy: str, per_unit: int | None = None) -> Callable:
    """`store` for policy_with over the settings training may move ({name: (slot, lo, hi,
    type)}): a value clipped to its bounds, whole for an int or a bool, a float kept as it is
    or, with `per_unit`, held as a whole number of 1/per_unit parts."""
    def store(key, value):
        if key not in settings:
            raise InputError([Problem("policy", 0, f"unknown setting {key!r} of {policy!r}; "
                                      f"one of {', '.join(settings) or '(none)'}")])
        slot, lo, hi, typ = settings[key]
        v = min(max(float(value), float(lo)), float(hi))
        if typ == "float":
            return slot, v if per_unit is None else round(v * per_unit)
        return slot, float(round(v))

    return store
