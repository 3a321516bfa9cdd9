"""The best generated code against the roofline: per kernel, the configuration orcu's model
ranks first at a production size, its predicted time as a share of the roofline's bound, and
the instruction mix of its inner loop in the PTX nvcc writes for sm_90.

Run: python3 bench/bench_roofline.py [--record] [--kernels sgemm ...]
(--record appends to bench/results/roofline.json, with the commit, so that a change's
figures stand beside those before it.)

Every configuration of the kernel's space is predicted from its static traffic; the TOP best
of those are compiled and predicted again with what ptxas reports (registers, hence
occupancy), and the best of them is the kernel's. Its inner loop is the PTX loop that runs the
most multiply-adds itself (inner_loop): how many of them per shared-memory load (a warp's shared
loads and its FMAs share the multiprocessor's issue slots: an outer-product register tile is
what lifts the ratio), and how many global loads its fills issue (or asynchronous copies, double-buffered).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from recording import RESULTS, append

from orcu.codegen.region import generate
from orcu.device import profile
from orcu.driver.tuning import region_configs
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.metrics import work
from orcu.execution.model import of_variant, peak_rates
from orcu.execution.runners import min_blocks_to_try
from orcu.execution.toolchain import kernel_instances, nvcc, ptxas_report
from orcu.planning.program import load

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"
H100 = profile("H100")
# the same GPU under a name no fit has: orcu's constants alone (orcu ships a fit of the H100's
# measured times; a goal judged on the model must not be met by the fit)
CONSTANTS = replace(H100, name=f"{H100.name} (orcu's constants)")
RECORD = RESULTS / "roofline.json"
TOP = 12  # configurations compiled for ptxas's figures, of the best the static prediction finds
# kernel -> (example, a production size)
KERNELS = {
    "sgemm": ("sgemm.c", {"n": 4096}),
    "dgemm": ("dgemm.c", {"n": 4096}),
    "sgemm_tf32": ("sgemm_tf32.c", {"n": 4096}),  # sgemm.c with allowReducedPrecision: the TF32 tensor cores
    # the same spaces with doubleBuffer=True: a strip's tiles in two buffers (not in the TSG's own space)
    "gemv_t": ("gemv_t.c", {"n": 8192, "m": 8192}),
    "jacobi2d": ("jacobi2d.c", {"n": 8192}),
    "conv2d": ("conv2d.c", {"n": 4096, "m": 4096, "k": 5}),
}
# On a GPU (--gpu): the size each kernel is timed at, every run checked against the C code on
# the CPU (its naive GEMM walks B's columns, a cache miss a multiply-add: at 2048 the first
# variant's check, float and double, had not ended after the 200 s the run of 2026-11-27 had), and
# the vendor's case there
TIMED = {
    "sgemm": ({"n": 1024}, ["sgemm", 1024]),
    "dgemm": ({"n": 1024}, ["dgemm", 1024]),
    "sgemm_tf32": ({"n": 1024}, ["sgemm_tf32", 1024]),
    "gemv_t": ({"n": 8192, "m": 8192}, ["dgemv_t", 8192, 8192]),
    "jacobi2d": ({"n": 8192}, None),
    "conv2d": ({"n": 4096, "m": 4096, "k": 5}, None),
}
_LABEL = re.compile(r"^(\$L__BB\d+_\d+):", re.M)
_BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);")
_COUNTED = {
    "fma": re.compile(r"\bfma\.rn\.f(32|64)\b"),
    # the tensor cores' (tensorCores): FP64 m8n8k4, 256 multiply-adds (8 a lane); TF32 m16n8k4, 512 (16 a lane)
    "mma": re.compile(r"\bmma\.sync\.aligned\.m8n8k4\b"),
    "mma_tf32": re.compile(r"\bmma\.sync\.aligned\.m16n8k4\b"),
    "shared_loads": re.compile(r"\bld\.shared\."),
    "shared_vector_loads": re.compile(r"\bld\.shared\.v[24]\."),
    "global_loads": re.compile(r"\bld\.global\."),
    "async_copies": re.compile(r"\bcp\.async\.c[ag]\."),  # a double-buffered fill's: global to shared, no register
    "barriers": re.compile(r"\bbar\.sync\b"),
}


def inner_loop(ptx: str) -> dict[str, int]:
    """The instruction counts of the PTX loop that runs the most multiply-adds itself: a loop
    runs from a label to the last branch back to it, and what loops inside it run is not its own
    (a GEMM's strip loop holds its fills and its edge's loop, its own body the unrolled strip).
    The whole text's counts where there is no loop."""
    labels = {m.group(1): m.start() for m in _LABEL.finditer(ptx)}
    loops = {}
    for m in _BRANCH.finditer(ptx):
        start = labels.get(m.group(1))
        if start is not None and start < m.start():
            loops[start] = max(loops.get(start, 0), m.end())
    bodies = []
    for a, b in loops.items():
        inside = sorted((c, d) for c, d in loops.items() if a < c and d <= b)
        own, at = [], a
        for c, d in inside:
            if c >= at:
                own.append(ptx[at:c])
                at = d
        bodies.append("".join(own) + ptx[at:b])
    counts = [{name: len(rx.findall(body)) for name, rx in _COUNTED.items()} for body in bodies or [ptx]]
    return max(counts, key=_lane_multiply_adds)


