"""Paint the Line's shipped trained policy against the folder's default policy, on seeds
training never used, paired with the default policy's own mirror."""

from __future__ import annotations

import numpy as np

from sim.core.stats import Z95
from sim.kit.folders import read_folder
from sim.kit.game import get

from .conftest import FOLDER

GAME = get("paintline")


def test_trained_beats_the_folders_default_policy_from_both_seats():
    """`trained` in seat A and in seat B against the default policy (greedy), each minus
    greedy in that seat against greedy on the same seeds. Full figures (docs/rules.md,
    Policies): +2.9 and +5.9 points at 20,000 matches a seat; here 4,000 a seat on a seed
    of its own, so the pooled 95% interval is about +-1 point around some +4."""
    default = read_folder(FOLDER).policy
    assert default == "greedy"
    n, seed = 4_000, 31_337

    def matchup(a, b):
        return GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", a, b, {}, [])

    mirror = GAME.run_batch(matchup(default, default), n, seed)
    gains = []
    for seat, m in ((0, matchup("trained", default)), (1, matchup(default, "trained"))):
        gain = GAME.run_batch(m, n, seed).wins(seat).astype(float) - mirror.wins(seat)
        assert gain.mean() > 0, (seat, gain.mean())
        gains.append(gain)
    d = np.concatenate(gains)
    lo = d.mean() - Z95 * d.std(ddof=1) / np.sqrt(len(d))
    assert lo > 0, (d.mean(), lo)
