"""Payne's invariants over random matches, from the rules: cards conserved in both engines,
lit counts 0..4 within the cap of changed arrows, and the records agreeing with the log."""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sim.kit.game import get
from sim.kit.records import BatchRecords, read_only
from sim.payne import engine as E
from sim.payne import pool as T
from sim.payne import state as S
from sim.payne.reference import Match
from sim.payne.schema import SCHEMA

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
COLS = list(SCHEMA.match_columns)
# log columns
ROUND, KIND, ATT, OFF_CARD, DEF_CARD, SIDE, OFF_MASK, DEF_MASK, AUTO, SUCCESS = range(10)
RULE_SETS = [{}, {"defense_timing": "defender_window", "blind_feedback": "told"},
             {"deck_out": "lose", "attack_draw": 5, "points_to_win": 40, "max_changed": 1},
             {"opening_hand": 3, "geometry": "mirrored", "both_unfielded": "none_score"}]


def matchup(a, b, rules):
    return GAME.load_matchup(FOLDER, "offense", "defense", a, b, rules, [])


def kernel_final_states(m, n, seed):
    """Each match of a batch played alone by the kernel, yielding its player rows at the end."""
    # as run_batch passes them (read-only): another array type would be another compile
    table, views, R, prms, decks, lens, in_deck, battlers, n_battlers = (
        read_only(a) for a in m.arrays())
    rec = BatchRecords.allocate(SCHEMA, n, len(table), 0, 0)
    cs = np.zeros((2, len(table), len(SCHEMA.all_card_stats)), dtype=np.int64)
    work = E.new_work(len(table))
    for i in range(n):
        E.play_piece(i, i + 1, table, views, R, prms, decks, lens, in_deck, battlers,
                     n_battlers, seed, 0, rec.matches, rec.hists["round_points"], cs, rec.log,
                     rec.log_n, work)
        yield work[0], rec.matches[i]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_cards_are_conserved_in_the_kernel(rules):
    """At a match's end every card of a deck is undrawn, in hand, in play, played and waiting
    for its battle, or discarded; Blanks met are set aside. The deck zone is the list,
    shuffled."""
    for a, b in (("random", "prior"), ("trained", "random")):
        m = matchup(a, b, rules)
        table = m.pool.table
        for P, row in kernel_final_states(m, 25, 3):
            for p in range(2):
                listed = Counter(m.decks[p].cards())
                n = int(P[p, S.DECK_LEN])
                assert Counter(P[p, S.DECK:S.DECK + n].tolist()) == listed
                taken = [int(c) for c in P[p, S.DECK:S.DECK + P[p, S.DECK_TOP]]
                         if table[c, T.C_KIND] != T.BLANK]
                hand = P[p, S.HAND:S.HAND + P[p, S.HAND_N]].tolist()
                assert not Counter(hand) - Counter(taken)  # the hand holds drawn cards
                in_play = int(P[p, S.OFF] >= 0) + int(P[p, S.DEF] >= 0)
                assert len(taken) == len(hand) + P[p, S.DISC_N] + in_play \
                    + P[p, S.PEND_OFF] + P[p, S.PEND_DEF], (a, b, rules, p, row)


@pytest.mark.parametrize("rules", RULE_SETS[:3])
def test_cards_are_conserved_in_the_reference_after_every_round(rules):
    m = matchup("random", "prior", rules)
    for i in range(6):
        g = Match(m, 4, i)
        for p in range(2):
            g.set_up(p)
        while True:
            for p, seat in enumerate(g.seats):
                zones = seat.deck + seat.hand + seat.discard + seat.pending[0] \
                    + seat.pending[1] + [c for c in (seat.off, seat.dfn) if c >= 0]
                assert Counter(zones) == Counter(m.decks[p].cards()), (i, g.round, p)
                assert seat.set_aside == 0
            if g.over or g.round >= g.R["max_rounds"]:
                break
            g.play_round()


