"""Payne's validator: every deck and card rule as a clear error naming file, line and card."""

import dataclasses
import shutil
from pathlib import Path

import pytest

from sim.core.problems import InputError
from sim.payne.decks import check_paths

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "payne"
    shutil.copytree(FOLDER, copy)
    return copy


def test_sample_folder_is_clean():
    notes, problems = check_paths([FOLDER])
    # The folder line and one per deck: offense, defense, balanced, tricks.
    assert problems == [] and len(notes) == 5


def edit_card(folder, cid, column, value):
    path = folder / "cards.csv"
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    for i, line in enumerate(lines):
        if line.startswith(cid + ","):
            cells = line.split(",")
            cells[header.index(column)] = value
            lines[i] = ",".join(cells)
            break
    path.write_text("\n".join(lines) + "\n")
    return path, i + 1


@pytest.mark.parametrize("cid,column,value,words", [
    ("kira-vance", "rarity", "common", "3 lit arrows is rare"),
    ("kira-vance", "arrows", "NXS.", "arrows 'NXS.'"),
    ("laptop", "arg1", "4", "-3..-1 or 1..3"),
    ("laptop", "effect1", "ArrowAdvantge", "did you mean 'ArrowAdvantage'"),
    ("pop-quiz", "arg1", "2", "takes none"),
    ("laptop", "arrows", "N...", "only characters have arrows"),
    # "using the power printed on the card": both engines read a character's power from
    # effect1, so a second effect alone would leave it a character with no power, silently
    ("xena-brooks", "effect2", "Reveal", "effect2 without effect1"),
])
def test_card_errors(folder, cid, column, value, words):
    path, line = edit_card(folder, cid, column, value)
    _, problems = check_paths([folder])
    assert any(p.path == str(path) and p.line == line and cid in p.message
               and words in p.message for p in problems), problems


def write_deck(folder, body):
    path = folder / "offense.deck"
    path.write_text(body)
    return path


def test_deck_size_caps_and_roles(folder):
    base = (FOLDER / "offense.deck").read_text()
    path = write_deck(folder, base.replace("1 kira-vance\n", "2 kira-vance\n"))
    _, problems = check_paths([path])
    assert any("kira-vance" in p.message and "rare/super_rare" in p.message for p in problems)
    assert any("61 cards" in p.message for p in problems)
    path = write_deck(folder, base.replace("3 Laptop", "4 Laptop").replace("2 Detention",
                                                                           "1 Detention"))
    _, problems = check_paths([path])
    assert [p.line for p in problems] == [33] and "4 common" in problems[0].message
    path = write_deck(folder, "30 blank\n30 avery-quill\n")
    _, problems = check_paths([path])
    messages = " ".join(p.message for p in problems)
    assert "needs a defensive character" in messages and "30 copies" in messages


def test_unknown_and_ambiguous_cards(folder):
    path = write_deck(folder, "3 Kira Vance\n57 blank\n")
    _, problems = check_paths([path])
    assert problems[0].line == 1 and "use an id" in problems[0].message
    path = write_deck(folder, "3 laptpo\n")
    _, problems = check_paths([path])
    assert "did you mean" in problems[0].message


def test_rule_values(folder):
    path = folder / "rules.toml"
    text = path.read_text().replace('geometry = "facing"', 'geometry = "sideways"')
    path.write_text(text.replace("max_changed = 3", "max_changed = 5"))
    _, problems = check_paths([path])
    lines = text.splitlines()
    assert {p.line for p in problems} == {
        next(i for i, x in enumerate(lines, 1) if x.startswith("geometry")),
        next(i for i, x in enumerate(lines, 1) if x.startswith("max_changed"))}


def test_validate_a_matchup_built_in_memory():
    """GAME.validate: the deck and card rules on an experiment's variant; Blanks uncapped."""
    from sim.kit.game import get
    from sim.payne import pool as T
    from sim.payne.edits import with_deck

    game = get("payne")
    m = game.load_matchup(FOLDER, "offense", "defense", "prior", None, {}, [])
    assert game.validate(m) == []
    ids = {cid: i for i, cid in enumerate(m.pool.ids)}
    counts = dict(m.decks[0].counts)
    # a second copy of a rare (one rare or super rare copy per name), still 60 cards
    two = {**counts, ids["kira-vance"]: 2, ids["detention"]: 1}
    problems = game.validate(with_deck(m, 0, two))
    assert len(problems) == 1 and "kira-vance" in problems[0].message \
        and "at most 1" in problems[0].message
    # 61 cards: the size rule
    problems = game.validate(with_deck(m, 0, {**counts, ids["detention"]: 3}))
    assert len(problems) == 1 and "61 cards" in problems[0].message \
        and "exactly 60" in problems[0].message
    # any number of Blanks, counted as cards: 20 in place of 20 cards
    blanks = {c: n for c, n in counts.items() if m.pool.table[c, T.C_KIND] == T.CHARACTER}
    blanks[ids["quinn-ashby"]] = blanks[ids["avery-quill"]] = 0
    blanks[ids["dorian-vale"]] = 0
    blanks = {c: n for c, n in blanks.items() if n}
    blanks[ids["blank"]] = 60 - sum(blanks.values())
    assert blanks[ids["blank"]] == 17 and game.validate(with_deck(m, 0, blanks)) == []
    # an illegal card value: ArrowAdvantage takes -3..-1 or 1..3
    table = m.pool.table.copy()
    table[ids["laptop"], T.C_ARG1] = 5
    bad = dataclasses.replace(m, pool=m.pool.with_table(table))
    problems = game.validate(bad)
    assert len(problems) == 1 and "'laptop'" in problems[0].message \
        and "got 5" in problems[0].message
    assert problems[0].line == m.pool.lines[ids["laptop"]]


def test_sides_a_card_value_written_back_as_arrows_and_rarity():
    """A character's sides (those that help its role) are a card value balance may move:
    --set reads them, and the patch writes the arrows they make with the rarity the
    rulebook gives those lit arrows (offensive 3 lit rare; defensive 2 lit uncommon)."""
    from sim.payne.batch import load_matchup
    from sim.payne.tuning import TUNING

    m = load_matchup(FOLDER, "offense", "defense", "prior", "prior")
    # Avery Quill, offensive, arrows N...: one lit side helps it. Vera Thorne, defensive,
    # arrows ....: four unlit sides help it.
    assert TUNING.card_value(m, "avery-quill.sides") == 1
    assert TUNING.card_value(m, "vera-thorne.sides") == 4
    assert TUNING.csv_cells(m, "avery-quill.sides", 3) == {"arrows": "NES.", "rarity": "rare"}
    # Two sides given up, the last (W, then S) first: S and W lit.
    assert TUNING.csv_cells(m, "vera-thorne.sides", 2) == {"arrows": "..SW",
                                                            "rarity": "uncommon"}
    assert TUNING.csv_cells(m, "laptop.arg1", 2) == {"arg1": "2"}
    # No lit side: still common, so the decks stay legal.
    changed = load_matchup(FOLDER, "offense", "defense", "prior", "prior", sets=[
        "avery-quill.sides=0"])
    assert TUNING.card_value(changed, "avery-quill.sides") == 0
    with pytest.raises(InputError, match="sides 0 .. 4 of a character"):
        load_matchup(FOLDER, "offense", "defense", "prior", "prior", sets=["laptop.sides=1"])
