"""Every third-party module the project imports is declared in pyproject.toml, in the extra
that a user of that part installs: a module installed by hand must not hide a missing one.

Imports are read with `ast` (function-level imports included, notebook cells too) and mapped
to their distributions through `importlib.metadata.packages_distributions()`.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCAL = {"sim", "analysis", "tests", "benchmarks", "notebooks", "build"}

# Which extras carry each part of the tree, beside the core dependencies. The package's own
# lazy imports (a cluster, the notebook workbench, the solvers) may come from any extra.
PARTS = {
    "tests": ("test",),
    "benchmarks": ("test",),
    "notebooks": ("notebooks",),
    "sim": tuple(PROJECT["optional-dependencies"]),
    "analysis": (),
}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    return normalise(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec).group(1))


def declared(extras: tuple[str, ...]) -> set[str]:
    specs = list(PROJECT["dependencies"])
    for extra in extras:
        specs += PROJECT["optional-dependencies"][extra]
    return {requirement_name(s) for s in specs}


def imported_modules(source: str) -> set[str]:
    """Top-level names of absolute imports anywhere in the source."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def notebook_source(path: Path) -> str:
    """A notebook's code cells as one script, shell and magic lines left out."""
    cells = json.loads(path.read_text())["cells"]
    lines = [line for c in cells if c["cell_type"] == "code"
             for line in "".join(c["source"]).splitlines()
             if not line.lstrip().startswith(("%", "!"))]
    return "\n".join(lines)


def third_party(part: str) -> dict[str, set[str]]:
    """Module name -> the files of `part` that import it, stdlib and local modules left out."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / part).rglob("*")):
        if path.suffix == ".py":
            source = path.read_text()
        elif path.suffix == ".ipynb" and ".ipynb_checkpoints" not in path.parts:
            source = notebook_source(path)
        else:
            continue
        for name in imported_modules(source):
            if name not in sys.stdlib_module_names and name not in LOCAL:
                found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def test_import_reader_sees_nested_and_from_imports():
    src = "import a.b\nfrom c import d\ndef f():\n    import e\nfrom . import g\n"
    assert imported_modules(src) == {"a", "c", "e"}
    assert requirement_name("ipywidgets>=8") == "ipywidgets"
    assert requirement_name("Foo_Bar[x] ; python_version>'3'") == "foo-bar"


@pytest.mark.parametrize("part", sorted(PARTS))
def test_every_import_is_declared(part):
    allowed = declared(PARTS[part])
    dists = packages_distributions()
    missing = []
    for module, files in sorted(third_party(part).items()):
        names = {normalise(d) for d in dists.get(module, [])}
        if not names & allowed:
            owner = ", ".join(sorted(names)) or "not installed"
            missing.append(f"{module} ({owner}) imported by {', '.join(sorted(files))}")
    extras = ", ".join(PARTS[part]) or "none"
    assert not missing, (f"{part}/ imports modules that neither the core dependencies nor "
                         f"its extras ({extras}) declare:\n" + "\n".join(missing))
