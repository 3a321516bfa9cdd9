"""The GPU orcu tunes for: queried from the machine when one is visible, else a profile.

The query is a small CUDA program (compiled once, its answer cached per machine in
``$ORCU_HOME``); without a GPU, a named profile gives the same facts, so that emulated
tuning prunes and compiles exactly as it would for that GPU.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from orcu.errors import UsageError


@dataclass(frozen=True)
class Device:
    name: str
    compute_capability: str  # "90" for sm_90
    multiprocessors: int
    max_threads_per_block: int
    max_grid_x: int
    shared_per_block: int  # bytes without opting in
    shared_per_block_optin: int
    registers_per_block: int
    l2_bytes: int
    memory_clock_khz: int
    memory_bus_bits: int
    memory_bytes: int  # global memory
    source: str  # "query" or "profile"
    clock_khz: int = 0  # the multiprocessors' clock (boost); 0: unknown (orcu/execution/model.py takes 1.5 GHz)

    @property
    def arch(self) -> str:
        return f"sm_{self.compute_capability}"

    def spec_names(self) -> dict[str, int]:
        """Names a spec may use for this device's facts, e.g. ``param BC[] = [device_sms * k for k in [1, 2, 4]]``
        (a spec's own definition of a name wins)."""
        return {
            "device_sms": self.multiprocessors,
            "device_max_threads": self.max_threads_per_block,
            "device_shared_bytes": self.shared_per_block_optin,
            "device_cc": int(self.compute_capability),
        }

    @property
    def bandwidth_gbs(self) -> float:
        """Peak memory bandwidth: two transfers per clock (DDR) over the bus."""
        return 2 * self.memory_clock_khz * 1e3 * self.memory_bus_bits / 8 / 1e9

    def describe(self) -> str:
        return (
            f"{self.name} ({self.arch}, {self.multiprocessors} SMs, {self.source})\n"
            f"  threads per block  {self.max_threads_per_block}\n"
            f"  blocks (x)         {self.max_grid_x}\n"
            f"  shared memory      {self.shared_per_block // 1024} KiB per block, {self.shared_per_block_optin // 1024} KiB opted in\n"
            f"  registers          {self.registers_per_block} per block\n"
            f"  L2 cache           {self.l2_bytes // (1024 * 1024)} MiB\n"
            f"  memory             {self.memory_bytes / 2**30:.0f} GiB, {self.memory_clock_khz // 1000} MHz x {self.memory_bus_bits} bits, "
            f"{self.bandwidth_gbs:.0f} GB/s peak"
        )


# What one multiprocessor holds at once, by compute capability (CUDA's occupancy tables):
# threads, blocks, shared memory in bytes (the per-block reservation of sm_80+ apart).
SM_LIMITS = {
    "70": (2048, 32, 96 * 1024),
    "75": (1024, 16, 64 * 1024),
    "80": (2048, 32, 164 * 1024),
    "86": (1536, 16, 100 * 1024),
    "89": (1536, 24, 100 * 1024),
    "90": (2048, 32, 228 * 1024),
}
REGISTER_UNIT = 256  # registers are allocated to a warp in units of this many


def occupancy(device: Device, threads: int, registers: int, shared_bytes: int) -> tuple[int, float, str]:
    """(blocks of ``threads`` that fit on one multiprocessor, the fraction of its threads they
    keep busy, what limits them) for a kernel of ``registers`` per thread and ``shared_bytes``
    per block."""
    most_threads, most_blocks, shared = SM_LIMITS.get(
        device.compute_capability, (2048, 32, device.shared_per_block_optin)
    )
    reserved = 1024 if int(device.compute_capability) >= 80 else 0  # the runtime's own shared memory per block
    warps = -(-threads // 32)
    per_warp = -(-registers * 32 // REGISTER_UNIT) * REGISTER_UNIT
    limits = {
        "threads": most_threads // (warps * 32),
        "blocks": most_blocks,
        "registers": device.registers_per_block // (per_warp * warps) if registers else most_blocks,
        "shared memory": shared // (shared_bytes + reserved) if shared_bytes else most_blocks,
    }
    blocks = min(limits.values())
    limit = min(limits, key=lambda k: (limits[k], k != "threads"))
    return blocks, blocks * warps * 32 / most_threads, limit


def _profile(name, cc, sms, optin_kib, l2_mib, clock_mhz, bus, memory_gib, sm_clock_mhz) -> Device:
    return Device(
        name,
        cc,
        sms,
        1024,
        2**31 - 1,
        48 * 1024,
        optin_kib * 1024,
        65536,
        l2_mib * 1024 * 1024,
        clock_mhz * 1000,
        bus,
        memory_gib * 2**30,
        "profile",
        sm_clock_mhz * 1000,
    )


# Datasheet figures of the GPUs people tune for most (memory: what the driver reports, about).
PROFILES = {
    "H100": _profile("NVIDIA H100 80GB HBM3", "90", 132, 227, 50, 2619, 5120, 79, 1980),
    "H200": _profile("NVIDIA H200", "90", 132, 227, 60, 3201, 6144, 139, 1980),
    "A100": _profile("NVIDIA A100-SXM4-80GB", "80", 108, 163, 40, 1593, 5120, 79, 1410),
    "L40S": _profile("NVIDIA L40S", "89", 142, 99, 96, 9001, 384, 44, 2520),
    "V100": _profile("Tesla V100-SXM2-32GB", "70", 80, 96, 6, 877, 4096, 31, 1530),
}
DEFAULT_PROFILE = "H100"


def orcu_home(near: str | os.PathLike[str] | None = None) -> Path:
    """orcu's state directory (results database, builds, device cache): $ORCU_HOME, else found
    as git finds .git: a .orcu folder in the folder of ``near`` (an annotated file; default the
    current directory) or in one above it; without one, a new .orcu at the project's root (the
    nearest folder above with .git) or, outside a repository, beside the file. So a file's
    results are found from wherever a command names it."""
    if os.environ.get("ORCU_HOME"):
        home = Path(os.environ["ORCU_HOME"])
    else:
        start = Path(near).resolve().parent if near is not None else Path.cwd()
        above = [start, *start.parents]
        found = next((d / ".orcu" for d in above if (d / ".orcu").is_dir()), None)
        home = found or next((d for d in above if (d / ".git").exists()), start) / ".orcu"
    if home.exists() and not home.is_dir():
        named = f"ORCU_HOME={home}" if os.environ.get("ORCU_HOME") else str(home)
        raise UsageError(f"{named} is not a directory: orcu keeps its results database and builds there")
    return home


def gpu_visible() -> bool:
    """Whether an NVIDIA GPU answers (nvidia-smi lists one)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    try:
        proc = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and "GPU" in proc.stdout


def profile(name: str) -> Device:
    for key, device in PROFILES.items():
        if key.lower() == name.lower():
            return device
    raise UsageError(f"unknown device profile '{name}' (known: {', '.join(PROFILES)})")
