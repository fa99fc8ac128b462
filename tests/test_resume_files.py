"""A resume plays what its run began on: meta, deckbuild and train refuse to resume when the
game folder's cards, a deck played, a policy or the rules changed since (exit 2, each file
named with what changed, and the ways on), and resume once the files are put back; an edit
that changes nothing played passes; a simulation's resume plays its manifest's values."""

import json
import pickle
import shutil

import pytest

from sim.experiments.meta import Field, meta
from sim.kit.game import get
from sim.runner.run import simulate

from .conftest import FOLDER, cardlab
from .test_resume import assert_same_records, cut, refused

DECKS = ["us-red-tide", "ussr-red-tide", "ussr-blitz"]
FILES = ("cards.csv", "ussr-blitz.deck", "policies.toml", "rules.toml")


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def edit_played(folder) -> None:
    """The sample folder as cards.csv, ussr-blitz.deck, policies.toml and rules.toml give
    it, each edited: Push costs 0 -> 1, USSR Blitz holds 4 -> 3 Push and 16 -> 17 Stamina
    (still 60 cards), lookahead's cost weight 0.0001 -> 0.0002, points_to_win 11 -> 12."""
    edit(folder / "cards.csv", "push,Push,neutral,basic_shot,0,",
         "push,Push,neutral,basic_shot,1,")
    edit(folder / "ussr-blitz.deck", "4 Push\n", "3 Push\n")
    edit(folder / "ussr-blitz.deck", "16 Stamina\n", "17 Stamina\n")
    edit(folder / "policies.toml", "[lookahead]\nlook = 1.0\ncost = 0.0001\n",
         "[lookahead]\nlook = 1.0\ncost = 0.0002\n")
    edit(folder / "rules.toml", "points_to_win = 11\n", "points_to_win = 12\n")


def put_back(folder) -> None:
    for name in FILES:
        shutil.copy(FOLDER / name, folder / name)


@pytest.fixture
def folder(tmp_path):
    path = (tmp_path / "paintline").resolve()
    shutil.copytree(FOLDER, path)
    return path


def test_a_resumed_meta_refuses_changed_files_and_finishes_once_they_are_back(folder,
                                                                              tmp_path):
    """Cut with a pair never played: the edited files are refused, each named with what
    changed, before anything is played (the pair played the new values); put back, with
    a comment added (nothing played changes), the resume gives the uninterrupted run."""
    fld = Field(get("paintline"), folder, DECKS, "lookahead")
    meta(fld, 60, 5, tmp_path, "whole", workers=1, chunk_size=20, reps=20)
    run = tmp_path / "cut"
    shutil.copytree(tmp_path / "whole", run)
    shutil.rmtree(run / "pairs" / "02-01")
    (run / "matrix.parquet").unlink()
    edit_played(folder)
    args = ["meta", "--resume", "cut", "--results", str(tmp_path), "--workers", "1",
            "--reps", "20", "-q"]
    out = cardlab(*args)
    refused(out, f"{folder / 'cards.csv'}:0: changed since the run began: push cost 0 -> 1",
            f"{folder / 'ussr-blitz.deck'}:0: deck ussr-blitz changed since the run began: "
            "push 4 -> 3 copies; stamina 16 -> 17 copies",
            f"{folder / 'policies.toml'}:0: changed since the run began: the settings of "
            "policy lookahead",
            f"{folder / 'rules.toml'}:0: rule options changed since the run began: "
            "points_to_win 11 -> 12")
    said = " ".join(out.stderr.split())
    assert f"{run}:0: not resumed: the game folder's files changed since the run began" in said
    assert "Put the files back as they were to finish it, or start a new run" in said
    assert not (run / "pairs" / "02-01").exists()
    put_back(folder)
    with open(folder / "rules.toml", "a", encoding="utf-8") as f:
        f.write("# a note that changes no rule\n")
    done = cardlab(*args)
    assert done.returncode == 0, done.stderr
    assert_same_records(tmp_path / "whole" / "pairs" / "02-01", run / "pairs" / "02-01")
    assert (run / "matrix.parquet").read_bytes() == (tmp_path / "whole" /
                                                     "matrix.parquet").read_bytes()
    # A rule option or card value typed at the run's own (rules.toml's points_to_win 11,
    # cards.csv's Push at cost 0) passes; another is refused.
    same = cardlab(*args, "--rules", "points_to_win=11", "--set", "push.cost=0")
    assert same.returncode == 0, same.stderr
    other = cardlab(*args, "--rules", "points_to_win=12", "--set", "push.cost=1")
    refused(other, "  --rules: points_to_win=12 given, the run's is points_to_win=11",
            "  --set: push.cost=1 given, the run's is push.cost=0")


