"""The kernel measure's timer: each timed launch from a cold L2 cache, the launch's latency outside
its events (templates/harness.cu.j2), and the warning when a tuned size is too small to tell
variants apart."""
import json
import os
import subprocess

import pytest

from orcu.api import SMALL_KERNEL_MS, _after_notes
from orcu.codegen.region import generate
from orcu.device import query
from orcu.harness import harness_source
from orcu.program import load
from orcu.runners import Result
from orcu.toolchain import compile_program
from orcu.tuning import RegionTuning

from conftest import write
from test_metrics import DAXPY


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


@pytest.mark.gpu
def test_cold_launches_are_no_faster_than_the_gpus_memory(in_tmp):
    """daxpy over 2^21 doubles moves 48 MB, which an H100's L2 (50 MB) holds once the region's
    copies brought it in: timed cold, the kernel cannot beat the DRAM's peak bandwidth."""
    n = 1 << 21
    write(in_tmp / "t.c", (DAXPY % "").replace("param n[] = [10000]", f"param n[] = [{n}]"))
    device = query()
    program = load("t.c", device=device)
    code = generate(program, program.nests[0], {"TC": 256, "BC": 32}, {"n": n}, suffix="_0")
    write(in_tmp / "h.cu", harness_source(program, 0, [code], {"n": n}))
    build = compile_program("cuda", in_tmp / "h.cu", in_tmp / "h", device.arch)
    assert build.ok, build.message

    def run(**env) -> dict:
        proc = subprocess.run([str(in_tmp / "h"), "0"], capture_output=True, text=True, env={**{k: v for k, v in os.environ.items() if k != "ORCU_TIMER"}, **env},
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    cold, warm = run(ORCU_TIMER="kernel"), run()
    assert cold["status"] == warm["status"] == "ok"
    assert cold["timer"] == "cold" and "timer" not in warm
    fastest = min(cold["kernel_ms"])
    moved = 3 * 8 * n  # x and y read, y written
    assert moved / (fastest * 1e-3) <= device.bandwidth_gbs * 1e9
    print(f"daxpy n=2^21: cold {fastest:.4f} ms ({moved / fastest / 1e6:.0f} GB/s), "
          f"warm {min(warm['kernel_ms']):.4f} ms ({moved / min(warm['kernel_ms']) / 1e6:.0f} GB/s)")
