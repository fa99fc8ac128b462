"""Scenario tests of Paint the Line: one test per rule, on hand-built states and small batches."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core.rng import N_STREAMS, SHUFFLE, stream_key
from sim.paintline import abilities as A
from sim.paintline import deal as Dl
from sim.paintline import keywords as K
from sim.paintline import options as O
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import shots as Sh
from sim.paintline import state as S
from sim.paintline.batch import load_matchup, run_batch
from sim.paintline.policy import load_policies

REPO = Path(__file__).parents[1]
FOLDER = REPO / "decks" / "paintline"
POOL = T.load_pool(FOLDER / "cards.csv")
TABLE = POOL.table
RULES = O.load_rules(FOLDER / "rules.toml")
R = RULES.vector
POLICIES = load_policies(FOLDER / "policies.toml")
GREEDY = POLICIES["greedy"]
TYPES = (T.NO_TYPE, T.LOB, T.SPIN, T.DRIVE)
# (shot type, incoming type) pairs in which the shot beats the incoming one.
BEATS = {(T.LOB, T.SPIN), (T.SPIN, T.DRIVE), (T.DRIVE, T.LOB),
         (T.LOB, T.NO_TYPE), (T.SPIN, T.NO_TYPE), (T.DRIVE, T.NO_TYPE)}


def card(name: str) -> int:
    index = POOL.lookup(name)
    assert index is not None, name
    return index


# Hand-built states ----------------------------------------------------------------------


def fresh():
    """Zeroed P, G, H as at the start of a point: nothing in play, no Mute, no forfeit."""
    P, G, H = S.new_state()
    for p in range(2):
        P[p, S.COACH] = -1
    Ru.reset_after_point(P, G)
    G[S.FORFEIT] = -1
    return P, G, H


def fill_bag(P, p, cards):
    for i, c in enumerate(cards):
        P[p, S.BAG + i] = c
    P[p, S.BAG_TOP] = 0
    P[p, S.BAG_LEN] = len(cards)
    P[p, S.BLANKS] = sum(TABLE[c, T.C_KIND] == T.BLANK for c in cards)


def fill_hand(P, p, cards):
    for i, c in enumerate(cards):
        P[p, S.HAND + i] = c
    P[p, S.HAND_N] = len(cards)


def put_in_play(P, p, cards, taps):
    for i, (c, t) in enumerate(zip(cards, taps, strict=True)):
        P[p, S.PLAY + i] = c
        P[p, S.TAP + i] = t
        P[p, S.ATT + i] = -1
    P[p, S.PLAY_N] = len(cards)


def hand(P, p):
    return [int(c) for c in P[p, S.HAND:S.HAND + P[p, S.HAND_N]]]


def streams(seed=11, game=0):
    keys = np.array([stream_key(seed, game, s) for s in range(N_STREAMS)], dtype=np.uint64)
    return keys, np.zeros(N_STREAMS, dtype=np.int64)


def positions(*pos):
    out = np.zeros(S.CAP, dtype=np.int64)
    out[: len(pos)] = pos
    return out


def seen_array():
    return np.zeros((2, len(POOL)), dtype=np.int8)


# Small batches, shared between tests ------------------------------------------------------


@functools.cache
def batch(policy="greedy", n=200, seed=7, n_log=0, options=()):
    """Matches of the two sample decks, both seats on one policy, some rule options changed."""
    rules = RULES.replace(**{k: list(v) if isinstance(v, tuple) else v for k, v in options})
    matchup = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", policy, rules=rules)
    return run_batch(matchup, n, seed, n_log=n_log)


def shot_log(rec) -> pd.DataFrame:
    """Every logged match's shots in one frame, with a `match` column."""
    frames = [rec.log_frame(k).assign(match=k) for k in range(len(rec.log_n))]
    return pd.concat(frames, ignore_index=True)


def first_shots(log: pd.DataFrame) -> pd.DataFrame:
    """The first logged shot of every point."""
    return log.groupby(["match", "game", "point"], sort=False).head(1)


def ability(c: int, code: int) -> int:
    """Plain-Python reading of a card's keyword argument (-1 when it lacks it)."""
    if c < 0:
        return -1
    for ab, arg in ((T.C_AB1, T.C_ARG1), (T.C_AB2, T.C_ARG2)):
        if TABLE[c, ab] == code:
            return int(TABLE[c, arg])
    return -1


def value_set(c: int, adv: int) -> tuple[int, int]:
    """Plain-Python reading of a card's (bonus, penalty) in its Normal or Advantage values."""
    if adv:
        return int(TABLE[c, T.C_ABONUS]), int(TABLE[c, T.C_APEN])
    return int(TABLE[c, T.C_NBONUS]), int(TABLE[c, T.C_NPEN])


