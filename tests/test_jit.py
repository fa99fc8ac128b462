"""The compile cache: keyed to every kernel source, and never fatal when unwritable."""

import shutil
import tempfile
from pathlib import Path

import numba

from sim.core import jit


def test_cache_key_follows_its_own_game_and_the_shared_helpers(tmp_path, monkeypatch):
    copy = tmp_path / "sim"
    shutil.copytree(Path(jit.__file__).parents[1], copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "othergame").mkdir()
    (copy / "othergame" / "engine.py").write_text("# another game's kernel\n")
    monkeypatch.setattr(jit, "_SOURCES", copy)
    before = {g: jit.source_hash(g) for g in ("paintline", "othergame", jit.COMMON)}
    assert jit.source_hash("paintline") == before["paintline"]
    callee = copy / "paintline" / "rules.py"
    callee.write_text(callee.read_text() + "\n# a changed callee in another module\n")
    assert jit.source_hash("paintline") != before["paintline"]
    # Editing one game's engine recompiles that game alone.
    assert jit.source_hash("othergame") == before["othergame"]
    assert jit.source_hash(jit.COMMON) == before[jit.COMMON]
    rng = copy / "core" / "rng.py"
    rng.write_text(rng.read_text() + "\n# a changed shared helper\n")
    assert jit.source_hash("othergame") != before["othergame"]
    assert jit.source_hash(jit.COMMON) != before[jit.COMMON]
    assert jit.group_of("sim.paintline.rules") == "paintline"
    assert jit.group_of("sim.core.rng") == jit.COMMON


def test_unwritable_cache_folder_falls_back(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    folder = jit.cache_folder()
    assert folder is not None and folder.is_relative_to(tmp_path / "tmp")
    assert folder.name == jit.source_hash()


def test_nothing_writable_compiles_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(blocker / "tmp"))
    assert jit.cache_folder() is None


def test_pure_twins_match_the_compiled_functions():
    import numpy as np

    from sim.paintline import policy as Pol

    rng = np.random.default_rng(0)
    prm = np.array([0, 1, 1.0, 0.01, 0.5, 0.001, 8, 2, 5, 6, 15, 1, 1], dtype=np.float64)
    keys, ctr = np.zeros(6, np.uint64), np.zeros(6, np.int64)
    twin = jit.pure(Pol.choose_hit)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        feats = rng.random((n, 4))
        assert twin(prm, feats, n, keys, ctr, 0) == Pol.choose_hit(prm, feats, n, keys, ctr, 0)


def test_cache_is_found_by_content_from_any_checkout(tmp_path, monkeypatch):
    """Two checkouts of the same sources (another path, other file times) share compiled
    code; a changed file does not."""
    import os

    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    stamps, paths = [], []
    for k, name in enumerate(("one", "two")):
        root = tmp_path / name / "sim"
        (root / "game").mkdir(parents=True)
        source = root / "game" / "engine.py"
        source.write_text("def kernel(x):\n    return x + 1\n")
        os.utime(source, (1_000_000 + k, 1_000_000 + k))
        monkeypatch.setattr(jit, "_SOURCES", root)
        namespace = {}
        exec(compile(source.read_text(), str(source), "exec"), namespace)
        locator = jit._ContentLocator.from_function(namespace["kernel"], str(source))
        stamps.append(locator.get_source_stamp())
        paths.append(locator.get_cache_path())
    assert stamps[0] == stamps[1] and paths[0] == paths[1]
    source.write_text("def kernel(x):\n    return x + 2\n")
    assert jit._ContentLocator(namespace["kernel"], str(source)).get_source_stamp() != stamps[0]
    outside = tmp_path / "elsewhere.py"
    outside.write_text("def f():\n    pass\n")
    assert jit._ContentLocator.from_function(namespace["kernel"], str(outside)) is None


