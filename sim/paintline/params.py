"""The settings of policies.toml: their names, defaults and places in the parameter vector
that both engines' players read, and the loader that checks them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.datafiles import load_policies as read_policies
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
        ok = isinstance(value, bool) if kind is bool else (
            isinstance(value, int | float) and not isinstance(value, bool)
            and (kind is float or isinstance(value, int)))
        if not ok:
            bad.append((key, f"policy {name!r}: {key} must be {kind.__name__}, got {value!r}"))
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