BOOST_COLUMNS = ("boost", "boost2", "boost3", "boost4")


def expected_shots(log: pd.DataFrame, rules: O.Rules) -> pd.DataFrame:
    """What each logged shot should have rolled with, needed and done, worked out from the
    rules text and the card table. Only the log's identities are read: which card in which
    value set, its attachment and boosts, the natural roll and a coach's Clutch (a decision
    of its own); the rally's state is carried from one expected shot to the next."""
    vec = rules.vector
    ladder = [int(v) for v in vec[O.R_LADDER:O.R_LADDER + vec[O.R_LADDER_LEN]]]
    top = len(ladder) - 1
    tie_hitter = rules.values["tie_rule"] == "hitter"
    assert (log.boosts <= len(BOOST_COLUMNS)).all()  # every boost is named by the log
    out = []
    prev_key, landed_before = None, False
    for r in log.itertuples(index=False):
        key = (r.match, r.game, r.point)
        serve = key != prev_key or not landed_before
        if serve:
            step0, crit0, pen_in, type_in, mute_in = 0, False, 0, T.NO_TYPE, -1
        c = r.card
        bonus = pen = 0
        for e in (c, r.attachment, *[getattr(r, b) for b in BOOST_COLUMNS[: r.boosts]]):
            if e >= 0:
                b, p = value_set(e, r.advantage)
                bonus, pen = bonus + b, pen + p
        cost = TABLE[c, T.C_COST] if c >= 0 else 0
        active = c >= 0 and (mute_in < 0 or cost > mute_in or (cost == mute_in and tie_hitter))
        ignore = active and ability(c, K.IGNORE) >= 0
        surge = max(ability(c, K.SURGE), 0) if active else 0
        crit_lo = max(20 - ability(c, K.CRIT), 2) if active and ability(c, K.CRIT) >= 0 else 20
        target = ladder[step0] if not crit0 else rules.values["crit_target"]
        need = target + (0 if ignore else pen_in)
        lands = r.roll != 1 and (r.roll >= crit_lo or r.roll + bonus >= need)
        landed = lands or r.saved == 2  # Clutch: the coach lands a near miss
        critical = landed and r.roll >= crit_lo and r.roll != 1
        step = min(step0 + 1 + surge, top) if landed else step0
        own_type = TABLE[c, T.C_TYPE] if c >= 0 else T.NO_TYPE
        out.append({
            "serve": serve, "bonus": bonus, "penalty_out": pen, "need": need,
            "crit_lo": crit_lo, "landed": lands, "critical": critical, "step": step,
            "adv_due": c >= 0 and (serve or (own_type, type_in) in BEATS),
            "muted": c >= 0 and not active,
        })
        # What the next shot of the rally faces, if this one landed.
        step0, crit0, pen_in, type_in = step, critical, pen, own_type
        mute_in = cost if active and ability(c, K.MUTE) >= 0 else -1
        prev_key, landed_before = key, landed
    return pd.DataFrame(out, index=log.index)


# The shot (the rulebook's critical example is played in tests/test_paintline_turns.py) ------


def test_advantage_table():
    for shot in TYPES:
        for incoming in TYPES:
            want = (shot, incoming) in BEATS
            assert Ru.beats(shot, incoming) == want, (shot, incoming)
            assert Ru.has_advantage(shot, incoming, 0) == want, (shot, incoming)
            # On the serve every card has Advantage; the Default Shot never does.
            assert Ru.has_advantage(shot, incoming, 1) == (shot != T.NO_TYPE), (shot, incoming)
    assert sum(Ru.beats(a, b) for a in TYPES for b in TYPES) == 6


def test_advantage_types_one_bit_a_type():
    # Against a Drive only a Spin has Advantage (Spin beats Drive); on the serve every
    # type but the Default Shot's; against the Default Shot every type does.
    assert Ru.advantage_types(T.DRIVE, 0) == 1 << T.SPIN
    assert Ru.advantage_types(T.LOB, 1) == (1 << T.LOB) | (1 << T.SPIN) | (1 << T.DRIVE)
    assert Ru.advantage_types(T.NO_TYPE, 0) == (1 << T.LOB) | (1 << T.SPIN) | (1 << T.DRIVE)


def test_advantage_only_when_the_rules_grant_it():
    for policy in ("greedy", "random"):
        log = shot_log(batch(policy, n=100, n_log=100))
        exp = expected_shots(log, RULES)
        assert (log.advantage[~exp.adv_due] == 0).all(), policy
        assert (log.advantage[exp.adv_due] == 1).sum() > 100, policy