def rule_and_kernel():
    """A fresh rule, tripled, and a kernel entry that calls it: kernel(x) = 3x + 1."""

    @jit.njit
    def tripled(x):
        return 3 * x

    @jit.njit(entry=True)
    def kernel(x):
        return tripled(x) + 1

    return tripled, kernel


def test_only_an_entry_keeps_a_python_wrapper_and_machine_code_of_its_own():
    """A rule is compiled for its compiled callers alone (no Python wrapper; where
    sim.core.linking is installed, no machine code of its own); called from Python it runs
    a twin that has them, and the kernel that calls it gets the same answer."""
    from sim.core import linking

    tripled, kernel = rule_and_kernel()
    assert kernel(2) == 7
    assert tripled(2) == 6  # the wrapperless code itself, called from Python, would crash
    assert tripled.targetoptions["no_cpython_wrapper"]
    assert not kernel.targetoptions.get("no_cpython_wrapper", False)
    rule = tripled.overloads[tripled.signatures[0]].library
    entry = kernel.overloads[kernel.signatures[0]].library
    assert isinstance(rule, linking.LinkOnly) == jit.LINK_ONLY
    assert not isinstance(entry, linking.LinkOnly)
    if jit.LINK_ONLY:
        assert rule.get_pointer_to_function("anything") == 0


def test_a_rule_module_holds_its_own_code_and_the_kernel_links_each_rule_once():
    """A link-only rule's module declares the rules it calls rather than copying them in;
    the kernel's library links in every library below it, each once, each before those it
    links, and answers as before."""
    import pytest

    from sim.core import linking

    if not jit.LINK_ONLY:
        pytest.skip("sim.core.linking is not installed on this numba")
    tripled, _ = rule_and_kernel()

    @jit.njit
    def twice_tripled(x):
        return tripled(x) + tripled(x)

    @jit.njit(entry=True)
    def kernel(x):
        return twice_tripled(x) + tripled(x)

    assert kernel(2) == 18
    below = twice_tripled.overloads[twice_tripled.signatures[0]]
    rule = tripled.overloads[tripled.signatures[0]]
    name = rule.fndesc.llvm_func_name
    assert below.library._final_module.get_function(name).is_declaration
    a, b, c, d = (type("Library", (), {})() for _ in range(4))
    a._links, b._links = [c, d], [d]
    assert linking._linked([a, b, c]) == [a, c, d, b]


def test_a_game_that_asks_gets_kernels_whose_module_makes_its_rules_private(monkeypatch):
    """Where a game's package sets PRIVATE_RULES, a kernel's module makes the rules it links
    in private before LLVM optimises it (so that it may drop the arguments a rule never
    reads, or inline it), the kernel's own function public, with the same answer; elsewhere
    the rule reaches the optimiser as numba links it, a definition another module may
    replace."""
    import sys

    import pytest
    from numba.core import codegen

    from sim.core import linking

    if not jit.LINK_ONLY:
        pytest.skip("sim.core.linking is not installed on this numba")
    seen = {}  # each function's linkage as the kernel's module reaches the optimiser
    optimize = codegen.JITCodeLibrary._optimize_final_module

    def recording(library):
        seen.update({fn.name: fn.linkage.name for fn in library._final_module.functions})
        optimize(library)

    monkeypatch.setattr(codegen.JITCodeLibrary, "_optimize_final_module", recording)
    for private in (False, True):
        monkeypatch.setattr(sys.modules[__name__.rpartition(".")[0]], "PRIVATE_RULES",
                            private, raising=False)
        seen.clear()
        tripled, kernel = rule_and_kernel()
        assert kernel(2) == 7
        entry = kernel.overloads[kernel.signatures[0]]
        assert isinstance(entry.library, linking.PrivateRules) == private
        rule = tripled.overloads[tripled.signatures[0]].fndesc.llvm_func_name
        assert seen[rule] == ("internal" if private else "linkonce_odr")
        assert seen[entry.fndesc.llvm_func_name] == "external"


