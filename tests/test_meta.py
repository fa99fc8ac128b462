"""The metagame: the matrix, Nash mix, dominance and health on hand-made matrices whose answers
are known; `cardlab meta` bit-identical at 1 and 2 workers; deckbuild legal, reproducible and
resumable; the cards.csv patch; exit status 2 on every bad argument."""

import numpy as np
import pandas as pd
import pytest

from analysis import meta as analysis

from .conftest import FOLDER, cardlab


def scores_of(M: np.ndarray, n: int = 200) -> dict:
    """Per-match first-seat scores whose seat means are exactly M[i, j] (n a multiple of
    every denominator used) and whose second seat mirrors the first."""
    k = len(M)
    out = {}
    for i in range(k):
        for j in range(k):
            if i != j:
                wins = int(round(M[i, j] * n))
                out[i, j] = np.r_[np.ones(wins), np.zeros(n - wins)]
    return out


def test_nash_of_rock_paper_scissors_is_a_third_each():
    rps = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])
    assert np.allclose(analysis.nash(rps), [1 / 3, 1 / 3, 1 / 3], atol=1e-9)
    assert analysis.effective_decks(analysis.nash(rps)) == pytest.approx(3.0)


def test_nash_of_a_deck_that_beats_all_is_that_deck_alone():
    M = np.array([[0.5, 0.7, 0.6], [0.3, 0.5, 0.55], [0.4, 0.45, 0.5]])
    assert np.allclose(analysis.nash(M), [1, 0, 0], atol=1e-9)
    assert analysis.effective_decks(np.array([1.0, 0, 0])) == pytest.approx(1.0)


def test_dominated_deck_is_named():
    # A cycle (A beats B, B beats C, C beats A) has no dominated deck. In M2, A scores at
    # least as much as C against every deck (A, B and C itself) and more against one: A
    # dominates C; nothing dominates A.
    M = np.array([[0.5, 0.6, 0.4], [0.4, 0.5, 0.7], [0.6, 0.3, 0.5]])
    M2 = np.array([[0.5, 0.6, 0.55], [0.4, 0.5, 0.7], [0.45, 0.3, 0.5]])
    assert analysis.dominated(M, ["A", "B", "C"]).empty
    dom = analysis.dominated(M2, ["A", "B", "C"])
    assert ("C", "A") in set(zip(dom.deck, dom.dominated_by, strict=True))
    assert "A" not in set(dom.deck)


def test_identical_decks_do_not_dominate_each_other():
    # A beats B, B beats D, D beats A (0.6 each); C is a copy of A: the same scores against
    # B and D; their head-on matches, 0.52 for C, are the noise around one half of a deck
    # against itself. Domination needs a deck that scores more against some other deck,
    # not the head-on cell alone.
    names = ["A", "B", "C", "D"]
    M = np.array([[0.5, 0.6, 0.48, 0.4], [0.4, 0.5, 0.4, 0.6], [0.52, 0.6, 0.5, 0.4],
                  [0.6, 0.4, 0.6, 0.5]])
    assert analysis.dominated(M, names).empty
    # C one point better than A against B as well: C dominates A.
    M[2, 1], M[1, 2] = 0.61, 0.39
    dom = analysis.dominated(M, names)
    assert set(zip(dom.deck, dom.dominated_by, strict=True)) == {("A", "C")}
    assert dom.least_margin.iloc[0] == pytest.approx(0.0)


def test_health_line_of_a_cycle_and_of_a_deck_that_beats_all():
    # Of three decks, a healthy field has two in the Nash mix with an effective number of
    # 1.5: rock-paper-scissors has three at a third each; a deck that beats both is alone.
    rps = np.array([[0.5, 0.6, 0.4], [0.4, 0.5, 0.6], [0.6, 0.4, 0.5]])
    top = np.array([[0.5, 0.7, 0.6], [0.3, 0.5, 0.55], [0.4, 0.45, 0.5]])
    good = analysis.summary(scores_of(rps, 10), ["A", "B", "C"], 20)
    bad = analysis.summary(scores_of(top, 20), ["A", "B", "C"], 20)
    assert good["health"]["healthy"]
    assert analysis.health_line(good["health"], 3).startswith("Healthy field")
    assert not bad["health"]["healthy"]
    line = analysis.health_line(bad["health"], 3)
    assert "the Nash mix holds 1 of the 2 decks" in line and "C dominated by A" in line


