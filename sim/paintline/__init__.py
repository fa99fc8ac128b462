"""Paint the Line (Red Tide): everything in cardlab that knows this game's rules."""

# The turn calls many short rules (and decisions) once or more each shot: inlined into their
# callers they cost no call (see sim.core.jit.njit); 4x on the pure dice game, 1.4x full rules.
INLINE_SHORT_FUNCTIONS = True
