"""Encounter: kernel against the reference engine, determinism, manifest, replay, validator."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.core.problems import InputError
from sim.kit.game import get

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


# One changed value per rule option of rules.toml (encounter-mode keys with the mode on).
# Each variant is tested against its baseline, the same changes with the option under test
# at its default: the records must differ, so the variant reaches the rule. The deck sizes
# come with the Orc's decks cut to that size (baseline: the whole decks); max_copies 6 with
# six Orc Grunts in the Orc's deck, which the default copy cap rejects (baseline: the deck
# as printed).
VARIANTS = {
    "points_to_win": [{"points_to_win": 12}],
    "hand_size": [{"hand_size": 5}, {"hand_size": 11}],
    "mulligans": [{"mulligans": 2}],
    "cost_currency": [{"cost_currency": "discard"}, {"cost_currency": "twilight"}],
    "pool_per_turn": [{"pool_per_turn": 1}, {"pool_per_turn": 6}],
    "combat_tie": [{"combat_tie": "striker"}, {"combat_tie": "defender"},
                   {"combat_tie": "none"}],
    "defend_limit": [{"defend_limit": "once"}],
    "quest_mandatory": [{"quest_mandatory": True}],
    "strikers_after": [{"strikers_after": "hand"}],
    "unique_scope": [{"unique_scope": "player"}],
    "ability_limit": [{"ability_limit": "turn"}, {"ability_limit": "step"}],
    "play_loot": [{"play_loot": "paid"}, {"play_loot": "paid", "cost_currency": "discard"},
                  {"play_loot": "paid", "cost_currency": "twilight"}],
    "settle_heal": [{"settle_heal": 2}],
    "deck_out": [{"deck_out": "lose_on_empty_draw", "draw_deck_size": 16}],
    "max_turns": [{"max_turns": 9}, {"max_turns": 9, "players": 3}],
    "max_rounds": [{"max_rounds": 5}, {"max_rounds": 4, "players": 4}],
    "max_copies": [{"max_copies": 6}],
    "draw_deck_size": [{"draw_deck_size": 24}],
    "loot_deck_size": [{"loot_deck_size": 3}],
    "encounter_mode": [{"encounter_mode": True}],
    "encounter_strikers": [{"encounter_mode": True, "encounter_strikers": 3}],
    "encounter_strengths": [{"encounter_mode": True, "encounter_strengths": [5, 6, 7]}],
    "encounter_objective": [{"encounter_mode": True, "encounter_objective": "DEFEAT"}],
    "encounter_arg": [{"encounter_mode": True, "encounter_objective": "DEFEAT",
                       "encounter_arg": 2}],
    "encounter_points": [{"encounter_mode": True, "encounter_points": 7, "settle_heal": 1}],
    "choose_first": [{"choose_first": "once"}],
    "players": [{"players": 3}, {"players": 4}],
    "strike_budget": [{"players": 3, "strike_budget": "each"},
                      {"players": 4, "strike_budget": "each"}],
}
# Decks that bring every choice and a unique card both players hold (Knight Errant): A's
# Wound (Sniper Shot), Revive (Second Chance), Cancel (Banish), character actions (Sharp
# Blade, Plate Armor, Lucky Charm).
SWAPS = ({"Pitfall": "Sniper Shot", "Battle Fury": "Sharp Blade",
          "Rome Arena": "Second Chance", "Hired Blade": "Knight Errant"},
         {"Archive": "Plate Armor", "Drone": "Sniper Shot", "Psionic": "Lucky Charm"})


def every_choice(m, option=None):
    """The matchup with the swapped decks, the Orc's cut to the deck sizes in force; for
    the max_copies variant its two Sniper Shots become Orc Grunts (six in all)."""
    from dataclasses import replace

    pool = m.pool
    decks = []
    for d, swaps in zip(m.decks, SWAPS, strict=False):  # seats C, D keep their decks
        table = {pool.lookup(a): pool.lookup(b) for a, b in swaps.items()}
        decks.append(replace(d, draw=tuple(table.get(c, c) for c in d.draw)))
    orc = decks[0]
    if option == "max_copies":
        grunt, sniper = pool.lookup("Orc Grunt"), pool.lookup("Sniper Shot")
        six = [grunt if c == sniper else c for c in orc.draw]
        orc = replace(orc, draw=tuple(six))
    orc = replace(orc, draw=orc.draw[: m.rules["draw_deck_size"]],
                  loot=orc.loot[: m.rules["loot_deck_size"]])
    return replace(m, decks=(orc, decks[1], *m.decks[2:]))


def test_every_rule_option_has_a_variant():
    import tomllib

    keys = tomllib.loads((FOLDER / "rules.toml").read_text(encoding="utf-8"))
    assert set(keys) == set(VARIANTS)


def test_the_max_copies_variant_deck_needs_the_option():
    m = every_choice(GAME.with_rules(matchup(), {"max_copies": 6}), "max_copies")
    assert GAME.validate(m) == []
    problems = GAME.validate(GAME.with_rules(m, {"max_copies": 4}))
    assert [p.message for p in problems] == ["card 'Orc Grunt': 6 copies; at most 4"]


@pytest.mark.parametrize("option, rules", [(o, r) for o, rs in VARIANTS.items() for r in rs],
                         ids=str)
def test_kernel_equals_reference_under_rule_options(option, rules):
    """Under each variant both engines agree, on decks that reach every choice; and the
    records differ from the baseline's (the option under test at its default) for at
    least one of the two pairs of policies."""
    base_rules = {k: v for k, v in rules.items() if k != option}
    changed = []
    for policy_a, policy_b in (("random", "careful"), ("aggressive", "random")):
        m = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", policy_a, policy_b,
                              {}, [])
        variant = every_choice(GAME.with_rules(m, rules), option)
        kernel = GAME.run_batch(variant, 30, 5, 0, 2)
        assert kernel.same_as(GAME.reference_batch(variant, 30, 5, 0, 2)), (rules, policy_a)
        base = every_choice(GAME.with_rules(m, base_rules))
        changed.append(not kernel.same_as(GAME.run_batch(base, 30, 5, 0, 2)))
    assert any(changed), rules


def test_batch_split_and_manifest_round_trip():
    m = matchup()
    whole = GAME.run_batch(m, 150, 3)
    a, b = GAME.run_batch(m, 70, 3), GAME.run_batch(m, 80, 3, 70)
    assert np.array_equal(np.concatenate([a.matches, b.matches]), whole.matches)
    assert np.array_equal(a.card_stats + b.card_stats, whole.card_stats)
    again = GAME.from_manifest(json.loads(json.dumps(GAME.describe(m))))
    assert GAME.run_batch(again, 150, 3).same_as(whole)


def test_thread_count_does_not_change_results(tmp_path):
    code = ("import sys, numpy as np; from sim.kit.game import get; G = get('encounter'); "
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
    # The folder, then one line per deck: the four hand-built decks of game.toml's table,
    # the four of its field (each style's strongest) and Orc Raiders.
    assert problems == [] and len(notes) == 10


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


def test_a_section_size_is_what_the_file_lists_told_on_its_last_line(tmp_path):
    """A section's size as its lines list it (a line too big for the section is named and
    still counted), told on the section's last card line, as Paint the Line tells a deck's
    length."""
    dst = _copy(tmp_path)
    deck = dst / "orc-warband.deck"
    lines = deck.read_text().splitlines()
    cards = [i + 1 for i, ln in enumerate(lines) if ln[:1].isdigit()]
    last_draw = max(n for n in cards if n < lines.index("[loot]") + 1)
    with pytest.raises(InputError) as err:
        GAME.load_matchup(dst, "orc-warband", "grey-expedition", "careful", None,
                          {"draw_deck_size": 1}, [])
    said = [(Path(p.path).name, p.line, p.message) for p in err.value.problems]
    assert ("orc-warband.deck", last_draw, "[draw] holds 40 cards; it must hold 1 "
            "(rule option draw_deck_size)") in said
    orc = lines.index("1 Orc") + 1
    deck.write_text(deck.read_text().replace("\n1 Orc\n", "\n2 Orc\n"))
    _, problems = GAME.check_paths([deck])
    assert [(p.line, p.message) for p in problems] == [
        (orc, "card 'Orc': 2 copies, more than [pc] holds (1 card)"),
        (orc, "[pc] holds 2 cards; it must hold 1")]


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


@pytest.mark.rule("ENC-29")
def test_validate_names_the_problems_of_a_matchup_built_in_memory():
    from dataclasses import replace

    from sim.encounter import codes as K

    m = matchup()
    assert GAME.validate(m) == []
    orc, pool = m.decks[0], m.pool
    grunt, blank, troll = (pool.lookup(n) for n in ("Orc Grunt", "Blank", "Troll"))
    # A fifth Orc Grunt in place of the deck's last card; a draw deck one card short.
    for deck, words in ((replace(orc, draw=orc.draw[:-1] + (grunt,)),
                         "card 'Orc Grunt': 5 copies; at most 4"),
                        (replace(orc, draw=orc.draw[:-1]),
                         "[draw] holds 39 cards; it must hold 40 (rule option draw_deck_size)")):
        problems = GAME.validate(replace(m, decks=(deck, m.decks[1])))
        assert [(p.path, p.message) for p in problems] == [(orc.path, words)]
    # Any number of Blanks: 30 of the 40 draw cards and every loot card.
    blanks = replace(orc, draw=orc.draw[:10] + (blank,) * 30, loot=(blank,) * 20)
    assert GAME.validate(replace(m, decks=(blanks, m.decks[1]))) == []
    # A strike NPC of toughness 0, and a strength out of range: cards.csv, the card's line.
    table = pool.table.copy()
    table[troll, K.C_TOUGH], table[grunt, K.C_STR] = 0, 120
    problems = GAME.validate(replace(m, pool=pool.with_table(table)))
    assert [(p.path, p.line, p.message) for p in problems] == [
        (pool.path, pool.lines[grunt], "card 'orc-grunt': str out of range"),
        (pool.path, pool.lines[troll], "card 'troll': a party or strike NPC needs toughness "
                                       ">= 1")]


@pytest.mark.rule("ENC-4", "ENC-12")
def test_a_pc_may_not_start_with_no_toughness():
    """"When a character's toughness is reduced to 0, that character is killed": the Orc PC
    (toughness 4) with Brawny and Thick Hide (toughness +1) made toughness -5 starts with
    4 + 0 - 5 = -1, so the deck is refused, the PC named; at -3 it starts with 1 and
    passes."""
    from dataclasses import replace

    from sim.encounter import codes as K

    m = matchup()
    orc, pool = m.decks[0], m.pool
    hide = pool.lookup("Thick Hide")
    for tough, words in ((-5, ["card 'Orc': toughness -1 with the starting characteristics; "
                               "a PC starts with at least 1"]), (-3, [])):
        table = pool.table.copy()
        table[hide, K.C_TOUGH] = tough
        problems = GAME.validate(replace(m, pool=pool.with_table(table)))
        assert [(p.path, p.message) for p in problems] == [(orc.path, w) for w in words]


@pytest.mark.rule("ENC-19", "ENC-80")
def test_a_might_outside_the_combat_step_is_refused():
    """Might n: "your character in this combat +n strength till it ends", so a card whose
    Might names another step would act on nothing: Rally Cry made an encounter instant is
    refused, its line named; as a combat instant it passes."""
    from dataclasses import replace

    from sim.encounter import codes as K

    m = matchup()
    pool = m.pool
    rally = pool.lookup("Rally Cry")
    for step, words in ((K.S_ENCOUNTER, ["card 'rally-cry': keyword Might lasts its combat: "
                                         "its step is combat"]), (K.S_COMBAT, [])):
        table = pool.table.copy()
        table[rally, K.C_STEP] = step
        problems = GAME.validate(replace(m, pool=pool.with_table(table)))
        assert [(p.path, p.line, p.message) for p in problems] == [
            (pool.path, pool.lines[rally], w) for w in words]
