"""What the Python API returns: an evaluation, a region's tuning, a tune, results from the
database, a check. Plain dataclasses, each with the records, tables and plots a user asks of it."""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from orcu.errors import UsageError
from orcu.execution.backends import backend as backend_of


@dataclass
class Evaluation:
    """One variant evaluated: its configuration at one input size, its status and times. Times
    are milliseconds; ``time_ms`` is the median of the samples of ``measure`` (kernel: the
    kernels' CUDA-event time on a GPU; total: the host function's; model: orcu's performance
    model's prediction of the GPU time). Under the emulation, kernel and total samples are CPU
    times of the emulated code and say nothing of a GPU (``emulated``)."""

    file: str
    region: str
    inputs: dict[str, Any]
    params: dict[str, Any]
    status: str
    measure: str
    time_ms: float | None
    kernel_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)
    predicted_ms: float | None = None
    message: str = ""
    backend: str = ""
    device: str = ""
    created: str = ""
    figures: dict[str, Any] | None = None  # static traffic figures and the model's prediction
    line: int | None = None  # the region's line in the file
    compiler: str = ""
    metrics: dict[str, float] | None = (
        None  # what it achieved at time_ms (orcu/execution/metrics.py): gflop_s, gb_s, ...
    )

    @property
    def emulated(self) -> bool:
        return backend_of(self.backend).emulated

    @property
    def gflop_s(self) -> float | None:
        return (self.metrics or {}).get("gflop_s")

    @property
    def gb_s(self) -> float | None:
        return (self.metrics or {}).get("gb_s")

    @property
    def bound_fraction(self) -> float | None:
        """The roofline bound over the time: 1.0 at the roofline."""
        return (self.metrics or {}).get("bound_fraction")

    def record(self) -> dict[str, Any]:
        """A flat row (the columns of ``orcu report --csv`` and the model's prediction)."""
        from orcu.driver.report import csv_row

        out = csv_row({f.name: getattr(self, f.name) for f in fields(self)})
        out.update(measure=self.measure, predicted_ms=self.predicted_ms)
        return out


def _median(samples: list[float]) -> float | None:
    return statistics.median(samples) if samples else None


def _evaluation(file: str, t, result, backend: str, device: str, compiler: str) -> Evaluation:
    """A result of the tune of ``t`` (a region at one size) as the API gives it."""
    from orcu.execution.model import predicted_ms

    return Evaluation(
        file,
        t.name,
        dict(result.inputs),
        dict(result.params),
        result.status,
        result.measure,
        result.time_ms,
        list(result.kernel_ms),
        list(result.total_ms),
        predicted_ms(result.figures),
        result.message,
        backend,
        device,
        "",
        result.figures,
        t.line,
        compiler,
        result.metrics,
    )


def evaluation_from_row(row: dict[str, Any], measure: str) -> Evaluation:
    from orcu.driver.report import rates
    from orcu.execution.result import RANKED

    samples = row[f"{measure}_ms"]
    time = _median(samples) if row["status"] in RANKED else None
    metrics = (
        None if row["metrics"] is None else {**row["metrics"], **rates(row, measure)}
    )  # the rates at this measure's time
    return Evaluation(
        row["file"],
        row["region"],
        row["inputs"],
        row["params"],
        row["status"],
        measure,
        time,
        row["kernel_ms"],
        row["total_ms"],
        _median(row["model_ms"]),
        row["message"],
        row["backend"],
        row["device"],
        row["created"],
        row["figures"],
        row["line"],
        row["compiler"],
        metrics,
    )


class _Table:
    """Evaluations as a table: ``records()`` (a list of dicts), ``to_dataframe()`` with pandas, and
    ``plot(directory)``, the figures of ``orcu report --plot``."""

    evaluations: list[Evaluation]

    def records(self) -> list[dict[str, Any]]:
        return [e.record() for e in self.evaluations]

    def to_dataframe(self):
        """A pandas DataFrame of ``records()`` (pip install 'orcu[pandas]')."""
        try:
            import pandas
        except ImportError:
            raise UsageError(
                "to_dataframe() needs pandas (pip install 'orcu[pandas]'); records() gives the same rows "
                "as a list of dicts"
            ) from None
        return pandas.DataFrame.from_records(self.records())

    def plot(self, directory: str | os.PathLike, device=None, skipped: list[str] | None = None) -> list[Path]:
        """The plots of these evaluations as PNG files in ``directory``: what was written. Each
        plot the evaluations do not allow is said in ``skipped``, with why."""
        from orcu.driver.plots import plot_all

        return plot_all(self.evaluations, Path(directory), device, skipped)


@dataclass
class RegionResult:
    """The tuning of one region at one input size."""

    region: str
    line: int
    inputs: dict[str, Any]
    strategy: str
    space: int  # configurations in its search space
    best: Evaluation | None
    statuses: dict[str, int]
    evaluations: list[Evaluation]
    parameters: tuple[str, ...] = ()  # the performance parameters this region uses
    new: int = 0
    cached: int = 0
    same_build: int = 0
    spread: float | None = None  # the winner's re-timed samples: interquartile range / median
    no_effect: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    checked: bool | None = None  # --backend model: whether a run checked its winner


@dataclass
class Tuning(_Table):
    """What ``tune`` did: each region and input size, every evaluation, the files written (none
    where ``errors`` says why), the notes the command line prints after its table, and
    ``summary``, the object of ``orcu tune --json``."""

    file: str
    backend: str
    device: str
    measure: str
    regions: list[RegionResult]
    written: list[str]
    errors: list[str]
    notes: list[str]
    summary: dict[str, Any]
    target: Any = None  # the Device measured or modelled (for the roofline)
    objective: Any = None  # the orcu.spec.objectives.Objective that ranked the variants

    @property  # a Tuning's evaluations are its regions', read only
    def evaluations(self) -> list[Evaluation]:  # type: ignore[override]
        return [e for r in self.regions for e in r.evaluations]

    def plot(self, directory: str | os.PathLike, device=None, skipped: list[str] | None = None) -> list[Path]:
        return super().plot(directory, device or self.target, skipped)


@dataclass
class Results(_Table):
    """Evaluations from the results database, in the order they were made; each ranked by
    ``measure`` (the one the tune that made them used, unless asked otherwise)."""

    evaluations: list[Evaluation]
    database: Path


@dataclass
class Check:
    """What ``orcu check`` reports: ``summary`` is its ``--json`` object."""

    summary: dict[str, Any]

    def text(self, explain: bool = False) -> str:
        from orcu.driver.report import check_text

        return check_text(self.summary, explain=explain)


def region_result(file: str, t, backend: str, device_text: str, compiler: str) -> RegionResult:
    evaluations = [_evaluation(file, t, r, backend, device_text, compiler) for r in t.results]
    best = _evaluation(file, t, t.best, backend, device_text, compiler) if t.best is not None else None
    return RegionResult(
        t.name,
        t.line,
        dict(t.inputs),
        t.strategy,
        t.space,
        best,
        t.statuses,
        evaluations,
        tuple(t.parameters),
        t.new,
        t.cached,
        t.same_build,
        t.spread,
        tuple(t.no_effect),
        tuple(t.notes),
        t.checked,
    )
