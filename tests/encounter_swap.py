"""A sample matchup with a few cards swapped for the cards of a mechanic, and the check every
mechanic's whole-match test makes: both engines play the same matches, and with the card's
mechanic taken away (one card-table value changed) the records differ."""

from dataclasses import replace
from pathlib import Path

from sim.encounter.batch import load_matchup
from sim.kit.game import get

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
GAME = get("encounter")


def swapped(deck_a: str, deck_b: str, policy: str, seat: int, swap: dict[str, int]):
    """The matchup with `swap` added to the seat's deck counts (negative: copies taken out)."""
    m = load_matchup(FOLDER, deck_a, deck_b, policy, policy)
    counts = GAME.building.counts(m, seat)
    for card, n in swap.items():
        counts[card] = counts.get(card, 0) + n
    return GAME.building.with_counts(m, seat, counts, f"{(deck_a, deck_b)[seat]}-swapped")


def agree_and_matter(m, card: str, changes: dict[int, int], n: int, logs: int = 2):
    """The kernel's records of n matches (seed 5), equal to the reference's; asserts that
    with the card's table columns set as `changes` says the records differ."""
    rec = GAME.run_batch(m, n, 5, 0, logs)
    assert rec.same_as(GAME.reference_batch(m, n, 5, 0, logs))
    table = m.pool.table.copy()
    row = m.pool.ids.index(card)
    for column, value in changes.items():
        table[row, column] = value
    without = replace(m, pool=m.pool.with_table(table))
    assert not rec.same_as(GAME.run_batch(without, n, 5, 0, logs))
    return rec
