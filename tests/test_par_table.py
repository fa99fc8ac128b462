"""A folder's declared par (par.csv): what it gives a card at its cost, and the errors a bad
file gets, each naming the file and the line."""

import pandas as pd
import pytest

from sim.core.problems import InputError
from sim.experiments.par import par_values
from sim.experiments.par_table import declared_card, read_par
from sim.kit.power import Power

from .conftest import ROOT, cardlab

POWER = Power(cards=None, stronger={"atk": 1, "hp": 1, "wait": -1},
              bounds={"atk": (0, 9), "hp": (0, 9), "wait": (0, 5)}, with_values=None,
              cost={"": "cost"}, group=("side",))
CARDS = pd.DataFrame({"id": ["a", "b", "c", "d"], "kind": ["unit", "unit", "unit", "spell"],
                      "side": ["red", "blue", "red", "red"], "cost": [1, 2, 4, 3],
                      "atk": [1, 2, 3, 0], "hp": [1, 2, 3, 0], "wait": [1, 1, 1, 0]})


def write(tmp_path, text):
    (tmp_path / "par.csv").write_text(text, encoding="utf-8")
    return tmp_path


def test_no_file_declares_nothing(tmp_path):
    assert read_par(tmp_path, POWER, CARDS) is None
    assert read_par(None, POWER, CARDS) is None


def test_a_declared_cost_an_any_cost_row_and_the_line_between_costs(tmp_path):
    par = read_par(write(tmp_path, "kind,side,cost,atk,hp,wait\n"
                                   "unit,,1,2,2,1\n"
                                   "unit,,3,4,6,\n"
                                   "unit,,,,,2\n"
                                   "unit,blue,,5,5,0\n"), POWER, CARDS)
    red = CARDS.set_index("id").loc["a"]
    # At cost 1: the cost-1 row.
    assert declared_card(POWER, par, red, 1.0) == {"atk": 2, "hp": 2, "wait": 1}
    # At cost 2: halfway along 1 -> 3 (atk 2 -> 4, hp 2 -> 6); wait has a row at any cost,
    # which comes before a line.
    assert declared_card(POWER, par, red, 2.0) == {"atk": 3, "hp": 4, "wait": 2}
    # At cost 5, past the last declared cost: the end segment extended.
    assert declared_card(POWER, par, red, 5.0) == {"atk": 6, "hp": 10, "wait": 2}
    # A blue unit has a row of its own side, which comes before rows of any side.
    assert declared_card(POWER, par, CARDS.set_index("id").loc["b"], 2.0) == {
        "atk": 5, "hp": 5, "wait": 0}
    # No row for spells: nothing declared, par comes from the pool.
    assert declared_card(POWER, par, CARDS.set_index("id").loc["d"], 3.0) is None


def test_par_values_take_the_declared_card(tmp_path):
    par = read_par(write(tmp_path, "kind,cost,atk,hp,wait\nunit,4,5,3,0\n"), POWER, CARDS)
    # c (red unit, cost 4) at par: 5 attack, 3 health (8 points, shared as the declared card
    # shares them), wait 0; the pool alone would give it its own curve's numbers.
    assert par_values(POWER, CARDS, "c", declared=par) == {("c", "atk"): 5, ("c", "hp"): 3,
                                                           ("c", "wait"): 0}
    assert par_values(POWER, CARDS, "c") != par_values(POWER, CARDS, "c", declared=par)


@pytest.mark.parametrize("text, line, words", [
    ("kind,cost,speed\nunit,1,2\n", 1, "unknown: speed"),
    ("cost,atk\n1,2\n", 1, "needs a kind column"),
    ("kind,cost,atk\nunit,1,2\nghost,1,2\n", 3, "kind 'ghost'"),
    ("kind,cost,atk\nunit,1,two\n", 2, "atk 'two' is not a whole number"),
    ("kind,cost,atk\nunit,1,12\n", 2, "atk 12 lies outside 0 .. 9"),
    ("kind,cost,atk\nunit,1,2\nunit,2,3\nunit,1,4\n", 4, "declared twice (first on line 2)"),
])
def test_a_bad_par_file_names_the_file_and_line(tmp_path, text, line, words):
    with pytest.raises(InputError) as err:
        read_par(write(tmp_path, text), POWER, CARDS)
    said = str(err.value.problems[0])
    assert said.startswith(f"{tmp_path / 'par.csv'}:{line}:") and words in said, said


def test_cardlab_verdicts_refuses_a_bad_par_file_with_exit_2(tmp_path):
    import shutil

    folder = tmp_path / "ptl"
    shutil.copytree(ROOT / "decks" / "paintline", folder)
    (folder / "par.csv").write_text("kind,cost,normal_bonus\nbasic_shot,1,2\nbasic_shot,2,x\n",
                                    encoding="utf-8")
    out = cardlab("simulate", "--folder", str(folder), "-n", "100", "--results",
                  str(tmp_path), "--run-id", "r", "-q")
    assert out.returncode == 0, out.stderr
    out = cardlab("verdicts", "r", "--folder", str(folder), "--results", str(tmp_path))
    assert out.returncode == 2, out.stdout
    assert "par.csv:3:" in out.stderr and "normal_bonus 'x'" in out.stderr
    assert "Traceback" not in out.stderr