def test_advantage_values_only_when_due_and_normal_values_any_time():
    """The rulebook: Normal values can be used at any time; Advantage values only when the
    card serves or beats the incoming type (the policy picks between them)."""
    log = shot_log(batch("random", n=100, n_log=100))
    exp = expected_shots(log, RULES)
    cards = log.card >= 0
    assert (log.advantage[cards & ~exp.adv_due] == 0).all()
    due = log[cards & exp.adv_due]
    assert len(due) > 100
    assert 0 < due.advantage.mean() < 1  # both sets are chosen when Advantage is due
    assert (log.advantage[~cards] == 0).all()


def test_natural_one_misses_natural_twenty_lands():
    for crit_lo in (2, 18, 20):
        assert not Ru.shot_lands(1, 999, 1, crit_lo)
        assert Ru.shot_lands(20, 0, 999, crit_lo)
    assert Ru.shot_lands(2, 4, 6, 20) and not Ru.shot_lands(2, 3, 6, 20)
    assert not Ru.shot_lands(19, 0, 999, 20)
    # Crit 2 (Eagle Eye): 18 and up are criticals, 17 is not.
    P, G, H = fresh()
    G[S.IS_SERVE] = 0
    Sh.prepare_shot(TABLE, R, G, card("Eagle Eye"), 0, -1, H)
    assert H[S.H_CRIT_LO] == 18
    assert [Ru.shot_lands(r, 0, 999, H[S.H_CRIT_LO]) for r in (17, 18, 19, 20)] == [
        False, True, True, True]
    assert Ru.hit_chance(0, 999, H[S.H_CRIT_LO]) == pytest.approx(3 / 20)


def test_hit_chance_counts_the_faces():
    for bonus in range(0, 13):
        for need in range(-2, 36):
            for crit_lo in (2, 5, 15, 18, 19, 20):
                faces = sum(Ru.shot_lands(r, bonus, need, crit_lo) for r in range(1, 21))
                assert Ru.hit_chance(bonus, need, crit_lo) == pytest.approx(faces / 20), (
                    bonus, need, crit_lo)
    assert Ru.hit_chance(0, 999, 20) == pytest.approx(0.05)
    assert Ru.hit_chance(999, 0, 20) == pytest.approx(0.95)


def test_escalation_index():
    P, G, H = fresh()
    seen = []
    for _ in range(10):
        Ru.climb_the_index(G, R, 0)
        seen.append(int(Ru.escalation_target(G, R)))
    assert seen == [8, 10, 12, 14, 16, 18, 20, 20, 20, 20]
    assert G[S.TOP] == 7
    # Surge 1 (Red Star Smash): two steps from the first value.
    P, G, H = fresh()
    G[S.IS_SERVE] = 0
    Sh.prepare_shot(TABLE, R, G, card("Red Star Smash"), 0, -1, H)
    assert H[S.H_SURGE] == 1
    Ru.climb_the_index(G, R, H[S.H_SURGE])
    assert (G[S.STEP], G[S.TOP], Ru.escalation_target(G, R)) == (2, 2, 10)
    G[S.STEP] = 6
    Ru.climb_the_index(G, R, H[S.H_SURGE])
    assert G[S.STEP] == 7
    # A custom ladder.
    R2 = RULES.replace(escalation=[5, 9, 13, 17]).vector
    assert R2[O.R_LADDER_LEN] == 4
    P, G, H = fresh()
    assert Ru.escalation_target(G, R2) == 5
    targets = []
    for _ in range(5):
        Ru.climb_the_index(G, R2, 0)
        targets.append(int(Ru.escalation_target(G, R2)))
    assert targets == [9, 13, 17, 17, 17]
    G[S.STEP] = 1
    Ru.climb_the_index(G, R2, 5)
    assert G[S.STEP] == 3


