"""The four card statistics every game records first (sim.kit.game.CARD_STATS_COMMON, in
that order), tallied after each match by one compiled function every kernel calls."""

from __future__ import annotations

from sim.core.jit import njit

IN_DECK, DRAWN, WINS_DRAWN, WINS_NOT_DRAWN = range(4)


@njit
def tally_cards(card_stats, winner, in_deck, drawn):
    """Every seat's cards after one match: each card in its seat's deck counts a match, and
    a win when the seat won, as drawn (`drawn[p, c]` set) or not drawn."""
    for p in range(in_deck.shape[0]):
        won = 1 if winner == p else 0
        for c in range(in_deck.shape[1]):
            if in_deck[p, c] == 0:
                continue
            card_stats[p, c, IN_DECK] += 1
            if drawn[p, c] != 0:
                card_stats[p, c, DRAWN] += 1
                card_stats[p, c, WINS_DRAWN] += won
            else:
                card_stats[p, c, WINS_NOT_DRAWN] += won


@njit
def record_match(out, i, row, card_stats, in_deck, drawn):
    """Match i's row (a tuple, the winner first) into the matches table, its cards tallied."""
    for k in range(len(row)):
        out[i, k] = row[k]
    tally_cards(card_stats, row[0], in_deck, drawn)


def py_tally_cards(card_stats, winner: int, in_deck, drawn) -> None:
    """tally_cards in plain Python, for the reference engines (their twin of the kernels'
    bookkeeping, as sim.core.rng's py_ functions are of the streams)."""
    for p in range(len(in_deck)):
        won = int(winner == p)
        for c in range(len(in_deck[p])):
            if in_deck[p][c] == 0:
                continue
            card_stats[p][c][IN_DECK] += 1
            if drawn[p][c]:
                card_stats[p][c][DRAWN] += 1
                card_stats[p][c][WINS_DRAWN] += won
            else:
                card_stats[p][c][WINS_NOT_DRAWN] += won
