"""The designer's solvers: tune on cases whose answer is known exactly, training that must
beat random on held-out seeds and resumes to the same result, skill, flags with the tuned
policy, and clear errors."""

import dataclasses
import shutil
import tomllib

import numpy as np
import pytest

from sim.core.problems import InputError
from sim.kit import game as registry
from sim.kit.folders import read_folder
from sim.solvers.tune import bisect, search_integers, target_place

from .conftest import FOLDER, ROOT, cardlab

U = np.random.default_rng(2024).random(200_000)  # match i's uniform, shared by every value


def bernoulli(p):
    """Synthetic rate p(value): match i is a win when U[i] < p(value) (common numbers)."""
    return lambda v, n, first: (U[first:first + n] < p(v), None)


def test_integer_search_finds_the_exact_fair_value():
    df = search_integers(bernoulli(lambda v: 0.3 + 0.05 * v), list(range(9)), 0.5, 1000,
                         16_000, precision=0.01)
    best = df[df.best].iloc[0]
    assert best.value == 4
    assert list(df.value[df.indistinguishable]) == [4]
    assert best.lo <= 0.5 <= best.hi and (best.hi - best.lo) / 2 <= 0.01
    assert {4} < set(df.value[df.brackets]) <= {3, 4, 5}
    assert df.n[df.value == 0].iat[0] == 1000  # far values are not refined


def test_integer_search_keeps_values_it_cannot_tell_apart():
    # 0.49 and 0.51 are equally far from 0.5: neither can be told apart from the other.
    df = search_integers(bernoulli(lambda v: {0: 0.3, 1: 0.49, 2: 0.51, 3: 0.7}[v]),
                         [0, 1, 2, 3], 0.5, 500, 4000)
    assert set(df.value[df.indistinguishable]) == {1, 2}
    assert (df.n[df.value.isin([1, 2])] == 4000).all()


def test_where_the_target_lies_is_said_once_and_consistently():
    rates = {0: 0.3, 1: 0.45, 2: 0.495, 3: 0.7}
    # 2's interval (4,000 matches, +- 0.016) holds 0.5: the target is there, not outside.
    df = search_integers(bernoulli(rates.get), [0, 1, 2, 3], 0.5, 4000, 4000)
    said = target_place(df, 0.5)
    assert "within the 95% interval of 2" in said and "widen" not in said
    # 0.45 and 0.55 bracket 0.5, and neither interval reaches it.
    df = search_integers(bernoulli({0: 0.3, 1: 0.45, 2: 0.55, 3: 0.7}.get), [0, 1, 2, 3],
                         0.5, 4000, 4000)
    said = target_place(df, 0.5)
    assert "between the rates of 1 and 2" in said and "widen" not in said
    # Every rate under 0.5 and every interval short of it: widen.
    df = search_integers(bernoulli({0: 0.3, 1: 0.4}.get), [0, 1], 0.5, 4000, 4000)
    assert "widen --values" in target_place(df, 0.5)


def test_bisection_finds_a_continuous_root():
    df, answer = bisect(bernoulli(lambda x: x), 0.0, 1.0, 0.3, 2000, 32_000, 0.004)
    assert abs(answer["value"] - 0.3) < 0.01
    assert answer["bracket"][1] - answer["bracket"][0] <= 0.004 or "max matches" in \
        answer["stopped"]
    with pytest.raises(InputError, match="not between"):
        bisect(bernoulli(lambda x: x), 0.6, 1.0, 0.3, 500, 1000, 0.01)


def rally_loader(extra):
    g = registry.get("paintline")
    rules = {"rally_mode": True, "arsenal_a": ["Push"], "arsenal_b": ["Topspin"]}
    return g.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "greedy", rules,
                          list(extra))


