"""The six steps of a turn (draw, boost, quest, encounter, score, settle), each named as the
rulebook names it (the score step in scoring.py), and the driver of a turn."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.effects import (
    O_SCORE,
    boost_playable,
    list_maneuvers,
    play_from_hand,
    played,
    resolve,
    side_gone,
    stay,
    use_option,
)
from sim.encounter.encounter_mode import encounter_turn
from sim.encounter.hand import boosts_in_hand
from sim.encounter.moments import respond, start_of_turn
from sim.encounter.policy import (
    O_CARD,
    O_KIND,
    O_WHERE,
    OPT_HAND,
    boost_score,
    discard_pick,
    pick_option,
    quest_pick,
)
from sim.encounter.rules import (
    card_kw,
    combat_winner,
    damage_of,
    discard,
    draw_card,
    log,
    lose,
    next_seat,
    note,
    player_kw,
    push,
    race_ok,
    reset_uses,
    start_step,
    stat,
    take_from_hand,
    unique_ok,
)
from sim.encounter.scoring import score_step
from sim.encounter.striking import pick_defender, pick_striker, strike_score
from sim.encounter.windows import window
from sim.encounter.wounds import heal, wound, wound_striker


@njit
def draw_step(C):
    """Window, then draw or discard to exactly hand_size (deck_out when the deck is empty)."""
    R, P, G = C[1], C[2], C[3]
    a = G[S.ACTIVE]
    start_step(C, K.S_DRAW)
    window(C, K.S_DRAW)
    while P[a, S.HAND_N] > R[K.R_HAND]:
        card = take_from_hand(C[0], P, a, discard_pick(C, a, -1))
        discard(P, a, card)
        log(C, a, S.EV_DISCARD, card, 0, 0)
    while P[a, S.HAND_N] < R[K.R_HAND] and G[S.OVER] == 0:
        if draw_card(C, a) < 0:
            log(C, a, S.EV_DECKOUT, -1, 0, 0)
            if R[K.R_DECKOUT] == 1:
                lose(C, a, K.END_DECKOUT)
            break


@njit
def boost_step(C):
    """A alone plays boost cards and maneuvers, one at a time, until it passes."""
    T, P, G, OP = C[0], C[2], C[3], C[9]
    a = G[S.ACTIVE]
    start_step(C, K.S_BOOST)
    for _ in range(4 * S.CAP):
        if G[S.OVER]:
            return
        G[S.NEED_N] = -1  # a play changes what the quests in hand still need
        n, boosts = 0, boosts_in_hand(T, P, a)  # only those that may be boost plays
        for i in range(P[a, S.HAND_N]):
            if (boosts >> i) & 1 == 0:
                continue
            c = P[a, S.HAND + i]
            if boost_playable(C, a, c):
                OP[n, O_KIND], OP[n, O_WHERE], OP[n, O_CARD] = OPT_HAND, i, c
                OP[n, O_SCORE] = boost_score(C, a, OPT_HAND, c, 0, 0)
                n += 1
        m = list_maneuvers(C, a, K.S_BOOST, n)
        for i in range(n, m):
            c = OP[i, O_CARD]
            j = 0 if OP[i, O_KIND] == OPT_HAND else OP[i, O_WHERE]
            OP[i, O_SCORE] = boost_score(C, a, OP[i, O_KIND], c, T[c, K.C_AB1 + 2 * j],
                                        T[c, K.C_ARG1 + 2 * j])
        pick = pick_option(C, a, m)
        if pick < 0:
            return
        if pick < n:
            play_from_hand(C, a, OP[pick, O_WHERE])
        else:
            use_option(C, a, pick)


@njit
def strike_budget(C, q, b, threat):
    """Quest cost + opponent b's Budget - A's Sneak, floor 0 (twilight: plus A's threat)."""
    a = C[3][S.ACTIVE]
    v = C[0][q, K.C_QCOST] + player_kw(C, b, K.BUDGET) - player_kw(C, a, K.SNEAK) + threat
    return v if v > 0 else 0


@njit
def quest_step(C):
    """A may play one quest; each opponent, counterclockwise from A, spends the strike budget
    on strike cards (strike_budget: shared, what those before left plus its own Budget;
    each, a whole one of its own); a window."""
    R, P, G = C[1], C[2], C[3]
    a = G[S.ACTIVE]
    start_step(C, K.S_QUEST)
    # "Before playing a quest, each player ... may perform maneuvers that take place at the
    # start of the quest step."
    window(C, K.S_QSTART)
    if G[S.OVER]:
        return False
    i = quest_pick(C, a, R[K.R_QMAND] == 1)
    if i < 0:
        return False
    q = take_from_hand(C[0], P, a, i)
    G[S.QUEST] = q
    P[a, S.Q_ATT] += 1
    note(C, a, q, S.ST_PLAYED)
    note(C, a, q, S.ST_USED)
    threat = 0
    if R[K.R_CURRENCY] == K.CUR_TWILIGHT:
        threat = P[a, S.THREAT]
        P[a, S.THREAT] = 0
    b = next_seat(C, a, -1)
    G[S.BUDGET] = strike_budget(C, q, b, threat)
    log(C, a, S.EV_QUEST, q, G[S.BUDGET], b)  # b: the opponent whose budget it is
    while True:
        if strike_cards(C, b):
            return True
        prev, b = b, next_seat(C, b, -1)
        if b == a:
            break
        if R[K.R_STRIKE_BUDGET] == K.BUDGET_SHARED:
            # "The total, if any, is the new quest cost available for playing other strike
            # cards": the next opponent spends what is left (twilight: it is passed on).
            P[prev, S.LEFT] = 0
            v = G[S.BUDGET] + player_kw(C, b, K.BUDGET)
            G[S.BUDGET] = v if v > 0 else 0
        else:
            G[S.BUDGET] = strike_budget(C, q, b, threat)
        log(C, b, S.EV_BUDGET, q, G[S.BUDGET], 0)
    P[a, S.SENT] = G[S.S_N]
    if R[K.R_CURRENCY] != K.CUR_TWILIGHT:
        G[S.BUDGET] = 0  # leftover budget is lost (twilight: it pays B's costs)
    window(C, K.S_QUEST)
    return True


@njit
def strike_cards(C, b):
    """Opponent b's quest step: strike cards one at a time while their strike cost fits the
    budget left; True when one ended the game or A's turn."""
    T, R, P, G, OP = C[0], C[1], C[2], C[3], C[9]
    for _ in range(S.CAP):
        n = 0
        for j in range(P[b, S.HAND_N]):
            c = P[b, S.HAND + j]
            nat = T[c, K.C_NATURE]
            if ((nat == K.STRIKE or nat == K.STRIKE_ACTION) and T[c, K.C_COST] <= G[S.BUDGET]
                    and race_ok(C, b, c) and unique_ok(C, b, c)):
                OP[n, O_KIND], OP[n, O_WHERE], OP[n, O_CARD] = OPT_HAND, j, c
                OP[n, O_SCORE] = strike_score(C, b, c)
                n += 1
        pick = pick_option(C, b, n)
        if pick < 0:
            break
        c = take_from_hand(T, P, b, OP[pick, O_WHERE])
        G[S.BUDGET] -= T[c, K.C_COST]
        log(C, b, S.EV_STRIKE, c, T[c, K.C_COST], G[S.BUDGET])
        if T[c, K.C_NATURE] == K.STRIKE:
            k = G[S.S_N]
            G[S.SCARD + k], G[S.SWOUND + k], G[S.SSTATE + k], G[S.SWARD + k] = c, 0, 0, 0
            G[S.SOWNER + k] = b
            G[S.S_N] = k + 1
            note(C, b, c, S.ST_PLAYED)
            respond(C)
        elif T[c, K.C_STAYS] != 0:
            stay(C, b, c)  # to b's bulwark or a character of A's, not discarded
        else:
            played(C, b, c, True)
            discard(P, b, c)
            resolve(C, b, T[c, K.C_AB1], T[c, K.C_ARG1], c)
            if G[S.OVER]:
                return True
    if R[K.R_CURRENCY] == K.CUR_TWILIGHT:
        P[b, S.LEFT] = G[S.BUDGET]
    return False


@njit
def combat(C, k, who):
    """Striker k against defender `who`: a window, then higher strength wins (combat_tie);
    the loser takes 1 wound plus the winner's Damage."""
    T, P, G = C[0], C[2], C[3]
    a = G[S.ACTIVE]
    b = G[S.SOWNER + k]
    G[S.C_STRIKER], G[S.C_DEF], G[S.MIGHT_A], G[S.MIGHT_B] = k, who, 0, 0
    sc = G[S.SCARD + k]
    dc = P[a, S.PC] if who < 0 else P[a, S.PARTY + who]
    if who >= 0:
        note(C, a, dc, S.ST_USED)
    note(C, b, sc, S.ST_USED)
    P[a, S.FACED] += 1
    start_step(C, K.S_COMBAT)
    window(C, K.S_COMBAT)
    if G[S.SSTATE + k] == 0:
        G[S.SSTATE + k] = 1
    who = G[S.C_DEF]  # a slot lower when a party NPC before it was killed in the window
    if G[S.OVER] or side_gone(C):
        # The match or A's turn ended, or a maneuver of the window killed (or cancelled) a
        # side of the combat: it ends with no winner and no wound.
        G[S.C_STRIKER], G[S.C_DEF], G[S.MIGHT_A], G[S.MIGHT_B] = -1, -2, 0, 0
        return
    res = combat_winner(C, k, who, G[S.MIGHT_A], G[S.MIGHT_B])
    log(C, a, S.EV_COMBAT, sc, dc * 1000 + stat(C, a, who, K.C_STR) + G[S.MIGHT_A],
        res * 1000 + T[sc, K.C_STR] + G[S.MIGHT_B])
    if res == 1:
        G[S.WINS] += 1
        P[a, S.DEFEATED] += 1
        if who >= 0:
            note(C, a, dc, S.ST_SUCCEEDED)
        wound_striker(C, k, 1 + damage_of(C, a, who))
    elif res == -1:
        note(C, b, sc, S.ST_SUCCEEDED)
        if who < 0 and card_kw(T, sc, K.CAPTURE) > 0:
            # "If your PC is killed (or captured), you lose the game."
            log(C, a, S.EV_CAPTURE, sc, dc, 0)
            lose(C, a, K.END_CAPTURED)
        else:
            wound(C, a, who, 1 + card_kw(T, sc, K.DAMAGE))
    G[S.C_STRIKER], G[S.C_DEF], G[S.MIGHT_A], G[S.MIGHT_B] = -1, -2, 0, 0


@njit
def encounter_step(C):
    """Window; then the opponents in turn, counterclockwise from A, each pick one of their
    strikers, A a defender for it, and they fight."""
    R, P, G, OP = C[1], C[2], C[3], C[9]
    a = G[S.ACTIVE]
    start_step(C, K.S_ENCOUNTER)
    window(C, K.S_ENCOUNTER)
    o = a
    for _ in range(G[S.S_N]):
        if G[S.OVER]:
            return
        o = next_chooser(C, o)
        k = pick_striker(C, o)
        if k < 0:
            return
        # Who may defend: the PC always; a party NPC unless it has defended (defend_limit).
        n = 0
        for j in range(P[a, S.PARTY_N]):
            if R[K.R_DEFEND] == 0 or P[a, S.PDEF + j] == 0:
                OP[n, 0] = j
                n += 1
        OP[n, 0] = -1
        who = pick_defender(C, a, k, n + 1)
        if who >= 0:
            P[a, S.PDEF + who] = 1
        combat(C, k, who)


@njit
def next_chooser(C, o):
    """The opponent to the right of o (the last chooser, A at first) that has a striker
    waiting; with none waiting, the opponent to the right of o, who has none to pick."""
    G = C[3]
    a = G[S.ACTIVE]
    first = next_seat(C, o, -1)
    if first == a:
        first = next_seat(C, a, -1)
    q = first
    while True:
        for k in range(G[S.S_N]):
            if G[S.SOWNER + k] == q and G[S.SSTATE + k] == 0:
                return q
        q = next_seat(C, q, -1)
        if q == a:
            q = next_seat(C, a, -1)
        if q == first:
            return first


@njit
def settle_step(C):
    """Window; surviving strikers leave (strikers_after); turn effects end; A heals."""
    R, P, G = C[1], C[2], C[3]
    a = G[S.ACTIVE]
    start_step(C, K.S_SETTLE)
    window(C, K.S_SETTLE)
    strikers_leave(C)
    if R[K.R_HEAL] > 0 and G[S.OVER] == 0:
        heal(C, a, -1, R[K.R_HEAL])
        for k in range(P[a, S.PARTY_N]):
            heal(C, a, k, R[K.R_HEAL])


@njit
def strikers_leave(C):
    """Strikers not gone go back to their owners (strikers_after: discard pile or hand)."""
    R, P, G = C[1], C[2], C[3]
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] < 2:
            b = G[S.SOWNER + k]
            if R[K.R_AFTER] == 1:
                push(P, b, S.HAND, S.HAND_N, G[S.SCARD + k])
            else:
                discard(P, b, G[S.SCARD + k])
    G[S.S_N] = 0


