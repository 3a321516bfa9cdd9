"""orcu's tuned code beside PPCG's on the 23 PolyBench scops, on one GPU (issue 61).

bench/gpu_all.py's ``polybench`` step. PPCG's side: its CUDA of PolyBench/C 4.2.1 kept in
bench/ppcg/OPTION/ (bench_ppcg.py --emit, on a CPU machine), built with PolyBench's utilities
and headers (bench/ppcg/polybench/) at the LARGE dataset, every option (default, 16 and 32
square tiles) and each run three times in one process: the kernel function as PolyBench's
timer measures it (device allocations, transfers, kernels; the CUDA context made and every
module loaded before the timer starts) and its kernels alone (CUDA events from after the
last copy to the device to before the first copy back). PPCG's figure is its best option.
orcu's side: each scop of tests/polybench_scops/ at the same sizes, tuned on the GPU at a
small budget (the TSG's phased search, every variant checked against the C code as
written), its kernels' time with the data on the device and the whole host function's with
its transfers, as the tuned file runs the region (``tune --json``'s ``together``, else the
one loop's own). Each scop's row is saved as it finishes (``polybench.json``), so that a run
cut off goes on where it stopped; the scops whose C reference costs most go last.

The inputs differ: PolyBench's init_array on PPCG's side, orcu's random values on its own
(no kernel here branches on its data, so the times do not depend on them).
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_ppcg import KERNELS, OPTIONS, _scop_file, _sizes

PPCG = Path(__file__).resolve().parent / "ppcg"
POLYBENCH = PPCG / "polybench"
CALLS = 3  # of the kernel function per run (ORCU_BENCH_CALLS)
# PPCG's floyd-warshall launches a kernel n(2n - 1) times (15.7 million at LARGE, about 40 s a
# call): one call of its default option only, the options differing in the block's size alone
ONE_CALL = {"floyd.c": ("default",)}
# the C reference's cost at LARGE, in seconds of one CPU core (gcc -O3, PolyBench's own program
# on the CI-class machine, rounded): a tune runs it once per batch of each loop and once more for
# the loops together, so the scops that cost most go last, where a run cut off leaves them
REFERENCE_S = {
    "lu.c": 60,
    "floyd.c": 30,
    "seidel2d.c": 28,
    "3mm.c": 14,
    "syr2k.c": 13,
    "gramschmidt.c": 13,
    "symm.c": 11,
    "correlation.c": 9,
    "covariance.c": 9,
    "heat3d.c": 7,
    "trmm.c": 7,
    "2mm.c": 7,
    "jacobi2d.c": 6,
    "fdtd2d.c": 4,
    "syrk.c": 2,
    "gemm.c": 2,
    "doitgen.c": 1.5,
}

# Timing hooks for PPCG's host file: CUDA events around its kernels, printed per call.
_HOOKS = """
static cudaEvent_t orcu_bench_start, orcu_bench_stop;
static void orcu_bench_kernels_start(void)
{
  cudaEventCreate(&orcu_bench_start);
  cudaEventCreate(&orcu_bench_stop);
  cudaEventRecord(orcu_bench_start);
}
static void orcu_bench_kernels_stop(void)
{
  float ms = 0;
  cudaEventRecord(orcu_bench_stop);
  cudaEventSynchronize(orcu_bench_stop);
  cudaEventElapsedTime(&ms, orcu_bench_start, orcu_bench_stop);
  fprintf(stderr, "orcu-bench kernels_ms %.6f\\n", ms);
  cudaEventDestroy(orcu_bench_start);
  cudaEventDestroy(orcu_bench_stop);
}
"""


def instrumented(host: str) -> str:
    """PPCG's host file with its kernels timed by events and main's timed call run CALLS times
    (ORCU_BENCH_CALLS), the context made and the modules loaded before the first
    (CUDA_MODULE_LOADING=EAGER at run time)."""
    lines = host.splitlines()
    launches = [k for k, line in enumerate(lines) if "<<<" in line]
    if not launches:
        raise ValueError("no kernel launch in PPCG's host file")
    first, last = launches[0], launches[-1]
    before = [k for k in range(first) if "cudaMemcpyHostToDevice" in lines[k] or "cudaMalloc(" in lines[k]]
    after = [k for k in range(last, len(lines)) if "cudaMemcpyDeviceToHost" in lines[k] or "cudaFree(" in lines[k]]
    if not before or not after:
        raise ValueError("no allocation before PPCG's first launch or no copy back after its last")
    # after the last copy to the device (or allocation) before the first launch; before the first
    # copy back (or free) after the last launch
    copies = [k for k in before if "cudaMemcpyHostToDevice" in lines[k]]
    start = (copies or before)[-1]
    stop = after[0]
    if re.match(r"\s*if \(.*\)\s*$", lines[stop - 1]):  # the copy is the body of an if without braces
        stop -= 1
    lines.insert(stop, "    orcu_bench_kernels_stop();")
    lines.insert(start + 1, "    orcu_bench_kernels_start();")
    text = "\n".join(lines) + "\n"
    text = text.replace("#include <assert.h>\n", "#include <assert.h>\n#include <cuda_runtime.h>\n", 1)
    # PolyBench's utilities are C, the host file C++
    text = text.replace("#include <polybench.h>", 'extern "C" {\n#include <polybench.h>\n}', 1)
    text = re.sub(r'(#include "[\w-]+_kernel\.hu"\n)', lambda m: m.group(1) + _HOOKS, text, count=1)
    timed = re.search(
        r"( *)/\* Start timer\. \*/\n\s*polybench_start_instruments;(.*?)polybench_print_instruments;", text, re.S
    )
    if timed is None:
        raise ValueError("no timed call in main")
    indent = timed.group(1)
    text = (
        text[: timed.start()]
        + f'{indent}cudaFree(0);\n{indent}const char *orcu_bench_calls = getenv("ORCU_BENCH_CALLS");\n'
        + f"{indent}for (int orcu_bench_call = 0; orcu_bench_call < (orcu_bench_calls ? atoi(orcu_bench_calls) : {CALLS}); "
        + "orcu_bench_call++) {\n"
        + text[timed.start() : timed.end()]
        + f"\n{indent}}}"
        + text[timed.end() :]
    )
    return text


def build_ppcg(name: str, option: str, scratch: Path, arch: str) -> Path | str:
    """PPCG's code of kernel ``name`` under ``option`` built (its executable), or why not."""
    source = Path(KERNELS[name])
    stem = source.stem  # PPCG's files are named by PolyBench's
    folder = scratch / option / stem
    folder.mkdir(parents=True, exist_ok=True)
    kept = PPCG / option
    host = folder / f"{stem}_host.cu"
    host.write_text(instrumented((kept / f"{stem}_host.cu").read_text()))
    for suffix in ("_kernel.cu", "_kernel.hu"):
        shutil.copy(kept / f"{stem}{suffix}", folder / f"{stem}{suffix}")
    exe = folder / stem
    command = [
        shutil.which("nvcc") or "nvcc",
        "-O3",
        f"-arch={arch}",
        "-w",
        "-DLARGE_DATASET",
        "-DPOLYBENCH_TIME",
        "-I",
        str(POLYBENCH / "utilities"),
        "-I",
        str(POLYBENCH / source.parent),
        str(host),
        str(folder / f"{stem}_kernel.cu"),
        str(POLYBENCH / "utilities" / "polybench.c"),
        "-o",
        str(exe),
        "-lm",
    ]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    return exe if proc.returncode == 0 else proc.stderr.strip()[-1500:]


