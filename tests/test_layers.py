"""The import contracts of pyproject.toml hold (layers, games by name only, games independent,
analysis free of games, no import circle), and the checker does fail on a broken one."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib

import pytest

from .conftest import ROOT

CHECK = ("import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filename={!r}, no_cache=True))")


def lint_imports(config, cwd, path) -> subprocess.CompletedProcess:
    """Run import-linter on a config file in a fresh interpreter, with `path` importable."""
    code = CHECK.format(str(config))
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, env={"PYTHONPATH": str(path), "PATH": ""}, timeout=300)


# The games' layer holds every registered game and the template, each a package of its own.
GAMES = "sim.paintline | sim.payne | sim.encounter | sim.highcard"
LAYERS = ["sim.__main__ : sim.cli", "sim.web", "sim.solvers", "sim.experiments", "analysis",
          "sim.runner", "sim.store", GAMES, "sim.kit", "sim.core"]


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_the_declared_contracts_are_the_five_of_the_design():
    kinds = {key: c["type"] for key, c in contracts().items()}
    assert kinds == {"layers": "layers", "games-by-name": "forbidden",
                     "games-independent": "independence", "analysis-no-game": "forbidden",
                     "no-circles": "acyclic_siblings"}
    declared = contracts()["layers"]["layers"]
    at = LAYERS.index(GAMES)
    assert declared[:at] + declared[at + 1:] == LAYERS[:at] + LAYERS[at + 1:]
    # A game begun with `cardlab new-game` joins the games' layer beside the others.
    from sim.kit import game as registry

    games = {p.strip() for p in declared[at].split("|")}
    assert games >= {p.strip() for p in GAMES.split("|")}
    assert games == {f"sim.{g}" for g in registry.names() + registry.templates()}


def modules_of(package: str) -> list[str]:
    folder = ROOT / package.replace(".", "/")
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_is_in_exactly_one_layer_and_the_folders_are_the_layers():
    """A module outside every layer would escape the contract; the layers are whole folders
    (a package each), so the tree under sim/ reads as the layer list."""
    # The declared layers (checked against the design's above), so that a game begun with
    # `cardlab new-game` is one of the games' packages here too.
    packages = [p.strip() for layer in contracts()["layers"]["layers"]
                for p in layer.replace("|", ":").split(":")]
    for package in packages:
        assert (ROOT / package.replace(".", "/")).is_dir() or package == "sim.__main__", package
    for module in modules_of("sim") + modules_of("analysis"):
        if module == "sim":
            continue  # the root package: the version and nothing else
        owners = [p for p in packages if module == p or module.startswith(p + ".")]
        assert len(owners) == 1, (module, owners)
    top = {p.name for p in (ROOT / "sim").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert {p.split(".")[1] for p in packages if p.startswith("sim.")} - {"__main__"} == top


def test_no_package_imports_another_in_a_circle():
    """The packages of the layer list (sim's folders and analysis), as a graph of imports
    between packages: no cycle, so no layer reaches back into one it came from."""
    from graphlib import CycleError, TopologicalSorter

    import grimp

    graph = grimp.build_graph("sim", "analysis")
    packages = [p.strip() for layer in contracts()["layers"]["layers"]
                for p in layer.replace("|", ":").split(":") if p.strip() != "sim.__main__"]

    def imports(a: str, b: str) -> bool:
        found = graph.find_matching_direct_imports(import_expression=f"{a}.** -> {b}.**")
        # A game's own commands read the command line's shared options (the ignored import).
        return any(not (i["importer"].endswith(".commands") and b == "sim.cli") for i in found)

    edges = {(a, b) for a in packages for b in packages if a != b and imports(a, b)}
    try:
        tuple(TopologicalSorter({p: {b for a, b in edges if a == p} for p in packages})
              .static_order())
    except CycleError as err:
        pytest.fail("a circle of packages: " + " -> ".join(err.args[1]))
    assert ("sim.solvers", "analysis") in edges and ("analysis", "sim.store") in edges


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


def deferred_imports_without_a_reason(source: str) -> list[int]:
    """Lines of imports inside a function that neither follow a `# deferred: why` comment
    (alone, or for the block of imports it heads) nor stand in a module whose note says its
    commands defer their imports."""
    import ast

    if "# Each command imports what it needs inside its body (deferred)" in source:
        return []
    lines = source.splitlines()
    out = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import | ast.ImportFrom):
                above = [s.strip() for s in lines[:node.lineno - 1]]
                while above and (above[-1].startswith(("import ", "from ", ")")) or not above[-1]
                                 or above[-1].endswith(",")):
                    above.pop()  # the block of imports this one belongs to
                comment = []
                while above and above[-1].startswith("#"):
                    comment.insert(0, above.pop())  # a reason may run over several lines
                if not (comment and comment[0].startswith("# deferred: ")):
                    out.append(node.lineno)
    return out


def test_the_checker_of_deferred_imports_tells_a_reason_from_none():
    said = "def f():\n    # deferred: scipy loads only when asked\n    import scipy\n\n" \
           "    from pandas import DataFrame\n"
    assert deferred_imports_without_a_reason(said) == []
    assert deferred_imports_without_a_reason("def f():\n    x = 1\n    import json\n") == [3]
    assert deferred_imports_without_a_reason(
        "def f():\n    # deferred: a\n    import a\n    y = 2\n    import b\n") == [5]
    assert deferred_imports_without_a_reason(
        "def f():\n    # deferred: a reason on\n    # two lines\n    import a\n") == []
    assert deferred_imports_without_a_reason("def f():\n    # why\n    import a\n") == [3]


def test_an_import_inside_a_function_says_what_it_defers():
    """Imports inside functions only where they buy start-up time, and said so there."""
    missing = {}
    for path in sorted((ROOT / "sim").rglob("*.py")) + sorted((ROOT / "analysis").rglob("*.py")):
        lines = deferred_imports_without_a_reason(path.read_text(encoding="utf-8"))
        if lines:
            missing[str(path.relative_to(ROOT))] = lines
    assert missing == {}, missing
