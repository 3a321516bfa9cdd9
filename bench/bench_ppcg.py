"""Whole scops: orcu's schedule beside PPCG's, kernel by kernel, on PolyBench/C 4.2.1.

Run: python3 bench/bench_ppcg.py POLYBENCH_DIR [--ppcg PATH] [--dataset LARGE] [--record]
(--record appends to bench/results/ppcg.json; --table prints its newest figures of each scop as
bench/README's table); with --emit DIR it only keeps PPCG's CUDA of
every kernel under each of OPTIONS, for a GPU machine to time beside orcu's (bench/ppcg/).
PPCG is optional (it is built from source, about 15 minutes); without it only orcu's side is
recorded. For each kernel: PPCG's kernels (grid and block sizes, arrays in shared memory,
launches inside host loops) and the time it took, and orcu's for the same scop as
tests/polybench_scops/ writes it (one
``transform CUDA(mapping='auto')``): the schedule, each kernel's loops, its mapping
candidates and its shared-memory candidates, and the time ``orcu check`` took.

Static traffic (``tsg/traffic.py``: bytes of global memory the kernel requests, 32-byte
sectors, before any cache) at PolyBench's sizes of the dataset, for each orcu kernel that
PPCG also makes (the same arrays written): orcu's pick (of every configuration of the
kernel's own parameters, the least time orcu's model predicts on the H100 profile) beside
PPCG's choices as orcu's space writes them (the same grid axes, the same arrays in shared
memory, PPCG's tile over its block as register tiles, PPCG's tile of the sequential loop as
the strip depth, PPCG's threads a block as threadCount, which orcu shapes with up to 32
along x: PPCG's 16 x 32 runs as 32 x 16), both counted by the same code; orcu's pick is at
the scop's own threadCount (orcu's default).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from orcu.codegen.region import generate
from orcu.device import DEFAULT_PROFILE, profile
from orcu.driver.preflight import limits
from orcu.execution.model import of_variant
from orcu.frontend.ir import statements
from orcu.planning.program import load
from orcu.planning.space import performance_space

ROOT = Path(__file__).resolve().parent.parent
SCOPS = ROOT / "tests" / "polybench_scops"
SHAPES = ROOT / "tests" / "polybench_shapes"  # doitgen and floyd-warshall: already one transform before the scop
# orcu's file -> PolyBench's
KERNELS = {
    "2mm.c": "linear-algebra/kernels/2mm/2mm.c",
    "3mm.c": "linear-algebra/kernels/3mm/3mm.c",
    "atax.c": "linear-algebra/kernels/atax/atax.c",
    "bicg.c": "linear-algebra/kernels/bicg/bicg.c",
    "doitgen.c": "linear-algebra/kernels/doitgen/doitgen.c",
    "mvt.c": "linear-algebra/kernels/mvt/mvt.c",
    "gemm.c": "linear-algebra/blas/gemm/gemm.c",
    "gemver.c": "linear-algebra/blas/gemver/gemver.c",
    "gesummv.c": "linear-algebra/blas/gesummv/gesummv.c",
    "symm.c": "linear-algebra/blas/symm/symm.c",
    "syr2k.c": "linear-algebra/blas/syr2k/syr2k.c",
    "syrk.c": "linear-algebra/blas/syrk/syrk.c",
    "trmm.c": "linear-algebra/blas/trmm/trmm.c",
    "gramschmidt.c": "linear-algebra/solvers/gramschmidt/gramschmidt.c",
    "lu.c": "linear-algebra/solvers/lu/lu.c",
    "correlation.c": "datamining/correlation/correlation.c",
    "covariance.c": "datamining/covariance/covariance.c",
    "floyd.c": "medley/floyd-warshall/floyd-warshall.c",
    "heat3d.c": "stencils/heat-3d/heat-3d.c",
    "jacobi1d.c": "stencils/jacobi-1d/jacobi-1d.c",
    "jacobi2d.c": "stencils/jacobi-2d/jacobi-2d.c",
    "seidel2d.c": "stencils/seidel-2d/seidel-2d.c",
    "fdtd2d.c": "stencils/fdtd-2d/fdtd-2d.c",
}
PPCG_LIMIT_S = 60  # heat-3d takes about 12 minutes in isl's scheduler under PPCG
# PPCG's options compared on a GPU (issue 61): its default tiles and square tiles of 16 and 32;
# the best of the three is PPCG's figure.
OPTIONS = {"default": (), "tile16": ("--tile-size=16",), "tile32": ("--tile-size=32",)}


def orcu_side(name: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / name).write_text(_scop_file(name).read_text())
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "orcu", "check", name, "--json"],
            cwd=tmp,
            capture_output=True,
            text=True,
            env={"ORCU_HOME": str(Path(tmp) / "home"), "PATH": "/usr/bin:/bin"},
        )
        seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"check_s": round(seconds, 2), "refused": proc.stderr.strip().splitlines()[0]}
    summary = json.loads(proc.stdout)
    schedule = summary["schedules"][0] if summary["schedules"] else None
    kernels = []
    for r in summary["regions"]:
        shared = sorted(
            {
                p["name"].split("_")[1]
                for p in summary["performance_params"]
                if p["name"].startswith("shared_")
                and p["name"].endswith(f"_{r['name'].rsplit('_', 1)[1]}")
                and p["name"].count("_") == 2
            }
        )
        kernels.append(
            {"loops": [lp["var"] for lp in r["loops"]], "mapping": r["mapping"], "shared_candidates": shared}
        )
    return {
        "check_s": round(seconds, 2),
        "schedule": schedule["how"] if schedule else "one nest, as written",
        "kernels": kernels,
    }


def _sizes(polybench: Path, path: str, dataset: str) -> dict[str, int]:
    """PolyBench's sizes of the dataset, by the names orcu's files give them (lower case)."""
    header = (polybench / path).with_suffix(".h").read_text()
    block = header.split(f"#  ifdef {dataset}_DATASET", 1)[1].split("#  endif", 1)[0]
    return {name.lower(): int(value) for name, value in re.findall(r"#\s*define (\w+) (\d+)", block)}


def _scop_file(name: str) -> Path:
    return (SCOPS / name) if (SCOPS / name).exists() else SHAPES / name


def traffic_side(name: str, sizes: dict[str, int], ppcg: list[dict]) -> list[dict]:
    """Per orcu kernel matched to one of PPCG's: the static bytes of orcu's pick and of PPCG's
    choices in orcu's space."""
    with tempfile.TemporaryDirectory() as tmp:
        return _traffic_rows(name, sizes, ppcg, Path(tmp))


