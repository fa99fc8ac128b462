"""Resuming an interrupted run (simulate, meta, deckbuild): an option typed that differs
from the run's is refused with exit 2, each named with both values, before anything is
played; left out, the run's own options finish it, and the records are those of the same
run played without interruption."""

import json
import shutil

import pandas as pd
import pytest

from sim.experiments.meta import Field, meta
from sim.kit.game import get
from sim.runner.run import simulate
from sim.store.runs import RunFolder, read_table

from .conftest import FOLDER, cardlab

DECKS = ["us-red-tide", "ussr-red-tide", "ussr-blitz"]


def cut(path, chunks) -> None:
    """An interrupted run, as the store leaves one: the chunks named never finished."""
    run = RunFolder(path.parent, path.name)
    for i in chunks:
        run.remove_chunk(i)
    run.write_manifest(run.read_manifest() | {"status": "interrupted"})


def records(path) -> list[pd.DataFrame]:
    return [read_table(path, name) for name in ("matches", "histograms", "cards")]


def assert_same_records(a, b) -> None:
    for x, y in zip(records(a), records(b), strict=True):
        pd.testing.assert_frame_equal(x, y)


def refused(out, *lines: str) -> None:
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    said = out.stderr.splitlines()
    for line in lines:
        assert line in said, (line, out.stderr)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """2,000 matches of the sample decks under lookahead, seed 5, in chunks of 500."""
    root = tmp_path_factory.mktemp("whole")
    game = get("paintline")
    m = game.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "lookahead", "lookahead",
                          {}, [])
    simulate(game, m, 2000, 5, results=root, run_id="whole", chunk_size=500,
             backend="serial")
    return root / "whole"


def test_a_resumed_simulation_refuses_other_options_and_finishes_with_its_own(whole,
                                                                              tmp_path):
    run = tmp_path / "cut"
    shutil.copytree(whole, run)
    cut(run, [1, 3])
    out = cardlab("simulate", "ussr-blitz", "--resume", "cut", "--results", str(tmp_path),
                  "-n", "1000", "--seed", "7", "--policy", "random", "--rules",
                  "points_to_win=15", "--set", "push.cost=3", "--chunk-size", "250",
                  "--run-id", "other", "-q")
    # The run's values: its own numbers, the sample rules (points_to_win = 11) and cards
    # (Push costs 0), as docs/rules.md and cards.csv give them.
    refused(out, "  --matches: 1000 given, the run's is 2000",
            "  --seed: 7 given, the run's is 5",
            "  --chunk-size: 250 given, the run's is 500",
            "  --run-id: other given, the run's is cut",
            "  DECK_A: ussr-blitz given, the run's is us-red-tide",
            "  --policy: random given, the run's is lookahead",
            "  --rules: points_to_win=15 given, the run's is points_to_win=11",
            "  --set: push.cost=3 given, the run's is push.cost=0")
    # Nothing played or changed: the same two chunks, still interrupted.
    assert RunFolder(tmp_path, "cut").complete_chunks() == [0, 2]
    assert json.loads((run / "manifest.json").read_text())["status"] == "interrupted"
    # The same options typed again, and those harmless to change, are accepted.
    again = cardlab("simulate", "us-red-tide", "decks/paintline/ussr-red-tide.deck",
                    "--resume", "cut", "--results", str(tmp_path), "-n", "2000", "--seed",
                    "5", "--policy", "lookahead", "--set", "push.cost=0", "--workers", "1",
                    "--backend", "serial", "-q")
    assert again.returncode == 0, again.stderr
    assert_same_records(whole, run)


def test_a_resumed_simulation_with_a_gap_gives_the_uninterrupted_records(whole, tmp_path):
    """Chunks finished out of order (several workers) leave a gap: resumed, the missing
    chunks play their own matches (500 .. 999 and 1500 .. 1999), not matches 0 .. n-1."""
    run = tmp_path / "gap"
    shutil.copytree(whole, run)
    cut(run, [1, 3])
    simulate(None, None, 0, 0, results=tmp_path, resume="gap", backend="serial")
    assert_same_records(whole, run)
    assert read_table(run, "matches").match_index.tolist() == list(range(2000))


