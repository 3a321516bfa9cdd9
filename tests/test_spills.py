"""A register tile that ptxas spills where it is left to its own register target is built
again with a minBlocks that gives it the registers (runners.Runner._build_variants): the variant is
kept, its result says the minBlocks, and the tuned file written from it carries it."""

import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, H100, write

from orcu.codegen.region import generate
from orcu.driver.api import tune
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.runners import Runner, min_blocks_to_try
from orcu.execution.toolchain import KernelResources, kernel_instances, ptxas_report
from orcu.planning.program import load
from orcu.planning.space import performance_space

WRITTEN = Path(__file__).parent / "c_as_written"


def sgemm(placement: str) -> str:
    """sgemm.c with 64 threads and the mapping and placements given."""
    text = (EXAMPLES / "sgemm.c").read_text().replace("param TC[] = [64, 128, 256];", "param TC[] = [64];")
    return text.replace("mapping='auto', threadCount=TC", f"mapping='x=j y=i', threadCount=TC, {placement}")


def spills(path, config: dict, inputs: dict) -> list[int]:
    """ptxas's bytes of spills and stack frame of each instance of the file's kernel (sm_90)."""
    program = load(path)
    text, _ = tuned_source(program, [Choice(config, inputs)])
    cu = write(path.with_suffix(".cu"), text)
    host = generate(program, program.nests[0], config, inputs).host
    return [r.local_bytes for r in kernel_instances(ptxas_report(cu, H100.arch), host).values()]


def test_a_tile_ptxas_spilled_is_kept_with_the_min_blocks_that_end_the_spills(in_tmp):
    path = write(in_tmp / "t.c", sgemm("registerTile={'i': 1, 'j': 2}, shared=['A'], sharedDepth=32"))
    inputs = {"n": 64}
    [config] = performance_space(load(path), inputs).configs()
    # what the runner mends: ptxas (nvcc 13, sm_90) spills this 1 x 2 tile under __launch_bounds__(64) alone
    assert any(spills(path, config, inputs)), "this nvcc no longer spills the tile: the test needs another one"
    tuning = tune(path, backend="model", inputs=inputs, progress=False, output=in_tmp / "t.tuned.cu")
    region = tuning.regions[0]
    blocks = region.best.params["minBlocks_1"]
    # predicted, then checked in the emulation
    assert (region.best.status, region.checked, blocks > 1) == ("predicted", True, True), region.best.message
    tuned = (in_tmp / "t.tuned.cu").read_text()
    assert re.findall(r"__launch_bounds__\([^)]*\) orcu_sgemm_1", tuned) == [
        f"__launch_bounds__(64, {blocks}) orcu_sgemm_1"
    ]
    assert spills(path, region.best.params, inputs) == [0, 0]
    # the results database keeps the result under the configuration the search asked for, with its minBlocks
    again = tune(path, backend="model", inputs=inputs, progress=False, output=in_tmp / "again.cu").regions[0]
    assert (again.cached, again.new, again.best.params) == (1, 0, region.best.params)
    assert (in_tmp / "again.cu").read_text().split("\n", 8)[8] == tuned.split("\n", 8)[8]  # the same, its header apart


@pytest.mark.slow
def test_the_variants_of_a_batch_that_spilled_are_built_again_together_and_one_too_large_stays_out(in_tmp):
    """sgemm.c's space at 64 threads: two small tiles ptxas spills (nvcc 13, sm_90), an 8 x 8 tile
    with A from global memory that it spills at 255 registers, and a tile it does not spill."""
    program = load(EXAMPLES / "sgemm.c", device=H100)
    inputs = {"n": 64}
    space = performance_space(program, inputs)
    picks = [
        {"registers_i_1": 1, "registers_j_1": 2, "shared_A_1": False, "shared_B_1": True, "vectorize_1": False},
        {"registers_i_1": 2, "registers_j_1": 2, "shared_A_1": False, "shared_B_1": True, "vectorize_1": True},
        {"registers_i_1": 8, "registers_j_1": 8, "shared_A_1": False, "shared_B_1": True, "vectorize_1": False},
        {"registers_i_1": 4, "registers_j_1": 4, "shared_A_1": True, "shared_B_1": True, "vectorize_1": True},
    ]
    configs = [space.first_matching({"TC": 64, "mapping_1": "x=j y=i", "sharedDepth_1": 16, **pick}) for pick in picks]
    results = list(Runner("model", H100, in_tmp / "build", jobs=2).evaluate(program, 0, [(c, inputs) for c in configs]))
    statuses = [(r.status, r.params.get("minBlocks_1")) for r in results]
    assert [s for s, _ in statuses] == ["predicted", "predicted", "invalid", "predicted"], [r.message for r in results]
    # ptxas took all 255 registers a thread may have for the 8 x 8 tile: no minBlocks can give it more, none is tried
    assert statuses[0][1] > 1 and statuses[1][1] > 1 and statuses[2][1] is None and statuses[3][1] is None
    for r, config in zip(results, configs):
        assert r.params == {**config, **({"minBlocks_1": r.params["minBlocks_1"]} if "minBlocks_1" in r.params else {})}
    assert re.fullmatch(
        r"ptxas keeps part of the register tile in local memory \(\d+ bytes of stack frame, \d+ bytes of "
        r"spill stores and loads, 255 registers\): not kept",
        results[2].message,
    ), results[2].message


def test_min_blocks_are_tried_unless_every_instance_that_spilled_had_all_the_registers_a_thread_may_have():
    """H100: 65536 registers a multiprocessor, 255 a thread at most, allocated 8 at a time."""
    spilled_168, spilled_255 = KernelResources(168, 0, 16, 48), KernelResources(255, 0, 80, 184)
    clean_255, clean_96 = KernelResources(255, 0, 0, 0), KernelResources(96, 0, 0, 0)
    # 168 spilled and 96: a budget of 176 a thread fits one block of 256 (65536 / (256 x 176)), then 1
    assert min_blocks_to_try([spilled_168, clean_96], 256, H100) == (1,)
    assert min_blocks_to_try([spilled_168, clean_96], 64, H100) == (5, 1)
    # the other instance took 255 without spilling: the one at 168 may still get more, and 3 blocks
    # of 64 already give a thread all 255 (65536 / 192 = 341), so minBlocks 1 is not tried as well
    assert min_blocks_to_try([spilled_168, clean_255], 64, H100) == (3,)
    assert min_blocks_to_try([spilled_255, clean_96], 64, H100) == ()
    assert min_blocks_to_try([spilled_168], 1024, H100) == ()  # 64 registers a thread at most in a block of 1024


@pytest.mark.slow
@pytest.mark.parametrize("t", ["float", "double"])
def test_a_gemm_with_its_sum_in_a_local_gets_a_tuned_file_ptxas_keeps_in_registers(in_tmp, t):
    """gemm_local.c (`float s = 0;` in the nest), --search TSG, budget 40: the tuned file failed to
    compile for sm_90 or ptxas gave it a stack frame (issue 60)."""
    text = (WRITTEN / "gemm_local.c").read_text().replace("param n[] = [19]", "param n[] = [96]")
    path = write(in_tmp / "g.c", text.replace("float", t))
    tune(path, backend="emulate", search="TSG", budget=40, progress=False, output=in_tmp / "g.tuned.cu")
    report = ptxas_report(in_tmp / "g.tuned.cu", H100.arch)
    if report == "no nvcc":
        pytest.skip("ptxas's report needs nvcc")
    assert isinstance(report, dict) and report and all(r.local_bytes == 0 for r in report.values()), report
