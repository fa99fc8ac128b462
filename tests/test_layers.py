"""The import contracts of pyproject.toml hold (layers, games by name only, games independent,
analysis free of games, no import circle), and the checker does fail on a broken one."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib

from .conftest import ROOT

CHECK = ("import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filename={!r}, no_cache=True))")


def lint_imports(config, cwd, path) -> subprocess.CompletedProcess:
    """Run import-linter on a config file in a fresh interpreter, with `path` importable."""
    code = CHECK.format(str(config))
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, env={"PYTHONPATH": str(path), "PATH": ""}, timeout=300)


def test_the_declared_contracts_are_the_five_of_the_design():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    kinds = {c["id"]: c["type"] for c in contracts["contracts"]}
    assert kinds == {"layers": "layers", "games-by-name": "forbidden",
                     "games-independent": "independence", "analysis-no-game": "forbidden",
                     "no-circles": "acyclic_siblings"}
    layers = next(c for c in contracts["contracts"] if c["id"] == "layers")["layers"]
    assert layers[0].startswith("sim.__main__ : sim.cli") and "sim.rng" in layers[-1]
    assert "sim.paintline : sim.payne : sim.encounter" in layers


def test_the_project_keeps_its_import_contracts():
    out = lint_imports(ROOT / "pyproject.toml", ROOT, ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_a_broken_contract_fails(tmp_path):
    """A lower layer that imports a higher one, and two modules importing each other."""
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "top.py").write_text("import toy.bottom\n")
    (pkg / "bottom.py").write_text("import toy.top\n")
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent("""\
        [tool.importlinter]
        root_packages = ["toy"]

        [[tool.importlinter.contracts]]
        name = "top over bottom"
        type = "layers"
        layers = ["toy.top", "toy.bottom"]

        [[tool.importlinter.contracts]]
        name = "no circles"
        type = "acyclic_siblings"
        ancestors = ["toy"]
        """))
    out = lint_imports(config, tmp_path, tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "toy.bottom is not allowed to import toy.top" in out.stdout
    assert "2 broken" in out.stdout
