"""Where variants run, and what that means for everything downstream: the one place that knows
the backends apart. The rest of orcu asks a Backend what it needs (does it run on a GPU, does it
run the variants at all, which compiler builds them, how its times are described) and never
tests a backend's name.

- cuda: nvcc builds each variant and the GPU runs and times it; every variant is checked.
- emulate: g++ builds each variant against orcu's CUDA emulation (orcu/templates/emulation) and
  the CPU runs it, checking it against the original C; the performance model ranks them.
- model: variants are compiled only (nvcc where installed, else the emulation's g++) and the
  performance model predicts their time; nothing runs them, so the winners are checked in the
  emulation before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from orcu.errors import UsageError
from orcu.execution.toolchain import EMULATION, NVCC, model_compiler


@dataclass(frozen=True)
class Backend:
    name: str
    on_gpu: bool  # the variants run on a GPU; else orcu's CPU emulation stands in for one
    runs: bool  # the variants are run (and so each checked against the original code)
    compiled_by: str | None  # the toolchain that builds its variants (NVCC or EMULATION); None: chosen per machine
    where: str  # after a device's name: what the figures of that device are
    where_long: str  # the same, in a report's heading
    adjective: str  # in a plot's title
    check: str  # what checks the variants, in a tune's notes
    summary: str  # what it does, for the reference (docs/reference.md)

    @property
    def emulated(self) -> bool:
        """Its times are not a GPU's: CPU times of the emulation, or the model's predictions."""
        return not self.on_gpu

    @property
    def runs_on_cpu(self) -> bool:
        """Its variants run in orcu's CPU emulation: in this machine's memory, the device's arrays too."""
        return self.runs and not self.on_gpu

    @property
    def winners_need_a_check(self) -> bool:
        """Nothing ran the variants: the winners run in the emulation before a tuned file is written."""
        return not self.runs

    @property
    def default_measure(self) -> str:
        """What ranks variants when neither the user nor the spec says: a GPU's kernel time, else
        the model's prediction of it (an emulated CPU time says nothing of the GPU)."""
        return "kernel" if self.on_gpu else "model"

    def compiler(self) -> str:
        """The toolchain that builds its variants on this machine."""
        return self.compiled_by or model_compiler()

    def time_words(self, what: str) -> str:
        """What a measured time of ``what`` (kernel time, ...) is, never passing a CPU's off as a GPU's."""
        return f"{what} on the GPU" if self.on_gpu else f"CPU time of the emulated {what}, not a GPU time"


CUDA = Backend(
    "cuda",
    on_gpu=True,
    runs=True,
    compiled_by=NVCC,
    where="",
    where_long=", on the GPU",
    adjective="",
    check="",
    summary="nvcc builds each variant; the GPU runs, checks and times it.",
)
EMULATE = Backend(
    "emulate",
    on_gpu=False,
    runs=True,
    compiled_by=EMULATION,
    where=", emulated on the CPU",
    where_long=", emulated on the CPU (orcu's emulation checks the variants)",
    adjective="emulated",
    check=" (the emulation checked each one)",
    summary="g++ builds each variant against orcu's CUDA emulation; the CPU runs and checks it, and the performance "
    "model ranks the variants by their predicted GPU time.",
)
MODEL = Backend(
    "model",
    on_gpu=False,
    runs=False,
    compiled_by=None,
    where=", predicted by orcu's performance model",
    where_long=", compiled and predicted by orcu's performance model",
    adjective="modelled",
    check="",
    summary="variants are compiled only (nvcc where installed) and the performance model predicts their time; the "
    "winners run in the emulation before a tuned file is written.",
)
BACKENDS = {b.name: b for b in (CUDA, EMULATE, MODEL)}
AUTO = "auto"  # cuda where a GPU is visible, else emulate
CHOICES = (AUTO, *BACKENDS)


def backend(name: str | Backend) -> Backend:
    """The backend of a name (as the command line, the API and the results database spell it)."""
    if isinstance(name, Backend):
        return name
    try:
        return BACKENDS[name]
    except KeyError:
        raise UsageError(f"unknown backend '{name}' (known: {', '.join(CHOICES)})") from None