def _traffic_rows(name: str, sizes: dict[str, int], ppcg: list[dict], tmp: Path) -> list[dict]:
    program = _program(name, sizes, tmp)
    inputs = {p.name: sizes.get(p.name, p.values[0]) for p in program.spec.input_params}
    taken: set[int] = set()
    rows = []
    # the kernels in the most loops first (a product before the reset of its output: atax's y)
    for k, nest in sorted(enumerate(program.nests), key=lambda kn: -max(len(lps) for _, lps in statements(kn[1].body))):
        written = sorted({a.array for st, _ in statements(nest.body) for a in st.accesses if a.write})
        match = _match(ppcg, taken, written, {a.array for st, _ in statements(nest.body) for a in st.accesses})
        matches = [match] if match is not None else _fused_match(ppcg, taken, written)
        if not matches:
            continue
        taken.update(matches)
        theirs = ppcg[matches[0]]
        scored, mine = _scored(program, k, inputs)
        if not scored:
            continue
        best = min(scored, key=lambda s: (s[0], s[1]))
        # PPCG's choices with its block's threads (orcu shapes them, up to 32 along x)
        at_theirs = _program(name, sizes, tmp, math.prod(theirs["block_dims"]))
        wanted = _as_orcu(theirs, _params(at_theirs, k, inputs)[1])
        same = _scored(at_theirs, k, inputs, wanted)[0]
        lacking = [a for a in theirs["shared"] if f"shared_{a}_{k + 1}" not in {p.name for p in mine}]
        row = {
            "kernel": nest.name,
            "writes": written,
            "orcu_pick": best[2],
            "orcu_bytes": best[1],
            "orcu_predicted_ms": round(best[0], 4),
            "ppcg": theirs,
            "ppcg_in_orcu": {"threadCount": math.prod(theirs["block_dims"]), **wanted},
            # PPCG's shared arrays that orcu's space does not offer for the kernel (its placements differ)
            "ppcg_shared_not_offered": lacking,
            # PPCG's kernels whose work orcu's kernel fuses (their writes together its): PPCG's choices are
            # the first one's on orcu's fused kernel, fewer bytes than its kernels move, each reading what they share
            "ppcg_kernels": len(matches),
        }
        if same:
            row["ppcg_bytes"] = min(s[1] for s in same)
            row["ppcg_predicted_ms"] = round(min(s[0] for s in same), 4)
        rows.append(row)
    return sorted(rows, key=lambda r: r["kernel"])


