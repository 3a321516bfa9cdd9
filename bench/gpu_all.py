"""Everything orcu does that needs a GPU, in one command, in steps of under ten minutes each.

    bench/gpu_all.sh [--step NAME]... [--again] [--dry-run] [--out DIR] [--budget N] [--examples F...] [--cases C...]
                     [--scops S...] [--ppcg-best FILE]

(bench/gpu_all.sh installs orcu first, from the wheels in .whl/ where the machine has no
index; this module is what it runs.) The steps, in order, each writing its results under
bench/results/gpu/ as it finishes, so that a run cut off still leaves what it did:

  tests      the gpu-marked tests (tests.json, tests.log)
  tune       orcu tune --backend cuda on every annotated example at a small budget: every
             variant checked against the original C code, the chosen ones again together, and
             each tuned file compiled by nvcc (tune.json; an example already in it is skipped,
             so a step cut off goes on where it stopped)
  vendor     the GPU benchmarks side by side: BLAS-1 against cuBLAS and the device's copy
             bandwidth, DIA SpMV against cuSPARSE CSR, DGEMV and its transpose against
             cuBLAS, SGEMM and DGEMM against cuBLAS, the TSG's mapping against Orio's on gemm
             and gemv (vendor.json, each case as it finishes)
  polybench  orcu's tuned code beside PPCG's on the 23 PolyBench scops at LARGE, kernels alone
             and with transfers (bench/polybench_gpu.py; polybench.json, each scop as it
             finishes; --scops names some, --ppcg-best keeps PPCG's best options of an
             earlier run)
  calibrate  orcu's performance model against every variant measured above: Spearman per
             kernel and input size, the model's pick against the measured best, the constants
             refitted and written where the model reads them (calibration.json,
             templates/model_calibration.json)
  plots      one plot per benchmark (tune.png, vendor.png, model.png)

Without --step, a run goes on after the last finished step (steps.json); --again starts over.
Every variant of a tune lands in one results database (results.sqlite), which calibrate reads.

--dry-run runs every step's code path without a GPU: orcu's CPU emulation instead of the
GPU, small sizes and budgets, the vendor program compiled but not run (where cuBLAS's headers
are installed) and the refitted constants not written; tests/test_gpu_all.py runs it in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from datetime import datetime, timezone
from pathlib import Path

import bench_model
import polybench_gpu

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"
RESULTS = Path(__file__).resolve().parent / "results" / "gpu"
VENDOR_SOURCE = Path(__file__).resolve().parent / "gpu" / "vendor.cu"
CALIBRATION = ROOT / "templates" / "model_calibration.json"
STEPS = ("tests", "tune", "vendor", "polybench", "calibrate", "plots")

# The vendor comparisons: (name, orcu's example, its input sizes, the vendor case and sizes, what is
# compared, the goal). Sizes are those of the ended issues' goals; gemm is tuned where the CPU's
# reference is affordable for every variant (each run checks against the original C code) and
# its best configurations are then run, checked, at the goal's sizes.
BLAS1 = 1 << 25
SPMV_GRID = 2048
GEMV = 4096
GEMM_TUNED = 1024
GEMM_SIZES = (2048,)


def _cases(dry: bool) -> list[dict]:
    n, grid, gemv, tuned = (4096, 64, 96, 32) if dry else (BLAS1, SPMV_GRID, GEMV, GEMM_TUNED)
    sizes = (48,) if dry else GEMM_SIZES
    cases = [
        {"name": "daxpy", "example": "axpy.c", "inputs": {"n": n}, "vendor": ["daxpy", n], "goal": "cublas"},
        {"name": "sdot", "example": "dot.c", "inputs": {"n": n}, "vendor": ["sdot", n], "goal": "cublas"},
        {"name": "dnrm2", "example": "norm2.c", "inputs": {"n": n}, "vendor": ["dnrm2", n], "goal": "cublas"},
        {"name": "sscal", "example": "vecscale.c", "inputs": {"n": n}, "vendor": ["sscal", n], "goal": "cublas"},
        {
            "name": "dia_spmv",
            "example": "spmv_dia.c",
            "inputs": {"m": grid, "n": grid},
            "vendor": ["csr_spmv", grid],
            "goal": "1.2x",
        },
        {
            "name": "dgemv",
            "example": "gemv.c",
            "inputs": {"n": gemv, "m": gemv},
            "vendor": ["dgemv", gemv, gemv],
            "goal": "cublas",
        },
        # the TSG's mapping against Orio's (the same file with mapping='orio'), each right after the
        # TSG's own case: a call that runs out of time still leaves the pair measured
        {
            "name": "orio_dgemv",
            "example": "gemv.c",
            "inputs": {"n": gemv, "m": gemv},
            "orio": True,
            "goal": "tsg_10x",
            "against": "dgemv",
        },
        {
            "name": "dgemv_t",
            "example": "gemv_t.c",
            "inputs": {"n": gemv, "m": gemv},
            "vendor": ["dgemv_t", gemv, gemv],
            "goal": "cublas",
        },
        {
            "name": "sgemm",
            "example": "sgemm.c",
            "inputs": {"n": tuned},
            "vendor": ["sgemm", tuned],
            "goal": "80%",
            "larger": list(sizes),
        },
        {
            "name": "orio_sgemm",
            "example": "sgemm.c",
            "inputs": {"n": tuned},
            "orio": True,
            "goal": "tsg_10x",
            "against": "sgemm",
        },
        # the float product on the TF32 tensor cores (allowReducedPrecision), against cuBLAS's TF32 math
        {
            "name": "sgemm_tf32",
            "example": "sgemm_tf32.c",
            "inputs": {"n": tuned},
            "vendor": ["sgemm_tf32", tuned],
            "goal": "80%",
            "larger": list(sizes),
        },
        {
            "name": "dgemm",
            "example": "dgemm.c",
            "inputs": {"n": tuned},
            "vendor": ["dgemm", tuned],
            "goal": "report",
            "larger": list(sizes),
        },
    ]
    return cases


def facts(dry: bool) -> dict:
    """The device, driver and CUDA version the figures come from, the date and the commit."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    out = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "commit": commit or "?",
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
    }
    if dry:
        return {
            **out,
            "device": "none (dry run: orcu's CPU emulation)",
            "driver": None,
            "cuda": bench_model.cuda_version(),
        }
    return {**out, **bench_model.gpu_facts()}