def test_matrix_averages_both_seats_and_counts_a_draw_half():
    sc = {(0, 1): np.array([1, 1, 0.5, 0]), (1, 0): np.array([0, 0, 0.5, 1])}
    M, se = analysis.matrix(sc, 2)
    # Seat 1: deck 0 scores 2.5/4; seat 2: deck 0 scores 1 - 1.5/4 = 2.5/4.
    assert M[0, 1] == pytest.approx(0.625) and M[1, 0] == pytest.approx(0.375)
    assert M[0, 0] == 0.5 and se[0, 1] > 0


def test_summary_health_and_bootstrap_is_seeded():
    rps = np.array([[0.5, 0.75, 0.25], [0.25, 0.5, 0.75], [0.75, 0.25, 0.5]])
    sc = scores_of(rps)
    a = analysis.summary(sc, ["rock", "paper", "scissors"], reps=30, seed=4)
    b = analysis.summary(sc, ["rock", "paper", "scissors"], reps=30, seed=4)
    pd.testing.assert_frame_equal(a["decks"], b["decks"])
    assert np.allclose(a["decks"].field_rate, 0.5)
    assert np.allclose(a["decks"].nash, 1 / 3, atol=1e-6)
    assert a["effective_decks"] == pytest.approx(3.0, abs=1e-6)
    assert (a["decks"].nash_lo <= a["decks"].nash).all()


def test_the_nash_intervals_hold_their_point_estimates():
    # A near-even cycle: the mix is a third each and its effective number 3, the most three
    # decks have; a resample of the matches almost never repeats it exactly, so every
    # resampled effective number lies under 3. The interval still holds the estimate.
    cycle = np.array([[0.5, 0.53, 0.47], [0.47, 0.5, 0.53], [0.53, 0.47, 0.5]])
    s = analysis.summary(scores_of(cycle, 100), ["A", "B", "C"], reps=200, seed=0)
    assert s["effective_decks"] == pytest.approx(3.0)
    assert s["effective_lo"] <= s["effective_decks"] <= s["effective_hi"]
    d = s["decks"]
    assert ((d.nash_lo <= d.nash) & (d.nash <= d.nash_hi)).all()


def test_the_heatmap_leaves_the_unplayed_mirror_cells_empty():
    import matplotlib.pyplot as plt

    M = np.array([[0.5, 0.6, 0.3], [0.4, 0.5, 0.7], [0.7, 0.3, 0.5]])
    names = ["a", "b", "c"]
    ax = analysis.plot_heatmap(analysis.summary(scores_of(M), names, reps=20)["matrix"], names)
    shown = np.ma.masked_invalid(ax.images[0].get_array())
    # No colour and no "0.500 [0.500, 0.500]" on the diagonal; every other cell has both.
    assert shown.mask.diagonal().all() and not shown.mask[~np.eye(3, dtype=bool)].any()
    written = {(round(t.get_position()[1]), round(t.get_position()[0])) for t in ax.texts}
    assert written == {(i, j) for i in range(3) for j in range(3) if i != j}
    assert shown[0, 1] == pytest.approx(0.6)
    plt.close(ax.figure)


def test_patch_changes_only_the_named_cells(tmp_path):
    from sim.kit.patch import patched_csv, write_patch

    src = FOLDER / "cards.csv"
    old = src.read_text().splitlines()
    new = patched_csv(src, {"order-of-lenin.normal_bonus": 7}).splitlines()
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert len(changed) == 1
    assert changed[0][1].startswith("order-of-lenin,Order of Lenin,USSR,trick_shot,4,lob,7,1,")
    copy, diff = write_patch(FOLDER, {"order-of-lenin.normal_bonus": 7}, tmp_path)
    assert "+order-of-lenin" in diff and src.read_text().splitlines() == old
    assert (copy / "cards.csv").read_text().splitlines() == new