def _lane_multiply_adds(counts: dict[str, int]) -> int:
    """A lane's multiply-adds in instruction counts: its FMAs and its share of the warps' mma.sync."""
    return counts["fma"] + 8 * counts["mma"] + 16 * counts["mma_tf32"]


def _compiled(text: str, host: str, directory: Path) -> tuple[object, list, str]:
    """ptxas's figures of the kernel of ``host`` in the tuned file ``text``: its 32-bit instance's
    (None without a report) and every instance's (a tune judges spills on both, as here), and the
    file's PTX."""
    source = directory / "tuned.cu"
    source.write_text(text)
    found = ptxas_report(source, H100.arch)
    subprocess.run(
        [nvcc(), "-ptx", "-arch=sm_90", "-O3", str(source), "-o", str(directory / "tuned.ptx")],
        check=True,
        capture_output=True,
        text=True,
    )
    instances = [] if isinstance(found, str) else list(kernel_instances(found, host).values())
    return next(iter(instances), None), instances, (directory / "tuned.ptx").read_text()


def _spills(instances: list) -> bool:
    return any(r.local_bytes for r in instances)


def example_program(kernel: str, device):
    """The kernel's example loaded for ``device`` (the rows ``sgemm_2buf`` and ``dgemm_2buf`` of
    the history, doubleBuffer=True added, are the ``sgemm`` and ``dgemm`` rows' code since two
    buffers became the default, 2fad510)."""
    return load(EXAMPLES / KERNELS[kernel][0], device=device)


def best(kernel: str) -> dict:
    return _best(kernel, example_program(kernel, H100))


