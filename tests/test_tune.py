"""Evaluation and `orcu tune`: statuses for planted bugs, every example tuned under emulation."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from codegen_cases import CASES
from conftest import EXAMPLES, H100, evaluate, has_gpu, planted, write

from orcu.driver.cli import main
from orcu.driver.report import summary
from orcu.driver.tuning import region_configs
from orcu.execution import executors
from orcu.execution.buildflags import build_flags, spec_defines_and_includes
from orcu.execution.runners import Runner, build_item
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import input_space

# A small self-contained problem: every thread of 8 blocks x 128 has one iteration.
AXPY = (
    CASES["grid_stride"]
    .replace("blockCount=4", "blockCount=8")
    .replace(
        "void f(",
        "/*@ begin PerfTuning (\n def input_params { param n[] = [1000]; }\n"
        " def input_vars { decl dynamic float x[n] = random; decl dynamic float y[n] = random; decl float a = 2.0; }\n"
        ") @*/\nvoid f(",
    )
    .replace("    /*@ end @*/\n}", "    /*@ end @*/\n}\n/*@ end @*/")
)
MULTI = (
    CASES["cache_blocks"]
    .replace(
        "void f(",
        "/*@ begin PerfTuning (\n def input_params { param n[] = [3000]; param nv[] = [4]; }\n"
        " def input_vars { decl dynamic double a[nv] = random; decl dynamic double X[n*nv] = random; decl dynamic double y[n] = 0; }\n"
        ") @*/\nvoid f(",
    )
    .replace("    /*@ end @*/\n}", "    /*@ end @*/\n}\n/*@ end @*/")
)
DOT = (
    CASES["sum_float"]
    .replace(
        "float f(",
        "/*@ begin PerfTuning (\n def input_params { param n[] = [5000]; }\n"
        " def input_vars { decl dynamic float x[n] = random; decl float r = 1.5; }\n"
        ") @*/\nfloat f(",
    )
    .replace("    /*@ end @*/\n    return r;\n}", "    /*@ end @*/\n    return r;\n}\n/*@ end @*/")
)


def test_a_correct_variant_is_ok_with_every_sample(in_tmp):
    result = evaluate(in_tmp, AXPY)
    assert (result.status, result.worst["error"]) == ("ok", 0)
    assert len(result.kernel_ms) == len(result.total_ms) == 5 and result.time_ms > 0


def test_missing_syncthreads_is_a_wrong_result(in_tmp):
    result = evaluate(
        in_tmp,
        MULTI,
        planted(
            "        a_shared[orcu_k] = a[orcu_k];\n    __syncthreads();\n", "        a_shared[orcu_k] = a[orcu_k];\n"
        ),
    )
    assert result.status == "wrong_result"
    assert result.message.startswith("y[0] is nan, expected ")


def test_race_between_blocks_is_a_wrong_result(in_tmp, monkeypatch):
    # The last thread of each block also clears the next block's first element: right when
    # the blocks run in order (the next block writes it afterwards), wrong otherwise.
    source = AXPY.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i];")
    race = planted(
        "        y[i] = a * x[i];\n",
        "        y[i] = a * x[i];\n        if (threadIdx.x == blockDim.x - 1 && i + 1 < orcu_hi) y[i + 1] = 0.0f;\n",
    )
    assert evaluate(in_tmp, source, race).status == "wrong_result"
    monkeypatch.setattr("orcu.execution.runners.EMULATION_SEED", "0")  # blocks in order: the race stays hidden
    assert evaluate(in_tmp, source, race).status == "ok"


def test_wrong_index_is_a_wrong_result(in_tmp):
    result = evaluate(in_tmp, AXPY, planted("y[i] = a * x[i] + y[i];", "y[i] = a * x[i / 2] + y[i];"))
    assert result.status == "wrong_result"
    assert result.worst["name"] == "y" and result.worst["index"] >= 1


def test_out_of_bounds_write_crashes(in_tmp):
    result = evaluate(in_tmp, AXPY, planted("y[i] = a * x[i] + y[i];", "y[i + 4096] = a * x[i] + y[i];"))
    assert result.status == "crash"
    assert result.message.startswith("killed by SIGSEGV")


def test_write_just_past_the_end_crashes(in_tmp):
    # 999 floats leave 4 bytes of padding before the guard page: the padding is checked at cudaFree.
    source = AXPY.replace("param n[] = [1000]", "param n[] = [999]")
    result = evaluate(in_tmp, source, planted("y[i] = a * x[i] + y[i];", "y[i + 1] = a * x[i] + y[i];"))
    assert result.status == "crash"
    assert result.message.startswith(
        "killed by SIGABRT: orcu emulation: a kernel wrote past the end of a 3996-byte allocation"
    )


def test_infinite_loop_is_a_timeout(in_tmp):
    result = evaluate(
        in_tmp,
        AXPY,
        planted("y[i] = a * x[i] + y[i];", "for (volatile int spin = 0; spin >= 0; spin = 0) {}"),
        timeout_floor=2.0,
    )
    assert (result.status, result.message) == ("timeout", "the run took longer than 2.0 s")


# Inputs that take the C code seconds to fill, as the CPU's reference of a large problem takes them
SLOW_INPUTS = (
    (EXAMPLES / "orio" / "init_file_inputs.inc")
    .read_text()
    .replace("#include <math.h>", "#include <math.h>\n#include <unistd.h>")
    .replace("    int k;\n", "    int k;\n    sleep(3);\n")
)


def test_the_watchdog_guards_the_variant_not_the_original_c_code(in_tmp):
    # on the H100, SGEMM of 2048 timed out: the CPU's two references took longer than the minute
    (in_tmp / "init_file_inputs.inc").write_text(SLOW_INPUTS)
    source = (EXAMPLES / "orio" / "init_file.c").read_text()
    result = evaluate(in_tmp, source, params={"TC": 32}, timeout_floor=1.0)
    assert result.status == "ok", result.message
    result = evaluate(in_tmp, source, params={"TC": 32}, timeout_floor=1.0, reference_limit=1.0)
    assert (result.status, result.message) == ("timeout", "the original C code took longer than 1 s at these sizes")


def test_barrier_some_threads_skip_is_a_launch_error(in_tmp):
    # blocks run in the order seed 1 gives, which starts with block 7
    result = evaluate(
        in_tmp, MULTI, planted("    __syncthreads();\n", "    if (threadIdx.x == 7) return;\n    __syncthreads();\n")
    )
    assert result.status == "launch_error"
    assert result.message.startswith(
        "orcu emulation: __syncthreads() in block (7,0,0): 127 of 128 threads wait there, thread 7 never arrives (it has exited)"
    )


def test_thread_missing_from_a_warp_reduction_is_a_launch_error(in_tmp):
    result = evaluate(
        in_tmp,
        DOT,
        planted(
            "    r = orcu_block_reduce<float, orcu_sum, 100>(r);\n",
            "    if (threadIdx.x == 7) return;\n    r = orcu_block_reduce<float, orcu_sum, 100>(r);\n",
        ),
    )
    assert result.status == "launch_error"
    assert result.message.startswith("orcu emulation: warp operation with mask 0xffffffff in block (")
    assert "warp 0: lane 7 has exited" in result.message


def test_shuffle_mask_without_the_calling_lane_is_a_launch_error(in_tmp):
    result = evaluate(
        in_tmp,
        DOT,
        planted(
            "    r = orcu_block_reduce<float, orcu_sum, 100>(r);\n",
            "    r += __shfl_down_sync(0x0000ffffu, r, 1);\n    r = orcu_block_reduce<float, orcu_sum, 100>(r);\n",
        ),
    )
    assert result.status == "launch_error"
    assert "the mask 0x0000ffff leaves out the calling lane 16" in result.message


def test_nvcc_error_is_a_compile_error(in_tmp):
    result = evaluate(
        in_tmp, AXPY, planted("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] + undeclared_name;"), backend="cuda"
    )
    assert result.status == "compile_error"
    assert 'identifier "undeclared_name" is undefined' in result.message


def test_configuration_above_the_device_limits_is_invalid(in_tmp):
    result = evaluate(in_tmp, AXPY.replace("threadCount=128", "threadCount=2048"))
    assert (result.status, result.message) == (
        "invalid",
        "threadCount=2048 is above the 1024 threads per block of NVIDIA H100 80GB HBM3",
    )


def test_build_flags_substitute_parameters():
    assert build_flags("nvcc -O3 @CFLAGS -DTILE=@T@", {"CFLAGS": "-use_fast_math", "T": 8}, "cuda") == (
        "-O3",
        "-use_fast_math",
        "-DTILE=8",
    )
    assert build_flags("nvcc -O3 @CFLAGS -DTILE=@T@", {"CFLAGS": "-use_fast_math", "T": 8}, "emulate") == (
        "-O3",
        "-DTILE=8",
    )
    # -I and -D with their value as the next word keep it (the emulation and the tuned file's own compile)
    assert build_flags("nvcc -O3 -I inc -D N=3 -Xptxas -v", {}, "emulate") == ("-O3", "-I", "inc", "-D", "N=3")
    assert spec_defines_and_includes("nvcc -O3 -I inc -DM=2 -D N=3", {}) == ("-I", "inc", "-DM=2", "-D", "N=3")


def test_body_that_differs_from_the_original_is_refused_before_anything_builds(in_tmp, capsys):
    """It ran every variant into wrong_result; the copies are now compared first (check does it)."""
    src = AXPY.replace(
        "    /*@ end @*/\n}", "    for (i = 0; i < n; i++)\n        y[i] = a * x[i];\n    /*@ end @*/\n}", 1
    )
    write(
        in_tmp / "t.c",
        src.replace("blockCount=8", "blockCount=BC").replace(
            "def input_params", "def performance_params { param BC[] = [4, 8]; }\n def input_params"
        ),
    )
    assert main(["tune", "t.c", "--backend", "emulate", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "error: the loop in Loop(...) and its copy below differ here:" in err
    assert not Path("t.tuned.cu").exists()


SMALL_SPACE = 8  # variants of an example that is tuned whole


def tune_example(in_tmp, monkeypatch, example, backend, budget, search=None):
    """`orcu tune` on a copy of an example (and its sidecar spec), in a fresh ORCU_HOME."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    for name in (example, example + ".orcu.yaml"):
        if (EXAMPLES / name).exists():
            shutil.copy(EXAMPLES / name, in_tmp / name)
    extra = ["--search", search] if search else []
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            example,
            "--backend",
            backend,
            "--budget",
            str(budget),
            "--json",
            *extra,
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.c")))
def test_every_example_tunes_under_emulation(in_tmp, example, monkeypatch):
    # Small spaces (the TSG's examples) are tuned whole: every variant at every input size.
    program = load(EXAMPLES / example)
    variants = summary(program)["total_variants"]  # of each region
    budget = variants * len(program.nests) if variants <= SMALL_SPACE else 2
    proc = tune_example(in_tmp, monkeypatch, example, "emulate", budget, "Exhaustive")
    result = json.loads(proc.stdout)
    assert result["backend"] == "emulate" and result["output"] == example.replace(".c", ".tuned.cu")
    for region in result["regions"]:
        assert set(region["statuses"]) == {"ok"}, region
        if variants <= SMALL_SPACE:
            assert sum(region["statuses"].values()) == variants, region
        assert region["best"]["status"] == "ok" and region["best"]["time_ms"] > 0
    tuned = in_tmp / result["output"]
    build = subprocess.run(
        [nvcc(), "-c", "-arch=sm_90", str(tuned), "-o", str(in_tmp / "tuned.o")], capture_output=True, text=True
    )
    assert build.returncode == 0, build.stderr
    sidecar = in_tmp / (example + ".orcu.yaml")
    assert load(tuned, sidecar if sidecar.exists() else None).nests  # the tuned file can be tuned again


