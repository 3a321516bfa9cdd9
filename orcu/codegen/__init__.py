"""Code generation: loop-nest IR plus one configuration -> CUDA text (DESIGN.md §3)."""