def _program(name: str, sizes: dict[str, int], tmp: Path, threads: int | None = None):
    """The scop of ``name`` at PolyBench's ``sizes``, loaded from a file in ``tmp``; with
    ``threads``, its transform's threadCount (else orcu's default)."""
    text = _scop_file(name).read_text()
    for param, value in sizes.items():
        text = re.sub(rf"param {param}\[\] = \[[^]]*\];", f"param {param}[] = [{value}];", text)
    if threads is not None:
        text = text.replace("transform CUDA(mapping='auto'", f"transform CUDA(mapping='auto', threadCount={threads}", 1)
    path = tmp / (f"t{threads}_" if threads else "") / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return load(path)


def _scored(program, k: int, inputs: dict, wanted: dict | None = None) -> tuple[list[tuple[float, int, dict]], list]:
    """(the model's time and the static bytes of each configuration of kernel ``k``'s own
    parameters that can be built and holds the ``wanted`` values, with those values; the
    parameters), at the H100 profile."""
    device, (space, mine) = profile(DEFAULT_PROFILE), _params(program, k, inputs)
    base, nest = space.config(0), program.nests[k]
    scored = []
    for combo in itertools.product(*(p.values for p in mine)):
        config = {**base, **{p.name: v for p, v in zip(mine, combo)}}
        if any(config[n] != v for n, v in (wanted or {}).items()):
            continue
        try:
            space.index(config)
        except (KeyError, ValueError):
            continue  # a configuration that cannot be built
        traffic = generate(program, nest, config, inputs).traffic(device.multiprocessors)
        prediction = of_variant(program, k, traffic, inputs, device)
        if traffic is not None and prediction is not None:
            scored.append((prediction.ms, traffic.bytes, {p.name: config[p.name] for p in mine}))
    return scored, mine


def _params(program, k: int, inputs: dict):
    """(the space of the program at ``inputs`` on the H100 profile, kernel ``k``'s own parameters)."""
    device = profile(DEFAULT_PROFILE)
    space = performance_space(program, inputs, limits(program, k, inputs, device).constraints)
    return space, [p for p in space.params if p.name.endswith(f"_{k + 1}")]


def _match(ppcg: list[dict], taken: set[int], written: list[str], arrays: set[str]) -> int | None:
    """PPCG's kernel for an orcu kernel: one not matched yet that writes the same arrays and, of
    those, touches the most of the same arrays (covariance's product, not the kernel that zeroes
    its output: both write cov, only the product reads data)."""
    same = [j for j, kernel in enumerate(ppcg) if j not in taken and kernel["writes"] == written]
    return max(
        same, key=lambda j: (len(arrays & set(ppcg[j]["arrays"])), -len(arrays ^ set(ppcg[j]["arrays"]))), default=None
    )


