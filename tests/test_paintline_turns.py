"""Paint the Line scenarios through the engine's own turn function: a hand-built state, one
take_turn (or set-up) call, and what the rulebook says, with the numbers written here."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from sim.core.rng import DICE, N_STREAMS, py_below, py_stream_key
from sim.kit.records import read_only
from sim.paintline import deal as Dl
from sim.paintline import engine as E
from sim.paintline import options as O
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import shots as Sh
from sim.paintline import state as S
from sim.paintline.policy import load_policies

from .conftest import FOLDER

# The card numbers the scenarios are worked out from (tests/data/README.md): the
# rulebook's own example plays Order of Lenin at +8.
POOL = T.load_pool(Path(__file__).parent / "data" / "paintline-cards.csv")
# The pool and one more row: a coach without an ability, which no rule ever plays from a
# hand or draws a card with, so it fills hands and bags inertly (a Blank cannot: a draw
# sets it aside).
INERT = len(POOL)
TABLE = np.vstack([POOL.table, np.zeros((1, T.N_CARD_COLUMNS), dtype=np.int64)])
TABLE[INERT, T.C_KIND] = T.COACH
RULES = O.load_rules(FOLDER / "rules.toml")
POLICIES = load_policies(FOLDER / "policies.toml")
GREEDY = POLICIES["greedy"]


def card(name: str) -> int:
    return POOL.lookup(name)


STAMINA, DRIVE = card("Stamina"), card("Drive Shot")


def fresh(bag=(INERT,) * 10):
    """A point about to start: nothing in play, no coaches, a bag of inert cards."""
    P, G, H = S.new_state()
    for p in range(2):
        P[p, S.COACH] = -1
        P[p, S.BAG:S.BAG + len(bag)] = bag
        P[p, S.BAG_LEN] = len(bag)
    Ru.reset_after_point(P, G)
    G[S.FORFEIT] = -1
    return P, G, H


def give(P, p, hand=(), play=(), taps=None, stamina=0, ready=None):
    P[p, S.HAND:S.HAND + len(hand)] = hand
    P[p, S.HAND_N] = len(hand)
    taps = taps or [0] * len(play)
    for i, (c, t) in enumerate(zip(play, taps, strict=True)):
        P[p, S.PLAY + i], P[p, S.TAP + i], P[p, S.ATT + i] = c, t, -1
    P[p, S.PLAY_N] = len(play)
    P[p, S.PP:S.PP + stamina] = STAMINA
    P[p, S.PP_N] = stamina
    P[p, S.PP_READY] = stamina if ready is None else ready


def hand(P, p):
    return sorted(int(c) for c in P[p, S.HAND:S.HAND + P[p, S.HAND_N]])


@functools.cache
def seed_rolling(seat: int, rolls: tuple[int, ...]) -> int:
    """A match seed whose dice stream for `seat` starts with these d20 rolls."""
    for seed in range(1_000_000):
        key = py_stream_key(seed, 0, DICE * 2 + seat)
        if all(py_below(key, i, 20) + 1 == r for i, r in enumerate(rolls)):
            return seed
    raise AssertionError(rolls)


def streams(seed: int):
    keys = np.array([py_stream_key(seed, 0, s) for s in range(N_STREAMS)], dtype=np.uint64)
    return keys, np.zeros(N_STREAMS, dtype=np.int64)


def turn(P, G, H, p, seed=1, prm=GREEDY, rules=RULES, table=TABLE):
    """One take_turn of seat p; returns (landed, the logged shot row, card statistics)."""
    keys, ctr = streams(seed)
    n = table.shape[0]
    seen = np.zeros((2, n), dtype=np.int8)
    cs = np.zeros((2, n, len(Rec.CARD_STATS)), dtype=np.int64)
    log = np.zeros((1, 8, Rec.N_LOG), dtype=np.int32)
    log_n = np.zeros(1, dtype=np.int64)
    # read-only, as run_batch passes them: one compiled signature, not one per caller
    table, vector, prm = (read_only(a) for a in (table, rules.vector, prm))
    landed = E.take_turn(table, table, vector, prm, P, G, H, p, keys, ctr, seen, cs,
                         E.new_work(n), log, log_n, 0)
    row = dict(zip(Rec.LOG_COLUMNS, log[0, 0].tolist(), strict=True)) if log_n[0] else None
    return landed, row, cs


def test_rulebook_critical_example():
    """Index 10, a Drive Shot on its Normal values lands on a natural 20; the index becomes
    12, the return needs 20 + 1 = 21; Order of Lenin (+8) lands on 13, not on 12; then 14."""
    lenin = card("Order of Lenin")
    for lenin_roll, lands in ((13, True), (12, False)):
        P, G, H = fresh()
        give(P, 0, play=[DRIVE], stamina=1)
        give(P, 1, play=[lenin], stamina=4)
        G[S.STEP], G[S.IS_SERVE], G[S.IN_TYPE], G[S.IN_PEN] = 2, 0, T.SPIN, 0
        landed, row, _ = turn(P, G, H, 0, seed=seed_rolling(0, (20,)))
        assert landed and row["card"] == DRIVE and row["advantage"] == 0
        assert (row["need"], row["roll"], row["critical"], row["penalty_out"]) == (10, 20, 1, 1)
        assert (G[S.STEP], G[S.CRIT], G[S.IN_PEN]) == (3, 1, 1)
        landed, row, _ = turn(P, G, H, 1, seed=seed_rolling(1, (lenin_roll,)))
        assert row["card"] == lenin and row["advantage"] == 0 and row["bonus"] == 8
        assert (row["need"], row["roll"], landed) == (21, lenin_roll, lands)
        assert G[S.STEP] == (4 if lands else 3)
        assert Ru.escalation_target(G, RULES.vector) == (14 if lands else 20)


def test_first_serve_to_the_higher_roll_ties_rolled_again():
    for seed in range(200):
        keys, ctr = streams(seed)
        a = [py_below(int(keys[DICE * 2]), i, 20) + 1 for i in range(3)]
        b = [py_below(int(keys[DICE * 2 + 1]), i, 20) + 1 for i in range(3)]
        if a[0] == b[0] and a[1] != b[1]:
            break
    else:
        raise AssertionError("no tie in 200 seeds")
    assert Dl.roll_for_first_serve(keys, ctr) == (0 if a[1] > b[1] else 1)
    assert list(ctr[DICE * 2:DICE * 2 + 2]) == [2, 2]  # the tie was rolled again


def test_stamina_readied_and_one_stamina_a_turn():
    P, G, H = fresh()
    give(P, 0, hand=[STAMINA, STAMINA, STAMINA], stamina=2, ready=0)
    turn(P, G, H, 0)
    assert (P[0, S.PP_N], P[0, S.PP_READY]) == (3, 3)
    assert hand(P, 0) == sorted([STAMINA, STAMINA, INERT])


def test_an_arsenal_hit_pays_again_a_hand_hit_once():
    chop = card("Chop")  # cost 1
    P, G, H = fresh()
    give(P, 0, play=[chop], stamina=3)
    turn(P, G, H, 0)
    assert P[0, S.PP_READY] == 2 and P[0, S.TAP] == 2
    P, G, H = fresh()
    give(P, 0, hand=[chop], stamina=3)
    turn(P, G, H, 0)
    assert P[0, S.PP_READY] == 2 and P[0, S.PLAY_N] == 1 and P[0, S.TAP] == 2
    assert hand(P, 0) == [INERT]


def test_untap_one_step_inside_a_turn():
    P, G, H = fresh()
    give(P, 0, play=[DRIVE, DRIVE], taps=[2, 2])
    turn(P, G, H, 0)
    assert sorted(P[0, S.TAP:S.TAP + 2]) == [1, 2]
    P, G, H = fresh()
    give(P, 0, play=[DRIVE], taps=[1], stamina=1)
    _, row, _ = turn(P, G, H, 0)
    assert row["card"] == DRIVE  # readied at the start of the turn and hit
    two = RULES.replace(untap_steps=2)
    P, G, H = fresh()
    give(P, 0, play=[DRIVE], taps=[2], stamina=1)
    _, row, _ = turn(P, G, H, 0, rules=two)
    assert row["card"] == DRIVE


def listed_hits(P, G):
    """Seat 0's hit options as a random pick meets them, each a tuple as Sh.NO_HIT."""
    hits = np.zeros(Sh.MAX_OPTIONS, dtype=np.int64)
    table, vector, prm = (read_only(a) for a in (TABLE, RULES.vector, GREEDY))
    n, _ = Sh.legal_hits(table, vector, P, G, 0, prm, Pol.WEIGHS_NOTHING, hits,
                         np.zeros(len(TABLE) + 1, dtype=np.int64),
                         np.zeros((2, len(TABLE)), dtype=np.int64))
    return [Sh.unpack_hit(h) for h in hits[:n]]


