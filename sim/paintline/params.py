"""The settings of policies.toml: their names, defaults and places in the parameter vector
that both engines' players read, and the loader that checks them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.datafiles import load_policies as read_policies
from sim.kit.policy_vectors import range_problem
from sim.paintline import order as Ord

# Parameter vector of a policy.
RANDOM, PLAYS, W_HIT, W_PEN, W_LOOK, W_COST = 0, 1, 2, 3, 4, 5
STAMINA_CAP, MULL_BELOW, MULL_ABOVE, RECYCLE_ABOVE, BAG_RESERVE, BUILD, ENHANCE = range(6, 13)
ORDER = 13  # the order of the actions before the hit (sim.paintline.order), -1 random
N_PARAMS = 14

FIELDS = {
    "random": (RANDOM, bool, False),
    "plays_cards": (PLAYS, bool, True),
    "hit": (W_HIT, float, 0.0),
    "pen": (W_PEN, float, 0.0),
    "look": (W_LOOK, float, 0.0),
    "cost": (W_COST, float, 0.0),
    "stamina_cap": (STAMINA_CAP, int, 8),
    "mulligan_below": (MULL_BELOW, int, 2),
    "mulligan_above": (MULL_ABOVE, int, 5),
    "recycle_above": (RECYCLE_ABOVE, int, 6),
    "bag_reserve": (BAG_RESERVE, int, 15),
    "build": (BUILD, bool, True),
    "enhance": (ENHANCE, bool, True),
    "order": (ORDER, str, Ord.DEFAULT),
}

# Bounds of each numeric setting of policies.toml, which a file's value must keep and
# training moves within. The weights only rank hit options (argmax of a linear score), so
# [0, 1] loses nothing; the habits' bounds cover the rulebook's ranges (7-card hands,
# 59-card bags, 20 Stamina in the sample decks). `random` and `plays_cards` choose the kind
# of player, not how well it plays: not trained.
BOUNDS = {
    "hit": (0.0, 1.0), "pen": (0.0, 1.0), "look": (0.0, 1.0), "cost": (0.0, 1.0),
    "stamina_cap": (0, 20), "mulligan_below": (0, 7), "mulligan_above": (0, 7),
    "recycle_above": (0, 10), "bag_reserve": (0, 40), "build": (0, 1), "enhance": (0, 1),
}  # fmt: skip


def load_policies(path: Path | str) -> dict[str, np.ndarray]:
    """Read policies.toml into {name: parameter vector}; every problem is reported."""
    return read_policies(path, policy_vector)


def policy_vector(name: str, table: dict) -> tuple[np.ndarray, list[tuple[str | None, str]]]:
    """One table of policies.toml -> (parameter vector, problems as (setting, sentence))."""
    bad = []
    vec = np.array([d for _, _, d in FIELDS.values()], dtype=np.float64)
    for key, value in table.items():
        if key not in FIELDS:
            bad.append((key, f"policy {name!r}: unknown setting {key!r}; known: "
                             f"{', '.join(FIELDS)}"))
            continue
        slot, kind, _ = FIELDS[key]
        if kind is str:
            try:
                vec[slot] = Ord.parse_order(value if isinstance(value, str) else repr(value))
            except ValueError as err:
                bad.append((key, f"policy {name!r}: {err}"))
            continue
        if key in BOUNDS:
            said = range_problem(key, value, *BOUNDS[key], kind.__name__)
        elif not isinstance(value, bool):  # the settings without bounds are true or false
            said = f"{key} must be true or false, got {value!r}"
        else:
            said = ""
        if said:
            bad.append((key, f"policy {name!r}: {said}"))
            continue
        vec[slot] = float(value)
    if vec[RANDOM] and "order" not in table:
        vec[ORDER] = Ord.RANDOM_EACH_TURN
    weights = vec[[W_HIT, W_PEN, W_LOOK]]
    if vec[PLAYS] and not vec[RANDOM] and not np.any(weights != 0):
        bad.append((None, f"policy {name!r}: plays cards but has no weight (hit, pen or "
                          "look)"))
    vec.setflags(write=False)
    return vec, bad