@pytest.mark.gpu
@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.c")))
def test_every_example_tunes_on_the_gpu(in_tmp, example, monkeypatch):
    proc = tune_example(in_tmp, monkeypatch, example, "cuda", 8)
    for region in json.loads(proc.stdout)["regions"]:
        assert region["statuses"].get("ok", 0) >= 1 and set(region["statuses"]) <= {"ok", "invalid"}


@pytest.mark.slow
def test_readme_main_job(in_tmp, monkeypatch):
    """The orcu part of the README's first command, as a user runs it without a GPU."""
    line = next(
        text
        for text in (EXAMPLES.parent / "README.md").read_text().splitlines()
        if text.startswith("python3 -m pip install -e . && orcu tune")
    )
    args = line.split("&& orcu ", 1)[1].split()
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shutil.copytree(EXAMPLES, in_tmp / "annotated_examples")
    proc = subprocess.run([sys.executable, "-m", "orcu", *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    if not has_gpu():
        assert proc.stderr.startswith("orcu: warning: no GPU visible: variants run in orcu's CPU emulation")
    assert proc.stderr.endswith(
        "orcu: wrote annotated_examples/spmv_dia.tuned.cu and annotated_examples/spmv_dia.tuned.h\n"
    )
    assert (in_tmp / "annotated_examples" / "spmv_dia.tuned.cu").exists()


def test_one_broken_variant_in_a_batch_costs_only_its_own_status(in_tmp):
    write(
        in_tmp / "t.c",
        AXPY.replace("blockCount=8", "blockCount=BC").replace(
            "def input_params", "def performance_params { param BC[] = [2, 4, 8, 16]; }\n def input_params"
        ),
    )
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))

    def break_second(code):
        if code.host.endswith("_v1"):
            code.text = code.text.replace("y[i] = a * x[i] + y[i];\n    }", "y[i] = a * x[i] + undeclared;\n    }")
        return code

    runner = Runner("emulate", H100, in_tmp / "build", jobs=1)  # one builder: all four in one harness
    results = list(runner.evaluate(program, 0, [({"BC": b}, inputs) for b in (2, 4, 8, 16)], break_second))
    assert [r.status for r in results] == ["ok", "compile_error", "ok", "ok"]
    assert "undeclared" in results[1].message and "was not declared in this scope" in results[1].message


