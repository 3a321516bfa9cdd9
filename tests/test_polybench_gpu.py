"""bench/polybench_gpu.py: PolyBench's program around PPCG's kernel function and around orcu's,
timed and dumped the same way, and the comparison of the two sides' results. The GPU runs
them (gpu_all's polybench step); here the programs' C is built with gcc and run on the CPU,
with the timing functions as stubs."""

import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
spec = importlib.util.spec_from_file_location("polybench_gpu", ROOT / "bench" / "polybench_gpu.py")
polybench_gpu = importlib.util.module_from_spec(spec)
spec.loader.exec_module(polybench_gpu)
KERNELS = polybench_gpu.KERNELS
POLYBENCH = polybench_gpu.POLYBENCH

# orcu_bench_report's line without a GPU; the calls' count shows in it
STUBS = """#include <stdio.h>
static int orcu_bench_calls_made = 0;
int orcu_standin_calls = 0;
void orcu_bench_warm(void) {}
void orcu_bench_report(void)
{
    fprintf(stderr, "orcu-bench kernels_ms %d.5 launches %d\\n", ++orcu_bench_calls_made, orcu_standin_calls);
}
"""
gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


@pytest.mark.parametrize("option", ["default", "tile16", "tile32"])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_launch_of_ppcgs_host_files_is_timed_and_main_calls_it_in_a_loop(name, option):
    stem = Path(KERNELS[name]).stem
    host = (polybench_gpu.PPCG / option / f"{stem}_host.cu").read_text()
    text = polybench_gpu.ppcg_host(host)
    launches = [line for line in text.splitlines() if "<<<" in line]
    assert len(launches) == host.count("<<<") > 0
    assert all(
        re.search(r"\{ orcu_bench_begin\(0\); \w+ <<<.*>>> \(.*\); orcu_bench_end\(0\); \}$", x) for x in launches
    )
    assert text.startswith('#include "launch_timing.h"\n')
    assert text.count("polybench_start_instruments;") == 1 and "polybench_prevent_dce" not in text
    assert (
        text.index("orcu_bench_warm();")
        < text.index("polybench_start_instruments;")
        < text.index("orcu_bench_report();")
    )


