"""High Card's hooks for `cardlab lint`: a card's value is both what it gives and what it
costs (a deck's values are capped), so no card dominates another; its rule options'
alternatives are the declared ones'."""

from __future__ import annotations

from sim.kit.game import Dominance, Lint

LINT = Lint(dominance=Dominance(costs=("value",), benefits=("value",), same=("kind",)))