def _fused_match(ppcg: list[dict], taken: set[int], written: list[str]) -> list[int]:
    """PPCG's kernels for an orcu kernel that fuses the work of several (fdtd-2d's ey and ex
    sweeps): those not matched yet that write only arrays the orcu kernel writes, each a
    different set, together all of them; none where they do not add up."""
    found = [
        j
        for j, kernel in enumerate(ppcg)
        if j not in taken and kernel["writes"] and set(kernel["writes"]) <= set(written)
    ]
    union = [a for j in found for a in ppcg[j]["writes"]]
    return found if len(found) > 1 and sorted(union) == sorted(written) else []


def _as_orcu(theirs: dict, params) -> dict:
    """PPCG's choices as values of orcu's parameters of the kernel: the mapping of as many grid
    axes (orcu's first such candidate), its arrays in shared memory, PPCG's tile over its block
    along each axis as register tiles, and the tile of its sequential loop as the strip."""
    by_name = {p.name.rsplit("_", 1)[0]: p for p in params}
    axes = len(theirs["block_dims"])
    out = {}
    mapping = by_name.get("mapping")
    if mapping is not None:
        fitting = [m for m in mapping.values if len(m.split()) == axes and "(threads)" not in m]
        if fitting:
            out[mapping.name] = fitting[0]
            loops = {axis.split("=")[0]: axis.split("=")[1] for axis in fitting[0].split()}
            tiles = theirs["tile"]
            for axis, block in zip("xy", theirs["block_dims"]):
                if axis in loops and f"registers_{loops[axis]}" in by_name and tiles:
                    # PPCG's tile sizes run outer band member first: y's tile, then x's
                    tile = tiles[0] if (axis == "y" or axes == 1) else tiles[1]
                    out[by_name[f"registers_{loops[axis]}"].name] = max(1, tile // block)
            if "sharedDepth" in by_name and len(tiles) > axes:
                out[by_name["sharedDepth"].name] = tiles[axes]
    for key, p in by_name.items():
        if key.startswith("shared_"):
            out[p.name] = key[len("shared_") :] in theirs["shared"]
    if "sharedDepth" in by_name and not any(out[p.name] for key, p in by_name.items() if key.startswith("shared_")):
        # no strip without a shared tile: orcu's space holds such a kernel at the default depth only
        out.pop(by_name["sharedDepth"].name, None)
    return out


def ppcg_side(
    ppcg: str,
    polybench: Path,
    path: str,
    dataset: str,
    options: tuple[str, ...] = (),
    limit: float = PPCG_LIMIT_S,
    keep: Path | None = None,
) -> dict:
    """PPCG's kernels for one PolyBench file (``options``: PPCG's, such as --tile-size=16), and
    the seconds it took; ``keep``: a directory that takes the CUDA it wrote."""
    source = polybench / path
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        command = [ppcg, "--target=cuda", "--dump-sizes", *options, "-I", str(polybench / "utilities")]
        try:
            proc = subprocess.run(
                [*command, f"-D{dataset}_DATASET", str(source)],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=limit,
            )
        except subprocess.TimeoutExpired:
            return {"ppcg_s": f"> {limit:g}"}
        seconds = time.perf_counter() - t0
        stem = source.stem
        host = (Path(tmp) / f"{stem}_host.cu").read_text() if (Path(tmp) / f"{stem}_host.cu").exists() else ""
        kernel = (Path(tmp) / f"{stem}_kernel.cu").read_text() if (Path(tmp) / f"{stem}_kernel.cu").exists() else ""
        if keep is not None and host:
            keep.mkdir(parents=True, exist_ok=True)
            for written in Path(tmp).glob(f"{stem}_*"):
                shutil.copy(written, keep / written.name)
            (keep / f"{stem}.sizes").write_text(proc.stderr)  # --dump-sizes: its tiles, grids and blocks
    if proc.returncode != 0 or not host:
        return {"ppcg_s": round(seconds, 2), "error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}
    return {"ppcg_s": round(seconds, 2), "kernels": kernels_of(host, kernel, proc.stderr)}


def kernels_of(host: str, kernel: str, sizes: str) -> list[dict]:
    """PPCG's kernels, from its host and kernel files and its --dump-sizes output: the arrays each
    writes and touches, its tile, block and grid, its shared arrays, whether a host loop holds it."""
    # --dump-sizes: one union of tile sizes per number of tile dimensions, each naming its kernels
    groups = re.findall(r"kernel\[i0\] -> tile\[[^]]*\] : ([^;}]*)", sizes)
    kernels = []
    for k, body in re.findall(r"__global__ void kernel(\d+)\((.*?)\n}\n", kernel, re.S):
        signature, code = body.split(")", 1)
        params = set(re.findall(r"\w+", signature))
        block = re.search(rf"dim3 k{k}_dimBlock\(([^;]*)\);", host)
        grid = re.search(rf"dim3 k{k}_dimGrid\(([^;]*)\);", host)
        launch = host.find(f"kernel{k} <<<")
        tile = next((m for g in groups if (m := re.search(rf"\bi0 = {k} and ([^)]*)", g))), None)
        kernels.append(
            {
                "writes": sorted(
                    {
                        w
                        for w in re.findall(r"\b(\w+)\[[^;=]*\]\s*[-+*/]?=[^=]", body)
                        if not w.startswith(("private_", "shared_"))
                    }
                ),
                "arrays": sorted({_array(a, params) for a in re.findall(r"\b(\w+)\[", code)}),
                "tile": [int(v) for v in re.findall(r"o\d+ = (\d+)", tile.group(1))] if tile else [],
                "block_dims": [int(v) for v in block.group(1).split(",")] if block else [],  # x first
                "block": block.group(1) if block else None,
                "grid": grid.group(1) if grid else None,
                "shared": sorted({_array(a, params) for a in re.findall(r"__shared__ \w+ (shared_\w+)\[", body)}),
                "in_host_loop": _in_host_loop(host, launch),
            }
        )
    return kernels


def _array(name: str, params: set[str]) -> str:
    """The kernel's array behind a name its body uses: shared_data_0 and private_cov are copies of
    data and cov (PPCG numbers a second tile of one array)."""
    name = re.sub(r"^(private|shared)_", "", name)
    base = re.sub(r"_\d+$", "", name)
    return base if name not in params and base in params else name


def _in_host_loop(host: str, launch: int) -> bool:
    """Whether the launch sits inside a 'for' of the host code (a time loop or a wavefront)."""
    if launch < 0:
        return False
    for start in (m.start() for m in re.finditer(r"for \(", host[:launch])):
        brace = host.find("{", start)
        if 0 <= brace < launch and _closing(host, brace) > launch:
            return True
    return False


def _closing(text: str, brace: int) -> int:
    depth = 0
    for k in range(brace, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def _version(ppcg: str) -> str:
    proc = subprocess.run([ppcg, "--version"], capture_output=True, text=True)
    return " ".join((proc.stdout + proc.stderr).split())


def emit(ppcg: str, polybench: Path, dataset: str, out: Path, limit: float, names: list[str]) -> None:
    """PPCG's CUDA of every kernel under each of OPTIONS, for a GPU machine (which has no PPCG)
    to build and time beside orcu's: DIR/OPTION/<kernel>_host.cu, _kernel.cu and _kernel.hu
    (with <kernel>.sizes, its --dump-sizes), and DIR/manifest.json with PPCG's version, the
    options, the dataset and each run's outcome. ``names``: these kernels only, the manifest's
    other runs kept (heat-3d takes PPCG's scheduler about 12 minutes an option)."""
    kept = out / "manifest.json"
    runs = json.loads(kept.read_text())["runs"] if names and kept.exists() else {}
    for name, path in KERNELS.items():
        if names and name not in names:
            continue
        for option, flags in OPTIONS.items():
            found = ppcg_side(ppcg, polybench, path, dataset, flags, limit, out / option)
            runs.setdefault(name, {})[option] = {
                "source": path,
                "ppcg_s": found["ppcg_s"],
                "kernels": len(found.get("kernels", [])),
                **({"error": found["error"]} if "error" in found else {}),
            }
            print(f"{name:16} {option:8} {runs[name][option]}")
    manifest = {
        "date": str(date.today()),
        "machine": f"{platform.machine()}, CPython {platform.python_version()}",
        "ppcg": _version(ppcg),
        "command": f"ppcg --target=cuda --dump-sizes OPTIONS -I utilities -D{dataset}_DATASET SOURCE",
        "options": {option: list(flags) for option, flags in OPTIONS.items()},
        "dataset": dataset,
        "runs": {name: runs[name] for name in KERNELS if name in runs},
    }
    out.mkdir(parents=True, exist_ok=True)
    kept.write_text(json.dumps(manifest, indent=1) + "\n")


def _commit() -> str:
    """The checkout's commit, with "+" where its tracked files differ from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode != 0
    return head.stdout.strip() + ("+" if dirty else "") if head.returncode == 0 else "unknown"


def _recorded() -> tuple[dict[str, dict], str | None]:
    """PPCG's side of each kernel from the newest record of bench/results/ppcg.json that holds
    it (PPCG's output is the same for the same version and PolyBench), and that PPCG's version."""
    history = json.loads((ROOT / "bench" / "results" / "ppcg.json").read_text())
    found: dict[str, dict] = {}
    version = None
    for record in reversed(history):
        for row in record["rows"]:
            if "ppcg" in row and row["kernel"] not in found:
                found[row["kernel"]] = row["ppcg"]
                version = version or record.get("ppcg")
    return found, version


def table(history: list[dict]) -> str:
    """The static traffic of each scop's kernels from the newest record of ``history`` holding
    them, as a Markdown table (MB requested and the model's predicted ms, each side), then the
    model's geometric mean of PPCG's choices' time over orcu's pick's and the picks that request
    more bytes than PPCG's choices."""
    newest: dict[str, tuple[dict, dict]] = {}
    for record in history:
        for row in record["rows"]:
            if row.get("traffic"):
                newest[row["kernel"]] = (record, row)
    lines = [
        "| scop | orcu kernels / PPCG's | kernel | orcu's pick (MB; ms) | PPCG's choices (MB; ms) | recorded |",
        "|---|---|---|---|---|---|",
    ]
    ratios, more = [], []
    for name in KERNELS:
        if name not in newest:
            continue
        record, row = newest[name]
        counts = f"{len(row['orcu'].get('kernels', []))} / {len(row.get('ppcg', {}).get('kernels', []))}"
        when = record["date"] + (f", {record['commit']}" if "commit" in record else "")
        for t in row["traffic"]:
            ours = f"{t['orcu_bytes'] / 1e6:.2f}; {t['orcu_predicted_ms']}"
            theirs = "not in orcu's space"
            if "ppcg_bytes" in t:
                theirs = f"{t['ppcg_bytes'] / 1e6:.2f}; {t['ppcg_predicted_ms']}"
                ratios.append(t["ppcg_predicted_ms"] / t["orcu_predicted_ms"])
                if t["orcu_bytes"] > t["ppcg_bytes"]:
                    more.append(t["kernel"])
            lines.append(f"| {name.removesuffix('.c')} | {counts} | {t['kernel']} | {ours} | {theirs} | {when} |")
    mean = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    lines += [
        "",
        f"{len(ratios)} kernels with both sides: PPCG's choices predicted at a geometric mean of {mean:.2f}x"
        f" orcu's pick's time (least {min(ratios, default=float('nan')):.2f}x); picks requesting more bytes"
        f" than PPCG's choices: {', '.join(more) or 'none'}.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("polybench", type=Path, nargs="?", help="PolyBench/C 4.2.1's directory")
    parser.add_argument(
        "--table",
        action="store_true",
        help="only print bench/results/ppcg.json's newest figures as bench/README's table",
    )
    parser.add_argument("--ppcg", help="PPCG's executable (built by its own instructions)")
    parser.add_argument(
        "--dataset", default="LARGE", help="PolyBench's dataset (sizes) for PPCG and the traffic figures"
    )
    parser.add_argument("--record", action="store_true", help="append the figures to bench/results/ppcg.json")
    parser.add_argument(
        "--emit",
        type=Path,
        metavar="DIR",
        help="instead, keep PPCG's CUDA of every kernel under each of OPTIONS in DIR/OPTION/ (DIR/manifest.json says how)",
    )
    parser.add_argument("--limit", type=float, default=PPCG_LIMIT_S, help="seconds PPCG may take a kernel")
    parser.add_argument(
        "--ppcg-recorded",
        action="store_true",
        help="without --ppcg: PPCG's side of each kernel from the newest record of bench/results/ppcg.json holding it",
    )
    parser.add_argument("--kernels", nargs="+", default=[], metavar="FILE", help="only these (2mm.c ...)")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads((ROOT / "bench" / "results" / "ppcg.json").read_text())))
        return
    if args.polybench is None:
        parser.error("give PolyBench/C 4.2.1's directory")
    if args.emit:
        if not args.ppcg:
            parser.error("--emit runs PPCG: give --ppcg")
        emit(args.ppcg, args.polybench, args.dataset, args.emit, args.limit, args.kernels)
        return
    rows = []
    recorded, version = _recorded() if args.ppcg_recorded and not args.ppcg else ({}, None)
    for name, path in KERNELS.items():
        if args.kernels and name not in args.kernels:
            continue
        row = {"kernel": name, "orcu": orcu_side(name)}
        if args.ppcg:
            row["ppcg"] = ppcg_side(args.ppcg, args.polybench, path, args.dataset, limit=args.limit)
        elif name in recorded:
            row["ppcg"] = recorded[name]
        if row.get("ppcg", {}).get("kernels") and "kernels" in row["orcu"]:
            row["traffic"] = traffic_side(name, _sizes(args.polybench, path, args.dataset), row["ppcg"]["kernels"])
        rows.append(row)
        ours, theirs = row["orcu"], row.get("ppcg", {})
        print(
            f"{name:16} orcu: {len(ours.get('kernels', []))} kernel(s) in {ours['check_s']} s"
            f" ({ours.get('schedule') or ours.get('refused')}); "
            f"ppcg: {len(theirs.get('kernels', []))} kernel(s) in {theirs.get('ppcg_s', '-')} s"
        )
        for t in row.get("traffic", []):
            theirs_bytes = t.get("ppcg_bytes")
            print(
                f"    {t['kernel']:24} orcu's pick {t['orcu_bytes'] / 1e6:10.2f} MB  PPCG's choices "
                + (f"{theirs_bytes / 1e6:10.2f} MB" if theirs_bytes is not None else "not in orcu's space")
            )
    if args.record:
        out = ROOT / "bench" / "results" / "ppcg.json"
        history = json.loads(out.read_text()) if out.exists() else []
        history.append(
            {
                "date": str(date.today()),
                "commit": _commit(),
                "machine": f"{platform.machine()}, CPython {platform.python_version()}",
                "dataset": args.dataset,
                "ppcg": _version(args.ppcg) if args.ppcg else version,
                **({"ppcg_from": "the newest earlier record holding each kernel"} if recorded else {}),
                "rows": rows,
            }
        )
        out.write_text(json.dumps(history, indent=1) + "\n")


if __name__ == "__main__":
    main()
