"""High Card's rules, each sentence of its rules doc (`docs/highcard-rules.md`) played in both
engines with the numbers written from the sentence. `cardlab new-game` copies this file for
the new game, which then rewrites it with its own rules."""

import dataclasses
import shutil

import numpy as np
import pytest

from sim.highcard import decks as D
from sim.highcard.game import GAME

from .conftest import ROOT, cardlab

FOLDER = ROOT / "decks" / "highcard"


def matchup(a: dict[str, int], b: dict[str, int], policy="aim", **rules):
    """The default matchup with decks given in memory as {card id: copies} and rule changes
    (the deck rules are not asked: a scenario may hold 20 copies of one card)."""
    m = GAME.load_matchup(FOLDER, "steady", "peaks", policy, policy, {}, [])
    ids = list(m.pool.ids)
    for seat, counts in enumerate((a, b)):
        deck = D.Deck("", f"deck{seat}", tuple((ids.index(c), n) for c, n in counts.items()))
        m = m.with_deck(seat, deck)
    return dataclasses.replace(m, rules=m.rules.replace(rules)) if rules else m


def both(m, n=200, seed=3):
    """The kernel's records, after checking that the reference engine writes the same."""
    kernel = GAME.run_batch(m, n, seed, n_log=5)
    assert kernel.same_as(GAME.reference_batch(m, n, seed, n_log=5))
    return kernel


def column(rec, name):
    return rec.matches[:, list(GAME.schema.match_columns).index(name)]


def rec_pool():
    return GAME.load_matchup(FOLDER, "steady", "peaks", "aim", "aim", {}, []).pool


def test_the_higher_card_scores_and_the_first_to_the_points_wins():
    """"The higher card scores its player a point"; "a player at points_to_win wins"."""
    rec = both(matchup({"nine": 20}, {"one": 20}))
    assert (column(rec, "winner") == 0).all() and (column(rec, "points_a") == 5).all()
    assert (column(rec, "points_b") == 0).all() and (column(rec, "rounds") == 5).all()
    assert (column(rec, "round1") == 0).all() and (column(rec, "end") == 0).all()


def test_equal_cards_score_nobody_or_both():
    """"Equal cards score nobody (ties = nobody) or both (ties = both)"; "a round that
    begins with a hand empty ends the match: more points wins, equal points draw"."""
    nobody = both(matchup({"five": 20}, {"five": 20}))
    # 20 cards each, one played a round: 20 rounds, then both hands are empty.
    assert (column(nobody, "rounds") == 20).all() and (column(nobody, "ties") == 20).all()
    assert (column(nobody, "winner") == -1).all() and (column(nobody, "end") == 1).all()
    everyone = both(matchup({"five": 20}, {"five": 20}, ties="both"))
    # Both reach 5 points in round 5: both at once is a draw.
    assert (column(everyone, "rounds") == 5).all() and (column(everyone, "winner") == -1).all()
    assert (column(everyone, "points_a") == 5).all() and (column(everyone, "end") == 0).all()


def test_a_blank_is_set_aside_when_drawn():
    """"A Blank does nothing: set aside when drawn, the next card taken instead": 10 Nines
    and 10 Blanks play 10 rounds, then the hand is empty."""
    rec = both(matchup({"nine": 10, "blank": 10}, {"one": 20}, points_to_win=99))
    assert (column(rec, "rounds") == 10).all() and (column(rec, "points_a") == 10).all()
    assert (column(rec, "winner") == 0).all() and (column(rec, "end") == 1).all()
    blank = list(rec_pool().ids).index("blank")
    assert rec.card_stats[0, blank, list(GAME.schema.all_card_stats).index("played")] == 0


def test_the_winner_leads_the_next_round_or_the_lead_alternates():
    """"The round's winner leads the next; else the lead alternates" (log column leader)."""
    rec = both(matchup({"nine": 20}, {"one": 20}))
    for k in range(5):
        leaders = rec.log[k, : rec.log_n[k], 1]
        assert (leaders[1:] == 0).all()  # deck A wins every round, so it leads from round 2
    passing = both(matchup({"nine": 20}, {"one": 20}, winner_leads=False))
    for k in range(5):
        leaders = passing.log[k, : passing.log_n[k], 1]
        assert (np.diff(leaders) != 0).all()


def test_the_coin_and_round_one_agree_with_the_exact_answer():
    """Random play: a round-1 card is any card of the deck alike. steady (4 each of 3 4 5 6
    7) against peaks (4 each of 1 2 5 8 9): A wins 12 of the 25 value pairs, B 12, 1 equal."""
    m = GAME.load_matchup(FOLDER, "steady", "peaks", "random", "random", {}, [])
    rec = GAME.run_batch(m, 4000, 8)
    frame = GAME.exact_check(m, rec.totals()).set_index("quantity")
    assert frame.loc["deck A wins round 1", "exact"] == pytest.approx(12 / 25)
    assert frame.loc["deck B wins round 1", "exact"] == pytest.approx(12 / 25)
    assert frame.loc["deck A leads round 1 (the coin)", "exact"] == 0.5
    assert (frame.z.abs() < 4).all(), frame


def test_the_deck_rules_name_the_file_and_the_line(tmp_path):
    """"Exactly deck_size cards (20), at most 4 copies of a number card's name, number cards
    adding up to at most value_cap (100), at least one number card": each broken deck is
    told with its file and line by `cardlab check`, exit 2."""
    folder = tmp_path / "highcard"
    shutil.copytree(FOLDER, folder)
    decks = {"copies.deck": "5 Nine\n4 One\n4 Two\n4 Three\n3 Four\n",  # 20 cards, 82
             "cap.deck": "4 Nine\n4 Eight\n4 Seven\n4 Six\n4 Five\n",  # 20 cards, 140
             "size.deck": "4 One\n4 Two\n",
             "blanks.deck": "20 Blank\n"}
    for name, text in decks.items():
        (folder / name).write_text(text, encoding="utf-8")
    out = cardlab("check", str(folder))
    said = out.stdout + out.stderr
    assert out.returncode == 2
    assert f"{folder / 'copies.deck'}:1: card 'nine' (Nine): 5 copies of the name, at most 4" \
        in said
    assert f"{folder / 'cap.deck'}:5: the number cards add up to 140, at most 100" in said
    assert f"{folder / 'size.deck'}:2: deck lists 8 cards, must be exactly 20" in said
    assert f"{folder / 'blanks.deck'}:1: the deck needs a number card" in said
    assert "4 problem(s) found" in said  # the four sample decks pass
