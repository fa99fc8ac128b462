"""Puts the checkout these scripts stand in first on the import path, for the script and the
processes it starts: run from a second checkout (a git worktree), a benchmark measures that
checkout's code, not the one pip installed. Each script imports it before anything of sim."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)])
