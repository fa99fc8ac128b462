"""High Card's policy parameter vector: its slots, the kinds a policy names in
policies.toml, each setting's default and bounds and which kind reads it, declared once for
the kit's reader and tuning (sim.kit.policy_vectors.Settings)."""

from __future__ import annotations

from sim.highcard.pool import HIGHEST
from sim.kit.policy_vectors import Settings

KIND, LEAD_WITH, BEAT_UP_TO = range(3)
N_PARAMS = 3
KINDS = ("random", "high", "aim")
RANDOM, HIGH, AIM = range(3)
# Numeric settings: name -> (slot, default, lo, hi, type); the values a card may have
# bound them (pool.HIGHEST), so that a higher card is one a policy can lead or beat with.
FIELDS = {
    "lead_with": (LEAD_WITH, 5.0, 0.0, float(HIGHEST), "float"),
    "beat_up_to": (BEAT_UP_TO, float(HIGHEST), 0.0, float(HIGHEST), "float"),
}
# Which kind reads which settings: random and high read none.
READ_BY = {RANDOM: (), HIGH: (), AIM: ("lead_with", "beat_up_to")}

SETTINGS = Settings(KINDS, N_PARAMS, FIELDS, READ_BY)
complete = SETTINGS.complete  # a vector from a manifest
load_policies = SETTINGS.load  # policies.toml -> {name: vector}; problems name file and line
