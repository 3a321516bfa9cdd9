"""orcu: an annotation-based source-to-source autotuner of C loops for CUDA."""

__version__ = "0.1.0"  # the one place: pyproject.toml reads it, `orcu --version` prints it