def test_tune_finds_the_rally_mode_fair_value_the_exact_solver_gives(tmp_path):
    """Rally mode, Push against Topspin: P(A wins the match) is 0.4058 with Push at +3 and
    0.5147 at +4 (exact solver), so +4 is the fair value."""
    from sim.paintline import exact
    from sim.solvers.tune import tune

    for bonus, p in ((3, 0.405801), (4, 0.514720)):
        m = rally_loader([f"Push.normal_bonus={bonus}"])
        assert exact.solve(m).match == pytest.approx(p, abs=1e-6)
    g = registry.get("paintline")
    df, answer = tune(g, rally_loader([]), "Push.normal_bonus", 0.5, rally_loader,
                      values="2..6", matches=1000, max_matches=8000, seed=3,
                      results=tmp_path, run_id="t", precision=0.02)
    # Push's normal_bonus in the sample cards.csv is 2 (decks/paintline/README.md).
    assert answer["value"] == 4 and answer["current"] == 2
    assert answer["lo"] <= 0.514720 <= answer["hi"]
    assert answer["indistinguishable"] == [4]
    assert (tmp_path / "t" / "tune.png").is_file() and (tmp_path / "t" / "tune.parquet").is_file()


def test_tune_command_and_its_errors(tmp_path):
    out = cardlab("tune", "win_by", "--target", "0.45", "--values", "1..2", "-n", "300",
                  "--max-matches", "600", "--results", str(tmp_path), "-q")
    assert out.returncode == 0, out.stderr
    assert "best win_by =" in out.stdout
    for args, words in ((["Nope.normal_bonus"], "unknown card"),
                        (["Push.speed"], "unknown field"),
                        (["Push.cost", "--rate", "nothing"], "unknown rate"),
                        (["escalation"], "not numeric")):
        bad = cardlab("tune", *args, "--target", "0.5", "-n", "10", "--results", str(tmp_path))
        assert bad.returncode == 2, args
        assert words in bad.stderr and "Traceback" not in bad.stderr, (args, bad.stderr)


def test_tune_says_the_target_is_inside_the_best_values_interval(tmp_path):
    """Order of Lenin's cost at 300 matches a value, refined to 1,200: 4's interval holds
    0.5; the answer does not also call the target outside the values' rates."""
    out = cardlab("tune", "Order of Lenin.cost", "--target", "0.5", "-n", "300",
                  "--max-matches", "1200", "--values", "3..6", "--results", str(tmp_path),
                  "-q")
    assert out.returncode == 0, out.stderr
    assert "within the 95% interval of 4" in " ".join(out.stdout.split())
    assert "widen" not in out.stdout


def test_tune_refuses_a_card_no_deck_holds(tmp_path):
    """Chalk Line is in neither sample deck: no value of it moves a match, so tune says so
    before any match rather than name a best value among equal rates."""
    out = cardlab("tune", "Chalk Line.normal_bonus", "--target", "0.5", "-n", "50",
                  "--results", str(tmp_path))
    assert out.returncode == 2
    assert "nothing to tune" in out.stderr and "Chalk Line" in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_tune_refuses_reversed_values_and_fewer_most_matches_than_first(tmp_path):
    for args, words in ((["--values", "9..3"], "9..3 is reversed"),
                        (["--values", "3..6", "-n", "300", "--max-matches", "100"],
                         "--max-matches:0: at least --matches (300), got 100")):
        bad = cardlab("tune", "Order of Lenin.cost", "--target", "0.5", *args, "--results",
                      str(tmp_path))
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, (args, bad.stderr)
        assert words in " ".join(bad.stderr.split()), (args, bad.stderr)
    assert not list(tmp_path.iterdir())