@pytest.mark.parametrize("args", [
    ["meta", "--decks", "us-red-tide,no-such-deck"],
    ["meta", "--decks", ""],
    ["meta", "--decks", "us-red-tide"],
    ["deckbuild", "--decks", "us-red-tide,nope"],
    ["deckbuild", "--against", "everyone"],
    ["deckbuild", "--threshold", "1.5"],
    ["balance", "--fields", "normal_bonus", "--band", "0.4..1.2"],
    ["balance", "--fields", "normal_bonus", "--band", "0.6..0.4"],
    ["balance", "--fields", "normal_bonus", "--band", "half"],
    ["balance", "--fields", "colour"],
    ["balance", "--fields", ""],
    ["balance", "--fields", "normal_bonus", "--decks", ""],
    ["balance", "--fields", "normal_bonus", "--support", "5"],
    ["balance", "--fields", "normal_bonus", "--diversity", "4.5"],
    ["balance", "--fields", "normal_bonus", "--keep", "Order of Lenin,No Such Card"],
])
def test_bad_arguments_exit_2(args, tmp_path):
    out = cardlab(*args, "--results", str(tmp_path), "-q")
    assert out.returncode == 2, (args, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and "error:" in out.stderr, args
    assert not list(tmp_path.iterdir()), "a refused command left a results folder"


@pytest.mark.parametrize(("command", "option"), [
    ("balance", "--search-rounds"), ("balance", "--mutants"), ("climb", "--rounds"),
    ("climb", "--search-rounds"), ("climb", "--mutants"), ("deckbuild", "--rounds"),
    ("deckbuild", "--mutants"), ("deckbuild", "--elite")])
@pytest.mark.parametrize("value", ["0", "-2"])
def test_search_sizes_under_one_are_refused_by_name_before_a_folder(command, option, value,
                                                                    tmp_path):
    import re

    from typer.testing import CliRunner

    from sim.cli.app import app

    helped = CliRunner().invoke(app, [command, "--help"], terminal_width=200)
    # The help shows the range, on the option's line or the one after it.
    assert re.search(re.escape(option) + r"[^\n]*(\n[^\n]*)?x>=1", helped.output), \
        helped.output
    args = ["--fields", "normal_bonus"] if command == "balance" else []
    out = cardlab(command, *args, option, value, "--results", str(tmp_path), "-q")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert option in out.stderr
    assert not list(tmp_path.iterdir())


def test_balance_checks_its_search_before_a_folder(tmp_path):
    from sim.core.problems import InputError
    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.balance import Bounds, balance
    from sim.solvers.deckbuild import Search

    fld = Field(get("paintline"), FOLDER, ["us-red-tide", "ussr-red-tide", "ussr-blitz"],
                "greedy")
    with pytest.raises(InputError, match="rounds"):
        balance(fld, Bounds(("normal_bonus",)), 10, 10, search=Search(rounds=0),
                results=tmp_path)
    assert not list(tmp_path.iterdir())


def test_meta_bit_identical_at_one_and_two_workers(tmp_path):
    from sim.experiments.meta import Field, meta
    from sim.kit.game import get

    fld = Field(get("paintline"), FOLDER, ["us-red-tide", "ussr-red-tide", "ussr-blitz"],
                "greedy")
    one, p1 = meta(fld, 60, 5, tmp_path, "w1", workers=1, reps=20)
    two, p2 = meta(fld, 60, 5, tmp_path, "w2", workers=2, reps=20)
    for name in ("matrix", "decks", "dominated"):
        assert (p1 / f"{name}.parquet").read_bytes() == (p2 / f"{name}.parquet").read_bytes()
    assert len(list((p2 / "pairs").iterdir())) == 6
    assert (p2 / "heatmap.png").exists() and (p2 / "nash.png").exists()
    assert "Metagame" in (p2 / "report.md").read_text()
    # A pair lost to an interruption is played again on resume, the same bytes.
    import shutil

    shutil.rmtree(p2 / "pairs" / "01-02")
    (p2 / "matrix.parquet").unlink()
    meta(fld, 60, 5, tmp_path, workers=1, reps=20, resume="w2")
    assert (p1 / "matrix.parquet").read_bytes() == (p2 / "matrix.parquet").read_bytes()


def test_ctrl_c_on_meta_names_its_folder_and_that_command_finishes_it(tmp_path):
    """Without --run-id, meta names its folder before it plays, so that the resume hint
    printed on Ctrl-C names it (it said `--resume RUN`) and the command it gives works."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time

    from .conftest import ROOT, cardlab

    start = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "from sim.cli.app import app; app()")
    args = ["meta", "-n", "8000", "--chunk-size", "1000", "--workers", "1", "--reps", "10",
            "--results", str(tmp_path)]
    proc = subprocess.Popen([sys.executable, "-c", start, *args], cwd=ROOT,
                            env={**os.environ, "CI": "1"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not any(tmp_path.glob("meta-*/pairs/*/chunks/*")):
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    name = re.search(r"--resume (\S+)", err).group(1)
    assert (tmp_path / name).is_dir(), err
    again = cardlab(*args, "--resume", name, "-q")
    assert again.returncode == 0, again.stderr


def test_deckbuild_legal_reproducible_and_resumable(tmp_path):
    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.deckbuild import Search, deckbuild

    fld = Field(get("paintline"), FOLDER, ["us-red-tide", "ussr-red-tide"], "greedy")
    search = Search(rounds=2, mutants=3, start=20, elite=1, confirm=60, threshold=0.9)
    a = deckbuild(fld, "field", search, 7, tmp_path, "a")
    b = deckbuild(fld, "field", search, 7, tmp_path, "b")
    pd.testing.assert_frame_equal(a["rounds"], b["rounds"])
    assert a["found"].counts == b["found"].counts

    def stop(done, total, best, score):
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        deckbuild(fld, "field", search, 7, tmp_path, "c", progress=stop)
    c = deckbuild(fld, "field", search, 7, tmp_path, resume="c")
    pd.testing.assert_frame_equal(a["rounds"], c["rounds"])
    assert a["found"].counts == c["found"].counts
    # Every candidate played is a deck the validator accepts.
    from sim.kit import legality
    from sim.solvers.deckbuild import Arena, Candidate

    arena = Arena(fld, np.array([0.5, 0.5]), 1)
    for cards in a["rounds"].cards.unique():
        import json

        assert not legality.problems(fld.game, arena.matchup(
            Candidate("x", json.loads(cards), ""), 0, 0))
    assert sum(a["found"].counts.values()) == 60


def test_the_n_beside_a_deck_score_counts_every_match_behind_it(tmp_path):
    """A deck's score against a field of three is the mean over three opponents and two
    seats: its n is six series' matches, at each rung and in the held-out check."""
    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.deckbuild import Search, deckbuild

    fld = Field(get("paintline"), FOLDER, ["us-red-tide", "ussr-red-tide", "ussr-blitz"],
                "greedy")
    out = deckbuild(fld, "field", Search(rounds=1, mutants=2, start=20, elite=1, confirm=60),
                    7, tmp_path, "a")
    assert (out["confirm"].n == 3 * 2 * 60).all()
    rungs = out["rounds"]
    assert (rungs[rungs.rung == 0].n == 3 * 2 * 20).all()


def test_balance_brings_two_decks_into_the_band_and_the_patch_reproduces_it(tmp_path):
    """The held-out figures balance reports are those of the patched folder it writes,
    played again from its files; the designer's cards.csv is untouched."""
    import hashlib

    from sim.experiments.meta import Field, in_process
    from sim.kit.game import get
    from sim.solvers.balance import Bounds, balance
    from sim.solvers.deckbuild import derived_seed

    before = hashlib.sha256((FOLDER / "cards.csv").read_bytes()).hexdigest()
    fld = Field(get("paintline"), FOLDER, ["us-red-tide", "ussr-red-tide"], "greedy")
    out = balance(fld, Bounds(("normal_bonus",), 0.47, 0.53, step=2, margin=0.005),
                  matches=200, confirm=400, seed=3, adversarial=0, results=tmp_path,
                  run_id="b")
    assert hashlib.sha256((FOLDER / "cards.csv").read_bytes()).hexdigest() == before
    check = out["heldout"]
    assert out["changes"] and check.inside.all(), check
    assert ((check.rate >= 0.47) & (check.rate <= 0.53)).all()
    # Before: the US deck under 0.47 (the sample matchup is 0.43 .. 0.44 for US).
    assert check.before.min() < 0.47
    patched = Field(get("paintline"), out["path"] / "folder", fld.names, "greedy")
    again = in_process(patched, 400, derived_seed(3, 1))
    us = (again[0, 1].mean() + 1 - again[1, 0].mean()) / 2
    assert us == pytest.approx(check.rate.iloc[0], abs=1e-12)
    assert "+" in (out["path"] / "cards.diff").read_text()


def test_balance_command_prints_each_change_with_its_size(tmp_path):
    """A band the shipped pair misses (USSR Red Tide wins 0.455 of it; 0.47 .. 0.53): the
    command says which values it changed, from what to what, and whether the band holds."""
    import json

    out = cardlab("balance", "--decks", "us-red-tide,ussr-red-tide", "--fields",
                  "normal_bonus", "--band", "0.47..0.53", "-n", "200", "--confirm", "400",
                  "--rounds", "0", "--seed", "3", "--results", str(tmp_path), "--run-id", "b",
                  "-q")
    assert out.returncode == 0, out.stderr
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["changes"] and not manifest["health"]
    for key, value in manifest["changes"].items():
        was = manifest["shipped_values"][key]
        assert f"{key} {was} -> {value} ({value - was:+d})" in out.stdout
    assert "every deck inside the band on held-out seeds" in out.stdout


def test_balance_leaves_a_field_healthy_on_held_out_seeds_as_it_is(tmp_path):
    """The four decks at 100 held-out matches a pair are healthy as shipped: balance
    reaches the target with no change and writes no patch, whatever its short training
    search on other seeds would have moved."""
    import json

    out = cardlab("balance", "--fields", "normal_bonus", "-n", "100", "--confirm", "100",
                  "--rounds", "0", "--budget", "20000", "--results", str(tmp_path),
                  "--run-id", "b", "-q")
    assert out.returncode == 0, out.stderr
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["changes"] == {} and manifest["reached"]
    assert "target reached on held-out seeds, with no change" in out.stdout
    assert not (tmp_path / "b" / "cards.diff").exists()


def test_a_taken_run_id_is_named_and_exits_2(tmp_path):
    (tmp_path / "taken").mkdir()
    out = cardlab("meta", "-n", "10", "--results", str(tmp_path), "--run-id", "taken", "-q")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{tmp_path / 'taken'}:0: a results folder of that name exists" in out.stderr


def test_a_patch_must_leave_every_deck_of_the_folder_legal():
    """A value that breaks a deck outside the field is no legal step: the patch is written
    to the whole folder. Payne Academy's Tricks holds two Ulric Fane (tricks.deck, line 11);
    with three lit arrows an offensive character is rare, and the rules allow one rare copy
    of a name; with one, it is common (three allowed)."""
    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.balance_search import legal

    fld = Field(get("payne"), FOLDER.parent / "payne", ["offense", "defense", "balanced"],
                "prior")
    assert fld.others == ["tricks"]
    assert legal(fld, {})
    assert legal(fld, {"ulric-fane.sides": 1})
    assert not legal(fld, {"ulric-fane.sides": 3})
    assert legal(fld.with_names(["offense", "defense", "balanced", "tricks"]),
                 {"ulric-fane.sides": 1})


@pytest.mark.parametrize("game", ["paintline", "encounter"])
def test_the_shipped_field_is_healthy(game):
    """The sample field of Paint the Line and of Encounter (game.toml's [field], the
    strongest deck of each style) ships healthy, as `cardlab meta -n 4000` judges it: at
    least three of its four decks of weight 0.05 or more in the Nash mix, an effective
    number of at least 2.5, none dominated (their READMEs, "The field")."""
    from sim.experiments.meta import Field, in_process
    from sim.kit.folders import read_folder
    from sim.kit.game import get

    info = read_folder(game)
    fld = Field(get(info.game), info.path, list(info.field), info.policy)
    result = analysis.summary(in_process(fld, 4000, 1), fld.names, 20, 1)
    h = result["health"]
    assert h["healthy"], h["reasons"]
    assert h["support"] >= 3 and h["effective"] >= 2.5 and not len(h["dominated"])


def test_a_draft_deck_the_validator_refuses_does_not_stop_every_patch(tmp_path):
    """balance keeps every deck of the folder legal under a patch; a draft deck refused as
    shipped (a mistyped card) is no measure of a patch, so no change counted as illegal
    because of it (every one was, so balance could change nothing)."""
    import shutil

    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.balance_search import legal

    folder = tmp_path / "pl"
    shutil.copytree(FOLDER, folder)
    text = (folder / "us-red-tide.deck").read_text(encoding="utf-8")
    (folder / "draft.deck").write_text(text.replace("Liberty Lob", "Liberty Lobb"),
                                       encoding="utf-8")
    fld = Field(get("paintline"), folder, ["us-red-tide", "ussr-red-tide"], "greedy")
    assert "draft" not in fld.others and "us-lob-control" in fld.others
    assert legal(fld, {})