def _best(kernel: str, program) -> dict:
    _, inputs = KERNELS[kernel]
    configs = region_configs(program, 0, dict(inputs), H100)  # those the device can run, as a tune offers them
    predicted = []
    for k, config in enumerate(configs):
        code = generate(program, program.nests[0], config, inputs)
        prediction = of_variant(program, 0, code.traffic(H100.multiprocessors), inputs, H100)
        if prediction is not None:
            predicted.append((prediction.ms, k))
    top = [configs[k] for _, k in sorted(predicted)[:TOP]]

    def with_ptxas(config: dict) -> dict:
        code = generate(program, program.nests[0], config, inputs)
        text, _ = tuned_source(program, [Choice(config, inputs)])
        with tempfile.TemporaryDirectory() as tmp:
            resources, instances, ptx = _compiled(text, code.host, Path(tmp))
            setting = program.nests[0].recipe.min_blocks
            if _spills(instances) and setting:
                # as a tune builds it (orcu/execution/runners.py): with the minBlocks that end ptxas's spills
                for blocks in min_blocks_to_try(instances, code.threads, H100):
                    text, _ = tuned_source(program, [Choice({**config, setting: blocks}, inputs)])
                    resources, instances, ptx = _compiled(text, code.host, Path(tmp))
                    config = {**config, setting: blocks}
                    if not _spills(instances):
                        break
        traffic = code.traffic(H100.multiprocessors)
        return {
            "config": config,
            "resources": resources,
            "spilled": _spills(instances),
            "mix": inner_loop(ptx),
            "prediction": of_variant(program, 0, traffic, inputs, H100, resources),
            "constants": of_variant(program, 0, traffic, inputs, CONSTANTS, resources),
        }

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        # a tile ptxas spills is not kept (orcu/execution/runners.py): nor is it here
        kept = [r for r in pool.map(with_ptxas, top) if r["resources"] is not None and not r["spilled"]]
    chosen = min(kept, key=lambda r: r["prediction"].ms)
    resources, mix, ms, constants = chosen["resources"], chosen["mix"], chosen["prediction"].ms, chosen["constants"].ms
    done = work(program, 0, inputs)
    bytes_per_s, ops_per_s = peak_rates(H100, done.element_bytes)
    bound_ms = max(done.flops / ops_per_s, done.bytes / bytes_per_s) * 1e3
    return {
        "kernel": kernel,
        "inputs": inputs,
        "configurations": len(configs),
        "config": chosen["config"],
        "predicted_ms": round(ms, 5),
        "bound": chosen["prediction"].bound,
        "roofline_ms": round(bound_ms, 5),
        "share_of_roofline": round(bound_ms / ms, 3),
        "constants_ms": round(constants, 5),
        "constants_share": round(bound_ms / constants, 3),
        "registers": resources.registers,
        "spills": resources.spill_bytes,
        "inner_loop": mix,
        # a tensor-core instruction's multiply-adds are a warp's, its shared loads a lane's
        "fma_per_shared_load": round(_lane_multiply_adds(mix) / mix["shared_loads"], 2)
        if mix["shared_loads"]
        else None,
    }


