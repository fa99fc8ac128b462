"""The compiled engine: take_turn() sequences the rules, play_match() plays one match,
play_piece() plays a run of matches on one thread (sim.core.blocks spreads pieces over threads).

set_up_game, play_game and play_match are inlined into play_piece by numba (inline="always")
rather than compiled on their own: every separately compiled function is finalised to
machine code with everything it calls linked in, so each level of the chain compiled the
engine's code once more. Three levels fewer took an eighth off a first compile, the kernel
as fast (benchmarks/README.md, "The first compile")."""

from __future__ import annotations

import numpy as np

from sim.core.cardstats import tally_cards
from sim.core.jit import njit
from sim.core.rng import N_STREAMS, start_streams
from sim.paintline import abilities as A
from sim.paintline import actions as Act
from sim.paintline import deal as Dl
from sim.paintline import options as O
from sim.paintline import order as Ord
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import shots as Sh
from sim.paintline import state as S


def new_work(n_cards):
    """A decision's work arrays: hit options for a random pick, boost options' features,
    worths, chosen positions, candidates, a mark for each card and the hit list's stamp,
    and each seat's card shapes (legal_hits)."""
    return (
        np.zeros(Sh.MAX_OPTIONS, dtype=np.int64),
        np.zeros((S.CAP + 1, Pol.N_FEATURES), dtype=np.float64),
        np.zeros(3 * S.CAP, dtype=np.float64),
        np.zeros(3 * S.CAP, dtype=np.int64),
        np.zeros(3 * S.CAP, dtype=np.int64),
        np.zeros(n_cards + 1, dtype=np.int64),
        np.zeros((2, n_cards), dtype=np.int64),
    )


@njit
def first_in_hand(table, P, p, kind):
    for i in range(P[p, S.HAND_N]):
        if table[P[p, S.HAND + i], T.C_KIND] == kind:
            return i
    return -1


@njit
def log_shot(P, G, H, p, roll, need, landed, crit, saved, log, log_n, li):
    """One row of the shot log: the shot's identities (card, value set, attachment, boosts,
    natural roll) and what the engine made of them; before the boosts are discarded."""
    if li < 0:
        return
    r = log_n[li]
    if r >= log.shape[1]:
        return
    log[li, r, Rec.L_GAME] = G[S.GAME_NO]
    log[li, r, Rec.L_POINT] = G[S.POINT_NO]
    log[li, r, Rec.L_TURN] = G[S.TURNS]
    log[li, r, Rec.L_SEAT] = p
    log[li, r, Rec.L_CARD] = H[S.H_CARD]
    log[li, r, Rec.L_ADV] = H[S.H_ADV]
    log[li, r, Rec.L_BONUS] = H[S.H_BONUS]
    log[li, r, Rec.L_NEED] = need
    log[li, r, Rec.L_ROLL] = roll
    log[li, r, Rec.L_LANDED] = landed
    log[li, r, Rec.L_CRIT] = crit
    log[li, r, Rec.L_STEP] = G[S.STEP]
    log[li, r, Rec.L_PEN_OUT] = H[S.H_PEN]
    log[li, r, Rec.L_SAVED] = saved
    log[li, r, Rec.L_ATT] = H[S.H_ATT]
    n = P[p, S.BOOST_N]
    log[li, r, Rec.L_BOOSTS] = n
    for k in range(Rec.LOG_BOOSTS):
        log[li, r, Rec.L_BOOST + k] = P[p, S.BOOSTS + k] if k < n else -1
    log_n[li] = r + 1


