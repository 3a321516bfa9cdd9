"""orcu's tuned code beside PPCG's on the 23 PolyBench scops, on one GPU (issue 61).

bench/gpu_all.py's ``polybench`` step. Both sides are timed as the same program: PolyBench/C
4.2.1's own main at the LARGE dataset (its init_array, its timer around the kernel function:
device allocations, transfers and kernels), with the kernel function PPCG wrote (its CUDA of
every scop, kept in bench/ppcg/OPTION/ by bench_ppcg.py --emit on a CPU machine; each of its
options: default, 16 and 32 square tiles, the best being PPCG's figure) or the one orcu's
tuned file defines (the scop of tests/polybench_scops/, tuned on the GPU at the MEDIUM
dataset, every variant checked against the C code as written; its choices then run at
LARGE). Each program calls the kernel function CALLS times and keeps the best; the kernels
alone are timed by the same CUDA events on both sides (bench/gpu/launch_timing.h: before the
first launch of a call and after each launch), the CUDA context made and every module loaded
before the timer starts. The first call's results (PolyBench's dump) are compared between the
two sides: orcu's program at LARGE must agree with PPCG's to ``AGREE``.

The dry run (no GPU) builds both sides' programs, tunes in orcu's CPU emulation, and runs
orcu's program at MINI in the emulation against PolyBench's own (``emulated_check``).

Each scop's row is saved as it finishes (``polybench.json``), so that a run cut off goes on
where it stopped (the dumps stay in OUT/dumps/).
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_ppcg import KERNELS, OPTIONS, _scop_file, _sizes

PPCG = Path(__file__).resolve().parent / "ppcg"
POLYBENCH = PPCG / "polybench"
TIMING = Path(__file__).resolve().parent / "gpu" / "launch_timing.h"
CALLS = 3  # of the kernel function per run (ORCU_BENCH_CALLS)
# PPCG's floyd-warshall launches a kernel n(2n - 1) times (15.7 million at LARGE, 55 s a call on
# the H200): one call, and PPCG's default option only, its options differing in the block's size alone
ONE_CALL = {"floyd.c": ("default",)}
TUNE_DATASET = "MEDIUM"  # where orcu's tune checks every variant against the C code (cheap there)
AGREE = 1e-6  # the largest difference of the two sides' results, over the largest magnitude of PPCG's
# Scops whose results on PolyBench's data two right programs need not share: timed, not compared.
# gramschmidt: N > M at every dataset and a rank-deficient init, so its columns past the rank are
# rounding noise that any other order of its sums changes (orcu's emulated program at MINI
# differs by 0.94 of the largest magnitude on random data too, by 1.6e-15 with M = 40 > N = 30).
UNCOMPARED = {"gramschmidt.c": "its results past the matrix's rank are rounding noise (N > M, a rank-deficient init)"}
# The scops whose tune costs most go last, where a run cut off leaves them: seconds of the dry
# run's tune (emulation, budget 6 a loop, the CI-class machine), a proxy for nvcc's builds on the GPU.
COST_S = {"3mm.c": 44, "gemver.c": 38, "doitgen.c": 37, "heat3d.c": 33, "2mm.c": 32, "correlation.c": 25}


def _parameters(text: str, function: str) -> tuple[int, int]:
    """Where the parameters of ``function``'s definition start and end in C ``text``."""
    match = re.search(rf"void\s+{function}\s*\(", text)
    if match is None:
        raise ValueError(f"no definition of {function}")
    depth, k = 1, match.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        k += 1
    return match.end(), k - 1


def timed_main(text: str) -> str:
    """PolyBench's main with its timed call made ORCU_BENCH_CALLS times (CALLS unless set), the
    kernels' events reported after each, and the first call's results dumped (PolyBench's
    print_array) where ORCU_BENCH_DUMP is set, in place of the dump after the last."""
    timed = re.search(r"( *)/\* Start timer\. \*/.*?polybench_print_instruments;", text, re.S)
    dce = re.search(r"[ \t]*polybench_prevent_dce\((.*?)\);\n", text, re.S)
    if timed is None or dce is None or dce.start() < timed.end():
        raise ValueError("no timed call followed by a dump in main")
    pad = timed.group(1)
    loop = (
        f"{pad}orcu_bench_warm();\n"
        f'{pad}const char *orcu_bench_calls = getenv("ORCU_BENCH_CALLS");\n'
        f"{pad}for (int orcu_bench_call = 0; orcu_bench_call < (orcu_bench_calls ? atoi(orcu_bench_calls) : {CALLS}); "
        "orcu_bench_call++) {\n"
        f"{timed.group(0)}\n"
        f"{pad}orcu_bench_report();\n"
        f'{pad}if (orcu_bench_call == 0 && getenv("ORCU_BENCH_DUMP"))\n'
        f"{pad}  {dce.group(1)};\n"
        f"{pad}}}\n"
    )
    return text[: timed.start()] + loop + text[timed.end() : dce.start()] + text[dce.end() :]


