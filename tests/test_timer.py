"""The kernel measure's timer: each timed pair of events from a cold L2 cache, the launch's latency
outside its events, short kernels launched back to back between them (templates/harness.cu.j2),
and the warning when a tuned size is too small to tell variants apart."""

import json
import os
import subprocess

import pytest
from conftest import build_harness_files, write
from test_metrics import DAXPY

from orcu.codegen.region import generate
from orcu.driver.session import SMALL_KERNEL_MS
from orcu.driver.session import after_notes as _after_notes
from orcu.driver.tuning import RegionTuning
from orcu.execution.harness import harness_source, repeatable
from orcu.execution.query import query
from orcu.execution.result import Result
from orcu.planning.program import load
from orcu.tsg.sizes import launches


def tuning(kernel_ms: float, measure: str = "kernel") -> RegionTuning:
    t = RegionTuning(0, "orcu_daxpy_1", 5, {"n": 10000}, ("TC",))
    t.results.append(Result("ok", {"TC": 64}, {"n": 10000}, [kernel_ms] * 3, [kernel_ms * 4] * 3, measure=measure))
    return t


def test_a_winner_faster_than_a_launch_is_warned_of_on_the_gpu_only():
    fast, slow = tuning(SMALL_KERNEL_MS / 4), tuning(SMALL_KERNEL_MS * 2)
    (warning,) = _after_notes([fast], "cuda")
    assert warning.startswith("orcu: warning: orcu_daxpy_1 n=10000: the winner's kernels run in 5.0 us")
    assert "tune at those sizes (input_params)" in warning
    assert _after_notes([slow], "cuda") == []
    assert _after_notes([fast], "emulate") == []  # the emulation's CPU times say nothing of a GPU's
    assert _after_notes([tuning(SMALL_KERNEL_MS / 4, "total")], "cuda") == []  # transfers included: not a kernel's time


def test_a_time_loops_winner_is_judged_by_its_launches():
    """A kernel launched 500 times a call takes milliseconds in all, each launch a few microseconds:
    the launches' cost decides between its variants as much as for one short launch."""

    def stepped(ms: float, measure: str, launches: int) -> RegionTuning:
        t = RegionTuning(0, "orcu_steps_1", 5, {"T": 500}, ("TC",))
        if measure == "model":
            figures = {"model": {"predicted_ms": ms, **({"launches": launches} if launches > 1 else {})}}
            t.results.append(Result("ok", {"TC": 64}, {"T": 500}, figures=figures, measure="model"))
        else:
            measured = {"launches_a_call": launches}
            t.results.append(Result("ok", {"TC": 64}, {"T": 500}, [ms] * 3, [ms] * 3, measured=measured))
        return t

    def warnings(tuning, backend):
        return [line for line in _after_notes([tuning], backend) if "warning" in line]

    (warning,) = warnings(stepped(3.0, "model", 500), "emulate")
    assert warning.startswith(
        "orcu: warning: orcu_steps_1 T=500: the model predicts the winner's kernels at 6.0 us a launch, "
    )
    assert warnings(stepped(3.0, "model", 1), "emulate") == []
    (warning,) = warnings(stepped(0.5, "kernel", 100), "cuda")
    assert warning.startswith("orcu: warning: orcu_steps_1 T=500: the winner's kernels run in 5.0 us a launch: ")
    assert warnings(stepped(2.5, "kernel", 100), "cuda") == []  # 25 us a launch