@pytest.mark.parametrize("policy, options", [
    ("greedy", ()),
    ("random", ()),
    ("greedy", (("escalation", (4, 7, 11, 15, 17, 19)), ("crit_target", 18))),
    ("greedy", (("tie_rule", "first"),)),
    ("pressure", ()),
], ids=["greedy", "random", "custom-ladder", "tie-first", "pressure"])
def test_shot_log_follows_the_rules(policy, options):
    """Every logged shot's bonus, penalty put on the opponent, need, landing, critical and
    index step, recomputed from the card table and the rules."""
    rules = RULES.replace(**{k: list(v) if isinstance(v, tuple) else v for k, v in options})
    log = shot_log(batch(policy, n=150, n_log=150, options=options))
    exp = expected_shots(log, rules)
    assert len(log) > 3000
    assert (log.bonus == exp.bonus).all()
    assert (log.penalty_out == exp.penalty_out).all()
    assert (log.need == exp.need).all()
    plain = log.saved == 0
    assert (log.landed[plain] == exp.landed[plain].astype(int)).all()
    assert (log.critical == exp.critical.astype(int)).all()
    assert (log.step == exp.step).all()
    assert (log.need[exp.serve] == rules.values["escalation"][0]).all()
    # The options in play were exercised: attachments, boosts (several on one shot), criticals,
    # Crit 2 cards, Surge, the Mute conflict.
    if policy != "random":
        assert (log.attachment >= 0).sum() > 500 and (log.boosts >= 1).sum() > 200
        # A random pick rarely pays for a Crit 2 card (cost 3): a handful of such shots in
        # 150 matches, each landing a critical on 18 or 19 one time in ten.
        assert ((exp.crit_lo == 18) & (log.roll.isin([18, 19])) & (log.landed == 1)).sum() > 0
    else:
        assert (exp.crit_lo == 18).sum() > 0
    if policy == "pressure":
        assert (log.boosts == 2).sum() > 0  # this batch has a shot boosted twice
    assert log.critical.sum() > 50
    if rules.values["tie_rule"] == "first":
        assert exp.muted.sum() > 0  # Ignore lost to a Mute of equal cost


def test_mute_conflict_changes_the_need():
    """Mute (cost 2) against Ignore (cost 2): under "hitter" the Ignore holds, under "first"
    the incoming penalty counts."""
    mute_cards = {card("Yankee Spin"), card("Iron Curtain")}
    ignore_cards = {card("Liberty Lob"), card("Hammer Stroke")}
    for tie in ("hitter", "first"):
        opts = (("tie_rule", tie),)
        log = shot_log(batch("greedy", n=300, n_log=300, options=opts))
        exp_prev = expected_shots(log, RULES.replace(tie_rule=tie)).shift()
        prev, before = log.shift(), log.shift(2)
        hit = (log.card.isin(ignore_cards) & prev.card.isin(mute_cards) & (prev.landed == 1)
               & (prev.match == log.match) & (prev.point == log.point))
        # The Mute card must itself be in force: not hit against another Mute.
        hit &= ~(before.card.isin(mute_cards) & (before.point == log.point)
                 & (before.match == log.match))
        assert hit.sum() > 20
        step_target = [RULES.values["escalation"][int(s)] if not c else 20
                       for s, c in zip(exp_prev.step[hit], exp_prev.critical[hit], strict=True)]
        gap = [n - t for n, t in zip(log.need[hit], step_target, strict=True)]
        if tie == "hitter":
            assert gap == [0] * len(gap)
        else:
            assert gap == exp_prev.penalty_out[hit].astype(int).tolist() and min(gap) >= 2


# Points, serves, games, matches ---------------------------------------------------------


def point_winners(log: pd.DataFrame) -> pd.Series:
    """The seat that won each logged point: the one that did not make the last shot."""
    last = log.groupby(["match", "game", "point"], sort=False).tail(1)
    assert (last.landed == 0).all()
    return 1 - last.set_index("match").seat


def test_missed_serve_scores_for_the_receiver():
    rec = batch("default", n=200, n_log=200)
    log = shot_log(rec)
    frame = rec.matches_frame()
    done = frame.index[frame.end == 0]
    log = log[log.match.isin(done)]
    firsts = first_shots(log)
    missed = firsts[firsts.landed == 0]
    assert len(missed) > 300
    # A missed serve is the whole point, and the next point is served by the receiver.
    sizes = log.groupby(["match", "game", "point"]).size()
    assert (sizes.loc[list(zip(missed.match, missed.game, missed.point, strict=True))] == 1).all()
    nxt = firsts.groupby("match").shift(-1)
    follow = nxt.loc[missed.index].dropna()
    assert len(follow) > 200
    assert (follow.seat != missed.seat.loc[follow.index]).all()
    # Scores rebuilt with "a missed serve is the receiver's point" match the records.
    winners = point_winners(log)
    by_match = winners.groupby(level=0).agg(["sum", "size"])
    assert (by_match["sum"] == frame.score_b[by_match.index]).all()
    assert (by_match["size"] - by_match["sum"] == frame.score_a[by_match.index]).all()
    assert (frame.points == frame.score_a + frame.score_b).all()


