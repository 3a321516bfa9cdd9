"""The TSG's mappings against Orio's: what a warp's memory requests cost, and (on a GPU) time.

Run: python3 bench/bench_tsg.py [--record]   (--record appends to bench/results/tsg.json)

1. Static (any machine), orcu/tsg/traffic.py's figures of gemm 1024, gemv 4096 and transposed
   gemv 4096, in Orio's mapping, the TSG's first kept schedule and (gemm, transposed gemv)
   with Phase II's placements: each global access's sectors per warp request and requests,
   the mean sectors per request over all of them, the global bytes requested per output, and
   orcu/execution/model.py's predicted kernel time on the H100 profile with the term that bounds it.
2. On a GPU (when one is visible): the kernel time of the same three kernels, Orio's
   mapping against the TSG's choice, at the issue's sizes (gemm 2048, gemv 8192 as well).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

from orcu.codegen.region import generate
from orcu.device import gpu_visible, profile
from orcu.execution.model import of_variant
from orcu.execution.query import query
from orcu.execution.runners import Runner
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import performance_space
from orcu.spec.schedule import Schedule, block_shape

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"
H100 = profile("H100")
ORIO_THREADS = 128
# kernel -> (example, input sizes, the TSG configuration: its first kept schedule and block,
# Phase II's placements off; then the placements timed as well on a GPU)
CASES = {
    "gemm": ("dgemm.c", {"n": 1024}, {"TI": 8, "TJ": 32}),
    "gemv": ("gemv.c", {"n": 4096, "m": 4096}, {"TC": 128}),
    "gemv_t": ("gemv_t.c", {"n": 4096, "m": 4096}, {"TC": 128}),
}
_GEMM_PLACED = {
    "TI": 8,
    "TJ": 32,
    "registers_i_1": 4,
    "registers_j_1": 4,
    "shared_A_1": True,
    "shared_B_1": True,
    "sharedDepth_1": 16,
}
_GEMV_T_PLACED = {"TC": 128, "registers_j_1": 2, "shared_x_1": True, "sharedDepth_1": 32}
# kernel -> each variant with Phase II's placements: its name and configuration
PLACED = {
    "gemm": {"tsg_placed": _GEMM_PLACED, "tsg_vectors": {**_GEMM_PLACED, "vectorize_1": True}},
    "gemv_t": {"tsg_placed": _GEMV_T_PLACED, "tsg_vectors": {**_GEMV_T_PLACED, "vectorize_1": True}},
}
# Orio cannot map the transposed gemv as written (its outer loop carries the reduction into
# y[j]): an Orio user swaps the loops by hand, and that is what Orio's figures are for.
ORIO_EDITS = {
    "gemv_t.c": (
        "for (i = 0; i < n; i++)\n        for (j = 0; j < m; j++)",
        "for (j = 0; j < m; j++)\n        for (i = 0; i < n; i++)",
    )
}
GPU_SIZES = {
    "gemm": [{"n": 1024}, {"n": 2048}],
    "gemv": [{"n": 4096, "m": 4096}, {"n": 8192, "m": 8192}],
    "gemv_t": [{"n": 4096, "m": 4096}, {"n": 8192, "m": 8192}],
}
_TRANSFORM = re.compile(r"transform CUDA\([^)]*\)")


def _tsg(program, params: dict, inputs: dict) -> tuple[Schedule, tuple[int, int], dict]:
    """The first kept schedule, its block and the whole configuration: ``params``, the
    others at their first valid values (no register or shared tiles)."""
    nest = program.nests[0]
    schedule = nest.recipe.kept[0]
    config = performance_space(program, dict(inputs)).first_matching({**params, "mapping_1": schedule.name})
    values = nest.transform.values(config)
    return schedule, block_shape(schedule, values["threadCount"], values["tile"]), config


def figures(program, config: dict, inputs: dict) -> dict:
    """orcu/tsg/traffic.py's figures of one variant (each global access: the sectors of the
    first warp's request and the grid's requests) and orcu/execution/model.py's prediction on the H100."""
    code = generate(program, program.nests[0], config, inputs)
    traffic = code.traffic(H100.multiprocessors)
    prediction = of_variant(program, 0, traffic, inputs, H100)
    return {
        "accesses": [{"access": f.access, "sectors": f.sectors, "requests": f.requests} for f in traffic.globals_],
        "sectors_per_request": round(traffic.sectors / traffic.requests, 2),
        "bytes_per_output": round(traffic.bytes_per_output, 1),
        "predicted_ms": round(prediction.ms, 5),
        "bound": prediction.bound,
    }


