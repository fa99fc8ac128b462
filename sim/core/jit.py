"""The one numba configuration: on-disk cache keyed to the kernel sources, fastmath off."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
import types
from pathlib import Path

import numba

from sim.core import linking, pipeline
from sim.core.headroom import with_headroom

_SOURCES = Path(__file__).resolve().parents[1]  # sim/: the core's helpers and the games
COMMON = "common"  # compiled helpers shared by every game (sim/core/rng.py)


def group_of(module: str) -> str:
    """The cache group of a module: its game package (sim.paintline.rules -> paintline), or
    the shared helpers of the core (sim.core.rng)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "sim" and parts[1] != "core" else COMMON


def kernel_sources(group: str = COMMON) -> list[Path]:
    """The files a group's compiled code depends on: the shared compiled helpers, this
    configuration, numba's passes for the rules (sim.core.pipeline) and how it finalises
    code (sim.core.linking), plus, for a game, every
    module of its package. A game's kernels call only its own package and the shared
    helpers, so a change elsewhere leaves its cache."""
    shared = [p for p in sorted((_SOURCES / "core").glob("*.py"))
              if p.name in ("jit.py", "linking.py", "pipeline.py")
              or "@njit" in p.read_text(encoding="utf-8")]
    if group == COMMON:
        return shared
    return shared + sorted((_SOURCES / group).glob("*.py"))