def test_missed_serve_replayed():
    rec = batch("default", n=100, n_log=100, options=(("serve_miss", "replay"),))
    log = shot_log(rec)
    exp = expected_shots(log, RULES)
    missed = log[exp.serve & (log.landed == 0)]
    assert len(missed) > 150
    nxt = log.shift(-1).loc[missed.index]
    same = nxt.match == missed.match
    assert same.sum() > 150
    assert (nxt.seat[same] == missed.seat[same]).all()
    assert (nxt.point[same] == missed.point[same]).all()
    assert (nxt.turn[same] == missed.turn[same] + 1).all()
    # No point is lost on the serve: every finished point ends on a missed return.
    frame = rec.matches_frame()
    done = log.match.isin(frame.index[frame.end == 0])
    last = log[done].groupby(["match", "game", "point"]).tail(1)
    assert not exp.serve.loc[last.index].any()


def test_back_to_back_turns_and_alternating_serve():
    log = shot_log(batch("greedy", n=200, n_log=200))
    firsts = first_shots(log)
    prev_first = firsts.groupby(["match", "game"]).seat.shift()
    known = prev_first.notna()
    assert known.sum() > 2000
    assert (firsts.seat[known] != prev_first[known]).all()
    # Within a point the seats alternate shot by shot.
    prev = log.shift()
    same_point = (prev.match == log.match) & (prev.point == log.point)
    assert (log.seat[same_point] != prev.seat[same_point]).all()
    # A point lost by the next server: that seat takes two turns in a row.
    new_point = (prev.match == log.match) & (prev.point + 1 == log.point)
    twice = new_point & (prev.seat == log.seat)
    assert twice.sum() > 500
    assert (log.turn[twice] == prev.turn[twice] + 1).all()
    assert (log.turn[new_point] == prev.turn[new_point] + 1).all()


def test_reset_after_point():
    P, G, H = fresh()
    drive = card("Drive Shot")
    for p in range(2):
        put_in_play(P, p, [drive, drive, drive], [2, 1, 2])
        P[p, S.PP_N] = 4
        P[p, S.PP_READY] = 1
        P[p, S.SCORE] = 3 + p
    P[0, S.COACH] = card("Tycho Brahe")
    P[0, S.COACH_USES] = 0
    G[S.STEP], G[S.TOP], G[S.CRIT], G[S.IN_PEN] = 5, 6, 1, 3
    G[S.IN_TYPE], G[S.MUTE_COST], G[S.IS_SERVE], G[S.LANDED] = T.SPIN, 2, 0, 4
    Ru.reset_after_point(P, G)
    for p in range(2):
        assert P[p, S.PLAY_N] == 3
        assert list(P[p, S.TAP:S.TAP + 3]) == [0, 0, 0]
        assert P[p, S.PP_READY] == P[p, S.PP_N] == 4
        assert P[p, S.SCORE] == 3 + p
    assert (P[0, S.COACH], P[0, S.COACH_USES]) == (card("Tycho Brahe"), 0)
    assert (G[S.STEP], G[S.TOP], G[S.CRIT], G[S.IN_PEN]) == (0, 0, 0, 0)
    assert (G[S.IN_TYPE], G[S.MUTE_COST], G[S.IS_SERVE], G[S.LANDED]) == (T.NO_TYPE, -1, 1, 0)


def test_deck_out():
    long = batch("greedy", n=200, options=(("points_to_win", 999),)).matches_frame()
    assert (long.end == 1).all()
    assert (long.deckouts == 1).all()
    assert (long.cut_len >= 0).all()
    early = batch("greedy", n=200, options=(("points_to_win", 999),
                                            ("deck_out", "forfeit_when_empty"))).matches_frame()
    assert (early.end == 1).all()
    assert (early.turns <= long.turns).all()
    assert early.turns.mean() < long.turns.mean() - 1
    # Under the default rules a sample game rarely decks out.
    assert batch("greedy", n=200).matches_frame().deckouts.sum() < 10


@pytest.mark.parametrize("win_by", [1, 2])
def test_points_to_win_and_win_by(win_by):
    frame = batch("greedy", n=300, options=(("points_to_win", 5),
                                            ("win_by", win_by))).matches_frame()
    done = frame[frame.end == 0]
    assert len(done) > 250
    won = np.where(done.winner == 0, done.score_a, done.score_b)
    lost = np.where(done.winner == 0, done.score_b, done.score_a)
    assert (won >= 5).all()
    assert (won - lost >= win_by).all()
    if win_by == 1:
        assert (won == 5).all() and (lost <= 4).all()
    else:
        # Past 5 a game ends as soon as the lead is two.
        assert (won - lost)[won > 5].tolist() == [2] * int((won > 5).sum())
        assert (won > 5).sum() > 10


