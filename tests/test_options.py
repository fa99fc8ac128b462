"""Rule options, declared once per game (sim/kit/options.py): one parser for rules.toml,
--rules and the manifest, the docs' tables generated from the same declarations, and the
seat range a game declares instead of generic code reading its signatures."""

from __future__ import annotations

import re
import shutil

import pytest

from sim.kit import game as registry
from sim.kit.options import Option, Options

from .conftest import ROOT, cardlab

GAMES = registry.names() + registry.templates()
DOCS = {p: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_doc_has_the_generated_table_of_every_option(name):
    """The doc that names `cardlab options --folder GAME` holds its table, word for word."""
    docs = [text for text in DOCS.values() if f"cardlab options --folder {name}`" in text]
    assert len(docs) == 1, name
    block = re.search(r"<!-- options: generated[^\n]*-->\n(.*?)<!-- options: end -->",
                      docs[0], re.S)
    assert block and block.group(1) == registry.get(name).options.markdown()
    for option in registry.get(name).options.options:
        assert option.doc and f"`{option.name}`" in block.group(1)


@pytest.mark.parametrize("name", GAMES)
def test_the_manifest_records_every_declared_option_and_reads_back(name):
    from sim.kit.folders import read_folder

    g, info = registry.get(name), read_folder(ROOT / "decks" / name)
    m = g.load_matchup(info.path, *info.decks, info.policy, info.policy, {}, [])
    recorded = g.describe(m)["rules"]
    assert list(recorded) == [o.name for o in g.options.options]
    # A manifest written before an option existed reads back with that option's default.
    older = {k: v for k, v in recorded.items() if k != g.options.options[-1].name}
    assert g.from_manifest({**g.describe(m), "rules": older}).rules == m.rules


def options_for_test() -> Options:
    return Options((Option("size", 7, "cards drawn", lo=1, hi=9),
                    Option("mode", "a", "which mode", words=("a", "b")),
                    Option("fast", False, "whether it is fast"),
                    Option("games", 1, "games a match", allowed=(1, 3))),
                   lambda v: [v["size"], ("a", "b").index(v["mode"]), int(v["fast"]),
                              v["games"]])


def test_one_parser_names_the_file_the_line_and_the_option(tmp_path):
    from sim.core.problems import InputError

    toml = tmp_path / "rules.toml"
    toml.write_text('size = 7\nmode = "c"\nfast = 1\ngames = 2\nsiz = 3\n')
    with pytest.raises(InputError) as err:
        options_for_test().load(toml)
    said = [(p.line, p.message) for p in err.value.problems]
    assert (2, "rule option 'mode': must be one of a, b; got 'c'") in said
    assert (3, "rule option 'fast': must be true or false, got 1") in said
    assert (4, "rule option 'games': must be one of 1, 3, got 2") in said
    assert any(line == 5 and "did you mean 'size'" in msg for line, msg in said), said
    rules = options_for_test().rules()
    assert rules.vector.tolist() == [7, 0, 0, 1] and not rules.vector.flags.writeable
    changed = rules.replace({"size": 9, "mode": "b"})
    assert changed.vector.tolist() == [9, 1, 0, 1] and rules["size"] == 7
    with pytest.raises(InputError, match=r"--rules:0: rule option 'size': 10 is out of range"):
        rules.replace(size=10)
    assert options_for_test().variants(rules.values) == [
        {"size": 8}, {"mode": "b"}, {"fast": True}, {"games": 3}]


def test_the_options_command_shows_the_folder_value_beside_the_default(tmp_path):
    folder = tmp_path / "payne"
    shutil.copytree(ROOT / "decks" / "payne", folder)
    (folder / "rules.toml").write_text("points_to_win = 12\n")
    out = cardlab("options", "--folder", str(folder))
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if "points_to_win" in line)
    assert re.search(r"\b10\b.*\b12\b", row), row
    bad = cardlab("simulate", "--folder", str(folder), "--rules", "points_to_win=0", "-n", "10",
                  "--results", str(tmp_path / "r"))
    assert bad.returncode == 2 and "points_to_win" in bad.stderr and "1..999" in bad.stderr


def test_the_options_command_prints_the_docs_words_as_written():
    """A `[table]` in an option's words is text, shown as the --markdown table shows it."""
    out = cardlab("options", "--folder", "encounter")
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("│ players "))
    assert "from `[table]` or `--table`" in row, row


def test_table_decks_no_seat_takes_are_refused(tmp_path):
    """--table names the decks of seats C, D ...: at Encounter's table of two (its default)
    or with more decks than seats, it is an error, never dropped without a word."""
    for rules in ([], ["--rules", "players=3"]):
        out = cardlab("simulate", "--folder", "encounter", "--table", "orc-raiders,orc-ambush",
                      *rules, "-n", "10", "--results", str(tmp_path))
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert "--table" in out.stderr and "3 or more" in out.stderr
        assert "players=N" in out.stderr
    assert not any(tmp_path.iterdir())


def test_a_game_declares_its_seats_and_only_a_larger_table_takes_more_decks(tmp_path):
    assert registry.get("paintline").seats == (2, 2)
    assert registry.get("encounter").seats == (2, 4)
    out = cardlab("simulate", "--folder", "paintline", "--table", "ussr-red-tide", "-n", "10",
                  "--results", str(tmp_path))
    assert out.returncode == 2 and "seats two players" in out.stderr
