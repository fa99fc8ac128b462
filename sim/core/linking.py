"""Code libraries of the functions that only compiled code calls: linked into their callers,
never optimised as a module or turned into machine code of their own.

numba finalises every compiled function on its own: it optimises the function's module with
its callees linked in, then emits machine code for all of it, although a rule is only ever
run as part of the kernel that links it in. So every level above a rule optimised the whole
rulebook below it again, and emitted machine code that nothing called. A link-only library
keeps numba's passes over each function of its own but leaves the module's optimisation
(inlining, loops) to the kernel, whose module holds the whole engine and is optimised once,
and emits nothing; its module holds its own code only, its callees declared, and the
library that emits machine code links in every link-only library below it, once each (before,
every level copied in and checked again the whole engine below it). Records are identical.
Steps 7 and 9 of "The first compile"
(benchmarks/README.md) each made a game's first run a quarter to two fifths shorter (step 9
measured with step 8); Encounter's kernel is 7% faster, Paint the Line's as fast, Payne's 3
to 7% slower.

Where a game asks for it (its __init__ sets PRIVATE_RULES), the kernel's module also makes
the rules it links in private to it before that one optimisation (`PrivateRules`). numba
links a rule in as a definition that another module might replace, so LLVM kept every rule
with the signature numba gave it: every array of the context passed whole (about 90 words
pushed on the stack for each call of a rule that takes the context), and a rule called
from one place kept as a call. Private, each rule loses the arguments it never reads and a
rule called once is inlined. Encounter's kernel 1.29x, Payne's 1.22x, records identical;
Paint the Line, whose short rules LLVM already inlines, would be 0.98x and does not ask
(benchmarks/README.md, "A profile-led pass over Encounter's kernel").

This reaches into numba's code libraries (`numba.core.codegen`), so it is installed only
on the numba versions it was checked on; elsewhere every function is finalised as numba
does it. CARDLAB_LINK_ONLY=0 turns it off.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numba
from numba.core import codegen, event

# The numba versions whose code libraries this was checked against.
CHECKED = ((0, 60), (0, 69))

# One entry per compile under way (numba compiles callees inside their callers' compiles):
# whether the function being compiled is one that only compiled code calls, and whether
# its module makes private the rules it links in.
_COMPILING: list[tuple[bool, bool]] = []


class _Compiling(event.Listener):
    """Follows numba's "numba:compile" events, so that the code library numba makes for a
    function knows whose it is."""

    def __init__(self, link_only: Callable[[object], bool], private: Callable[[object], bool]):
        self.link_only, self.private = link_only, private

    def on_start(self, ev):
        dispatcher = ev.data["dispatcher"]
        _COMPILING.append((bool(self.link_only(dispatcher)), bool(self.private(dispatcher))))

    def on_end(self, ev):
        _COMPILING.pop()


class LinkOnly(codegen.JITCodeLibrary):
    """A function's code library that its callers link in: each function's own passes as
    numba runs them, the module's left to the kernel, no machine code of its own and so no
    address; nothing calls it from Python (it has no Python wrapper) and nothing caches it
    (a cache entry is machine code)."""

    def finalize(self):
        # Its module holds its own code only, its callees declared: the library that emits
        # machine code links in every link-only library below it, once each (`_linked`),
        # where every level above a rule copied in again the whole engine below it.
        self._links, self._linking_libraries = self._linking_libraries, []
        super().finalize()

    def _optimize_final_module(self):
        # Its callers optimise it, inlined or linked in: the kernel's module holds the
        # whole engine and optimises it once, where every level above a rule optimised
        # again every rule below it.
        pass

    def _finalize_final_module(self):
        # Its callees are declarations here; the library that links it in checks them.
        self._finalize_dynamic_globals()
        self._finalized = True

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        return 0


class PrivateRules(codegen.JITCodeLibrary):
    """The code library of a function that Python calls (a kernel, a rule's twin) whose
    module makes private the rules it links in before it is optimised: LLVM may then drop
    the arguments a rule never reads and inline a rule called from one place (a rule linked
    in keeps numba's linkonce_odr, a definition another module might replace, whose
    signature LLVM leaves as it is). The library's own functions keep their linkage."""

    def _optimize_final_module(self):
        for fn in self._final_module.functions:
            if not fn.is_declaration and fn.linkage.name == "linkonce_odr":
                fn.linkage = "internal"
        super()._optimize_final_module()


def _linked(libraries: list) -> list:
    """The libraries a module links in, with every library that a link-only one among them
    links, and so on down: each once, each before those it links."""
    out, seen = [], set()

    def visit(library):
        if library not in seen:
            seen.add(library)
            out.append(library)
            for below in getattr(library, "_links", ()):
                visit(below)

    for library in libraries:
        visit(library)
    return out


def _version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


def install(link_only: Callable[[object], bool],
            private: Callable[[object], bool] = lambda dispatcher: False) -> bool:
    """From now on, the functions for whose dispatcher `link_only` is true get link-only
    code libraries, and the others for whose dispatcher `private` is true libraries that
    make private the rules they link in (`PrivateRules`); True when installed (a checked
    numba version, not turned off)."""
    if os.environ.get("CARDLAB_LINK_ONLY", "1") == "0":
        return False
    if not CHECKED[0] <= _version() < CHECKED[1]:
        return False
    cpu = codegen.JITCPUCodegen
    create, set_env = cpu.create_library, cpu.set_env

    def create_library(self, name, **kwargs):
        library = create(self, name, **kwargs)
        if _COMPILING and type(library) is codegen.JITCodeLibrary:
            link_only, private = _COMPILING[-1]
            if link_only:
                library.__class__ = LinkOnly
            elif private:
                library.__class__ = PrivateRules
        return library

    def set_env_where_emitted(self, env_name, env):
        # A link-only library emits no environment of its own to point at the Python one;
        # the kernels raise no exceptions and allocate nothing, so no code reads it.
        if self._engine.get_global_value_address(env_name):
            set_env(self, env_name, env)

    numba_finalize = codegen.CPUCodeLibrary.finalize

    def finalize(self):
        if not isinstance(self, LinkOnly):
            self._linking_libraries = _linked(self._linking_libraries)
        numba_finalize(self)

    codegen.CPUCodeLibrary.finalize = finalize
    cpu.create_library = create_library
    cpu.set_env = set_env_where_emitted
    event.register("numba:compile", _Compiling(link_only, private))
    return True
