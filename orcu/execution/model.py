"""A variant's GPU time, predicted without a GPU: a roofline over the memory traffic and the
work of its kernel (tsg/traffic.py's static figures, or those its emulated run counted), on a
device profile, with the waves of blocks and a latency term for grids too small to hide it.

Each term is the time one resource of the GPU needs for the whole launch, at its peak rate
over the multiprocessors the grid keeps busy; the slowest sets the prediction:

- dram: the arrays' bytes the kernel touches, once each (the L2 cache keeps what is reused
  while it fits, so requests beyond the footprint are the L2's, not DRAM's);
- l2: every 32-byte sector the warps request (uncoalesced accesses move whole sectors);
- shared: one shared-memory wavefront a cycle a multiprocessor, a bank conflict a wavefront more;
- compute: the arithmetic operations at the peak rate of the element type (a multiply-add is two),
  those on the tensor cores at theirs;
- issue: the warp instructions of those loads, stores and operations, four a cycle a multiprocessor
  (a tensor-core instruction 256 multiply-adds);
- latency: each warp's global requests one after another, a few in flight (its independent
  accesses, over the steps of a thread's loop that nvcc unrolls), all resident warps at once,
  wave after wave; reads of a constant-memory copy are its cache's, an issue slot each.

A kernel inside host loops is launched at each of their steps: the prediction is its launches'
in one run of the region, the time the harness's kernel measure sums.

Deterministic, pure arithmetic: milliseconds per variant. The free constants (achievable
share of the bandwidth, launch overhead) are CALIBRATION's; where GPU runs of a device were
fitted over every committed measurement (bench/bench_model.py --refit, or bench/gpu_all.py's
calibrate step with its own run's too, writes templates/model_calibration.json), the slowest
term is scaled and the launch cost replaced by that device's fit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from orcu.device import Device, occupancy
from orcu.execution.harness import memory_needs
from orcu.execution.toolchain import KernelResources
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.tsg.figures import SECTOR, WARP, Figure, Traffic
from orcu.tsg.phase2 import CONSTANT_BYTES
from orcu.tsg.sizes import launches

# Lanes of one multiprocessor that run an operation a cycle, by compute capability: float, double.
ARITHMETIC = {"70": (64, 32), "75": (64, 2), "80": (64, 32), "86": (128, 2), "89": (128, 2), "90": (128, 64)}
# Multiply-adds a multiprocessor's tensor cores run a cycle, by the bytes of the element: FP64
# (A100 19.5 and H100 67 TFLOP/s; elsewhere mma.sync's doubles run at the FMA units' rate) and
# TF32 (dense: A100 156, A10/L4 class 128 a cycle, H100 495 TFLOP/s, of which mma.sync, not wgmma,
# reaches part: the calibration's scale says how much).
TENSOR_LANES = {8: {"80": 64, "90": 128}, 4: {"80": 512, "86": 128, "89": 128, "90": 1024}}
# multiply-adds one warp instruction runs: m8n8k4 of doubles, m16n8k4 of TF32
MMA_OPERATIONS = {8: 2 * 8 * 8 * 4, 4: 2 * 16 * 8 * 4}
SCHEDULERS = 4  # warp instructions a multiprocessor issues a cycle
REGISTERS = 32  # a thread's registers where no ptxas report says otherwise


@dataclass(frozen=True)
class Calibration:
    bandwidth: float = 0.85  # the share of peak DRAM bandwidth a streaming kernel reaches
    l2_ratio: float = 2.5  # L2 bandwidth over DRAM bandwidth
    latency_ns: float = 600.0  # a global request's round trip
    launch_us: float = 3.0  # a launch's fixed cost, as CUDA events see it
    in_flight: int = 8  # most requests one warp keeps in flight
    unrolled: int = 4  # steps of a thread's loop whose loads nvcc's unrolling issues together
    scale: float = 1.0  # measured over predicted time of the slowest term, as fitted on a device


CALIBRATION = Calibration()
FITTED = "model_calibration.json"  # in orcu.templates: device name -> {"scale", "launch_ms", ...}


@lru_cache(maxsize=1)
def fitted_calibrations() -> dict[str, dict[str, Any]]:
    """The fits of GPU runs that ship with orcu, by device name (empty before any)."""
    path = resources.files("orcu.templates") / FITTED
    return json.loads(path.read_text()) if path.is_file() else {}


def calibration_for(device: Device) -> Calibration:
    """CALIBRATION, with the slowest term's scale and the launch cost fitted on this device where
    there is a fit of it."""
    fit = fitted_calibrations().get(device.name)
    if fit is None:
        return CALIBRATION
    return replace(CALIBRATION, scale=fit["scale"], launch_us=1e3 * fit["launch_ms"])


@dataclass(frozen=True)
class Prediction:
    ms: float
    bound: str  # the term that sets it
    terms: dict[str, float]  # ms each resource needs
    occupancy: float  # the share of a multiprocessor's threads the blocks keep busy
    waves: int
    launches: int = 1  # of the kernel in one run of its region (the host loops around it)
    slowest_ms: float = 0.0  # the slowest term over those launches, before the calibration's scale

    def as_dict(self) -> dict[str, Any]:
        return {
            "predicted_ms": self.ms,
            "bound": self.bound,
            "terms": {k: round(v, 6) for k, v in self.terms.items()},
            "occupancy": round(self.occupancy, 3),
            "waves": self.waves,
            "slowest_ms": round(self.slowest_ms, 6),
            **({"launches": self.launches} if self.launches != 1 else {}),
        }

    def line(self) -> str:
        return (
            f"model: {self.ms:.4g} ms predicted on the GPU, bound by {self.bound}; ms by resource: "
            + ", ".join(f"{k} {v:.3g}" for k, v in self.terms.items())
            + f"; {self.waves} wave{'s' if self.waves > 1 else ''} of blocks at {100 * self.occupancy:.0f}% occupancy"
            + (f"; {self.launches} launches a run of the region, each its own terms" if self.launches != 1 else "")
        )


def peak_rates(device: Device, element_bytes: int) -> tuple[float, float]:
    """(bytes a second, arithmetic operations a second) the device reaches at most: its memory's
    peak bandwidth, and a multiply-add (two operations) a lane a cycle on every multiprocessor at
    the widest element's rate: the roofline's two ceilings."""
    clock = (device.clock_khz or 1_500_000) * 1e3
    float_lanes, double_lanes = ARITHMETIC.get(device.compute_capability, (64, 2))
    lanes = double_lanes if element_bytes >= 8 else float_lanes
    return device.bandwidth_gbs * 1e9, 2 * lanes * device.multiprocessors * clock


def predict(
    traffic: Traffic,
    device: Device,
    element_bytes: int,
    footprint: int,
    registers: int | None = None,
    shared_bytes: int = 0,
    calibration: Calibration = CALIBRATION,
    launches: int = 1,
) -> Prediction:
    """The predicted time of the kernel's ``launches`` in one run of its region (a time loop's
    steps: the harness's kernel time sums them). ``element_bytes``: the widest floating-point
    element (its peak rate); ``footprint``: bytes of the arrays the kernel touches; ``registers``
    and ``shared_bytes``: ptxas's figures a thread and a block, where known. Figures counted over
    a whole run (``traffic.whole_run``, the emulation's) are its launches' together, and pay the
    launch cost once a launch all the same."""
    clock = (device.clock_khz or 1_500_000) * 1e3
    sms = device.multiprocessors
    threads = max(1, traffic.threads)
    blocks = max(1, traffic.blocks)
    per_sm, busy, _ = occupancy(device, threads, registers or REGISTERS, shared_bytes)
    per_sm = max(1, per_sm)
    waves = -(-blocks // (sms * per_sm))
    used = min(1.0, blocks / sms)  # multiprocessors with a block at all
    tail = blocks / (waves * sms * per_sm) if blocks >= sms else 1.0  # the last wave's idle share
    rate = sms * clock * used * min(1.0, tail if waves > 1 else 1.0)
    float_lanes, double_lanes = ARITHMETIC.get(device.compute_capability, (64, 2))
    lanes = double_lanes if element_bytes >= 8 else float_lanes
    bandwidth = device.bandwidth_gbs * 1e9 * calibration.bandwidth
    warps = blocks * -(-threads // WARP)
    resident = min(warps, sms * per_sm * -(-threads // WARP))
    requests, sectors, wavefronts = traffic.distinct
    # a thread that runs a loop has the loads of several of its steps in flight: nvcc unrolls it
    steps = requests / max(1, warps) / traffic.parallel
    mlp = min(calibration.in_flight, traffic.parallel * max(1.0, min(calibration.unrolled, steps)))
    # the constant cache's reads take an issue slot each, and no request of global memory's
    constant = sum(r for _, r in traffic.constant_reads)
    tensor = traffic.tensor_operations
    scalar = traffic.operations - tensor
    tensor_bytes = 8 if element_bytes >= 8 else 4
    tensor_lanes = TENSOR_LANES[tensor_bytes].get(device.compute_capability, lanes)
    terms = {
        "dram": footprint / bandwidth,
        "l2": sectors * SECTOR / (bandwidth * calibration.l2_ratio * used),
        "shared": wavefronts / rate,
        # a multiply-add a lane a cycle
        "compute": scalar / (2 * lanes * rate) + tensor / (2 * tensor_lanes * rate),
        "issue": (requests + wavefronts + constant + scalar / (2 * WARP) + tensor / MMA_OPERATIONS[tensor_bytes])
        / (SCHEDULERS * rate),
        "latency": requests / max(1, resident) * calibration.latency_ns * 1e-9 / mlp,
    }
    terms = {k: 1e3 * v for k, v in terms.items()}
    bound = max(terms, key=terms.get)
    slowest = (1 if traffic.whole_run else launches) * terms[bound]
    ms = calibration.scale * slowest + launches * calibration.launch_us * 1e-3
    return Prediction(ms, bound, terms, busy, waves, launches, slowest)


def predicted_ms(figures: Mapping[str, Any] | None) -> float | None:
    """The prediction an evaluation's figures keep (``figures.model``), where there is one."""
    return ((figures or {}).get("model") or {}).get("predicted_ms")


def footprint(traffic: Traffic, sizes: Mapping[str, int]) -> int:
    """Bytes of DRAM the launch moves at least: each array's requested bytes, up to its size."""
    return sum(min(b, sizes.get(array, b)) for array, b in traffic.bytes_by_array)


def _constant_copies(traffic: Traffic, sizes: Mapping[str, int]) -> Traffic:
    """The figures with the reads of an array copied to constant memory that is larger than the
    copy may be (CONSTANT_BYTES) made the global reads they are then (one sector a request: every
    lane reads the same element); those of the others stay with the constant cache."""
    large = {a for a, _ in traffic.constant_reads if sizes.get(a, CONSTANT_BYTES + 1) > CONSTANT_BYTES}
    if not large:
        return traffic
    return replace(
        traffic,
        globals_=traffic.globals_
        + tuple(
            Figure(f"{a} (global: too large for constant memory)", 1, r, a)
            for a, r in traffic.constant_reads
            if a in large
        ),
        bytes_by_array=traffic.bytes_by_array + tuple((a, sizes[a]) for a in sorted(large) if a in sizes),
        constant_reads=tuple((a, r) for a, r in traffic.constant_reads if a not in large),
    )


def of_variant(
    program,
    region: int,
    traffic: Traffic | None,
    inputs: Mapping[str, Any],
    device: Device,
    ptxas: KernelResources | None = None,
    calibration: Calibration | None = None,
) -> Prediction | None:
    """The prediction for one generated variant of ``region`` at ``inputs`` from its figures
    (and ptxas's, where known), over the launches one run of its region makes, at ``calibration``
    (default: the device's fit, else the constants); None without figures (its subscripts or
    bounds are not numbers there)."""
    program = program.of_nest(region)
    if traffic is None:
        return None
    nest = program.nests[region]
    _, _, arrays = memory_needs(program, region, inputs)
    widest = max(
        (
            ELEMENT_BYTES.get(canonical_type(v.ctype.base), 4)
            for v in nest.variables.values()
            if canonical_type(v.ctype.base) in ("float", "double")
        ),
        default=4,
    )
    traffic = _constant_copies(traffic, dict(arrays))
    # figures the emulation counted name no arrays: then the nest's arrays, whole
    touched = (
        footprint(traffic, dict(arrays)) if traffic.bytes_by_array else sum(b for a, b in arrays if a in nest.variables)
    )
    return predict(
        traffic,
        device,
        widest,
        touched,
        ptxas.registers if ptxas else None,
        ptxas.shared_bytes if ptxas else 0,
        calibration=calibration or calibration_for(device),
        launches=launches(nest, inputs) or 1,
    )
