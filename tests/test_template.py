"""The template a new game copies: `cardlab new-game`, whose copy must play exactly as the
template, and the solvers' handling of the template's bounds."""

import importlib
import shutil
import subprocess
import sys

import numpy as np

import sim
from sim.highcard.game import GAME
from sim.kit.template import begin

from .conftest import ROOT, cardlab

FOLDER = ROOT / "decks" / "highcard"


def test_new_game_copies_the_template_and_plays_as_it_does(tmp_path):
    (tmp_path / "sim" / "kit").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "sim" / "kit" / "game.py", tmp_path / "sim" / "kit" / "game.py")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    # A name no game of this checkout takes (one begun here with new-game keeps its own).
    made = begin("copy_of_the_template", "Copy of the Template", tmp_path)
    roles = {p.name for p in (ROOT / "sim" / "highcard").glob("*.py")}
    assert {p.name for p in made.package.glob("*.py")} == roles
    for path in made.package.glob("*.py"):
        assert "highcard" not in path.read_text(encoding="utf-8"), path
    toml = (made.folder / "game.toml").read_text(encoding="utf-8")
    assert 'game = "copy_of_the_template"' in toml
    assert '"copy_of_the_template": "sim.copy_of_the_template.game:GAME"' in (
        tmp_path / "sim" / "kit" / "game.py").read_text(encoding="utf-8")
    project = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert 'sim.copy_of_the_template",' in project  # the last of the games' layer
    assert project.count('"sim.copy_of_the_template"]') == 3  # each list of game packages
    assert not made.to_do
    scenarios = made.tests.read_text(encoding="utf-8")
    assert made.tests.name == "test_copy_of_the_template_rules.py" and "highcard" not in scenarios
    assert "from sim.copy_of_the_template.game import GAME" in scenarios
    assert "Copy of the Template's rules" in scenarios
    readme = (made.folder / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# Copy of the Template\n") and "highcard" not in readme
    assert "the template a new game copies" not in readme and "High Card" not in readme
    assert "cardlab simulate --folder copy_of_the_template" in readme
    assert "(../../docs/copy_of_the_template-rules.md)" in readme
    doc = (tmp_path / "docs" / "copy_of_the_template-rules.md").read_text(encoding="utf-8")
    assert "`cardlab options --folder copy_of_the_template`" in doc and "highcard" not in doc
    sim.__path__.append(str(tmp_path / "sim"))
    try:
        copy = importlib.import_module("sim.copy_of_the_template.game").GAME
        assert copy.name == "copy_of_the_template" and copy.title == "Copy of the Template"
        m = copy.load_matchup(made.folder, "steady", "peaks", "aim", "aim", {}, [])
        ours = GAME.load_matchup(FOLDER, "steady", "peaks", "aim", "aim", {}, [])
        rec = copy.run_batch(m, 60, 4, n_log=2)
        assert rec.same_as(copy.reference_batch(m, 60, 4, n_log=2))
        assert np.array_equal(rec.matches, GAME.run_batch(ours, 60, 4).matches)
    finally:
        sim.__path__.remove(str(tmp_path / "sim"))
        for key in [k for k in sys.modules if k.startswith("sim.copy_of_the_template")]:
            del sys.modules[key]


def test_new_game_refuses_a_taken_or_a_bad_name(tmp_path):
    out = cardlab("new-game", "payne", "--root", str(tmp_path))
    assert out.returncode == 2 and "'payne' is already a game" in out.stderr
    out = cardlab("new-game", "Dice Duel", "--root", str(tmp_path))
    assert out.returncode == 2 and "a Python name in lower case" in out.stderr
    assert not (tmp_path / "sim").exists() and "Traceback" not in out.stderr


def test_new_game_refuses_a_folder_name_a_long_name_stale_files_and_no_checkout(tmp_path):
    out = cardlab("new-game", "fresh", "--root", str(tmp_path))
    assert out.returncode == 2 and "not a cardlab checkout" in out.stderr
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for name in ("sim", "analysis", "docs", "tests", "results", "decks", "benchmarks",
                 "notebooks"):
        out = cardlab("new-game", name, "--root", str(tmp_path))
        assert out.returncode == 2 and "a folder of the checkout" in out.stderr, name
    out = cardlab("new-game", "y" * 250, "--root", str(tmp_path))
    assert out.returncode == 2 and "at most 36 characters" in out.stderr
    (tmp_path / "docs").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "docs" / "stale-rules.md").write_text("old\n", encoding="utf-8")
    (tmp_path / "tests" / "test_dusty_rules.py").write_text("old\n", encoding="utf-8")
    for name, path in (("stale", "stale-rules.md"), ("dusty", "test_dusty_rules.py")):
        out = cardlab("new-game", name, "--root", str(tmp_path))
        assert out.returncode == 2 and f"{path} already exists" in out.stderr
    assert not (tmp_path / "sim").exists() and not (tmp_path / "decks").exists()
    assert "Traceback" not in out.stderr


