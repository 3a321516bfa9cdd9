"""The differential fuzzer's long run: seeded random programs (tests/differential.py), each
tuned in emulation at a few configurations and checked against gcc's program on both input
sets, in parallel processes. Prints the outcomes and every finding's program; --record appends
the counts to bench/results/fuzz_differential.json with the commit and the machine.

    python bench/bench_fuzz_differential.py --programs 5000 --jobs 2 --record
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from differential import check, seeded  # noqa: E402


def one(seed: int) -> tuple[int, str, str, str]:
    program = seeded(seed)
    with tempfile.TemporaryDirectory() as d:
        outcome, detail = check(program.text, Path(d))
    return seed, outcome, detail, program.text if outcome == "finding" else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.programs)
    counts: Counter = Counter()
    findings = []
    start = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        for seed, outcome, detail, text in pool.map(one, seeds, chunksize=4):
            counts[outcome] += 1
            if outcome == "finding":
                findings.append(seed)
                print(f"finding at seed {seed}: {detail}\n{text}", flush=True)
            done = sum(counts.values())
            if done % 100 == 0:
                print(f"{done} programs: {dict(counts)} ({time.time() - start:.0f} s)", flush=True)
    elapsed = time.time() - start
    print(f"{len(seeds)} programs in {elapsed:.0f} s: {dict(counts)}; findings at seeds {findings}")
    if args.record:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        path = ROOT / "bench" / "results" / "fuzz_differential.json"
        history = json.loads(path.read_text()) if path.exists() else []
        history.append(
            {
                "commit": commit,
                "machine": f"{platform.node()} {platform.processor() or platform.machine()}, "
                f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
                "date": time.strftime("%Y-%m-%d"),
                "first_seed": args.first_seed,
                "programs": len(seeds),
                "seconds": round(elapsed),
                "outcomes": dict(counts),
                "finding_seeds": findings,
            }
        )
        path.write_text(json.dumps(history, indent=1) + "\n")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
