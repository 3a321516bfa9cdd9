"""Kernel Tuner's cache format: read recorded spaces (for replay) and write orcu's results.

A cache is JSON (optionally gzipped) with ``tune_params_keys``, ``tune_params`` (the values
of each parameter) and ``cache``: one entry per configuration, keyed by its values joined
with commas, holding the parameters, ``time`` in ms (or an error string) and ``times``.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from orcu.search.space import Point, SearchSpace


def read_cache(path: str | Path) -> tuple[SearchSpace, dict[Point, float]]:
    """The recorded space and each point's time (math.inf where the configuration failed)."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        data = json.load(f)
    names = data["tune_params_keys"]
    values = [data["tune_params"][n] for n in names]
    entries = list(data["cache"].values())
    space = SearchSpace.from_configs(names, values, entries)
    cost = {}
    for point, entry in zip(space.points, space.configs):
        t = entry.get("time")
        cost[point] = float(t) if isinstance(t, (int, float)) and math.isfinite(t) else math.inf
    return space, cost


def cache_document(
    kernel: str,
    device: str,
    names: list[str],
    values: dict[str, list[Any]],
    results: Iterable[dict[str, Any]],
    measure: str = "kernel",
) -> dict[str, Any]:
    """A Kernel Tuner cache of orcu results: dicts with ``params``, ``status``, ``kernel_ms`` and
    ``total_ms`` (and the database's ``compile_s``, ``run_s``, ``created``, where present);
    ``measure`` says which samples are Kernel Tuner's times. Each entry has the timings Kernel
    Tuner's own caches record, in milliseconds, so that its tools (its T4 writer) read it."""
    cache = {}
    for r in results:
        key = ",".join(str(r["params"][n]) for n in names)
        entry = {n: r["params"][n] for n in names}
        times = r[f"{measure}_ms"]
        if r["status"] == "ok" and times:
            entry.update(time=sum(times) / len(times), times=times)
        else:
            entry.update(time=_KT_ERRORS.get(r["status"], "RuntimeFailedConfig"), times=[])
        entry.update(
            compile_time=1e3 * r.get("compile_s", 0.0),
            verification_time=0,
            benchmark_time=1e3 * r.get("run_s", 0.0),
            strategy_time=0,
            framework_time=0,
        )
        if r.get("created"):
            entry["timestamp"] = r["created"]
        cache[key] = entry
    return {
        "device_name": device,
        "kernel_name": kernel,
        "tune_params_keys": names,
        "tune_params": values,
        "objective": "time",
        "cache": cache,
    }


# Kernel Tuner's names for a configuration that could not be measured.
_KT_ERRORS = {"compile_error": "CompilationFailedConfig", "invalid": "InvalidConfig"}
