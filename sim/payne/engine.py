"""The compiled engine: battle() and play_round() sequence the rules, play_match() plays one
match, play_piece() plays a run of matches on one thread (sim.core.blocks spreads pieces over
threads)."""

from __future__ import annotations

import numpy as np

from sim.core.cardstats import record_match
from sim.core.jit import njit
from sim.core.rng import DICE, N_STREAMS, SHUFFLE, next_below, start_streams
from sim.payne import options as O
from sim.payne import policy as Pol
from sim.payne import pool as T
from sim.payne import rules as Ru
from sim.payne import state as S
from sim.payne import unseen as U


@njit
def log_row(G, log, li, values):
    """Append one row to the sampled match's log (li < 0: not sampled)."""
    if li < 0 or G[S.LOG_N] >= log.shape[1]:
        return
    for k in range(len(values)):
        log[li, G[S.LOG_N], k] = values[k]
    G[S.LOG_N] += 1


@njit
def play_window(table, views, R, prms, P, KN, p, allow, in_deck, seen, cs, keys, ctr, fw, buf,
                order, flipped):
    """A play window: the player's policy picks cards (reading them as its view holds them);
    each is played at once, in order."""
    opp_lie = P[1 - p, S.LIE_OFF] + P[1 - p, S.LIE_DEF] > 0
    hand_n = P[p, S.HAND_N]
    n = Pol.choose_plays(views[p], R[O.R_GEOMETRY], prms[p], P[p, S.HAND:S.HAND + hand_n],
                         hand_n, allow, P[p, S.BAN_NOW], opp_lie, P[p, S.OFF_BELIEF],
                         P[p, S.DEF_BELIEF], seen[p], KN[p], fw[0:4], buf,
                         keys, ctr, p)
    for k in range(n):
        c = buf[k]
        Ru.take_from_hand(P, p, Ru.hand_position(P, p, c))
        Ru.play_card(table, views, R, prms, P, KN, p, c, in_deck, seen, cs, keys, ctr, fw,
                     order, flipped)


@njit
def discard_after_battle(P, att, dfn):
    """The battlers and the cards used for this battle go to the discard."""
    P[att, S.DISC_N] += 1 + P[att, S.PEND_OFF]
    P[dfn, S.DISC_N] += 1 + P[dfn, S.PEND_DEF]
    P[att, S.OFF] = -1
    P[dfn, S.DEF] = -1
    P[att, S.PEND_OFF] = 0
    P[dfn, S.PEND_DEF] = 0
    P[att, S.AUTO_OFF] = 0
    P[dfn, S.AUTO_DEF] = 0
    P[att, S.LIE_OFF] = 0
    P[dfn, S.LIE_DEF] = 0


@njit
def auto_win(R, P, att, dfn):
    """0: the arrows decide; 1: the attacker's AutoWin wins; 2: the defender's."""
    a = P[att, S.AUTO_OFF] > 0
    d = P[dfn, S.AUTO_DEF] > 0
    if a and d:
        return R[O.R_CLASH]  # cancel 0, attacker 1, defender 2
    if a:
        return 1
    return 2 if d else 0


@njit
def battle(table, views, R, prms, P, G, KN, att, k, in_deck, seen, drawn, cs, keys, ctr, fw,
           buf, order, flipped, log, li):
    """One battle: play windows, AutoWin or the named side, flip, point, draw, discard."""
    dfn = 1 - att
    if R[O.R_BATTLE_MODE] == 0:
        if R[O.R_TIMING] == 1:
            play_window(table, views, R, prms, P, KN, dfn, 2, in_deck, seen, cs, keys, ctr,
                        fw, buf, order, flipped)
        allow = 1 | (2 if R[O.R_TIMING] == 0 and k == 0 else 0)
        play_window(table, views, R, prms, P, KN, att, allow, in_deck, seen, cs, keys, ctr, fw,
                    buf, order, flipped)
    auto = auto_win(R, P, att, dfn)
    side = -1
    if auto == 0:
        Pol.side_odds(views[att], seen[att], KN[att], fw[0:4])
        side = Pol.choose_side(R[O.R_GEOMETRY], prms[att], P[att, S.OFF_BELIEF], fw[0:4],
                               keys, ctr, att)
        success = S.lit(P[att, S.OFF_MASK], S.meet(R[O.R_GEOMETRY], side)) \
            & S.lit(P[dfn, S.DEF_MASK], side)
    else:
        success = 1 if auto == 1 else 0
        G[S.AUTOWINS] += 1
    if G[S.ROUND] == 1:
        G[S.R1_ATTACK + att] = success
    off_card, def_card = P[att, S.OFF], P[dfn, S.DEF]
    U.see(views, in_deck, seen, dfn, off_card)  # both battlers are flipped
    U.see(views, in_deck, seen, att, def_card)
    w = att if success == 1 else dfn
    P[w, S.SCORE] += 1
    P[w, S.ROUND_PTS] += 1
    P[att, S.ATTACKS] += 1
    P[att, S.ATTACK_WINS] += success
    cs[att, off_card, Ru.CS_BATTLES] += 1
    cs[dfn, def_card, Ru.CS_BATTLES] += 1
    cs[w, off_card if w == att else def_card, Ru.CS_BATTLES_WON] += 1
    log_row(G, log, li, (G[S.ROUND], S.LOG_BATTLE, att, off_card, def_card, side,
                         P[att, S.OFF_MASK], P[dfn, S.DEF_MASK], auto, success,
                         P[0, S.SCORE], P[1, S.SCORE]))
    discard_after_battle(P, att, dfn)
    if P[w, S.SCORE] >= R[O.R_POINTS]:
        G[S.OVER], G[S.WINNER], G[S.END] = 1, w, S.END_POINTS
        return
    if R[O.R_BATTLE_MODE] == 0:
        Ru.draw_cards(table, R, P, att, R[O.R_ATTACK_DRAW], drawn)
        if P[att, S.DECKED] == 1:
            G[S.OVER], G[S.WINNER], G[S.END] = 1, dfn, S.END_DECK_OUT


