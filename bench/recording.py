"""Appending one run's figures to a benchmark's history in bench/results/, with the day and the machine."""

from __future__ import annotations

import fcntl
import json
import os
import platform
from datetime import date
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def append(name: str, figures: dict) -> None:
    out = RESULTS / name
    # locked: benchmarks run side by side (one process a kernel on a GPU lent for minutes) append
    # to the same history, and a read-modify-write unlocked would lose one of them
    with open(RESULTS / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runs = json.loads(out.read_text()) if out.exists() else []
        runs.append(
            {
                "date": date.today().isoformat(),
                "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
                **figures,
            }
        )
        out.write_text(json.dumps(runs, indent=2) + "\n")