def test_a_region_whose_winners_are_small_at_several_sizes_is_warned_of_once():
    """spmv_dia's five sizes gave five warnings after the README's first command."""

    def predicted(name: str, n: int, ms: float) -> RegionTuning:
        t = RegionTuning(0, name, 5, {"n": n}, ("TC",))
        t.results.append(Result("ok", {"TC": 64}, {"n": n}, figures={"model": {"predicted_ms": ms}}, measure="model"))
        return t

    tunings = [predicted("orcu_daxpy_1", n, ms) for n, ms in ((100, 0.006), (200, 0.011), (400, 0.03), (800, 0.008))]
    other = predicted("orcu_other_2", 10000, 0.004)
    warnings = [line for line in _after_notes([*tunings, other], "emulate") if "warning" in line]
    assert warnings == [
        "orcu: warning: orcu_daxpy_1 n=100; n=200; n=800: the model predicts the winner's kernels at 6.0 to 11.0 us, "
        "a few launches' cost: at these sizes its predictions differ by less than their own error, so its ranking "
        "says little; tune at the sizes production runs (input_params), or on a GPU",
        "orcu: warning: orcu_other_2 n=10000: the model predicts the winner's kernels at 4.0 us, a few launches' "
        "cost: at this size its predictions differ by less than their own error, so its ranking says little; tune "
        "at the sizes production runs (input_params), or on a GPU",
    ]


