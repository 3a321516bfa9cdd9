"""Evaluations per minute of an emulated tune on this machine alone and on Dask clusters of 1, 2
and 4 local worker processes (orcu tune --cluster local:N).

Run: python3 bench/bench_cluster.py [--workers 1 2 4] [--budget N] [--measure model|kernel] [--record]
(--record appends to bench/results/cluster.json)
Each tune starts from scratch (a fresh results database and build folder, so every variant is
built and run; the emulation's runtime, kept under the temporary folder, is built before the
first timed tune) and spends its whole budget with Exhaustive over bench_pipeline.py's axpy.
The clusters' workers build and run; the tune's own process generates the code and keeps the
database. A cluster's start (its worker processes) is in its time: what a user waits for.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_pipeline import SOURCE
from recording import append


def tune_once(budget: int, cluster: str | None, measure: str = "model") -> float:
    """Wall seconds of one tune from scratch."""
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "t.c").write_text(SOURCE)
        command = [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            "t.c",
            "--backend",
            "emulate",
            "--search",
            "Exhaustive",
            "--budget",
            str(budget),
            "--measure",
            measure,
            "--json",
            "-o",
            "t.tuned.cu",
            *(["--cluster", cluster] if cluster else []),
        ]
        start = time.perf_counter()
        subprocess.run(
            command, cwd=tmp, env=dict(os.environ, ORCU_HOME=str(Path(tmp, "home"))), check=True, capture_output=True
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--budget", type=int, default=48)
    parser.add_argument(
        "--measure",
        choices=["model", "kernel"],
        default="model",
        help="model: each variant run once, checked (the emulation's default); kernel: checked and "
        "timed 5 times more, so that runs weigh as builds do",
    )
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    tune_once(4, None)  # untimed: warms the emulation's runtime and the compilers' files
    row = {"budget": args.budget, "measure": args.measure, "cpus": os.cpu_count()}
    for workers in [None, *args.workers]:
        wall = tune_once(args.budget, None if workers is None else f"local:{workers}", args.measure)
        name = "alone" if workers is None else f"local_{workers}"
        row[f"{name}_per_minute"] = round(60 * args.budget / wall, 1)
        print(
            f"{'this machine, one run at a time' if workers is None else f'--cluster local:{workers}'}: "
            f"{args.budget} variants in {wall:.1f} s, {row[f'{name}_per_minute']} per minute",
            flush=True,
        )
    if args.record:
        append("cluster.json", row)


if __name__ == "__main__":
    main()
