"""A resumed `train`: --generations is the count in all (the run's own when left out; below
the generations the run has trained, nothing more is trained, and the user is told), and
the matchup options are compared as the run resolved them: typing the deck, folder,
policy, rule value or card value the run played passes, another is refused."""

import dataclasses
import pickle
import shutil

import pandas as pd
import pytest

from sim.cli.shared import Setup
from sim.kit.game import get
from sim.solvers.train import train

from .conftest import FOLDER, cardlab
from .test_resume import refused


@pytest.fixture
def folder(tmp_path):
    path = (tmp_path / "paintline").resolve()
    shutil.copytree(FOLDER, path)
    return path


def cut_after(folder, results, generations: int, done: int) -> None:
    """A run "t" of lookahead against random planned for `generations`, interrupted once
    `done` generations were saved (as Ctrl-C leaves it)."""
    game = get("paintline")
    base = game.load_matchup(folder, "us-red-tide", "ussr-red-tide", "random", "random",
                             {}, [])

    def stop(g, total, top, mean, best):
        if g + 1 == done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(game, folder, base, "lookahead", "random", "x", matches=30, popsize=3,
              generations=generations, holdout=100, seed=1, results=results, run_id="t",
              write=False, setup=dataclasses.asdict(Setup(folder=str(folder))),
              progress=stop)


def generation(results) -> int:
    return pickle.loads((results / "t" / "state.pkl").read_bytes())["generation"]


def trained(results) -> list[int]:
    return sorted(set(pd.read_parquet(results / "t" / "generations.parquet").generation))


RESUME = ["train", "lookahead", "--resume", "t", "--no-write", "-q"]


def test_fewer_generations_than_the_run_has_trains_no_more_and_says_so(folder, tmp_path):
    cut_after(folder, tmp_path, 3, 2)
    out = cardlab(*RESUME, "--results", str(tmp_path), "--generations", "1")
    assert out.returncode == 0, out.stderr
    assert generation(tmp_path) == 2 and trained(tmp_path) == [0, 1]
    said = " ".join(out.stderr.split())
    assert ("the run has 2 generations already, more than --generations 1: nothing more is "
            "trained; the best of its 2 is checked on held-out seeds") in said


def test_fewer_generations_than_planned_stops_there(folder, tmp_path):
    cut_after(folder, tmp_path, 3, 1)
    out = cardlab(*RESUME, "--results", str(tmp_path), "--generations", "2")
    assert out.returncode == 0, out.stderr
    assert generation(tmp_path) == 2 and trained(tmp_path) == [0, 1]
    assert "nothing more is trained" not in out.stderr


def test_generations_left_out_finish_the_runs_own_count(folder, tmp_path):
    cut_after(folder, tmp_path, 2, 1)
    out = cardlab(*RESUME, "--results", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert generation(tmp_path) == 2 and trained(tmp_path) == [0, 1]


def test_options_typed_as_the_run_resolved_them_pass(folder, tmp_path):
    """The run left its decks, policies, rules and cards to the folder (us-red-tide against
    ussr-red-tide, rules.toml's points_to_win 11, cards.csv's Push at cost 0) and played
    random on both seats; typing those, a deck by its file too, passes."""
    base = ["train", "lookahead", "--folder", str(folder), "--results", str(tmp_path),
            "--no-write", "-q"]
    first = cardlab(*base, "--against", "random", "-n", "30", "--popsize", "3",
                    "--generations", "1", "--holdout", "100", "--run-id", "t")
    assert first.returncode == 0, first.stderr
    same = cardlab(*base, "--resume", "t", "us-red-tide", str(folder / "ussr-red-tide.deck"),
                   "--policy", "random", "--rules",
                   "points_to_win=11", "--set", "push.cost=0")
    assert same.returncode == 0, same.stderr
    other = cardlab(*base, "--resume", "t", "us-red-tide", "ussr-blitz", "--policy",
                    "greedy", "--rules", "points_to_win=15", "--set", "push.cost=3")
    refused(other, "  DECK_B: ussr-blitz given, the run's is ussr-red-tide",
            "  --policy: greedy given, the run's is random",
            "  --rules: points_to_win=15 given, the run's is points_to_win=11",
            "  --set: push.cost=3 given, the run's is push.cost=0")
    assert "DECK_A" not in other.stderr


def test_the_default_folder_typed_passes(tmp_path):
    """A run on the first game's folder, left out; typed by the game's name and by its
    path (nothing is written to it: --no-write)."""
    base = ["train", "lookahead", "--results", str(tmp_path), "--no-write", "-q"]
    first = cardlab(*base, "--against", "random", "-n", "30", "--popsize", "3",
                    "--generations", "1", "--holdout", "100", "--run-id", "t")
    assert first.returncode == 0, first.stderr
    for typed in ("paintline", str(FOLDER), "decks/paintline"):
        again = cardlab(*base, "--resume", "t", "--folder", typed, "us-red-tide")
        assert again.returncode == 0, (typed, again.stderr)
