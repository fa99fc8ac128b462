"""Encounter's tuning hooks: a scripted policy's trainable weights and habits with bounds, and
a seat given changed values (for `cardlab tune`, `train` and `skill`; a card field's value
is the card table's)."""

from __future__ import annotations

from pathlib import Path

from sim.encounter.decks import FILES
from sim.encounter.params import PARAMS
from sim.kit.game import Param, Tuning
from sim.kit.policy_vectors import bounded, policy_with

# What training may move, with bounds (weights in strength points; a boost card's score is
# its worth per cost + 1, a strike card's by strength per strike cost). cost_ratio: from
# never to three times the party's strength; the weights from nothing to several strength
# points (a strength point counts 1); reserve up to the sample pool_per_turn. Choices of
# words (first, cancel, heal...) and the style pick the kind of player: not trained.
BOUNDS = {
    "cost_ratio": (0.0, 3.0, "float"), "heal_value": (0.0, 3.0, "float"),
    "mind_value": (0.0, 2.0, "float"), "tough_value": (0.0, 2.0, "float"),
    "sneak_value": (0.0, 3.0, "float"), "budget_value": (0.0, 3.0, "float"),
    "draw_value": (0.0, 3.0, "float"), "hex_value": (0.0, 2.0, "float"),
    "reserve": (0, 3, "int"), "defeat_check": (0, 1, "bool"), "deny_defeat": (0, 1, "bool"),
}  # fmt: skip


def _policy(folder: Path | str, policy: str):
    return FILES.policies(folder, [policy])[0]


def _slot(name: str) -> int:
    return PARAMS[name][0]


def params(folder: Path | str, policy: str) -> list[Param]:
    """The policy's trainable settings with their values (as policies.toml holds them)."""
    vec = _policy(folder, policy)
    out = []
    for name, (lo, hi, kind) in BOUNDS.items():
        raw = int(vec[_slot(name)])
        value = raw / 1000 if kind == "float" else raw
        out.append(Param(name, float(value), float(lo), float(hi), kind))
    return out


def with_policy(m, seat: int, folder: Path | str, policy: str, values: dict, name: str):
    """The matchup with `seat` playing `policy` whose settings `values` replace (clipped to
    their bounds; weights held in thousandths)."""
    settings = {k: (_slot(k), lo, hi, kind) for k, (lo, hi, kind) in BOUNDS.items()}
    return policy_with(m, seat, _policy(folder, policy), values,
                       bounded(settings, policy, per_unit=1000), name)


TUNING = Tuning(params=params, with_policy=with_policy)