def source_hash(group: str = COMMON) -> str:
    """Hash of a group's sources plus the numba version.

    numba's own cache only notices a change in the file that defines a function, not in a
    callee from another module, so the cache folder itself is keyed to all of them.
    """
    h = hashlib.sha256(numba.__version__.encode())
    for path in kernel_sources(group):
        h.update(path.relative_to(_SOURCES).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_folder(group: str = COMMON) -> Path | None:
    """A writable folder for a group's compiled kernels, or None to compile in memory."""
    key = source_hash(group)
    base = os.environ.get("CARDLAB_CACHE_DIR")
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        base = Path(xdg) / "cardlab"
    candidates = [Path(base) / "numba" / group / key,
                  Path(tempfile.gettempdir()) / f"cardlab-{os.getuid()}" / "numba" / group / key]
    for folder in candidates:
        if _writable(folder):
            return folder
    return None


_FOLDERS: dict[str, Path | None] = {}


class _ContentLocator(numba.core.caching.UserProvidedCacheLocator):
    """numba's cache locator for the project's own modules, keyed to their content rather
    than to where the checkout lies and when its files were written: the group folder is
    already named by the hash of every source its code depends on, so a fresh clone of the
    same sources (a CI run, a second worktree) finds the code compiled before."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not numba.config.CACHE_DIR or not Path(py_file).resolve().is_relative_to(_SOURCES):
            return None
        return super().from_function(py_func, py_file)

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, Path(py_file).stem)

    def get_source_stamp(self):
        return hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()


numba.core.caching.CacheImpl._locator_classes.insert(0, _ContentLocator)


def _cache_for(module: str) -> bool:
    """Point numba's cache at the module's group folder (numba reads the setting when a
    function is decorated); False when nothing is writable."""
    group = group_of(module)
    if group not in _FOLDERS:
        _FOLDERS[group] = cache_folder(group)
    folder = _FOLDERS[group]
    if folder is not None:
        numba.config.CACHE_DIR = str(folder)
    return folder is not None


def _skip_blas_probe() -> None:
    """numba's array library imports all of scipy.linalg (half a second of a warm start)
    only to learn whether BLAS exists; no kernel does linear algebra, so the probe is
    skipped while that library loads (a later np.dot would still check for itself)."""
    # deferred: numba's own modules, imported only to adjust them
    import numba.np.linalg as linalg

    probe = linalg.ensure_blas
    linalg.ensure_blas = lambda: None
    try:
        # deferred: numba's own modules, imported only to adjust them
        import numba.np.arraymath  # noqa: F401
    finally:
        linalg.ensure_blas = probe


_skip_blas_probe()
_BOUNDSCHECK = os.environ.get("CARDLAB_BOUNDSCHECK") == "1"


# Functions this long or shorter are inlined into every caller where their game asks for it
# (CARDLAB_INLINE=0: none are, so that a profile names each function).
INLINE_LINES = 40 if os.environ.get("CARDLAB_INLINE", "1") != "0" else -1


def _inlined(f) -> bool:
    """True for a short function of a game package that asks for it (its __init__ sets
    INLINE_SHORT_FUNCTIONS): inlining everywhere multiplies the code LLVM compiles, which
    only pays where many short rules run every step."""
    package = sys.modules.get(f.__module__.rpartition(".")[0])
    if not getattr(package, "INLINE_SHORT_FUNCTIONS", False):
        return False
    numbers = [line for _, _, line in f.__code__.co_lines() if line is not None]
    return max(numbers) - f.__code__.co_firstlineno <= INLINE_LINES


def _one_signature_per_type(dispatcher) -> None:
    """Called from compiled code, a function is compiled for its arguments' plain types, not
    once more for every constant a caller passes (numba types a constant argument as a
    literal, `Literal[int](2)`, and compiles a version for each): the rules pass constants
    everywhere (a purpose, a zone, a seat), and those versions were a fifth of a first
    compile. The code is the same; an inlined callee still sees its constants."""
    # deferred: numba's own modules, imported only to adjust them
    from numba.core import types

    own = dispatcher.get_call_template

    def get_call_template(args, kws):
        return own(tuple(types.unliteral(a) for a in args),
                   {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


def njit(fn=None, **kwargs):
    """numba.njit with the project's settings; usable bare or with extra options.

    Kernels raise no exceptions (validation lives in the wrappers), so numpy's error
    model is used: no zero-division checks in the hot loops. Kernels allocate nothing
    either (a thread's work arrays are made in Python), so reference counting is off:
    with it on, every call between compiled functions updated each array's count
    atomically, a third of the run time. A function
    that allocates without opting in fails to compile, loudly. Where a game asks for it,
    short functions (most rules) are inlined into every caller by LLVM: the rules stay one
    function each in the source, but a call between compiled functions passes every array
    as a struct of up to a dozen words, which had cost a pure-dice model three quarters of
    its time; long ones stay calls, which keeps the compile time down.

    A function is compiled for calls from compiled code alone, without the wrapper that
    lets Python call it (`_Internal`), unless it is an `entry`: a kernel's `play_piece`,
    which compiles with room on Python's frame stack (`_Roomy`) and is called with arrays
    that share no memory where one is written (sim.core.pipeline.DISTINCT_ARRAYS)."""
    entry = kwargs.pop("entry", False)
    options = {"fastmath": False, "boundscheck": _BOUNDSCHECK, "nogil": True,
               "error_model": "numpy", "_nrt": False}
    options.update(kwargs)
    if not entry:
        options.update(INTERNAL)

    def decorate(f):
        if entry:
            pipeline.DISTINCT_ARRAYS.add(f)
        inline = {"forceinline": True} if "forceinline" not in options and _inlined(f) else {}
        # An internal function leaves no machine code to cache (sim.core.linking).
        cache = _cache_for(f.__module__) and (entry or not LINK_ONLY)
        compiled = numba.njit(cache=cache, **options, **inline, **RULES)(f)
        if compiled is f:  # NUMBA_DISABLE_JIT=1: the plain function stands for its own twin
            f.py_func = f
        else:
            _one_signature_per_type(compiled)
            compiled.__class__ = _Roomy if entry else _Internal
        return compiled

    return decorate if fn is None else decorate(fn)


# numba writes, with every compiled function, a wrapper that lets Python call it (its
# arguments unboxed from Python objects) and a C one, and LLVM optimises and emits them
# again in every caller that links the function in. A rule is only ever called from
# compiled code, so it goes without them: a first run 5 to 17% sooner by game
# (benchmarks/README.md, "The first compile", step 6).
INTERNAL = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


class _Roomy(numba.core.registry.CPUDispatcher):
    """A compiled function that Python calls (a kernel's entry, a rule's twin): its compile,
    or its load from the cache, runs with room on Python's frame stack (sim.core.headroom),
    and with it the compiles of every callee it links in."""

    def compile(self, sig):
        return with_headroom(super().compile, sig)


class _Internal(numba.core.registry.CPUDispatcher):
    """A function compiled without its Python wrapper, called from compiled code as any
    other; called from Python (a test, a notebook), it runs a twin compiled with the
    wrapper at that first call. The twin is cached in a folder of its own (WRAPPED) inside
    its group's: numba's cache entries do not tell the two apart, and the wrapperless code
    called from Python would crash."""

    def __call__(self, *args, **kwargs):
        twin = self.__dict__.get("_with_wrapper")
        if twin is None:
            options = {k: v for k, v in self.targetoptions.items()
                       if k not in INTERNAL and k != "nopython"}
            cached = _cache_for(self.py_func.__module__)
            folder = numba.config.CACHE_DIR
            if cached:  # numba reads the folder when a function is decorated
                numba.config.CACHE_DIR = str(Path(folder) / WRAPPED)
            try:
                twin = numba.njit(cache=cached, **options)(self.py_func)
            finally:
                numba.config.CACHE_DIR = folder
            twin.__class__ = _Roomy
            self.__dict__["_with_wrapper"] = twin
        return twin(*args, **kwargs)


WRAPPED = "called-from-python"


def _private_rules(dispatcher) -> bool:
    """True for a function of a game package that asks for it (its __init__ sets
    PRIVATE_RULES): the module of a kernel, or of a rule's twin, makes private the rules it
    links in (sim.core.linking.PrivateRules)."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
    return getattr(sys.modules.get(module.rpartition(".")[0]), "PRIVATE_RULES", False)


RULES = pipeline.install()  # numba's passes less those for what no rule holds
LINK_ONLY = linking.install(lambda dispatcher: isinstance(dispatcher, _Internal), _private_rules)


def pure(fn, **substitutes):
    """The plain-Python twin of a compiled function, calling plain-Python twins of the
    compiled functions it uses: for callers that want a few decisions without paying for
    the compiler's start-up (the exact solver), or a readable engine that runs a policy's
    own decisions. `substitutes` replace named globals throughout (for example a random
    draw by its plain-Python counterpart)."""
    subs = tuple(sorted(substitutes.items()))
    return _twin(fn, subs)


@functools.cache
def _twin(dispatcher, subs):
    py = dispatcher.py_func
    env = dict(py.__globals__)
    env.update(subs)
    for name in py.__code__.co_names:
        value = env.get(name)
        if hasattr(value, "py_func"):  # a compiled function (or, with the JIT off, its source)
            env[name] = _twin(value, subs)
    return types.FunctionType(py.__code__, env, py.__name__, py.__defaults__, py.__closure__)
