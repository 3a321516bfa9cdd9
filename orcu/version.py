"""The version of orcu: the one place it is written (pyproject.toml reads it, `orcu --version`
prints it, tuned files and the results database record it)."""

__version__ = "0.1.0"
