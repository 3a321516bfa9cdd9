"""What ``orcu check`` reports about a loaded program: plain data, then text."""

from __future__ import annotations

import csv
import json
import math
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from orcu.analysis.poly import dependences
from orcu.driver.preflight import Limits, preflight
from orcu.execution.backends import backend as backend_of
from orcu.execution.result import MEASURE_NAMES, RANKED
from orcu.frontend.ir import Loop, c_text
from orcu.planning.program import Program
from orcu.planning.space import input_space, performance_space, settings_text


def _values_text(values: tuple, limit: int = 8) -> str:
    shown = [repr(v) if isinstance(v, str) else str(v) for v in values]
    if len(shown) > limit:
        shown = shown[: limit - 2] + ["...", shown[-1]]
    return ", ".join(shown)


def summary(program: Program, device=None) -> dict[str, Any]:
    """What check reports, after the checks tune makes before it builds (preflight);
    ``device``: whose limits the regions' spaces are pruned to. A file of several PerfTuning
    regions has the first's spec at the top and each one's under "specs"."""
    checked = preflight(program, device)
    parts = [_spec_part(program.of_nest(program.nests_of(g)[0])) for g in range(len(program.specs))]
    out = {
        "file": program.src.path,
        "spec": program.spec_kind,
        **parts[0],
        "loop_regions": len(program.regions),  # annotations; "regions" are their transformed loops
        "host_loops": [line for host in program.hosts for line in host.left],  # loops no transform names
        "regions": [_region(program, k, checked[k]) for k in range(len(program.nests))],
        # Loop regions whose one transform took the whole scop (tsg/scop.py): the schedule chosen
        "schedules": [_schedule(program, r) for r, host in enumerate(program.hosts) if host.schedule is not None],
        # ... and those where it did not, with why (the transform applies to the loop after it)
        "unscheduled": [
            {"line": program.src.location(program.regions[r].start).line, "why": host.unscheduled}
            for r, host in enumerate(program.hosts)
            if host.unscheduled
        ],
        # of each region, those that can be built (the rest are left out before the search)
        "buildable_variants": [sum(m.of - m.removed for m in per_input) for per_input in checked],
    }
    if len(parts) > 1:
        out["specs"] = [
            {"line": program.src.location(r.start).line, "regions": program.nests_of(g), **part}
            for g, (r, part) in enumerate(zip(program.spec_regions, parts))
        ]
    return out


def _schedule(program: Program, r: int) -> dict[str, Any]:
    scheduled = program.hosts[r].schedule
    return {
        "line": program.src.location(program.regions[r].start).line,
        "how": scheduled.how,
        "tried": list(scheduled.tried),
        "tree": scheduled.tree,
        "kernels": [
            {"name": f"orcu_{program.nests[k].name}", "line": program.nests[k].loc.line} for k in program.hosts[r].nests
        ],
        "host": list(scheduled.host),
    }


def _spec_part(program: Program) -> dict[str, Any]:
    """One spec's parameters, spaces, inputs and search."""
    spec = program.spec
    inputs = input_space(program)
    input_configs = list(inputs.configs())
    # Performance constraints may read input parameters: then each input size has its own space.
    depends = any(c.expr.names & set(spec.input_names) for c in spec.performance_constraints)
    per_input = [performance_space(program, cfg) for cfg in (input_configs if depends else input_configs[:1] or [{}])]
    perf = per_input[0] if per_input else performance_space(program, {})
    return {
        "performance_params": [_param(p) for p in spec.performance_params],
        "performance_constraints": [
            {"name": c.name, "expr": c.expr.text.strip()} for c in spec.performance_constraints
        ],
        "space": {
            "raw": perf.raw_size,
            "constrained": perf.size,
            **({"per_input": [s.size for s in per_input]} if depends else {}),
        },
        "input_params": [_param(p) for p in spec.input_params],
        "input_constraints": [{"name": c.name, "expr": c.expr.text.strip()} for c in spec.input_constraints],
        "input_space": {"raw": inputs.raw_size, "constrained": inputs.size, "combinations": input_configs},
        "total_variants": sum(s.size for s in per_input) if depends else perf.size * inputs.size,
        "input_vars": [
            {
                "name": d.name,
                "type": d.ctype,
                "storage": d.storage,
                "dims": [e.text.strip() for e in d.dims],
                "init": d.init if d.init_expr is None else f"{d.init}: {d.init_expr.text.strip()}",
            }
            for d in spec.input_vars
        ],
        "search": {
            "algorithm": spec.search_algorithm,
            **{k: a.value for k, a in spec.search.items() if k != "algorithm"},
        },
        "repetitions": spec.repetitions,
        "build_command": spec.build_command,
    }