def timed(kernels: list[str], recorded_only: bool = False, at: dict | None = None) -> list[dict]:
    """On this machine's GPU: each kernel's best configuration of every recorded run (so the
    code before a change beside the code after it), and the model's best now where the code
    changed since the last record (unless ``recorded_only``: the search takes minutes a kernel,
    device time a run with few minutes lent cannot spare), timed at the kernel's TIMED size (or
    ``at``'s) beside the vendor's library; the model's prediction at that size too."""
    from gpu_all import vendor_program

    from orcu.execution.query import query
    from orcu.execution.runners import Runner

    device = query()
    recorded = json.loads(RECORD.read_text()) if RECORD.exists() else []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = vendor_program(Path(tmp))
        runner = Runner("cuda", device, Path(tmp) / "runs", jobs=os.cpu_count())
        for kernel in kernels:
            inputs, case = TIMED[kernel]
            if at:  # other sizes (``--at n=2048``): the vendor's case is given the kernel's sizes in order
                inputs = {name: at.get(name, value) for name, value in inputs.items()}
                case = case and [case[0], *inputs.values()]
            program = example_program(kernel, device)
            configs = {}
            for run in recorded:
                for row in run["kernels"]:
                    if row["kernel"] == kernel:
                        configs.setdefault(json.dumps(row["config"], sort_keys=True), []).append(run.get("commit", "?"))
            if not recorded_only and (
                not recorded or recorded[-1].get("code") != _code()
            ):  # orcu has changed since the last record
                configs.setdefault(json.dumps(best(kernel)["config"], sort_keys=True), []).append("now")
            print(
                f"{kernel}: {len(configs)} configuration(s) at {json.dumps(inputs)}, each checked against the C code first",
                flush=True,
            )  # a run cut off still says how far it came
            results = runner.evaluate(program, 0, [(json.loads(c), dict(inputs)) for c in configs])
            vendor = None
            if case and isinstance(exe, Path):
                proc = subprocess.run([str(exe), *map(str, case)], capture_output=True, text=True)
                vendor = json.loads(proc.stdout)["ms"] if proc.returncode == 0 else proc.stderr[-300:]
            for (text, commits), result in zip(configs.items(), results):
                config = json.loads(text)
                code = generate(program, program.nests[0], config, inputs)
                prediction = of_variant(
                    program, 0, code.traffic(device.multiprocessors), inputs, device, result.resources
                )
                ms = statistics.median(result.kernel_ms) if result.status == "ok" else None
                row = {
                    "kernel": kernel,
                    "inputs": inputs,
                    "config": config,
                    "best_at": commits,
                    "status": result.status,
                    "kernel_ms": ms,
                    "predicted_ms": round(prediction.ms, 5) if prediction else None,
                    "vendor_ms": vendor,
                    "vendor_over_orcu": round(vendor / ms, 3) if ms and isinstance(vendor, float) else None,
                }
                if result.status != "ok":
                    row["message"] = result.message[:300]
                rows.append(row)
                print(
                    f"{kernel:<9} {json.dumps(inputs):<28} best at {','.join(commits):<16} {result.status:<6} "
                    f"{ms} ms (predicted {row['predicted_ms']}), vendor {vendor} ms: {row['vendor_over_orcu']}",
                    flush=True,
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="append the figures to bench/results/roofline.json")
    parser.add_argument("--kernels", nargs="+", choices=sorted(KERNELS), default=list(KERNELS))
    parser.add_argument("--gpu", action="store_true", help="time the best configurations on this machine's GPU (TIMED)")
    parser.add_argument(
        "--recorded",
        action="store_true",
        help="with --gpu: time only the recorded runs' configurations, not the model's best now",
    )
    parser.add_argument(
        "--at",
        nargs="+",
        default=[],
        metavar="NAME=VALUE",
        help="with --gpu: time at these sizes instead of TIMED's (the CPU's check of each takes longer)",
    )
    args = parser.parse_args()
    if nvcc() is None:
        sys.exit("bench_roofline: nvcc is needed (the PTX and ptxas's figures)")
    if args.gpu:
        rows = timed(args.kernels, args.recorded, {k: int(v) for k, v in (a.split("=", 1) for a in args.at)})
        if args.record:
            from bench_model import gpu_facts

            append("roofline_gpu.json", {"commit": _commit(), **gpu_facts(), "kernels": rows})
        return
    rows = []
    for kernel in args.kernels:
        row = best(kernel)
        rows.append(row)
        mix = row["inner_loop"]
        print(
            f"{kernel:<10} {row['predicted_ms']:9.4g} ms predicted ({row['bound']}), roofline {row['roofline_ms']:.4g} ms: "
            f"{100 * row['share_of_roofline']:5.1f}% ({100 * row['constants_share']:.1f}% with orcu's constants)   inner loop: {mix['fma']} FMAs, {mix['shared_loads']} shared loads "
            f"({mix['shared_vector_loads']} vectors): {row['fma_per_shared_load']} FMAs a shared load, {mix['barriers']} barrier(s), "
            f"{mix['global_loads']} global loads, {mix['async_copies']} asynchronous copies; "
            f"{row['registers']} registers   {row['config']}",
            flush=True,
        )
    if args.record:
        append("roofline.json", {"commit": _commit(), "code": _code(), "device_profile": H100.name, "kernels": rows})


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def _commit() -> str:
    return _git("describe", "--always", "--dirty")


def _code() -> str:
    """The last commit that changed orcu's package or templates (what generates the code), and
    "+changes" where the working tree changes them."""
    return _git("log", "-1", "--format=%h", "--", "orcu", "templates") + (
        "+changes" if _git("status", "--porcelain", "--", "orcu", "templates") else ""
    )


if __name__ == "__main__":
    main()