class Run:
    """One invocation: where results go, the backend, and the bookkeeping of finished steps."""

    def __init__(
        self,
        out: Path,
        dry: bool,
        budget: int | None,
        examples: list[str] | None,
        cases: list[str] | None = None,
        home: Path | None = None,
        scops: list[str] | None = None,
        ppcg_best: Path | None = None,
    ):
        self.out, self.dry = out.resolve(), dry  # absolute: orcu runs in a scratch folder, with ORCU_HOME under out
        self.home = (home or self.out / "home").resolve()
        self.budget = budget or (2 if dry else 12)
        self.backend = "emulate" if dry else "cuda"
        self.examples, self.cases, self.scops, self.ppcg_best = examples, cases, scops, ppcg_best
        self.out.mkdir(parents=True, exist_ok=True)
        self.scratch = Path(tempfile.mkdtemp(prefix="orcu-gpu-all-"))
        self.env = dict(os.environ, ORCU_HOME=str(self.home))
        self.facts = facts(dry)

    @property
    def database(self) -> Path:
        return self.home / "results.sqlite"

    def load(self, name: str, default):
        path = self.out / name
        return json.loads(path.read_text()) if path.exists() else default

    def save(self, name: str, data) -> None:
        path = self.out / name
        partial = path.with_suffix(path.suffix + ".partial")
        partial.write_text(json.dumps(data, indent=2, default=str) + "\n")
        partial.replace(path)  # a run cut off mid-write leaves the last whole file

    def orcu(self, *arguments: str, timeout: float = 540) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "orcu", *arguments],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=timeout,
            cwd=self.scratch,
        )

    def tune(
        self, path: Path, inputs: dict | None, budget: int, output: Path, extra: tuple[str, ...] = ()
    ) -> tuple[int, dict | None, str]:
        """orcu tune on the run's backend, ranked by the kernels' measured time (also in emulation,
        so that the dry run walks the same path); the exit status, the JSON summary and stderr."""
        command = [
            "tune",
            str(path),
            "--backend",
            self.backend,
            "--measure",
            "kernel",
            "--budget",
            str(budget),
            "--json",
            "-o",
            str(output),
            *extra,
        ]
        for name, value in (inputs or {}).items():
            command += ["--input", f"{name}={value}"]
        proc = self.orcu(*command)
        try:
            summary = json.loads(proc.stdout) if proc.stdout.strip() else None
        except json.JSONDecodeError:
            summary = None
        return proc.returncode, summary, proc.stderr[-3000:]