def test_a_hit_option_packed_in_one_word_comes_back_whole():
    last = S.CAP - 1
    for hit in (Sh.NO_HIT, (Sh.SRC_DEFAULT, -1, -1, 0, last, 9),
                (Sh.SRC_PLAY, last, 70_000, 1, -1, -1),
                (Sh.SRC_HAND, 0, (1 << Sh.HIT_CARD_BITS) - 2, 1, last, 123_456)):
        assert Sh.unpack_hit(Sh.pack_hit(*hit)) == hit


def test_serve_only_cards_never_hit_on_a_return():
    serve = card("Short Serve")
    for is_serve, offered in ((1, True), (0, False)):
        P, G, H = fresh()
        give(P, 0, hand=[serve], play=[serve], stamina=5)
        G[S.IS_SERVE] = is_serve
        hits = listed_hits(P, G)
        # Serve: from play and from hand, Normal and Advantage values each; return: none.
        assert len(hits) == (5 if offered else 1)
        assert [h[2] for h in hits].count(serve) == (4 if offered else 0)


def test_single_use_enhancement_discarded_attach_stays():
    grip, paddle = card("Fresh Grip"), card("Sandpaper Paddle")
    P, G, H = fresh()
    G[S.STEP], G[S.IS_SERVE], G[S.IN_TYPE] = 4, 0, T.DRIVE  # target 14, Drive: Normal values
    give(P, 0, hand=[grip, paddle], play=[DRIVE], stamina=4)
    _, row, cs = turn(P, G, H, 0, seed=seed_rolling(0, (5,)))
    # Drive Shot +1, Fresh Grip +2, Sandpaper Paddle +1 on Normal values.
    assert (row["card"], row["bonus"], row["boost"]) == (DRIVE, 4, grip)
    assert (row["attachment"], row["boosts"], row["boost2"]) == (paddle, 1, -1)
    assert P[0, S.ATT] == paddle and P[0, S.BOOST_N] == 0
    assert list(P[0, S.DISC:S.DISC + P[0, S.DISC_N]]) == [grip]
    assert P[0, S.PP_READY] == 0
    assert cs[0, grip, Rec.CS_PLAYED] == 1 and cs[0, paddle, Rec.CS_PLAYED] == 1


