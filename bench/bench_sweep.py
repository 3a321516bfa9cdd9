"""Every configuration of every region of the corpora (tests/test_corpus.py's files) at their
smallest input size, generated as the tune generates it (the variant's code and the harness that
checks it): no configuration the space offers may end in an internal error, orcu's exit 3. A
configuration the space offers that code generation refuses with a located message is counted
apart (the space should not offer it); an exception of any other kind is a defect, printed with
its traceback's last frame.

    python3 bench/bench_sweep.py [--cap N] [--jobs J] [FILE ...]

A region whose space holds more than --cap configurations (default 3000) is swept over its
covering array (every pair of values) and a seeded sample up to the cap, and says so. Appends
its date, commit, counts and time to bench/results/sweep.json."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import subprocess
import sys
import time
import traceback
from pathlib import Path

from recording import append

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_corpus import FILES, INPUTS, REFUSED, _id  # noqa: E402  (the gate's corpus, one list)


def _sweep(task: tuple[str, int]) -> dict:
    from orcu.device import DEFAULT_PROFILE, profile
    from orcu.driver.tuning import region_space
    from orcu.errors import OrcuError
    from orcu.execution.harness import harness_source
    from orcu.execution.runners import build_item
    from orcu.planning.program import load
    from orcu.planning.space import input_space

    path, cap = task
    out = {"file": path, "configs": 0, "sampled": [], "refused": 0, "internal": []}
    try:
        program = load(path)
    except OrcuError as e:
        out["load"] = e.message[:200]
        return out
    device = profile(DEFAULT_PROFILE)
    for k in range(len(program.nests)):
        sizes = list(input_space(program.of_nest(k)).configs())
        inputs = dict(min(sizes, key=lambda s: math.prod(v for v in s.values() if isinstance(v, int)) if s else 0))
        space = region_space(program, k, inputs, device)
        points = space.points
        if len(points) > cap:
            chosen = list(dict.fromkeys(space.covering()))
            rest = [p for p in points if p not in set(chosen)]
            chosen += random.Random(k).sample(rest, max(0, min(len(rest), cap - len(chosen))))
            out["sampled"].append(f"region {k + 1}: {len(chosen)} of {len(points)}")
            points = chosen
        for p in points:
            config = space.config(p)
            out["configs"] += 1
            try:
                item = build_item(program, k, 0, config, inputs, "emulate", device.arch)
                harness_source(program, k, [item[4]], inputs)
            except OrcuError:
                out["refused"] += 1
            except Exception as e:  # a defect of orcu's: what exit 3 would have said
                frame = traceback.extract_tb(e.__traceback__)[-1]
                out["internal"].append(
                    f"region {k + 1} {config}: {type(e).__name__}: {e} ({Path(frame.filename).name}:{frame.lineno})"
                )
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="corpus files (default: all of tests/test_corpus.py's)")
    parser.add_argument("--cap", type=int, default=3000, help="configurations a region at most (covering array first)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    files = [Path(f).resolve() for f in args.files] or [
        p for p in FILES if _id(p) not in REFUSED and p.name not in INPUTS
    ]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    start = time.perf_counter()
    internal, configs, refused = [], 0, 0
    with multiprocessing.Pool(args.jobs) as pool:
        # each file from its own folder: includes and init files are found beside it
        for result in pool.imap_unordered(_sweep_in_place, [(str(p), args.cap) for p in files]):
            configs += result["configs"]
            refused += result["refused"]
            line = f"{result['file']}: {result['configs']} configurations, {result['refused']} refused"
            line += f", sampled ({'; '.join(result['sampled'])})" if result["sampled"] else ""
            line += f", not loaded: {result['load']}" if "load" in result else ""
            print(line, flush=True)
            for text in result["internal"]:
                print(f"  INTERNAL ERROR {text}", flush=True)
            internal += [f"{result['file']}: {text}" for text in result["internal"]]
    seconds = time.perf_counter() - start
    append(
        "sweep.json",
        {
            "commit": commit,
            "files": len(files),
            "configurations": configs,
            "refused": refused,
            "internal_errors": len(internal),
            "first_errors": internal[:10],
            "cap": args.cap,
            "seconds": round(seconds, 1),
        },
    )
    print(
        f"sweep: {configs} configurations of {len(files)} files, {refused} refused by code generation, "
        f"{len(internal)} internal errors, {seconds:.0f} s; recorded in bench/results/sweep.json"
    )
    return 1 if internal else 0


def _sweep_in_place(task: tuple[str, int]) -> dict:
    import os

    path = Path(task[0])
    os.chdir(path.parent)
    result = _sweep((path.name, task[1]))
    result["file"] = str(path.relative_to(ROOT))
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
