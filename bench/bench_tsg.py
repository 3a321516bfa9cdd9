"""The TSG's mappings against Orio's: what a warp's memory requests cost, and (on a GPU) time.

Run: python3 bench/bench_tsg.py [--record]   (--record appends to bench/results/tsg.json)

1. Static, from the schedule and the subscripts (any machine): for gemm 1024, gemv 4096 and
   transposed gemv 4096, each global access of the nest as the first warp of the first block
   issues it (32 consecutive threads; in a 2-D block, x varies fastest), with every loop not
   mapped to threads at its first iteration: the 32-byte sectors it touches (the
   transactions of one request), and the bytes it moves for each byte the threads use. The
   accesses in the deepest loop that move with the innermost loop a thread runs are the ones
   issued most (the others run less often or stay in a register): their mean is the figure.
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

from orcu.analysis.affine import Poly, poly_of
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.device import gpu_visible, profile, query
from orcu.frontend.ir import statements
from orcu.program import load
from orcu.runners import Runner
from orcu.space import performance_space
from orcu.toolchain import nvcc
from orcu.tsg.schedule import Schedule, block_shape, orio_schedule

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"
SECTOR = 32  # bytes: the unit of a global-memory transaction
WARP = 32
ORIO_THREADS = 128
# kernel -> (example, input sizes, the TSG configuration: its first kept schedule and block,
# Phase II's placements off; then the placements timed as well on a GPU)
CASES = {
    "gemm": ("dgemm.c", {"n": 1024}, {"TI": 8, "TJ": 32}),
    "gemv": ("gemv.c", {"n": 4096, "m": 4096}, {"TC": 128}),
    "gemv_t": ("gemv_t.c", {"n": 4096, "m": 4096}, {"TC": 128}),
}
PLACED = {
    "gemm": {"TI": 8, "TJ": 32, "registers_i_1": 4, "registers_j_1": 4, "shared_A_1": True, "shared_B_1": True,
             "sharedDepth_1": 16},
    "gemv_t": {"TC": 128, "registers_j_1": 2, "shared_x_1": True, "sharedDepth_1": 32},
}
# Orio cannot map the transposed gemv as written (its outer loop carries the reduction into
# y[j]): an Orio user swaps the loops by hand, and that is what Orio's figures are for.
ORIO_EDITS = {"gemv_t.c": ("for (i = 0; i < n; i++)\n        for (j = 0; j < m; j++)",
                           "for (j = 0; j < m; j++)\n        for (i = 0; i < n; i++)")}
GPU_SIZES = {"gemm": [{"n": 1024}, {"n": 2048}], "gemv": [{"n": 4096, "m": 4096}, {"n": 8192, "m": 8192}],
             "gemv_t": [{"n": 4096, "m": 4096}, {"n": 8192, "m": 8192}]}
_TRANSFORM = re.compile(r"transform CUDA\([^)]*\)")


def _value(p: Poly, env: dict[str, int]) -> int:
    total = 0
    for monomial, coef in p.terms:
        term = coef
        for name in monomial:
            term *= env[name]
        total += term
    return total


def _tsg(program, params: dict, inputs: dict) -> tuple[Schedule, tuple[int, int], dict]:
    """The first kept schedule, its block and the whole configuration: ``params``, the
    others at their first valid values (no register or shared tiles)."""
    nest = program.nests[0]
    schedule = nest.recipe.kept[0]
    config = performance_space(program, dict(inputs)).first_matching({**params, "mapping_1": schedule.name})
    values = nest.transform.values(config)
    return schedule, block_shape(schedule, values["threadCount"], values["tile"]), config


def warp_requests(program, schedule: Schedule, block: tuple[int, int], inputs: dict) -> list[dict]:
    """Each access of the nest (once per text): sectors the first warp touches in one request,
    bytes moved per byte used, and whether it streams: whether it sits in the deepest loop and
    moves with the innermost loop a thread runs there (one the launch does not cover); the
    others run less often, or stay in a register."""
    nest = program.nests[0]
    rows = {}
    deepest = max(len(loops) for _, loops in statements(nest.body))
    for st, loops in statements(nest.body):
        own = [lp for lp in loops if not (lp is loops[0] if schedule.orio else schedule.dim(lp.var) and not schedule.dim(lp.var).threads_only)]
        threads = []
        for rank in range(WARP):
            tx, ty = rank % block[0], rank // block[0]
            env = dict(inputs)
            for lp in loops:
                start = _value(poly_of(lp.lower), env)
                dim = schedule.dim(lp.var)
                offset = (rank if schedule.orio else tx if dim.axis == "x" else ty) if dim is not None else 0
                env[lp.var] = start + offset * lp.step
            threads.append(env)
        for access in st.accesses:
            element = ELEMENT_BYTES[canonical_type(nest.variables[access.array].ctype.base)]
            [subscript] = access.subscripts  # the examples index flat, row-major arrays
            addresses = [_value(poly_of(subscript), env) * element for env in threads]
            sectors = {a // SECTOR for a in addresses}
            rows.setdefault(access.text, {
                "access": access.text, "streams": len(loops) == deepest and (not own or own[-1].var in poly_of(subscript).names),
                "sectors": len(sectors), "moved_per_used": round(len(sectors) * SECTOR / (len(set(addresses)) * element), 2)})
    return list(rows.values())


def static_rows(directory: Path) -> dict:
    out = {}
    for kernel, (example, inputs, params) in CASES.items():
        program = load(EXAMPLES / example)
        schedule, block, _ = _tsg(program, params, inputs)
        orio = load(_orio_copy(example, directory))
        out[kernel] = {"inputs": inputs}
        for name, (p, s, b) in (("orio", (orio, orio_schedule(orio.nests[0].body[0].var), (ORIO_THREADS, 1))),
                                ("tsg", (program, schedule, block))):
            rows = warp_requests(p, s, b, inputs)
            streams = [r for r in rows if r["streams"]]
            out[kernel][name] = {"schedule": s.name, "block": list(b), "accesses": rows,
                                 "sectors_per_request": round(statistics.mean(r["sectors"] for r in streams), 2),
                                 "moved_per_used": round(statistics.mean(r["moved_per_used"] for r in streams), 2)}
        o, t = out[kernel]["orio"], out[kernel]["tsg"]
        print(f"{kernel:<7} {json.dumps(inputs):<26} orio ({o['schedule']}, {o['block'][0]}x{o['block'][1]}): "
              f"{o['sectors_per_request']:5.2f} sectors/request, {o['moved_per_used']:4.2f} B moved/B used   tsg ({t['schedule']}, {t['block'][0]}x{t['block'][1]}): "
              f"{t['sectors_per_request']:5.2f}, {t['moved_per_used']:4.2f}")
        tsg_rows = {r["access"]: r for r in t["accesses"]}
        for r_o in o["accesses"]:
            r_t = tsg_rows[r_o["access"]]
            print(f"    {r_o['access']:<20} {'*' if r_o['streams'] else ' '} {r_o['sectors']:3d} sectors ({r_o['moved_per_used']:5.2f} B moved/B used)"
                  f"   {'*' if r_t['streams'] else ' '} {r_t['sectors']:3d} sectors ({r_t['moved_per_used']:5.2f})")
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
                if kernel in PLACED:
                    variants.append(("tsg_placed", tsg_program, _tsg(tsg_program, PLACED[kernel], inputs)[2]))
                times = {}
                for name, program, p in variants:
                    result = next(runner.evaluate(program, 0, [(p, dict(inputs))]))
                    times[name] = statistics.median(result.kernel_ms) if result.status == "ok" else result.status
                best = min((t for k, t in times.items() if k != "orio" and isinstance(t, float)), default=None)
                speedup = times["orio"] / best if isinstance(times["orio"], float) and best else None
                rows.append({"kernel": kernel, "inputs": inputs, "tsg_block": list(block), **{f"{k}_ms": v for k, v in times.items()},
                             "speedup": round(speedup, 2) if speedup else None})
                print(f"{kernel:<7} {json.dumps(inputs):<26} " + "   ".join(f"{k} {t} ms" for k, t in times.items())
                      + f"   speed-up of the TSG's best {rows[-1]['speedup']}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--emulate", action="store_true", help="time small sizes under the emulation (checks the plumbing; CPU times)")
    args = parser.parse_args()
    print("sectors a warp's request touches (mean over the accesses that stream, marked *), Orio's mapping and the TSG's:")
    with tempfile.TemporaryDirectory() as tmp:
        static = static_rows(Path(tmp))
    timed = []
    if gpu_visible():
        timed = timed_rows("cuda", GPU_SIZES)
    elif args.emulate:
        timed = timed_rows("emulate", {"gemm": [{"n": 48}], "gemv": [{"n": 96, "m": 80}], "gemv_t": [{"n": 96, "m": 80}]})
    else:
        print("no GPU visible: no kernel times")
    if args.record:
        path = ROOT / "bench" / "results" / "tsg.json"
        runs = json.loads(path.read_text()) if path.exists() else []
        nvcc_version = subprocess.run([nvcc(), "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        gpu = query() if gpu_visible() else None
        runs.append({"date": date.today().isoformat(), "machine": f"{platform.machine()}, Python {platform.python_version()}",
                     "nvcc": nvcc_version, "gpu": gpu.name if gpu else None, "static": static,
                     "kernel_times": timed if gpu else []})
        path.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