def test_steps_and_widths_that_can_only_be_positive_are_refused_before_anything_is_written(
        tmp_path):
    """A CMA-ES step, a refining half-width and a bracket width of 0 or below are no search:
    exit 2 naming the option, no traceback, no run folder."""
    for args, option in ((["train", "greedy", "--sigma", "0"], "--sigma"),
                         (["train", "greedy", "--sigma", "-1"], "--sigma"),
                         (["tune", "Order of Lenin.cost", "--target", "0.5", "--precision",
                           "0"], "--precision"),
                         (["tune", "escalation_at", "--target", "0.5", "--values", "1..3",
                           "--tolerance", "-0.5"], "--tolerance")):
        bad = cardlab(*args, "-n", "20", "--results", str(tmp_path), "-q")
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, (args, bad.stderr)
        assert option in bad.stderr and "above 0" in bad.stderr, (args, bad.stderr)
    assert not tmp_path.exists() or not list(tmp_path.iterdir())


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A copy of the sample folder with `pressure` trained against `random` (tiny budget)."""
    from sim.solvers.train import train

    root = tmp_path_factory.mktemp("train")
    folder = root / "paintline"
    shutil.copytree(ROOT / "decks" / "paintline", folder)
    assert "pressure-tuned" not in (folder / "policies.toml").read_text(encoding="utf-8")
    g = registry.get("paintline")
    base = g.load_matchup(folder, "us-red-tide", "ussr-red-tide", "random", "random", {}, [])
    table, manifest = train(g, folder, base, "pressure", "random", "pressure-tuned",
                            matches=60, popsize=4, generations=2, holdout=400, seed=5,
                            results=root / "results", run_id="tr")
    return folder, root, table, manifest


def test_training_beats_random_on_held_out_seeds_and_writes_the_policy(trained):
    from sim.paintline.policy import load_policies
    from sim.solvers.train import tuned_policies

    folder, _, table, manifest = trained
    held = table.set_index("item").iloc[1]
    assert held.n == 800 and held.lo > 0.5
    text = (folder / "policies.toml").read_text(encoding="utf-8")
    assert "# cardlab train: pressure tuned against random" in text and "held-out" in text
    policies = load_policies(folder / "policies.toml")
    # The sample folder ships its own trained table; training added exactly one more.
    shipped = tuned_policies(ROOT / "decks" / "paintline")
    assert "pressure-tuned" in policies
    assert tuned_policies(folder) == [*shipped, "pressure-tuned"]
    assert tomllib.loads(text)["pressure-tuned"] == manifest["best"]["values"]


def test_training_resumes_to_the_same_result(trained, tmp_path):
    from sim.solvers.train import train

    folder, root, _, manifest = trained
    g = registry.get("paintline")
    base = g.load_matchup(folder, "us-red-tide", "ussr-red-tide", "random", "random", {}, [])
    kw = dict(matches=60, popsize=4, holdout=400, seed=5, results=tmp_path, run_id="r",
              write=False)
    train(g, folder, base, "pressure", "random", "x", generations=1, **kw)
    _, again = train(g, folder, base, "pressure", "random", "x", generations=2, resume=True,
                     **kw)
    assert again["best"] == manifest["best"]


def test_skill_and_flags_take_the_tuned_policy(trained, tmp_path):
    folder = trained[0]
    out = cardlab("skill", "--folder", str(folder), "--policies", "random,greedy,pressure-tuned",
                  "-n", "150", "--results", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "pressure-tuned" in out.stdout and "skill spread (random ->" in out.stdout
    flags = cardlab("flags", "--folder", str(folder), "--policies", "greedy,pressure",
                    "--with-tuned", "--verdict-start", "100", "--verdict-max", "100",
                    "--results", str(tmp_path), "-q")
    assert flags.returncode == 0, flags.stderr
    assert "pressure-tuned" in flags.stdout


def test_train_command_writes_and_a_game_without_hooks_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "paintline"
    shutil.copytree(ROOT / "decks" / "paintline", folder)
    out = cardlab("train", "lookahead", "--folder", str(folder), "--against", "random",
                  "-n", "30", "--popsize", "3", "--generations", "1", "--holdout", "100",
                  "--results", str(tmp_path), "--run-id", "cli", "-q")
    assert out.returncode == 0, out.stderr
    assert "held-out (winner, fresh seeds)" in out.stdout
    assert "[lookahead-tuned]" in (folder / "policies.toml").read_text(encoding="utf-8")
    again = cardlab("train", "lookahead", "--folder", str(folder), "-n", "30", "--results",
                    str(tmp_path), "--run-id", "cli2", "--generations", "1")
    assert again.returncode == 2 and "exists already" in again.stderr

    real = registry.get
    monkeypatch.setattr(registry, "get",
                        lambda name: dataclasses.replace(real(name), tuning=None))
    res = cardlab("train", "greedy", "--folder", str(folder), "--results", str(tmp_path))
    assert res.returncode == 2 and "tuning hook" in res.stderr


def test_train_refuses_policy_options_it_would_not_play(tmp_path):
    """train plays the trained POLICY against --against: a --policy typed as the opponent
    would be left unplayed, the folder's policy taking its place; refused, exit 2, before
    anything is written, naming --against."""
    folder = tmp_path / "paintline"
    shutil.copytree(ROOT / "decks" / "paintline", folder)
    results = tmp_path / "results"
    out = cardlab("train", "lookahead", "--folder", str(folder), "--policy", "random",
                  "-n", "30", "--generations", "1", "--results", str(results), "-q")
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "--against" in out.stderr and "not one of its options" in out.stderr
    assert not results.exists() or not list(results.iterdir())
    assert "lookahead-tuned" not in (folder / "policies.toml").read_text(encoding="utf-8")


def test_a_resumed_train_whose_name_is_taken_is_refused_before_it_trains(tmp_path):
    """A finished run resumed for more generations would write its policy under a name
    policies.toml holds already (its own, written when it finished): refused before any
    generation is played (it trained, tested on held-out seeds and only then failed),
    naming the policy and the ways out; a resume may take another --name."""
    import pickle

    folder = tmp_path / "paintline"
    shutil.copytree(ROOT / "decks" / "paintline", folder)
    base = ["train", "lookahead", "--folder", str(folder), "--results", str(tmp_path), "-q"]
    first = cardlab(*base, "--against", "random", "-n", "30", "--popsize", "3",
                    "--generations", "1", "--holdout", "100", "--run-id", "t")
    assert first.returncode == 0, first.stderr
    out = cardlab(*base, "--resume", "t", "--generations", "2")
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert pickle.loads((tmp_path / "t" / "state.pkl").read_bytes())["generation"] == 1
    said = " ".join(out.stderr.split())
    assert f"{folder / 'policies.toml'}:0: policy 'lookahead-tuned' exists already" in said
    assert "another --name" in said and "--no-write" in said
    assert "delete its [lookahead-tuned] table" in said
    renamed = cardlab(*base, "--resume", "t", "--generations", "2", "--name", "lookahead-2")
    assert renamed.returncode == 0, renamed.stderr
    assert pickle.loads((tmp_path / "t" / "state.pkl").read_bytes())["generation"] == 2
    written = tomllib.loads((folder / "policies.toml").read_text(encoding="utf-8"))
    assert "lookahead-tuned" in written and "lookahead-2" in written
    # Options a resume reads from the run are refused where they differ, each named.
    other = cardlab("train", "greedy", "--resume", "t", "--results", str(tmp_path), "-n",
                    "31", "--seed", "2", "--against", "greedy", "--seat", "a", "-q")
    assert other.returncode == 2, other.stderr
    for line in ("  POLICY: greedy given, the run's is lookahead",
                 "  --matches: 31 given, the run's is 30", "  --seed: 2 given, the run's is 1",
                 "  --against: greedy given, the run's is random",
                 "  --seat: a given, the run's is both"):
        assert line in other.stderr.splitlines(), (line, other.stderr)


@pytest.mark.parametrize("name", registry.names())
def test_solvers_run_on_every_registered_game(name, tmp_path):
    """tune (on a numeric rule option), skill and train need nothing beyond the contract;
    train refuses clearly where a game has no tuning hook."""
    from sim.solvers.skill import skill
    from sim.solvers.train import hooks_of, train
    from sim.solvers.tune import tune

    g = registry.get(name)
    info = read_folder(ROOT / "decks" / name)
    p = info.policy

    def load(extra, pa=p, pb=p):
        return g.load_matchup(info.path, *info.decks, pa, pb, {}, list(extra))

    m = load([])
    rules = g.describe(m)["rules"]
    key = next(k for k, v in rules.items() if isinstance(v, int) and not isinstance(v, bool))
    df, answer = tune(g, m, key, 0.5, load, values=f"{rules[key]}..{rules[key] + 1}",
                      matches=40, max_matches=80, results=tmp_path, run_id="tune")
    assert set(df.value) == {rules[key], rules[key] + 1} and df.best.sum() == 1
    names = list(tomllib.loads((info.path / "policies.toml").read_text(encoding="utf-8")))
    table, summary = skill(g, lambda a, b, pa, pb: load([], pa, pb), [info.decks], names[:2],
                           p, 30, 1)
    assert list(table.policy) == names[:2] and (table.n == 60).all()
    if g.tuning is None:
        with pytest.raises(InputError, match="tuning hook"):
            hooks_of(g)
        return
    # the first policy past the baselines whose kind reads a number training can move
    trainee = next(n for n in names if n not in ("random", "default")
                   and g.tuning.params(info.path, n))
    table, manifest = train(g, info.path, load([], p, p), trainee, p, "x", matches=20,
                            popsize=2, generations=1, holdout=20, results=tmp_path,
                            run_id="train", write=False)
    assert len(table) == 4 and manifest["status"] == "complete"