def axpy_with_block_counts(in_tmp, monkeypatch, jobs):
    """An axpy tuned over its block count (1 to 16), its emulated runner, and the sources
    that runner compiles, as it compiles them."""
    write(
        in_tmp / "t.c",
        AXPY.replace("blockCount=8", "blockCount=BC").replace(
            "def input_params", "def performance_params { param BC[] = [1, 2, 4, 8, 16]; }\n def input_params"
        ),
    )
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    compiled = []
    real = executors.compile_program
    monkeypatch.setattr(
        executors, "compile_program", lambda *a, **k: compiled.append(Path(a[1]).read_text()) or real(*a, **k)
    )
    return program, inputs, Runner("emulate", H100, in_tmp / "build", jobs=jobs), compiled


def test_batches_ahead_are_built_while_a_batch_runs(in_tmp, monkeypatch):
    program, inputs, runner, compiled = axpy_with_block_counts(in_tmp, monkeypatch, jobs=1)
    ahead = [[({"BC": b}, inputs)] for b in (4, 8, 16)]  # a climb's next moves, one point each
    first = list(runner.evaluate(program, 0, [({"BC": 2}, inputs)], ahead=ahead))
    later = list(runner.evaluate(program, 0, [({"BC": 8}, inputs)])) + list(
        runner.evaluate(program, 0, [({"BC": 16}, inputs)])
    )
    assert [r.status for r in first + later] == ["ok", "ok", "ok"]
    assert len(compiled) == 3  # BC=2, then while it ran 4 alone (asked soonest) and 8 and 16 in one harness
    assert all(r.compile_s > 0 for r in later)  # their share of the harness's build time
    runner.drop_ahead()