def test_advantage_values_used():
    lob = card("Moon Ball")  # Normal +2/0, Advantage +3/1; Lob beats Spin
    P, G, H = fresh()
    G[S.IS_SERVE], G[S.IN_TYPE] = 0, T.SPIN
    give(P, 0, play=[lob], stamina=1)
    _, row, _ = turn(P, G, H, 0)
    assert (row["advantage"], row["bonus"], row["penalty_out"]) == (1, 3, 1)


def test_hit_chosen_knowing_its_enhancement():
    """Only the Default Shot and Push (+1) are ready; with Sweet Spot (+3) in hand, greedy
    at target 20 takes Push with the boost, which alone lands more often than anything."""
    push, spot = card("Push"), card("Sweet Spot")
    P, G, H = fresh()
    G[S.STEP] = 7
    give(P, 0, hand=[spot], play=[push], stamina=2)
    _, row, _ = turn(P, G, H, 0)
    assert (row["card"], row["boost"], row["bonus"]) == (push, spot, 5)  # serve: Advantage


def test_a_stamina_drawn_by_a_recycle_goes_into_play():
    pol = GREEDY.copy()
    pol[Pol.RECYCLE_ABOVE], pol[Pol.BAG_RESERVE] = 2, 0
    P, G, H = fresh(bag=(INERT, STAMINA, INERT))
    give(P, 0, hand=[INERT, INERT, INERT, INERT])
    turn(P, G, H, 0, prm=pol)
    # Draw an inert card (5 in hand), recycle 2 of them for the Stamina, put it into play.
    assert P[0, S.PP_N] == 1 and hand(P, 0) == [INERT] * 3
    assert P[0, S.DISC_N] == 2


def test_recycle_never_draws_into_a_forfeit():
    pol = GREEDY.copy()
    pol[Pol.RECYCLE_ABOVE], pol[Pol.BAG_RESERVE] = 0, -1
    for rules, drawn in ((RULES, 1), (RULES.replace(deck_out="forfeit_when_empty"), 0)):
        P, G, H = fresh(bag=(INERT, INERT))
        give(P, 0, hand=[INERT, INERT, INERT])
        turn(P, G, H, 0, prm=pol, rules=rules)
        assert G[S.FORFEIT] == -1
        assert P[0, S.BAG_TOP] == 1 + drawn


def test_the_seat_that_decks_out_forfeits():
    P, G, H = fresh(bag=())
    turn(P, G, H, 1)
    assert G[S.FORFEIT] == 1


def test_mute_lasts_exactly_one_shot():
    spin, lob = card("Yankee Spin"), card("Liberty Lob")  # Mute, cost 2; Ignore, cost 2
    first = RULES.replace(tie_rule="first")
    P, G, H = fresh()
    give(P, 0, play=[spin], stamina=2)
    give(P, 1, play=[lob, lob], stamina=4)
    turn(P, G, H, 0, seed=seed_rolling(0, (19,)), rules=first)
    assert G[S.MUTE_COST] == 2
    _, row, _ = turn(P, G, H, 1, seed=seed_rolling(1, (19,)), rules=first)
    # Muted: the Ignore is lost, the need is 8 + the Yankee Spin's Advantage penalty 3.
    assert row["need"] == 11 and G[S.MUTE_COST] == -1
    turn(P, G, H, 0, seed=seed_rolling(0, (19,)), rules=first)  # Default Shot, no Mute
    G[S.IN_PEN] = 3
    _, row, _ = turn(P, G, H, 1, seed=seed_rolling(1, (19,)), rules=first)
    assert row["need"] == 12  # Ignore in force again: target 12, no penalty