def test_what_python_calls_compiles_with_headroom(monkeypatch):
    """An entry and a rule's twin compile (or load) on a roomy frame stack, and the rules an
    entry links in compile inside that call (sim/core/headroom.py)."""
    from sim.core import headroom

    calls = []

    def recording(fn, *args, **kwargs):
        calls.append(args)
        return headroom.with_headroom(fn, *args, **kwargs)

    monkeypatch.setattr(jit, "with_headroom", recording)
    tripled, kernel = rule_and_kernel()
    assert kernel(4) == 13
    assert len(calls) == 1  # the entry's compile; its callee compiled inside it
    assert tripled(4) == 12
    assert len(calls) == 2  # the twin's
    assert kernel(5) == 16 and len(calls) == 2  # compiled once


def _with_a_closure(x):
    def add(y):
        return x + y

    return add(1)


def _with_a_with_block(x):
    with numba.objmode(y="int64"):
        y = x + 1
    return y


def test_a_rule_holding_a_closure_or_a_with_block_is_refused_by_name():
    """The rules' pipeline (sim.core.pipeline) leaves out numba's passes for closures and
    `with` blocks, so such a function stops at a check that names it and says why; the
    rules themselves (every kernel of every game) hold neither and compile."""
    import pytest

    if not jit.RULES:
        pytest.skip("a numba version the rules' pipeline was not checked on")
    for fn, what in ((_with_a_closure, "a closure"), (_with_a_with_block, "a with block")):
        with pytest.raises(Exception, match=f"{fn.__name__} holds {what}.*sim/core/pipeline"):
            jit.njit(entry=True)(fn)(2)
    # numba's own pipeline compiles both: the refusal is the check's, not numba's
    assert numba.njit(_with_a_closure)(2) == 3
    assert numba.njit(_with_a_with_block)(2) == 3


def _reads_the_last(a):
    return a[-1]


def _writes_the_last(a):
    a[-1] = 7
    return 0


def _reads_at(a, i):
    return a[i]


def test_a_rule_indexing_from_the_end_is_refused_by_name():
    """Python's a[-1] is the last item; the rules are lowered without that wrap-around
    (sim.core.pipeline), so a rule that writes an index from the end as a constant stops at
    the check, by name, reading or writing; numba's own pipeline reads the last item."""
    import numpy as np
    import pytest

    if not jit.RULES:
        pytest.skip("a numba version the rules' pipeline was not checked on")
    for fn in (_reads_the_last, _writes_the_last):
        with pytest.raises(Exception, match=f"{fn.__name__} holds an index from the end"):
            jit.njit(entry=True)(fn)(np.arange(3))
    a = np.arange(3)
    assert numba.njit(_reads_the_last)(a) == 2
    assert numba.njit(_writes_the_last)(a) == 0 and a.tolist() == [0, 1, 7]


_FRONT_CHECK = """
import numba, numpy as np
from sim.core import jit
import tests.test_jit as t
a = np.arange(5)
rule = jit.njit(entry=True)(t._reads_at)
assert rule(a, 4) == 4
try:
    rule(a, -1)
    print("wrapped")
except IndexError:
    print("refused")
print(numba.njit(t._reads_at)(a, -1))
"""


def test_a_rule_reads_its_index_from_the_front(tmp_path):
    """With bounds checks on (CARDLAB_BOUNDSCHECK=1), numba wraps -1 to the last item and
    only then checks it, so a rule lowered without the wrap-around reports -1 as out of
    bounds; in the same process a function compiled by numba's own pipeline still reads
    a[-1] as the last item."""
    import os
    import subprocess
    import sys

    import pytest

    if not jit.RULES:
        pytest.skip("a numba version the rules' pipeline was not checked on")
    root = Path(jit.__file__).parents[2]
    env = dict(os.environ, CARDLAB_BOUNDSCHECK="1", CARDLAB_CACHE_DIR=str(tmp_path),
               PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", _FRONT_CHECK], env=env, cwd=root,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["refused", "4"]
