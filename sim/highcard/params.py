"""High Card's policy parameter vector: its slots, the kinds a policy names in
policies.toml, each setting's default and bounds, and the reader that checks the file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.datafiles import load_policies as read_policies
from sim.core.problems import suggest

KIND, LEAD_WITH, BEAT_UP_TO = range(3)
N_PARAMS = 3
KINDS = ("random", "high", "aim")
RANDOM, HIGH, AIM = range(3)
# Numeric settings: name -> (slot, default, lo, hi, type).
FIELDS = {
    "lead_with": (LEAD_WITH, 5.0, 0.0, 9.0, "float"),
    "beat_up_to": (BEAT_UP_TO, 9.0, 0.0, 9.0, "float"),
}
# Which kind reads which settings: random and high read none.
READ_BY = {RANDOM: (), HIGH: (), AIM: ("lead_with", "beat_up_to")}


def defaults(kind: int) -> np.ndarray:
    """The parameter vector of a policy of this kind that names nothing else."""
    vec = np.zeros(N_PARAMS, dtype=np.float64)
    vec[KIND] = kind
    for slot, default, *_ in FIELDS.values():
        vec[slot] = default
    return vec


def complete(values) -> np.ndarray:
    """A vector from a manifest as the engine reads it."""
    return np.asarray(values, dtype=np.float64)


def load_policies(path: Path | str) -> dict[str, np.ndarray]:
    """policies.toml -> {name: parameter vector}; problems name file and line."""
    return read_policies(path, policy_vector)


def policy_vector(name: str, table: dict) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """One table of policies.toml -> (parameter vector, problems as (setting, sentence))."""
    bad = []
    kind = table.get("kind")
    if kind not in KINDS:
        bad.append(("kind", f"policy {name!r}: kind must be one of {', '.join(KINDS)}, "
                            f"got {kind!r}"))
        kind = KINDS[0]
    vec = defaults(KINDS.index(kind))
    for key, value in table.items():
        if key == "kind":
            continue
        if key not in FIELDS:
            bad.append((key, f"policy {name!r}: unknown setting {key!r}"
                             f"{suggest(key, ['kind', *FIELDS])}"))
            continue
        slot, _, lo, hi, _ = FIELDS[key]
        if key not in READ_BY[KINDS.index(kind)]:
            bad.append((key, f"policy {name!r}: {key} is read only by kind aim, not {kind}"))
        elif isinstance(value, bool) or not isinstance(value, int | float) \
                or not lo <= value <= hi:
            bad.append((key, f"policy {name!r}: {key} must be a number in {lo:g}..{hi:g}, "
                             f"got {value!r}"))
        else:
            vec[slot] = float(value)
    return vec, bad