def _param(p) -> dict[str, Any]:
    return {"name": p.name, "values": list(p.values), "count": len(p.values), "line": p.loc.line}


def _region(program: Program, k: int, limits: list[Limits]) -> dict[str, Any]:
    program = program.of_nest(k)
    nest = program.nests[k]
    loops = []

    def walk(nodes, depth):
        for n in nodes:
            if isinstance(n, Loop):
                loops.append(
                    {
                        "depth": depth,
                        "var": n.var,
                        "lower": c_text(n.lower),
                        "upper": c_text(n.upper),
                        "step": n.step,
                        "line": n.loc.line,
                    }
                )
                walk(n.body, depth + 1)

    walk(nest.body, 0)
    orio = loops[0]["var"] if nest.recipe is None and loops else None  # Orio's mapping: its loop on the threads
    atomics = (nest.deps or dependences(nest)).kernel_atomics(orio)
    return {
        "name": f"orcu_{nest.name}",  # as tune, report and the tuned file name it
        "spec": program.groups[k] if program.groups else 0,  # which of "specs" tunes it
        "line": nest.loc.line,
        "col": nest.loc.col,
        "function": nest.function,
        "transform": {name: e.text.strip() for name, e in nest.transform.args.items()},
        "variables": [
            {"name": v.name, "type": str(v.ctype), "kind": v.kind, "origin": v.origin} for v in nest.variables.values()
        ],
        "loops": loops,
        "nest": nest.explain(),
        "limits": [{"removed": m.removed, "of": m.of, "reasons": m.reasons} for m in limits],
        "recipe": nest.recipe.explain() if nest.recipe is not None else None,
        "mapping": [c.schedule.name for c in nest.recipe.candidates if c.pruned is None]
        if nest.recipe is not None
        else None,
        "atomics": sorted(({"text": st.text, "line": st.loc.line} for st in atomics), key=lambda a: a["line"]),
    }


def check_text(s: dict[str, Any], explain: bool = False) -> str:
    loops = f" ({len(s['regions'])} transformed loops)" if len(s["regions"]) != s["loop_regions"] else ""
    out = [f"{s['file']}: {s['loop_regions']} Loop region(s){loops}; spec: {s['spec'] or 'none'}"]
    specs = s.get("specs", [{**s, "regions": list(range(len(s["regions"])))}])
    for part in specs:
        if len(specs) > 1:
            names = ", ".join(s["regions"][k]["name"] for k in part["regions"])
            out.append(f"PerfTuning region at line {part['line']} (tunes {names}):")
        out += _spec_lines(s, part)
    for line in s["host_loops"]:
        out.append(
            f"host loop at line {line}: no 'transform CUDA(...)' names it or a loop inside it, so it runs on the "
            "host as written, between the kernels"
        )
    for sch in s.get("schedules", []):
        kernels = ", ".join(f"{k['name']} (line {k['line']})" for k in sch["kernels"])
        out.append(
            f"Loop region at line {sch['line']}: one transform for the whole scop; schedule: {sch['how']}; "
            f"kernels: {kernels}"
        )
        if explain:
            out.extend(f"  not {t}" for t in sch["tried"])
            out.append("  schedule tree:")
            out.extend("    " + line for line in sch["tree"].splitlines())
            out.extend(f"  on the host: {h}" for h in sch["host"])
    if explain:
        for u in s.get("unscheduled", []):
            out.append(
                f"Loop region at line {u['line']}: one transform before the region, no schedule of the whole: "
                f"{u['why']}; the transform applies to the loop after it"
            )
    for r in s["regions"]:
        out += _region_lines(r, specs, explain)
    return "\n".join(out)


