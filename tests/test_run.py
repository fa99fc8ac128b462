"""Chunked runs into the results store: same bytes for any split or backend, resume, errors."""

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from sim.paintline.batch import load_matchup
from sim.paintline.game import GAME
from sim.runner.run import simulate
from sim.store.runs import StoreError, read_table

from .conftest import FOLDER, ROOT, cardlab, cardlab_process

GAMES = 6000


@pytest.fixture(scope="module")
def m():
    return load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "random", "greedy")


def tables(path):
    return [read_table(path, name) for name in ("matches", "histograms", "cards")]


def assert_same_run(a, b):
    for x, y in zip(tables(a), tables(b), strict=True):
        assert x.equals(y)


@pytest.fixture(scope="module")
def baseline(m, tmp_path_factory):
    root = tmp_path_factory.mktemp("base")
    simulate(GAME, m, GAMES, 5, results=root, run_id="base", chunk_size=1000, backend="serial")
    return root / "base"


def test_workers_chunks_and_backends_give_the_same_bytes(m, baseline, tmp_path):
    runs = {
        "loky1": dict(workers=1, chunk_size=1500, backend="loky"),
        "loky2": dict(workers=2, chunk_size=700, backend="loky"),
        "dask": dict(workers=2, chunk_size=1000, backend="dask"),
    }
    for run_id, kw in runs.items():
        res = simulate(GAME, m, GAMES, 5, results=tmp_path, run_id=run_id, **kw)
        assert res.matches == GAMES and res.status == "complete"
        assert_same_run(baseline, tmp_path / run_id)
    df = read_table(baseline, "matches")
    assert df.match_index.tolist() == list(range(GAMES))


def test_ctrl_c_names_the_run_it_made_and_that_command_finishes_it(tmp_path):
    """Without --run-id the run is named by simulate: the resume command printed on Ctrl-C
    names that folder (it printed `--resume None`), and running it finishes the run."""
    env = {**os.environ, "CI": "1"}
    start = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "from sim.cli.app import app; app()")
    cmd = [sys.executable, "-c", start, "simulate", "-n", "20000", "--chunk-size", "500",
           "--results", str(tmp_path), "--backend", "serial"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline:
        made = [c for c in tmp_path.glob("*/chunks/*") if c.name.isdigit()]
        if len(made) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    name = re.search(r"--resume (\S+)", err).group(1)
    assert (tmp_path / name / "manifest.json").is_file(), err
    again = cardlab("simulate", "--results", str(tmp_path), "--resume", name)
    assert again.returncode == 0, again.stderr
    assert "20,000" in again.stdout


def test_a_target_half_width_stops_near_the_matches_it_needs(tmp_path):
    """--target-ci 0.02 needs at most 1.96^2 / 4 / 0.02^2 = 2,401 matches, whatever the win
    rate (the interval is widest at one half): the run stops by then, in chunks of a quarter
    of that (601), not after a whole default chunk of 50,000."""
    out = cardlab("simulate", "-n", "1", "--target-ci", "0.02", "--results", str(tmp_path),
                  "--run-id", "t", "-q")
    assert out.returncode == 0, out.stderr
    from statsmodels.stats.proportion import proportion_confint

    wins = read_table(tmp_path / "t", "matches").sort_values("match_index").winner.eq(0)
    played = len(wins)
    assert played % 601 == 0 and 601 <= played <= 4 * 601

    def half(n):
        lo, hi = proportion_confint(int(wins[:n].sum()), n, method="wilson")
        return (hi - lo) / 2

    assert half(played) <= 0.02
    assert played == 601 or half(played - 601) > 0.02  # the first chunk to meet it


def test_killed_run_resumes_to_the_same_result(m, tmp_path):
    env = {**os.environ, "CI": "1"}
    cmd = [sys.executable, "-c", "from sim.cli.app import app; app()", "simulate",
           "-n", "24000", "--chunk-size", "400", "--seed", "9", "--policy-a", "random",
           "--policy-b", "greedy", "--results", str(tmp_path), "--run-id", "killed",
           "--backend", "serial"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    chunks = tmp_path / "killed" / "chunks"
    deadline = time.time() + 300
    while time.time() < deadline:
        if chunks.is_dir() and len([p for p in chunks.iterdir() if p.name.isdigit()]) >= 3:
            break
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len([p for p in chunks.iterdir() if p.name.isdigit()])
    assert 3 <= done_before < 60
    # Killed, the run never wrote its last status: it is listed as interrupted all the
    # same, with the matches of the chunks it finished.
    assert listed(tmp_path)["killed"][3:5] == ["interrupted", f"{done_before * 400:,}"]
    out = cardlab_process("simulate", "--resume", "killed", "--results", str(tmp_path), "-q")
    assert out.returncode == 0, out.stderr
    whole = simulate(GAME, load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "random", "greedy"),
                     24000, 9, results=tmp_path, run_id="whole", chunk_size=400,
                     backend="serial")
    assert whole.matches == 24000
    assert_same_run(tmp_path / "killed", tmp_path / "whole")
    assert not [p for p in chunks.iterdir() if p.name.startswith(".")]


def listed(results) -> dict[str, list[str]]:
    """The rows of `cardlab runs`, by run id."""
    out = cardlab("runs", "--results", str(results))
    assert out.returncode == 0, out.stderr
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.stdout.splitlines()
            if "│" in line]
    return {r[0]: r for r in rows}


