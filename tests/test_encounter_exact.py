"""Encounter exact checks: the spec's closed forms, and simulation beside them."""

from pathlib import Path

import pytest

from sim.encounter.batch import load_matchup, run_batch, with_rules
from sim.encounter.exact import encounter_chain, exact_check, p_quest_in_opening

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"


@pytest.mark.parametrize("q, p", [(10, 0.924), (12, 0.960), (14, 0.980)])
def test_opening_hand_quest_odds(q, p):
    assert p_quest_in_opening(q) == pytest.approx(p, abs=0.0005)


@pytest.mark.parametrize("rules", [
    {"encounter_mode": True},
    {"encounter_mode": True, "encounter_objective": "DEFEAT", "encounter_arg": 1,
     "encounter_strikers": 2, "settle_heal": 1, "combat_tie": "striker"},
])
def test_encounter_mode_chain_agrees_with_simulation(rules):
    m = with_rules(load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful"), rules)
    ex = encounter_chain(m)
    assert ex["win_a"] + ex["win_b"] + ex["draw"] == pytest.approx(1.0)
    table = exact_check(m, run_batch(m, 20000, 2).totals())
    assert (table.z.abs() < 4).all(), table


def test_default_matchup_checks_agree():
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", "random")
    table = exact_check(m, run_batch(m, 4000, 3).totals())
    assert len(table) == 3 and (table.z.abs() < 4).all(), table
    assert table.exact.iloc[0] == 0.5  # Grey chooses (intelligence 7 > 2); random: a coin


def test_equal_intelligence_each_seat_first_half_the_time():
    m = load_matchup(FOLDER, "orc-warband", "orc-warband", "careful")
    rec = run_batch(m, 4000, 9)
    table = exact_check(m, rec.totals())
    assert table.exact.iloc[0] == 0.5 and abs(table.z.iloc[0]) < 4
