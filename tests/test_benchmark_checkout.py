"""A benchmark script measures the checkout it stands in: run from a second checkout (a git
worktree), it and the processes it starts import that checkout's sim, not the installed one."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """import checkout  # noqa: F401
import subprocess, sys
import sim
print(sim.__file__)
subprocess.run([sys.executable, "-c", "import sim; print(sim.__file__)"], check=True)
"""


def test_a_benchmark_and_its_children_import_the_checkout_it_stands_in(tmp_path):
    copy = tmp_path / "checkout"
    (copy / "benchmarks").mkdir(parents=True)
    (copy / "sim").mkdir()
    (copy / "sim" / "__init__.py").write_text("")
    shutil.copy(ROOT / "benchmarks" / "checkout.py", copy / "benchmarks")
    (copy / "benchmarks" / "probe.py").write_text(PROBE)
    # started from elsewhere, as a person runs `python /path/to/worktree/benchmarks/X.py`
    out = subprocess.run([sys.executable, str(copy / "benchmarks" / "probe.py")],
                         capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    found = [Path(line).resolve() for line in out.split()]
    assert found == [(copy / "sim" / "__init__.py").resolve()] * 2
