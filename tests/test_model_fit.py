"""bench/bench_model.py's fit of the model's free constants, and its refit on every GPU measurement
committed under bench/results/gpu/ with the model as it is now (the launches of time loops counted)."""

import json
import math
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import bench_model  # noqa: E402

COMMITTED = bench_model.committed_databases()
SHIPPED = json.loads((ROOT / "templates" / "model_calibration.json").read_text())


@pytest.mark.parametrize("scale, launch", [(0.8, 0.004), (1.7, 0.0065), (0.35, 0.0021)])
def test_the_fit_finds_the_scale_and_the_launch_cost_of_launches_in_time_loops(scale, launch):
    """measured = scale x slowest term + launches x launch: points made so are fitted back."""
    points = []
    for k, (term, launches) in enumerate([(0.002, 1), (0.05, 1), (0.3, 6), (1.2, 1), (0.0001, 128), (0.02, 40)]):
        measured = (scale * term + launches * launch) * (1.01 if k % 2 else 0.99)  # a timer's spread
        points.append((0.0, measured, term, launches))
    fitted_scale, fitted_launch = bench_model.fit(points)
    assert fitted_scale == pytest.approx(scale, rel=0.03) and fitted_launch == pytest.approx(launch, rel=0.05)


@pytest.fixture(scope="module")
def refitted():
    found, skipped = bench_model.recomputed(COMMITTED)
    return found, skipped


def test_every_committed_measurement_is_predicted_again_or_said_why_not(refitted):
    found, skipped = refitted
    counted = sum(len(group) for groups in found.values() for group in groups.values())
    assert set(found) == {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}
    assert counted >= 190 and counted + sum(skipped.values()) == bench_model_rows()
    assert set(skipped) <= {
        "no static figures",
        "its region is no longer in the file",
        "its file or device is not this checkout's",
        "its configuration is no longer in the space",
    }


def bench_model_rows() -> int:
    import sqlite3

    total = 0
    for database in COMMITTED:
        with sqlite3.connect(database) as db:
            total += db.execute("SELECT COUNT(*) FROM evaluations WHERE status = 'ok' AND backend = 'cuda'").fetchone()[
                0
            ]
    return total


def test_a_time_loops_launches_are_predicted_as_the_harness_timed_them(refitted):
    """PolyBench's jacobi-1d at 500 steps measured 600 times the model's one launch on the H200; its
    128 timed launches (the harness of then) with the shipped fit are within twice the measured time."""
    found, _ = refitted
    fit = SHIPPED["NVIDIA H200"]
    for (region, inputs), points in found["NVIDIA H200"].items():
        if region.startswith("orcu_kernel_jacobi_1d") and json.loads(inputs)["tsteps"] == 500:
            for _, measured, slowest, launches in points:
                assert launches == bench_model.TIMED_BEFORE
                assert 0.5 < (fit["scale"] * slowest + launches * fit["launch_ms"]) / measured < 2
            break
    else:
        pytest.fail("no committed jacobi-1d measurement at 500 steps")


def test_the_shipped_fits_are_those_of_every_committed_measurement(refitted):
    """templates/model_calibration.json holds what --refit --record wrote: no better fit of the
    committed measurements by the model as it is now (rerun it after a change of the model)."""
    found, _ = refitted
    for device, groups in found.items():
        points = [p for group in groups.values() for p in group]
        shipped = SHIPPED[device]
        error = bench_model.error_with(points, shipped["scale"], shipped["launch_ms"])
        best = bench_model.error_with(points, *bench_model.fit(points))
        assert math.isclose(error, best, rel_tol=0.01), (device, error, best)