def test_match_of_three_games():
    rec = batch("greedy", n=200, n_log=50, options=(("match_games", 3),))
    frame = rec.matches_frame()
    games = np.where(frame.winner == 0, frame.games_a, frame.games_b)
    other = np.where(frame.winner == 0, frame.games_b, frame.games_a)
    assert (games == 2).all()
    assert (other <= 1).all()
    assert (other == 1).sum() > 30
    # The opening serve alternates game to game.
    log = shot_log(rec)
    opening = log.groupby(["match", "game"]).head(1)
    first = frame.first_server[opening.match].to_numpy()
    assert (opening.seat.to_numpy() == (first + opening.game.to_numpy()) % 2).all()
    assert (opening.game == 2).sum() > 10


# Cards and zones ------------------------------------------------------------------------


def test_hand_limit():
    for policy in ("random", "default"):
        for limit in (3, 7):
            rec = batch(policy, n=100, n_log=20, options=(("hand_limit", limit),))
            frame = rec.matches_frame()
            assert len(shot_log(rec)) > 500
            dead = int(rec.card_stats[:, :, Rec.CS_DEAD].sum())
            completed = int(frame.turns.sum() - frame.deckouts.sum())
            if policy == "default":
                # Never playing a card, the hand is always full at the end of a turn.
                assert dead == limit * completed
    low = batch("random", n=100, n_log=20, options=(("hand_limit", 3),))
    high = batch("random", n=100, n_log=20, options=(("hand_limit", 7),))
    assert low.card_stats[:, :, Rec.CS_DEAD].sum() < high.card_stats[:, :, Rec.CS_DEAD].sum()


def test_discard_to_hand_limit():
    P, G, H = fresh()
    fill_hand(P, 0, list(range(10, 19)))
    Ru.discard_to_hand_limit(P, 0, positions(2, 7), 2)
    assert hand(P, 0) == [10, 11, 13, 14, 15, 16, 18]
    assert P[0, S.DISC_N] == 2
    assert sorted(P[0, S.DISC:S.DISC + 2]) == [12, 17]


def test_recycle():
    P, G, H = fresh()
    seen = seen_array()
    fill_bag(P, 0, [20, 21, 22, 23, 24])
    fill_hand(P, 0, [3, 4, 5, 6, 7, 8])
    assert Ru.recycle(TABLE, P, G, R, 0, positions(0, 3, 1, 5), 4, 2, seen)
    assert hand(P, 0) == [5, 7, 20, 21]
    assert P[0, S.DISC_N] == 4
    assert sorted(P[0, S.DISC:S.DISC + 4]) == [3, 4, 6, 8]
    assert P[0, S.BAG_TOP] == 2 and seen[0, 20] == 1 and seen[0, 21] == 1
    # recycle_ratio 3: three cards out, and the one draw is optional: none taken.
    R3 = RULES.replace(recycle_ratio=3).vector
    assert Ru.recycle(TABLE, P, G, R3, 0, positions(3, 0, 1), 3, 0, seen)
    assert hand(P, 0) == [20]
    assert P[0, S.DISC_N] == 7 and P[0, S.BAG_TOP] == 2
    # Drawing from an empty bag while recycling forfeits.
    P, G, H = fresh()
    fill_bag(P, 0, [20])
    fill_hand(P, 0, [3, 4, 5, 6])
    assert not Ru.recycle(TABLE, P, G, R, 0, positions(0, 1, 2, 3), 4, 2, seen)
    assert G[S.FORFEIT] == 0


def test_recycle_from_play():
    """Positions count the hand first, then the shot cards in play, then the Power Plant;
    a shot card takes its attachment with it."""
    drive, lob, paddle, stamina = (card("Drive Shot"), card("Moon Ball"),
                                   card("Sandpaper Paddle"), card("Stamina"))
    P, G, H = fresh()
    seen = seen_array()
    fill_bag(P, 0, [20, 21])
    fill_hand(P, 0, [3, 4])
    put_in_play(P, 0, [drive, lob], [2, 0])
    P[0, S.ATT + 0] = paddle
    P[0, S.PP + 0], P[0, S.PP + 1], P[0, S.PP_N], P[0, S.PP_READY] = stamina, stamina, 2, 2
    # Hand position 1, play slot 0 (position 2), Power Plant stamina 1 (position 5).
    assert Ru.recycle(TABLE, P, G, R, 0, positions(2, 5, 1, 4), 4, 1, seen)
    assert hand(P, 0) == [3, 20]
    assert P[0, S.PLAY_N] == 1 and P[0, S.PLAY] == lob and P[0, S.ATT] == -1
    assert (P[0, S.PP_N], P[0, S.PP_READY]) == (0, 0)
    assert sorted(P[0, S.DISC:S.DISC + P[0, S.DISC_N]]) == sorted(
        [4, drive, paddle, stamina, stamina])