def _spec_lines(s: dict[str, Any], part: dict[str, Any]) -> list[str]:
    """One PerfTuning region's parameters, spaces, variants and input variables."""
    out: list[str] = []

    def params(title, ps, cs, size):
        out.append(f"{title} ({len(ps)}):")
        width = max((len(p["name"]) for p in ps), default=0)
        for p in ps:
            out.append(f"  {p['name']:<{width}}  {p['count']:>5} value(s): {_values_text(tuple(p['values']))}")
        for c in cs:
            out.append(f"  constraint {c['name']}: {c['expr']}")
        out.append(f"  space: {size['constrained']} point(s), {size['raw']} before constraints")

    params("performance parameters", part["performance_params"], part["performance_constraints"], part["space"])
    if "per_input" in part["space"]:
        out.append(f"  per input size: {', '.join(str(n) for n in part['space']['per_input'])}")
    params("input parameters", part["input_params"], part["input_constraints"], part["input_space"])
    for combo in part["input_space"]["combinations"]:
        if combo:
            out.append("    " + " ".join(f"{k}={v}" for k, v in combo.items()))
    # what a tune evaluates at most: the configurations that can be built, of each region
    buildable, total = [s["buildable_variants"][k] for k in part["regions"]], part["total_variants"]
    each = " per region" if len(buildable) > 1 else ""
    counts = (
        f"{total}{each}"
        if all(b == total for b in buildable)
        else (f"{', '.join(str(b) for b in buildable)} of {total}{each}, the rest cannot be built")
    )
    out.append(f"variants to evaluate: {counts} (search: {part['search']['algorithm']})")
    for d in part["input_vars"]:
        dims = "".join(f"[{x}]" for x in d["dims"])
        out.append(
            f"input var: {d['storage'] + ' ' if d['storage'] else ''}{d['type']} {d['name']}{dims} = {d['init']}"
        )
    return out


def _region_lines(r: dict[str, Any], specs: list[dict[str, Any]], explain: bool) -> list[str]:
    """One region: its transform, what cannot be built, its variables, the TSG's mapping, its nest."""
    where = f" in {r['function']}()" if r["function"] else ""
    out = ["", f"region {r['name']} at line {r['line']}{where}"]
    args = ", ".join(f"{k}={v}" for k, v in r["transform"].items()) or "defaults"
    out.append(f"  transform CUDA({args})")
    for m, inputs in zip(r["limits"], specs[r["spec"]]["input_space"]["combinations"] or [{}]):
        if m["removed"]:
            where = f" for {settings_text(inputs)}" if inputs and len(r["limits"]) > 1 else ""
            out.append(
                f"  cannot be built{where}: {m['removed']} of {m['of']} configuration(s) (they break: "
                f"{'; '.join(m['reasons'])})"
            )
    arrays = [v for v in r["variables"] if v["kind"] == "array"]
    scalars = [v for v in r["variables"] if v["kind"] != "array"]
    out.append("  arrays:  " + ", ".join(f"{v['name']}: {v['type']} ({v['origin']})" for v in arrays))
    out.append("  scalars: " + ", ".join(f"{v['name']}: {v['type']} ({v['origin']})" for v in scalars))
    if r["recipe"] is not None:
        out.append(
            f"  TSG mapping: {len(r['mapping'])} candidate(s) kept: "
            + ", ".join(r["mapping"])
            + ("" if explain else " (--explain says why)")
        )
        if explain:
            out.extend("  " + line for line in r["recipe"])
    for a in r["atomics"]:
        out.append(f"  atomicAdd: '{a['text']}' (line {a['line']}), a sum that the threads add to at once")
    out.append("  loop nest:")
    if explain:
        out.extend("    " + line for line in r["nest"].splitlines())
    else:
        out.extend(
            f"    {'  ' * lp['depth']}for {lp['var']} in [{lp['lower']}, {lp['upper']})"
            + (f" step {lp['step']}" if lp["step"] != 1 else "")
            for lp in r["loops"]
        )
    return out