def test_a_whole_batch_ahead_is_built_as_if_asked_now(in_tmp, monkeypatch):
    """Exhaustive's next 16 are all asked for: their harnesses are split over the builders,
    not grown from one variant as a climb's guesses are (each harness costs ~1 s of g++)."""
    program, inputs, runner, compiled = axpy_with_block_counts(in_tmp, monkeypatch, jobs=2)
    following = [({"BC": b}, inputs) for b in (2, 4, 8, 16)]
    first = list(runner.evaluate(program, 0, [({"BC": 1}, inputs)], ahead=[following]))
    later = list(runner.evaluate(program, 0, following))
    assert [r.status for r in first + later] == ["ok"] * 5
    # BC=1 alone, then two harnesses of two variants, one a builder (built at once, in any order)
    kernels = [
        text.count("__global__") - text.count("__global__ void orcu_wait_kernel") for text in compiled
    ]  # the timer's own
    assert sorted(kernels) == [1, 2, 2]


@pytest.mark.parametrize("flags", [["-O1", "-O2"], ["", "-O3", "-DSCALE=2"]])
def test_configurations_whose_flags_alternate_share_a_harness_per_flag_set(in_tmp, monkeypatch, flags):
    """A covering array's flags change from one configuration to the next: each set of flags
    is one harness all the same, and every result is its own configuration's, in order."""
    write(
        in_tmp / "t.c",
        AXPY.replace("blockCount=8", "blockCount=BC").replace(
            "def input_params",
            f"def performance_params {{ param BC[] = [1, 2, 4, 8, 16, 32]; param CF[] = {flags!r}; }}\n"
            " def build { arg build_command = 'nvcc @CF@'; }\n def input_params",
        ),
    )
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    compiled = []
    real = executors.compile_program
    monkeypatch.setattr(
        executors, "compile_program", lambda *a, **k: compiled.append((a[4], Path(a[1]).read_text())) or real(*a, **k)
    )
    configs = [{"BC": b, "CF": flags[k % len(flags)]} for k, b in enumerate([1, 2, 4, 8, 16, 32])]
    results = list(
        Runner("emulate", H100, in_tmp / "build", jobs=1).evaluate(program, 0, [(c, inputs) for c in configs])
    )
    assert [(r.status, r.params) for r in results] == [("ok", c) for c in configs]
    assert len(compiled) == len(flags)  # one harness for each set of flags, whatever the order
    for flag, (used, text) in zip(flags, compiled):
        assert set(flag.split()) <= set(used)
        assert text.count("__global__") - text.count("__global__ void orcu_wait_kernel") == 6 // len(flags)