def test_mulligan():
    P, G, H = fresh()
    cards = [2] * 5 + list(range(4, 19))
    fill_bag(P, 0, cards)
    Dl.draw_opening_hand(TABLE, P, R, 0)
    assert hand(P, 0) == cards[:7] and P[0, S.BAG_TOP] == 7
    keys, ctr = streams()
    Dl.take_mulligan(P, 0, keys, ctr)
    assert P[0, S.HAND_N] == 0 and P[0, S.BAG_TOP] == 0 and P[0, S.BAG_LEN] == 20
    bag = [int(c) for c in P[0, S.BAG:S.BAG + 20]]
    assert sorted(bag) == sorted(cards)
    assert bag != cards
    assert ctr[SHUFFLE * 2] == 19
    Dl.draw_opening_hand(TABLE, P, R, 0)
    assert hand(P, 0) == bag[:7]


def test_mute_against_ignore():
    lob = card("Liberty Lob")  # Ignore, cost 2
    assert TABLE[lob, T.C_COST] == 2
    cases = {-1: (True, True), 1: (True, True), 2: (True, False), 3: (False, False)}
    for mute_cost, (hitter, first) in cases.items():
        assert A.abilities_in_force(TABLE, lob, mute_cost, 0) == hitter, mute_cost
        assert A.abilities_in_force(TABLE, lob, mute_cost, 1) == first, mute_cost
    # Through prepare_shot: a muted Ignore pays the incoming penalty.
    for tie, mute_cost, ignored in (("hitter", 2, True), ("first", 2, False),
                                    ("hitter", 3, False), ("first", 1, True)):
        R2 = RULES.replace(tie_rule=tie).vector
        P, G, H = fresh()
        G[S.IS_SERVE], G[S.STEP], G[S.IN_PEN], G[S.MUTE_COST] = 0, 2, 3, mute_cost
        Sh.prepare_shot(TABLE, R2, G, lob, 0, -1, H)
        assert H[S.H_IGNORE] == int(ignored) and H[S.H_ACTIVE] == int(ignored)
        assert Sh.shot_need(R2, G, H) == (10 if ignored else 13)
    # A Mute card's own Mute is its cost.
    P, G, H = fresh()
    Sh.prepare_shot(TABLE, R, G, card("Yankee Spin"), 1, -1, H)
    assert H[S.H_MUTE] == 2


def test_coach_abilities():
    tycho, oksana = card("Tycho Brahe"), card("Oksana Svedlovigoba")
    assert A.coach_uses(TABLE, tycho) == 1
    assert A.coach_uses(TABLE, oksana) == 1
    assert A.coach_uses(TABLE, -1) == 0
    P, G, H = fresh()
    P[0, S.COACH], P[0, S.COACH_USES] = tycho, 1
    assert not A.clutch(TABLE, P, 0, 10, 2, 16)  # misses by 4
    assert P[0, S.COACH_USES] == 1
    assert not A.clutch(TABLE, P, 0, 1, 20, 15)  # a natural 1 is never saved
    assert A.clutch(TABLE, P, 0, 10, 2, 15)  # misses by 3
    assert P[0, S.COACH_USES] == 0
    assert not A.clutch(TABLE, P, 0, 14, 0, 15)  # used up
    keys, ctr = streams()
    assert not A.reroll(TABLE, P, 0, GREEDY, 1, keys, ctr)
    # Reroll n: n uses a game.
    table3 = POOL.with_values({(oksana, T.C_ARG1): 3}).table
    assert A.coach_uses(table3, oksana) == 3
    P[1, S.COACH], P[1, S.COACH_USES] = oksana, 3
    # The policy decides: greedy keeps a reroll when a miss costs nothing.
    assert not A.reroll(table3, P, 1, GREEDY, 0, keys, ctr)
    assert [A.reroll(table3, P, 1, GREEDY, 1, keys, ctr) for _ in range(4)] == [
        True, True, True, False]
    P[1, S.COACH_USES] = 1
    assert not A.clutch(table3, P, 1, 14, 0, 15)
    assert P[1, S.COACH_USES] == 1
    # In play: Tycho (seat 0) saves the first miss by 3 or less of each game, Oksana (seat 1)
    # rerolls the first miss of each game.
    log = shot_log(batch("greedy", n=200, n_log=200))
    assert set(log.seat[log.saved == 2]) == {0} and set(log.seat[log.saved == 1]) == {1}
    short = log.need - log.roll - log.bonus
    clutch = log[log.saved == 2]
    assert (clutch.landed == 1).all() and (clutch.roll > 1).all()
    assert short[clutch.index].between(1, 3).all()
    close = (log.seat == 0) & (log.roll > 1) & short.between(1, 3) & (log.roll < 20)
    close &= (log.landed == 0) | (log.saved == 2)
    firsts = log[close].groupby(["match", "game"]).head(1)
    assert (firsts.saved == 2).all() and len(firsts) > 150
    assert log[close].groupby(["match", "game"]).saved.apply(lambda s: (s == 2).sum()).max() == 1
    misses = log[(log.seat == 1) & ((log.landed == 0) | (log.saved == 1))]
    first_miss = misses.groupby(["match", "game"]).head(1)
    assert (first_miss.saved == 1).all() and len(first_miss) > 150
    assert (misses.groupby(["match", "game"]).saved.sum() == 1).all()


