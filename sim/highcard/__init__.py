"""High Card: the smallest whole game behind the game contract, the template a new game copies
(`cardlab new-game NAME` writes it out under the new name)."""
