"""Evaluation throughput: building variants one per harness versus in batches.

Run: python3 bench/bench_evaluate.py [--record]   (--record appends to bench/results/evaluate.json)
Builds 16 configurations of spmv_dia.c (one input size) with nvcc (sm_90) and with g++ and
the emulation header, in harnesses of 1, 4, 8 and 16 variants, 2 builds in parallel.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

from orcu.device import profile
from orcu.driver.tuning import region_configs
from orcu.execution.runners import Runner, build_item
from orcu.planning.program import load
from orcu.planning.space import input_space

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = 16
JOBS = 2


def build_all(backend: str, batch: int) -> float:
    program = load(ROOT / "annotated_examples" / "spmv_dia.c")
    inputs = next(iter(input_space(program).configs()))
    configs = [c for c in region_configs(program, 0, inputs) if c["CFLAGS"].strip() == ""][:VARIANTS]
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(backend, profile("H100"), Path(tmp), jobs=JOBS)
        items = [build_item(program, 0, k, c, inputs, backend) for k, c in enumerate(configs)]
        batches = [items[i : i + batch] for i in range(0, len(items), batch)]
        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            results = list(pool.map(lambda b: runner._build_batch(program, 0, b, None), batches))
        elapsed = time.perf_counter() - start
    assert all(build.ok for r in results for _, _, build in r)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    rows = []
    for backend in ("cuda", "emulate"):
        for batch in (1, 4, 8, 16):
            seconds = build_all(backend, batch)
            rows.append(
                {
                    "backend": backend,
                    "batch": batch,
                    "variants": VARIANTS,
                    "seconds": round(seconds, 2),
                    "variants_per_s": round(VARIANTS / seconds, 2),
                }
            )
            print(
                f"{backend:<8} batch {batch:>2}: {VARIANTS} variants built in {seconds:6.2f} s ({VARIANTS / seconds:5.2f} per s)"
            )
    if args.record:
        path = ROOT / "bench" / "results" / "evaluate.json"
        runs = json.loads(path.read_text()) if path.exists() else []
        runs.append(
            {"date": date.today().isoformat(), "machine": f"{platform.machine()}, {JOBS} parallel builds", "rows": rows}
        )
        path.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    main()