def static_rows(directory: Path) -> dict:
    out = {}
    for kernel, (example, inputs, params) in CASES.items():
        program = load(EXAMPLES / example)
        schedule, block, config = _tsg(program, params, inputs)
        orio = load(_orio_copy(example, directory))
        variants = {
            "orio": figures(orio, performance_space(orio, dict(inputs)).first_matching({}), inputs),
            "tsg": {"schedule": schedule.name, "block": list(block), **figures(program, config, inputs)},
        }
        for name, placed in PLACED.get(kernel, {}).items():
            variants[name] = figures(program, _tsg(program, placed, inputs)[2], inputs)
        out[kernel] = {"inputs": inputs, **variants}
        print(
            f"{kernel:<7} {json.dumps(inputs):<26} "
            + "   ".join(
                f"{name}: {v['sectors_per_request']:5.2f} sectors/request, {v['bytes_per_output']:7.1f} B/output, "
                f"{v['predicted_ms']:.4g} ms predicted ({v['bound']})"
                for name, v in variants.items()
            )
        )
    return out


def _orio_copy(example: str, directory: Path) -> Path:
    """The example with Orio's mapping in place of the TSG's."""
    path = directory / ("orio_" + example)
    text = _TRANSFORM.sub(f"transform CUDA(threadCount={ORIO_THREADS})", (EXAMPLES / example).read_text())
    if example in ORIO_EDITS:
        text = text.replace(*ORIO_EDITS[example])
    path.write_text(text)
    return path


def timed_rows(backend: str, sizes: dict[str, list[dict]]) -> list[dict]:
    """Kernel time (median of the harness's samples) of both mappings of each kernel."""
    device = query() if backend == "cuda" else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(backend, device or profile("H100"), Path(tmp), jobs=os.cpu_count())
        for kernel, (example, _, params) in CASES.items():
            tsg_program = load(EXAMPLES / example, device=device)
            orio_program = load(_orio_copy(example, Path(tmp)), device=device)
            for inputs in sizes[kernel]:
                _, block, tsg_params = _tsg(tsg_program, params, inputs)
                variants = [("orio", orio_program, params), ("tsg", tsg_program, tsg_params)]
                variants += [
                    (name, tsg_program, _tsg(tsg_program, placed, inputs)[2])
                    for name, placed in PLACED.get(kernel, {}).items()
                ]
                times = {}
                for name, program, p in variants:
                    result = next(runner.evaluate(program, 0, [(p, dict(inputs))]))
                    times[name] = statistics.median(result.kernel_ms) if result.status == "ok" else result.status
                best = min((t for k, t in times.items() if k != "orio" and isinstance(t, float)), default=None)
                speedup = times["orio"] / best if isinstance(times["orio"], float) and best else None
                rows.append(
                    {
                        "kernel": kernel,
                        "inputs": inputs,
                        "tsg_block": list(block),
                        **{f"{k}_ms": v for k, v in times.items()},
                        "speedup": round(speedup, 2) if speedup else None,
                    }
                )
                print(
                    f"{kernel:<7} {json.dumps(inputs):<26} "
                    + "   ".join(f"{k} {t} ms" for k, t in times.items())
                    + f"   speed-up of the TSG's best {rows[-1]['speedup']}"
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    parser.add_argument(
        "--emulate", action="store_true", help="time small sizes under the emulation (checks the plumbing; CPU times)"
    )
    args = parser.parse_args()
    print("sectors a warp's request touches (mean over the requests), global bytes per output, the model's prediction:")
    with tempfile.TemporaryDirectory() as tmp:
        static = static_rows(Path(tmp))
    timed = []
    if gpu_visible():
        timed = timed_rows("cuda", GPU_SIZES)
    elif args.emulate:
        timed = timed_rows(
            "emulate", {"gemm": [{"n": 48}], "gemv": [{"n": 96, "m": 80}], "gemv_t": [{"n": 96, "m": 80}]}
        )
    else:
        print("no GPU visible: no kernel times")
    if args.record:
        path = ROOT / "bench" / "results" / "tsg.json"
        runs = json.loads(path.read_text()) if path.exists() else []
        nvcc_version = (
            subprocess.run([nvcc(), "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        )
        gpu = query() if gpu_visible() else None
        runs.append(
            {
                "date": date.today().isoformat(),
                "machine": f"{platform.machine()}, Python {platform.python_version()}",
                "nvcc": nvcc_version,
                "gpu": gpu.name if gpu else None,
                "static": static,
                "kernel_times": timed if gpu else [],
            }
        )
        path.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
