"""orcu: an annotation-based source-to-source autotuner of C loops for CUDA.

From Python: ``orcu.check``, ``orcu.emit``, ``orcu.tune``, ``orcu.apply`` and ``orcu.results``
(orcu/driver/api.py, which the command line is a layer over); errors are ``orcu.OrcuError``.
"""

from orcu.driver.api import (
    Check,
    Evaluation,
    RegionResult,
    Results,
    Tuning,
    apply,
    check,
    emit,
    export,
    export_t4,
    import_from,
    import_t4,
    results,
    tune,
)
from orcu.errors import NotWritten, OrcuError
from orcu.version import __version__

__all__ = [
    "__version__",
    "Check",
    "Evaluation",
    "NotWritten",
    "OrcuError",
    "RegionResult",
    "Results",
    "Tuning",
    "apply",
    "check",
    "emit",
    "export",
    "export_t4",
    "import_from",
    "import_t4",
    "results",
    "tune",
]