@njit
def unfielded_round(table, R, P, G, can0, can1, drawn, log, li):
    """A player whose hand lacks a role cannot field: nobody fields, the other scores."""
    pts = R[O.R_UNF_POINTS]
    P[0, S.UNFIELDED] += 1 - can0
    P[1, S.UNFIELDED] += 1 - can1
    if can0 + can1 == 1:
        P[0 if can0 else 1, S.SCORE] += pts
    elif R[O.R_BOTH_UNF] == 0:
        P[0, S.SCORE] += pts
        P[1, S.SCORE] += pts
    log_row(G, log, li, (G[S.ROUND], S.LOG_UNFIELDED, -1, -1, -1, -1, can0, can1, 0, -1,
                         P[0, S.SCORE], P[1, S.SCORE]))
    if R[O.R_UNF_DRAW] == 1:
        Ru.draw_cards(table, R, P, 0, R[O.R_ATTACK_DRAW], drawn)
        Ru.draw_cards(table, R, P, 1, R[O.R_ATTACK_DRAW], drawn)
    reach0 = P[0, S.SCORE] >= R[O.R_POINTS]
    reach1 = P[1, S.SCORE] >= R[O.R_POINTS]
    if reach0 or reach1:
        G[S.OVER], G[S.END] = 1, S.END_POINTS
        if reach0 and reach1:
            diff = P[0, S.SCORE] - P[1, S.SCORE]
            G[S.WINNER] = 0 if diff > 0 else (1 if diff < 0 else -1)
        else:
            G[S.WINNER] = 0 if reach0 else 1
    elif P[0, S.DECKED] + P[1, S.DECKED] > 0:
        G[S.OVER], G[S.END] = 1, S.END_DECK_OUT
        G[S.WINNER] = -1 if P[0, S.DECKED] + P[1, S.DECKED] == 2 else (1 if P[0, S.DECKED]
                                                                         else 0)


@njit
def field(table, views, R, prms, P, p, in_deck, seen, battlers, n_battlers, cs, keys, ctr, fw):
    """Field an offensive and a defensive character face down (battle mode: drawn with
    replacement from the deck list). The player chooses, and believes his characters'
    arrows, as his view holds them; they battle with the table's."""
    if R[O.R_BATTLE_MODE] == 1:
        c_off = battlers[p, 0, next_below(keys, ctr, p, SHUFFLE, n_battlers[p, 0])]
        c_def = battlers[p, 1, next_below(keys, ctr, p, SHUFFLE, n_battlers[p, 1])]
    else:
        hand_n = P[p, S.HAND_N]
        i_off, i_def = Pol.choose_fielding(views[p], R[O.R_GEOMETRY], prms[p],
                                           P[p, S.HAND:S.HAND + hand_n], hand_n,
                                           in_deck[1 - p], seen[p], keys, ctr, p, fw[0:4])
        c_off, c_def = P[p, S.HAND + i_off], P[p, S.HAND + i_def]
        Ru.take_from_hand(P, p, max(i_off, i_def))
        Ru.take_from_hand(P, p, min(i_off, i_def))
    P[p, S.OFF], P[p, S.DEF] = c_off, c_def
    P[p, S.OFF_MASK], P[p, S.OFF_BELIEF] = table[c_off, T.C_ARROWS], views[p, c_off, T.C_ARROWS]
    P[p, S.DEF_MASK], P[p, S.DEF_BELIEF] = table[c_def, T.C_ARROWS], views[p, c_def, T.C_ARROWS]
    cs[p, c_off, Ru.CS_FIELDED] += 1
    cs[p, c_def, Ru.CS_FIELDED] += 1


