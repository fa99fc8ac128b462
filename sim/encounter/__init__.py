"""Encounter RPCCG: PCs questing against each other's strikes (the lab's third game)."""

# The kernel's module makes private the rules it links in (sim.core.linking.PrivateRules):
# LLVM drops the context's arrays a rule never reads from its calls and inlines the rules
# called once; 1.29x here, records identical.
PRIVATE_RULES = True
