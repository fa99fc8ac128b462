"""Paint the Line (Red Tide): everything in cardlab that knows this game's rules."""