@njit
def play_round(table, views, R, prms, P, G, KN, in_deck, seen, drawn, battlers, n_battlers, cs,
               hist, i, keys, ctr, fw, buf, order, flipped, log, li):
    """A round: bans take effect, fielding (or an unfielded round), the coin, two battles."""
    G[S.ROUND] += 1
    for p in range(2):
        P[p, S.BAN_NOW] = P[p, S.BAN_NEXT]
        P[p, S.BAN_NEXT] = 0
        P[p, S.ROUND_PTS] = 0
    if R[O.R_BATTLE_MODE] == 0 and G[S.ROUND] >= 2:
        can0 = 1 if Ru.has_both_roles(table, P, 0) else 0
        can1 = 1 if Ru.has_both_roles(table, P, 1) else 0
        if can0 + can1 < 2:
            unfielded_round(table, R, P, G, can0, can1, drawn, log, li)
            return
    for p in range(2):
        field(table, views, R, prms, P, p, in_deck, seen, battlers, n_battlers, cs, keys, ctr,
              fw)
    KN[:, :, :] = -1
    first = next_below(keys, ctr, 0, DICE, 2)  # the coin: seat 0's dice stream
    if G[S.ROUND] == 1:
        G[S.FIRST] = first
    for k in range(2):
        battle(table, views, R, prms, P, G, KN, first if k == 0 else 1 - first, k, in_deck,
               seen, drawn, cs, keys, ctr, fw, buf, order, flipped, log, li)
        if G[S.OVER] == 1:
            return
    G[S.ROUNDS_0 + P[0, S.ROUND_PTS]] += 1
    hist[i, 0, P[0, S.ROUND_PTS]] += 1
    hist[i, 1, P[1, S.ROUND_PTS]] += 1


@njit
def play_match(table, views, R, prms, decks, deck_lens, in_deck, battlers, n_battlers, seed, index,
               P, G, KN, seen, drawn, cs, keys, ctr, fw, buf, order, flipped, out, hist, i,
               log, li):
    """One match, written to row i of out (and hist)."""
    start_streams(keys, ctr, seed, index)
    P[:, :] = 0
    G[:] = 0
    G[S.FIRST] = -1
    G[S.WINNER] = -1
    G[S.R1_ATTACK] = G[S.R1_ATTACK + 1] = -1
    U.start(seen, len(table))
    drawn[:, :] = 0
    for p in range(2):
        P[p, S.OFF] = P[p, S.DEF] = -1
        if R[O.R_BATTLE_MODE] == 0:
            Ru.set_up(table, R, P, p, decks[p, :deck_lens[p]], keys, ctr, drawn)
    fail = P[0, S.SETUP_FAIL] + 2 * P[1, S.SETUP_FAIL]
    if fail > 0:
        G[S.OVER], G[S.END] = 1, S.END_SETUP
        G[S.WINNER] = -1 if fail == 3 else (1 if fail == 1 else 0)
    while G[S.OVER] == 0:
        if G[S.ROUND] >= R[O.R_MAX_ROUNDS]:
            G[S.END], G[S.WINNER] = S.END_ROUND_CAP, -1
            break
        play_round(table, views, R, prms, P, G, KN, in_deck, seen, drawn, battlers, n_battlers, cs,
                   hist, i, keys, ctr, fw, buf, order, flipped, log, li)
    row = (G[S.WINNER], P[0, S.SCORE], P[1, S.SCORE], G[S.ROUND], G[S.END], G[S.FIRST],
           P[0, S.UNFIELDED], P[1, S.UNFIELDED], P[0, S.REDRAWS], P[1, S.REDRAWS],
           P[0, S.ATTACKS], P[1, S.ATTACKS], P[0, S.ATTACK_WINS], P[1, S.ATTACK_WINS],
           G[S.AUTOWINS], G[S.ROUNDS_0], G[S.ROUNDS_0 + 1], G[S.ROUNDS_0 + 2],
           G[S.R1_ATTACK], G[S.R1_ATTACK + 1])
    record_match(out, i, row, cs, in_deck, drawn)


def new_work(n_cards):
    """Scratch a thread reuses from match to match."""
    return (np.zeros((2, S.PLAYER_SIZE), dtype=np.int64), np.zeros(S.GAME_SIZE, dtype=np.int64),
            np.zeros((2, 2, 4), dtype=np.int64),
            np.zeros((2, U.width(n_cards)), dtype=np.int64),
            np.zeros((2, n_cards), dtype=np.int64), np.zeros(N_STREAMS, dtype=np.uint64),
            np.zeros(N_STREAMS, dtype=np.int64), np.zeros(8, dtype=np.float64),
            np.zeros(S.CAP, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(4, dtype=np.int64))


@njit(entry=True)
def play_piece(lo, hi, table, views, R, prms, decks, deck_lens, in_deck, battlers, n_battlers, seed,
               first_match, out, hist, card_stats, log, log_n, work):
    """Matches first_match + lo .. first_match + hi - 1 (rows lo .. hi - 1) on the calling
    thread, in its own work arrays, card statistics summed into card_stats; each match draws
    only from its own streams, so how a batch is split into pieces changes nothing."""
    P, G, KN, seen, drawn, keys, ctr, fw, buf, order, flipped = work
    U.prepare(views, in_deck, seen)
    for i in range(lo, hi):
        li = i if i < log.shape[0] else -1
        play_match(table, views, R, prms, decks, deck_lens, in_deck, battlers, n_battlers, seed,
                   first_match + i, P, G, KN, seen, drawn, card_stats, keys, ctr, fw, buf, order,
                   flipped, out, hist, i, log, li)
        if li >= 0:
            log_n[i] = G[S.LOG_N]