def test_devices_without_a_gpu_shows_the_profile(capsys, monkeypatch):
    monkeypatch.setattr("orcu.device.gpu_visible", lambda: False)  # as on a machine without one, GPU or not
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "no GPU visible; tuning without one uses a device profile (default H100):\nNVIDIA H100 80GB HBM3 (sm_90, 132 SMs, profile)\n"
    )
    assert main(["devices", "--profile", "a100"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "NVIDIA A100-SXM4-80GB (sm_80, 108 SMs, profile)"
    assert main(["devices", "--profile", "B200"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "orcu: error: unknown device profile 'B200' (known: H100, H200, A100, L40S, V100)"
    )


def test_emulated_tuning_compiles_for_the_profile(in_tmp, monkeypatch, capsys):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", AXPY)
    assert main(["tune", "t.c", "--backend", "emulate", "--device-profile", "V100", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["device"] == "Tesla V100-SXM2-32GB (sm_70, emulated on the CPU)"
    assert "Device: Tesla V100-SXM2-32GB (sm_70, emulated on the CPU)." in Path("t.tuned.cu").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("example", ["dot.c", "spmv_dia.c", "two_regions.c"])
def test_harness_builds_with_nvcc(in_tmp, example):
    """What a GPU run would execute: the batched harness of each region, built by nvcc for sm_90."""
    program = load(EXAMPLES / example)
    inputs = next(iter(input_space(program).configs()))
    runner = Runner("cuda", H100, in_tmp / "build", jobs=1)
    for region in range(len(program.nests)):
        configs = region_configs(program, region, inputs)[:3]
        batch = [build_item(program, region, k, c, inputs, "cuda") for k, c in enumerate(configs)]
        built = runner._build_batch(program, region, batch, None)
        assert [b.ok for _, _, b in built] == [True] * len(configs), built[0][2].message
        assert len({exe for exe, _, _ in built}) == 1  # one harness for the batch


def test_a_tuned_file_tunes_again(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", AXPY)
    assert main(["tune", "t.c", "--backend", "emulate", "-o", "first.cu"]) == 0
    assert main(["tune", "first.cu", "--backend", "emulate", "-o", "second.cu"]) == 0
    second = Path("second.cu").read_text()
    assert second.count(" orcu_f_1_kernel(") == 1
    assert second.count("// >>> orcu generated code: begin") == 3  # the header, the code, f()'s C linkage


def test_an_array_missing_from_input_vars_is_a_diagnostic(in_tmp, capsys):
    write(in_tmp / "t.c", AXPY.replace(" decl dynamic float y[n] = random;", ""))
    assert main(["tune", "t.c", "--backend", "emulate"]) == 2
    err = capsys.readouterr().err
    assert (
        "t.c:5:46: error: 'y' is an array the tuned code uses: declare it in input_vars so that orcu can allocate and fill it\n"
        in err
    )


def test_elements_a_continue_skips_keep_their_values(in_tmp):
    # Half the iterations skip the write: y must be copied in, or they come back as garbage.
    source = AXPY.replace(
        "        y[i] = a * x[i] + y[i];\n",
        "    {\n        if (x[i] < 1.0f) continue;\n        y[i] = a * x[i];\n    }\n",
    )
    result = evaluate(in_tmp, source)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_break_in_an_inner_loop_runs_as_written(in_tmp):
    source = MULTI.replace(
        "            y[i] += a[k] * X[i + k*n];\n",
        "        {\n            if (X[i + k*n] > 1.4) break;\n            y[i] += a[k] * X[i + k*n];\n        }\n",
    )
    result = evaluate(in_tmp, source, params={})
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message
