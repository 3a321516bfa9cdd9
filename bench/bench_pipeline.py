"""Evaluations per minute in `orcu tune` with the batches ahead built while a batch runs, and without.

Run: python3 bench/bench_pipeline.py [--budget N] [--jobs N] [--search NAME] [--record]
(--record appends to bench/results/pipeline.json)
Tunes one axpy in emulation (fresh build directory and results database each time, so every
variant is built and run) with the default strategy or NAME, first building nothing ahead (what
orcu did before: a strategy's batch is built, then run, then the next one is asked for),
then with the strategy's next batches (Strategy.ahead) built while the current one runs.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import time
from pathlib import Path

from bench_overhead import SOURCE as OVERHEAD_SOURCE
from recording import append

ROOT = Path(__file__).resolve().parent.parent

# bench_overhead.py's axpy, with stream counts as a third parameter and a larger vector, so
# that runs take a share of the time as they do on a GPU.
SOURCE = (
    OVERHEAD_SOURCE.replace(
        "param BC[] = [1, 2, 3, 4, 5, 6, 7, 8]; }", "param BC[] = [1, 2, 3, 4, 5, 6, 7, 8]; param SC[] = [1, 2, 4]; }"
    )
    .replace("param n[] = [1000]", "param n[] = [1000000]")
    .replace("blockCount=BC)", "blockCount=BC, streamCount=SC)")
)


def tune_once(pipeline: bool, budget: int, jobs: int, search: str) -> float:
    """Wall seconds of one tune from scratch (it spends its whole budget)."""
    from orcu.driver import tuning as module
    from orcu.driver.cli import main as orcu

    real = module.tune
    module.tune = functools.partial(real, pipeline=pipeline)  # the CLI looks it up when it tunes
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            Path("t.c").write_text(SOURCE)
            os.environ["ORCU_HOME"] = str(Path(tmp, "home"))
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (until the process ends)
            start = time.perf_counter()
            code = orcu(
                [
                    "tune",
                    "t.c",
                    "--backend",
                    "emulate",
                    "--search",
                    search,
                    "--budget",
                    str(budget),
                    "-j",
                    str(jobs),
                    "--json",
                    "-o",
                    "t.tuned.cu",
                ]
            )
            wall = time.perf_counter() - start
            sys.stdout = sys.__stdout__
            assert code == 0
            return wall
    finally:
        module.tune = real
        os.chdir(ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--search", help="the strategy (default: orcu.search.DEFAULT)")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    from orcu.search import DEFAULT

    row = {"strategy": args.search or DEFAULT, "budget": args.budget, "jobs": args.jobs}
    tune_once(False, 4, args.jobs, row["strategy"])  # untimed: the first tune also warms the compilers' files
    for pipeline in (False, True):
        wall = tune_once(pipeline, args.budget, args.jobs, row["strategy"])
        name = "ahead" if pipeline else "no_ahead"
        row[f"{name}_s"] = round(wall, 1)
        row[f"{name}_per_minute"] = round(60 * args.budget / wall, 1)
        print(
            f"{'batches ahead built' if pipeline else 'nothing built ahead'}: {args.budget} variants in {wall:.1f} s, "
            f"{row[f'{name}_per_minute']:.1f} per minute",
            flush=True,
        )
    print(f"speed-up: {row['no_ahead_s'] / row['ahead_s']:.2f}x")
    if args.record:
        append("pipeline.json", row)


if __name__ == "__main__":
    main()
