"""Search quality by replay: orcu's strategies, and Kernel Tuner's, on real GPU tuning spaces recorded exhaustively.

Run: python3 bench/bench_search.py [--seeds 20] [--record] [--data DIR] [--strategies A,B | --all] [--plot FILE] [-j N]
(--record appends to bench/results/search.json; Kernel Tuner's columns need the benchmark
extra, `pip install -e '.[bench]'`, and are left out with a note without it; the plot needs
matplotlib, the plot extra.)

For each space in ../shared/data/ktcache (Kernel Tuner cache format; --data for others, such as
the same kernels recorded on other GPUs), each strategy and budgets of 1%, 2%, 5% and 10% of
the valid configurations: score = optimum / best time found (1.0 = the optimum), mean and
worst over the seeds, budget = max(2, int(fraction x valid)), failed configurations costing a
penalty as in a real tune; the scoring of ../shared/tools/orcu_replay.py and kt_replay.py.
Kernel Tuner's genetic_algorithm and random_sample run on the same data in the same benchmark.
Also each orcu strategy's own time (Python) per 1,000 evaluations, and a plot of the mean
score against the budget, a panel per space.
Goals (issue 37), checked and printed at the end: at 2%, 5% and 10% on every space the default's
mean >= Random's and >= max(orcu's Genetic, Kernel Tuner's genetic_algorithm) - 0.01; the mean
over the spaces >= 0.95 at 2% and >= 0.99 at 5%.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import shutil
import statistics
import tempfile
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from recording import RESULTS, append

from orcu.driver.ktcache import read_cache
from orcu.search import DEFAULT, STRATEGIES, drive, make

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "ktcache"
FRACTIONS = (0.01, 0.02, 0.05, 0.10)
GOAL_FRACTIONS = ("2%", "5%", "10%")
KERNEL_TUNER = ("genetic_algorithm", "random_sample")


def label(fraction: float) -> str:
    return f"{fraction:.0%}"


def budgets_of(valid: int) -> list[int]:
    return [max(2, int(f * valid)) for f in FRACTIONS]


def orcu_row(path: Path, name: str, seeds: int) -> dict:
    """One strategy on one space: [mean, worst] per budget, and its Python time per 1,000 evaluations."""
    space, cost = read_cache(path)
    valid = [c for c in cost.values() if math.isfinite(c)]
    optimum = min(valid)
    row = {"space": path.name, "tuner": "orcu", "strategy": name, "valid": len(valid), "optimum": optimum}
    start, evaluations = time.perf_counter(), 0
    for fraction, budget in zip(FRACTIONS, budgets_of(len(valid))):
        scores = []
        for seed in range(seeds):
            strategy = make(name, space, seed)
            evaluations += drive(strategy, lambda points: [cost[p] for p in points], budget)
            best = min(strategy.costs.values())
            scores.append(optimum / best if math.isfinite(best) else 0.0)
        row[label(fraction)] = [round(statistics.mean(scores), 3), round(min(scores), 3)]
    row["s_per_1000"] = round(1000 * (time.perf_counter() - start) / max(1, evaluations), 2)
    return row


def kernel_tuner_rows(kernel_tuner, path: Path, seeds: int, valid: int, optimum: float) -> list[dict]:
    """Kernel Tuner's strategies on the space, scored against orcu's reading of it (``valid``
    configurations, the ``optimum``)."""
    import numpy

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        data = json.load(f)
    keys = data["tune_params_keys"]
    present = set(data["cache"])

    def restrict(p):  # Kernel Tuner proposes only what the recording holds
        return ",".join(str(p[k]) for k in keys) in present

    rows = []
    tmp = tempfile.mkdtemp()
    try:
        cache_path = os.path.join(tmp, "cache.json")
        with open(cache_path, "w") as f:
            json.dump(data, f)
        for name in KERNEL_TUNER:
            row = {"space": path.name, "tuner": f"Kernel Tuner {kernel_tuner.__version__}", "strategy": name}
            for fraction, budget in zip(FRACTIONS, budgets_of(valid)):
                scores = []
                for seed in range(seeds):
                    random.seed(seed)
                    numpy.random.seed(seed)
                    results, _ = kernel_tuner.tune_kernel(
                        data["kernel_name"],
                        "__global__ void k(){}",
                        data.get("problem_size", 1),
                        [],
                        dict(data["tune_params"]),
                        restrictions=restrict,
                        cache=cache_path,
                        simulation_mode=True,
                        strategy=name,
                        strategy_options={"max_fevals": budget},
                        verbose=False,
                        quiet=True,
                    )
                    times = [r["time"] for r in results if isinstance(r.get("time"), (int, float))]
                    scores.append(optimum / min(times) if times else 0.0)
                row[label(fraction)] = [round(statistics.mean(scores), 3), round(min(scores), 3)]
            rows.append(row)
    finally:
        shutil.rmtree(tmp)
    return rows


def goals(rows: list[dict], spaces: list[str]) -> list[str]:
    """The issue's goals for the default, as lines; a line starting with 'MISSED' is one not met."""

    def mean(space, tuner, strategy, f):
        for r in rows:
            if r["space"] == space and r["strategy"] == strategy and (r["tuner"] == "orcu") == (tuner == "orcu"):
                return r[f][0]
        return None

    out = []
    for f in GOAL_FRACTIONS:
        for space in spaces:
            default = mean(space, "orcu", DEFAULT, f)
            rivals = [
                m
                for m in (mean(space, "orcu", "Genetic", f), mean(space, "kt", "genetic_algorithm", f))
                if m is not None
            ]
            floor = max([mean(space, "orcu", "Random", f) or 0.0] + [m - 0.01 for m in rivals])
            if default is not None and default < floor:
                out.append(f"MISSED {space} at {f}: {DEFAULT} {default:.3f} < {floor:.3f}")
        means = [m for s in spaces if (m := mean(s, "orcu", DEFAULT, f)) is not None]
        if means:
            target = {"2%": 0.95, "5%": 0.99}.get(f)
            overall = statistics.mean(means)
            verdict = (
                ""
                if target is None
                else (f" (goal >= {target:.2f})" if overall >= target else f" MISSED: goal >= {target:.2f}")
            )
            out.append(
                f"{'MISSED ' if verdict.startswith(' MISSED') else ''}mean of {DEFAULT} over {len(means)} spaces at {f}: {overall:.3f}{verdict}"
            )
    return out


