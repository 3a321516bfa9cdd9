"""The TSG's phased search against the joint search of its decisions, without a GPU: the cost
of a variant is its static traffic (bytes of global memory requested per iteration of the grid
loops, tsg/traffic.py), the figure issue 13 asks the comparison to use in emulation.

Run: python3 bench/bench_tsg_search.py [--seeds N] [--record]   (--record appends to
bench/results/tsg_search.json)

For each region of the TSG examples with Phase II parameters, at its first input size, every
configuration of its space is generated once (its traffic is the cost; one that has none costs
infinity). Each strategy then searches that table with the whole space as its budget: the
evaluations it spends until it first meets the least traffic, and the best traffic it finds
within 10%, 25% and 50% of the space (optimum / found: 1.0 is the least). TSG stops after its
Phase IV: what it has not met by then it never meets.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

from orcu.codegen.region import generate
from orcu.device import profile
from orcu.driver.tuning import region_space
from orcu.planning.program import load
from orcu.planning.space import input_space
from orcu.search import drive, make

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recording import append  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["2mm.c", "atax.c", "bicg.c", "conv2d.c", "dgemm.c", "gemv_t.c", "jacobi2d.c", "mvt.c", "sgemm.c"]
DEVICE = profile("H100")
STRATEGIES = ["TSG", "Multistart", "Random", "Genetic"]
FRACTIONS = (0.10, 0.25, 0.50)


def traffic_table(program, k: int, inputs: dict):
    space = region_space(program, k, inputs, DEVICE)
    costs = {}
    for p in space.points:
        code = generate(program, program.nests[k], space.config(p), inputs)
        figures = code.traffic(DEVICE.multiprocessors)
        costs[p] = figures.bytes_per_output if figures is not None else math.inf
    return space, costs


def run(name: str, space, costs, seed: int) -> list[float]:
    """The costs a strategy meets, in its order."""
    strategy = make(name, space, seed)
    met: list[float] = []
    drive(strategy, lambda points: [met.append(costs[p]) or costs[p] for p in points], len(space))
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    rows = []
    print(f"{'region':<16} {'size':>5}  " + "  ".join(f"{s:>26}" for s in STRATEGIES))
    print(f"{'':<16} {'':>5}  " + "  ".join(f"{'to least (mean)':>15} {'10/25/50%':>10}" for _ in STRATEGIES))
    for example in EXAMPLES:
        program = load(ROOT / "annotated_examples" / example)
        inputs = next(iter(input_space(program).configs()))
        for k, nest in enumerate(program.nests):
            if not any(
                p.blocked is None and (p.grid or p.shared) for p in (nest.recipe.placements if nest.recipe else ())
            ):
                continue
            space, costs = traffic_table(program, k, inputs)
            least = min(costs.values())
            row = {"region": nest.name, "example": example, "inputs": inputs, "size": len(space), "least_bytes": least}
            cells = []
            for name in STRATEGIES:
                seeds = range(1 if name == "TSG" else args.seeds)
                reach, scores = [], {f: [] for f in FRACTIONS}
                for seed in seeds:
                    met = run(name, space, costs, seed)
                    reach.append(met.index(least) + 1 if least in met else math.inf)
                    for f in FRACTIONS:
                        best = min(met[: max(1, int(f * len(space)))])
                        scores[f].append(least / best if best > 0 else 1.0)
                finite = [r for r in reach if r != math.inf]
                row[name] = {
                    "to_least_mean": statistics.mean(finite) if finite else None,
                    "reached": f"{len(finite)}/{len(reach)}",
                    "evaluated": len(met),
                    **{f"score_{int(f * 100)}": round(statistics.mean(v), 3) for f, v in scores.items()},
                }
                to = f"{row[name]['to_least_mean']:.1f}" if finite else "never"
                cells.append(
                    f"{to + ' (' + row[name]['reached'] + ')':>15} "
                    f"{'/'.join(f'{statistics.mean(v):.2f}' for v in scores.values()):>10}"
                )
            rows.append(row)
            print(f"{nest.name:<16} {len(space):>5}  " + "  ".join(cells))
    if args.record:
        append(
            "tsg_search.json", {"seeds": args.seeds, "cost": "static traffic, bytes per grid iteration", "rows": rows}
        )


if __name__ == "__main__":
    main()
