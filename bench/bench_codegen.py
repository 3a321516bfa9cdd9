"""Code-generation speed: orcu's own cost per variant, next to nvcc's cost per variant.

Run: python3 bench/bench_codegen.py [--record]   (--record appends to bench/results/codegen.json)
An autotuner pays generation once per variant; it should be a small fraction of compiling.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import tempfile
import time
from datetime import date
from pathlib import Path

from orcu.codegen.region import generate
from orcu.driver.writeback import Choice, tuned_source
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["axpy.c", "dot.c", "spmv_dia.c", "two_regions.c"]
VARIANTS = 200


def per_variant(fn, configs) -> float:
    t0 = time.perf_counter()
    for c in configs:
        fn(c)
    return (time.perf_counter() - t0) / len(configs)


def bench_example(name: str, nvcc: str | None) -> dict:
    program = load(ROOT / "annotated_examples" / name)
    inputs = next(iter(input_space(program).configs()))
    space = performance_space(program, inputs)
    configs = [space.config(k % space.size) for k in range(VARIANTS)]
    region_s = per_variant(lambda c: [generate(program, nest, c, inputs) for nest in program.nests], configs)
    file_s = per_variant(lambda c: tuned_source(program, [Choice(c, inputs)] * len(program.nests)), configs)
    row = {
        "example": name,
        "regions": len(program.nests),
        "variants": VARIANTS,
        "generate_regions_ms": round(region_s * 1e3, 3),
        "tuned_file_ms": round(file_s * 1e3, 3),
    }
    if nvcc:
        with tempfile.TemporaryDirectory() as tmp:
            cu = Path(tmp) / "v.cu"
            cu.write_text(tuned_source(program, [Choice(configs[0], inputs)] * len(program.nests))[0])
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                subprocess.run(
                    [nvcc, "-c", "-arch=sm_90", str(cu), "-o", str(Path(tmp) / "v.o")], check=True, capture_output=True
                )
                times.append(time.perf_counter() - t0)
            row["nvcc_sm90_ms"] = round(min(times) * 1e3, 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="append the figures to bench/results/codegen.json")
    args = parser.parse_args()
    nvcc = shutil.which("nvcc")
    rows = [bench_example(name, nvcc) for name in EXAMPLES]
    for r in rows:
        print(
            f"{r['example']:<16} regions={r['regions']}  generate {r['generate_regions_ms']:7.3f} ms/variant"
            f"  whole tuned file {r['tuned_file_ms']:7.3f} ms/variant  nvcc {r.get('nvcc_sm90_ms', '-')} ms"
        )
    if args.record:
        path = ROOT / "bench" / "results" / "codegen.json"
        runs = json.loads(path.read_text()) if path.exists() else []
        nvcc_version = (
            subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().split("\n")[-1]
            if nvcc
            else None
        )
        runs.append(
            {
                "date": date.today().isoformat(),
                "machine": f"{platform.processor() or platform.machine()}, "
                f"{platform.python_implementation()} {platform.python_version()}",
                "nvcc": nvcc_version,
                "rows": rows,
            }
        )
        path.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    main()