def on_hit(table, c, slot, P, G, seen, prm=None):
    keys, ctr = streams()
    scratch = np.zeros(S.CAP), np.zeros(S.CAP, dtype=np.int64)
    return A.on_hit(table, c, slot, P, G, R, 0, seen, GREEDY if prm is None else prm, keys,
                    ctr, *scratch)


def test_draw_and_ready_abilities():
    seen = seen_array()
    home_run = card("Home Run Drive")  # Draw 1
    P, G, H = fresh()
    fill_bag(P, 0, [20, 21, 22, 23])
    assert on_hit(TABLE, home_run, 0, P, G, seen)
    assert hand(P, 0) == [20] and P[0, S.BAG_TOP] == 1 and seen[0, 20] == 1
    table3 = POOL.with_values({(home_run, T.C_ARG1): 3}).table
    assert on_hit(table3, home_run, 0, P, G, seen)
    assert hand(P, 0) == [20, 21, 22, 23]
    assert not on_hit(TABLE, home_run, 0, P, G, seen)  # empty bag: forfeit
    assert G[S.FORFEIT] == 0
    # Ready 2 (Second Wind): greedy readies a single-tapped Drive Shot (worth 16 a step)
    # before half-readying a double-tapped one (8 a step).
    wind, drive = card("Second Wind"), card("Drive Shot")
    P, G, H = fresh()
    put_in_play(P, 0, [wind, drive, drive, drive], [2, 2, 1, 2])
    assert on_hit(TABLE, wind, 0, P, G, seen)
    assert list(P[0, S.TAP:S.TAP + 4]) == [2, 1, 0, 2]
    table1 = POOL.with_values({(wind, T.C_ARG1): 1}).table
    put_in_play(P, 0, [wind, drive, drive, drive], [2, 2, 1, 2])
    assert on_hit(table1, wind, 0, P, G, seen)
    assert list(P[0, S.TAP:S.TAP + 4]) == [2, 2, 0, 2]
    table5 = POOL.with_values({(wind, T.C_ARG1): 5}).table
    assert on_hit(table5, wind, 0, P, G, seen)
    assert list(P[0, S.TAP:S.TAP + 4]) == [2, 0, 0, 0]
    # A card without an on-hit keyword changes nothing.
    put_in_play(P, 0, [drive, drive], [2, 2])
    assert on_hit(TABLE, drive, 0, P, G, seen)
    assert list(P[0, S.TAP:S.TAP + 2]) == [2, 2] and P[0, S.HAND_N] == 0


def test_default_policy_never_plays_a_card():
    rec = batch("default", n=200, n_log=200)
    log = shot_log(rec)
    assert len(log) > 5000
    assert (log.card == -1).all()
    assert (log.boost == -1).all() and (log.boosts == 0).all() and (log.attachment == -1).all()
    assert (log.bonus == 0).all() and (log.advantage == 0).all()
    assert (log.penalty_out == 0).all()
    stats = rec.card_stats
    for stat in (Rec.CS_PLAYED, Rec.CS_HIT, Rec.CS_LANDED):
        assert stats[:, :, stat].sum() == 0
    frame = rec.matches_frame()
    assert (frame.mulligans_a == 0).all() and (frame.mulligans_b == 0).all()
    assert Rec.N_LOG == len(log.columns) - 1
