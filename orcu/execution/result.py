"""What evaluating a variant gives: its status (of STATUSES; RANKED ones carry a time), its
samples of the measure that ranks it, and what else its run measured."""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass, field
from typing import Any

from orcu.execution.model import predicted_ms
from orcu.execution.toolchain import KernelResources

NOT_RUN = "compiled, not run (--backend model): the model predicted its time; it was not checked against the C code"

# "predicted": a --backend model result, compiled and ranked by the model's time but never run
# or checked against the original code (only "ok" was).
STATUSES = ("ok", "predicted", "compile_error", "launch_error", "timeout", "wrong_result", "crash", "invalid")
RANKED = ("ok", "predicted")  # the statuses that carry a time a search ranks
WRONG = ("compile_error", "wrong_result", "crash")  # what a prediction never overrides

# What ranks variants: the kernels' time (CUDA events around each launch; Orio's measure), the
# host function's whole time (allocation, transfers, kernels), or the kernels' GPU time as
# orcu/execution/model.py predicts it (the emulation's default: its CPU times say nothing of the GPU).
MEASURES = ("kernel", "total", "model")

MEASURE_NAMES = {
    "kernel": "kernel time",
    "total": "total time",
    "model": "GPU kernel time predicted by orcu's performance model",
}


@dataclass
class Result:
    status: str
    params: dict[str, Any]
    inputs: dict[str, Any]
    kernel_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)
    message: str = ""
    worst: dict[str, Any] | None = None
    compile_s: float = 0.0
    run_s: float = 0.0
    measure: str = "kernel"  # which samples rank it
    figures: dict[str, Any] | None = (
        None  # its static traffic at its input size (tsg/traffic.py), the model's prediction
    )
    counted: dict[str, Any] | None = None  # the memory traffic its run counted (Runner's count_memory)
    resources: KernelResources | None = None  # what ptxas reported of its kernel (GPU builds)
    metrics: dict[str, float] | None = None  # what it achieved (orcu/execution/metrics.py), where ranked
    measured: dict[str, Any] | None = None  # what the harness measured besides time: NVML's energy_j, power_w
    origin: str = ""  # "" measured by orcu here; else where an import found it (never written unchecked)

    @property
    def samples(self) -> list[float]:
        if self.measure == "model":  # the model's prediction, one figure
            predicted = predicted_ms(self.figures)
            return [] if predicted is None else [predicted]
        return self.kernel_ms if self.measure == "kernel" else self.total_ms

    @property
    def time_ms(self) -> float | None:
        """The median of the ranked samples."""
        return statistics.median(self.samples) if self.status in RANKED and self.samples else None

    def with_samples(self, samples: list[float]) -> Result:
        """The same result with other samples of its measure (re-timings pooled in)."""
        if self.measure == "model":
            return self
        if self.measure == "kernel":
            return dataclasses.replace(self, kernel_ms=samples)
        return dataclasses.replace(self, total_ms=samples)