def ppcg_host(host: str) -> str:
    """PPCG's host file timed as orcu's is: the events around every launch, main's calls."""
    text = re.sub(
        r"^(\s*)(\w+ <<<[^;]*>>> \([^;]*\);)",
        r"\1{ orcu_bench_begin(0); \2 orcu_bench_end(0); }",
        host,
        flags=re.M,
    )
    if "orcu_bench_begin" not in text:
        raise ValueError("no kernel launch in PPCG's host file")
    # PolyBench's utilities are C, the host file C++
    text = text.replace("#include <polybench.h>", 'extern "C" {\n#include <polybench.h>\n}', 1)
    return '#include "launch_timing.h"\n' + timed_main(text)


def orcu_driver(source: str, function: str, prototype: str) -> str:
    """PolyBench's program (C) calling orcu's tuned ``function`` (``prototype``: its parameters
    as PolyBench declares them) in place of its own, which stays, unused, under another name."""
    begin, end = _parameters(source, function)
    name = source.rindex(function, 0, begin)
    text = source[:name] + f"{function}_as_written" + source[name + len(function) :]
    main = text.index("int main(")
    declarations = (
        f"void {function}({prototype});  /* orcu's tuned file defines it */\n"
        "void orcu_bench_warm(void);\nvoid orcu_bench_report(void);\n\n"
    )
    return "#include <stdlib.h>\n" + timed_main(text[:main] + declarations + text[main:])


def _header(name: str, folder: Path) -> None:
    """The kernel's PolyBench header in ``folder``, its dump printing every digit that tells two
    results apart (PolyBench prints two decimals)."""
    header = POLYBENCH / Path(KERNELS[name]).with_suffix(".h")
    text = header.read_text().replace('"%0.2lf "', '"%.12g "').replace('"%0.2f "', '"%.8g "')
    (folder / header.name).write_text(text)


def build(folder: Path, sources: list[Path], arch: str) -> Path | str:
    """A PolyBench program of ``sources`` at LARGE (its executable), or why not."""
    exe = folder / "program"
    command = [
        shutil.which("nvcc") or "nvcc",
        "-O3",
        f"-arch={arch}",
        "-w",
        "-DLARGE_DATASET",
        "-DPOLYBENCH_TIME",
        "-DPOLYBENCH_DUMP_ARRAYS",
        "-I",
        str(folder),
        "-I",
        str(POLYBENCH / "utilities"),
        *map(str, sources),
        str(POLYBENCH / "utilities" / "polybench.c"),
        "-o",
        str(exe),
        "-lm",
    ]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    return exe if proc.returncode == 0 else proc.stderr.strip()[-1500:]


def build_ppcg(name: str, option: str, scratch: Path, arch: str) -> Path | str:
    """PPCG's program of kernel ``name`` under ``option``, or why not."""
    stem = Path(KERNELS[name]).stem  # PPCG's files are named by PolyBench's
    folder = scratch / "ppcg" / option / stem
    folder.mkdir(parents=True, exist_ok=True)
    kept = PPCG / option
    (folder / "host.cu").write_text(ppcg_host((kept / f"{stem}_host.cu").read_text()))
    for suffix in ("_kernel.cu", "_kernel.hu"):
        shutil.copy(kept / f"{stem}{suffix}", folder / f"{stem}{suffix}")
    shutil.copy(TIMING, folder)
    _header(name, folder)
    return build(folder, [folder / "host.cu", folder / f"{stem}_kernel.cu"], arch)


