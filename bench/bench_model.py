"""The performance model (orcu/execution/model.py) against GPU runs: does it rank variants as the GPU does?

Run: python3 bench/bench_model.py [--record] [--budget N] [--database PATH]

On a machine with a GPU, every example is tuned with --backend cuda (all its variants, or
--budget of them) into a scratch ORCU_HOME; every evaluation keeps the measured kernel time
and, in its figures, the model's prediction. With --database, the evaluations of a database
written by such tunes elsewhere are read instead (any machine). Per example and input size:

- the Spearman rank correlation between predicted and measured times (goal >= 0.8);
- the measured time of the model's pick over the best measured (goal <= 1.10 on >= 80% of them);
- the free constants fitted over all of them: measured ~ scale x (the slowest term) + launch,
  i.e. the GPU reaches 1/scale of the rates CALIBRATION assumes, and a launch costs `launch`.

--record appends the figures, with the device, driver and CUDA version, to
bench/results/model.json, and plots predicted against measured times in bench/results/model.png.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from recording import RESULTS, append

from orcu.device import gpu_visible

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "annotated_examples").glob("*.c"))


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for n in range(k, j + 1):
            out[order[n]] = (k + j) / 2 + 1
        k = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else None


def evaluations(database: Path, backend: str = "cuda") -> dict[tuple[str, str], list[tuple[float, float, float]]]:
    """(predicted ms, measured kernel ms, the slowest term's ms) of each ok evaluation on the
    backend (the GPU's, unless a dry run reads the emulation's), by (region, input sizes)."""
    out: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT region, inputs, kernel_ms, figures FROM evaluations WHERE status = 'ok' AND backend = ?", (backend,)
        ).fetchall()
    for region, inputs, kernel_ms, figures in rows:
        model = (json.loads(figures) or {}).get("model") if figures else None
        samples = json.loads(kernel_ms)
        if model and samples:
            out.setdefault((region, inputs), []).append(
                (model["predicted_ms"], statistics.median(samples), max(model["terms"].values()))
            )
    return out


def fit(points: list[tuple[float, float, float]]) -> tuple[float, float]:
    """measured = scale x term + launch (ms), fitted on the ratios: the least squares of
    log(fitted / measured). The times span five orders of magnitude; a plain least squares
    would be the few slowest kernels' fit (on the H100, three naive Orio variants of 57 to 141 ms
    set a scale of 0.22 that made the typical error 6.6 times where the constants' was 2.2)."""

    def error(scale: float, launch: float) -> float:
        return sum(math.log((scale * term + launch) / measured) ** 2 for _, measured, term in points)

    # a grid over log(scale) and the launch cost (at most the fastest kernel measured), narrowed
    # around the best point four times: two parameters, no solver needed
    low, high = math.log(0.01), math.log(100.0)  # of log(scale)
    top = min(p[1] for p in points)
    first, last = 0.0, top  # of the launch cost
    for _ in range(4):
        grid = [
            (math.exp(low + (high - low) * i / 40), first + (last - first) * j / 40)
            for i in range(41)
            for j in range(41)
        ]
        scale, launch = min(grid, key=lambda c: error(*c))
        width, launch_width = (high - low) / 10, (last - first) / 10
        low, high = math.log(scale) - width, math.log(scale) + width
        first, last = max(0.0, launch - launch_width), min(top, launch + launch_width)
    return scale, launch


def error_factor(pairs: list[tuple[float, float]]) -> float:
    """How many times off a prediction typically is: exp of the root mean square of log(predicted / measured)."""
    return math.exp(math.sqrt(statistics.fmean(math.log(p / m) ** 2 for p, m in pairs)))


def analyse(found: dict) -> dict:
    per_example = []
    for (region, inputs), points in sorted(found.items()):
        predicted, measured = [p[0] for p in points], [p[1] for p in points]
        pick = measured[min(range(len(points)), key=predicted.__getitem__)]
        rho = spearman(predicted, measured)
        per_example.append(
            {
                "region": region,
                "inputs": json.loads(inputs),
                "variants": len(points),
                "spearman": None if rho is None else round(rho, 3),
                "pick_over_best": round(pick / min(measured), 3),
            }
        )
    everything = [p for points in found.values() for p in points]
    scale, launch = fit(everything) if len(everything) > 1 else (None, None)
    fitted = (
        None
        if scale is None
        else {
            "scale": round(scale, 4),
            "launch_ms": round(launch, 5),
            # the fit is worth writing only where it predicts the measured times better than the
            # constants the predictions were made with
            "error_factor": round(
                error_factor([(scale * term + launch, measured) for _, measured, term in everything]), 3
            ),
            "error_factor_before": round(
                error_factor([(predicted, measured) for predicted, measured, _ in everything]), 3
            ),
        }
    )
    ranked = [e for e in per_example if e["spearman"] is not None]
    return {
        "examples": per_example,
        "spearman_at_least_0.8": f"{sum(e['spearman'] >= 0.8 for e in ranked)} of {len(ranked)}",
        "pick_within_10_percent": f"{sum(e['pick_over_best'] <= 1.10 for e in per_example)} of {len(per_example)}",
        "fit": fitted,
    }


def tune_all(home: Path, budget: int | None) -> None:
    env = dict(os.environ, ORCU_HOME=str(home))
    for path in EXAMPLES:
        command = [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            str(path),
            "--backend",
            "cuda",
            "--measure",
            "kernel",
            "--json",
            "-o",
            str(home / f"{path.stem}.tuned.cu"),
        ]
        command += ["--budget", str(budget)] if budget else ["--search", "Exhaustive"]
        proc = subprocess.run(command, capture_output=True, text=True, env=env)
        print(f"{path.name}: exit {proc.returncode}", file=sys.stderr)


def cuda_version() -> str:
    """nvcc's version line, or why there is none."""
    nvcc = shutil.which("nvcc")
    lines = (
        subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines() if nvcc else []
    )
    return lines[-1] if lines else "no nvcc"


def gpu_facts() -> dict:
    """The first visible GPU's name and driver, and the CUDA version."""
    smi = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True
    ).stdout.strip()
    name, driver = (smi.splitlines()[0].split(", ") + ["?", "?"])[:2] if smi else ("?", "?")
    return {"device": name, "driver": driver, "cuda": cuda_version()}


def plot(found: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 6))
    for (region, _), points in sorted(found.items()):
        ax.scatter([p[0] for p in points], [p[1] for p in points], s=8, label=region)
    ax.set(xscale="log", yscale="log", xlabel="predicted kernel time (ms)", ylabel="measured kernel time (ms)")
    ax.legend(fontsize=6)
    fig.savefig(path, dpi=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--budget", type=int, help="variants a region and size (default: all)")
    parser.add_argument("--database", type=Path, help="read a results database of GPU tunes instead of tuning")
    args = parser.parse_args()
    if args.database is None and not gpu_visible():
        print("bench_model: no GPU visible and no --database: nothing to calibrate against", file=sys.stderr)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database
        if database is None:
            tune_all(Path(tmp), args.budget)
            database = Path(tmp) / "results.sqlite"
        found = evaluations(database)
    figures = analyse(found)
    print(json.dumps(figures, indent=2))
    if args.record:
        append(
            "model.json", {**(gpu_facts() if args.database is None else {"database": str(args.database)}), **figures}
        )
        plot(found, RESULTS / "model.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