def plot(rows: list[dict], spaces: list[str], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(3, len(spaces))
    lines = math.ceil(len(spaces) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.2 * lines), squeeze=False, sharex=True)
    x = [100 * f for f in FRACTIONS]
    for ax, space in zip(axes.flat, spaces):
        for r in rows:
            if r["space"] == space:
                name = r["strategy"] if r["tuner"] == "orcu" else f"KT {r['strategy']}"
                ax.plot(
                    x,
                    [r[label(f)][0] for f in FRACTIONS],
                    marker="o",
                    label=name,
                    linewidth=2.5 if r["strategy"] == DEFAULT else 1.2,
                )
        ax.set_title(space.split(".")[0], fontsize=9)
        ax.set_xscale("log")
        ax.set_xticks(x, [label(f) for f in FRACTIONS])
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(spaces) :]:
        ax.axis("off")
    axes[0][0].set_ylabel("optimum / best found (mean)")
    axes[0][0].legend(fontsize=7)
    figure.suptitle("Search quality by replay: score against budget (fraction of the valid configurations)")
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--strategies", default=",".join(dict.fromkeys([DEFAULT, "Multistart", "Genetic", "Random"])))
    parser.add_argument("--all", action="store_true", help="every orcu strategy")
    parser.add_argument(
        "--plot", type=Path, default=RESULTS / "search.png", help="the figure (default: bench/results/search.png)"
    )
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    names = list(STRATEGIES) if args.all else args.strategies.split(",")
    try:
        import kernel_tuner

        warnings.filterwarnings("ignore")
    except ImportError:
        kernel_tuner = None
        print("Kernel Tuner is not installed (pip install -e '.[bench]'): its columns are left out")
    paths = sorted(args.data.glob("*.json*"))
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {path: [pool.submit(orcu_row, path, name, args.seeds) for name in names] for path in paths}
        rows = []
        for path in paths:
            ours = [future.result() for future in futures[path]]
            valid, optimum = ours[0]["valid"], ours[0]["optimum"]
            print(f"{path.name}: {valid} valid configurations, budgets {budgets_of(valid)}")
            for row in ours:
                rows.append(row)
                show(row, f"{row['strategy']}{' (default)' if row['strategy'] == DEFAULT else ''}")
            if kernel_tuner is not None:
                for row in kernel_tuner_rows(kernel_tuner, path, args.seeds, valid, optimum):
                    rows.append(row)
                    show(row, f"KT {row['strategy']}")
    spaces = [p.name for p in paths]
    verdicts = goals(rows, spaces)
    print("\n".join(verdicts))
    try:
        plot(rows, spaces, args.plot)
        print(f"plot: {args.plot}")
    except ImportError:
        print("matplotlib is not installed (pip install -e '.[plot]'): no plot")
    if args.record:
        append(
            "search.json",
            {
                "seeds": args.seeds,
                "default": DEFAULT,
                "data": args.data.name,
                "score": "optimum / best found: [mean, worst] over seeds",
                "rows": rows,
                "goals": verdicts,
            },
        )


def show(row, name):
    cells = "  ".join(f"{label(f)}: {row[label(f)][0]:.3f}/{row[label(f)][1]:.3f}" for f in FRACTIONS)
    extra = f"   ({row['s_per_1000']} s per 1000 evaluations)" if "s_per_1000" in row else ""
    print(f"  {name:<24} {cells}{extra}", flush=True)


if __name__ == "__main__":
    main()
