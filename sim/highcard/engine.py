"""The compiled engine: play_round() sequences the rules, play_match() plays one match,
play_piece() plays a run of matches on one thread (sim.core.blocks spreads pieces over
threads)."""

from __future__ import annotations

import numpy as np

from sim.core.cardstats import record_match
from sim.core.jit import njit
from sim.core.rng import DICE, N_STREAMS, next_below, start_streams
from sim.highcard import options as O
from sim.highcard import policy as Pol
from sim.highcard import pool as T
from sim.highcard import rules as Ru
from sim.highcard import state as S


@njit
def play_round(table, views, R, prms, P, G, cs, drawn, hist, i, keys, ctr, log, li):
    """A round: the leader leads a card face up, the other follows, the higher scores, both
    draw; the winner leads next (winner_leads), else the lead passes."""
    leader = G[S.LEADER]
    follower = 1 - leader
    G[S.ROUND] += 1
    led = Ru.play_card(P, leader, Pol.choose_lead(views[leader], prms[leader], P, leader,
                                                  keys, ctr), cs)
    followed = Ru.play_card(P, follower,
                            Pol.choose_follow(views[follower], prms[follower], P, follower,
                                              table[led, T.C_VALUE], keys, ctr), cs)
    scored = Ru.score_round(table, R, P, leader, led, followed, cs)
    hist[i, leader, table[led, T.C_VALUE]] += 1
    hist[i, follower, table[followed, T.C_VALUE]] += 1
    if scored < 0 or scored == 2:
        G[S.TIES] += 1
    if G[S.ROUND] == 1:
        G[S.ROUND1] = scored if scored == 0 or scored == 1 else -1
    if li >= 0 and G[S.LOG_N] < log.shape[1]:
        row = (G[S.ROUND], leader, led, followed, scored, P[0, S.SCORE], P[1, S.SCORE])
        for k in range(len(row)):
            log[li, G[S.LOG_N], k] = row[k]
        G[S.LOG_N] += 1
    reach0 = P[0, S.SCORE] >= R[O.R_POINTS]
    reach1 = P[1, S.SCORE] >= R[O.R_POINTS]
    if reach0 or reach1:
        G[S.END] = S.END_POINTS
        G[S.WINNER] = -1 if reach0 and reach1 else (0 if reach0 else 1)
        return True
    Ru.draw(table, P, leader, drawn)
    Ru.draw(table, P, follower, drawn)
    if R[O.R_WINNER_LEADS] == 0:
        G[S.LEADER] = follower
    elif scored == 0 or scored == 1:
        G[S.LEADER] = scored
    return False


@njit
def play_match(table, views, R, prms, decks, deck_lens, in_deck, seed, index, P, G, cs, drawn,
               keys, ctr, out, hist, i, log, li):
    """One match, written to row i of out (and hist)."""
    start_streams(keys, ctr, seed, index)
    P[:, :] = 0
    G[:] = 0
    G[S.WINNER] = -1
    G[S.ROUND1] = -1
    drawn[:, :] = 0
    for p in range(2):
        Ru.set_up(table, R, P, p, decks[p, :deck_lens[p]], keys, ctr, drawn)
    G[S.LEADER] = G[S.FIRST] = next_below(keys, ctr, 0, DICE, 2)  # the coin
    while True:
        if P[0, S.HAND_N] == 0 or P[1, S.HAND_N] == 0:
            G[S.END] = S.END_OUT
            diff = P[0, S.SCORE] - P[1, S.SCORE]
            G[S.WINNER] = 0 if diff > 0 else (1 if diff < 0 else -1)
            break
        if play_round(table, views, R, prms, P, G, cs, drawn, hist, i, keys, ctr, log, li):
            break
    row = (G[S.WINNER], P[0, S.SCORE], P[1, S.SCORE], G[S.ROUND], G[S.END], G[S.FIRST],
           G[S.TIES], G[S.ROUND1])
    record_match(out, i, row, cs, in_deck, drawn)


def new_work(n_cards):
    """Scratch a thread reuses from match to match."""
    return (np.zeros((2, S.PLAYER_SIZE), dtype=np.int64), np.zeros(S.GAME_SIZE, dtype=np.int64),
            np.zeros((2, n_cards), dtype=np.int64), np.zeros(N_STREAMS, dtype=np.uint64),
            np.zeros(N_STREAMS, dtype=np.int64))


@njit(entry=True)
def play_piece(lo, hi, table, views, R, prms, decks, deck_lens, in_deck, seed, first_match, out,
               hist, card_stats, log, log_n, work):
    """Matches first_match + lo .. first_match + hi - 1 (rows lo .. hi - 1) on the calling
    thread, in its own work arrays, card statistics summed into card_stats; each match draws
    only from its own streams, so how a batch is split into pieces changes nothing."""
    P, G, drawn, keys, ctr = work
    for i in range(lo, hi):
        li = i if i < log.shape[0] else -1
        play_match(table, views, R, prms, decks, deck_lens, in_deck, seed, first_match + i, P,
                   G, card_stats, drawn, keys, ctr, out, hist, i, log, li)
        if li >= 0:
            log_n[i] = G[S.LOG_N]