def _program(tmp_path: Path, name: str, text: str, extra: str = "") -> Path:
    """PolyBench's program of kernel ``name`` from C ``text`` at the MINI dataset, built by gcc."""
    (tmp_path / "program.c").write_text(text)
    (tmp_path / "stubs.c").write_text(STUBS + extra)
    polybench_gpu._header(name, tmp_path)
    exe = tmp_path / "program"
    subprocess.run(
        ["gcc", "-O1", "-w", "-DMINI_DATASET", "-DPOLYBENCH_TIME", "-DPOLYBENCH_DUMP_ARRAYS"]
        + ["-I", str(tmp_path), "-I", str(POLYBENCH / "utilities")]
        + [str(tmp_path / "program.c"), str(tmp_path / "stubs.c"), str(POLYBENCH / "utilities" / "polybench.c")]
        + ["-o", str(exe), "-lm"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    return exe


def _run(exe: Path, calls: int, dump: bool) -> subprocess.CompletedProcess:
    env = {"ORCU_BENCH_CALLS": str(calls), **({"ORCU_BENCH_DUMP": "1"} if dump else {})}
    return subprocess.run([str(exe)], capture_output=True, text=True, env=env, check=True)


@gcc
@pytest.mark.parametrize("name", ["gemm.c", "jacobi1d.c", "correlation.c", "floyd.c"])
def test_polybench_main_times_each_call_and_dumps_the_first_calls_results(tmp_path, name):
    source = (POLYBENCH / KERNELS[name]).read_text()
    exe = _program(tmp_path, name, "#include <stdlib.h>\n" + polybench_gpu.timed_main(source))
    run = _run(exe, 3, dump=True)
    assert len(run.stdout.split()) == 3  # PolyBench's timer, once a call
    assert re.findall(r"kernels_ms (\S+)", run.stderr) == ["1.5", "2.5", "3.5"]
    arrays = polybench_gpu.dumped(run.stderr)
    assert run.stderr.count("begin dump:") == len(arrays) >= 1
    assert all(len(values) > 1 for values in arrays.values())
    # the first call's results, whatever the calls: the same dump after one call or three
    assert polybench_gpu.dumped(_run(exe, 1, dump=True).stderr) == arrays
    assert "begin dump" not in _run(exe, 2, dump=False).stderr


def _definition(source: str, function: str) -> str:
    """The text of ``function``'s definition in C ``source``, without its storage class."""
    begin, end = polybench_gpu._parameters(source, function)
    depth, k = 0, source.index("{", end)
    while True:
        depth += {"{": 1, "}": -1}.get(source[k], 0)
        k += 1
        if depth == 0:
            break
    return "void " + function + "(" + source[begin:k]


@gcc
@pytest.mark.parametrize("name", ["gemm.c", "jacobi1d.c", "lu.c", "correlation.c"])
def test_orcus_program_calls_the_tuned_function_in_place_of_polybenchs(tmp_path, name):
    source = (POLYBENCH / KERNELS[name]).read_text()
    function = re.search(r"void\s+(kernel_\w+)\s*\(", source).group(1)
    begin, end = polybench_gpu._parameters(source, function)
    driver = polybench_gpu.orcu_driver(source, function, source[begin:end])
    assert f"void {function}_as_written(" in driver and driver.count(f"void {function}(") == 1
    # a stand-in for the tuned file, in another file: PolyBench's kernel, counting its calls
    # (which the report prints as its launches)
    header = Path(KERNELS[name]).with_suffix(".h").name
    standin = _definition(source, function).replace("{", "{\n  orcu_standin_calls++;", 1)
    exe = _program(tmp_path, name, driver, f'#include <polybench.h>\n#include "{header}"\n' + standin)
    run = _run(exe, 3, dump=True)
    assert re.findall(r"launches (\d+)", run.stderr) == ["1", "2", "3"]  # the stand-in ran, once a call
    # its results are those of PolyBench's program as shipped
    (tmp_path / "shipped").mkdir()
    shipped = _program(tmp_path / "shipped", name, "#include <stdlib.h>\n" + polybench_gpu.timed_main(source))
    expected = polybench_gpu.dumped(_run(shipped, 1, dump=True).stderr)
    assert polybench_gpu.dumped(run.stderr) == expected


@gcc
def test_the_comparison_tells_equal_results_from_wrong_ones():
    theirs = {"C": [1.0, 2.0, -4.0], "D": [0.5]}
    assert polybench_gpu.difference(theirs, theirs) == 0.0
    assert polybench_gpu.difference({"C": [1.0, 2.0, -4.0 + 4e-9], "D": [0.5]}, theirs) == pytest.approx(1e-9)
    assert polybench_gpu.difference({"C": [1.0, 2.0, -3.0], "D": [0.5]}, theirs) == 0.25
    assert polybench_gpu.difference({"C": [1.0, 2.0], "D": [0.5]}, theirs) == math.inf  # an element short
    assert polybench_gpu.difference({"C": [1.0, 2.0, -4.0]}, theirs) == math.inf  # an array missing
    assert polybench_gpu.difference({"C": [1.0, math.nan, -4.0], "D": [0.5]}, theirs) == math.inf
    nans = {"C": [math.nan, 1.0]}
    assert polybench_gpu.difference(nans, nans) == 0.0


def test_an_earlier_runs_best_options_narrow_ppcgs_side_to_them():
    best = {"gemm.c": "tile16", "floyd.c": "tile32"}
    assert polybench_gpu.options_of("gemm.c", best) == ("tile16",)
    assert polybench_gpu.options_of("atax.c", best) == ("default", "tile16", "tile32")  # none recorded: all
    assert polybench_gpu.options_of("floyd.c", best) == ("default",)  # one call of its default, whatever was best


@pytest.mark.slow
def test_the_dry_run_builds_only_the_recorded_best_option(tmp_path):
    recorded = ROOT / "bench" / "results" / "gpu" / "h200" / "polybench.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gpu_all.py"), "--dry-run", "--out", str(tmp_path), "--step", "polybench"]
        + ["--scops", "gesummv.c", "--ppcg-best", str(recorded)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    done = json.loads((tmp_path / "polybench.json").read_text())
    assert done["ppcg"] == {"gesummv.c": {"tile32": {"built": True}}}  # the H200's best for gesummv
    assert done["ppcg_options_from"] == str(recorded) and done["orcu"]["gesummv.c"]["built"]


def _emitted(tmp_path: Path, name: str) -> Path:
    """orcu's CUDA of the scop of kernel ``name`` (tests/polybench_scops/) at its first configuration."""
    scop = polybench_gpu._scop_file(name)
    shutil.copy(scop, tmp_path / scop.name)
    tuned = tmp_path / (scop.stem + ".tuned.cu")
    subprocess.run(
        [sys.executable, "-m", "orcu", "emit", scop.name, "-o", tuned.name],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={**os.environ, "ORCU_HOME": str(tmp_path / "home")},
    )
    return tuned


@gcc
@pytest.mark.slow
@pytest.mark.parametrize("name", ["gemm.c", "correlation.c", "jacobi2d.c", "floyd.c"])
def test_orcus_kernel_function_in_polybenchs_program_computes_polybenchs_results(tmp_path, name):
    tuned = _emitted(tmp_path, name)
    assert polybench_gpu.emulated_check(name, tuned, tmp_path / "scratch") == {
        "emulated_difference": 0.0,
        "emulated_agrees": True,
    }


@gcc
@pytest.mark.slow
def test_a_tuned_function_that_computes_otherwise_disagrees_with_polybench(tmp_path):
    tuned = _emitted(tmp_path, "gemm.c")
    text = tuned.read_text()
    kernel = text.index("__global__")  # its first statement scaling C, in the kernel only
    at = text.index("C[i][j] *= beta;", kernel)
    tuned.write_text(text[:at] + "C[i][j] *= beta + 1e-3;" + text[at + len("C[i][j] *= beta;") :])
    found = polybench_gpu.emulated_check("gemm.c", tuned, tmp_path / "scratch")
    assert found["emulated_agrees"] is False and 1e-5 < found["emulated_difference"] < 1e-2


@gcc
@pytest.mark.slow
def test_gramschmidt_is_not_compared_on_polybenchs_data_but_agrees_on_data_of_full_rank(tmp_path):
    """PolyBench's gramschmidt has more columns than rows and a rank-deficient init: past the rank
    its results are rounding noise, so orcu's program (sums in another order) is timed, not
    compared. On data of full rank with more rows than columns the two agree to rounding."""
    tuned = _emitted(tmp_path, "gramschmidt.c")
    found = polybench_gpu.emulated_check("gramschmidt.c", tuned, tmp_path / "scratch")
    assert found["emulated_agrees"] is None and found["emulated_difference"] > 1e-3
    folder = tmp_path / "scratch" / "emulated" / "gramschmidt"
    init = "      A[i][j] = (((DATA_TYPE) ((i*j) % m) / m )*100) + 10;"
    full_rank = "      A[i][j] = (DATA_TYPE)((i * 7919 + j * 104729 + i * j * 31) % 1000) / 1000.0 + (i == j ? 5 : 0);"
    flags = ["-O1", "-w", "-DM=40", "-DN=30", "-DPOLYBENCH_TIME", "-DPOLYBENCH_DUMP_ARRAYS", "-I", str(folder)]
    flags += ["-I", str(POLYBENCH / "utilities")]
    utilities = str(POLYBENCH / "utilities" / "polybench.c")
    dumps = []
    for program, sources in (("orcu", ["driver.c", "tuned.o"]), ("shipped", ["shipped.c"])):
        source = folder / sources[0]
        assert source.read_text().count(init) == 1
        source.write_text(source.read_text().replace(init, full_rank))
        objects = []
        for c in (sources[0], "timing.c", utilities):
            objects.append(str(folder / f"{Path(c).stem}.{program}.o"))
            subprocess.run(["gcc", *flags, "-c", c, "-o", objects[-1]], cwd=folder, check=True)
        exe = str(folder / f"{program}_full_rank")
        subprocess.run(["g++", *objects, *sources[1:], "-o", exe, "-lm", "-lpthread"], cwd=folder, check=True)
        dumps.append(polybench_gpu.dumped(_run(Path(exe), 1, dump=True).stderr))
    assert {name: len(values) for name, values in dumps[1].items()} == {"R": 900, "Q": 1200}
    assert polybench_gpu.difference(*dumps) < 1e-12
