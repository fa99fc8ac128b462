"""High Card's tuning hooks (for `cardlab tune`, `train` and `skill`): what each policy's
kind reads is what training may move; a card's value is its column."""

from __future__ import annotations

from sim.highcard.decks import FILES
from sim.highcard.params import SETTINGS

TUNING = SETTINGS.tuning(FILES)
