"""Every configuration of the spaces the test suite covers pair by pair (the tests marked
whole_space: every TSG example's space at a size no tile divides and at one they all divide,
tests/test_tsg_placement.py; double-buffered fills at edge sizes; C as written and C99
kernels), built and checked in orcu's emulation. Run it before a change to code generation
lands; it appends its date, commit, outcome and time to bench/results/validate_all.json.

    python3 bench/validate_all.py [pytest arguments, e.g. -x]

About 1,900 variants at each size of the TSG examples and over a thousand more: an hour or more on two
cores."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from recording import append

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    # the commit that runs, read before the run: a commit made meanwhile is not what was checked
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "whole_space", *argv],
        cwd=ROOT,
        env=dict(os.environ, ORCU_VALIDATE_ALL="1"),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    print(proc.stdout[-4000:], proc.stderr[-2000:], sep="")
    summary = next(
        (line.strip("= ") for line in reversed(proc.stdout.splitlines()) if re.search(r"\d+ (passed|failed)", line)), ""
    )
    append(
        "validate_all.json",
        {
            "commit": commit + ("+changes" if dirty else ""),
            "passed": proc.returncode == 0,
            "summary": summary,
            "seconds": round(seconds, 1),
            **({"arguments": argv} if argv else {}),  # a part of the spaces (-k ...): say which
        },
    )
    print(
        f"validate_all: {'passed' if proc.returncode == 0 else 'FAILED'} ({summary}) in {seconds:.0f} s; "
        "recorded in bench/results/validate_all.json"
    )
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
