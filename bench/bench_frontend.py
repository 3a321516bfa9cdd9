"""Front-end speed: large constrained spaces, and `orcu check` on a 10-region file.

Run: python3 bench/bench_frontend.py [--record]   (--record appends to bench/results/frontend.json)
Goals (issue 2): a 10^6-point space with two constraints enumerated in under 2 s;
`orcu check` on a 10-region file in under 1 s.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from orcu.frontend.source import SourceFile
from orcu.planning.space import Space
from orcu.spec.language import parse_perftuning

ROOT = Path(__file__).resolve().parent.parent

SPEC = """def performance_params {
    param TC[] = range(32, 1025, 32);          # 32
    param BC[] = range(1, 1001);               # 1000
    param UIF[] = range(1, 6);                 # 5
    param PL[] = [16, 32, 48];                 # 3
    param CB[] = [False, True];                # 2   -> 960,000 raw points
    param SC[] = [1, 2, 4, 8, 16];             # 5   -> 4,800,000 for the larger case
    constraint occupancy = TC * BC <= 64 * 1024;
    constraint l1 = PL == 48 or not CB;
}"""


def best_of(fn, repeat=3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


# One constraint that reads every parameter: no decomposition, a vectorised pass over all points.
COUPLED = "    constraint budget = TC * BC * UIF <= 64 * 1024 * PL // 16 and (PL == 48 or not CB);\n"


def bench_space(drop_sc: bool, coupled: bool = False) -> dict:
    text = (
        SPEC.replace("    param SC[] = [1, 2, 4, 8, 16];             # 5   -> 4,800,000 for the larger case\n", "")
        if drop_sc
        else SPEC
    )
    if coupled:
        text = text.replace("    constraint l1 = PL == 48 or not CB;\n", COUPLED)
    spec = parse_perftuning(SourceFile("bench.c", text), 0, len(text))
    build = best_of(lambda: Space(spec.performance_params, spec.performance_constraints))
    space = Space(spec.performance_params, spec.performance_constraints)
    count = [0]

    def enumerate_all():
        count[0] = sum(1 for _ in space.points())

    enum = best_of(enumerate_all)
    lookups = best_of(lambda: [space.index(space.config(i)) for i in range(0, space.size, max(1, space.size // 10000))])
    result = {}
    if drop_sc and not coupled:
        # The baseline the grouping replaces: every point of the product, one at a time.
        import itertools

        def naive():
            names = [p.name for p in spec.performance_params]
            n = 0
            for combo in itertools.product(*(p.values for p in spec.performance_params)):
                env = dict(zip(names, combo))
                n += all(c.expr.evaluate(env) for c in spec.performance_constraints)
            assert n == space.size

        result["naive_per_point_s"] = round(best_of(naive, repeat=1), 4)
    return result | {
        "raw_points": space.raw_size,
        "valid_points": space.size,
        "build_s": round(build, 4),
        "enumerate_s": round(enum, 4),
        "build_plus_enumerate_s": round(build + enum, 4),
        "index_roundtrips_10k_s": round(lookups, 4),
    }


def ten_region_file() -> str:
    head = "void ten(int n, double a, double *x, double *y, double *z) {\n  int i;\n  double s;\n"
    spec = (
        "  /*@ begin PerfTuning (\n  def performance_params {\n"
        + "".join(f"    param TC{k}[] = range(32, 1025, 32);\n    param BC{k}[] = [66, 132, 264];\n" for k in range(10))
        + "  }\n  def input_params { param n[] = [1000, 100000]; }\n"
        "  def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random;"
        " decl dynamic double z[n] = 0; decl double a = 1.5; }\n  ) @*/\n"
    )
    bodies = [
        "for (i = 0; i < n; i++) y[i] = a * x[i] + y[i];",
        "for (i = 0; i <= n-1; i++) z[i] = x[i] * y[i];",
        "for (i = 0; i < n; i++) s += x[i] * y[i];",
    ]
    regions = ""
    for k in range(10):
        body = bodies[k % 3]
        regions += (
            f"  /*@ begin Loop(transform CUDA(threadCount=TC{k}, blockCount=BC{k})\n  {body}\n  ) @*/\n"
            f"  {body}\n  /*@ end @*/\n"
        )
    return head + spec + regions + "  /*@ end @*/\n}\n"


def bench_check() -> dict:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "ten.c"
        path.write_text(ten_region_file())
        cmd = [sys.executable, "-m", "orcu", "check", str(path), "--json"]
        subprocess.run(cmd, check=True, capture_output=True)  # warm the OS file cache
        wall = best_of(lambda: subprocess.run(cmd, check=True, capture_output=True))
        from orcu.driver.report import summary
        from orcu.planning.program import load

        def in_process():
            summary(load(path))

        inproc = best_of(in_process)
    return {"regions": 10, "check_process_s": round(wall, 4), "check_in_process_s": round(inproc, 4)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    result = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpus": __import__("os").cpu_count(),
        "python": platform.python_version(),
        "space_1e6_two_constraints": bench_space(drop_sc=True),
        "space_1e6_coupled_constraint": bench_space(drop_sc=True, coupled=True),
        "space_4.8e6_two_constraints": bench_space(drop_sc=False),
        "check_10_regions": bench_check(),
    }
    print(json.dumps(result, indent=2))
    if args.record:
        out = ROOT / "bench" / "results" / "frontend.json"
        out.parent.mkdir(exist_ok=True)
        history = json.loads(out.read_text()) if out.exists() else []
        history.append(result)
        out.write_text(json.dumps(history, indent=2) + "\n")


if __name__ == "__main__":
    main()
