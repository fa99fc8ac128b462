"""The compiled engine: set_up() and play_match() play one game, play_piece() plays a run of
matches on one thread (sim.core.blocks spreads pieces over threads), each match on its own
counter-based streams."""

from __future__ import annotations

import numpy as np

from sim.core.cardstats import tally_cards
from sim.core.jit import njit
from sim.core.rng import stream_key
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.actors import put_in_play
from sim.encounter.policy import choose_first, mulligan
from sim.encounter.rules import (
    X_DRAWN,
    card_may,
    draw_card,
    game_over,
    log,
    next_seat,
    rand,
)
from sim.encounter.turn import take_turn
from sim.kit.records import SEAT_LETTERS

# Deck rows D[p]: PC, two characteristics, draw count, loot count, then the two decks.
D_PC, D_CH1, D_CH2, D_NDRAW, D_NLOOT, D_DRAW = 0, 1, 2, 3, 4, 8
D_LOOT = D_DRAW + S.CAP
D_SIZE = D_LOOT + S.CAP
PER_SEAT_NAMES = ("points", "quests_attempted", "quests_completed", "pc_wounds",
                  "party_wounds", "strikes_faced", "strikers_defeated", "pc_death_turn",
                  "pc_death_round", "opening_quests")
MATCH_COLUMNS = (
    "winner", "end", "first_player", "turns", "rounds",
    "points_a", "points_b", "quests_attempted_a", "quests_attempted_b",
    "quests_completed_a", "quests_completed_b", "pc_wounds_a", "pc_wounds_b",
    "party_wounds_a", "party_wounds_b", "strikes_faced_a", "strikes_faced_b",
    "strikers_defeated_a", "strikers_defeated_b", "pc_death_turn_a", "pc_death_turn_b",
    "pc_death_round_a", "pc_death_round_b", "opening_quests_a", "opening_quests_b",
)  # fmt: skip
PER_SEAT = (S.POINTS, S.Q_ATT, S.Q_DONE, S.PC_WOUNDS_ALL, S.PARTY_WOUNDS_ALL, S.FACED,
            S.DEFEATED, S.DEATH_TURN, S.DEATH_ROUND, S.OPEN_Q)
DEATH_BINS = 64


def match_columns(seats: int) -> tuple[str, ...]:
    """The matches table's columns for a table of `seats` players (two: MATCH_COLUMNS)."""
    return ("winner", "end", "first_player", "turns", "rounds") + tuple(
        f"{name}_{SEAT_LETTERS[p]}" for name in PER_SEAT_NAMES for p in range(seats))


assert match_columns(2) == MATCH_COLUMNS
MAX_OPTIONS = 4 * S.CAP


def new_work(n_cards, seats=2):
    """Scratch a thread reuses from match to match."""
    return (np.zeros((seats, S.PLAYER_SIZE), dtype=np.int64),
            np.zeros(S.GAME_SIZE, dtype=np.int64),
            np.zeros((seats, n_cards, 2), dtype=np.int64),
            np.zeros(S.N_PURPOSES * seats, dtype=np.uint64),
            np.zeros((MAX_OPTIONS, 4), dtype=np.int64))


@njit
def shuffle_ring(C, p, purpose, block, head, n):
    """Fisher-Yates over a ring of p's (draw or loot deck) from its own stream."""
    P = C[2]
    for i in range(n - 1, 0, -1):
        j = rand(C, purpose, p, i + 1)
        x, y = block + (head + i) % S.CAP, block + (head + j) % S.CAP
        P[p, x], P[p, y] = P[p, y], P[p, x]


