"""Search quality by replay: each strategy against real GPU tuning spaces recorded exhaustively.

Run: python3 bench/bench_search.py [--seeds N] [--record]   (--record appends to bench/results/search.json)
For each space in ../shared/data/ktcache (Kernel Tuner cache format) and each strategy: the
best time found with a budget of 5%, 10% and 20% of the valid space, as a multiple of the
optimum, averaged over seeds. Failed configurations cost a penalty, as in a real tune.
Goal (issue 5): the default strategy within 5% of the optimum at 10% of the space.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from datetime import date
from pathlib import Path

from orcu.ktcache import read_cache
from orcu.search import STRATEGIES, drive, make

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "ktcache"
FRACTIONS = (0.05, 0.10, 0.20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    rows = []
    for path in sorted(args.data.glob("*.json*")):
        space, cost = read_cache(path)
        optimum = min(cost.values())
        print(f"{path.name}: {len(space)} valid configurations, optimum {optimum:.4g} ms")
        for name in STRATEGIES:
            row = {"space": path.name, "strategy": name, "points": len(space)}
            start = time.perf_counter()
            for fraction in FRACTIONS:
                budget = max(1, round(fraction * len(space)))
                ratios = []
                for seed in range(args.seeds):
                    strategy = make(name, space, seed)
                    drive(strategy, lambda points: [cost[p] for p in points], budget)
                    ratios.append(min(strategy.costs.values()) / optimum)
                row[f"{int(fraction * 100)}%"] = round(statistics.mean(ratios), 4)
            row["seconds"] = round(time.perf_counter() - start, 1)
            rows.append(row)
            print(f"  {name:<12} " + "  ".join(f"{f}: {row[f]:.3f}" for f in ("5%", "10%", "20%")) + f"   ({row['seconds']} s)")
    if args.record:
        out = ROOT / "bench" / "results" / "search.json"
        runs = json.loads(out.read_text()) if out.exists() else []
        runs.append({"date": date.today().isoformat(), "machine": platform.machine(), "seeds": args.seeds, "rows": rows})
        out.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    main()