@pytest.mark.gpu
def test_cold_launches_are_no_faster_than_the_gpus_memory(in_tmp):
    """daxpy over 2^21 doubles moves 48 MB, which an H100's L2 (50 MB) holds once the region's
    copies brought it in: timed cold, the kernel cannot beat the DRAM's peak bandwidth."""
    n = 1 << 21
    write(in_tmp / "t.c", (DAXPY % "").replace("param n[] = [10000]", f"param n[] = [{n}]"))
    device = query()
    program = load("t.c", device=device)
    code = generate(program, program.nests[0], {"TC": 256, "BC": 32}, {"n": n}, suffix="_0")
    build_harness_files(in_tmp, harness_source(program, 0, [code], {"n": n}), "cuda", device.arch)

    def run(**env) -> dict:
        proc = subprocess.run(
            [str(in_tmp / "h"), "0"],
            capture_output=True,
            text=True,
            env={**{k: v for k, v in os.environ.items() if k != "ORCU_TIMER"}, **env},
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    cold, warm = run(ORCU_TIMER="kernel"), run()
    assert cold["status"] == warm["status"] == "ok"
    assert cold["timer"] == "cold" and "timer" not in warm
    assert cold["launches"] == warm["launches"] == 1  # longer than a pair needs: one launch, cold
    fastest = min(cold["kernel_ms"])
    moved = 3 * 8 * n  # x and y read, y written
    assert moved / (fastest * 1e-3) <= device.bandwidth_gbs * 1e9
    print(
        f"daxpy n=2^21: cold {fastest:.4f} ms ({moved / fastest / 1e6:.0f} GB/s), "
        f"warm {min(warm['kernel_ms']):.4f} ms ({moved / min(warm['kernel_ms']) / 1e6:.0f} GB/s)"
    )


@pytest.mark.gpu
def test_a_short_kernel_is_timed_over_launches_back_to_back(in_tmp):
    """daxpy over 10^4 doubles runs in a few microseconds: its pairs hold several launches."""
    write(in_tmp / "t.c", DAXPY % "")
    device = query()
    program = load("t.c", device=device)
    code = generate(program, program.nests[0], {"TC": 256, "BC": 32}, {"n": 10000}, suffix="_0")
    build_harness_files(in_tmp, harness_source(program, 0, [code], {"n": 10000}), "cuda", device.arch)
    proc = subprocess.run(
        [str(in_tmp / "h"), "0"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ORCU_TIMER": "kernel"},
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["status"] == "ok" and 1 < report["launches"] <= 100 and min(report["kernel_ms"]) > 0


CLAMP = """void clamp(int n, double *a, const double *b) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [100]; }
    def input_vars {
        decl dynamic double a[n] = random;
        decl dynamic double b[n] = random;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        %s
    ) @*/
    for (i = 0; i < n; i++)
        %s
    /*@ end @*/
    /*@ end @*/
}
"""


@pytest.mark.parametrize(
    "statement, again",
    [
        ("a[i] = fmax(a[i], b[i]);", True),  # a C function reads only its arguments
        ("if (b[i] > 1.0) a[i] = 1.0;", True),  # the condition reads what no launch writes
        ("if (a[i] > 1.0) a[i] = 1.0;", False),  # a second launch takes other branches
        ("a[i] = b[(int)a[i] % n];", False),  # ... reads other elements
    ],
)
def test_a_kernel_is_launched_again_on_its_results_only_where_they_steer_nothing(in_tmp, statement, again):
    write(in_tmp / "t.c", CLAMP % (statement, statement))
    program = load("t.c")
    assert repeatable(program.nests, set()) is again


def _emulated_run(in_tmp, text: str, inputs: dict, params: dict, **env) -> dict:
    write(in_tmp / "t.c", text)
    program = load("t.c")
    code = generate(program, program.nests[0], params, inputs, suffix="_0")
    build_harness_files(in_tmp, harness_source(program, 0, [code], inputs), "emulate")
    proc = subprocess.run(
        [str(in_tmp / "h"), "0", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**{k: v for k, v in os.environ.items() if k not in ("ORCU_TIMER", "ORCU_LAUNCHES")}, **env},
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_timed_calls_launch_each_kernel_as_often_as_asked_where_it_can_run_again(in_tmp):
    """The timed calls follow the checked one, so a repeated launch's values (y grows with each
    daxpy) are never compared; the kernel time is a pair's over its launches."""
    daxpy = (DAXPY % "").replace("param n[] = [10000]", "param n[] = [100]")
    asked = _emulated_run(in_tmp, daxpy, {"n": 100}, {"TC": 32, "BC": 8}, ORCU_LAUNCHES="3")
    assert asked["status"] == "ok" and asked["launches"] == 3 and len(asked["kernel_ms"]) == 2
    assert _emulated_run(in_tmp, daxpy, {"n": 100}, {"TC": 32, "BC": 8})["launches"] == 1  # no GPU timer: one
    assert _emulated_run(in_tmp, daxpy, {"n": 100}, {"TC": 32, "BC": 8}, ORCU_LAUNCHES="1000")["launches"] == 100
    steered = CLAMP % (("if (a[i] > 1.0) a[i] = 1.0;",) * 2)
    once = _emulated_run(in_tmp, steered, {"n": 100}, {"TC": 32}, ORCU_LAUNCHES="3")
    assert once["status"] == "ok" and once["launches"] == 1


STEPS = """void steps(int T, int n, %(t)s *a, %(t)s *b) {
    int t, s, i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32]; }
    def input_params { param T[] = [%(T)d]; param n[] = [40]; }
    def input_vars { decl dynamic %(t)s a[n] = random; decl dynamic %(t)s b[n] = 0; }
    ) @*/
    /*@ begin Loop(
    %(around)s {
        transform CUDA(threadCount=TC, blockCount=2)
        for (i = 1; i <= n - 2; i++)
            b[i] = 0.5 * (a[i - 1] + a[i + 1]);
        a[1] = b[1];
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


@pytest.mark.parametrize(
    "ctype, steps, around, launched",
    [
        ("double", 3, "for (t = 0; t < T; t++)", 3),
        # past the events the harness holds (MAX_EVENTS / 2 launches): their pairs are summed as it goes
        ("float", 300, "for (t = 0; t < T; t++)", 300),
        ("double", 70, "for (t = 0; t < T; t++) for (s = 0; s < 3; s++)", 210),
        ("float", 20, "for (t = 0; t < T; t++) for (s = t; s < T; s++)", 210),  # a triangle of launches
    ],
)
def test_every_launch_of_a_time_loop_is_timed_and_the_model_counts_them(in_tmp, ctype, steps, around, launched):
    """The kernel time of a region that launches its kernel at every host step is every launch's:
    the harness held 256 events and dropped the launches past 128 (a time loop of 500 steps was
    timed as its first 128), and the model predicted one launch for all of them."""
    text = STEPS % {"t": ctype, "T": steps, "around": around}
    report = _emulated_run(in_tmp, text, {"T": steps, "n": 40}, {"TC": 32})
    assert report["status"] == "ok" and report["launches_a_call"] == launched and min(report["kernel_ms"]) > 0
    assert launches(load("t.c").nests[0], {"T": steps, "n": 40}) == launched