@pytest.mark.parametrize("max_changed", [0, 1, 3])
def test_lit_counts_stay_0_to_4_and_within_the_cap(max_changed):
    """Every battler flips with 0..4 arrows lit, and at most max_changed of its arrows
    unlike its print; with cards that change arrows in play, some battles show changes."""
    changed = 0
    for a, b in (("random", "random"), ("prior", "trained")):
        m = matchup(a, b, {"max_changed": max_changed})
        rec = GAME.run_batch(m, 60, 6, 0, 60)
        table = m.pool.table
        for i in range(60):
            for row in rec.log[i, : rec.log_n[i]]:
                if row[KIND] != S.LOG_BATTLE:
                    continue
                for card, mask in ((row[OFF_CARD], row[OFF_MASK]), (row[DEF_CARD], row[DEF_MASK])):
                    assert 0 <= mask <= 15 and 0 <= bin(mask).count("1") <= 4
                    unlike = bin(int(mask) ^ int(table[card, T.C_ARROWS])).count("1")
                    assert unlike <= max_changed
                    changed += unlike > 0
    assert (changed > 0) == (max_changed > 0)


def test_records_agree_with_the_log():
    """Each battle gives one point to its attacker (success) or its defender; AutoWin
    battles name no side; rounds_0/1/2 and the round_points histogram count the fully
    played rounds by deck A's (each seat's) points."""
    for a, b in (("random", "plain"), ("prior", "random"), ("trained", "prior")):
        m = matchup(a, b, {})
        n = 80
        rec = GAME.run_batch(m, n, 8, 0, n)
        for i in range(n):
            log = rec.log[i, : rec.log_n[i]]
            match = dict(zip(COLS, rec.matches[i].tolist(), strict=True))
            battles = log[log[:, KIND] == S.LOG_BATTLE]
            for p, seat in enumerate("ab"):
                mine = battles[battles[:, ATT] == p]
                assert match[f"attacks_{seat}"] == len(mine)
                assert match[f"attack_wins_{seat}"] == mine[:, SUCCESS].sum()
            assert match["autowins"] == (battles[:, AUTO] > 0).sum()
            assert ((battles[:, SIDE] == -1) == (battles[:, AUTO] > 0)).all()
            assert match["rounds"] == len(np.unique(log[:, ROUND]))
            points = {}  # fully played fielded round -> [points of A, points of B]
            for row in battles:
                won = row[ATT] if row[SUCCESS] else 1 - row[ATT]
                points.setdefault(int(row[ROUND]), [0, 0])[won] += 1
            if match["end"] != S.END_ROUND_CAP and log[-1, KIND] == S.LOG_BATTLE:
                points.pop(int(log[-1, ROUND]))  # the round the match ended in
            by_a = Counter(pa for pa, _ in points.values())
            assert [match[f"rounds_{k}"] for k in range(3)] == [by_a[k] for k in range(3)]
            for p in range(2):
                seat_hist = Counter(pts[p] for pts in points.values())
                assert rec.hists["round_points"][i, p].tolist() == [seat_hist[k] for k in
                                                                     range(3)]


@pytest.mark.parametrize("rules", [{"opening_hand": 3},
                                   {"opening_hand": 3, "both_unfielded": "none_score",
                                    "unfielded_points": 3, "points_to_win": 15}])
def test_scores_are_battles_won_plus_unfielded_awards(rules):
    """Each seat's points: the battles it won (attacking with success, or defending) plus
    unfielded_points for each round only the other could not field, and for each round
    neither could under both_score."""
    m = matchup("random", "prior", rules)
    pts, both = m.rules.values["unfielded_points"], m.rules.values["both_unfielded"]
    rec = GAME.run_batch(m, 150, 9, 0, 150)
    unfielded_rounds = 0
    for i in range(150):
        log = rec.log[i, : rec.log_n[i]]
        score = [0, 0]
        for row in log:
            if row[KIND] == S.LOG_BATTLE:
                score[row[ATT] if row[SUCCESS] else 1 - row[ATT]] += 1
                continue
            unfielded_rounds += 1
            can = [row[OFF_MASK], row[DEF_MASK]]  # an unfielded row: who could field
            for p in range(2):
                if can[p] and not can[1 - p]:
                    score[p] += pts
                elif not any(can) and both == "both_score":
                    score[p] += pts
        match = dict(zip(COLS, rec.matches[i].tolist(), strict=True))
        assert [match["points_a"], match["points_b"]] == score
        if match["winner"] >= 0:
            assert score[match["winner"]] >= m.rules.values["points_to_win"]
    assert unfielded_rounds > 0
