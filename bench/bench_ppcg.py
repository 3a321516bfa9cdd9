"""Whole scops: orcu's schedule beside PPCG's, kernel by kernel, on PolyBench/C 4.2.1.

Run: python3 bench/bench_ppcg.py POLYBENCH_DIR [--ppcg PATH] [--record]
(--record appends to bench/results/ppcg.json). PPCG is optional (it is built from source,
about 15 minutes); without it only orcu's side is recorded. For each kernel: PPCG's kernels
(grid and block sizes, arrays in shared memory, launches inside host loops) and the time it
took, and orcu's for the same scop as tests/polybench_scops/ writes it (one
``transform CUDA(mapping='auto')``): the schedule, each kernel's loops, its mapping
candidates and its shared-memory candidates, and the time ``orcu check`` took.
"""
from __future__ import annotations

import argparse
import json
import platform
import re
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCOPS = ROOT / "tests" / "polybench_scops"
SHAPES = ROOT / "tests" / "polybench_shapes"  # doitgen and floyd-warshall: already one transform before the scop
# orcu's file -> PolyBench's
KERNELS = {
    "2mm.c": "linear-algebra/kernels/2mm/2mm.c", "3mm.c": "linear-algebra/kernels/3mm/3mm.c",
    "atax.c": "linear-algebra/kernels/atax/atax.c", "bicg.c": "linear-algebra/kernels/bicg/bicg.c",
    "doitgen.c": "linear-algebra/kernels/doitgen/doitgen.c", "mvt.c": "linear-algebra/kernels/mvt/mvt.c",
    "gemm.c": "linear-algebra/blas/gemm/gemm.c", "gemver.c": "linear-algebra/blas/gemver/gemver.c",
    "gesummv.c": "linear-algebra/blas/gesummv/gesummv.c", "symm.c": "linear-algebra/blas/symm/symm.c",
    "syr2k.c": "linear-algebra/blas/syr2k/syr2k.c", "syrk.c": "linear-algebra/blas/syrk/syrk.c",
    "trmm.c": "linear-algebra/blas/trmm/trmm.c", "gramschmidt.c": "linear-algebra/solvers/gramschmidt/gramschmidt.c",
    "lu.c": "linear-algebra/solvers/lu/lu.c", "correlation.c": "datamining/correlation/correlation.c",
    "covariance.c": "datamining/covariance/covariance.c", "floyd.c": "medley/floyd-warshall/floyd-warshall.c",
    "heat3d.c": "stencils/heat-3d/heat-3d.c", "jacobi1d.c": "stencils/jacobi-1d/jacobi-1d.c",
    "jacobi2d.c": "stencils/jacobi-2d/jacobi-2d.c", "seidel2d.c": "stencils/seidel-2d/seidel-2d.c",
    "fdtd2d.c": "stencils/fdtd-2d/fdtd-2d.c",
}
PPCG_LIMIT_S = 60  # heat-3d takes about 12 minutes in isl's scheduler under PPCG


def orcu_side(name: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / name).write_text(((SCOPS / name) if (SCOPS / name).exists() else SHAPES / name).read_text())
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "orcu", "check", name, "--json"], cwd=tmp, capture_output=True,
                              text=True, env={"ORCU_HOME": str(Path(tmp) / "home"), "PATH": "/usr/bin:/bin"})
        seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"check_s": round(seconds, 2), "refused": proc.stderr.strip().splitlines()[0]}
    summary = json.loads(proc.stdout)
    schedule = summary["schedules"][0] if summary["schedules"] else None
    kernels = []
    for r in summary["regions"]:
        shared = sorted({p["name"].split("_")[1] for p in summary["performance_params"]
                         if p["name"].startswith("shared_") and p["name"].endswith(f"_{r['name'].rsplit('_', 1)[1]}")
                         and p["name"].count("_") == 2})
        kernels.append({"loops": [lp["var"] for lp in r["loops"]], "mapping": r["mapping"], "shared_candidates": shared})
    return {"check_s": round(seconds, 2), "schedule": schedule["how"] if schedule else "one nest, as written",
            "kernels": kernels}