def test_a_partial_run_is_listed_and_reported_as_partial(baseline, tmp_path):
    """A run killed (its manifest still says running, its writer gone), one stopped with
    Ctrl-C (interrupted) and one being written: `runs` gives each its state and the
    matches of its finished chunks, and a report says the run is partial, of how many
    planned, and how to finish it."""
    import json
    import shutil

    from sim.store.lock import WRITER, writing

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    for run_id, status in (("killed", "running"), ("stopped", "interrupted"),
                           ("resumed", "running")):
        run = tmp_path / run_id
        shutil.copytree(baseline, run)
        for chunk in ("000003", "000004", "000005"):
            shutil.rmtree(run / "chunks" / chunk)
        manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        (run / "manifest.json").write_text(json.dumps(
            manifest | {"run_id": run_id, "status": status, "matches_done": 0}),
            encoding="utf-8")
    (tmp_path / "killed" / WRITER).write_text(
        f"a simulation by process {gone} on {socket.gethostname()} since 2026-01-01 "
        "00:00:00 UTC\n", encoding="utf-8")
    rows = listed(tmp_path)
    assert rows["killed"][3:5] == ["interrupted", "3,000"]
    assert rows["stopped"][3:5] == ["interrupted", "3,000"]
    # A resume takes the lock and says running: while it lives, the run is running.
    with writing(tmp_path / "resumed", "a resume"):
        assert listed(tmp_path)["resumed"][3:5] == ["running", "3,000"]
    for run_id in ("killed", "stopped"):
        out = cardlab("report", run_id, "--results", str(tmp_path), "--no-verdicts",
                      "--no-seatings")
        assert out.returncode == 0, out.stderr
        md = " ".join((tmp_path / run_id / "report.md").read_text(encoding="utf-8").split())
        said = (f"Partial run (interrupted): 3,000 of 6,000 planned matches; finish it with "
                f"`cardlab simulate --resume {run_id} --results {tmp_path}`")
        assert said in md
        assert said in " ".join(out.stderr.split())


def test_a_second_writer_is_told_the_run_is_busy_and_by_whom(m, baseline, tmp_path):
    import json
    import shutil

    from sim.store.lock import writing

    # An interrupted copy of the baseline: its last chunk gone, its status interrupted.
    run = tmp_path / "r1"
    shutil.copytree(baseline, run)
    shutil.rmtree(run / "chunks" / "000005")
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    (run / "manifest.json").write_text(json.dumps(manifest | {"status": "interrupted"}),
                                       encoding="utf-8")
    with writing(run, "a resume"):
        for args in (["simulate", "--resume", "r1"], ["verdicts", "r1"]):
            out = cardlab_process(*args, "--results", str(tmp_path), "-q")
            assert out.returncode == 2, out.stderr
            assert f"{run} is busy: a resume by process {os.getpid()}" in out.stderr
            assert "Traceback" not in out.stderr
        # Refused before it read or wrote anything: no chunk, no half-written folder.
        assert sorted(p.name for p in (run / "chunks").iterdir()) == [
            f"{i:06d}" for i in range(5)]
    out = cardlab_process("simulate", "--resume", "r1", "--results", str(tmp_path), "-q")
    assert out.returncode == 0, out.stderr
    assert_same_run(baseline, run)
    assert not (run / ".writer").exists()


