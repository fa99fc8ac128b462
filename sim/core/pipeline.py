"""numba's passes for compiled rules, without those for code the rules never hold.

numba runs some thirty passes over every function it compiles. Six of them look for what
no compiled rule uses: `with` blocks (objmode), closures and functions made inside a
function (two passes), `literally`, `literal_unroll`, and parallel loops' diagnostics. Each
still walks the whole function, in every compile. The rules' pipeline leaves them out and
checks, once the IR is built, that the function holds neither a `with` block nor a
closure; where one does, the compile stops with an error that names it, not with one from
deep inside numba. The other passes run as numba runs them, in its order. Records are
identical (every policy pair of every game) and the kernels as fast; a first run from an
empty cache 0.90 of the time before for Encounter, 0.98 for Payne (benchmarks/README.md,
"Later on 2026-12-07").

Rules index arrays from the front. Python reads `a[-1]` as the last item, so numba gives
every index it cannot prove non-negative (a seat, a card, a slot read from the state) a
test and an add that wrap it around; no rule indexes from the end, and the rules' own code
is lowered without them (`FrontIndexLower`): Encounter's kernel 1.10x, Payne's 1.15x,
Paint the Line's 1.07x, records identical. The check refuses a rule that writes a negative
index as a constant; one computed at run time reads outside the array, which numba's
bounds checks catch (CARDLAB_BOUNDSCHECK=1: tests/test_contract.py runs every game's kernel
so). Functions numba compiles for itself, and any compiled outside the rules, keep the
wrap-around.

This reaches into numba's pass manager and its array indexing, so it is installed only on
the numba versions it was checked on (as sim.core.linking); elsewhere numba's own pipeline
compiles the rules. CARDLAB_RULE_PIPELINE=0 turns it off.
"""

from __future__ import annotations

import os

import numba
from numba.core import ir, lowering, types
from numba.core.compiler import CompilerBase
from numba.core.compiler_machinery import FunctionPass, PassManager, register_pass
from numba.core.errors import UnsupportedError
from numba.core.typed_passes import (
    AnnotateTypes,
    InlineOverloads,
    IRLegalization,
    NativeLowering,
    NoPythonBackend,
    NopythonRewrites,
    NoPythonSupportedFeatureValidation,
    NopythonTypeInference,
    PreLowerStripPhis,
)
from numba.core.untyped_passes import (
    DeadBranchPrune,
    FixupArgs,
    GenericRewrites,
    InlineInlinables,
    IRProcessing,
    LiteralPropagationSubPipelinePass,
    ReconstructSSA,
    RewriteDynamicRaises,
    RewriteSemanticConstants,
    TranslateByteCode,
)
from numba.np import arrayobj

# The numba versions whose pass manager this was checked against (as sim.core.linking).
CHECKED = ((0, 60), (0, 69))


def _constant(func_ir, var):
    """The value of an IR variable defined as a constant (a tuple of such, item by item),
    else None."""
    try:
        d = func_ir.get_definition(var)
    except KeyError:
        return None
    if isinstance(d, (ir.Const, ir.FreeVar, ir.Global)):
        return d.value
    if isinstance(d, ir.Expr) and d.op == "build_tuple":
        return tuple(_constant(func_ir, item) for item in d.items)
    return None


def _from_the_end(index) -> bool:
    """A constant index that counts from the end (-1, or a tuple holding one)."""
    parts = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, int) and i < 0 for i in parts)


def _refused(func_ir, stmt) -> str | None:
    """What in one IR statement the rules' pipeline does not compile, in words."""
    if isinstance(stmt, ir.EnterWith):
        return "a with block"
    index = None
    if isinstance(stmt, (ir.SetItem, ir.StaticSetItem)):
        index = stmt.index
    elif isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr):
        if stmt.value.op == "make_function":
            return "a closure"
        if stmt.value.op in ("getitem", "static_getitem"):
            index = stmt.value.index
    if isinstance(index, ir.Var):
        index = _constant(func_ir, index)
    return "an index from the end" if _from_the_end(index) else None


@register_pass(mutates_CFG=False, analysis_only=True)
class PlainRule(FunctionPass):
    """Refuse a `with` block or a closure (the passes that handle them are left out) and a
    constant index from the end (the rules are lowered without the wrap-around)."""

    _name = "cardlab_plain_rule"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        for block in state.func_ir.blocks.values():
            for stmt in block.body:
                what = _refused(state.func_ir, stmt)
                if what:
                    raise UnsupportedError(
                        f"{state.func_id.func_qualname} holds {what}, which the compiled "
                        "rules' pipeline (sim/core/pipeline.py) does not compile", stmt.loc)
        return False