# -- the results database ---------------------------------------------------------------------
def group_key(row: dict[str, Any]) -> tuple:
    """A row's region and input size as measured: file, region, sizes, backend, device."""
    return row["file"], row["region"], json.dumps(row["inputs"], sort_keys=True), row["backend"], row["device"]


def _groups(rows) -> dict[tuple, list[dict[str, Any]]]:
    """Evaluations by file, region, input sizes, backend and device, in order of first evaluation."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(group_key(row), []).append(row)
    return groups


def chosen(db, rows) -> dict[tuple, tuple[str, dict[str, Any] | None]]:
    """Per group of rows: the measure that ranked it and the configuration written, from the last
    choice a tune recorded (the tuned file's); without one, the measure a tune on that backend
    uses by default (the model's prediction without a GPU) and no configuration."""
    out = {}
    for key, group in _groups(rows).items():
        found = [c for digest in {r["context"] for r in group} if (c := db.chosen(digest, key[1], json.loads(key[2])))]
        if found:
            measure, params, _ = max(found, key=lambda c: c[2])
            out[key] = (measure, params)
        else:
            out[key] = (backend_of(key[3]).default_measure, None)
    return out


def _median(samples: list[float]) -> float | None:
    return statistics.median(samples) if samples else None


def _time_words(measure: str, backend: str) -> str:
    """What a measure's time is, in words that never pass an emulated CPU time off as a GPU's."""
    if measure == "model":
        return "predicted GPU kernel time (orcu's performance model)"
    what = "kernel time" if measure == "kernel" else "host function's whole time"
    return backend_of(backend).time_words(what)


def _winner(group, measure: str, params: dict[str, Any] | None):
    """The evaluation the tuned file holds (``params``), else the best by ``measure``."""
    ranked = f"{measure}_ms"
    ok = [r for r in group if r["status"] in RANKED and r[ranked]]
    if params is not None:
        written = [r for r in ok if r["params"] == params]
        if written:
            return written[-1], True
    return (min(ok, key=lambda r: _median(r[ranked])) if ok else None), False


def _shown(path: str) -> str:
    """A file as the user names it: relative to here when it is below, else as stored."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def results_text(rows, chosen_by_group, measure: str | None = None, width: int = 100) -> str:
    """One block per region, input size and device: the winner (the tuned file's, where a tune
    recorded one) and its time by the measure that ranked it, every line within ``width``."""
    import textwrap

    out = []
    groups = _groups(rows)
    for (file, region, inputs, backend, device), group in groups.items():
        written_by, params = chosen_by_group[(file, region, inputs, backend, device)]
        ranked_by = measure or written_by
        best, written = _winner(group, ranked_by, params if ranked_by == written_by else None)
        counts = Counter(r["status"] for r in group)
        sizes = settings_text(json.loads(inputs))
        out.append(f"{_shown(file)}: {region} (line {group[0]['line']})" + (f", {sizes}" if sizes else ""))
        rows_of = [("on", _device_text(backend, device, long=True))]
        if best is None:
            rows_of.append(("winner", f"none ranked by {_time_words(ranked_by, backend)}"))
        else:
            rows_of.append(("winner", settings_text(best["params"]) + (" (in the tuned file)" if written else "")))
            rows_of.append(("time", f"{_median(best[f'{ranked_by}_ms']):.4g} ms, {_time_words(ranked_by, backend)}"))
            achieved = achieved_text(best, ranked_by)
            if achieved:
                rows_of.append(("achieved", achieved))
            if not backend_of(backend).emulated:
                model = model_text(best, group)
                if model:
                    rows_of.append(("model", model))
        rows_of.append(
            (
                "evaluated",
                f"{len(group)}: "
                + ", ".join(f"{n} {s}" for s, n in counts.items())
                + f"; last {max(r['created'] for r in group)[:10]}",
            )
        )
        for name, text in rows_of:
            lines = textwrap.wrap(text, width - 13, break_on_hyphens=False) or [""]
            out.append(f"  {name:<10} {lines[0]}")
            out += [f"  {'':<10} {line}" for line in lines[1:]]
        out.append("")
    count = len(groups)
    out.append(
        f"{count} region{'s' if count != 1 else ''} and size{'s' if count != 1 else ''}; --wide for every "
        "figure in one table, --csv for every evaluation"
    )
    return "\n".join(out)


def results_table(rows, chosen_by_group, measure: str | None = None, stream=None) -> None:
    """Every figure of each group's winner in one wide table (``report --wide``)."""
    from rich.table import Table

    from orcu.driver.progress import print_fitted

    table = Table(title="orcu results")
    for column in (
        "file",
        "region",
        "input",
        "on",
        "evaluated",
        "winner",
        "ranked by",
        "time ms",
        "kernel ms",
        "total ms",
        "predicted ms",
        "GFLOP/s",
        "GB/s",
        "% of bound",
        "last",
    ):
        table.add_column(column, no_wrap=column not in ("winner", "file"))
    for key, group in _groups(rows).items():
        file, region, inputs, backend, device = key
        written_by, params = chosen_by_group[key]
        ranked_by = measure or written_by
        best, written = _winner(group, ranked_by, params if ranked_by == written_by else None)
        emulated = backend_of(backend).emulated
        times = [
            f"{_median(best[k]):.4g}" if best and best[k] else "-"
            for k in (f"{ranked_by}_ms", "kernel_ms", "total_ms", "model_ms")
        ]
        if emulated:  # CPU times of the emulated code: never shown as a GPU's
            times[1:3] = [f"{t} (CPU)" if t != "-" else t for t in times[1:3]]
        counts = Counter(r["status"] for r in group)
        achieved = rates(best, ranked_by) if best else {}
        shown = [f"{achieved[k] * (100 if k == 'bound_fraction' else 1):.4g}" if k in achieved else "-" for k in RATES]
        table.add_row(
            _shown(file),
            region,
            settings_text(json.loads(inputs)) or "-",
            _device_text(backend, device),
            ", ".join(f"{n} {s}" for s, n in counts.items()),
            (settings_text(best["params"]) + (" (tuned file)" if written else "")) if best else "none",
            MEASURE_NAMES[ranked_by],
            *times,
            *shown,
            max(r["created"] for r in group)[:10],
        )
    print_fitted(table, stream or sys.stdout, 240, lambda row: f"{row[1]} of {row[0]}, {row[2]}", 3)


RATES = ("gflop_s", "gb_s", "bound_fraction")


def rates(row: dict[str, Any], measure: str) -> dict[str, float]:
    """GFLOP/s, GB/s and the fraction of the roofline bound of an evaluation at its time by
    ``measure``, from the loop's work its metrics keep (orcu/execution/metrics.py); empty where unknown."""
    from orcu.execution.metrics import rates as at_time

    samples = row.get(f"{measure}_ms") or []
    if row["status"] not in RANKED or not samples:
        return {}
    return at_time(row.get("metrics") or {}, statistics.median(samples))


def model_text(best: dict[str, Any], group: list[dict[str, Any]]) -> str:
    """The performance model's prediction of the GPU-measured winner against its kernel time, and
    how far off its predictions of the group's measured variants typically are."""
    if not best["model_ms"] or not best["kernel_ms"]:
        return ""
    pairs = [(r["model_ms"][0], _median(r["kernel_ms"])) for r in group if r["model_ms"] and r["kernel_ms"]]
    predicted, measured = best["model_ms"][0], _median(best["kernel_ms"])
    text = f"{predicted:.4g} ms predicted, {predicted / measured:.2f} times the kernel time measured"
    if len(pairs) > 1:
        typical = math.exp(math.sqrt(sum(math.log(p / m) ** 2 for p, m in pairs) / len(pairs)))
        text += f"; its {len(pairs)} measured variants' predictions typically {typical:.2f} times off"
    return text


def achieved_text(row: dict[str, Any], measure: str) -> str:
    """The winner's rates, and the other metrics its tune computed (the spec's, energy)."""
    from orcu.spec.objectives import BUILTIN

    found = rates(row, measure)
    parts = []
    if "gflop_s" in found:
        parts.append(f"{found['gflop_s']:.4g} GFLOP/s")
    if "gb_s" in found:
        parts.append(f"{found['gb_s']:.4g} GB/s")
    if "bound_fraction" in found:
        parts.append(
            f"{100 * found['bound_fraction']:.3g}% of the roofline bound ({(row['metrics'] or {})['bound_ms']:.3g} ms)"
        )
    metrics = row.get("metrics") or {}
    parts += [
        f"{name} {value:.4g} {BUILTIN[name][0]}".rstrip()
        for name, value in metrics.items()
        if name in ("energy_j", "power_w", "edp")
    ]
    parts += [f"{name} = {value:.4g}" for name, value in metrics.items() if name not in BUILTIN]
    return ", ".join(parts)


def _device_text(backend: str, device: str, long: bool = False) -> str:
    """``NVIDIA H100 80GB HBM3 (sm_90, emulated on the CPU)`` -> ``H100 80GB HBM3, emulated``."""
    name = device.split(" (")[0].removeprefix("NVIDIA ")
    if long:
        return f"{name}{backend_of(backend).where_long}"
    return f"{name}, {backend_of(backend).adjective}" if backend_of(backend).emulated else name


# total_ms and kernel_ms: the medians of their samples, which follow in their own columns.
CSV_COLUMNS = (
    "file",
    "region",
    "line",
    "inputs",
    "params",
    "status",
    "time_ms",
    "total_ms",
    "kernel_ms",
    "gflop_s",
    "gb_s",
    "bound_fraction",
    "metrics",
    "backend",
    "device",
    "compiler",
    "created",
    "message",
    "total_samples",
    "kernel_samples",
)
_JSON_COLUMNS = ("inputs", "params", "total_samples", "kernel_samples", "metrics")


def csv_row(row: dict[str, Any]) -> dict[str, Any]:
    """An evaluation (a database row) as report --csv's columns: a median time a number, its
    samples a list."""
    metrics = row.get("metrics") or {}
    out = {c: metrics.get(c) if c in RATES else row.get(c) for c in CSV_COLUMNS}
    for kind in ("total", "kernel"):
        samples = list(row.get(f"{kind}_ms") or [])
        out[f"{kind}_ms"], out[f"{kind}_samples"] = _median(samples), samples
    return out


def write_csv(rows, path) -> None:
    """Every evaluation; its rates at its time_ms (the measure its tune ranked by), and in
    ``metrics`` every metric its tune computed."""
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            fields = csv_row(row)
            writer.writerow(
                [
                    json.dumps(fields[c]) if c in _JSON_COLUMNS else "" if fields[c] is None else fields[c]
                    for c in CSV_COLUMNS
                ]
            )


def write_kt_caches(rows, path, measure: str = "kernel") -> list[str]:
    """One Kernel Tuner cache per region and input size: ``path`` itself when there is one."""
    from orcu.driver.ktcache import cache_document

    groups = list(_groups(rows).items())
    written = []
    for k, ((_file, region, inputs, _backend, device), group) in enumerate(groups):
        names = list(group[0]["params"])
        values = {n: list(dict.fromkeys(r["params"][n] for r in group)) for n in names}
        doc = cache_document(region, device, names, values, group, measure)
        doc["problem_size"] = json.loads(inputs)
        target = Path(path) if len(groups) == 1 else Path(path).with_suffix(f".{k + 1}{Path(path).suffix or '.json'}")
        target.write_text(json.dumps(doc, indent=1) + "\n")
        written.append(str(target))
    return written