def test_a_resumed_deckbuild_refuses_a_changed_card_table(folder, tmp_path):
    from sim.solvers.deckbuild import Search, deckbuild

    fld = Field(get("paintline"), folder, DECKS[:2], "lookahead")
    search = Search(rounds=2, mutants=3, start=20, elite=1, confirm=60, threshold=0.9)

    def stop(done, total, best, score):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        deckbuild(fld, "field", search, 7, tmp_path, "cut", progress=stop)
    edit(folder / "cards.csv", "push,Push,neutral,basic_shot,0,",
         "push,Push,neutral,basic_shot,1,")
    args = ["deckbuild", "--resume", "cut", "--results", str(tmp_path), "-q"]
    out = cardlab(*args)
    refused(out, f"{folder / 'cards.csv'}:0: changed since the run began: push cost 0 -> 1")
    assert json.loads((tmp_path / "cut" / "state.json").read_text())["done"] == 1
    put_back(folder)
    done = cardlab(*args)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "cut" / "state.json").read_text())["done"] == 2


def test_a_resumed_train_refuses_changed_files_before_it_trains(folder, tmp_path):
    base = ["train", "lookahead", "--folder", str(folder), "--results", str(tmp_path),
            "--no-write", "-q"]
    first = cardlab(*base, "--against", "random", "-n", "30", "--popsize", "3",
                    "--generations", "1", "--holdout", "100", "--run-id", "t")
    assert first.returncode == 0, first.stderr
    edit_played(folder)
    out = cardlab(*base, "--resume", "t", "--generations", "2")
    # The default decks (us-red-tide, ussr-red-tide) and the opponent random are played,
    # lookahead is trained: ussr-blitz's deck is no part of this run.
    refused(out, f"{folder / 'cards.csv'}:0: changed since the run began: push cost 0 -> 1",
            f"{folder / 'policies.toml'}:0: changed since the run began: the settings of "
            "policy lookahead",
            f"{folder / 'rules.toml'}:0: rule options changed since the run began: "
            "points_to_win 11 -> 12")
    assert "ussr-blitz" not in out.stderr
    assert pickle.loads((tmp_path / "t" / "state.pkl").read_bytes())["generation"] == 1
    put_back(folder)
    done = cardlab(*base, "--resume", "t", "--generations", "2")
    assert done.returncode == 0, done.stderr
    assert pickle.loads((tmp_path / "t" / "state.pkl").read_bytes())["generation"] == 2


def test_a_resumed_simulation_plays_the_values_its_manifest_holds(folder, tmp_path):
    """simulate keeps the whole matchup in its manifest: edited files change nothing in
    the rest of the run (no refusal needed), which gives the uninterrupted records."""
    game = get("paintline")
    m = game.load_matchup(folder, "us-red-tide", "ussr-blitz", "lookahead", "lookahead", {},
                          [])
    simulate(game, m, 1000, 5, results=tmp_path, run_id="whole", chunk_size=250,
             backend="serial")
    shutil.copytree(tmp_path / "whole", tmp_path / "cut")
    cut(tmp_path / "cut", [1, 3])
    edit_played(folder)
    done = cardlab("simulate", "--resume", "cut", "--results", str(tmp_path), "--backend",
                   "serial", "-q")
    assert done.returncode == 0, done.stderr
    assert_same_records(tmp_path / "whole", tmp_path / "cut")
