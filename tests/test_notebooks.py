"""The tutorial notebooks run top to bottom from a fresh kernel, on small game counts."""

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_NOTEBOOK_GAMES", "600")
    monkeypatch.setenv("CARDLAB_RESULTS", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
    assert os.listdir(tmp_path)


def test_notebooks_are_built_from_their_generators():
    """The committed notebooks are exactly what notebooks/build.py and build_*.py write."""
    import importlib.util

    built = {}
    for path in sorted(NOTEBOOKS[0].parent.glob("build*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        build = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(build)
        built.update(build.notebooks())
    assert built == {p.name: p.read_text(encoding="utf-8") for p in NOTEBOOKS}