@njit
def take_turn(table, view, R, prm, P, G, H, p, keys, ctr, seen, cs, work, log, log_n, li):
    """One shot is one turn of the player to hit. Returns True when the shot lands;
    a forfeit is left in G[FORFEIT]. The policy weighs cards as `view` holds them (the
    table itself, or the card table the seat's policy reads, which differs from it in shot
    values only); the shot rolls with the table's."""
    hits, feats, worths, sel, cand, marks, shapes = work
    G[S.TURNS] += 1
    # 1. Ready stamina and draw.
    Ru.ready_stamina(P, p)
    if not Dl.draw_card(table, P, G, R, p, seen):
        return False
    # 2-6. Untap, recycle, Stamina and play cards (the hit chosen with its enhancement and
    # paid, more boosts, spare cards), each once, in the order the policy chooses.
    card, adv, slot, reserve = -1, 0, -1, 0
    order = Ord.PERMS[Pol.choose_order(prm, keys, ctr, p)]
    for k in range(4):
        action = order[k]
        if action == Ord.UNTAP:
            for _ in range(R[O.R_UNTAP_STEPS]):
                n = A.tapped_choices(prm, view, P, p, -1, worths, cand)
                j = Pol.choose_untap(prm, worths, n, keys, ctr, p)
                if j >= 0:
                    Ru.untap_one_step(P, p, cand[j])
        elif action == Ord.RECYCLE:
            # Rally mode has no bag to draw from.
            if R[O.R_RALLY_MODE] == 0:
                ok, slot = Act.recycle_keeping(table, view, R, prm, P, G, p, keys, ctr, seen,
                                               work, slot, reserve)
                if not ok:
                    return False
        elif action == Ord.STAMINA:
            pos = first_in_hand(table, P, p, T.STAMINA)
            if pos >= 0 and Pol.choose_stamina(prm, P[p, S.PP_N], keys, ctr, p):
                cs[p, P[p, S.HAND + pos], Rec.CS_PLAYED] += 1
                Ru.put_stamina_into_play(P, p, pos)
        else:
            card, adv, slot, reserve = Act.play_cards(table, view, R, prm, P, G, H, p, keys,
                                                      ctr, work, cs)
    # 7. Hit: abilities, enhancements, double tap.
    Act.build_shot(table, R, P, G, H, p, card, adv, slot)
    if slot >= 0:
        cs[p, card, Rec.CS_HIT] += 1
        if H[S.H_ACTIVE] == 1 and not A.on_hit(table, card, slot, P, G, R, p, seen, prm, keys,
                                               ctr, worths, cand):
            return False
        Ru.double_tap(P, p, slot)
    # 8. Roll the ball; the coach may save a miss.
    need = Sh.shot_need(R, G, H)
    crit_lo = H[S.H_CRIT_LO]
    bonus = H[S.H_BONUS]
    roll = Dl.roll_the_ball(keys, ctr, p)
    landed = Ru.shot_lands(roll, bonus, need, crit_lo)
    saved = 0
    at_stake = 0 if G[S.IS_SERVE] == 1 and R[O.R_SERVE_MISS] == 1 else 1
    if not landed and A.reroll(table, P, p, prm, at_stake, keys, ctr):
        roll = Dl.roll_the_ball(keys, ctr, p)
        landed = Ru.shot_lands(roll, bonus, need, crit_lo)
        saved = 1
    if not landed and A.clutch(table, P, p, roll, bonus, need):
        landed = True
        saved = 2
    crit = landed and roll >= crit_lo and roll != 1
    if landed:
        if slot >= 0:
            cs[p, card, Rec.CS_LANDED] += 1
        Ru.climb_the_index(G, R, H[S.H_SURGE])
        G[S.CRIT] = 1 if crit else 0
        G[S.IN_PEN] = H[S.H_PEN]
        G[S.IN_TYPE] = table[card, T.C_TYPE] if card >= 0 else T.NO_TYPE
        G[S.MUTE_COST] = H[S.H_MUTE] if H[S.H_ACTIVE] == 1 else -1
        G[S.IS_SERVE] = 0
        G[S.LANDED] += 1
    G[S.SHOTS] += 1
    log_shot(P, G, H, p, roll, need, landed, crit, saved, log, log_n, li)
    Ru.discard_boosts(P, p)
    # 9. Discard down to the hand limit.
    n = P[p, S.HAND_N]
    extra = n - R[O.R_HAND_LIMIT]
    if extra > 0:
        Pol.hand_worths(prm, view, P[p, S.HAND:S.HAND + n], n, P[p, S.PP_N], worths)
        Pol.choose_discards(prm, worths, n, extra, keys, ctr, p, sel)
        Ru.discard_to_hand_limit(P, p, sel, extra)
    for i in range(P[p, S.HAND_N]):
        cs[p, P[p, S.HAND + i], Rec.CS_DEAD] += 1
    return landed


@njit(inline="always")
def set_up_game(table, R, prms, bags, bag_lens, P, G, keys, ctr, seen):
    """Every card back in the bag, shuffle, opening hands, mulligans, coach ready."""
    for p in range(2):
        Dl.gather_cards(table, P, p, bags[p, : bag_lens[p]])
        Dl.shuffle_bag(P, p, keys, ctr)
        Dl.draw_opening_hand(table, P, R, p)
        P[p, S.SCORE] = 0
        P[p, S.COACH_USES] = A.coach_uses(table, P[p, S.COACH])
    if R[O.R_RALLY_MODE] == 1:
        for p in range(2):
            Dl.set_up_rally_mode(P, R, p)
    for p in range(2):
        for _ in range(R[O.R_MULLIGANS] * (1 - R[O.R_RALLY_MODE])):
            stamina = 0
            for i in range(P[p, S.HAND_N]):
                if table[P[p, S.HAND + i], T.C_KIND] == T.STAMINA:
                    stamina += 1
            if not Pol.choose_mulligan(prms[p], stamina, keys, ctr, p):
                break
            Dl.take_mulligan(P, p, keys, ctr)
            Dl.draw_opening_hand(table, P, R, p)
            P[p, S.MULLIGANS] += 1
        for i in range(P[p, S.HAND_N]):
            seen[p, P[p, S.HAND + i]] = 1
    Ru.reset_after_point(P, G)
    G[S.FORFEIT] = -1


@njit
def count_rally(G, rally_len, rally_top, i):
    server = G[S.SERVER]
    n = G[S.LANDED]
    if n >= rally_len.shape[2]:
        n = rally_len.shape[2] - 1
    rally_len[i, server, n] += 1
    rally_top[i, server, G[S.TOP]] += 1