@njit
def end_turn(C):
    """Judge the cards played this turn: the turn went A's way when its quest was
    completed, B's way otherwise; turn effects end."""
    P, G = C[2], C[3]
    a = G[S.ACTIVE]
    for i in range(G[S.PLAYED_N]):
        by = G[S.PLAYED_BY + i]
        if (by == a) == (G[S.COMPLETED] == 1):
            note(C, by, G[S.PLAYED + i], S.ST_SUCCEEDED)
    G[S.PLAYED_N] = 0
    G[S.QUEST], G[S.HEX], G[S.AMBUSH], G[S.WINS], G[S.PCW_TURN] = -1, 0, 0, 0, 0
    G[S.COMPLETED], G[S.BUDGET] = 0, 0
    for p in range(C[1][K.R_PLAYERS]):
        P[p, S.PC_WARD], P[p, S.LEFT] = 0, 0
        for k in range(P[p, S.PARTY_N]):
            P[p, S.PWARD + k], P[p, S.PDEF + k] = 0, 0


@njit
def take_turn(C):
    """One turn of the active player: pool refill, then the six steps (or encounter mode)."""
    R, P, G = C[1], C[2], C[3]
    a = G[S.ACTIVE]
    G[S.TURN] += 1
    # Every seat's points (state.py, POINTS_BASE); no array, as this runs every turn.
    pb = P[2, S.POINTS] if P.shape[0] > 2 else 0
    if P.shape[0] > 3:
        pb += S.POINTS_BASE * P[3, S.POINTS]
    log(C, a, S.EV_TURN, -1, P[0, S.POINTS] + S.POINTS_BASE * P[1, S.POINTS], pb)
    if R[K.R_EMODE] == 1:
        encounter_turn(C)
        end_turn(C)
        return
    P[a, S.POOL] = R[K.R_POOL]
    P[a, S.LOC_PLAYED] = 0
    for p in range(R[K.R_PLAYERS]):
        reset_uses(C, p)
    start_of_turn(C)
    if G[S.OVER] == 0:
        draw_step(C)
    if G[S.OVER] == 0:
        boost_step(C)
    if G[S.OVER] == 0 and quest_step(C):
        if G[S.OVER] == 0:
            encounter_step(C)
        if G[S.OVER] == 0:
            score_step(C)
    if G[S.OVER] == 0:
        settle_step(C)
    elif G[S.OVER] == 2:
        strikers_leave(C)  # A is out: its turn ends, the game goes on
    end_turn(C)