def _orcu_folder(name: str, tuned: Path, folder: Path) -> None:
    """PolyBench's program of kernel ``name`` around orcu's ``tuned`` file, in ``folder``:
    driver.c (PolyBench's source calling the tuned kernel function) and tuned.cu."""
    folder.mkdir(parents=True, exist_ok=True)
    source = (POLYBENCH / KERNELS[name]).read_text()
    function = re.search(r"void\s+(kernel_\w+)\s*\(", tuned.read_text()).group(1)
    begin, end = _parameters(source, function)
    (folder / "driver.c").write_text(orcu_driver(source, function, source[begin:end]))
    (folder / "tuned.cu").write_text(tuned.read_text())
    header = tuned.with_suffix(".h")
    if header.exists():
        shutil.copy(header, folder / header.name)
    _header(name, folder)


def build_orcu(name: str, tuned: Path, scratch: Path, arch: str) -> Path | str:
    """PolyBench's program of kernel ``name`` calling the kernel function of orcu's ``tuned`` file."""
    folder = scratch / "orcu" / Path(KERNELS[name]).stem
    _orcu_folder(name, tuned, folder)
    (folder / "tuned.cu").write_text('#include "launch_timing.h"\n' + tuned.read_text())
    shutil.copy(TIMING, folder)
    return build(folder, [folder / "tuned.cu", folder / "driver.c"], arch)


# The timing functions PolyBench's program calls, where no GPU times anything (orcu's emulation).
_NO_TIMING = """#include <stdio.h>
void orcu_bench_warm(void) {}
void orcu_bench_report(void) {}
"""


def emulated_check(name: str, tuned: Path, scratch: Path) -> dict:
    """orcu's tuned kernel function in PolyBench's program at the MINI dataset, run in orcu's CPU
    emulation, against PolyBench's program as shipped on the same data: the largest difference
    of their results and whether they agree, or why neither ran. What the dry run checks in
    place of the GPU's comparison with PPCG."""
    from orcu.execution.toolchain import emulation_include

    folder = scratch / "emulated" / Path(KERNELS[name]).stem
    _orcu_folder(name, tuned, folder)
    shipped = folder / "shipped.c"
    shipped.write_text("#include <stdlib.h>\n" + timed_main((POLYBENCH / KERNELS[name]).read_text()))
    (folder / "timing.c").write_text(_NO_TIMING)
    c_flags = ["-O1", "-w", "-DMINI_DATASET", "-DPOLYBENCH_TIME", "-DPOLYBENCH_DUMP_ARRAYS", "-I", str(folder)]
    c_flags += ["-I", str(POLYBENCH / "utilities")]
    steps = [
        ["g++", "-x", "c++", "-std=c++17", "-O1", "-w", "-I", str(emulation_include()), "-I", str(folder)]
        + ["-c", "tuned.cu", "-o", "tuned.o"],
        ["gcc", *c_flags, "-c", "driver.c", "-o", "driver.o"],
        ["gcc", *c_flags, "-c", "timing.c", "-o", "timing.o"],
        ["gcc", *c_flags, "-c", str(POLYBENCH / "utilities" / "polybench.c"), "-o", "polybench.o"],
        ["g++", "driver.o", "tuned.o", "timing.o", "polybench.o", "-o", "orcu", "-lm", "-lpthread"],
        [
            "gcc",
            *c_flags,
            "shipped.c",
            "timing.c",
            str(POLYBENCH / "utilities" / "polybench.c"),
            "-o",
            "shipped",
            "-lm",
        ],
    ]
    for command in steps:
        proc = subprocess.run(command, capture_output=True, text=True, cwd=folder)
        if proc.returncode != 0:
            return {"emulated_error": proc.stderr.strip()[-1500:]}
    env = {"ORCU_BENCH_CALLS": "1", "ORCU_BENCH_DUMP": "1"}
    runs = [
        subprocess.run([str(folder / exe)], capture_output=True, text=True, env=env, timeout=600)
        for exe in ("orcu", "shipped")
    ]
    if any(r.returncode != 0 for r in runs):
        return {"emulated_error": next(r.stderr for r in runs if r.returncode != 0).strip()[-1500:]}
    worst = difference(dumped(runs[0].stderr), dumped(runs[1].stderr))
    return {"emulated_difference": worst, "emulated_agrees": None if name in UNCOMPARED else worst <= AGREE}


