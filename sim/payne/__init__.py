"""The Payne Academy Card Game: battles of arrow-marked characters, behind the game contract."""

# The kernel's module makes private the rules it links in (sim.core.linking.PrivateRules):
# LLVM drops from their calls the arrays a rule never reads (each passed as a struct of up
# to a dozen words) and inlines the rules called once; 1.22x here, records identical.
PRIVATE_RULES = True
