"""High Card's tuning hooks: a policy's trainable settings with bounds and a seat given
changed settings (for `cardlab tune`, `train` and `skill`); a card's value is its column."""

from __future__ import annotations

from pathlib import Path

from sim.highcard.decks import FILES
from sim.highcard.params import FIELDS, KIND, READ_BY
from sim.kit.game import Param, Tuning
from sim.kit.policy_vectors import bounded, policy_with


def _policy(folder: Path | str, policy: str):
    return FILES.policies(folder, [policy])[0]


def params(folder: Path | str, policy: str) -> list[Param]:
    """The settings the policy's kind reads (aim: lead_with and beat_up_to)."""
    vec = _policy(folder, policy)
    return [Param(name, float(vec[FIELDS[name][0]]), float(FIELDS[name][2]),
                  float(FIELDS[name][3]), FIELDS[name][4]) for name in READ_BY[int(vec[KIND])]]


def with_policy(m, seat: int, folder: Path | str, policy: str, values: dict, name: str):
    vec = _policy(folder, policy)
    settings = {k: (FIELDS[k][0], *FIELDS[k][2:]) for k in READ_BY[int(vec[KIND])]}
    return policy_with(m, seat, vec, values, bounded(settings, policy), name)


TUNING = Tuning(params=params, with_policy=with_policy)
