"""The rules that decide nothing: zones, stats, wounds, combat and objectives, one compiled
function each. Every function takes the context tuple C = (T, R, P, G, X, CS, KY, M, L, O):
card table, rule vector, players, game row, per-card scratch, card stats, stream keys,
policy parameters, log and option scratch."""

from __future__ import annotations

from sim.core.jit import njit
from sim.core.rng import below
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.hand import hand_left, to_hand
from sim.encounter.stats import count_stats, party_strength_of, pc_stats_of, stat_of

X_USES, X_DRAWN = 0, 1


@njit
def rand(C, purpose, seat, n):
    """Next number in 0..n-1 from the seat's stream of that purpose."""
    G, KY = C[3], C[6]
    s = purpose * C[1][K.R_PLAYERS] + seat
    v = below(KY[s], G[S.CTR + s], n)
    G[S.CTR + s] += 1
    return v


@njit
def log(C, seat, ev, card, a, b):
    """One row of the match log (dropped past the log's length)."""
    G, L = C[3], C[8]
    n = G[S.LOG_N]
    if n < L.shape[0]:
        L[n, 0], L[n, 1], L[n, 2] = G[S.TURN], seat, ev
        L[n, 3], L[n, 4], L[n, 5] = card, a, b
        G[S.LOG_N] = n + 1


@njit
def note(C, p, card, stat):
    """Count a card statistic of seat p."""
    C[5][p, card, stat] += 1


@njit
def set_aside(C, p, card, loot):
    """A Blank met on top of a deck leaves the game (the filler takes no hand slot, no zone
    and no draw); loot: 1 when it was met revealing loot."""
    C[2][p, S.ASIDE] += 1
    log(C, p, S.EV_ASIDE, card, loot, 0)


@njit
def draw_card(C, p):
    """Top card of p's draw deck into its hand, a Blank on top set aside and the next card
    drawn in its place; -1 when no card is left."""
    T, P = C[0], C[2]
    while P[p, S.DECK_N] > 0:
        card = P[p, S.DECK + P[p, S.DECK_HEAD]]
        P[p, S.DECK_HEAD] = (P[p, S.DECK_HEAD] + 1) % S.CAP
        P[p, S.DECK_N] -= 1
        if T[card, K.C_KIND] == K.BLANK:
            set_aside(C, p, card, 0)
            continue
        to_hand(T, P, p, card)
        C[4][p, card, X_DRAWN] = 1
        log(C, p, S.EV_DRAW, card, 0, 0)
        return card
    return -1


@njit
def to_bottom(P, p, card):
    """A card under p's draw deck."""
    P[p, S.DECK + (P[p, S.DECK_HEAD] + P[p, S.DECK_N]) % S.CAP] = card
    P[p, S.DECK_N] += 1


@njit
def loot_top(C, p):
    """Top card of p's loot deck, revealed, a Blank on top set aside and the next card
    revealed in its place; -1 when no card is left."""
    T, P = C[0], C[2]
    while P[p, S.LOOT_N] > 0:
        card = P[p, S.LOOTD + P[p, S.LOOT_HEAD]]
        P[p, S.LOOT_HEAD] = (P[p, S.LOOT_HEAD] + 1) % S.CAP
        P[p, S.LOOT_N] -= 1
        if T[card, K.C_KIND] != K.BLANK:
            return card
        set_aside(C, p, card, 1)
    return -1


@njit
def loot_bottom(P, p, card):
    P[p, S.LOOTD + (P[p, S.LOOT_HEAD] + P[p, S.LOOT_N]) % S.CAP] = card
    P[p, S.LOOT_N] += 1


@njit
def take_from_hand(T, P, p, i):
    """Remove hand position i (order kept) and return its card."""
    card = P[p, S.HAND + i]
    for j in range(i, P[p, S.HAND_N] - 1):
        P[p, S.HAND + j] = P[p, S.HAND + j + 1]
    P[p, S.HAND_N] -= 1
    hand_left(T, P, p, i, card)
    return card


@njit
def discard(P, p, card):
    P[p, S.DISC + P[p, S.DISC_N]] = card
    P[p, S.DISC_N] += 1


@njit
def push(P, p, block, count, card):
    """Append a card to one of p's zones (block start, count slot)."""
    P[p, block + P[p, count]] = card
    P[p, count] += 1


@njit(inline="always")
def card_kw(T, card, kw):
    """The argument a card gives a keyword (0 when it has none)."""
    v = 0
    if T[card, K.C_AB1] == kw:
        v += T[card, K.C_ARG1]
    if T[card, K.C_AB2] == kw:
        v += T[card, K.C_ARG2]
    return v


@njit(inline="always")
def stat(C, p, who, col):
    """Current value of a party character's stat (who: -1 the PC, k party slot k): base plus
    modifiers in force, floor 0."""
    return stat_of(C[0], C[2], C[3], p, who, col)