@pytest.fixture(scope="module")
def field_run(tmp_path_factory):
    """A meta run of three sample decks under lookahead, 60 matches a seat, seed 5."""
    root = tmp_path_factory.mktemp("meta")
    fld = Field(get("paintline"), FOLDER, DECKS, "lookahead")
    meta(fld, 60, 5, root, "whole", workers=1, chunk_size=20, reps=20)
    return root / "whole"


def test_a_resumed_meta_refuses_other_options_and_plays_the_rest_as_the_run(field_run,
                                                                           tmp_path):
    """Cut mid-pair (one pair's chunk lost, its run interrupted) and a pair never played:
    `meta --resume` with other options is refused naming each; with none, the pairs are
    played with the run's decks, policy and seed (it played them with the folder's default
    policy, and its printout took the folder's field), every pair's records as the
    uninterrupted run's."""
    run = tmp_path / "cut"
    shutil.copytree(field_run, run)
    cut(run / "pairs" / "01-02", [1])
    shutil.rmtree(run / "pairs" / "02-01")
    (run / "matrix.parquet").unlink()
    args = ["meta", "--resume", "cut", "--results", str(tmp_path), "--workers", "1",
            "--reps", "20", "-q"]
    out = cardlab(*args, "--decks", "us-red-tide,ussr-blitz", "--policy", "greedy",
                  "--rules", "points_to_win=15", "-n", "100", "--seed", "9", "--folder",
                  "payne")
    refused(out, "  --decks: us-red-tide, ussr-blitz given, the run's is us-red-tide, "
            "ussr-red-tide, ussr-blitz",
            "  --policy: greedy given, the run's is lookahead",
            # The run's own value (docs/rules.md: points_to_win 11).
            "  --rules: points_to_win=15 given, the run's is points_to_win=11",
            "  --matches: 100 given, the run's is 60",
            "  --seed: 9 given, the run's is 5",
            f"  --folder: {(FOLDER.parent / 'payne').resolve()} given, the run's is "
            f"{FOLDER.resolve()}")
    assert not (run / "pairs" / "02-01").exists()
    done = cardlab(*args)
    assert done.returncode == 0, done.stderr
    assert "60 matches a seat" in done.stdout and "ussr-blitz" in done.stdout
    for pair in ("01-02", "02-01"):
        manifest = json.loads((run / "pairs" / pair / "manifest.json").read_text())
        assert [p["name"] for p in manifest["policies"]] == ["lookahead", "lookahead"]
        assert_same_records(field_run / "pairs" / pair, run / "pairs" / pair)
    assert (run / "matrix.parquet").read_bytes() == (field_run / "matrix.parquet").read_bytes()


def test_a_resumed_deckbuild_refuses_other_options_and_searches_as_the_run(tmp_path):
    from sim.solvers.deckbuild import Search, deckbuild

    fld = Field(get("paintline"), FOLDER, DECKS[:2], "lookahead")
    search = Search(rounds=2, mutants=3, start=20, elite=1, confirm=60, threshold=0.9)
    whole = deckbuild(fld, "field", search, 7, tmp_path, "whole")

    def stop(done, total, best, score):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        deckbuild(fld, "field", search, 7, tmp_path, "cut", progress=stop)
    args = ["deckbuild", "--resume", "cut", "--results", str(tmp_path), "-q"]
    out = cardlab(*args, "--policy", "greedy", "--against", "nash", "--rounds", "5",
                  "--confirm", "100", "--seed", "3")
    refused(out, "  --policy: greedy given, the run's is lookahead",
            "  --against: nash given, the run's is field",
            "  --rounds: 5 given, the run's is 2",
            "  --confirm: 100 given, the run's is 60",
            "  --seed: 3 given, the run's is 7")
    assert json.loads((tmp_path / "cut" / "state.json").read_text())["done"] == 1
    done = cardlab(*args, "--rounds", "2", "--mutants", "3")
    assert done.returncode == 0, done.stderr
    rounds = pd.read_parquet(tmp_path / "cut" / "rounds.parquet")
    pd.testing.assert_frame_equal(rounds, whole["rounds"])
    found = json.loads((tmp_path / "cut" / "found.json").read_text())
    assert found["counts"] == whole["found"].counts
