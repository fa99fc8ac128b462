"""Encounter: kernel against the reference engine, determinism, manifest, replay, validator."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.game import get
from sim.problems import InputError

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "decks" / "encounter"
GAME = get("encounter")


def matchup(policy="careful", rules=None):
    return GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", policy, None,
                             rules or {}, [])


@pytest.mark.parametrize("policy", ["random", "careful", "aggressive"])
def test_kernel_equals_reference(policy):
    m = matchup(policy)
    for seed in (1, 99):
        k = GAME.run_batch(m, 40, seed, 0, 3)
        r = GAME.reference_batch(m, 40, seed, 0, 3)
        assert k.same_as(r)


@pytest.mark.parametrize("rules", [{"cost_currency": "discard"}, {"cost_currency": "twilight"},
                                   {"combat_tie": "none", "defend_limit": "once",
                                    "strikers_after": "hand", "unique_scope": "table",
                                    "ability_limit": "step", "play_loot": "paid",
                                    "settle_heal": 1, "mulligans": 1, "quest_mandatory": True,
                                    "deck_out": "lose_on_empty_draw"},
                                   {"encounter_mode": True}])
def test_kernel_equals_reference_under_rule_options(rules):
    m = matchup("random", rules)
    assert GAME.run_batch(m, 30, 5, 0, 2).same_as(GAME.reference_batch(m, 30, 5, 0, 2))


def test_batch_split_and_manifest_round_trip():
    m = matchup()
    whole = GAME.run_batch(m, 150, 3)
    a, b = GAME.run_batch(m, 70, 3), GAME.run_batch(m, 80, 3, 70)
    assert np.array_equal(np.concatenate([a.matches, b.matches]), whole.matches)
    assert np.array_equal(a.card_stats + b.card_stats, whole.card_stats)
    again = GAME.from_manifest(json.loads(json.dumps(GAME.describe(m))))
    assert GAME.run_batch(again, 150, 3).same_as(whole)


def test_thread_count_does_not_change_results(tmp_path):
    code = ("import sys, numpy as np; from sim.game import get; G = get('encounter'); "
            f"m = G.load_matchup({str(FOLDER)!r}, 'orc-warband', 'grey-expedition', "
            "'random', None, {}, []); r = G.run_batch(m, 200, 8); "
            "np.save(sys.argv[1], r.matches)")
    for t in ("1", "2"):
        env = dict(os.environ, NUMBA_NUM_THREADS=t, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-c", code, str(tmp_path / f"{t}.npy")], env=env,
                       check=True)
    assert np.array_equal(np.load(tmp_path / "1.npy"), np.load(tmp_path / "2.npy"))


def test_replay_matches_the_batch_and_reads():
    m = matchup()
    rec = GAME.run_batch(m, 10, 4)
    rp = GAME.replay(m, 4, 6)
    assert np.array_equal(rp.record, rec.matches[6])
    text = "\n".join(rp.text)
    assert "-- turn 1:" in text and "== game over" in text


def test_sample_decks_rarely_reach_the_turn_cap():
    rec = GAME.run_batch(matchup(), 1000, 12)
    capped = (rec.column("end") == 3).mean()
    assert capped < 0.06


def test_validator_is_clean_on_the_sample_folder():
    notes, problems = GAME.check_paths([FOLDER])
    assert problems == [] and len(notes) == 5


def _copy(tmp_path):
    dst = tmp_path / "enc"
    shutil.copytree(FOLDER, dst)
    return dst


def test_validator_names_file_and_line_of_an_unknown_option(tmp_path):
    dst = _copy(tmp_path)
    with open(dst / "rules.toml", "a") as f:
        f.write("no_such_option = 3\n")
    _, problems = GAME.check_paths([dst])
    n = len((dst / "rules.toml").read_text().splitlines())
    assert any(p.path.endswith("rules.toml") and p.line == n and "no_such_option" in p.message
               for p in problems)


@pytest.mark.parametrize("edit, words", [
    (("[pc]\n1 Orc", "[pc]\n1 Orc\n1 Elf"), "[pc] holds 2"),
    (("4 Orc Grunt", "5 Orc Grunt"), "at most 4"),
    (("1 Battle Fury", "1 Elven Grace"), "requires a elf PC"),
    (("1 Battle Fury", "1 Iron Sword"), "may not go in [draw]"),
    (("2 Rome Arena", "2 Rome Arenaa"), "did you mean"),
    (("[loot]", "[lot]"), "unknown section"),
])
def test_validator_deck_rules(tmp_path, edit, words):
    dst = _copy(tmp_path)
    deck = dst / "orc-warband.deck"
    deck.write_text(deck.read_text().replace(*edit))
    _, problems = GAME.check_paths([deck])
    assert any(words in p.message and p.path.endswith("orc-warband.deck") for p in problems), \
        problems


@pytest.mark.parametrize("edit, words", [
    ((",Damage,1,", ",Damag,1,"), "unknown keyword"),
    (("DEFEAT,1,", "DEFEET,1,"), "unknown objective"),
    (("troll,Troll,npc,strike,", "troll,Troll,npc,striker,"), "needs a nature"),
])
def test_validator_card_rules(tmp_path, edit, words):
    dst = _copy(tmp_path)
    cards = dst / "cards.csv"
    cards.write_text(cards.read_text().replace(*edit, 1))
    with pytest.raises(InputError) as err:
        GAME.load_matchup(dst, "orc-warband", "grey-expedition", "careful", None, {}, [])
    assert words in str(err.value) and "cards.csv:" in str(err.value)
