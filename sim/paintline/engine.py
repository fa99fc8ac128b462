"""The compiled engine: take_turn() sequences the rules, play_match() plays one match,
play_batch() is the one parallel kernel over many matches."""

from __future__ import annotations

import numba
import numpy as np

from sim import records as Rec
from sim.jit import njit
from sim.paintline import abilities as A
from sim.paintline import keywords as K
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import state as S
from sim.rng import N_STREAMS, stream_key

MAX_OPTIONS = 2 * 2 * S.CAP + 1
# Hit option sources.
SRC_DEFAULT, SRC_PLAY, SRC_HAND = 0, 1, 2
# Columns of an option row: source, slot or hand position, card, advantage.
O_SRC, O_WHERE, O_CARD, O_ADV = 0, 1, 2, 3


@njit(_nrt=True)
def new_work(n_cards):
    """Scratch arrays a thread reuses from turn to turn (the last three: the per-turn
    memo of option odds, its turn stamps and the turn clock)."""
    return (
        np.zeros((MAX_OPTIONS, 4), dtype=np.int64),
        np.zeros((MAX_OPTIONS, Pol.N_FEATURES), dtype=np.float64),
        np.zeros(S.CAP, dtype=np.float64),
        np.zeros(S.CAP, dtype=np.int64),
        np.zeros(S.CAP, dtype=np.int64),
        np.zeros((2 * n_cards, 3), dtype=np.float64),
        np.zeros(2 * n_cards, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@njit
def value_set(table, card, adv):
    """(bonus, penalty) of a card's Normal or Advantage values."""
    if adv == 1:
        return table[card, T.C_ABONUS], table[card, T.C_APEN]
    return table[card, T.C_NBONUS], table[card, T.C_NPEN]


@njit
def prepare_shot(table, R, G, card, adv, att, boost, H):
    """Fill H with what a shot would roll with: values of the card, its attachment and
    boost (same value set), and the abilities in force."""
    H[S.H_CARD] = card
    H[S.H_ADV] = adv
    H[S.H_BONUS] = 0
    H[S.H_PEN] = 0
    H[S.H_CRIT_LO] = 20
    H[S.H_SURGE] = 0
    H[S.H_IGNORE] = 0
    H[S.H_MUTE] = -1
    H[S.H_BOOST] = boost
    H[S.H_ACTIVE] = 0
    if card < 0:
        return
    b, p = value_set(table, card, adv)
    if att >= 0:
        b2, p2 = value_set(table, att, adv)
        b += b2
        p += p2
    if boost >= 0:
        b2, p2 = value_set(table, boost, adv)
        b += b2
        p += p2
    H[S.H_BONUS] = b
    H[S.H_PEN] = p
    if A.abilities_in_force(table, card, G[S.MUTE_COST], R[T.R_TIE_RULE]):
        H[S.H_ACTIVE] = 1
        A.shape_shot(table, card, H)


@njit
def shot_need(R, G, H):
    """Target plus the incoming penalty, unless the shot ignores it."""
    pen = 0 if H[S.H_IGNORE] == 1 else G[S.IN_PEN]
    return Ru.escalation_target(G, R) + pen


@njit
def option_odds(bonus, pen, crit_lo, need, next_target, crit_target):
    """(P(land), P(land and a plain return then misses)) of a shot, exact over the d20."""
    p_hit = Ru.hit_chance(bonus, need, crit_lo)
    p_crit = (21 - crit_lo) / 20.0
    if p_crit > p_hit:
        p_crit = p_hit
    miss_after_crit = 1.0 - Ru.hit_chance(0, crit_target + pen, 20)
    miss_after = 1.0 - Ru.hit_chance(0, next_target + pen, 20)
    return p_hit, p_crit * miss_after_crit + (p_hit - p_crit) * miss_after


@njit
def next_target(R, G, surge):
    """The index value the return would face (before any critical)."""
    top = R[T.R_LADDER_LEN] - 1
    nxt = G[S.STEP] + 1 + surge
    return R[T.R_LADDER + (nxt if nxt < top else top)]


@njit
def shot_features(R, G, H, cost, feats, i):
    """What a policy weighs: P(land), penalty put on the opponent, P(land and a plain
    return misses), stamina spent."""
    p_hit, look = option_odds(H[S.H_BONUS], H[S.H_PEN], H[S.H_CRIT_LO], shot_need(R, G, H),
                              next_target(R, G, H[S.H_SURGE]), R[T.R_CRIT_TARGET])
    feats[i, Pol.F_HIT] = p_hit
    feats[i, Pol.F_PEN] = H[S.H_PEN]
    feats[i, Pol.F_LOOK] = look
    feats[i, Pol.F_COST] = cost


@njit
def legal_hits(table, R, P, G, p, opts, feats, memo, stamp, clock):
    """Every legal hit: the Default Shot, each ready Arsenal card it can pay for, each shot
    card in hand it can pay for, in each value set open to it. The odds of a card without
    attachment are worked out once a turn (copies share them)."""
    clock[0] += 1
    now = clock[0]
    ready = P[p, S.PP_READY]
    serve = G[S.IS_SERVE]
    target = Ru.escalation_target(G, R)
    in_pen = G[S.IN_PEN]
    mute_cost = G[S.MUTE_COST]
    tie = R[T.R_TIE_RULE]
    crit_target = R[T.R_CRIT_TARGET]
    # The Default Shot: no bonus, no penalty, no abilities.
    p_hit, look = option_odds(0, 0, 20, target + in_pen, next_target(R, G, 0), crit_target)
    opts[0, O_SRC], opts[0, O_WHERE], opts[0, O_CARD], opts[0, O_ADV] = SRC_DEFAULT, -1, -1, 0
    feats[0, Pol.F_HIT], feats[0, Pol.F_PEN] = p_hit, 0.0
    feats[0, Pol.F_LOOK], feats[0, Pol.F_COST] = look, 0.0
    n = 1
    for src in (SRC_PLAY, SRC_HAND):
        count = P[p, S.PLAY_N] if src == SRC_PLAY else P[p, S.HAND_N]
        for i in range(count):
            if src == SRC_PLAY:
                if P[p, S.TAP + i] != 0:
                    continue
                card = P[p, S.PLAY + i]
                att = P[p, S.ATT + i]
            else:
                card = P[p, S.HAND + i]
                att = -1
                kind = table[card, T.C_KIND]
                if kind != T.BASIC_SHOT and kind != T.TRICK_SHOT:
                    continue
            cost = table[card, T.C_COST]
            if cost > ready or (serve == 0 and A.serve_only(table, card)):
                continue
            sets = 2 if Ru.has_advantage(table[card, T.C_TYPE], G[S.IN_TYPE], serve) else 1
            for adv in range(sets):
                key = card * 2 + adv
                if att < 0 and stamp[key] == now:
                    p_hit, pen, look = memo[key, 0], memo[key, 1], memo[key, 2]
                else:
                    b, pen = value_set(table, card, adv)
                    if att >= 0:
                        b2, p2 = value_set(table, att, adv)
                        b += b2
                        pen += p2
                    crit_lo, surge, ignore = 20, 0, 0
                    if A.abilities_in_force(table, card, mute_cost, tie):
                        crit_lo, surge, ignore, _ = A.shot_shape(table, card)
                    need = target + (0 if ignore == 1 else in_pen)
                    p_hit, look = option_odds(b, pen, crit_lo, need, next_target(R, G, surge),
                                              crit_target)
                    if att < 0:
                        stamp[key] = now
                        memo[key, 0], memo[key, 1], memo[key, 2] = p_hit, pen, look
                opts[n, O_SRC], opts[n, O_WHERE] = src, i
                opts[n, O_CARD], opts[n, O_ADV] = card, adv
                feats[n, Pol.F_HIT], feats[n, Pol.F_PEN] = p_hit, pen
                feats[n, Pol.F_LOOK], feats[n, Pol.F_COST] = look, cost
                n += 1
    return n


@njit
def first_in_hand(table, P, p, kind):
    for i in range(P[p, S.HAND_N]):
        if table[P[p, S.HAND + i], T.C_KIND] == kind:
            return i
    return -1


@njit
def choose_boost_card(table, R, P, G, H, p, prm, slot, adv, keys, ctr, work):
    """Offer the affordable single-use enhancements in hand to the policy; returns the
    enhancement card chosen (paid, out of hand) or -1."""
    opts, feats, worths, sel, cand, memo, stamp, clock = work
    card = P[p, S.PLAY + slot]
    att = P[p, S.ATT + slot]
    prepare_shot(table, R, G, card, adv, att, -1, H)
    shot_features(R, G, H, 0, feats, 0)
    base = Pol.hit_score(prm, feats, 0)
    n = 0
    for i in range(P[p, S.HAND_N]):
        e = P[p, S.HAND + i]
        if table[e, T.C_KIND] != T.ENHANCEMENT or A.ability_arg(table, e, K.ATTACH) >= 0:
            continue
        cost = table[e, T.C_COST]
        if cost > P[p, S.PP_READY]:
            continue
        prepare_shot(table, R, G, card, adv, att, e, H)
        shot_features(R, G, H, cost, feats, n)
        cand[n] = i
        n += 1
    b = Pol.choose_boost(prm, feats, n, base, keys, ctr, p)
    if b < 0:
        return -1
    e = P[p, S.HAND + cand[b]]
    Ru.pay_stamina(P, p, table[e, T.C_COST])
    Ru.remove_from_hand(P, p, cand[b])
    return e


@njit
def play_to_table(table, P, p, prm, hit_slot, keys, ctr, work, cs):
    """With stamina left over, the policy may put shot cards into the Arsenal and attach
    enhancements (to the shot about to be hit first), one card at a time."""
    opts, feats, worths, sel, cand, memo, stamp, clock = work
    while True:
        n = 0
        free_slot = -1
        if hit_slot >= 0 and P[p, S.ATT + hit_slot] < 0:
            free_slot = hit_slot
        else:
            for s in range(P[p, S.PLAY_N]):
                if P[p, S.ATT + s] < 0:
                    free_slot = s
                    break
        for i in range(P[p, S.HAND_N]):
            c = P[p, S.HAND + i]
            kind = table[c, T.C_KIND]
            shot = kind == T.BASIC_SHOT or kind == T.TRICK_SHOT
            attach = kind == T.ENHANCEMENT and A.ability_arg(table, c, K.ATTACH) >= 0
            if not shot and not (attach and free_slot >= 0):
                continue
            if table[c, T.C_COST] > P[p, S.PP_READY]:
                continue
            cand[n] = i
            worths[n] = Pol.card_worth(prm, table, c, False)
            n += 1
        j = Pol.choose_play(prm, worths, n, keys, ctr, p)
        if j < 0:
            return
        c = P[p, S.HAND + cand[j]]
        Ru.pay_stamina(P, p, table[c, T.C_COST])
        cs[p, c, Ru.CS_PLAYED] += 1
        if table[c, T.C_KIND] == T.ENHANCEMENT:
            Ru.attach_enhancement(P, p, cand[j], free_slot)
        else:
            Ru.play_shot_card(P, p, cand[j])


@njit
def log_shot(G, H, p, roll, need, landed, crit, saved, log, log_n, li):
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
    log[li, r, Rec.L_BOOST] = H[S.H_BOOST]
    log_n[li] = r + 1


@njit
def take_turn(table, R, prm, P, G, H, p, keys, ctr, seen, cs, work, log, log_n, li):
    """One shot is one turn of the player to hit. Returns True when the shot lands;
    a forfeit is left in G[FORFEIT]."""
    opts, feats, worths, sel, cand, memo, stamp, clock = work
    G[S.TURNS] += 1
    # 1. Ready stamina and draw.
    Ru.ready_stamina(P, p)
    if not Ru.draw_card(P, G, R, p, seen):
        return False
    # 2. Put one Stamina into play.
    pos = first_in_hand(table, P, p, T.STAMINA)
    if pos >= 0 and Pol.choose_stamina(prm, P[p, S.PP_N], keys, ctr, p):
        cs[p, P[p, S.HAND + pos], Ru.CS_PLAYED] += 1
        Ru.put_stamina_into_play(P, p, pos)
    # 3. Untap shot cards, one step each time.
    for _ in range(R[T.R_UNTAP_STEPS]):
        n = 0
        for s in range(P[p, S.PLAY_N]):
            if P[p, S.TAP + s] > 0:
                cand[n] = s
                worths[n] = Pol.card_worth(prm, table, P[p, S.PLAY + s], False)
                n += 1
        j = Pol.choose_untap(prm, worths, n, keys, ctr, p)
        if j >= 0:
            Ru.untap_one_step(P, p, cand[j])
    # 4. Recycle.
    n = P[p, S.HAND_N]
    Pol.hand_worths(prm, table, P[p, S.HAND:S.HAND + n], n, P[p, S.PP_N], worths)
    ratio = R[T.R_RECYCLE_RATIO]
    k = Pol.choose_recycle(prm, worths, n, Ru.bag_left(P, p), ratio, keys, ctr, p, sel)
    if k > 0 and not Ru.recycle(P, G, R, p, sel, k, seen):
        return False
    # 5. Choose the hit and pay for it.
    n_opt = legal_hits(table, R, P, G, p, opts, feats, memo, stamp, clock)
    o = Pol.choose_hit(prm, feats, n_opt, keys, ctr, p)
    src = opts[o, O_SRC]
    card = opts[o, O_CARD]
    adv = opts[o, O_ADV]
    slot = -1
    if src == SRC_HAND:
        Ru.pay_stamina(P, p, table[card, T.C_COST])
        cs[p, card, Ru.CS_PLAYED] += 1
        slot = Ru.play_shot_card(P, p, opts[o, O_WHERE])
    elif src == SRC_PLAY:
        Ru.pay_stamina(P, p, table[card, T.C_COST])
        slot = opts[o, O_WHERE]
    # 6. Shot enhancements, then spare cards into play.
    boost = -1
    if slot >= 0:
        boost = choose_boost_card(table, R, P, G, H, p, prm, slot, adv, keys, ctr, work)
        if boost >= 0:
            cs[p, boost, Ru.CS_PLAYED] += 1
    play_to_table(table, P, p, prm, slot, keys, ctr, work, cs)
    # 7. Hit: abilities, enhancements, double tap.
    att = P[p, S.ATT + slot] if slot >= 0 else -1
    prepare_shot(table, R, G, card, adv, att, boost, H)
    if slot >= 0:
        cs[p, card, Ru.CS_HIT] += 1
        if H[S.H_ACTIVE] == 1 and not A.on_hit(table, card, slot, P, G, R, p, seen):
            return False
        Ru.double_tap(P, p, slot)
    # 8. Roll the ball; the coach may save a miss.
    need = shot_need(R, G, H)
    crit_lo = H[S.H_CRIT_LO]
    bonus = H[S.H_BONUS]
    roll = Ru.roll_the_ball(keys, ctr, p)
    landed = Ru.shot_lands(roll, bonus, need, crit_lo)
    saved = 0
    if not landed and A.reroll(table, P, p):
        roll = Ru.roll_the_ball(keys, ctr, p)
        landed = Ru.shot_lands(roll, bonus, need, crit_lo)
        saved = 1
    if not landed and A.clutch(table, P, p, roll, bonus, need):
        landed = True
        saved = 2
    crit = landed and roll >= crit_lo and roll != 1
    if boost >= 0:
        Ru.discard(P, p, boost)
    if landed:
        if slot >= 0:
            cs[p, card, Ru.CS_LANDED] += 1
        Ru.climb_the_index(G, R, H[S.H_SURGE])
        G[S.CRIT] = 1 if crit else 0
        G[S.IN_PEN] = H[S.H_PEN]
        G[S.IN_TYPE] = table[card, T.C_TYPE] if card >= 0 else T.NO_TYPE
        G[S.MUTE_COST] = H[S.H_MUTE] if H[S.H_ACTIVE] == 1 else -1
        G[S.IS_SERVE] = 0
        G[S.LANDED] += 1
    G[S.SHOTS] += 1
    log_shot(G, H, p, roll, need, landed, crit, saved, log, log_n, li)
    # 9. Discard down to the hand limit.
    n = P[p, S.HAND_N]
    extra = n - R[T.R_HAND_LIMIT]
    if extra > 0:
        Pol.hand_worths(prm, table, P[p, S.HAND:S.HAND + n], n, P[p, S.PP_N], worths)
        Pol.choose_discards(prm, worths, n, extra, keys, ctr, p, sel)
        Ru.discard_to_hand_limit(P, R, p, sel, extra)
    for i in range(P[p, S.HAND_N]):
        cs[p, P[p, S.HAND + i], Ru.CS_DEAD] += 1
    return landed


@njit
def draw_opening_hand(P, R, p):
    """Opening hand: the top cards of the bag (kept or mulliganed before they count as drawn)."""
    n = min(R[T.R_OPENING_HAND], Ru.bag_left(P, p))
    for _ in range(n):
        P[p, S.HAND + P[p, S.HAND_N]] = P[p, S.BAG + P[p, S.BAG_TOP]]
        P[p, S.BAG_TOP] += 1
        P[p, S.HAND_N] += 1


@njit
def set_up_game(table, R, prms, bags, bag_lens, P, G, keys, ctr, seen):
    """Every card back in the bag, shuffle, opening hands, mulligans, coach ready."""
    for p in range(2):
        Ru.gather_cards(P, p, bags[p, : bag_lens[p]])
        Ru.shuffle_bag(P, p, keys, ctr)
        draw_opening_hand(P, R, p)
        P[p, S.SCORE] = 0
        P[p, S.COACH_USES] = A.coach_uses(table, P[p, S.COACH])
    if R[T.R_RALLY_MODE] == 1:
        for p in range(2):
            Ru.set_up_rally_mode(P, R, p)
    for p in range(2):
        for _ in range(R[T.R_MULLIGANS] * (1 - R[T.R_RALLY_MODE])):
            stamina = 0
            for i in range(P[p, S.HAND_N]):
                if table[P[p, S.HAND + i], T.C_KIND] == T.STAMINA:
                    stamina += 1
            if not Pol.choose_mulligan(prms[p], stamina, keys, ctr, p):
                break
            Ru.take_mulligan(P, p, keys, ctr)
            draw_opening_hand(P, R, p)
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


@njit
def play_game(table, R, prms, P, G, H, keys, ctr, seen, cs, work, out, rally_len, rally_top,
              log, log_n, i, li):
    """Points until someone wins the game or forfeits it; returns the game's winner."""
    while True:
        server = G[S.SERVER]
        to_hit = server
        G[S.POINT_NO] += 1
        while True:
            landed = take_turn(table, R, prms[to_hit], P, G, H, to_hit, keys, ctr, seen, cs,
                               work, log, log_n, li)
            if G[S.FORFEIT] >= 0:
                out[i, Rec.CUT_LEN] = G[S.LANDED]
                out[i, Rec.CUT_SERVER] = server
                return 1 - G[S.FORFEIT]
            if landed:
                to_hit = 1 - to_hit
                continue
            if G[S.IS_SERVE] == 1 and R[T.R_SERVE_MISS] == 1:
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


@njit
def play_match(table, R, prms, bags, bag_lens, coaches, in_deck, seed, game_index, P, G, H,
               keys, ctr, seen, cs, work, out, rally_len, rally_top, log, log_n, i, li):
    """A match of 1, 3, 5 or 7 games; writes the match's record in row i."""
    for s in range(N_STREAMS):
        keys[s] = stream_key(seed, game_index, s)
        ctr[s] = 0
    seen[:, :] = 0
    G[:] = 0
    for p in range(2):
        P[p, S.COACH] = coaches[p]
        P[p, S.GAMES_WON] = 0
        P[p, S.MULLIGANS] = 0
    out[i, :] = 0
    out[i, Rec.CUT_LEN] = -1
    out[i, Rec.CUT_SERVER] = -1
    first = Ru.roll_for_first_serve(keys, ctr)
    need = Ru.games_to_win_match(R)
    winner = -1
    for g in range(R[T.R_MATCH_GAMES]):
        G[S.GAME_NO] = g
        set_up_game(table, R, prms, bags, bag_lens, P, G, keys, ctr, seen)
        G[S.SERVER] = first if g % 2 == 0 else 1 - first
        w = play_game(table, R, prms, P, G, H, keys, ctr, seen, cs, work, out, rally_len,
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
    for p in range(2):
        won = 1 if winner == p else 0
        for c in range(in_deck.shape[1]):
            if in_deck[p, c] == 0:
                continue
            cs[p, c, Ru.CS_GAMES_IN_DECK] += 1
            if seen[p, c] == 1:
                cs[p, c, Ru.CS_GAMES_DRAWN] += 1
                cs[p, c, Ru.CS_WINS_DRAWN] += won
            else:
                cs[p, c, Ru.CS_WINS_NOT_DRAWN] += won


@njit(parallel=True, _nrt=True)
def play_batch(table, R, prms, bags, bag_lens, coaches, in_deck, seed, first_game, block,
               out, rally_len, rally_top, card_stats, log, log_n):
    """Matches first_game .. first_game + len(out) - 1, in blocks of `block` across threads.
    Each match draws only from its own streams, so the split changes nothing."""
    n = out.shape[0]
    n_blocks = (n + block - 1) // block
    n_cards = table.shape[0]
    n_log = log.shape[0]
    for b in numba.prange(n_blocks):
        lo = b * block
        hi = min(n, lo + block)
        # Everything a thread touches in its hot loop is its own: calls between compiled
        # functions update each array's reference count, and threads sharing one count
        # (inputs or outputs alike) would fight over its cache line.
        tab = table.copy()
        rul = R.copy()
        pol = prms.copy()
        bg = bags.copy()
        bl = bag_lens.copy()
        co = coaches.copy()
        ind = in_deck.copy()
        o = np.zeros((hi - lo, out.shape[1]), dtype=out.dtype)
        rl = np.zeros((hi - lo, 2, rally_len.shape[2]), dtype=rally_len.dtype)
        rt = np.zeros((hi - lo, 2, rally_top.shape[2]), dtype=rally_top.dtype)
        cs = np.zeros((2, n_cards, card_stats.shape[3]), dtype=card_stats.dtype)
        lg = np.zeros((1, log.shape[1], log.shape[2]), dtype=log.dtype)
        ln = np.zeros(1, dtype=log_n.dtype)
        P = np.zeros((2, S.PLAYER_SIZE), dtype=np.int32)
        G = np.zeros(S.GAME_SIZE, dtype=np.int64)
        H = np.zeros(S.SHOT_SIZE, dtype=np.int64)
        keys = np.zeros(N_STREAMS, dtype=np.uint64)
        ctr = np.zeros(N_STREAMS, dtype=np.int64)
        seen = np.zeros((2, n_cards), dtype=np.int8)
        work = new_work(n_cards)
        for i in range(lo, hi):
            li = 0 if i < n_log else -1
            ln[0] = 0
            play_match(tab, rul, pol, bg, bl, co, ind, seed, first_game + i, P, G, H, keys, ctr,
                       seen, cs, work, o, rl, rt, lg, ln, i - lo, li)
            if li == 0:
                log[i, : ln[0]] = lg[0, : ln[0]]
                log_n[i] = ln[0]
        out[lo:hi] = o
        rally_len[lo:hi] = rl
        rally_top[lo:hi] = rt
        card_stats[b] = cs
