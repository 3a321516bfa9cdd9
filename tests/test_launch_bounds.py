"""minBlocks: the blocks each multiprocessor must hold, __launch_bounds__'s second figure, a
transform argument like any other (a literal, or a tuning parameter)."""

import subprocess

import pytest
from conftest import EXAMPLES, H100, write

from orcu.codegen.region import generate
from orcu.driver.tuning import region_configs
from orcu.driver.writeback import Choice, tuned_source
from orcu.errors import SpecError
from orcu.execution.runners import Runner
from orcu.execution.toolchain import kernel_resources, nvcc, ptxas_report
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space


def sgemm(transform: str) -> str:
    return (EXAMPLES / "sgemm.c").read_text().replace("mapping='auto', threadCount=TC", transform)


def test_min_blocks_is_the_second_figure_of_the_kernels_launch_bounds(in_tmp):
    for transform, bounds in (
        ("mapping='auto', threadCount=TC", "__launch_bounds__(64)"),
        ("mapping='auto', threadCount=TC, minBlocks=3", "__launch_bounds__(64, 3)"),
        ("threadCount=TC, minBlocks=2", "__launch_bounds__(64, 2)"),
    ):  # Orio's mapping too
        write(in_tmp / "t.c", sgemm(transform))
        program = load("t.c")
        config = performance_space(program, {"n": 37}).first_matching({"TC": 64})
        text = generate(program, program.nests[0], config, {"n": 37}).text
        assert f"__global__ void {bounds} orcu_sgemm_1_kernel(" in text, transform


def test_min_blocks_must_be_a_positive_integer(in_tmp):
    write(in_tmp / "t.c", sgemm("threadCount=TC, minBlocks=0"))
    with pytest.raises(SpecError) as info:
        load("t.c").nests[0].transform.values({"TC": 64})
    assert info.value.render().startswith(
        "t.c:20:61: error: transform argument 'minBlocks' must be a positive integer, got 0"
    )


def test_min_blocks_as_a_tuning_parameter_gives_variants_that_are_right(in_tmp):
    """A parameter of an argument the placements do not read, in a TSG region (the check of the
    placements once evaluated every argument, and failed on it: internal error, NameError)."""
    text = sgemm("mapping='x=j y=i', threadCount=TC, minBlocks=MB, registerTile={'i': 2, 'j': 2}, shared=['A', 'B']")
    write(
        in_tmp / "t.c", text.replace("param TC[] = [64, 128, 256];", "param TC[] = [64];\n        param MB[] = [1, 4];")
    )
    program = load("t.c", device=H100)
    inputs = next(iter(input_space(program).configs()))
    items = [(c, inputs) for c in region_configs(program, 0, inputs, H100)]
    assert sorted(c["MB"] for c, _ in items) == [1, 4]
    results = list(Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, items))
    assert [(r.status, r.message) for r in results] == [("ok", "")] * 2


@pytest.mark.slow
def test_ptxas_keeps_registers_so_that_min_blocks_fit(in_tmp):
    """256 threads and 4 blocks a multiprocessor: at most 65536 / 1024 = 64 registers a thread."""
    write(in_tmp / "t.c", sgemm("mapping='auto', threadCount=TC, minBlocks=4"))
    program = load("t.c")
    inputs = {"n": 256}
    config = performance_space(program, inputs).first_matching({"TC": 256, "registers_i_1": 4, "registers_j_1": 4})
    text, _ = tuned_source(program, [Choice(config, inputs)])
    (in_tmp / "t.cu").write_text(text)
    proc = subprocess.run(
        [nvcc(), "-c", "-arch=sm_90", "t.cu", "-o", "t.o"], capture_output=True, text=True, cwd=in_tmp
    )
    assert proc.returncode == 0, proc.stderr
    report = kernel_resources(
        ptxas_report(in_tmp / "t.cu", H100.arch), generate(program, program.nests[0], config, inputs).host
    )
    assert report.registers <= 64