@njit
def set_up(C, D):
    """Decks placed and shuffled, opening hands (and mulligans), who goes first."""
    T, R, P, G, X = C[0], C[1], C[2], C[3], C[4]
    emode = R[K.R_EMODE] == 1
    n = R[K.R_PLAYERS]
    for p in range(n):
        P[p, S.PC] = D[p, D_PC]
        P[p, S.LOC] = -1
        P[p, S.DEATH_TURN], P[p, S.DEATH_ROUND] = -1, -1
        P[p, S.SENT] = -1
        may = 1 | card_may(T, D[p, D_PC]) | card_may(T, D[p, D_CH1]) | card_may(T, D[p, D_CH2])
        for i in range(D[p, D_NDRAW]):
            may |= card_may(T, D[p, D_DRAW + i])
        for i in range(D[p, D_NLOOT]):
            may |= card_may(T, D[p, D_LOOT + i])
        P[p, S.MAY] = may
        X[p, D[p, D_PC], X_DRAWN] = 1
        for j in (D_CH1, D_CH2):
            put_in_play(T, P, p, S.CHARS, S.CHAR_N, D[p, j])
            X[p, D[p, j], X_DRAWN] = 1
        if emode:
            continue
        for i in range(D[p, D_NDRAW]):
            P[p, S.DECK + i] = D[p, D_DRAW + i]
        P[p, S.DECK_N] = D[p, D_NDRAW]
        for i in range(D[p, D_NLOOT]):
            P[p, S.LOOTD + i] = D[p, D_LOOT + i]
        P[p, S.LOOT_N] = D[p, D_NLOOT]
        shuffle_ring(C, p, S.SHUFFLE, S.DECK, 0, P[p, S.DECK_N])
        shuffle_ring(C, p, S.LOOTSTREAM, S.LOOTD, 0, P[p, S.LOOT_N])
        for _ in range(R[K.R_HAND]):
            draw_card(C, p)
        while P[p, S.MULLS] < R[K.R_MULLIGANS] and mulligan(C, p):
            P[p, S.MULLS] += 1
            log(C, p, S.EV_MULLIGAN, -1, P[p, S.MULLS], 0)
            while P[p, S.HAND_N] > 0:
                P[p, S.HAND_N] -= 1
                P[p, S.DECK + (P[p, S.DECK_HEAD] + P[p, S.DECK_N]) % S.CAP] = P[
                    p, S.HAND + P[p, S.HAND_N]]
                P[p, S.DECK_N] += 1
            P[p, S.HAND_STEPS] = 0  # the hand is gone: its counts start again
            shuffle_ring(C, p, S.SHUFFLE, S.DECK, P[p, S.DECK_HEAD], P[p, S.DECK_N])
            for _ in range(R[K.R_HAND]):
                draw_card(C, p)
        for i in range(P[p, S.HAND_N]):
            if T[P[p, S.HAND + i], K.C_KIND] == K.QUEST:
                P[p, S.OPEN_Q] += 1
    # The PC (with characteristics) of highest intelligence chooses; on a tie, a die (on
    # seat A's dice stream) among the tied, in seat order.
    best, tied = -1, 0
    for p in range(n):
        w = T[P[p, S.PC], K.C_INT]
        for i in range(P[p, S.CHAR_N]):
            w += T[P[p, S.CHARS + i], K.C_INT]
        P[p, S.WITS] = w
        if w > best:
            best, tied = w, 1
        elif w == best:
            tied += 1
    j = rand(C, S.DICE, 0, tied) if tied > 1 else 0
    chooser = 0
    for p in range(n):
        if P[p, S.WITS] == best:
            if j == 0:
                chooser = p
                break
            j -= 1
    wits = P[0, S.WITS] * 100 + P[1, S.WITS] if n == 2 else best
    first = choose_first(C, chooser)
    G[S.FIRST], G[S.ACTIVE], G[S.CHOOSER] = first, first, chooser
    log(C, chooser, S.EV_FIRST, -1, first, wits)


@njit
def round_over(C):
    """Every player still in has taken its turn in this round."""
    P, G = C[2], C[3]
    for p in range(C[1][K.R_PLAYERS]):
        if P[p, S.OUT] == 0 and (G[S.ROUND_PLAYED] >> p) & 1 == 0:
            return False
    return True


