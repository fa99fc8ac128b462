"""Random edits of every game's folder files: each edited folder gets a clean answer from the
readers and the validator (a list of problems, or a matchup that plays), never a traceback,
never a run out of memory."""

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.problems import InputError
from sim.kit import game as registry
from sim.kit.folders import read_folder

from .conftest import ROOT

GAMES = registry.names()
NUMBER = re.compile(r"-?\d+")
# What an edit puts in place of a number: small, negative, huge and absurd values.
VALUES = st.one_of(st.integers(-3, 70), st.sampled_from([-(10**12), 10**12, 10**20, 2**63]),
                   st.text("abc.-_ ,=#[]\"", max_size=6))


def files(game):
    folder = ROOT / "decks" / game
    return sorted(p.name for p in folder.iterdir() if p.suffix in (".csv", ".deck", ".toml"))


@st.composite
def edits(draw, game):
    """(file, line number, how, value): a number of a line replaced, the line dropped, or
    the line doubled."""
    name = draw(st.sampled_from(files(game)))
    lines = (ROOT / "decks" / game / name).read_text(encoding="utf-8").splitlines()
    no = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["number", "number", "number", "drop", "double"]))
    return name, no, how, draw(VALUES)


def edited(game, edit, where: Path) -> Path:
    name, no, how, value = edit
    folder = where / game
    shutil.copytree(ROOT / "decks" / game, folder)
    path = folder / name
    lines = path.read_text(encoding="utf-8").splitlines()
    line = lines[no]
    if how == "drop":
        del lines[no]
    elif how == "double":
        lines.insert(no, line)
    else:
        found = list(NUMBER.finditer(line))
        if found:
            m = found[len(line) % len(found)]
            lines[no] = line[:m.start()] + str(value) + line[m.end():]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def answer(folder: Path) -> str:
    """The readers' and validator's answer for a folder: 'problems', or 'played' after a
    few matches of its default matchup."""
    try:
        info = read_folder(folder)
        game = registry.get(info.game)
        _, problems = game.check_paths([folder])
        if problems:
            return "problems"
        m = game.load_matchup(info.path, *info.decks, info.policy, info.policy, {}, [])
        rec = game.run_batch(m, 3, 1)
        assert len(rec.matches) == 3
        return "played"
    except InputError as err:
        assert err.problems and all(str(p) for p in err.problems)
        return "problems"


@pytest.mark.parametrize("game", GAMES)
def test_a_huge_copy_count_is_a_problem_not_a_crash(game, tmp_path):
    for count in (10**12, 10**20):
        folder = tmp_path / str(count)
        shutil.copytree(ROOT / "decks" / game, folder)
        deck = sorted(folder.glob("*.deck"))[0]
        text = deck.read_text(encoding="utf-8")
        # The first card line's count (every game's deck lines begin with their count).
        deck.write_text(re.sub(r"(?m)^\d+(?=\s+\S)", str(count), text, count=1),
                        encoding="utf-8")
        assert str(count) in deck.read_text(encoding="utf-8")
        assert answer(folder) == "problems"


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_random_edit_gets_a_clean_answer(game, data):
    edit = data.draw(edits(game))
    with tempfile.TemporaryDirectory() as where:
        assert answer(edited(game, edit, Path(where))) in ("problems", "played")
