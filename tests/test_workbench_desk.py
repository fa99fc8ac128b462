"""The workbench's desk without a browser: the variant it plays is the run the command line's
`--set` plays, a deck edit touches only its line, and a bad value is found where it is and
writes nothing."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.load import load_run
from sim.core.problems import InputError
from sim.runner.run import simulate
from sim.web.decklines import deck_lines, with_counts
from sim.web.desk import Choice, Desk

DECKS = Path(__file__).resolve().parents[1] / "decks"


def desk(tmp_path: Path, game: str = "paintline") -> Desk:
    shutil.copytree(DECKS / game, tmp_path / game)
    return Desk(tmp_path / game, tmp_path / "results")


def test_the_variant_is_the_run_that_simulate_with_set_plays(tmp_path):
    d = desk(tmp_path)
    row = int(d.cards.index[d.cards.id == "high-lob"][0])
    d.set_cell(row, "normal_bonus", "5")
    a, b = d.info.decks
    played = d.play(Choice([a, b], "greedy", "greedy", {}, 600, 4))
    m = d.game.load_matchup(d.folder, a, b, "greedy", "greedy", {},
                            ["high-lob.normal_bonus=5"])
    cli = simulate(d.game, m, 600, 4, tmp_path / "cli", "set", workers=1, backend="serial")
    plain = d.game.load_matchup(d.folder, a, b, "greedy", "greedy", {}, [])
    base = simulate(d.game, plain, 600, 4, tmp_path / "cli", "base", workers=1,
                    backend="serial")
    pd.testing.assert_frame_equal(load_run(played.variant).matches,
                                  load_run(cli.run.path).matches)
    pd.testing.assert_frame_equal(load_run(played.baseline).matches,
                                  load_run(base.run.path).matches)
    variant = load_run(played.variant).manifest["workbench"]
    assert variant["cards"] == {"high-lob.normal_bonus": "5"} and variant["arm"] == "variant"
    # deck A's win count in the rates table is the run's own count
    wins = int((load_run(played.variant).matches.winner == 0).sum())
    shown = played.rates.set_index("quantity").loc[f"{a} wins"]
    assert shown.variant == wins / 600 and shown.baseline_lo < shown.baseline < shown.baseline_hi


def test_a_deck_count_changes_its_own_line_only():
    text = "# a comment 3 Push\n[pc]\n1 Orc\n\n[draw]\n2 Arena Champion\n1 Raid the Caravan\n"
    lines = deck_lines(text)
    assert list(lines.card) == ["Orc", "Arena Champion", "Raid the Caravan"]
    assert list(lines.line) == [3, 6, 7] and list(lines.copies) == [1, 2, 1]
    out = with_counts(text, {6: 4})
    assert out == text.replace("2 Arena Champion", "4 Arena Champion")


def test_a_bad_value_is_found_at_its_card_and_writes_nothing(tmp_path):
    d = desk(tmp_path)
    lines = (d.folder / "cards.csv").read_text().splitlines()
    line = next(n for n, x in enumerate(lines, 1) if x.startswith("high-lob,"))
    row = int(d.cards.index[d.cards.id == "high-lob"][0])
    d.set_cell(row, "cost", "-1")
    problems = d.problems()
    assert [(p.line, "cost must not be negative" in p.message) for p in problems] == [
        (line, True)]
    assert d.problems_by_place(problems) == {("cards.csv", line - 2): problems[0].message}
    assert not (tmp_path / "results").exists()


def test_a_bad_rule_option_is_told_by_its_field_and_plays_nothing(tmp_path):
    """The browser's rule options are fields named by the option, not the command line's
    --rules: the problem names the option alone."""
    d = desk(tmp_path)
    a, b = d.info.decks
    with pytest.raises(InputError) as err:
        d.play(Choice([a, b], "greedy", "greedy", {"escalation": "[6, 8, banana"}, 60, 1))
    said = [str(p) for p in err.value.problems]
    assert said == ["rule option 'escalation': must be a list, got '[6, 8, banana'"]
    assert not (tmp_path / "results").exists()


def test_a_table_of_three_names_every_seat_in_the_change(tmp_path):
    d = desk(tmp_path, "encounter")
    a, b = d.info.decks
    played = d.play(Choice([a, b, d.info.table[2]], d.info.policy, d.info.policy,
                           {"players": 3}, 60, 2))
    items = list(played.change["item"])
    assert "PC killed (deck C)" in items and not [i for i in items if "{" in i]
    assert f"{d.info.table[2]} ({d.info.policy}) wins" in list(played.rates.quantity)


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch):
    import importlib.util

    from tests.conftest import cardlab

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "panel" else real(name, *a))
    monkeypatch.setitem(sys.modules, "panel", None)  # as if absent: importing it fails
    ran = cardlab("serve", "--folder", "payne")
    assert ran.returncode == 2 and '.[web]' in ran.stderr and "Traceback" not in ran.stderr


def test_serve_names_a_missing_folder(tmp_path):
    from tests.conftest import cardlab

    ran = cardlab("serve", "--folder", str(tmp_path / "nowhere"))
    assert ran.returncode == 2 and "no such game folder" in ran.stderr


def test_a_cleared_players_field_is_told_not_a_failure(tmp_path):
    """The players field emptied in the page holds no number: the choice is still made (it
    failed with int(None)), and playing it gets the validator's word on players."""
    from sim.web.pick import Pick

    d = desk(tmp_path, "encounter")
    pick = Pick(d)
    pick.rules["players"].value = None
    choice = pick.choice()
    assert len(choice.decks) == 2 and choice.rules["players"] is None
    with pytest.raises(InputError) as err:
        d.play(choice)
    assert "players" in str(err.value)


def test_the_check_tells_a_name_game_toml_gives_that_the_folder_lacks(tmp_path):
    """As `cardlab check FOLDER` does: a [field] deck game.toml names and the folder lacks
    is a problem of game.toml, at its line, shown before anything is played or saved."""
    folder = tmp_path / "paintline"
    shutil.copytree(DECKS / "paintline", folder)
    path = folder / "game.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"ussr-blitz-top"', '"ussr-blits"', 1), encoding="utf-8")
    d = Desk(folder, tmp_path / "results")
    told = [p for p in d.problems() if Path(p.path).name == "game.toml"]
    assert told and "ussr-blits" in told[0].message and told[0].line > 0


def test_an_edit_of_a_card_no_deck_holds_is_told_and_plays_nothing(tmp_path):
    """Chalk Line is in neither sample deck: a change to it can move no match, so the
    what-if says so and plays nothing rather than show a change of zero as if measured.
    Beside an edit that is played (High Lob, in US Red Tide), it is named as moving nothing."""
    d = desk(tmp_path)
    a, b = d.info.decks
    chalk = int(d.cards.index[d.cards.id == "chalk-line"][0])
    d.set_cell(chalk, "normal_bonus", "5")
    with pytest.raises(InputError, match="nothing to measure.*Chalk Line"):
        d.play(Choice([a, b], "greedy", "greedy", {}, 60, 1))
    assert not (tmp_path / "results").exists()
    high = int(d.cards.index[d.cards.id == "high-lob"][0])
    d.set_cell(high, "normal_bonus", "5")
    played = d.play(Choice([a, b], "greedy", "greedy", {}, 60, 1))
    assert played.unplayed == ("Chalk Line",)