# -- the steps -----------------------------------------------------------------------------------


def step_tests(run: Run) -> bool:
    xml = run.scratch / "tests.xml"
    start = time.perf_counter()
    # the log is written as pytest goes, so that a run cut off still shows how far it came; the GPU
    # machine's CPUs build the tests' programs side by side (the dry run has nothing to build)
    workers = "0" if run.dry else str(min(6, os.cpu_count() or 1))
    with open(run.out / "tests.log", "w") as log:
        # -v: each test's outcome as it ends, so that a log cut off names its failures (the second
        # H100 run of 2026-11-27 left one F among dots and no summary)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-m",
                "gpu",
                "-v",
                "-p",
                "no:cacheprovider",
                "-n",
                workers,
                f"--junitxml={xml}",
            ],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=500,
        )
    counts = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0}
    failures = []
    if xml.exists():
        for case in ElementTree.parse(xml).getroot().iter("testcase"):
            name = f"{case.get('classname')}::{case.get('name')}"
            if case.find("failure") is not None:
                counts["failed"] += 1
                failures.append(name)
            elif case.find("error") is not None:
                counts["errors"] += 1
                failures.append(name)
            elif case.find("skipped") is not None:
                counts["skipped"] += 1
            else:
                counts["passed"] += 1
    run.save(
        "tests.json",
        {
            **run.facts,
            **counts,
            "failures": failures,
            "exit": proc.returncode,
            "seconds": round(time.perf_counter() - start, 1),
        },
    )
    return proc.returncode in (0, 5)  # 5: nothing collected (no test is marked gpu)


# Examples without a tuning spec take their sizes from the command line, as their headers say.
INPUTS = {"orio/no_spec.c": {"n": 100000}}


def _examples(run: Run) -> list[Path]:
    """The annotated examples, or those named: by file name, or by a path from the repository's
    root for an annotated file elsewhere (the tests' kernels as people write them, say)."""
    found = sorted(EXAMPLES.glob("*.c")) + sorted((EXAMPLES / "orio").glob("*.c"))
    if run.examples:
        found = [p for p in found if p.name in run.examples]
        found += [ROOT / e for e in run.examples if "/" in e and (ROOT / e).is_file()]
    return found


def _name(path: Path) -> str:
    return str(path.relative_to(EXAMPLES if path.is_relative_to(EXAMPLES) else ROOT))


def _compiles(run: Run, tuned: Path) -> str:
    """Whether nvcc builds the tuned file into an object, as a build system would: "ok" or the error."""
    arch = ["-arch=sm_90"] if run.dry else ["-arch=native"]
    proc = subprocess.run(
        [shutil.which("nvcc") or "nvcc", "-c", *arch, "-O3", str(tuned), "-o", str(tuned.with_suffix(".o"))],
        capture_output=True,
        text=True,
        cwd=tuned.parent,
    )
    return "ok" if proc.returncode == 0 else proc.stderr.strip()[-1500:]


def step_tune(run: Run) -> bool:
    done = run.load("tune.json", {"facts": run.facts, "budget": run.budget, "examples": {}})
    for path in _examples(run):
        name = _name(path)
        if name in done["examples"]:
            continue
        start = time.perf_counter()
        tuned = run.scratch / "tuned" / name.replace("/", "_").replace(".c", ".tuned.cu")
        tuned.parent.mkdir(exist_ok=True)
        code, summary, stderr = run.tune(path, INPUTS.get(name), run.budget, tuned)
        entry = {"exit": code, "seconds": round(time.perf_counter() - start, 1)}
        if summary:
            entry["regions"] = [
                {
                    "name": r["name"],
                    "statuses": r["statuses"],
                    "best": [
                        {
                            "inputs": p.get("inputs"),
                            "params": p["best"]["params"] if p["best"] else None,
                            "kernel_ms": p["best"]["kernel_ms"] if p["best"] else None,
                        }
                        for p in r.get("per_input", [r])
                    ],
                }
                for r in summary["regions"]
            ]
        if code != 0:
            entry["stderr"] = stderr
        entry["tuned_file_compiles"] = _compiles(run, tuned) if code == 0 and tuned.exists() else None
        done["examples"][name] = entry
        run.save("tune.json", done)
        print(
            f"tune {name}: exit {code}, {entry['seconds']} s, nvcc {str(entry['tuned_file_compiles'])[:60]}", flush=True
        )
    wrong = [
        n
        for n, e in done["examples"].items()
        if e["exit"] not in (0,)
        or e["tuned_file_compiles"] != "ok"
        or any(s not in ("ok", "invalid") for r in e.get("regions", []) for s in r["statuses"])
    ]
    done["not_clean"] = wrong
    run.save("tune.json", done)
    return not wrong