def run_ppcg(exe: Path, env: dict, calls: int = CALLS) -> dict:
    """One run of PPCG's program: the best of its calls' whole time and kernels' time (ms)."""
    try:
        proc = subprocess.run(
            [str(exe)],
            capture_output=True,
            text=True,
            timeout=60 + 60 * calls,
            env={**env, "CUDA_MODULE_LOADING": "EAGER", "ORCU_BENCH_CALLS": str(calls)},
        )
    except subprocess.TimeoutExpired as e:
        return {"error": f"over {e.timeout:.0f} s"}
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip()[-800:]}
    whole = [1000 * float(x) for x in proc.stdout.split()]
    kernels = [float(x) for x in re.findall(r"orcu-bench kernels_ms (\S+)", proc.stderr)]
    return {
        "whole_ms": min(whole) if whole else None,
        "kernels_ms": min(kernels) if kernels else None,
        "calls": len(whole),
    }


def ppcg_side(run, done: dict, names: list[str]) -> None:
    """Every kernel under every option built side by side, then run one at a time, each
    kernel's row saved as it finishes (``done["ppcg"]``)."""
    arch = "sm_90" if run.dry else "native"
    jobs = [(n, o) for n in names if n not in done["ppcg"] for o in ONE_CALL.get(n, OPTIONS)]
    with ThreadPoolExecutor(max_workers=16) as pool:
        built = dict(zip(jobs, pool.map(lambda j: build_ppcg(j[0], j[1], run.scratch / "ppcg", arch), jobs)))
    for name in dict.fromkeys(n for n, _ in jobs):
        row: dict = {}
        for option in ONE_CALL.get(name, OPTIONS):
            exe = built[name, option]
            if not isinstance(exe, Path):
                row[option] = {"error": exe}
            elif run.dry:
                row[option] = {"built": True}
            else:
                row[option] = run_ppcg(exe, run.env, 1 if name in ONE_CALL else CALLS)
        timed = [(v["kernels_ms"], o) for o, v in row.items() if v.get("kernels_ms")]
        if timed:
            row["best"] = min(timed)[1]
        done["ppcg"][name] = row
        run.save("polybench.json", done)
        print(f"polybench: PPCG's {name}: {row}", flush=True)