def test_complete_runs_are_immutable_and_ids_are_safe(m, baseline, tmp_path):
    with pytest.raises(StoreError, match="complete"):
        simulate(None, None, 0, 0, results=baseline.parent, resume="base")
    with pytest.raises(StoreError, match="exists"):
        simulate(GAME, m, 10, 1, results=baseline.parent, run_id="base")
    for bad in ("../up", "a/b", ".hidden", "", "x" * 200):
        with pytest.raises(StoreError, match="safe name"):
            simulate(GAME, m, 10, 1, results=tmp_path, run_id=bad)
    assert list(tmp_path.iterdir()) == []


def test_target_precision_is_met_and_independent_of_workers(tmp_path):
    # Two even-handed policies: against a random seat the first chunk is already precise.
    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "lookahead")
    a = simulate(GAME, m, 0, 3, results=tmp_path, run_id="a", chunk_size=500, workers=1,
                 backend="serial", target_ci=0.008, max_matches=20000)
    b = simulate(GAME, m, 0, 3, results=tmp_path, run_id="b", chunk_size=500, workers=3,
                 backend="serial", target_ci=0.008, max_matches=20000)
    assert a.matches == b.matches < 20000
    df = read_table(tmp_path / "a", "matches")
    from sim.runner.run import half_width

    assert half_width(int((df.winner == 0).sum()), len(df)) <= 0.008
    first = df.iloc[: len(df) - 500]
    assert len(first) > 0
    assert half_width(int((first.winner == 0).sum()), len(first)) > 0.008
    assert_same_run(tmp_path / "a", tmp_path / "b")


def test_cli_replay_equals_batch_record(tmp_path):
    out = cardlab("simulate", "-n", "300", "--chunk-size", "100", "--results", str(tmp_path),
                  "--run-id", "r", "-q", "--policy", "lookahead")
    assert out.returncode == 0, out.stderr
    for game in (0, 150, 299):
        rep = cardlab("replay", "r", str(game), "--results", str(tmp_path))
        assert rep.returncode == 0, rep.stderr
        assert "matches the batch record" in rep.stdout and "hits" in rep.stdout
    # the run folder's path, as `simulate` prints it, names the run as well as its id
    by_path = cardlab("replay", str(tmp_path / "r"), "150")
    assert by_path.returncode == 0, by_path.stderr
    assert by_path.stdout == cardlab("replay", "r", "150", "--results", str(tmp_path)).stdout
    listing = cardlab("runs", "--results", str(tmp_path))
    assert "complete" in listing.stdout and "lookahead" in listing.stdout


def test_check_names_a_path_that_is_not_there(tmp_path):
    out = cardlab("check", str(tmp_path / "nowhere"), "decks/payne")
    assert out.returncode == 2
    assert f"{tmp_path / 'nowhere'}:0: no such file or folder" in out.stderr
    assert "1 problem(s) found" in out.stderr and "legal" in out.stdout


def test_diff_takes_run_folders_as_simulate_prints_them(tmp_path):
    for run, seed in (("a", "1"), ("b", "2")):
        assert cardlab("simulate", "-n", "200", "--seed", seed, "--results", str(tmp_path),
                       "--run-id", run, "-q").returncode == 0
    by_id = cardlab("diff", "a", "b", "--results", str(tmp_path))
    assert by_id.returncode == 0, by_id.stderr
    by_path = cardlab("diff", str(tmp_path / "a"), str(tmp_path / "b"))
    assert by_path.returncode == 0, by_path.stderr
    assert by_path.stdout == by_id.stdout and "a -> b" in by_id.stdout