def vendor_program(directory: Path, arch: str = "native") -> Path | str:
    """bench/gpu/vendor.cu built in ``directory`` (its path), or why not: it times cuBLAS and
    cuSPARSE (``vendor CASE SIZE...`` prints one JSON line)."""
    exe = directory / "vendor"
    command = [
        shutil.which("nvcc") or "nvcc",
        "-O3",
        f"-arch={arch}",
        str(VENDOR_SOURCE),
        "-o",
        str(exe),
        "-lcublas",
        "-lcusparse",
    ]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        return proc.stderr.strip()[-1500:]
    return exe


def _orio_copy(run: Run, example: str) -> Path:
    """The example as Orio maps it: the same file with mapping='orio' in place of the TSG's."""
    path = run.scratch / f"orio_{example}"
    path.write_text(re.sub(r"mapping='[^']*'", "mapping='orio'", (EXAMPLES / example).read_text()))
    return path


def _best_kernel_ms(summary: dict | None) -> tuple[float | None, dict | None]:
    best = (
        summary["regions"][0]["best"] if summary and summary["regions"] else None
    )  # one input size: the region's best
    return (best["kernel_ms"], best["params"]) if best else (None, None)


def _at_size(run: Run, example: str, params: dict, inputs: dict) -> dict:
    """One configuration run (and checked against the original C code) at a larger size: its kernel time."""
    from orcu.device import profile
    from orcu.execution.query import query
    from orcu.execution.runners import Runner
    from orcu.planning.program import load

    device = profile("H100") if run.dry else query()
    program = load(EXAMPLES / example, device=device)
    runner = Runner(run.backend, device, run.scratch / "at_size", jobs=1)
    result = next(runner.evaluate(program, 0, [(params, inputs)]))
    return {
        "status": result.status,
        "kernel_ms": statistics.median(result.kernel_ms) if result.kernel_ms else None,
        "message": result.message[:500] if result.status != "ok" else "",
    }


def step_vendor(run: Run) -> bool:
    done = run.load("vendor.json", {"facts": run.facts, "cases": {}})
    exe = vendor_program(run.scratch, "sm_90" if run.dry else "native")
    done["vendor_program"] = "built" if isinstance(exe, Path) else exe
    if isinstance(exe, Path) and not run.dry:
        copy = subprocess.run([str(exe), "copy", str(BLAS1)], capture_output=True, text=True)
        done["copy"] = json.loads(copy.stdout) if copy.returncode == 0 else copy.stderr[-500:]
    run.save("vendor.json", done)
    for case in _cases(run.dry):
        if case["name"] in done["cases"] or (run.cases and case["name"] not in run.cases):
            continue
        start = time.perf_counter()
        path = _orio_copy(run, case["example"]) if case.get("orio") else EXAMPLES / case["example"]
        code, summary, stderr = run.tune(path, case["inputs"], 2 * run.budget, run.scratch / f"{case['name']}.tuned.cu")
        ms, params = _best_kernel_ms(summary)
        row = {
            "example": case["example"],
            "inputs": case["inputs"],
            "orcu_exit": code,
            "orcu_ms": ms,
            "params": params,
            "goal": case["goal"],
            "against": case.get("against"),
        }
        if code != 0:
            row["stderr"] = stderr
        if isinstance(exe, Path) and not run.dry and "vendor" in case:
            proc = subprocess.run([str(exe), *map(str, case["vendor"])], capture_output=True, text=True)
            row["vendor"] = json.loads(proc.stdout) if proc.returncode == 0 else proc.stderr[-500:]
        if params is not None:
            for size in case.get("larger", []):
                larger = _at_size(run, case["example"], params, {"n": size})
                if isinstance(exe, Path) and not run.dry:
                    proc = subprocess.run([str(exe), case["vendor"][0], str(size)], capture_output=True, text=True)
                    larger["vendor"] = json.loads(proc.stdout) if proc.returncode == 0 else proc.stderr[-500:]
                row.setdefault("larger", {})[str(size)] = larger
        row["seconds"] = round(time.perf_counter() - start, 1)
        done["cases"][case["name"]] = row
        run.save("vendor.json", done)
        print(f"vendor {case['name']}: orcu {ms} ms, exit {code}, {row['seconds']} s", flush=True)
    done["goals"] = goals(done)
    run.save("vendor.json", done)
    return all(row["orcu_exit"] == 0 for row in done["cases"].values())


