"""A card's worth against the field plays only field decks the run's matchup accepts: the
run may change the rules or cards the field was built under."""

from __future__ import annotations

import pytest

from sim.core.problems import InputError
from sim.experiments.field_worth import field_decks

from .conftest import cardlab
from .payne_both import FOLDER, GAME


def forty_card_lists(tmp_path, shipped) -> list:
    """The first 40 cards of the offense and defense lists, as deck files."""
    lists = []
    for seat, name in enumerate(("offense", "defense")):
        left, lines = 40, []
        for c, k in shipped.decks[seat].counts:
            if left > 0:
                lines.append(f"{min(k, left)} {shipped.pool.ids[c]}")
                left -= min(k, left)
        lists.append(tmp_path / f"{name}40.deck")
        lists[-1].write_text("\n".join(lines) + "\n")
    return lists


def test_field_decks_are_judged_in_the_runs_matchup(tmp_path):
    """Payne's field lists 60 cards a deck; a run at deck_size 40 (fewer by agreement) would
    play them against 40-card decks, which the validator refuses: no field deck is played."""
    shipped = GAME.load_matchup(FOLDER, "offense", "defense", "plain", "plain", {}, [])
    decks = field_decks(GAME, shipped, FOLDER, ["offense", "defense", "balanced"])
    assert [sum(c.values()) for c in decks.values()] == [60, 60, 60]
    short = GAME.load_matchup(FOLDER, *forty_card_lists(tmp_path, shipped), "plain", "plain",
                              {"deck_size": 40}, [])
    with pytest.raises(InputError, match="field deck balanced in this run's matchup: deck "
                       "lists 60 cards, must be exactly 40"):
        field_decks(GAME, short, FOLDER, ["offense", "defense", "balanced"])


def test_verdicts_and_report_say_why_the_field_was_left_out(tmp_path):
    """From the command line: a run of two 40-card decks under deck_size=40 gets its card
    verdicts, and the verdicts and the report say that the field's 60-card decks were not
    played and why."""
    shipped = GAME.load_matchup(FOLDER, "offense", "defense", "plain", "plain", {}, [])
    a, b = forty_card_lists(tmp_path, shipped)
    out = cardlab("simulate", str(a), str(b), "--folder", "payne", "--rules", "deck_size=40",
                  "-n", "400", "--results", str(tmp_path), "--run-id", "r", "-q")
    assert out.returncode == 0, out.stderr
    out = cardlab("verdicts", str(tmp_path / "r"), "--verdict-start", "200", "--verdict-max",
                  "400", "--policies", "1", "--field-matches", "100", "-q")
    assert out.returncode == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "field_worth: not measured" in said
    assert "field deck balanced in this run's matchup: deck lists 60 cards, must be exactly 40" \
        in said
    assert not (tmp_path / "r" / "verdicts_field.parquet").exists()
    assert cardlab("report", str(tmp_path / "r")).returncode == 0
    assert "field_worth: not measured" in (tmp_path / "r" / "report.md").read_text()


def test_verdicts_at_a_table_of_three_say_the_field_is_played_by_two(tmp_path):
    """Encounter at three players: the card verdicts come, and the field (played between
    two decks) is said to be left out, not silently missing."""
    out = cardlab("simulate", "--folder", "encounter", "--rules", "players=3", "-n", "300",
                  "--results", str(tmp_path), "--run-id", "r", "-q")
    assert out.returncode == 0, out.stderr
    out = cardlab("verdicts", str(tmp_path / "r"), "--verdict-start", "100", "--verdict-max",
                  "200", "--policies", "1", "--field-matches", "100", "-q")
    assert out.returncode == 0, out.stderr
    assert "field_worth: not measured: the field is played at a table of two; this run " \
           "seats 3" in " ".join(out.stdout.split())
