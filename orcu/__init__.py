"""orcu: an annotation-based source-to-source autotuner of C loops for CUDA.

From Python: ``orcu.check``, ``orcu.emit``, ``orcu.tune``, ``orcu.apply`` and ``orcu.results``
(orcu/api.py, which the command line is a layer over); errors are ``orcu.OrcuError``.
"""

__version__ = "0.1.0"  # the one place: pyproject.toml reads it, `orcu --version` prints it

from .api import (Check, Evaluation, RegionResult, Results, Tuning, apply, check, emit, export, export_t4,  # noqa: E402
                  import_from, import_t4, results, tune)
from .errors import NotWritten, OrcuError  # noqa: E402

__all__ = ["Check", "Evaluation", "NotWritten", "OrcuError", "RegionResult", "Results", "Tuning", "apply", "check", "emit",
           "export", "export_t4", "import_from", "import_t4", "results", "tune"]
