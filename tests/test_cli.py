"""The `cardlab` command line: the installed entry point in a real process, and clear
errors with exit status 2 for bad arguments (in this process)."""

import pytest

from .conftest import cardlab, cardlab_process


def test_simulate_prints_rates_with_intervals(tmp_path):
    out = cardlab_process("simulate", "--games", "300", "--seed", "3", "--results",
                          str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "us-red-tide wins" in out.stdout and "95% interval" in out.stdout
    assert "300" in out.stdout


def test_simulate_bad_arguments_exit_2_without_traceback():
    for args in (["--rules", "win_by=zero"], ["--rules", "nokey"], ["--policy", "nope"],
                 ["no-such-deck", "ussr-red-tide"], ["--rules", "escalation=[8,6]"]):
        out = cardlab("simulate", "--games", "10", "--results", "/nonexistent-cardlab", *args)
        assert out.returncode == 2, args
        assert "Traceback" not in out.stderr and "error:" in out.stderr, args


def test_verdicts_and_flags_bad_arguments_exit_2(tmp_path):
    out = cardlab("simulate", "-n", "200", "--results", str(tmp_path), "--run-id", "r", "-q")
    assert out.returncode == 0, out.stderr
    for args in (["verdicts", "r", "--margin-share", "1.5"],
                 ["verdicts", "r", "--margin-share", "0"],
                 ["verdicts", "r", "--verdict-start", "500", "--verdict-max", "100"],
                 ["verdicts", "no-such-run"], ["report", "no-such-run"],
                 ["flags", "--policies", "greedy,pressure", "--trained", "greedy"],
                 ["flags", "--policies", "greedy,nope,pressure"]):
        out = cardlab(*args, "--results", str(tmp_path))
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr and "error:" in out.stderr, args


def test_a_count_column_prints_whole_numbers_and_blank_where_missing(capsys):
    """A count beside rows that have none (a card without par in a verdict table) is still
    a count: 2000, not 2000.0000, and nothing where it is missing."""
    import pandas as pd

    from sim.cli.shared import print_frame

    df = pd.DataFrame({"card": ["a", "b"], "n": [2000, None], "rate": [0.5, 0.25]})
    print_frame(df, "t", ["card", "n", "rate"])
    rows = [line for line in capsys.readouterr().out.splitlines() if "│" in line]
    cells = [[c.strip() for c in row.split("│")[1:-1]] for row in rows]
    assert cells[0] == ["a", "2000", "0.5000"]
    assert cells[1] == ["b", "", "0.2500"]


def test_verdict_precision_errors_name_the_options_as_typed(tmp_path):
    out = cardlab("simulate", "-n", "200", "--results", str(tmp_path), "--run-id", "r", "-q")
    assert out.returncode == 0, out.stderr
    for command in (["verdicts", "r"], ["calibrate"]):
        for args, words in ((["--verdict-start", "0"], "--verdict-start:0: at least 2, got 0"),
                            (["--verdict-start", "500", "--verdict-max", "200"],
                             "--verdict-start:0: at most --verdict-max (200), got 500")):
            bad = cardlab(*command, *args, "--results", str(tmp_path))
            assert bad.returncode == 2 and "Traceback" not in bad.stderr, (command, args)
            assert words in bad.stderr, (command, args, bad.stderr)
            assert "--start" not in bad.stderr.replace("--verdict-start", "")


def test_errors_name_the_option_or_argument_that_carried_the_value(tmp_path):
    """A bad value is told of the option (or argument) it was typed with, never of
    --rules when it came with --change, nor of policies.toml that was never touched."""
    has = "(policies.toml has: random, plain, prior, trained)"
    results = ["--results", str(tmp_path)]
    for args, words in (
            (["whatif", "--folder", "paintline", "--change", "win_by=0", *results],
             "--change:0: rule option 'win_by': 0 is out of range 1..999"),
            (["whatif", "--folder", "paintline", "--change", "win_by", *results],
             "--change:0: expects KEY=VALUE, got 'win_by'"),
            (["whatif", "--folder", "paintline", "--rules", "win_by=0", *results],
             "--rules:0: rule option 'win_by': 0 is out of range 1..999"),
            (["skill", "--folder", "payne", "--policies", "nosuch", *results],
             f"--policies:0: unknown policy 'nosuch' {has}"),
            (["skill", "--folder", "payne", "--against", "nosuch", *results],
             f"--against:0: unknown policy 'nosuch' {has}"),
            (["lint", "--folder", "payne", "--policy", "nosuch"],
             f"--policy:0: unknown policy 'nosuch' {has}"),
            (["train", "plain", "--folder", "payne", "--against", "nosuch", *results],
             f"--against:0: unknown policy 'nosuch' {has}"),
            (["train", "nosuch", "--folder", "payne", *results],
             f"POLICY:0: unknown policy 'nosuch' {has}"),
            (["simulate", "--folder", "payne", "--policy-b", "plian", "-n", "10", *results],
             f"--policy-b:0: unknown policy 'plian'; did you mean 'plain'? {has}"),
            (["flags", "--folder", "payne", "--policies", "plain,nosuch,prior", *results],
             f"--policies:0: unknown policy 'nosuch' {has}"),
            (["matchup", "offense", "defense", "--folder", "payne", "--policies",
              "plain,nosuch", "-n", "10", *results],
             f"--policies:0: unknown policy 'nosuch' {has}"),
            (["train", "random", "--folder", "highcard", *results],
             "POLICY:0: policy 'random' has no trainable parameters")):
        out = cardlab(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert words in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)
        assert "policies.toml:0" not in out.stderr and "train:0" not in out.stderr, args
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_a_policies_file_that_does_not_parse_is_told_at_its_line(tmp_path):
    """A policy name typed on the command line is looked up in policies.toml: where that file
    is not TOML, the error names the line it breaks on (it said line 0)."""
    from sim.core.problems import InputError
    from sim.kit.folders import folder_policies

    (tmp_path / "policies.toml").write_text('[greedy]\nkind = "greedy"\nhit = = 1\n',
                                            encoding="utf-8")
    with pytest.raises(InputError) as err:
        folder_policies(tmp_path)
    (problem,) = err.value.problems
    assert problem.path.endswith("policies.toml") and problem.line == 3


@pytest.mark.parametrize("args", [["replay", "r1", "0"], ["report", "r1"], ["runs"],
                                  ["simulate", "-n", "20"], ["meta", "-n", "20"]])
def test_results_that_name_a_file_are_refused_at_once(tmp_path, args):
    """--results naming a file: one line saying so, exit 2 (it failed with
    NotADirectoryError, or blamed a run id, or listed nothing)."""
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    out = cardlab(*args, "--results", str(afile))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert f"{afile}:0: --results names a file, not a folder" in out.stderr


def test_runs_says_when_its_results_folder_is_not_there(tmp_path):
    out = cardlab("runs", "--results", str(tmp_path / "missing"))
    assert out.returncode == 0 and f"no results folder at {tmp_path / 'missing'}" in out.stderr


@pytest.mark.parametrize("command", ["simulate", "meta"])
@pytest.mark.parametrize("address", ["bogus", "tcp://127.0.0.1:notaport"])
def test_a_scheduler_address_not_of_its_form_is_refused_before_a_folder(tmp_path, command,
                                                                        address):
    """--scheduler takes tcp://HOST:PORT: anything else is told at once, exit 2, and no run
    folder is made (it failed with a ValueError traceback and left the run's folder)."""
    out = cardlab(command, "-n", "20", "--scheduler", address, "--results", str(tmp_path))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "--scheduler:0: expects tcp://HOST:PORT" in out.stderr
    assert not any(tmp_path.iterdir())


def test_ctrl_c_before_anything_is_kept_gives_no_resume_command(tmp_path, capsys):
    """Interrupted before its first round was written, a command has nothing to resume: it
    says so and leaves no empty folder (deckbuild left one, which then blocked its name,
    and printed a resume command that failed)."""
    import typer

    from sim.cli.shared import interrupted

    empty = tmp_path / "deckbuild-1"
    empty.mkdir()
    with pytest.raises(typer.Exit) as stop:
        interrupted(empty, "finished rounds", "cardlab deckbuild ... --resume deckbuild-1")
    assert stop.value.exit_code == 130 and not empty.exists()
    assert "nothing to resume" in capsys.readouterr().err
    kept = tmp_path / "deckbuild-2"
    kept.mkdir()
    (kept / "state.json").write_text("{}", encoding="utf-8")
    with pytest.raises(typer.Exit):
        interrupted(kept, "finished rounds", "cardlab deckbuild ... --resume deckbuild-2")
    assert "--resume deckbuild-2" in capsys.readouterr().err and kept.is_dir()