def run_program(exe: Path, env: dict, calls: int, dump: Path | None) -> dict:
    """One run: the best of its calls' whole time and kernels' time (ms), its launches a call;
    the first call's results written to ``dump``."""
    extra = {"CUDA_MODULE_LOADING": "EAGER", "ORCU_BENCH_CALLS": str(calls)}
    if dump is not None:
        extra["ORCU_BENCH_DUMP"] = "1"
    try:
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60 + 60 * calls, env={**env, **extra})
    except subprocess.TimeoutExpired as e:
        return {"error": f"over {e.timeout:.0f} s"}
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip()[-800:]}
    whole = [1000 * float(x) for x in proc.stdout.split()]
    kernels = re.findall(r"orcu-bench kernels_ms (\S+) launches (\d+)", proc.stderr)
    if dump is not None:
        dump.write_text(proc.stderr)
    return {
        "whole_ms": min(whole) if whole else None,
        "kernels_ms": min(float(ms) for ms, _ in kernels) if kernels else None,
        "launches": int(kernels[0][1]) if kernels else None,
        "calls": len(whole),
    }


def dumped(text: str) -> dict[str, list[float]]:
    """The arrays of PolyBench's dump, by name."""
    return {
        name: [float(x) for x in values.split()]
        for name, values in re.findall(r"begin dump: (\w+)(.*?)end   dump: \1", text, re.S)
    }


def difference(ours: dict[str, list[float]], theirs: dict[str, list[float]]) -> float:
    """The largest difference between the two sides' arrays over the largest magnitude of
    PPCG's (inf where an array is missing, differs in length, or one side has NaN the other has not)."""
    if not theirs or ours.keys() != theirs.keys():
        return math.inf
    worst = 0.0
    for name, values in theirs.items():
        mine = ours[name]
        if len(mine) != len(values):
            return math.inf
        scale = max((abs(v) for v in values if math.isfinite(v)), default=0.0) or 1.0
        for a, b in zip(mine, values):
            if math.isnan(a) or math.isnan(b):
                if math.isnan(a) != math.isnan(b):
                    return math.inf
                continue
            worst = max(worst, abs(a - b) / scale)
    return worst


def options_of(name: str, best: dict[str, str]) -> tuple[str, ...]:
    """PPCG's options a run times for kernel ``name``: the one ``best`` names for it (an earlier
    run's best on the device), else all of them (floyd-warshall's default alone)."""
    if name in ONE_CALL:
        return ONE_CALL[name]
    return (best[name],) if name in best else tuple(OPTIONS)


def ppcg_side(run, done: dict, names: list[str], best: dict[str, str]) -> None:
    """Every kernel under its options built side by side, then run one at a time, each
    kernel's row saved as it finishes (``done["ppcg"]``); the first option's results dumped."""
    arch = "sm_90" if run.dry else "native"
    jobs = [(n, o) for n in names if n not in done["ppcg"] for o in options_of(n, best)]
    with ThreadPoolExecutor(max_workers=16) as pool:
        built = dict(zip(jobs, pool.map(lambda j: build_ppcg(j[0], j[1], run.scratch, arch), jobs)))
    for name in dict.fromkeys(n for n, _ in jobs):
        row: dict = {}
        for k, option in enumerate(options_of(name, best)):
            exe = built[name, option]
            if not isinstance(exe, Path):
                row[option] = {"error": exe}
            elif run.dry:
                row[option] = {"built": True}
            else:
                dump = _dump(run, "ppcg", name) if k == 0 else None
                row[option] = run_program(exe, run.env, 1 if name in ONE_CALL else CALLS, dump)
        timed = [(v["kernels_ms"], o) for o, v in row.items() if v.get("kernels_ms")]
        if timed:
            row["best"] = min(timed)[1]
        done["ppcg"][name] = row
        run.save("polybench.json", done)
        print(f"polybench: PPCG's {name}: {row}", flush=True)


def _dump(run, side: str, name: str) -> Path:
    folder = run.out / "dumps"
    folder.mkdir(exist_ok=True)
    return folder / f"{side}_{Path(name).stem}.txt"


def tune_inputs(name: str, dataset: str) -> tuple[Path, dict[str, int], int]:
    """orcu's scop file of kernel ``name``, PolyBench's sizes of ``dataset`` for its input
    parameters, and its number of loops tuned apart (each gets its share of a tune's budget)."""
    from orcu.planning.program import load

    path = _scop_file(name)
    program = load(path)
    sizes = _sizes(POLYBENCH, KERNELS[name], dataset)
    return path, {p.name: sizes[p.name] for p in program.spec.input_params if p.name in sizes}, len(program.nests)


