"""Payne behind the contract, beyond tests/test_contract.py: kernel equals reference under
rule options, a non-default manifest round trip, and the exact checks beside a simulation
(invariants: tests/test_payne_invariants.py)."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from sim.core.problems import InputError
from sim.kit.folders import read_folder
from sim.kit.game import get
from sim.payne import pool as T
from sim.payne.policy import load_policies

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")


def matchup(policy="prior", **rules):
    """The folder's decks; policy: one name for both seats, or a pair."""
    info = read_folder(FOLDER)
    a, b = (policy, None) if isinstance(policy, str) else policy
    return GAME.load_matchup(FOLDER, *info.decks, a, b, rules, [])


@pytest.mark.parametrize("policy", list(load_policies(FOLDER / "policies.toml")))
@pytest.mark.parametrize("seed", [1, 29])
def test_kernel_equals_reference(policy, seed):
    m = matchup(policy)
    assert GAME.run_batch(m, 40, seed, 0, 4).same_as(GAME.reference_batch(m, 40, seed, 0, 4))


LONG = {"points_to_win": 30}  # room for two AutoWins to meet in one battle
DECKED = {"attack_draw": 6, "points_to_win": 60}  # decks run out before the points


def with_defensive_autowin(m):
    """Hall Pass made an AutoWin (the sample decks' one defensive AutoWin, Vera Thorne, is
    rarely played into an attacker's), so AutoWin clashes happen."""
    table = m.pool.table.copy()
    table[m.pool.lookup("hall-pass"), T.C_EFF1] = T.AUTO_WIN
    return dataclasses.replace(m, pool=m.pool.with_table(table))


@pytest.mark.parametrize("base,change", [
    ({}, {"geometry": "mirrored"}),
    ({}, {"defense_timing": "defender_window"}),
    ({}, {"blind_feedback": "told"}),
    (LONG, {"auto_win_clash": "attacker"}),
    (LONG, {"auto_win_clash": "defender"}),
    ({}, {"both_unfielded": "none_score"}),
    ({}, {"unfielded_draw": False}),
    (DECKED, {"deck_out": "lose"}),
    ({}, {"battle_mode": True}),
    ({}, {"max_changed": 0}),
    ({}, {"max_changed": 1}),
    ({}, {"setup_redraw_cap": 0}),
    ({}, {"points_to_win": 5}),
    ({}, {"max_rounds": 5}),
    ({}, {"attack_draw": 1}),
    ({}, {"opening_hand": 5}),
    ({}, {"unfielded_points": 1}),
])
def test_kernel_equals_reference_under_rule_options(base, change):
    """Each rule option's variant changes the records (so the equality below tests it) and
    the kernel equals the reference under it, both seats deciding differently."""
    for pair in (("prior", "random"), ("trained", "prior")):
        m, plain = (with_defensive_autowin(matchup(pair, **base, **change)),
                    with_defensive_autowin(matchup(pair, **base)))
        kernel = GAME.run_batch(m, 30, 5, 0, 2)
        assert not kernel.same_as(GAME.run_batch(plain, 30, 5, 0, 2)), (pair, change)
        assert kernel.same_as(GAME.reference_batch(m, 30, 5, 0, 2)), (pair, change)


def test_manifest_round_trip_and_replay():
    m = matchup("random", geometry="mirrored")
    rec = GAME.run_batch(m, 50, 3)
    again = GAME.from_manifest(json.loads(json.dumps(GAME.describe(m))))
    assert GAME.run_batch(again, 50, 3).same_as(rec)
    shown = GAME.replay(m, 3, 7)
    assert np.array_equal(shown.record, rec.matches[7])
    assert shown.text[-1].startswith("Winner")


def test_bad_rule_override_is_an_input_error():
    with pytest.raises(InputError, match="geometry"):
        GAME.with_rules(matchup(), {"geometry": "sideways"})


def test_exact_checks_agree_with_the_simulation():
    long = {"points_to_win": 999, "max_rounds": 12}  # no score ends a match: rounds whole
    for m in (matchup("plain"), GAME.with_rules(matchup("plain"), {"battle_mode": True}),
              matchup("prior"), matchup("plain", **long),
              matchup("random", battle_mode=True, **long)):
        table = GAME.exact_check(m, GAME.run_batch(m, 4000, 2).totals())
        assert table is not None and len(table) >= 4
        assert (table.z.abs() < 4).all(), table
        full = table[table.quantity.str.startswith("full-round")]
        assert len(full) == (3 if m.rules.values["points_to_win"] == 999 else 0)


def test_an_edit_past_a_limit_is_listed_with_why_it_cannot_be_made():
    """Kira Vance with all four sides lit has no side left to light, and Laptop's argument
    at 3 is as far from 0 as the keyword allows (-3..3): each edit is there, with its reason
    and no matchup, so that sensitivity and lint list it as not tried."""
    import dataclasses

    m = matchup()
    m = dataclasses.replace(m, pool=m.pool.with_sets(["kira-vance.arrows=NESW",
                                                      "laptop.arg1=3"]))
    edits = {v.item: v for v in GAME.value_edits(m, ["laptop", "kira-vance"])}
    more = edits["Kira Vance one more lit arrow"]
    assert more.matchup is None and more.refused == "every side is lit already"
    assert edits["Kira Vance one fewer lit arrow (NES.)"].refused == ""
    further = edits["Laptop arg1 one further from 0"]
    assert further.matchup is None and "3" in further.refused


def test_experiments_build():
    m = matchup()
    edits = GAME.value_edits(m, ["laptop", "kira-vance"])
    assert {v.extra["delta"] for v in edits if v.field == "arrows"} == {1, -1}
    assert any(v.card == "laptop" and v.field == "arg1" for v in edits)
    ab = GAME.ablations(m)
    assert len(ab) == len(m.decks[0].counts) + len(m.decks[1].counts)
    v = GAME.sweeps["ratio"].make(m, 1, 26)
    counts = dict(v.matchup.decks[1].counts)
    table = m.pool.table
    off = sum(n for c, n in counts.items() if table[c, 0] == 0 and table[c, 1] == 0)
    assert off == 26 and sum(counts.values()) == 60
    v = GAME.sweeps["copies"].make(m, 0, 1, {"card": "laptop"})
    assert dict(v.matchup.decks[0].counts)[m.pool.lookup("laptop")] == 1
    assert GAME.run_batch(v.matchup, 20, 1).matches.shape == (20, len(GAME.schema.match_columns))
