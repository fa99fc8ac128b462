"""Paint the Line's tuning hooks: a policy's trainable weights and habits with bounds, and a
seat given a policy with changed parameters (a card field's value is the card table's)."""

from __future__ import annotations

from pathlib import Path

from sim.core.problems import InputError, Problem
from sim.kit.game import Param, Tuning
from sim.kit.policy_vectors import policy_with
from sim.paintline.decks import FILES
from sim.paintline.order import parse_order
from sim.paintline.params import FIELDS

# Bounds of each trainable setting of policies.toml. The weights only rank hit options
# (argmax of a linear score), so [0, 1] loses nothing; the habits' bounds cover the
# rulebook's ranges (7-card hands, 59-card bags, 20 Stamina in the sample decks).
# `random` and `plays_cards` choose the kind of player, not how well it plays: not trained.
BOUNDS = {
    "hit": (0.0, 1.0), "pen": (0.0, 1.0), "look": (0.0, 1.0), "cost": (0.0, 1.0),
    "stamina_cap": (0, 20), "mulligan_below": (0, 7), "mulligan_above": (0, 7),
    "recycle_above": (0, 10), "bag_reserve": (0, 40), "build": (0, 1), "enhance": (0, 1),
}  # fmt: skip


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