def orcu_side(run, name: str, budget_per_loop: int) -> dict:
    """orcu tuned on the run's backend at TUNE_DATASET (the emulation: at the spec's sizes), its
    tuned file run as PolyBench's program at LARGE and its results compared with PPCG's."""
    path, sizes, loops = tune_inputs(name, TUNE_DATASET)
    if run.dry:
        sizes = {}
    start = time.perf_counter()
    tuned = run.scratch / "tuned" / f"{Path(name).stem}.tuned.cu"
    tuned.parent.mkdir(exist_ok=True)
    code, summary, stderr = run.tune(path, sizes, budget_per_loop * loops, tuned, extra=("--search", "TSG"))
    row: dict = {"tune_exit": code, "tune_s": round(time.perf_counter() - start, 1), "tuned_at": sizes}
    if code != 0 or not summary:
        row["stderr"] = stderr
        return row
    row["loops"] = [
        {"name": r["name"], "statuses": r["statuses"], "params": r["best"]["params"] if r["best"] else None}
        for r in summary["regions"]
    ]
    exe = build_orcu(name, tuned, run.scratch, "sm_90" if run.dry else "native")
    if not isinstance(exe, Path):
        row["error"] = exe
        return row
    row["built"] = True
    if name in UNCOMPARED:
        row["not_compared"] = UNCOMPARED[name]
    if run.dry:
        row.update(emulated_check(name, tuned, run.scratch))
        return row
    dump = _dump(run, "orcu", name)
    row.update(run_program(exe, run.env, 1 if name in ONE_CALL else CALLS, dump))
    theirs = _dump(run, "ppcg", name)
    if dump.exists() and theirs.exists():
        row["difference"] = difference(dumped(dump.read_text()), dumped(theirs.read_text()))
        row["agrees"] = None if name in UNCOMPARED else row["difference"] <= AGREE
    return row


def ratios(done: dict) -> dict:
    """PPCG's best time over orcu's per scop (> 1: orcu faster), kernels alone and whole, and
    their geometric means over the scops measured on both sides whose results agree (or are
    not compared: UNCOMPARED)."""
    rows = {}
    for name, ours in done["orcu"].items():
        theirs = done["ppcg"].get(name, {})
        best = theirs.get(theirs.get("best", ""), {})
        row = {}
        for what in ("kernels_ms", "whole_ms"):
            if (ours.get("agrees") or name in UNCOMPARED) and ours.get(what) and best.get(what):
                row[what.replace("_ms", "")] = round(best[what] / ours[what], 3)
        rows[name] = row
    means = {}
    for what in ("kernels", "whole"):
        values = [r[what] for r in rows.values() if what in r]
        if values:
            means[what] = {
                "geomean": round(math.exp(sum(map(math.log, values)) / len(values)), 3),
                "scops": len(values),
                "slower_than_ppcg": sorted(n for n, r in rows.items() if r.get(what, 1) < 1),
            }
    return {"per_scop": rows, "means": means}


def step(run, budget_per_loop: int = 6) -> bool:
    done = run.load("polybench.json", {"facts": run.facts, "dataset": "LARGE", "ppcg": {}, "orcu": {}})
    names = sorted(run.scops or KERNELS, key=lambda n: (COST_S.get(n, 0), n))
    best = {}
    if run.ppcg_best is not None:  # an earlier run's best options on the device: those alone
        done["ppcg_options_from"] = str(run.ppcg_best)
        best = {n: row["best"] for n, row in json.loads(run.ppcg_best.read_text())["ppcg"].items() if "best" in row}
    ppcg_side(run, done, names, best)
    for name in names:
        if name in done["orcu"]:
            continue
        done["orcu"][name] = orcu_side(run, name, budget_per_loop)
        done.update(ratios(done))
        run.save("polybench.json", done)
        row = done["orcu"][name]
        print(
            f"polybench {name}: tune exit {row['tune_exit']}, {row['tune_s']} s, {done['per_scop'][name]}", flush=True
        )
    wrong = [
        n
        for n, r in done["orcu"].items()
        if r["tune_exit"] != 0
        or "error" in r
        or "emulated_error" in r
        or False in (r.get("agrees"), r.get("emulated_agrees"))
    ]
    done["not_clean"] = wrong
    run.save("polybench.json", done)
    return not wrong and all(
        "error" not in v for row in done["ppcg"].values() for v in row.values() if isinstance(v, dict)
    )
