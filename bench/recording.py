"""Appending one run's figures to a benchmark's history in bench/results/, with the day and the machine."""
from __future__ import annotations

import json
import os
import platform
from datetime import date
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def append(name: str, figures: dict) -> None:
    out = RESULTS / name
    runs = json.loads(out.read_text()) if out.exists() else []
    runs.append({"date": date.today().isoformat(),
                 "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}", **figures})
    out.write_text(json.dumps(runs, indent=2) + "\n")