def test_reroll_and_clutch_under_replayed_serves():
    oksana, tycho = card("Oksana Svedlovigoba"), card("Tycho Brahe")
    replay = RULES.replace(serve_miss="replay")
    # Reroll: greedy keeps it on a missed serve that costs nothing, spends it on a return.
    for is_serve, saved in ((1, 0), (0, 1)):
        P, G, H = fresh()
        P[0, S.COACH], P[0, S.COACH_USES] = oksana, 1
        G[S.IS_SERVE] = is_serve
        _, row, _ = turn(P, G, H, 0, seed=seed_rolling(0, (3, 15)), rules=replay)
        assert row["saved"] == saved and P[0, S.COACH_USES] == 1 - saved
    # Clutch keeps its automatic trigger, serve or not.
    P, G, H = fresh()
    P[0, S.COACH], P[0, S.COACH_USES] = tycho, 1
    landed, row, _ = turn(P, G, H, 0, seed=seed_rolling(0, (4,)), rules=replay)
    assert landed and row["saved"] == 2 and P[0, S.COACH_USES] == 0


def test_hand_limit_only_at_the_end_of_ones_own_turn():
    P, G, H = fresh()
    give(P, 0, hand=[INERT] * 9)
    give(P, 1, hand=[INERT] * 9)
    turn(P, G, H, 0, prm=POLICIES["default"])
    assert (P[0, S.HAND_N], P[1, S.HAND_N]) == (7, 9)


def test_between_games_everything_is_cleared():
    m_bag = np.array([[INERT] * 20, [INERT] * 20], dtype=np.int32)
    P, G, H = fresh()
    give(P, 0, hand=[DRIVE], play=[DRIVE], taps=[2], stamina=3)
    P[0, S.COACH], P[0, S.COACH_USES] = card("Oksana Svedlovigoba"), 0
    P[1, S.COACH] = card("Tycho Brahe")
    P[0, S.DISC_N] = 4
    keys, ctr = streams(1)
    seen = np.zeros((2, TABLE.shape[0]), dtype=np.int8)
    prms = np.stack([POLICIES["default"], POLICIES["default"]])
    E.set_up_game(TABLE, RULES.vector, prms, m_bag, np.array([20, 20]), P, G, keys, ctr, seen)
    for p in range(2):
        assert (P[p, S.HAND_N], P[p, S.PLAY_N], P[p, S.PP_N], P[p, S.DISC_N]) == (7, 0, 0, 0)
        assert P[p, S.BAG_LEN] - P[p, S.BAG_TOP] == 13
        assert P[p, S.COACH_USES] == 1


def test_mulligan_limit():
    always = POLICIES["greedy"].copy()
    always[Pol.MULL_BELOW] = 99  # always wants another hand
    bags = np.array([[INERT] * 30, [INERT] * 30], dtype=np.int32)
    for limit in (0, 1, 3):
        P, G, H = fresh()
        keys, ctr = streams(1)
        seen = np.zeros((2, TABLE.shape[0]), dtype=np.int8)
        rules = RULES.replace(mulligans=limit).vector
        E.set_up_game(TABLE, rules, np.stack([always, always]), bags, np.array([30, 30]), P,
                      G, keys, ctr, seen)
        assert P[0, S.MULLIGANS] == limit and P[1, S.MULLIGANS] == limit
        assert P[0, S.HAND_N] == 7


def test_several_boosts_on_one_shot():
    """Serving at target 20 with a Drive Shot (Advantage +2/2) and two Fresh Grips (+2) and a
    Sweet Spot (+3/1) in hand, greedy takes all three: +9, penalty 3, each named in the log."""
    grip, spot = card("Fresh Grip"), card("Sweet Spot")
    P, G, H = fresh()
    G[S.STEP] = 7
    give(P, 0, hand=[grip, spot, grip], play=[DRIVE], stamina=5)
    _, row, _ = turn(P, G, H, 0)
    assert (row["card"], row["advantage"], row["attachment"]) == (DRIVE, 1, -1)
    assert (row["bonus"], row["penalty_out"], row["boosts"]) == (9, 3, 3)
    assert sorted([row["boost"], row["boost2"], row["boost3"]]) == sorted([grip, grip, spot])
    assert row["boost4"] == -1
    assert P[0, S.BOOST_N] == 0 and P[0, S.DISC_N] == 3 and P[0, S.PP_READY] == 0
