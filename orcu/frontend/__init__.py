"""From C text to the loop-nest IR: parsing, lowering, and the types of every name."""
