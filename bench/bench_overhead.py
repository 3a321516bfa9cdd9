"""orcu's own time per variant in `orcu tune`, compilers and runs excluded (emulate mode).

Run: python3 bench/bench_overhead.py [--record]   (--record appends to bench/results/overhead.json)
Tunes 64 configurations of a small axpy in process and reads the CPU time of orcu's own
process (user + system, children excluded: g++ and the harness runs are children): search,
code generation, harness text, results database, progress. Goal (issue 5): under 20 ms.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from recording import append

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

SOURCE = """void f(int n, float a, const float *x, float *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64, 96, 128, 160, 192, 224, 256]; param BC[] = [1, 2, 3, 4, 5, 6, 7, 8]; }
    def input_params { param n[] = [1000]; }
    def input_vars { decl dynamic float x[n] = random; decl dynamic float y[n] = random; decl float a = 2.0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    /*@ end @*/
    /*@ end @*/
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    from orcu.driver.cli import main as orcu  # imports are not per-variant cost

    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        Path("t.c").write_text(SOURCE)
        os.environ["ORCU_HOME"] = str(Path(tmp, "home"))
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (until the process ends)
        start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
        code = orcu(["tune", "t.c", "--backend", "emulate", "--search", "Exhaustive", "-j", "1", "--json"])
        wall = time.perf_counter() - start
        used = resource.getrusage(resource.RUSAGE_SELF)
        own = (used.ru_utime - cpu.ru_utime) + (used.ru_stime - cpu.ru_stime)
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    assert code == 0
    variants = 64
    row = {
        "variants": variants,
        "wall_s": round(wall, 2),
        "orcu_cpu_s": round(own, 2),
        "orcu_ms_per_variant": round(1e3 * own / variants, 2),
    }
    print(
        f"{variants} variants: wall {wall:.2f} s; orcu's own CPU time {own:.2f} s, "
        f"{row['orcu_ms_per_variant']:.2f} ms per variant"
    )
    if args.record:
        append("overhead.json", row)


if __name__ == "__main__":
    main()
