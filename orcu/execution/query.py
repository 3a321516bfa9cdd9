"""The GPU of this machine, asked with a small CUDA program (nvcc builds it) and remembered per
host in $ORCU_HOME/devices.json: orcu.device holds what orcu knows of GPUs, this asks the one here."""

from __future__ import annotations

import json
import platform
import subprocess
import tempfile
from dataclasses import asdict, fields
from pathlib import Path

from orcu.device import Device, orcu_home
from orcu.execution.toolchain import nvcc
from orcu.files import replace_atomically

_QUERY = r"""
#include <cuda_runtime.h>
#include <stdio.h>
int main()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 1;
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess)
        return 1;
    int clock = 0, bus = 0, sm_clock = 0;
    cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
    cudaDeviceGetAttribute(&sm_clock, cudaDevAttrClockRate, 0);
    printf("{\"name\": \"%s\", \"compute_capability\": \"%d%d\", \"multiprocessors\": %d, "
           "\"max_threads_per_block\": %d, \"max_grid_x\": %d, \"shared_per_block\": %zu, "
           "\"shared_per_block_optin\": %zu, \"registers_per_block\": %d, \"l2_bytes\": %d, "
           "\"memory_clock_khz\": %d, \"memory_bus_bits\": %d, \"memory_bytes\": %zu, \"clock_khz\": %d}\n",
           p.name, p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerBlock, p.maxGridSize[0],
           p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.regsPerBlock, p.l2CacheSize, clock, bus, p.totalGlobalMem, sm_clock);
    return 0;
}
"""


def query() -> Device | None:
    """The first visible GPU, from the cache or by running the query program; None without one."""
    cache = orcu_home() / "devices.json"
    key = platform.node()
    try:
        cached = json.loads(cache.read_text()).get(key)
    except (OSError, ValueError):
        cached = None
    if cached and set(cached) == {f.name for f in fields(Device)}:  # written by this orcu: else ask again
        return Device(**cached)
    compiler = nvcc()
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp, "query.cu"), Path(tmp, "query")
        src.write_text(_QUERY)
        try:
            subprocess.run([compiler, "-o", str(exe), str(src)], check=True, capture_output=True, timeout=300)
            proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
    if proc.returncode != 0:
        return None
    device = Device(**json.loads(proc.stdout), source="query")
    cache.parent.mkdir(parents=True, exist_ok=True)
    try:
        table = json.loads(cache.read_text())
    except (OSError, ValueError):
        table = {}
    table[key] = asdict(device)
    replace_atomically(cache, json.dumps(table, indent=2) + "\n")  # tunes may start together
    return device
