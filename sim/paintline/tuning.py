"""Paint the Line's tuning hooks: a policy's trainable weights and habits with bounds, and a
seat given a policy with changed parameters (a card field's value is the card table's)."""

from __future__ import annotations

from pathlib import Path

from sim.core.problems import InputError, Problem
from sim.kit.game import Param, Tuning
from sim.kit.policy_vectors import policy_with
from sim.paintline.decks import FILES
from sim.paintline.order import parse_order
from sim.paintline.params import BOUNDS, FIELDS


def _policy(folder: Path | str, policy: str):
    return FILES.policies(folder, [policy])[0]


def params(folder: Path | str, policy: str) -> list[Param]:
    """The policy's trainable settings with their values and bounds."""
    vec = _policy(folder, policy)
    out = []
    for name, (lo, hi) in BOUNDS.items():
        slot, kind, _ = FIELDS[name]
        out.append(Param(name, float(vec[slot]), float(lo), float(hi), kind.__name__))
    return out


def with_policy(m, seat: int, folder: Path | str, policy: str, values: dict, name: str):
    """The matchup with `seat` playing `policy` whose settings `values` replace."""
    def store(key, value):
        if key not in FIELDS:
            raise InputError([Problem("policy", 0, f"unknown setting {key!r}")])
        return FIELDS[key][0], parse_order(value) if key == "order" else float(value)

    return policy_with(m, seat, _policy(folder, policy), values, store, name)


TUNING = Tuning(params=params, with_policy=with_policy)
