"""Search quality by replay: every strategy, and Kernel Tuner's, on real GPU tuning spaces recorded exhaustively.

Run: python3 bench/bench_search.py [--seeds N] [--record] [--data DIR]
(--record appends to bench/results/search.json; Kernel Tuner's columns need the benchmark
extra, `pip install -e '.[bench]'`, and are left out with a note without it.)

For each space in ../shared/data/ktcache (Kernel Tuner cache format), each strategy and budgets
of 2%, 5% and 10% of the valid configurations: score = optimum / best time found (1.0 = the
optimum), mean and worst over the seeds, budget = max(2, int(fraction x valid)), failed
configurations costing a penalty as in a real tune; the scoring of
../shared/tools/orcu_replay.py and kt_replay.py. Kernel Tuner's genetic_algorithm and
random_sample run on the same data in the same benchmark. Also each orcu strategy's own time
(Python) per 1,000 evaluations.
Goals (issue 14): the default strategy >= random at every budget, >= Kernel Tuner's
genetic_algorithm at 2% and 5%, >= 0.90 at 2% and >= 0.99 at 5% on every space.
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
from pathlib import Path

from orcu.ktcache import read_cache
from orcu.search import DEFAULT, STRATEGIES, drive, make
from recording import append

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "ktcache"
FRACTIONS = (0.02, 0.05, 0.10)
KERNEL_TUNER = ("genetic_algorithm", "random_sample")


def orcu_scores(name, space, cost, optimum, budget, seeds):
    scores, evaluations = [], 0
    for seed in range(seeds):
        strategy = make(name, space, seed)
        evaluations += drive(strategy, lambda points: [cost[p] for p in points], budget)
        best = min(strategy.costs.values())
        scores.append(optimum / best if math.isfinite(best) else 0.0)
    return scores, evaluations


def kernel_tuner_scores(kernel_tuner, data, cache_path, optimum, strategy, budget, seeds):
    keys = data["tune_params_keys"]
    present = set(data["cache"])

    def restrict(p):  # Kernel Tuner proposes only what the recording holds
        return ",".join(str(p[k]) for k in keys) in present

    scores = []
    for seed in range(seeds):
        random.seed(seed)
        import numpy
        numpy.random.seed(seed)
        results, _ = kernel_tuner.tune_kernel(
            data["kernel_name"], "__global__ void k(){}", data.get("problem_size", 1), [], dict(data["tune_params"]),
            restrictions=restrict, cache=cache_path, simulation_mode=True, strategy=strategy,
            strategy_options={"max_fevals": budget}, verbose=False, quiet=True)
        times = [r["time"] for r in results if isinstance(r.get("time"), (int, float))]
        scores.append(optimum / min(times) if times else 0.0)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    try:
        import kernel_tuner
        warnings.filterwarnings("ignore")
    except ImportError:
        kernel_tuner = None
        print("Kernel Tuner is not installed (pip install -e '.[bench]'): its columns are left out")
    rows = []
    for path in sorted(args.data.glob("*.json*")):
        space, cost = read_cache(path)
        valid = [c for c in cost.values() if math.isfinite(c)]
        optimum = min(valid)
        budgets = [max(2, int(f * len(valid))) for f in FRACTIONS]
        print(f"{path.name}: {len(valid)} valid configurations, budgets {budgets}")
        for name in STRATEGIES:
            row = {"space": path.name, "tuner": "orcu", "strategy": name}
            start, evaluations = time.perf_counter(), 0
            for fraction, budget in zip(FRACTIONS, budgets):
                scores, spent = orcu_scores(name, space, cost, optimum, budget, args.seeds)
                evaluations += spent
                row[f"{fraction:.0%}"] = [round(statistics.mean(scores), 3), round(min(scores), 3)]
            row["s_per_1000"] = round(1000 * (time.perf_counter() - start) / max(1, evaluations), 2)
            rows.append(row)
            show(row, f"{name}{' (default)' if name == DEFAULT else ''}")
        if kernel_tuner is not None:
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt") as f:
                data = json.load(f)
            tmp = tempfile.mkdtemp()
            try:
                cache_path = os.path.join(tmp, "cache.json")
                with open(cache_path, "w") as f:
                    json.dump(data, f)
                for name in KERNEL_TUNER:
                    row = {"space": path.name, "tuner": f"Kernel Tuner {kernel_tuner.__version__}", "strategy": name}
                    for fraction, budget in zip(FRACTIONS, budgets):
                        scores = kernel_tuner_scores(kernel_tuner, data, cache_path, optimum, name, budget, args.seeds)
                        row[f"{fraction:.0%}"] = [round(statistics.mean(scores), 3), round(min(scores), 3)]
                    rows.append(row)
                    show(row, f"KT {name}")
            finally:
                shutil.rmtree(tmp)
    if args.record:
        append("search.json", {"seeds": args.seeds, "default": DEFAULT,
                               "score": "optimum / best found: [mean, worst] over seeds", "rows": rows})


def show(row, label):
    cells = "  ".join(f"{f}: {row[f][0]:.3f}/{row[f][1]:.3f}" for f in ("2%", "5%", "10%"))
    extra = f"   ({row['s_per_1000']} s per 1000 evaluations)" if "s_per_1000" in row else ""
    print(f"  {label:<24} {cells}{extra}", flush=True)


if __name__ == "__main__":
    main()
