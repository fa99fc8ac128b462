"""Shared fixtures: the sample game folder and ready-made matchups."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "decks" / "paintline"


@pytest.fixture(scope="session")
def folder():
    return FOLDER


@pytest.fixture(scope="session")
def matchup():
    from sim.paintline.batch import load_matchup

    return load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
