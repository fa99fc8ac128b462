"""A card's worth against the field plays only field decks the run's matchup accepts: the
run may change the rules or cards the field was built under."""

from __future__ import annotations

import pytest

from sim.core.problems import InputError
from sim.experiments.field_worth import field_decks

from .payne_both import FOLDER, GAME


def test_field_decks_are_judged_in_the_runs_matchup(tmp_path):
    """Payne's field lists 60 cards a deck; a run at deck_size 40 (fewer by agreement) would
    play them against 40-card decks, which the validator refuses: no field deck is played."""
    shipped = GAME.load_matchup(FOLDER, "offense", "defense", "plain", "plain", {}, [])
    decks = field_decks(GAME, shipped, FOLDER, ["offense", "defense", "balanced"])
    assert [sum(c.values()) for c in decks.values()] == [60, 60, 60]
    lists = []
    for name in ("offense", "defense"):
        counts = dict(shipped.decks[0 if name == "offense" else 1].counts)
        left, lines = 40, []
        for c, k in counts.items():
            if left > 0:
                lines.append(f"{min(k, left)} {shipped.pool.ids[c]}")
                left -= min(k, left)
        lists.append(tmp_path / f"{name}40.deck")
        lists[-1].write_text("\n".join(lines) + "\n")
    short = GAME.load_matchup(FOLDER, *lists, "plain", "plain", {"deck_size": 40}, [])
    with pytest.raises(InputError, match="field deck balanced in this run's matchup: deck "
                       "lists 60 cards, must be exactly 40"):
        field_decks(GAME, short, FOLDER, ["offense", "defense", "balanced"])