def _ratio(row: dict) -> float | None:
    vendor = row.get("vendor")
    if not isinstance(vendor, dict) or not row.get("orcu_ms"):
        return None
    return vendor["ms"] / row["orcu_ms"]  # > 1: orcu is faster


def goals(done: dict) -> list[dict]:
    """The ended issues' goals against the measured figures."""
    out = []
    cases = done["cases"]
    copy = done.get("copy") if isinstance(done.get("copy"), dict) else None
    for name, row in cases.items():
        speedup = _ratio(row)
        if row["goal"] == "cublas":
            out.append(
                {"goal": f"{name} >= cuBLAS", "measured": speedup, "met": speedup is not None and speedup >= 1.0}
            )
            if copy and name in ("daxpy", "sscal") and row.get("orcu_ms"):
                moved = {"daxpy": 24, "sscal": 8}[name] * row["inputs"]["n"]
                share = moved / row["orcu_ms"] / 1e6 / copy["gb_per_s"]
                out.append({"goal": f"{name} >= 90% of copy bandwidth", "measured": share, "met": share >= 0.9})
        elif row["goal"] == "1.2x":
            out.append(
                {
                    "goal": f"{name} >= 1.2x cuSPARSE CSR",
                    "measured": speedup,
                    "met": speedup is not None and speedup >= 1.2,
                }
            )
        elif row["goal"] in ("80%", "report"):
            for size, larger in [("tuned", row)] + list(row.get("larger", {}).items()):
                vendor = larger.get("vendor") if isinstance(larger.get("vendor"), dict) else None
                mine = larger.get("orcu_ms") if size == "tuned" else larger.get("kernel_ms")
                share = vendor["ms"] / mine if vendor and mine else None
                text = f"{name} n={row['inputs']['n'] if size == 'tuned' else size}: share of cuBLAS"
                out.append(
                    {
                        "goal": text + (" >= 80%" if row["goal"] == "80%" else ""),
                        "measured": share,
                        "met": None if row["goal"] == "report" else share is not None and share >= 0.8,
                    }
                )
        elif row["goal"] == "tsg_10x":
            tsg = cases.get(row["against"], {}).get("orcu_ms")
            speedup = row["orcu_ms"] / tsg if tsg and row.get("orcu_ms") else None
            out.append(
                {
                    "goal": f"TSG {row['against']} >= 10x Orio's mapping",
                    "measured": speedup,
                    "met": speedup is not None and speedup >= 10,
                }
            )
    for goal in out:
        if goal["measured"] is not None:
            goal["measured"] = round(goal["measured"], 3)
    return out


def step_calibrate(run: Run) -> bool:
    found = bench_model.evaluations(run.database, backend=run.backend) if run.database.exists() else {}
    figures = bench_model.analyse(found)
    run.save("calibration.json", {**run.facts, **figures})
    if run.dry or not found:
        return bool(found)
    # the device's fit over this run's measurements and every committed one, predicted by the model
    # as it is now (bench_model.py --refit); this run's alone where its device has no profile
    every, _ = bench_model.recomputed(sorted(set(bench_model.committed_databases()) | {run.database.resolve()}))
    groups = every.get(run.facts["device"], found)
    points = [p for group in groups.values() for p in group]
    fitted = json.loads(CALIBRATION.read_text()) if CALIBRATION.exists() else {}
    note = f"{run.facts['date']}: this run's and every committed measurement"
    entry = bench_model.better_fit(points, *bench_model.fit(points), fitted.get(run.facts["device"]), note)
    if entry is not None:
        fitted[run.facts["device"]] = entry
        CALIBRATION.write_text(json.dumps(fitted, indent=2, sort_keys=True) + "\n")
    return True


