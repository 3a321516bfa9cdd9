"""Code generation: loop-nest IR plus one configuration -> CUDA text (docs/design.md, the pipeline)."""
