"""Encounter's rulebook sentences (docs/encounter-rules.md, "Rule index") read from whole
matches that both engines play alike (`same_as`): the turn sequence, every combat, scoring
and the end, read from the logs against what each sentence says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.encounter import codes as K
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter.batch import load_matchup
from sim.kit.game import get

from .encounter_both import edited
from .test_encounter_decisions import (
    FOLDER,
    twin,
)
from .test_encounter_scenarios import Both

GAME = get("encounter")
rule = pytest.mark.rule


# -- Whole matches, both engines --------------------------------------------------------------
PAIRS = [("careful", "careful"), ("aggressive", "random")]


def both_logs(m, n=16, seed=7):
    rec = GAME.run_batch(m, n, seed, 0, n)
    assert rec.same_as(GAME.reference_batch(m, n, seed, 0, n))
    assert (rec.log_n < rec.log.shape[1]).all()
    return rec, [[tuple(int(x) for x in r) for r in rec.log[i, : rec.log_n[i]]]
                 for i in range(n)]


def turns(log):
    """Per turn: (active seat, its log rows)."""
    out = []
    for r in log:
        if r[2] == S.EV_TURN:
            out.append((r[1], []))
        elif out:
            out[-1][1].append(r)
    return out


STEP_OF = {S.EV_PLAY: 2, S.EV_QUEST: 3, S.EV_BUDGET: 3, S.EV_STRIKE: 3, S.EV_COMBAT: 4,
           S.EV_OBJECTIVE: 5, S.EV_SCORE: 5, S.EV_FAIL: 5, S.EV_REVEAL: 5, S.EV_LOOT: 5}


@rule("ENC-35", "ENC-36", "ENC-59")
@pytest.mark.parametrize("pair", PAIRS)
def test_every_turn_follows_the_turn_sequence(pair):
    """In every turn of both engines' matches: the draw step's discards, then the boost
    step's plays, the quest and strike cards, the combats, then the score step's rows;
    never a row of an earlier step after a later one."""
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", *pair)
    _, logs = both_logs(m)
    steps_seen = set()
    for log in logs:
        for _, rows_ in turns(log):
            steps = [1 if r[2] == S.EV_DISCARD and r[4] == 0 else STEP_OF.get(r[2])
                     for r in rows_]
            steps = [s for s in steps if s is not None]
            assert steps == sorted(steps), steps
            steps_seen |= set(steps)
    assert steps_seen == {2, 3, 4, 5} or steps_seen == {1, 2, 3, 4, 5}


@rule("ENC-10", "ENC-11", "ENC-74", "ENC-78", "ENC-81", "ENC-82", "ENC-83", "ENC-84")
@pytest.mark.parametrize("pair", PAIRS)
def test_every_striker_is_encountered_once_and_the_stronger_wins(pair):
    """From both engines' logs: in a turn that goes on to its score step, every strike NPC
    sent fights exactly once unless cancelled (never twice); in each combat the higher
    strength wins (a tie goes to one side, never neither: combat_tie intelligence); the
    loser takes 1 wound plus the striker's Damage when the striker wins (Ward may stop
    some), at least 1 when the defender wins."""
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", *pair)
    T = m.pool.table
    _, logs = both_logs(m)
    fought = won = lost = 0
    for log in logs:
        for a, rows_ in turns(log):
            sent = [r[3] for r in rows_ if r[2] == S.EV_STRIKE and T[r[3], K.C_NATURE] ==
                    K.STRIKE]
            cancelled = [r[3] for r in rows_ if r[2] == S.EV_CANCEL]
            combats = [(i, r) for i, r in enumerate(rows_) if r[2] == S.EV_COMBAT]
            for c in set(sent):
                n = sum(1 for _, r in combats if r[3] == c)
                assert n <= sent.count(c) - cancelled.count(c)
                if not any(r[2] == S.EV_END for r in rows_):
                    assert n == sent.count(c) - cancelled.count(c)
            for i, r in combats:
                d, res = r[4] % 1000, r[5] // 1000
                s = r[5] - res * 1000
                if d != s:
                    assert res == (1 if d > s else -1), r
                else:
                    assert res in (1, -1)
                wound = next(w for w in rows_[i + 1:] if w[2] in (S.EV_WOUND, S.EV_CAPTURE))
                if res == -1:
                    lost += 1
                    assert wound[1] == a and wound[3] == r[4] // 1000
                    assert wound[4] + wound[5] == 1 + Ru.card_kw(T, r[3], K.DAMAGE)
                else:
                    won += 1
                    assert wound[1] != a and wound[3] == r[3] and wound[4] + wound[5] >= 1
                fought += 1
    assert fought > 50 and won > 10 and lost > 10


@rule("ENC-1", "ENC-7", "ENC-8", "ENC-15", "ENC-85", "ENC-88", "ENC-89", "ENC-90", "ENC-91")
@pytest.mark.parametrize("pair", PAIRS)
def test_quests_score_reveal_loot_and_end_the_match_as_written(pair):
    """From both engines' logs: a quest whose objectives all hold scores its points (the
    running total in the row), else fails with no points and no loot; a completed quest
    reveals loot cards equal to its loot points (or what the loot deck holds: played ones
    leave it), and plays only those revealed; the player who reaches 30 wins at once (no
    loot after) and the other has fewer; a match ended by a killed PC ends on that PC's
    kill row; the records' points are the logs'."""
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", *pair)
    T = m.pool.table
    rec, logs = both_logs(m)
    cols = list(GAME.schema_for(m).match_columns)
    completed = failed = 0
    for i, log in enumerate(logs):
        points, loot_left = [0, 0], [len(d.loot) for d in m.decks]
        for a, rows_ in turns(log):
            objectives = [r for r in rows_ if r[2] == S.EV_OBJECTIVE]
            if not objectives:
                assert not any(r[2] in (S.EV_SCORE, S.EV_REVEAL, S.EV_LOOT) for r in rows_)
                continue
            q = objectives[0][3]
            want = [T[q, c] * 1000 + T[q, c + 1] for c in (K.C_OBJ1, K.C_OBJ2) if T[q, c]]
            assert [r[4] for r in objectives] == want
            after = rows_[rows_.index(objectives[-1]) + 1:]
            if not all(r[5] for r in objectives):
                failed += 1
                assert after[0][2] == S.EV_FAIL and after[0][3] == q
                assert not any(r[2] in (S.EV_SCORE, S.EV_REVEAL, S.EV_LOOT) for r in after)
                continue
            completed += 1
            points[a] += T[q, K.C_QPOINTS]
            assert after[0][2:] == (S.EV_SCORE, q, T[q, K.C_QPOINTS], points[a])
            revealed = [r[3] for r in after if r[2] == S.EV_REVEAL]
            played = [r[3] for r in after if r[2] == S.EV_LOOT]
            if points[a] >= 30:
                assert after[1][2:4] == (S.EV_END, -1) and after[1][4] == K.END_POINTS
                assert revealed == [] and after[1][1] == a
                continue
            assert len(revealed) == min(T[q, K.C_LPOINTS], loot_left[a])
            assert all(played.count(c) <= revealed.count(c) for c in played)
            loot_left[a] -= len(played)
        row = rec.matches[i]
        assert [row[cols.index(f"points_{x}")] for x in "ab"] == points
        winner, end = row[cols.index("winner")], row[cols.index("end")]
        if end == K.END_POINTS:
            assert points[winner] >= 30 > points[1 - winner]
        if end == K.END_KILLED:
            loser = 1 - winner
            assert log[-2][2:4] == (S.EV_KILL, m.decks[loser].pc) and log[-2][1] == loser
    assert completed > 20 and failed > 5


@rule("ENC-31")
def test_no_decision_reads_a_loot_deck():
    """The Orc's loot deck in reverse order (so shuffled into another order): until the
    Orc's first loot card is revealed, both players decide and the match runs exactly as
    before, in both engines; at the reveal the cards differ."""
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful")
    orc = m.decks[0]
    flipped = replace(m, decks=(replace(orc, loot=orc.loot[::-1]), m.decks[1]))
    _, before = both_logs(m, 10, 5)
    _, after = both_logs(flipped, 10, 5)
    differ = 0
    for x, y in zip(before, after, strict=True):
        first = next((i for i, r in enumerate(x) if r[2] == S.EV_REVEAL and r[1] == 0),
                     len(x))
        assert x[:first] == y[:first]
        differ += first < len(x) and x[first:] != y[first:]
    assert differ > 0


@rule("ENC-93")
@pytest.mark.parametrize("after", ["discard", "hand"])
def test_the_settle_step_ends_the_turn(after):
    """Grey holds Sniper Shot made a settle-step instant (Wound 1) and 1 in its pool; Troll
    fought and survived, Goblin was killed. In the settle window Grey wounds the Orc's PC;
    then the surviving Troll leaves play, to Grey's discard pile (strikers_after = discard)
    or hand (hand), and no striker is left."""
    b = Both(rules={"strikers_after": after})
    edited(b, "Sniper Shot", K.C_STEP, K.S_SETTLE, "step")
    b.hand(1, "Sniper Shot")
    b.pool(1, 1)
    b.strikers("Troll", "Goblin")
    b.G[S.SSTATE], b.g.strikers[0].state = 1, 1
    b.G[S.SSTATE + 1], b.g.strikers[1].state = 2, 2
    b.discard(1, "Goblin")
    b.step(twin(Tu.settle_step), lambda g: g.settle_step())
    assert int(b.P[0, S.PC_WOUNDS]) == b.g.seats[0].pc.wounds == 1
    hand, pile, _, _ = b.same(1)
    assert (hand, pile) == ((["Troll"], ["Goblin", "Sniper Shot"]) if after == "hand"
                            else ([], ["Goblin", "Sniper Shot", "Troll"]))
    assert int(b.G[S.S_N]) == len(b.g.strikers) == 0


@rule("ENC-32", "ENC-34")
def test_equal_intelligence_at_set_up_is_settled_by_a_die():
    """"The owner of the PC with the highest intelligence decides who goes first": two Orc
    PCs of equal intelligence tie, and the set-up's die (not the seat order) names the
    chooser, whose EV_FIRST row opens each match: over 60 matches of the mirror, in both
    engines, each seat chooses in some (about half: at least 15 of 60 each)."""
    m = load_matchup(FOLDER, "orc-warband", "orc-warband", "careful", "careful")
    _, logs = both_logs(m, n=60, seed=5)
    choosers = [next(r[1] for r in log if r[2] == S.EV_FIRST) for log in logs]
    assert min(choosers.count(0), choosers.count(1)) >= 15
