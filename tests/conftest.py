"""Shared fixtures: the sample game folder, ready-made matchups and the command line, run in
this process or, where the process itself is under test, in a new one."""

import os
import shutil
import subprocess
import sys
import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "decks" / "paintline"


@pytest.fixture(scope="session")
def folder():
    return FOLDER


@pytest.fixture(scope="session")
def matchup():
    from sim.paintline.batch import load_matchup

    return load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")


@dataclass(frozen=True)
class Ran:
    """What a run of the command line left: its exit status, stdout and stderr."""

    returncode: int
    stdout: str
    stderr: str


def cardlab(*args: str) -> Ran:
    """`cardlab ARGS` in this process (typer's CliRunner over sim.cli.app's app), from the
    repository root as the subprocess ran it. An exception that escapes the command is
    written to stderr with its traceback, as the interpreter would, and exits 1. What a
    command may change in the process is put back: the batch threads (a serial run sets
    them), the environment and the working directory."""
    from typer.testing import CliRunner

    from sim.cli.app import app
    from sim.core import blocks

    threads, env, cwd = blocks._threads, dict(os.environ), os.getcwd()
    os.chdir(ROOT)
    try:
        res = CliRunner().invoke(app, list(args), prog_name="cardlab")
    finally:
        os.chdir(cwd)
        blocks.set_threads(threads)
        os.environ.clear()
        os.environ.update(env)
    stderr = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*res.exc_info))
    return Ran(res.exit_code, res.stdout, stderr)


def cardlab_process(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """`cardlab ARGS` in a new process: the installed entry point when there is one (with
    PYTHONPATH it imports this checkout), else this checkout's app under this interpreter.
    For what only a process shows: the entry point itself, signals, process backends."""
    exe = shutil.which("cardlab", path=sysconfig.get_path("scripts")) or shutil.which("cardlab")
    cmd = [exe] if exe else [sys.executable, "-c", "from sim.cli.app import app; app()"]
    return subprocess.run([*cmd, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
