"""Emulated evaluations per second: how fast orcu checks variants without a GPU, as a tune
ranked by the performance model runs them (build, check, and the memory count where the
static figures cannot tell). Three kernels at real sizes: a BLAS-1 (axpy, 10^6 doubles), a
DIA sparse product (Orio's 7-point matVec3D at 128^3, bench/kernels/matvec3d.c) and a tiled
gemm (sgemm at n = 256, TSG placements).

    python3 bench/bench_emulation.py [--variants N] [--label TEXT] [--no-record]

Prints each kernel's evaluations, wall seconds and evaluations per second, and appends them
to bench/results/emulation.json with the day and the machine."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from recording import append

from orcu.device import profile
from orcu.driver.tuning import region_space
from orcu.execution.runners import Runner
from orcu.planning.program import load

ROOT = Path(__file__).resolve().parent.parent
KERNELS = [  # (name, file, input sizes)
    ("axpy (BLAS-1)", ROOT / "annotated_examples" / "axpy.c", {"n": 1000003}),
    (
        "DIA 7-point, 128^3",
        ROOT / "bench" / "kernels" / "matvec3d.c",
        {"m": 128, "n": 128, "p": 128, "nos": 7, "dof": 1},
    ),
    ("sgemm, TSG tiles", ROOT / "annotated_examples" / "sgemm.c", {"n": 256}),
]


def evaluations(path: Path, inputs: dict, count: int) -> tuple[int, float, list[str]]:
    """(variants evaluated, wall seconds, their statuses): ``count`` configurations spread
    evenly over the space's order, evaluated as a tune does (two builders, model measure)."""
    device = profile("H100")
    program = load(path)
    space = region_space(program, 0, inputs, device)
    step = max(1, len(space) // count)
    configs = [(space.config(p), inputs) for p in space.points[::step][:count]]
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner("emulate", device, Path(tmp), jobs=2, measure="model")
        start = time.perf_counter()
        statuses = [r.status for r in runner.evaluate(program, 0, configs)]
        return len(configs), time.perf_counter() - start, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=8, help="configurations per kernel (default 8)")
    parser.add_argument("--no-record", action="store_true", help="print only")
    parser.add_argument("--label", default="", help="what was measured, recorded with the figures (e.g. a commit)")
    args = parser.parse_args()
    figures = {}
    for name, path, inputs in KERNELS:
        n, seconds, statuses = evaluations(path, inputs, args.variants)
        counts = {s: statuses.count(s) for s in sorted(set(statuses))}
        print(
            f"{name:22s} {n:3d} variants in {seconds:7.1f} s: {n / seconds:6.3f} evaluations/s "
            f"({seconds / n:5.1f} s each), {counts}"
        )
        figures[name] = {
            "variants": n,
            "seconds": round(seconds, 2),
            "per_second": round(n / seconds, 4),
            "statuses": counts,
        }
    if not args.no_record:
        append("emulation.json", {"label": args.label, "kernels": figures})


if __name__ == "__main__":
    main()