@njit
def damage_of(C, p, who):
    """Damage keyword of a party character: its own card, plus what it bears."""
    T, P = C[0], C[2]
    if lacks(P, p, S.KW_BIT + K.DAMAGE):
        return 0
    if who < 0:
        v = card_kw(T, P[p, S.PC], K.DAMAGE)
        for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N)):
            for i in range(P[p, cnt]):
                v += card_kw(T, P[p, blk + i], K.DAMAGE)
    else:
        v = card_kw(T, P[p, S.PARTY + who], K.DAMAGE)
    for i in range(P[p, S.ATT_N]):
        if P[p, S.ATT_ON + i] == who:
            v += card_kw(T, P[p, S.ATT + i], K.DAMAGE)
    return v


@njit
def card_may(T, card):
    """The steps and keywords one card brings, as bits of P[p, MAY]. Actions other than
    bulwarks and character actions never stay in play (instants and strike actions are
    discarded once resolved)."""
    step, kind, nat = T[card, K.C_STEP], T[card, K.C_KIND], T[card, K.C_NATURE]
    if kind == K.ACTION and nat == K.INSTANT:
        bits = 1 << step
    elif kind == K.ACTION and nat != K.BULWARK and nat != K.CHARACTER:
        bits = 0
    else:
        bits = 1 << (S.PLAY_BIT + step)
    return bits | (1 << (S.KW_BIT + T[card, K.C_AB1])) | (1 << (S.KW_BIT + T[card, K.C_AB2]))


@njit
def lacks(P, p, bit):
    """Whether none of p's cards can bring this bit (known only once set-up filled MAY)."""
    may = P[p, S.MAY]
    return may & 1 == 1 and (may >> bit) & 1 == 0


@njit(inline="always")
def player_kw(C, p, kw):
    """A player-wide static keyword (Budget, Sneak) summed over p's cards in play (kept as
    they enter or leave play: stats.count_stats)."""
    P = C[2]
    if P[p, S.STATS_OK] == 0:
        count_stats(C[0], P, p)
    return P[p, S.BUDGET_SUM] if kw == K.BUDGET else P[p, S.SNEAK_SUM]


@njit(inline="always")
def copies_in_play(C, p, card):
    """Copies of a card seat p has in play (strikers included)."""
    return copies_in_play_of(C[2], C[3], p, card)


@njit
def copies_in_play_of(P, G, p, card):
    """`copies_in_play` on the arrays it reads, compiled once and called (`stat_of` says why)."""
    n = 1 if P[p, S.PC] == card else 0
    if P[p, S.LOC] == card:
        n += 1
    for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N),
                     (S.BULW, S.BULW_N), (S.PARTY, S.PARTY_N), (S.ATT, S.ATT_N)):
        for i in range(P[p, cnt]):
            if P[p, blk + i] == card:
                n += 1
    for i in range(G[S.S_N]):
        if G[S.SCARD + i] == card and G[S.SSTATE + i] < 2 and G[S.SOWNER + i] == p:
            n += 1
    return n


@njit(inline="always")
def unique_ok(C, p, card):
    """A unique card may enter play only while no copy is in play (unique_scope): a card
    that is not unique, most of them, is answered here without a call."""
    return C[0][card, K.C_UNIQUE] == 0 or unique_ok_of(C[0], C[1], C[2], C[3], p, card)


@njit
def unique_ok_of(T, R, P, G, p, card):
    """`unique_ok` of a unique card, on the arrays it reads, compiled once and called
    (`stat_of` says why)."""
    if copies_in_play_of(P, G, p, card) > 0:
        return False
    if R[K.R_UNIQUE] == 0:
        return True
    for q in range(R[K.R_PLAYERS]):
        if q != p and P[q, S.OUT] == 0 and copies_in_play_of(P, G, q, card) > 0:
            return False
    return True


@njit(inline="always")
def race_ok(C, p, card):
    T, P = C[0], C[2]
    req = T[card, K.C_REQUIRES]
    return req == 0 or req == T[P[p, S.PC], K.C_RACE]


@njit
def game_over(C, winner, end):
    G = C[3]
    if G[S.OVER] == 0:
        G[S.OVER], G[S.WINNER], G[S.END] = 1, winner, end
        log(C, winner, S.EV_END, -1, end, 0)


@njit
def next_seat(C, p, step):
    """The next seat still in the game from p: step 1 clockwise (to the left), -1
    counterclockwise (to the right)."""
    n, P = C[1][K.R_PLAYERS], C[2]
    q = wrap(p + step, n)
    while P[q, S.OUT] != 0 and q != p:
        q = wrap(q + step, n)
    return q


@njit(inline="always")
def wrap(q, n):
    """A seat one step past either end of the table, back on it: no division (next_seat runs
    several times a turn, and n is known only at run time)."""
    return q - n if q >= n else (q + n if q < 0 else q)