def step_plots(run: Run) -> bool:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = []
    tune = run.load("tune.json", None)
    if tune:
        rows = [
            (f"{name} {json.dumps(b['inputs'])[:24]}", b["kernel_ms"])
            for name, e in tune["examples"].items()
            for r in e.get("regions", [])
            for b in r["best"]
            if b["kernel_ms"]
        ]
        if rows:
            fig, ax = plt.subplots(figsize=(7, max(3, 0.18 * len(rows))))
            ax.barh([r[0] for r in rows], [r[1] for r in rows])
            ax.set(xscale="log", xlabel="best kernel time (ms)", title=f"orcu tune, budget {tune['budget']}")
            ax.tick_params(axis="y", labelsize=5)
            fig.tight_layout()
            fig.savefig(run.out / "tune.png", dpi=120)
            made.append("tune.png")
    vendor = run.load("vendor.json", None)
    if vendor:
        rows = [(name, _ratio(row)) for name, row in vendor["cases"].items() if _ratio(row)]
        if rows:
            fig, ax = plt.subplots(figsize=(6, 3.5))
            ax.bar([r[0] for r in rows], [r[1] for r in rows])
            ax.axhline(1.0, color="k", lw=0.8)
            ax.set(ylabel="vendor time / orcu time (> 1: orcu faster)", title="orcu against cuBLAS / cuSPARSE")
            ax.tick_params(axis="x", labelsize=7, rotation=30)
            fig.tight_layout()
            fig.savefig(run.out / "vendor.png", dpi=120)
            made.append("vendor.png")
    if run.database.exists():
        found = bench_model.evaluations(run.database, backend=run.backend)
        if found:
            bench_model.plot(found, run.out / "model.png")
            made.append("model.png")
    plt.close("all")
    run.save("plots.json", {"made": made})
    return bool(made)


STEPS_FILES = (
    "steps.json",
    "tests.json",
    "tune.json",
    "vendor.json",
    "polybench.json",
    "calibration.json",
    "plots.json",
)
STEP_FUNCTIONS = {
    "tests": step_tests,
    "tune": step_tune,
    "vendor": step_vendor,
    "polybench": polybench_gpu.step,
    "calibrate": step_calibrate,
    "plots": step_plots,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--step", action="append", choices=STEPS, help="run this step (repeatable; default: those left)"
    )
    parser.add_argument("--again", action="store_true", help="forget the finished steps and start over")
    parser.add_argument("--dry-run", action="store_true", help="every step's code path in orcu's CPU emulation")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where results go (default bench/results/gpu)")
    parser.add_argument("--budget", type=int, help="variants per tuned file (default 12; 2 in a dry run)")
    parser.add_argument(
        "--examples",
        nargs="+",
        help="only these annotated examples in tune (file names, or paths from the repository's root)",
    )
    parser.add_argument("--cases", nargs="+", help="only these vendor cases (daxpy, sgemm, orio_dgemv, ...)")
    parser.add_argument("--scops", nargs="+", help="only these PolyBench scops in polybench (gemm.c, lu.c, ...)")
    parser.add_argument(
        "--ppcg-best",
        type=Path,
        help="polybench times only each scop's best PPCG option in this earlier polybench.json (same device)",
    )
    parser.add_argument(
        "--home",
        type=Path,
        help="orcu's results database folder (default OUT/home): runs side by side with their own "
        "--out can share one, so that calibrate sees every variant they measured",
    )
    args = parser.parse_args(argv)
    if not args.dry_run and shutil.which("nvidia-smi") is None:
        print("gpu_all: no GPU visible (nvidia-smi not found); --dry-run walks the steps in emulation", file=sys.stderr)
        return 2
    run = Run(args.out, args.dry_run, args.budget, args.examples, args.cases, args.home, args.scops, args.ppcg_best)
    state = {} if args.again else run.load("steps.json", {})
    if args.again:
        for name in STEPS_FILES:
            (run.out / name).unlink(missing_ok=True)
    todo = args.step or [s for s in STEPS if s not in state]
    if not todo:
        print("gpu_all: every step has finished (steps.json); --again starts over", file=sys.stderr)
    failed = []
    try:
        for name in todo:
            print(f"gpu_all: step {name}", flush=True)
            start = time.perf_counter()
            ok = STEP_FUNCTIONS[name](run)
            # read again before writing: another step may have finished meanwhile in a second process
            state = {**state, **run.load("steps.json", {})}
            state[name] = {
                "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "clean": ok,
                "seconds": round(time.perf_counter() - start, 1),
                "device": run.facts["device"],
            }
            run.save("steps.json", state)
            print(
                f"gpu_all: step {name} {'clean' if ok else 'finished with failures'} in {state[name]['seconds']} s",
                flush=True,
            )
            if not ok:
                failed.append(name)
    finally:
        shutil.rmtree(run.scratch, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
