"""Results in the auto-tuning community's T4 format (the Open Autotuning Results Schema 1.0.0,
which Kernel Tuner writes): out of the results database, and into it.

A T4 results file is a list of configurations, each with its parameter values, its run times,
why it is invalid ("compile", "runtime", "timeout", "correctness", "constraints") or
"correct", and named measurements with units; a metadata file beside it describes the machine.
orcu writes one pair per region, input size and device (a file's regions and sizes would
otherwise share one list of configurations), and names in the metadata what the results belong
to, so that ``orcu import --format t4`` finds the region again. A file another tool wrote
(Kernel Tuner's ``store_output_file``) is matched to a region the user names, configuration by
configuration, against the region's space; a configuration outside it is left out.

Imported results guide a later tune (it evaluates nothing it already has) but never win
unchecked: a contender for the winner runs in orcu's harness first (orcu/driver/tuning.py).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import statistics
from collections.abc import Mapping
from importlib import metadata as package_metadata
from pathlib import Path
from typing import Any

from orcu.errors import UsageError
from orcu.execution.backends import backend as backend_of
from orcu.execution.result import RANKED, Result
from orcu.spec.objectives import BUILTIN
from orcu.version import __version__

SCHEMA_VERSION = "1.0.0"
INVALIDITY = {
    "ok": "correct",
    "predicted": "correct",
    "compile_error": "compile",
    "launch_error": "runtime",
    "crash": "runtime",
    "timeout": "timeout",
    "wrong_result": "correctness",
    "invalid": "constraints",
}
STATUS = {
    "correct": "ok",
    "compile": "compile_error",
    "runtime": "crash",
    "timeout": "timeout",
    "correctness": "wrong_result",
    "constraints": "invalid",
}
# Kernel Tuner's NVML observer names what orcu's harness measures so
ENERGY_NAMES = {"energy_j": ("energy_j", "nvml_energy"), "power_w": ("power_w", "nvml_power")}
TIME_UNITS = {"milliseconds": 1.0, "ms": 1.0, "seconds": 1e3, "s": 1e3, "microseconds": 1e-3, "us": 1e-3}
REQUIREMENTS = ("pycparser", "Jinja2", "PyYAML", "numpy", "rich", "islpy")


def metadata_path(results: str | os.PathLike[str]) -> Path:
    """Where the metadata of a T4 results file is: ``NAME.metadata.json`` beside ``NAME.json``."""
    results = Path(results)
    return results.with_name(f"{results.stem}.metadata.json")


# -- out ------------------------------------------------------------------------------------------


def documents(
    rows: list[dict[str, Any]], chosen: Mapping[tuple, tuple[str, Any]], objectives: Mapping[tuple, str]
) -> list[tuple[tuple, dict[str, Any], dict[str, Any]]]:
    """(group, results document, metadata document) per region, input size and device of
    ``rows`` (the database's); ``chosen``: report.chosen's measure per group; ``objectives``: the
    objective each group's last tune ranked by ("time" where none is known)."""
    from orcu.driver.report import _groups

    out = []
    for key, group in _groups(rows).items():
        file, region, inputs, backend, device = key
        measure = chosen[key][0]
        objective = objectives.get(key, "time")
        results = [_result(row, measure, objective) for row in group if row["status"] != "predicted"]
        first = group[0]
        described = {
            "file": file,
            "region": region,
            "line": first["line"],
            "inputs": json.loads(inputs),
            "backend": backend,
            "device": device,
            "compiler": first["compiler"],
            "measure": measure,
            "objective": objective,
            "orcu": __version__,
        }
        out.append(
            (
                key,
                {"schema_version": SCHEMA_VERSION, "results": results, "metadata": {"timeunit": "milliseconds"}},
                {
                    "schema_version": SCHEMA_VERSION,
                    "metadata": {
                        "hardware": {
                            "operating_system": platform.system() or "unidentified OS",
                            "hardware_description": [
                                {
                                    "cpu": platform.processor() or platform.machine(),
                                    "gpu": device,
                                    "emulated": backend_of(backend).emulated,
                                }
                            ],
                        },
                        "environment": {
                            "device_query": {"orcu": {"device": device, "backend": backend}},
                            "requirements": _requirements(),
                        },
                        "orcu": described,
                    },
                },
            )
        )
    return out


def _result(row: dict[str, Any], measure: str, objective: str) -> dict[str, Any]:
    samples = row[f"{measure}_ms"] if row["status"] in RANKED else []
    metrics = row.get("metrics") or {}
    measurements = [{"name": "time", "value": statistics.median(samples), "unit": "ms"}] if samples else []
    measurements += [{"name": "measure", "value": measure, "unit": ""}]
    measurements += [
        {"name": name, "value": value, "unit": BUILTIN[name][0] if name in BUILTIN else ""}
        for name, value in metrics.items()
        if name not in ("time_ms", "time_s")
    ]
    if row["message"]:
        measurements.append({"name": "message", "value": row["message"], "unit": ""})
    return {
        "timestamp": row["created"],
        "configuration": row["params"],
        "objectives": [objective],
        "times": {
            "compilation_time": 1e3 * row["compile_s"],
            "runtimes": list(samples),
            "framework": 0.0,
            "search_algorithm": 0.0,
            "validation": 1e3 * row["run_s"],
        },
        "invalidity": INVALIDITY[row["status"]],
        "correctness": 1 if row["status"] in RANKED else 0,
        "measurements": measurements,
    }


def _requirements() -> list[str]:
    out = [f"orcu=={__version__}"]
    for name in REQUIREMENTS:
        with contextlib.suppress(package_metadata.PackageNotFoundError):
            out.append(f"{name}=={package_metadata.version(name)}")
    return out


# -- in -------------------------------------------------------------------------------------------


def read(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the results document, its metadata document or None), checked for what an import reads."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {path}: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise UsageError(f"{path} is not a T4 results file: it has no list of results")
    major = str(data.get("schema_version", "1.0.0")).split(".")[0]
    if major != SCHEMA_VERSION.split(".")[0]:
        raise UsageError(f"{path} is T4 schema {data.get('schema_version')}; orcu reads {SCHEMA_VERSION}")
    for k, r in enumerate(data["results"]):
        if (
            not isinstance(r, dict)
            or not isinstance(r.get("configuration"), dict)
            or r.get("invalidity") not in (*STATUS, None)
        ):
            raise UsageError(
                f"{path}: result {k} has no configuration or an unknown invalidity {r.get('invalidity')!r}"
            )
    meta_file = metadata_path(path)
    described = None
    if meta_file.exists():
        try:
            described = json.loads(meta_file.read_text())
        except ValueError as e:
            raise UsageError(f"cannot read {meta_file}: {e}") from None
    return data, described


def result_of(
    entry: Mapping[str, Any], params: dict[str, Any], inputs: dict[str, Any], scale: float, origin: str
) -> Result | None:
    """One T4 result as orcu's: its status from its invalidity, its runtimes (``scale``: to
    milliseconds) as samples of the measure it names (kernel time where it names none), the
    energy it measured; None for orcu's model predictions, which are not measurements."""
    status = STATUS[entry.get("invalidity") or "correct"]
    found = {m.get("name"): m.get("value") for m in entry.get("measurements", []) if isinstance(m, dict)}
    samples = [scale * float(t) for t in (entry.get("times") or {}).get("runtimes") or [] if _number(t)]
    if not samples and _number(found.get("time")):
        samples = [scale * float(found["time"])]
    if status == "ok" and not samples:
        status, message = "invalid", "the T4 result has no runtime"
    else:
        message = str(found.get("message", "")) or (f"imported ({entry.get('invalidity')})" if status != "ok" else "")
    measure = found.get("measure") if found.get("measure") in ("kernel", "total") else "kernel"
    if found.get("measure") == "model":  # orcu's prediction: never a measurement a tune could reuse
        return None
    measured = {name: float(found[n]) for name, names in ENERGY_NAMES.items() for n in names if _number(found.get(n))}
    compile_ms = (
        (entry.get("times") or {}).get("compilation_time") or (entry.get("times") or {}).get("compilation") or 0.0
    )
    return Result(
        status,
        params,
        inputs,
        samples if measure == "kernel" else [],
        samples if measure == "total" else [],
        message,
        compile_s=float(compile_ms) / 1e3 if _number(compile_ms) else 0.0,
        measure=measure,
        measured=measured or None,
        origin=origin,
    )


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def time_scale(data: Mapping[str, Any]) -> float:
    """Milliseconds per unit of the file's runtimes (its metadata's timeunit; Kernel Tuner writes
    milliseconds)."""
    unit = str((data.get("metadata") or {}).get("timeunit") or "milliseconds").lower()
    if unit not in TIME_UNITS:
        raise UsageError(f"unknown timeunit '{unit}' in the T4 results (known: {', '.join(TIME_UNITS)})")
    return TIME_UNITS[unit]


def matching(config: Mapping[str, Any], names: list[str], configs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The configuration of the region's space whose ``names`` have the values of a T4
    configuration (a number written as text, or an int as a float, is the same value)."""
    for candidate in configs:
        if all(_same(candidate[n], config[n]) for n in names):
            return candidate
    return None


def _same(ours: Any, theirs: Any) -> bool:
    if ours == theirs and type(ours) is not bool or ours is theirs:
        return True
    if isinstance(ours, (int, float)) and not isinstance(ours, bool):
        try:
            return float(theirs) == float(ours)
        except (TypeError, ValueError):
            return False
    return str(ours) == str(theirs)
