"""The first-use compile is announced with a time, recorded, and not repeated."""

import json

import pytest

from sim.core import jit
from sim.runner import warmup


class StandIn:
    """A game whose "engine" only counts the matches it is asked for."""

    name = "standin"
    title = "Stand-In"
    compile_seconds = 46.0

    def __init__(self):
        self.calls = []

    def run_batch(self, matchup, n, seed):
        self.calls.append((matchup, n, seed))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_first_use_is_announced_timed_and_recorded(cache, capsys):
    game = StandIn()
    seconds = warmup.ensure(game, "m")
    err = capsys.readouterr().err
    assert "compiling the Stand-In engine (first run after an install or an engine change, " \
           "about 46 s)" in err
    assert "compiled the Stand-In engine in" in err
    assert game.calls == [("m", 1, 0)] and seconds is not None
    marker = jit.cache_folder("standin") / warmup.MARKER
    assert json.loads(marker.read_text())["seconds"] == round(seconds, 1)
    assert warmup.is_compiled("standin")

    again = warmup.ensure(game, "m")
    assert again is None and capsys.readouterr().err == ""
    assert len(game.calls) == 2  # the engine is still loaded for the caller


def test_the_estimate_is_the_last_compile_on_this_machine(cache):
    other = jit.cache_folder("standin").parent / "0123456789abcdef"
    other.mkdir(parents=True)
    (other / warmup.MARKER).write_text(json.dumps({"game": "standin", "seconds": 133.0}))
    assert not warmup.is_compiled("standin")  # an older engine's cache is not this one
    assert warmup.last_seconds("standin", 46.0) == 133.0
    assert warmup._about(133.0) == "about 2 min"


def test_a_cache_filled_before_the_marker_is_loaded_silently(cache, capsys):
    folder = jit.cache_folder("standin")
    (folder / "rules").mkdir()
    (folder / "rules" / "rules.kernel-1.py311.nbi").write_bytes(b"")
    assert warmup.ensure(StandIn(), "m") is None
    assert capsys.readouterr().err == ""
    assert json.loads((folder / warmup.MARKER).read_text())["seconds"] is None


def test_warm_command_compiles_once_then_loads():
    from .conftest import cardlab, cardlab_process

    first = cardlab_process("warm", "--folder", "payne")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("payne: ")
    second = cardlab_process("warm", "--folder", "payne")
    assert second.stdout.startswith("payne: already compiled"), second.stdout
    bad = cardlab("warm", "--folder", "no-such-game")
    assert bad.returncode == 2 and "no such game folder" in bad.stderr


def test_warm_compiles_games_side_by_side():
    from .conftest import cardlab_process

    both = cardlab_process("warm", "--folder", "payne", "--folder", "paintline", "--jobs", "2")
    assert both.returncode == 0, both.stderr
    lines = both.stdout.splitlines()
    assert sorted(line.split(":")[0] for line in lines[:2]) == ["paintline", "payne"]
    assert lines[2].startswith("2 engines ready in ")


def test_twins_called_from_python_are_not_the_engine(cache, capsys):
    """A test that called a rule from Python leaves its twin in the cache (in a folder of
    its own); the engine is still to compile, and the wait is still announced."""
    folder = jit.cache_folder("standin") / jit.WRAPPED / "rules"
    folder.mkdir(parents=True)
    (folder / "rules.rule-1.py311.nbi").write_bytes(b"")
    seconds = warmup.ensure(StandIn(), "m")
    assert seconds is not None and "compiling the Stand-In engine" in capsys.readouterr().err