def large(name: str) -> tuple[Path, dict[str, int], int]:
    """orcu's scop file of kernel ``name``, PolyBench's LARGE sizes of its input parameters and
    its number of loops tuned apart (each gets its share of a tune's budget)."""
    from orcu.planning.program import load

    path = _scop_file(name)
    program = load(path)
    sizes = _sizes(POLYBENCH, KERNELS[name], "LARGE")
    return path, {p.name: sizes[p.name] for p in program.spec.input_params if p.name in sizes}, len(program.nests)


def orcu_side(run, name: str, budget_per_loop: int) -> dict:
    """orcu tuned on the run's backend at LARGE: each loop's best, and the region as the tuned file runs it."""
    path, sizes, loops = large(name)
    if run.dry:  # the emulation runs the same path at the spec's own sizes
        sizes = {}
    start = time.perf_counter()
    code, summary, stderr = run.tune(
        path, sizes, budget_per_loop * loops, run.scratch / f"{Path(name).stem}.tuned.cu", extra=("--search", "TSG")
    )
    row: dict = {"exit": code, "seconds": round(time.perf_counter() - start, 1), "inputs": sizes}
    if code != 0 or not summary:
        row["stderr"] = stderr
        return row
    regions = summary["regions"]
    row["loops"] = [
        {
            "name": r["name"],
            "statuses": r["statuses"],
            "params": r["best"]["params"] if r["best"] else None,
            "kernel_ms": r["best"]["kernel_ms"] if r["best"] else None,
            "total_ms": r["best"]["total_ms"] if r["best"] else None,
        }
        for r in regions
    ]
    together = summary.get("together")
    if together:
        row["kernels_ms"] = sum(t["kernel_ms"] for t in together)
        row["whole_ms"] = sum(t["total_ms"] for t in together)
    elif len(regions) == 1 and regions[0]["best"]:
        row["kernels_ms"], row["whole_ms"] = regions[0]["best"]["kernel_ms"], regions[0]["best"]["total_ms"]
    return row


def ratios(done: dict) -> dict:
    """PPCG's best time over orcu's per scop (> 1: orcu faster), kernels alone and whole, and
    their geometric means over the scops measured on both sides."""
    rows = {}
    for name, ours in done["orcu"].items():
        theirs = done["ppcg"].get(name, {})
        best = theirs.get(theirs.get("best", ""), {})
        row = {}
        for what in ("kernels_ms", "whole_ms"):
            if ours.get(what) and best.get(what):
                row[what.replace("_ms", "")] = round(best[what] / ours[what], 3)
        rows[name] = row
    means = {}
    for what in ("kernels", "whole"):
        values = [r[what] for r in rows.values() if what in r]
        if values:
            means[what] = {
                "geomean": round(math.exp(sum(map(math.log, values)) / len(values)), 3),
                "scops": len(values),
                "slower_than_ppcg": sorted(n for n, r in rows.items() if r.get(what, 1) < 1),
            }
    return {"per_scop": rows, "means": means}


def step(run, budget_per_loop: int = 6) -> bool:
    done = run.load("polybench.json", {"facts": run.facts, "dataset": "LARGE", "ppcg": {}, "orcu": {}})
    names = sorted(run.scops or KERNELS, key=lambda n: (REFERENCE_S.get(n, 0), n))
    ppcg_side(run, done, names)
    for name in names:
        if name in done["orcu"]:
            continue
        done["orcu"][name] = orcu_side(run, name, budget_per_loop)
        done.update(ratios(done))
        run.save("polybench.json", done)
        row = done["orcu"][name]
        print(f"polybench {name}: exit {row['exit']}, {row['seconds']} s, {done['per_scop'][name]}", flush=True)
    return all(r["exit"] == 0 for r in done["orcu"].values()) and all(
        "error" not in v for row in done["ppcg"].values() for v in row.values() if isinstance(v, dict)
    )