def test_new_game_refuses_a_title_no_string_can_hold_and_renames_once(tmp_path):
    for title in ('Dice "Duel"', "Dice \\ Duel", "x" * 61):
        out = cardlab("new-game", "quoted", "--title", title, "--root", str(tmp_path))
        assert out.returncode == 2 and "title" in out.stderr and "Traceback" not in out.stderr
        assert not (tmp_path / "sim").exists()
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    made = begin("variant", "High Card Variant", tmp_path)
    assert 'title = "High Card Variant"' in (made.folder / "game.toml").read_text("utf-8")
    assert 'title="High Card Variant"' in (made.package / "game.py").read_text("utf-8")
    assert "Variant Variant" not in (tmp_path / "docs" / "variant-rules.md").read_text("utf-8")


def test_new_game_lists_every_file_it_writes(tmp_path):
    for folder in ("sim/kit", "docs", "tests"):
        (tmp_path / folder).mkdir(parents=True)
    shutil.copy(ROOT / "sim" / "kit" / "game.py", tmp_path / "sim" / "kit" / "game.py")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    out = cardlab("new-game", "listed", "--root", str(tmp_path))
    assert out.returncode == 0, out.stderr
    for path in ("sim/listed", "decks/listed", "docs/listed-rules.md",
                 "tests/test_listed_rules.py"):
        assert str(tmp_path / path) in out.stdout and (tmp_path / path).exists(), path
    assert "docs/NAME-rules.md" in " ".join(cardlab("new-game", "--help").stdout.split())


def test_new_games_keep_the_ruff_settings_whatever_their_name_sorts_by(tmp_path):
    """A name sorting before the lab's modules and one after (`sim.kit`), the longest name
    and a long title: the written package and scenarios pass `ruff check`."""
    (tmp_path / "sim" / "kit").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    shutil.copy(ROOT / "sim" / "kit" / "game.py", tmp_path / "sim" / "kit" / "game.py")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    begin("abacus", "A Title Forty-One Characters Long, Nearly", tmp_path)
    begin("zebra_" + "z" * 30, "Z" * 41, tmp_path)
    # The scratch root lacks the lab's modules, which ruff would then take for third party.
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--config",
                          str(ROOT / "pyproject.toml"), "--config",
                          "lint.isort.known-first-party = ['sim', 'analysis']", "."],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_registry_line_whose_package_is_gone_breaks_only_its_own_game(tmp_path):
    """A REGISTRY line left behind by a removed game: the other games and commands run, and
    using it names sim/kit/game.py and its line, exit 2."""
    ghost = ("import sim.kit.game as g; g.REGISTRY['ghost'] = 'sim.ghost.game:GAME'; "
             "from sim.cli.app import app; app()")
    folder = tmp_path / "ghost"
    folder.mkdir()
    (folder / "game.toml").write_text('game = "ghost"\ntitle = "Ghost"\n[defaults]\n'
                                      'decks = ["a", "b"]\npolicy = "p"\n', encoding="utf-8")
    for args, rc in ((["games"], 0), (["simulate", "--folder", str(folder), "-n", "10",
                                      "--results", str(tmp_path / "results")], 2)):
        out = subprocess.run([sys.executable, "-c", ghost, *args], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == rc and "Traceback" not in out.stderr, out.stderr
    assert "payne" in subprocess.run([sys.executable, "-c", ghost, "games"], cwd=ROOT,
                                     capture_output=True, text=True).stdout
    assert "sim/kit/game.py" in out.stderr and "REGISTRY" in out.stderr
    assert "no module sim.ghost" in out.stderr and not (tmp_path / "results").exists()
    source = (ROOT / "sim" / "kit" / "game.py").read_text(encoding="utf-8").splitlines()
    line = next(n for n, t in enumerate(source, 1) if t.strip().startswith('"payne":'))
    from sim.kit.game import entry_line
    assert entry_line("payne") == line


def test_tune_skips_the_values_the_card_table_or_the_deck_rules_refuse(tmp_path):
    """Around Five's value 5 (0 .. 10): 0 and 10 are no number card's value, 6 .. 9 break
    steady's value cap of 100; tune tries 1 .. 5 and lists the others as skipped."""
    out = cardlab("tune", "--folder", "highcard", "five.value", "--target", "0.5", "-n", "200",
                  "--max-matches", "800", "--results", str(tmp_path), "-q")
    assert out.returncode == 0, out.stderr
    for v in (0, 6, 7, 8, 9, 10):
        assert f"skipped five.value={v}:" in out.stdout
    assert "skipped five.value=5" not in out.stdout and "best five.value = " in out.stdout
