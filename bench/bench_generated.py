"""The generated code itself: what a call moves and allocates, what the PTX holds, and (on a
GPU) how fast the kernels run.

Run: python3 bench/bench_generated.py [--record]   (--record appends to bench/results/generated.json)

1. Per call, under orcu's CPU emulation (any machine): device and pinned allocations, streams
   created, copies and bytes between host and device, for one configuration of each example,
   from the emulation's counters: the first call, and each later one.
2. PTX for sm_90 (any machine with nvcc): global loads and stores by width in each kernel,
   warp shuffles with a constant full mask, and ptxas's registers and spills.
3. On a GPU (when one is visible): kernel time and bandwidth of axpy and DIA SpMV, vectorize
   off and on, with the kernel timed by CUDA events as the tuner does.
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
from dataclasses import replace
from datetime import date
from pathlib import Path
from types import MappingProxyType

from orcu.device import gpu_visible, profile
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.query import query
from orcu.execution.runners import Runner, build_item
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import input_space
from orcu.spec.model import Arg

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"
# One configuration per example region (the first input size); streams where the example has them.
CASES = {
    "axpy.c": {"TC": 256, "BC": 264, "SC": 1, "PL": 48},
    "axpy.c streams": {"TC": 256, "BC": 264, "SC": 4, "PL": 48},
    "dot.c": {"TC": 256, "BC": 528, "CB": False},
    "multi_axpy.c": {"TC": 256, "BC": 264, "UIF": 1},
    "norm2.c": {"TC": 256, "BC": 264},
    "spmv_dia.c": {"TC": 128, "BC": 264, "UIF": 1, "PL": 48, "CFLAGS": ""},
    "two_regions.c": {"TC1": 256, "BC1": 132, "TC2": 256, "BC2": 132},
}
_COUNTERS = re.compile(r"orcu emulation counters: (\{.*\})")


def _counters(program, region: int, params: dict, inputs: dict, runner: Runner) -> dict:
    [(exe, which, build)] = runner._build_batch(
        program, region, [build_item(program, region, 0, params, inputs, "emulate")], None
    )
    assert build.ok, build.message
    run = subprocess.run(
        [exe.path, str(which)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, ORCU_EMULATION_COUNTERS="1", ORCU_EMULATION_SEED="1"),
    )
    if run.returncode != 0 or '"status": "ok"' not in run.stdout:
        raise RuntimeError((run.stdout + run.stderr).strip().splitlines()[0])
    return json.loads(_COUNTERS.search(run.stderr).group(1))


def per_call(example: str, params: dict) -> dict:
    """The emulation's counters for the first call of the tuned code and for each later call
    (the harness calls it 2 + repetitions times: run twice with 1 and 5 repetitions, the
    difference is 4 later calls). The largest input size of the example; every region."""
    program = load(EXAMPLES / example.split()[0])
    inputs = list(input_space(program).configs())[-1] if program.spec.input_params else {}
    first: dict[str, float] = {}
    later: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner("emulate", profile("H100"), Path(tmp), jobs=1)
        for region in range(len(program.nests)):
            runs = {}
            for repetitions in (1, 5):
                counter = {**program.spec.performance_counter, "repetitions": Arg("repetitions", repetitions, None)}
                variant = replace(program, spec=replace(program.spec, performance_counter=MappingProxyType(counter)))
                runs[repetitions] = _counters(variant, region, params, inputs, runner)
            for key in runs[1]:
                each = (runs[5][key] - runs[1][key]) / 4
                later[key] = later.get(key, 0) + each
                first[key] = first.get(key, 0) + runs[1][key] - 2 * each
    return {"inputs": inputs, "first": first, "later": later}


def ptx_figures(path: Path, params: dict) -> dict:
    """Global memory instructions by width, full-mask shuffles, registers and spills of the kernels."""
    program = load(path)
    inputs = next(iter(input_space(program).configs()), {})
    text, _ = tuned_source(program, [Choice(params, inputs)] * len(program.nests))
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "tuned.cu"
        source.write_text(text)
        ptx = subprocess.run(
            [nvcc(), "-ptx", "-arch=sm_90", str(source), "-o", str(Path(tmp) / "t.ptx")], capture_output=True, text=True
        )
        assert ptx.returncode == 0, ptx.stderr
        code = (Path(tmp) / "t.ptx").read_text()
        cubin = subprocess.run(
            [nvcc(), "-cubin", "-arch=sm_90", "-Xptxas", "-v", str(source), "-o", str(Path(tmp) / "t.cubin")],
            capture_output=True,
            text=True,
        )
    # The 32-bit instantiations (I i E, I j E in the mangled names): the 64-bit ones are the same
    # code for calls too large for 32 bits.
    kernels = re.findall(r"(\.entry (\w+)\(.*?\n\})", code, re.S)
    narrow = [k for k, name in kernels if "IiE" in name or "IjE" in name] or [k for k, _ in kernels]
    body = "\n".join(narrow)
    loads = re.findall(r"ld\.global(?:\.nc)?((?:\.v[24])?)\.([a-z]\d+)", body)
    stores = re.findall(r"st\.global((?:\.v[24])?)\.([a-z]\d+)", body)
    constants = set(re.findall(r"mov\.[bu]32\s+(%r\d+), -?\d+;", body))
    shuffles = re.findall(r"shfl\.sync\.\w+\.b32\s+[^;]*, (%r\d+);", body)
    usage = re.findall(r"Used (\d+) registers.*", cubin.stderr)
    spills = [int(s) for s in re.findall(r"(\d+) bytes spill stores", cubin.stderr)]
    width = lambda ops: {f"{v or '.v1'}.{t}": sum(1 for o in ops if o == (v, t)) for v, t in sorted(set(ops))}
    return {
        "kernels": len(narrow),
        "global_loads": width(loads),
        "global_stores": width(stores),
        "shuffles": len(shuffles),
        "shuffles_with_constant_masks": sum(1 for mask in shuffles if mask in constants),
        "registers": sorted({int(u) for u in usage}),
        "spill_bytes": max(spills, default=0),
    }


def _vectorized(example: str, directory: Path) -> Path:
    """A copy of an example whose region asks for vectorize=True."""
    path = directory / example
    path.write_text((EXAMPLES / example).read_text().replace("preferL1Size=PL)", "preferL1Size=PL, vectorize=True)"))
    return path


def gpu_rows() -> list[dict]:
    """Kernel time (median of the harness's samples) and bandwidth on the visible GPU."""
    device = query()
    axpy = {"TC": 256, "BC": 4 * device.multiprocessors, "SC": 1, "PL": 48}
    spmv = {"TC": 128, "BC": 4 * device.multiprocessors, "UIF": 1, "PL": 48, "CFLAGS": ""}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner("cuda", device, Path(tmp), jobs=os.cpu_count())
        cases = [
            ("axpy.c", False, EXAMPLES / "axpy.c", axpy, lambda s: 3 * 8 * s["n"]),
            ("axpy.c", True, _vectorized("axpy.c", Path(tmp)), axpy, lambda s: 3 * 8 * s["n"]),
            # A, x, y read and y written: (nos + 3) doubles per row, and the offsets
            (
                "spmv_dia.c",
                False,
                EXAMPLES / "spmv_dia.c",
                spmv,
                lambda s: 8 * s["m"] * s["n"] * (s["nos"] + 3) + 4 * s["nos"],
            ),
        ]
        for example, vectorize, path, params, moved in cases:
            program = load(path, device=device)
            for inputs in input_space(program).configs():
                result = next(runner.evaluate(program, 0, [(params, dict(inputs))]))
                ms = statistics.median(result.kernel_ms) if result.status == "ok" else None
                rows.append(
                    {
                        "example": example,
                        "inputs": dict(inputs),
                        "params": params,
                        "vectorize": vectorize,
                        "status": result.status,
                        "kernel_ms": ms,
                        "gb_per_s": round(moved(inputs) / ms / 1e6, 1) if ms else None,
                    }
                )
                print(
                    f"{example:<12} {json.dumps(dict(inputs)):<48} vectorize={vectorize!s:<5} "
                    f"{result.status:<8} {ms or 0:9.4f} ms {rows[-1]['gb_per_s'] or 0:8.1f} GB/s"
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    calls = {}
    print(
        "per call of the tuned code under the emulation (largest input size of each example): first call / each later call"
    )
    for name, params in CASES.items():
        try:
            calls[name] = per_call(name, params)
        except RuntimeError as failed:
            calls[name] = {"error": str(failed)}
            print(f"  {name:<16} failed: {failed}")
            continue
        first, later = calls[name]["first"], calls[name]["later"]
        print(
            f"  {name:<16} allocations {first['device_allocations']:g}+{first['pinned_allocations']:g} / {later['device_allocations']:g}+{later['pinned_allocations']:g}"
            f" (device+pinned), streams {first['streams_created']:g} / {later['streams_created']:g}, copies up {first['copies_to_device']:g} / {later['copies_to_device']:g},"
            f" down {first['copies_to_host']:g} / {later['copies_to_host']:g}, bytes up {later['bytes_to_device']:,.0f}, down {later['bytes_to_host']:,.0f}"
        )
    ptx = {}
    print("PTX for sm_90:")
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in (
            ("axpy.c", EXAMPLES / "axpy.c"),
            ("axpy.c vectorize", _vectorized("axpy.c", Path(tmp))),
            ("dot.c", EXAMPLES / "dot.c"),
            ("spmv_dia.c", EXAMPLES / "spmv_dia.c"),
        ):
            ptx[name] = ptx_figures(path, CASES[name.split()[0]])
            print(f"  {name:<16} {json.dumps(ptx[name])}")
    gpu = gpu_rows() if gpu_visible() else []
    if not gpu:
        print("no GPU visible: no kernel times")
    if args.record:
        path = ROOT / "bench" / "results" / "generated.json"
        runs = json.loads(path.read_text()) if path.exists() else []
        nvcc_version = (
            subprocess.run([nvcc(), "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        )
        runs.append(
            {
                "date": date.today().isoformat(),
                "machine": f"{platform.machine()}, Python {platform.python_version()}",
                "nvcc": nvcc_version,
                "gpu": query().name if gpu else None,
                "per_call_emulated": calls,
                "ptx_sm_90": ptx,
                "gpu_kernels": gpu,
            }
        )
        path.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