def test_diff_refuses_runs_at_two_table_sizes(tmp_path):
    """A seat's quantities at a table of four are not those at a table of two ("deck A
    wins" has a fair share of 1/4 there): diff says so in either order, exit status 2."""
    for run, players in (("four", "4"), ("two", "2")):
        assert cardlab("simulate", "--folder", "encounter", "-n", "50", "--rules",
                       f"players={players}", "--results", str(tmp_path), "--run-id", run,
                       "-q").returncode == 0
    for a, b in (("four", "two"), ("two", "four")):
        out = cardlab("diff", a, b, "--results", str(tmp_path))
        assert out.returncode == 2, out.stderr
        assert "Traceback" not in out.stderr and not out.stdout.strip()
        said = " ".join(out.stderr.split())
        assert f"{tmp_path / b}:0:" in said
        assert "different numbers of players" in said
        assert "seats 4 players" in said and "seats 2 players" in said


def test_runs_lists_the_runs_beside_the_folders_experiments_wrote(tmp_path):
    """A results folder where an experiment also wrote (its manifest names its kind, no run
    id): `cardlab runs` lists both, and the workbench's interrupted runs are runs only."""
    from sim.web.desk import Desk

    assert cardlab("simulate", "-n", "200", "--results", str(tmp_path), "--run-id", "r",
                   "-q").returncode == 0
    meta = cardlab("meta", "--folder", "highcard", "-n", "20", "--results", str(tmp_path),
                   "--run-id", "m", "-q")
    assert meta.returncode == 0, meta.stderr
    listing = cardlab("runs", "--results", str(tmp_path))
    assert listing.returncode == 0, listing.stderr
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in listing.stdout.splitlines()
            if "│" in line]
    assert ["r", "paintline"] == rows[0][:2] and rows[0][3] == "complete", listing.stdout
    assert "experiments" in listing.stdout
    assert ["m", "meta", "highcard"] in [r[:3] for r in rows], listing.stdout
    assert Desk("decks/highcard", tmp_path).interrupted() == []
    # a command that reads a run, given the experiment's folder, says what it is
    for command in (["report", str(tmp_path / "m")], ["replay", "m", "0", "--results",
                                                        str(tmp_path)]):
        out = cardlab(*command)
        assert out.returncode == 2 and "holds what `cardlab meta` wrote, not a simulation " \
            "run" in " ".join(out.stderr.split()), out.stderr


def test_cli_bad_inputs(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        ["simulate", "nowhere/x.deck", "ussr-red-tide"],
        ["simulate", "--policy", "nope"],
        ["simulate", "--rules", "points_to_win"],
        ["simulate", "--set", "Drive Shot=3"],
        ["simulate", "--set", "Drive Shot.colour=3"],
        ["simulate", "--results", str(blocker / "sub")],
        ["simulate", "--backend", "carrier-pigeon"],
        ["replay", "missing-run", "0", "--results", str(tmp_path)],
    ]
    for args in cases:
        out = cardlab(*args, "-n", "10") if args[0] == "simulate" else cardlab(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr and "error:" in out.stderr, args


def test_joining_an_existing_dask_cluster(m, baseline, tmp_path):
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        res = simulate(GAME, m, GAMES, 5, results=tmp_path, run_id="joined", chunk_size=2000,
                       backend="dask", scheduler=cluster.scheduler_address)
    assert res.matches == GAMES
    assert_same_run(baseline, tmp_path / "joined")


def test_ctrl_c_keeps_chunks_and_prints_the_resume_command(tmp_path):
    env = {**os.environ, "CI": "1"}
    # A suite started in the background (`&`, nohup) passes SIGINT on ignored, and Python
    # then installs no KeyboardInterrupt: the child sets the handler a terminal's Python has.
    start = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "from sim.cli.app import app; app()")
    cmd = [sys.executable, "-c", start, "simulate", "-n", "200000",
           "--chunk-size", "1000", "--results", str(tmp_path), "--run-id", "int",
           "--backend", "serial"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    chunks = tmp_path / "int" / "chunks"
    deadline = time.time() + 300
    while time.time() < deadline:
        if chunks.is_dir() and len([p for p in chunks.iterdir() if p.name.isdigit()]) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "--resume int" in err and "Traceback" not in err
    import json

    manifest = json.loads((tmp_path / "int" / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert len([p for p in chunks.iterdir() if p.name.isdigit()]) >= 2
