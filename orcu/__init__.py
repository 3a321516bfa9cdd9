"""orcu: an annotation-based source-to-source autotuner of C loops for CUDA."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def installed_version() -> str | None:
    """orcu's version as installed; None when it runs from a source tree never installed."""
    from importlib import metadata

    try:
        return metadata.version("orcu")
    except metadata.PackageNotFoundError:
        return None
