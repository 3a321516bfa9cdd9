"""Metrics and objectives: what a variant achieved (GFLOP/s, GB/s, the fraction of the roofline
bound), a spec's own metrics, and tuning for one of them instead of the time."""

import csv
import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, write

import orcu
from orcu.device import profile
from orcu.driver.cli import main
from orcu.execution.metrics import Work, work
from orcu.planning.program import load
from orcu.spec.objectives import Objective

H100 = profile("H100")
DAXPY = """void daxpy(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [32, 64, 128, 256];
        param BC[] = [8, 16, 32];
    }
    def input_params { param n[] = [10000]; }
    def input_vars {
        decl dynamic double x[n] = random;
        decl dynamic double y[n] = random;
        decl double a = 2.5;
    }
    %s
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    /*@ end @*/
    /*@ end @*/
}
"""
# The H100 profile's ceilings: 3352.32 GB/s (2619 MHz x 5120 bits, twice a clock), and double
# precision at 64 lanes a multiprocessor, a multiply-add (2 operations) a lane a cycle, 132
# multiprocessors at 1.98 GHz.
BANDWIDTH = 3352.32e9
FP64 = 2 * 64 * 132 * 1.98e9


@pytest.fixture
def home(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    return in_tmp / "home"


@pytest.mark.parametrize(
    "source, n, flops, moved",
    [
        (DAXPY % "", 10000, 2 * 10000, 3 * 8 * 10000),  # BLAS-1: x read, y read and written
        # C = alpha A B + beta C: per (i, j) 2n operations in k and 3 after; A and B read, C read and written
        pytest.param(
            (EXAMPLES / "dgemm.c").read_text(), 64, 2 * 64**3 + 3 * 64**2, 4 * 8 * 64**2, marks=pytest.mark.slow
        ),
    ],
    ids=["daxpy", "dgemm"],
)
def test_report_and_csv_give_every_variant_its_rates_as_computed_by_hand(home, in_tmp, capsys, source, n, flops, moved):
    write(in_tmp / "t.c", source)
    assert work(load("t.c", device=H100), 0, {"n": n}) == Work(flops, moved, 8)
    # a few variants: dgemm's whole search took five minutes of emulation, and the rates are
    # computed alike for each
    tuning = orcu.tune("t.c", backend="emulate", inputs={"n": n}, budget=6, progress=False)
    assert tuning.errors == [] and len(tuning.regions[0].evaluations) > 1
    bound_s = max(moved / BANDWIDTH, flops / FP64)
    assert bound_s == pytest.approx(moved / BANDWIDTH)  # both are memory-bound at these sizes on an H100
    assert main(["report", "t.c", "--csv", "r.csv"]) == 0
    rows = list(csv.DictReader(Path("r.csv").read_text().splitlines()))
    assert len(rows) == len(tuning.regions[0].evaluations) and {r["status"] for r in rows} == {"ok"}
    for row in rows:
        seconds = float(row["time_ms"]) * 1e-3
        assert float(row["gflop_s"]) == pytest.approx(flops / seconds / 1e9, rel=1e-9)
        assert float(row["gb_s"]) == pytest.approx(moved / seconds / 1e9, rel=1e-9)
        assert float(row["bound_fraction"]) == pytest.approx(bound_s / seconds, rel=1e-6)
        metrics = json.loads(row["metrics"])
        assert (metrics["flops"], metrics["bytes"]) == (flops, moved)
    capsys.readouterr()
    assert main(["report", "t.c"]) == 0
    text = capsys.readouterr().out
    best = tuning.regions[0].best
    seconds = best.time_ms * 1e-3
    assert (
        f"achieved   {flops / seconds / 1e9:.4g} GFLOP/s, {moved / seconds / 1e9:.4g} GB/s, "
        f"{100 * bound_s / seconds:.3g}% of the roofline bound ({bound_s * 1e3:.3g} ms)"
    ) in text
    assert best.gflop_s == pytest.approx(flops / seconds / 1e9) and best.bound_fraction == pytest.approx(
        bound_s / seconds
    )


# Work a thread does, by the spec's own metric: the loop's iterations over the threads launched.
# Its best (the fewest threads) is far from the fastest (the model favours many threads).
PER_THREAD = """def metrics {
        let per_thread = n / (TC * BC) / time_s;
        arg objective = 'per_thread';
        arg direction = 'max';
    }"""


def test_a_spec_metric_as_objective_chooses_its_own_winner_and_the_tuned_file_holds_it(home, in_tmp):
    write(in_tmp / "t.c", DAXPY % PER_THREAD)
    tuning = orcu.tune("t.c", backend="emulate", progress=False)
    region = tuning.regions[0]
    assert tuning.errors == [] and region.statuses == {"ok": 12}
    by_metric = max(region.evaluations, key=lambda e: 10000 / (e.params["TC"] * e.params["BC"]) / (e.time_ms * 1e-3))
    fastest = min(e.time_ms for e in region.evaluations)
    by_time = [e.params for e in region.evaluations if e.time_ms == fastest]
    assert by_metric.params not in by_time  # they disagree
    assert region.best.params == by_metric.params
    assert region.best.metrics["per_thread"] == pytest.approx(
        10000 / (by_metric.params["TC"] * by_metric.params["BC"]) / (by_metric.time_ms * 1e-3)
    )
    tuned = (in_tmp / "t.tuned.cu").read_text()
    assert f"TC={by_metric.params['TC']}, BC={by_metric.params['BC']}" in tuned
    assert "chosen by the objective max:per_thread = " in tuned
    # the command line's objective wins over the spec's: the time again
    again = orcu.tune("t.c", backend="emulate", progress=False, objective="time", output="time.cu")
    best = again.regions[0].best.params
    assert best in by_time and again.regions[0].cached == 12
    assert f"TC={best['TC']}, BC={best['BC']}" in (in_tmp / "time.cu").read_text()


def test_the_yaml_spec_names_metrics_and_objective_as_the_section_does(home, in_tmp):
    text = DAXPY % ""
    start, end = text.index("    /*@ begin PerfTuning"), text.index("    /*@ begin Loop")
    write(in_tmp / "t.c", text[:start] + text[end:].replace("    /*@ end @*/\n    /*@ end @*/", "    /*@ end @*/"))
    write(
        in_tmp / "t.yaml",
        """performance_params: {TC: [32, 64, 128, 256], BC: [8, 16, 32]}
input_params: {n: [10000]}
input_vars: ["dynamic double x[n] = random", "dynamic double y[n] = random", "double a = 2.5"]
metrics: {per_thread: n / (TC * BC) / time_s, objective: per_thread, direction: max}
""",
    )
    spec = load("t.c", "t.yaml").spec
    assert [m.name for m in spec.metrics] == ["per_thread"]
    assert spec.ranking_objective() == Objective("per_thread", True)
    assert spec.ranking_objective("min:gb_s") == Objective("gb_s", False)


def test_a_metric_that_cannot_be_computed_is_that_variants_status(home, in_tmp):
    write(in_tmp / "t.c", DAXPY % """def metrics { let odd = 1 / (TC - 64); arg objective = 'gflop_s'; }""")
    tuning = orcu.tune("t.c", backend="emulate", progress=False)
    region = tuning.regions[0]
    assert region.statuses == {"ok": 9, "invalid": 3} and tuning.errors == []
    broken = [e for e in region.evaluations if e.status == "invalid"]
    assert {e.params["TC"] for e in broken} == {64}
    assert {e.message for e in broken} == {"metric 'odd' (line 14): cannot evaluate '1 / (TC - 64)': division by zero"}
    assert region.best.params["TC"] != 64


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "def metrics { let g = flops / time_z; }",
            "t.c:14:35: error: undefined name 'time_z' in metric 'g' (did you mean 'time_s'?)",
        ),
        (
            "def metrics { let g = flops / time_s; arg objective = 'g'; }",
            "t.c:14:47: error: say whether more or less 'g' is better: --objective max:g (or min:g), or arg direction = 'max'; in "
            "the spec's metrics section",
        ),
        (
            "def metrics { arg objective = 'gflops'; }",
            "t.c:14:23: error: unknown objective 'gflops' (did you mean 'gflop_s'?)",
        ),
        (
            "def metrics { arg direction = 'up'; }",
            "t.c:14:35: error: argument 'direction' must be 'max' or 'min', got 'up'",
        ),
    ],
)
def test_bad_metrics_are_errors_at_their_place(in_tmp, spec, message):
    from conftest import diagnose

    assert diagnose(in_tmp, DAXPY % spec).startswith(message)