@njit(inline="always")
def play_game(table, views, R, prms, P, G, H, keys, ctr, seen, cs, work, out, rally_len,
              rally_top, log, log_n, i, li):
    """Points until someone wins the game or forfeits it; returns the game's winner."""
    while True:
        server = G[S.SERVER]
        to_hit = server
        G[S.POINT_NO] += 1
        while True:
            landed = take_turn(table, views[to_hit], R, prms[to_hit], P, G, H, to_hit, keys,
                               ctr, seen, cs, work, log, log_n, li)
            if G[S.FORFEIT] >= 0:
                out[i, Rec.CUT_LEN] = G[S.LANDED]
                out[i, Rec.CUT_SERVER] = server
                return 1 - G[S.FORFEIT]
            if landed:
                to_hit = 1 - to_hit
                continue
            if G[S.IS_SERVE] == 1 and R[O.R_SERVE_MISS] == 1:
                continue  # replay: the server serves again
            Ru.score_point(P, 1 - to_hit)
            G[S.POINTS] += 1
            count_rally(G, rally_len, rally_top, i)
            break
        Ru.reset_after_point(P, G)
        Ru.alternate_serve(G)
        w = Ru.game_winner(P, R)
        if w >= 0:
            return w


@njit(inline="always")
def play_match(table, views, R, prms, bags, bag_lens, coaches, in_deck, seed, match_index, P, G, H,
               keys, ctr, seen, cs, work, out, rally_len, rally_top, log, log_n, i, li):
    """A match of 1, 3, 5 or 7 games; writes the match's record in row i."""
    start_streams(keys, ctr, seed, match_index)
    seen[:, :] = 0
    G[:] = 0
    for p in range(2):
        P[p, S.COACH] = coaches[p]
        P[p, S.GAMES_WON] = 0
        P[p, S.MULLIGANS] = 0
    out[i, :] = 0
    out[i, Rec.CUT_LEN] = -1
    out[i, Rec.CUT_SERVER] = -1
    first = Dl.roll_for_first_serve(keys, ctr)
    need = Ru.games_to_win_match(R)
    winner = -1
    for g in range(R[O.R_MATCH_GAMES]):
        G[S.GAME_NO] = g
        set_up_game(table, R, prms, bags, bag_lens, P, G, keys, ctr, seen)
        G[S.SERVER] = first if g % 2 == 0 else 1 - first
        w = play_game(table, views, R, prms, P, G, H, keys, ctr, seen, cs, work, out, rally_len,
                      rally_top, log, log_n, i, li)
        out[i, Rec.SCORE_A] += P[0, S.SCORE]
        out[i, Rec.SCORE_B] += P[1, S.SCORE]
        P[w, S.GAMES_WON] += 1
        if G[S.FORFEIT] >= 0:
            G[S.DECKOUTS] += 1
            G[S.END] = 1
        else:
            G[S.END] = 0
        if P[w, S.GAMES_WON] >= need:
            winner = w
            break
    out[i, Rec.WINNER] = winner
    out[i, Rec.GAMES_A] = P[0, S.GAMES_WON]
    out[i, Rec.GAMES_B] = P[1, S.GAMES_WON]
    out[i, Rec.POINTS] = G[S.POINTS]
    out[i, Rec.TURNS] = G[S.TURNS]
    out[i, Rec.SHOTS] = G[S.SHOTS]
    out[i, Rec.END] = G[S.END]
    out[i, Rec.DECKOUTS] = G[S.DECKOUTS]
    out[i, Rec.FIRST_SERVER] = first
    out[i, Rec.MULL_A] = P[0, S.MULLIGANS]
    out[i, Rec.MULL_B] = P[1, S.MULLIGANS]
    tally_cards(cs, winner, in_deck, seen)


def scratch(n_cards):
    """The arrays one thread plays in, reused from match to match: player, game and shot
    state, stream keys and counters, cards seen, and a decision's work arrays."""
    return (np.zeros((2, S.PLAYER_SIZE), dtype=np.int64), np.zeros(S.GAME_SIZE, dtype=np.int64),
            np.zeros(S.SHOT_SIZE, dtype=np.int64), np.zeros(N_STREAMS, dtype=np.uint64),
            np.zeros(N_STREAMS, dtype=np.int64), np.zeros((2, n_cards), dtype=np.int8),
            new_work(n_cards))


@njit(entry=True)
def play_piece(lo, hi, table, views, R, prms, bags, bag_lens, coaches, in_deck, seed,
               first_match, out, rally_len, rally_top, card_stats, log, log_n, scratch):
    """Matches first_match + lo .. first_match + hi - 1 (rows lo .. hi - 1) on the calling
    thread, in its own scratch, their card statistics summed into card_stats; each match
    draws only from its own streams, so how a batch is split into pieces changes nothing."""
    P, G, H, keys, ctr, seen, work = scratch
    for i in range(lo, hi):
        li = i if i < log.shape[0] else -1
        play_match(table, views, R, prms, bags, bag_lens, coaches, in_deck, seed, first_match + i,
                   P, G, H, keys, ctr, seen, card_stats, work, out, rally_len, rally_top, log,
                   log_n, i, li)
