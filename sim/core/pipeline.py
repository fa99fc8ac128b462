"""numba's passes for compiled rules, without those for code the rules never hold.

numba runs some thirty passes over every function it compiles. Five of them look for what
no compiled rule uses: `with` blocks (objmode), closures and functions made inside a
function, `literally` and `literal_unroll`, and parallel loops. Each still walks the whole
function, in every compile. The rules' pipeline leaves them out and checks, once the IR is
built, that the function holds neither a `with` block nor a closure; where one does, the
compile stops with an error that names it, not with one from deep inside numba. Every pass
that changes the code of a rule is kept in numba's order, so the code is the same.

This reaches into numba's pass manager, so it is installed only on the numba versions it
was checked on (as sim.core.linking); elsewhere numba's own pipeline compiles the rules.
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


class RuleCompiler(CompilerBase):
    """numba's nopython pipeline less the passes for `with`, closures, `literally`,
    `literal_unroll` and parfors, and with the PlainRule check after the IR is built."""

    def define_pipelines(self):
        pm = PassManager("cardlab_rules")
        if self.state.func_ir is None:
            pm.add_pass(TranslateByteCode, "analyzing bytecode")
            pm.add_pass(FixupArgs, "fix up args")
        pm.add_pass(IRProcessing, "processing IR")
        pm.add_pass(PlainRule, "no with block, no closure")
        pm.add_pass(RewriteSemanticConstants, "rewrite semantic constants")
        pm.add_pass(DeadBranchPrune, "dead branch pruning")
        pm.add_pass(GenericRewrites, "nopython rewrites")
        pm.add_pass(RewriteDynamicRaises, "rewrite dynamic raises")
        pm.add_pass(InlineInlinables, "inline inlinable functions")
        pm.add_pass(DeadBranchPrune, "dead branch pruning")
        if self.state.flags.enable_ssa:
            pm.add_pass(ReconstructSSA, "ssa")
        pm.add_pass(DeadBranchPrune, "dead branch pruning")
        pm.add_pass(LiteralPropagationSubPipelinePass, "Literal propagation")
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.add_pass(PreLowerStripPhis, "remove phis nodes")
        pm.add_pass(InlineOverloads, "inline overloaded functions")
        pm.add_pass(NopythonRewrites, "nopython rewrites")
        pm.add_pass(NoPythonSupportedFeatureValidation,
                    "ensure features that are in use are in a valid form")
        pm.add_pass(IRLegalization, "ensure IR is legal prior to lowering")
        pm.add_pass(AnnotateTypes, "annotate types")
        pm.add_pass(NativeLowering, "native lowering")
        pm.add_pass(NoPythonBackend, "nopython mode backend")
        pm.finalize()
        return [pm]


def options() -> dict:
    """The njit option that compiles with RuleCompiler, on the numba versions it was
    checked on (none elsewhere, or with CARDLAB_RULE_PIPELINE=0)."""
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    if not CHECKED[0] <= version < CHECKED[1] or os.environ.get("CARDLAB_RULE_PIPELINE") == "0":
        return {}
    return {"pipeline_class": RuleCompiler}