@njit
def round_chooser(C):
    """Who picks the first player of a round: the chooser; when it is out, the choice
    passes for good to the player still in of highest intelligence, a tie broken as at
    set-up (a die on seat A's dice stream among the tied, in seat order)."""
    P, G, n = C[2], C[3], C[1][K.R_PLAYERS]
    if P[G[S.CHOOSER], S.OUT] == 0:
        return G[S.CHOOSER]
    best, tied = -1, 0
    for p in range(n):
        if P[p, S.OUT] == 0:
            if P[p, S.WITS] > best:
                best, tied = P[p, S.WITS], 1
            elif P[p, S.WITS] == best:
                tied += 1
    j = rand(C, S.DICE, 0, tied) if tied > 1 else 0
    for p in range(n):
        if P[p, S.OUT] == 0 and P[p, S.WITS] == best:
            if j == 0:
                G[S.CHOOSER] = p
                break
            j -= 1
    return G[S.CHOOSER]


@njit
def play_match(C, D):
    """One game from set-up to its end (points, a killed PC, deck-out or the cap on rounds
    or turns)."""
    R, G = C[1], C[3]
    set_up(C, D)
    G[S.ROUNDS] = 1
    while G[S.OVER] == 0:
        if R[K.R_MAXTURNS] > 0 and G[S.TURN] >= R[K.R_MAXTURNS]:
            game_over(C, -1, K.END_CAP)
            break
        if round_over(C):
            # A new round, in which every player still in takes one turn, unless the cap
            # ends the match after the last; under each_turn the chooser decides who goes
            # first in it (set-up made the first round's choice).
            if G[S.ROUNDS] >= R[K.R_MAXROUNDS]:
                game_over(C, -1, K.END_CAP)
                break
            G[S.ROUNDS] += 1
            G[S.ROUND_PLAYED] = 0
            if R[K.R_CHOOSE] == K.CHOOSE_EACH_TURN:
                chooser = round_chooser(C)
                G[S.ACTIVE] = choose_first(C, chooser)
                log(C, chooser, S.EV_FIRST, -1, G[S.ACTIVE], -1)
        take_turn(C)
        G[S.ROUND_PLAYED] |= 1 << G[S.ACTIVE]
        if G[S.OVER] == 2:
            G[S.OVER] = 0  # the active player is out, the others play on
        G[S.ACTIVE] = next_seat(C, G[S.ACTIVE], 1)


@njit
def reset(P, G, X):
    for p in range(P.shape[0]):
        for i in range(P.shape[1]):
            P[p, i] = 0
        for c in range(X.shape[1]):
            X[p, c, 0], X[p, c, 1] = 0, 0
    for i in range(G.shape[0]):
        G[i] = 0
    G[S.QUEST], G[S.C_STRIKER], G[S.C_DEF] = -1, -1, -2


@njit
def write_record(C, row, death, in_deck):
    """The match's row, its PC deaths, and the card statistics summed over matches."""
    P, G, X, CS = C[2], C[3], C[4], C[5]
    row[0], row[1], row[2], row[3] = G[S.WINNER], G[S.END], G[S.FIRST], G[S.TURN]
    row[4] = G[S.ROUNDS]
    n = P.shape[0]
    for j in range(len(PER_SEAT)):
        for p in range(n):
            row[5 + n * j + p] = P[p, PER_SEAT[j]]
    for p in range(n):
        t = P[p, S.DEATH_ROUND]
        if t >= 0:
            death[p, t if t < death.shape[1] else death.shape[1] - 1] += 1
    tally_cards(CS, G[S.WINNER], in_deck, X[:, :, X_DRAWN])


@njit(entry=True)
def play_piece(lo, hi, T, R, M, D, in_deck, seed, first, matches, death, card_stats, logs,
               log_n, no_log, work):
    """Matches first + lo .. first + hi - 1 (rows lo .. hi - 1) on the calling thread, in its
    own work arrays, card statistics summed into card_stats; each match draws only from its
    own streams, so how a batch is split into pieces changes nothing."""
    P, G, X, KY, OP = work
    n_log = logs.shape[0]
    for i in range(lo, hi):
        reset(P, G, X)
        for s in range(KY.shape[0]):
            KY[s] = stream_key(seed, first + i, s)
        L = logs[i] if i < n_log else no_log
        C = (T, R, P, G, X, card_stats, KY, M, L, OP)
        play_match(C, D)
        write_record(C, matches[i], death[i], in_deck)
        if i < n_log:
            log_n[i] = G[S.LOG_N]
