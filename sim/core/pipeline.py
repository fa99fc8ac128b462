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

This reaches into numba's pass manager, so it is installed only on the numba versions it
was checked on (as sim.core.linking); elsewhere numba's own pipeline compiles the rules.
CARDLAB_RULE_PIPELINE=0 turns it off.
"""

from __future__ import annotations

import os

import numba
from numba.core import ir
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

# The numba versions whose pass manager this was checked against (as sim.core.linking).
CHECKED = ((0, 60), (0, 69))


@register_pass(mutates_CFG=False, analysis_only=True)
class PlainRule(FunctionPass):
    """Refuse a `with` block or a closure: the passes that handle them are left out."""

    _name = "cardlab_plain_rule"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        for block in state.func_ir.blocks.values():
            for stmt in block.body:
                if isinstance(stmt, ir.EnterWith) or (
                        isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr)
                        and stmt.value.op == "make_function"):
                    what = "a with block" if isinstance(stmt, ir.EnterWith) else "a closure"
                    raise UnsupportedError(
                        f"{state.func_id.func_qualname} holds {what}, which the compiled "
                        "rules' pipeline (sim/core/pipeline.py) does not compile", stmt.loc)
        return False


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
    (NativeLowering, "native lowering"),
    (NoPythonBackend, "nopython mode backend"),
)


class RuleCompiler(CompilerBase):
    """numba's nopython pipeline less the passes for what no rule holds, with the PlainRule
    check once the IR is built."""

    def define_pipelines(self):
        pm = PassManager("cardlab_rules")
        start = ((TranslateByteCode, "analyzing bytecode"), (FixupArgs, "fix up args")) \
            if self.state.func_ir is None else ()
        ssa = ((ReconstructSSA, "ssa"),) if self.state.flags.enable_ssa else ()
        for cls, what in start + BEFORE_SSA + ssa + AFTER_SSA:
            pm.add_pass(cls, what)
        pm.finalize()
        return [pm]


def options() -> dict:
    """The njit option that compiles with RuleCompiler, on the numba versions it was
    checked on (none elsewhere, or with CARDLAB_RULE_PIPELINE=0)."""
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    if not CHECKED[0] <= version < CHECKED[1] or os.environ.get("CARDLAB_RULE_PIPELINE") == "0":
        return {}
    return {"pipeline_class": RuleCompiler}