# The LLVM functions whose body is a rule's own code: their array indices are not wrapped.
_FRONT_INDEXED: set[str] = set()
_wrapped_index = arrayobj.fix_integer_index


def _front_index(context, builder, idxty, idx, size):
    """numba's index fix-up (arrayobj.fix_integer_index), less the wrap-around of a
    negative index inside a rule's own code."""
    if idxty.signed and builder.function.name in _FRONT_INDEXED:
        return context.cast(builder, idx, idxty, types.intp)
    return _wrapped_index(context, builder, idxty, idx, size)


class FrontIndexLower(lowering.Lower):
    """numba's lowering of a rule, which names the rule's function as one whose indices
    count from the front; the code numba lowers for itself meanwhile (its own functions,
    built in functions of their own) keeps the wrap-around."""

    def lower(self):
        _FRONT_INDEXED.add(self.fndesc.mangled_name)
        super().lower()


@register_pass(mutates_CFG=True, analysis_only=False)
class RuleLowering(NativeLowering):
    """numba's native lowering with FrontIndexLower."""

    _name = "cardlab_rule_lowering"

    @property
    def lowering_class(self):
        return FrontIndexLower


# numba's nopython pipeline (numba.core.compiler.DefaultPassBuilder) in its order, less the
# passes for `with` (WithLifting), closures (InlineClosureLikes, MakeFunctionToJitFunction),
# `literally` (FindLiterallyCalls), `literal_unroll` (LiteralUnroll) and parfor diagnostics;
# SSA is rebuilt between the two halves where numba's flags ask for it.
BEFORE_SSA = (
    (IRProcessing, "processing IR"),
    (PlainRule, "no with block, no closure"),
    (RewriteSemanticConstants, "rewrite semantic constants"),
    (DeadBranchPrune, "dead branch pruning"),
    (GenericRewrites, "nopython rewrites"),
    (RewriteDynamicRaises, "rewrite dynamic raises"),
    (InlineInlinables, "inline inlinable functions"),
    (DeadBranchPrune, "dead branch pruning"),
)
AFTER_SSA = (
    (DeadBranchPrune, "dead branch pruning"),
    (LiteralPropagationSubPipelinePass, "Literal propagation"),
    (NopythonTypeInference, "nopython frontend"),
    (PreLowerStripPhis, "remove phis nodes"),
    (InlineOverloads, "inline overloaded functions"),
    (NopythonRewrites, "nopython rewrites"),
    (NoPythonSupportedFeatureValidation, "ensure features that are in use are in a valid form"),
    (IRLegalization, "ensure IR is legal prior to lowering"),
    (AnnotateTypes, "annotate types"),
    (RuleLowering, "native lowering, indices from the front"),
    (NoPythonBackend, "nopython mode backend"),
)


# Functions called with arrays that share no memory where one is written (a kernel's
# entry): numba's `noalias` flag declares their arrays so to LLVM, which then keeps a value
# read from one array (the game state) in a register across a write to another (the card
# statistics, the log) and inlines the rules into code that knows it. Payne's kernel 1.04
# to 1.05x, Encounter's and Paint the Line's as fast (within what two compiles of the same
# sources differ by); the caller checks the promise (sim.kit.records.distinct_writes).
DISTINCT_ARRAYS: set = set()


class RuleCompiler(CompilerBase):
    """numba's nopython pipeline less the passes for what no rule holds, with the PlainRule
    check once the IR is built; an entry's arrays declared distinct (DISTINCT_ARRAYS)."""

    def define_pipelines(self):
        if self.state.func_id.func in DISTINCT_ARRAYS:
            self.state.flags.noalias = True
        pm = PassManager("cardlab_rules")
        start = ((TranslateByteCode, "analyzing bytecode"), (FixupArgs, "fix up args")) \
            if self.state.func_ir is None else ()
        ssa = ((ReconstructSSA, "ssa"),) if self.state.flags.enable_ssa else ()
        for cls, what in start + BEFORE_SSA + ssa + AFTER_SSA:
            pm.add_pass(cls, what)
        pm.finalize()
        return [pm]


def install() -> dict:
    """Put in numba's index fix-up that leaves the rules' indices alone (`_front_index`) and
    return the njit option that compiles with RuleCompiler, on the numba versions it was
    checked on; elsewhere, or with CARDLAB_RULE_PIPELINE=0, change nothing and return none
    (as sim.core.linking.install)."""
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    if not CHECKED[0] <= version < CHECKED[1] or os.environ.get("CARDLAB_RULE_PIPELINE") == "0":
        return {}
    arrayobj.fix_integer_index = _front_index
    return {"pipeline_class": RuleCompiler}