def test_energy_needs_a_gpu_and_bad_objectives_exit_2(home, in_tmp, capsys):
    write(in_tmp / "t.c", DAXPY % "")
    assert main(["tune", "t.c", "--backend", "emulate", "--objective", "energy"]) == 2
    assert (
        "orcu: error: the objective min:energy_j needs energy (energy_j, power_w, edp), which orcu measures through "
        "NVML on a GPU: tune with --backend cuda (this tune runs --backend emulate)"
    ) in capsys.readouterr().err
    assert main(["tune", "t.c", "--backend", "emulate", "--objective", "up:gflop_s"]) == 2
    assert "the objective's direction must be max or min, got 'up'" in capsys.readouterr().err
    assert not (in_tmp / "t.tuned.cu").exists()


def test_the_nvml_energy_path_is_compiled_into_every_gpu_harness(in_tmp):
    """nvcc builds the harness's NVML code (opened at run time: libnvidia-ml ships with the
    driver, which a machine without a GPU lacks) in every GPU build, linked and ready."""
    import subprocess

    from conftest import build_harness_files

    from orcu.codegen.region import generate
    from orcu.execution.harness import harness_source

    write(in_tmp / "t.c", DAXPY % "")
    program = load("t.c", device=H100)
    code = generate(program, program.nests[0], {"TC": 64, "BC": 8}, {"n": 10000}, suffix="_0")
    build_harness_files(in_tmp, harness_source(program, 0, [code], {"n": 10000}), "cuda", H100.arch)
    found = subprocess.run(["strings", str(in_tmp / "h")], capture_output=True, text=True, check=True).stdout.split(
        "\n"
    )
    assert {
        "libnvidia-ml.so.1",
        "nvmlDeviceGetTotalEnergyConsumption",
        "nvmlDeviceGetPowerUsage",
        "nvmlDeviceGetHandleByPciBusId_v2",
    } <= set(found)


@pytest.mark.gpu
def test_an_energy_tune_measures_joules_and_watts_through_nvml(home, in_tmp):
    write(in_tmp / "t.c", DAXPY % "")
    tuning = orcu.tune("t.c", backend="cuda", objective="energy", budget=4, progress=False)
    region = tuning.regions[0]
    assert tuning.errors == [] and region.best is not None
    ranked = [e for e in region.evaluations if e.status == "ok"]
    assert ranked and all(e.metrics["energy_j"] > 0 and 10 < e.metrics["power_w"] < 2000 for e in ranked)
    assert region.best.metrics["energy_j"] == min(e.metrics["energy_j"] for e in ranked)
    assert all(e.metrics["edp"] == pytest.approx(e.metrics["energy_j"] * e.metrics["time_s"]) for e in ranked)
