"""bench/gpu_all.py, the one command for a machine with a GPU, walked in its dry run: every step's
code path in orcu's CPU emulation, at small sizes, on two examples (the step that tunes every
example runs them all on a GPU)."""

import json
import subprocess
import sys

import pytest
from conftest import ROOT

SCRIPT = ROOT / "bench" / "gpu_all.py"


def gpu_all(out, *arguments, examples=("vecscale.c", "two_regions.c"), cwd=None):
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--dry-run", "--out", str(out), "--examples", *examples, "--scops", "atax.c"]
        + list(arguments),
        capture_output=True,
        text=True,
        cwd=cwd,
    )


@pytest.mark.slow
def test_the_dry_run_walks_every_step_and_records_each(tmp_path):
    out = tmp_path / "gpu"
    calibration_file = ROOT / "templates" / "model_calibration.json"
    fitted = calibration_file.read_text()  # the constants a GPU run refitted
    assert gpu_all(out, "--step", "tests").returncode == 0
    proc = gpu_all(out)  # goes on with the steps left
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "step tests" not in proc.stdout and "step tune" in proc.stdout
    steps = json.loads((out / "steps.json").read_text())
    assert list(steps) == ["tests", "tune", "vendor", "polybench", "calibrate", "plots"]
    assert all(step["clean"] for step in steps.values())

    tests = json.loads((out / "tests.json").read_text())
    assert tests["failed"] == tests["errors"] == 0 and tests["exit"] in (0, 5)

    tune = json.loads((out / "tune.json").read_text())
    assert sorted(tune["examples"]) == ["two_regions.c", "vecscale.c"] and tune["not_clean"] == []
    two = tune["examples"]["two_regions.c"]
    assert two["exit"] == 0 and two["tuned_file_compiles"] == "ok" and len(two["regions"]) == 2
    assert all(best["kernel_ms"] > 0 for region in two["regions"] for best in region["best"])

    vendor = json.loads((out / "vendor.json").read_text())
    names = [
        "daxpy",
        "sdot",
        "dnrm2",
        "sscal",
        "dia_spmv",
        "dgemv",
        "orio_dgemv",
        "dgemv_t",
        "sgemm",
        "orio_sgemm",
        "sgemm_tf32",
        "dgemm",
    ]
    assert list(vendor["cases"]) == names
    for row in vendor["cases"].values():
        assert row["orcu_exit"] == 0 and row["orcu_ms"] > 0, row
    # gemm's best configuration, run again (and checked) at the larger size
    assert vendor["cases"]["sgemm"]["larger"]["48"]["status"] == "ok"
    assert "mapping_1" not in vendor["cases"]["orio_sgemm"]["params"]  # Orio's mapping has no TSG parameters
    goals = {goal["goal"]: goal for goal in vendor["goals"]}
    assert goals["TSG sgemm >= 10x Orio's mapping"]["measured"] > 0
    # without cuBLAS's headers here the vendor program is not built; with them it must be
    assert vendor["vendor_program"] == "built" or "cublas_v2.h: No such file" in vendor["vendor_program"]

    polybench = json.loads((out / "polybench.json").read_text())
    # PPCG's program of atax built under each option, and orcu's around its tuned file (not run: no GPU)
    assert polybench["ppcg"]["atax.c"] == {option: {"built": True} for option in ("default", "tile16", "tile32")}
    atax = polybench["orcu"]["atax.c"]
    assert atax["tune_exit"] == 0 and len(atax["loops"]) == 2 and atax["built"] and polybench["not_clean"] == []
    assert atax["emulated_agrees"]  # its program at MINI in the emulation computes PolyBench's results

    calibration = json.loads((out / "calibration.json").read_text())
    regions = {example["region"] for example in calibration["examples"]}
    assert {"orcu_sgemm_1", "orcu_daxpy_1", "orcu_gemv_1"} <= regions
    assert calibration["fit"] is not None
    assert calibration_file.read_text() == fitted  # a dry run refits nothing

    made = json.loads((out / "plots.json").read_text())["made"]
    assert made == ["tune.png", "model.png"]  # no vendor figures in a dry run: nothing to plot against them
    assert all((out / name).stat().st_size > 1000 for name in made)


@pytest.mark.slow
def test_a_step_cut_off_goes_on_where_it_stopped(tmp_path):
    out = tmp_path / "gpu"
    assert gpu_all(out, "--step", "tune").returncode == 0
    tune = json.loads((out / "tune.json").read_text())
    del tune["examples"]["vecscale.c"]  # as if the run had stopped after two_regions.c
    (out / "tune.json").write_text(json.dumps(tune))
    proc = gpu_all(out, "--step", "tune")
    assert proc.returncode == 0 and "tune vecscale.c" in proc.stdout and "tune two_regions.c" not in proc.stdout
    assert sorted(json.loads((out / "tune.json").read_text())["examples"]) == ["two_regions.c", "vecscale.c"]
    proc = gpu_all(out, "--again", "--step", "tests")  # --again forgets what was done
    assert proc.returncode == 0 and not (out / "tune.json").exists()
    assert list(json.loads((out / "steps.json").read_text())) == ["tests"]


def test_results_land_under_a_relative_out_and_a_file_anywhere_in_the_repository_is_tuned(tmp_path):
    # the first GPU run on an H100 passed --out bench/results/gpu/h100: orcu ran in its scratch
    # folder and kept the evaluations under it, so calibrate found none
    proc = gpu_all(
        "gpu", "--step", "tune", "--step", "calibrate", examples=("tests/c_as_written/scale3d.c",), cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tune = json.loads((tmp_path / "gpu" / "tune.json").read_text())
    assert list(tune["examples"]) == ["tests/c_as_written/scale3d.c"] and tune["not_clean"] == []
    assert (tmp_path / "gpu" / "home" / "results.sqlite").is_file()
    calibration = json.loads((tmp_path / "gpu" / "calibration.json").read_text())
    assert [example["region"] for example in calibration["examples"]] == ["orcu_scale3d_1"]


def test_runs_side_by_side_share_one_database_and_calibrate_sees_both(tmp_path):
    # one device call runs the vendor cases, the tests and tunes as separate processes, each with
    # its own --out; the model's calibration must see the variants all of them measured
    home = tmp_path / "home"
    for out, example in (("a", "vecscale.c"), ("b", "tests/c_as_written/scale3d.c")):
        proc = gpu_all(tmp_path / out, "--home", str(home), "--step", "tune", examples=(example,))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert not (tmp_path / out / "home").exists()
    proc = gpu_all(tmp_path / "c", "--home", str(home), "--step", "calibrate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    calibration = json.loads((tmp_path / "c" / "calibration.json").read_text())
    assert {example["region"] for example in calibration["examples"]} == {"orcu_scale3d_1", "orcu_sscal_1"}