def ppcg_side(ppcg: str, polybench: Path, path: str) -> dict:
    source = polybench / path
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        try:
            proc = subprocess.run([ppcg, "--target=cuda", "--dump-sizes", "-I", str(polybench / "utilities"),
                                   "-DLARGE_DATASET", str(source)], cwd=tmp, capture_output=True, text=True,
                                  timeout=PPCG_LIMIT_S)
        except subprocess.TimeoutExpired:
            return {"ppcg_s": f"> {PPCG_LIMIT_S}"}
        seconds = time.perf_counter() - t0
        stem = source.stem
        host = (Path(tmp) / f"{stem}_host.cu").read_text() if (Path(tmp) / f"{stem}_host.cu").exists() else ""
        kernel = (Path(tmp) / f"{stem}_kernel.cu").read_text() if (Path(tmp) / f"{stem}_kernel.cu").exists() else ""
    if proc.returncode != 0 or not host:
        return {"ppcg_s": round(seconds, 2), "error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}
    kernels = []
    for k, body in re.findall(r"__global__ void kernel(\d+)\((.*?)\n}\n", kernel, re.S):
        block = re.search(rf"dim3 k{k}_dimBlock\(([^;]*)\);", host)
        grid = re.search(rf"dim3 k{k}_dimGrid\(([^;]*)\);", host)
        launch = host.find(f"kernel{k} <<<")
        kernels.append({
            "block": block.group(1) if block else None,
            "grid": grid.group(1) if grid else None,
            "shared": sorted(set(re.findall(r"__shared__ \w+ shared_(\w+)\[", body))),
            "in_host_loop": _in_host_loop(host, launch),
        })
    return {"ppcg_s": round(seconds, 2), "kernels": kernels}


def _in_host_loop(host: str, launch: int) -> bool:
    """Whether the launch sits inside a 'for' of the host code (a time loop or a wavefront)."""
    if launch < 0:
        return False
    for start in (m.start() for m in re.finditer(r"for \(", host[:launch])):
        brace = host.find("{", start)
        if 0 <= brace < launch and _closing(host, brace) > launch:
            return True
    return False


def _closing(text: str, brace: int) -> int:
    depth = 0
    for k in range(brace, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def _version(ppcg: str) -> str:
    proc = subprocess.run([ppcg, "--version"], capture_output=True, text=True)
    return " ".join((proc.stdout + proc.stderr).split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("polybench", type=Path, help="PolyBench/C 4.2.1's directory")
    parser.add_argument("--ppcg", help="PPCG's executable (built by its own instructions)")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/results/ppcg.json")
    args = parser.parse_args()
    rows = []
    for name, path in KERNELS.items():
        row = {"kernel": name, "orcu": orcu_side(name)}
        if args.ppcg:
            row["ppcg"] = ppcg_side(args.ppcg, args.polybench, path)
        rows.append(row)
        ours, theirs = row["orcu"], row.get("ppcg", {})
        print(f"{name:16} orcu: {len(ours.get('kernels', []))} kernel(s) in {ours['check_s']} s"
              f" ({ours.get('schedule') or ours.get('refused')}); "
              f"ppcg: {len(theirs.get('kernels', []))} kernel(s) in {theirs.get('ppcg_s', '-')} s")
    if args.record:
        out = ROOT / "bench" / "results" / "ppcg.json"
        history = json.loads(out.read_text()) if out.exists() else []
        history.append({"date": str(date.today()), "machine": f"{platform.machine()}, CPython {platform.python_version()}",
                        "ppcg": _version(args.ppcg) if args.ppcg else None,
                        "rows": rows})
        out.write_text(json.dumps(history, indent=1) + "\n")


if __name__ == "__main__":
    main()