@njit
def lose(C, p, end):
    """p loses (its PC killed, or its deck out): with two players the other wins; at a larger
    table p is out, its turn ends at once (OVER 2 until the next turn), and the last player
    left wins."""
    R, P, G = C[1], C[2], C[3]
    if R[K.R_PLAYERS] == 2:
        game_over(C, 1 - p, end)
        return
    P[p, S.OUT] = 1
    left = next_seat(C, p, 1)
    if next_seat(C, left, 1) == left:
        game_over(C, left, end)
    elif G[S.OVER] == 0:
        G[S.OVER] = 2


@njit
def defender_strength(C, who):
    G = C[3]
    return stat(C, G[S.ACTIVE], who, K.C_STR) + G[S.MIGHT_A]


@njit
def striker_strength(C, k):
    T, G = C[0], C[3]
    return T[G[S.SCARD + k], K.C_STR] + G[S.MIGHT_B]


@njit(inline="always")
def combat_winner(C, k, who, might_a, might_b):
    """1 when the defender would win the combat of striker k and defender `who` with these
    Mights, -1 when the striker would, 0 when nobody wins (combat_tie = none)."""
    return combat_winner_of(C[0], C[1], C[2], C[3], k, who, might_a, might_b)


@njit
def combat_winner_of(T, R, P, G, k, who, might_a, might_b):
    """`combat_winner` on the arrays it reads, compiled once and called (`stat_of` says why)."""
    a = stat_of(T, P, G, G[S.ACTIVE], who, K.C_STR) + might_a
    b = T[G[S.SCARD + k], K.C_STR] + might_b
    if a != b:
        return 1 if a > b else -1
    tie = R[K.R_TIE]
    if tie == K.TIE_INT:
        ia = stat_of(T, P, G, G[S.ACTIVE], who, K.C_INT)
        ib = T[G[S.SCARD + k], K.C_INT]
        return 1 if ia > ib else -1
    if tie == K.TIE_DEFENDER:
        return 1
    if tie == K.TIE_NONE:
        return 0
    return -1


@njit(inline="always")
def objective_holds(C, p, obj, arg):
    """One objective, read now with the modifiers in force."""
    return objective_holds_of(C[0], C[2], C[3], p, obj, arg)


@njit
def objective_holds_of(T, P, G, p, obj, arg):
    """`objective_holds` on the arrays it reads, compiled once and called (`stat_of` says why)."""
    stats = pc_stats_of(T, P, G, p) if stat_objective(obj) else (0, 0, 0)
    return objective_holds_given_of(T, P, G, p, obj, arg, stats)


@njit(inline="always")
def stat_objective(obj):
    """INT, DEX or STR n: the PC's intelligence, dexterity or strength is at least n."""
    return obj == K.O_INT or obj == K.O_DEX or obj == K.O_STR


@njit(inline="always")
def objective_stat(stats, obj):
    """Of the PC's intelligence, dexterity and strength (`pc_stats`), the one a stat
    objective reads."""
    return stats[0] if obj == K.O_INT else (stats[1] if obj == K.O_DEX else stats[2])


@njit(inline="always")
def pc_stats(C, p):
    """The PC's intelligence, dexterity and strength now, in one pass (`stat` of each)."""
    return pc_stats_of(C[0], C[2], C[3], p)


@njit(inline="always")
def objective_holds_given(C, p, obj, arg, stats):
    """`objective_holds`, the PC's stats read before (`pc_stats`): for a caller that reads
    several objectives at once."""
    return objective_holds_given_of(C[0], C[2], C[3], p, obj, arg, stats)


@njit
def objective_holds_given_of(T, P, G, p, obj, arg, stats):
    """`objective_holds_given` on the arrays it reads, compiled once and called."""
    if stat_objective(obj):
        return objective_stat(stats, obj) >= arg
    if obj == K.O_UNHURT:
        return G[S.PCW_TURN] <= arg
    if obj == K.O_PARTY:
        return P[p, S.PARTY_N] >= arg
    if obj == K.O_PLACE:
        return P[p, S.LOC] >= 0 and T[P[p, S.LOC], K.C_TERRAIN] == arg
    if obj == K.O_DEFEAT:
        return G[S.WINS] >= arg
    return True


@njit
def party_strength(C, p):
    """Summed strength of p's party characters (the careful policy's yardstick)."""
    return party_strength_of(C[0], C[2], C[3], p)


@njit
def reset_uses(C, p):
    """Every ability of p's unused again: with none used since the last reset, nothing to
    clear (the scan of every card of the pool ran at every turn, and most turns use none)."""
    P, X = C[2], C[4]
    if P[p, S.USED] == 0:
        return
    P[p, S.USED] = 0
    for c in range(X.shape[1]):
        X[p, c, X_USES] = 0


@njit
def start_step(C, step):
    """Under ability_limit = step, abilities come back at each step."""
    if C[1][K.R_ABILITY] == 1:
        for p in range(C[1][K.R_PLAYERS]):
            reset_uses(C, p)
    C[3][S.STEP] = step
