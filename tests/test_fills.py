"""How the TSG's shared tiles are filled and read: with doubleBuffer, a strip's tiles in two buffers
(the next strip's copy in flight while the threads read this one, one barrier a strip), and no
vectorized variant offered whose tile reads conflict in banks where the same one without vectors
reads conflict-free."""

import json
import re
import subprocess
import sys

import pytest
from conftest import EXAMPLES, H100, covering_configs, write

from orcu.codegen.region import generate, transform_values
from orcu.driver.tuning import region_configs
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.runners import Runner, invalid_reason
from orcu.execution.toolchain import kernel_resources, nvcc, ptxas_report
from orcu.planning.program import load
from orcu.planning.space import performance_space
from orcu.tsg.shared_tiles import STATIC_SHARED, double_buffered


def first(program, inputs, **fixed):
    return performance_space(program, inputs).first_matching(fixed)


def sgemm(in_tmp, double=None):
    """sgemm.c as shipped (doubleBuffer left to its default, two buffers), or with doubleBuffer=``double``."""
    text = (EXAMPLES / "sgemm.c").read_text()
    if double is not None:
        text = text.replace("threadCount=TC", f"threadCount=TC, doubleBuffer={double}")
    if double == "DB":
        text = text.replace(
            "param TC[] = [64, 128, 256];", "param TC[] = [64, 128, 256];\n        param DB[] = [False, True];"
        )
    write(in_tmp / "sgemm.c", text)
    return load("sgemm.c", device=H100)


def sgemm_code(in_tmp, inputs, **fixed):
    program = sgemm(in_tmp)
    config = first(program, inputs, shared_A_1=True, shared_B_1=True, **fixed)
    return program, config, generate(program, program.nests[0], config, inputs)


def strip_loop(text: str) -> str:
    """The double-buffered strip loop's text, from its header to its closing brace."""
    start = text.index("for (int orcu_buffer = 0;")
    indent = text[text.rindex("\n", 0, start) + 1 : start]
    return text[start : text.index("\n" + indent + "}\n", start)]


def test_a_strips_tiles_have_two_buffers_and_one_barrier_a_strip(in_tmp):
    _, config, code = sgemm_code(in_tmp, {"n": 37}, TC=64, registers_i_1=2, registers_j_1=2)
    text = code.text
    assert re.search(r"ORCU_SHARED_TILE\(float, A_buffers, \[2\]\[\d+\]\[16\], 1\);", text)
    assert re.search(r"ORCU_SHARED_TILE\(float, B_buffers, \[2\]\[16\]\[\d+\], 1\);", text)
    assert "copy_async" in code.needs
    # the first strip copied before the loop, into buffer 0, and waited for
    prologue = text[text.index("{  // the first strip") : text.index("for (int orcu_buffer = 0;")]
    assert "auto A_shared = A_buffers[0];" in prologue and prologue.count("__syncthreads();") == 1
    loop = strip_loop(text)
    assert loop.startswith("for (int orcu_buffer = 0; k0 < n; k0 += 16, orcu_buffer ^= 1) {")
    assert "if (k0 + 16 < n) {  // the next strip, into the other buffer" in loop
    assert "const orcu_index k0_next = k0 + 16;" in loop and "auto B_shared = B_buffers[orcu_buffer ^ 1];" in loop
    assert "auto A_shared = A_buffers[orcu_buffer];" in loop
    assert loop.count("__syncthreads();") == 1 and loop.count("orcu_copies_wait();") == 1
    # the 64-bit index instance: one buffer, filled between two barriers a strip
    assert "} else {  // 64-bit indices: one buffer" in text and "if (sizeof(orcu_index) == 4) {" in text
    assert text.count("__syncthreads();") == 2 + 2


def test_with_doubleBuffer_false_a_strip_has_one_buffer_and_as_a_parameter_it_is_pruned_where_nothing_gets_two(in_tmp):
    program = sgemm(in_tmp, "False")
    config = first(program, {"n": 37}, TC=64, shared_A_1=True, shared_B_1=True)
    text = generate(program, program.nests[0], config, {"n": 37}).text
    assert "A_buffers" not in text and "orcu_copy_async" not in text and text.count("__syncthreads();") == 2
    program = sgemm(in_tmp, "DB")
    configs = region_configs(program, 0, {"n": 37}, H100)
    assert {(c["DB"], c["shared_A_1"] or c["shared_B_1"]) for c in configs} == {
        (False, False),
        (False, True),
        (True, True),
    }
    plain = next(c for c in configs if not c["shared_A_1"] and not c["shared_B_1"])
    why = invalid_reason(
        transform_values(program, program.nests[0], {**plain, "DB": True}, {"n": 37}), H100, program.nests[0]
    )
    assert why == (
        "doubleBuffer: no shared tile of a strip gets two buffers with the mapping 'x=j y=i' (none is copied per "
        "strip of one loop, or two buffers of each would not fit 49152 bytes): the same code as doubleBuffer=False"
    )


def test_tiles_that_do_not_fit_twice_or_end_off_a_vector_keep_one_buffer():
    placed = next(p for p in load(EXAMPLES / "sgemm.c").nests[0].recipe.placements if p.schedule == "x=j y=i")
    tiles, sizes = list(placed.shared), {"A": 4, "B": 4}
    assert double_buffered(tiles, {"i": 64, "j": 256, "k": 16}, sizes)  # 4 + 16 KiB, twice: 40 KiB
    assert not double_buffered(tiles, {"i": 256, "j": 256, "k": 16}, sizes)  # 16 + 16 KiB, twice: 64 KiB
    assert STATIC_SHARED == 2 * (256 * 16 * 4 + 16 * 128 * 4)  # the limit itself fits
    assert double_buffered(tiles, {"i": 256, "j": 128, "k": 16}, sizes)
    assert not double_buffered(tiles, {"i": 3, "j": 32, "k": 1}, sizes)  # A's 3 floats: the second buffer off 16 bytes
    conv = next(p for p in load(EXAMPLES / "conv2d.c").nests[0].recipe.placements if p.schedule == "x=j y=i")
    assert not double_buffered(
        list(conv.shared), {"i": 8, "j": 32, "p": 16, "q": 16}, {"in": 4, "mask": 4}
    )  # pairs of strips


SWEEPS = """void f(int n, int m, int p, const double *A, const double *B, double *C) {
    int i, j, r, k;
    double acc;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param n[] = [1, 19]; param m[] = [1, 37]; param p[] = [1, 16, 41]; }
    def input_vars {
        decl dynamic double A[n*p] = random;
        decl dynamic double B[p*m] = random;
        decl dynamic double C[n*m] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='x=j y=i', threadCount=TC, doubleBuffer=True)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            acc = 0.0;
            for (r = 0; r < 3; r++)
                for (k = 0; k < p; k++)
                    acc += A[i*p + k] * B[k*m + j] * (r + 1);
            C[i*m + j] = acc;
        }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


@pytest.mark.slow
@pytest.mark.whole_space
def test_every_double_buffered_variant_is_right_at_edge_sizes(in_tmp):
    """Strips of k inside a sequential loop (each sweep starts over from buffer 0, after the last
    sweep's barrier), trip counts of one strip, of a whole number of strips, and one more; each
    pair of values of the configurations with shared tiles, in emulation (its threads switch
    only at barriers, so a buffer overwritten before every thread has read it gives a wrong
    result); every configuration under bench/validate_all.py."""
    write(in_tmp / "t.c", SWEEPS)
    program = load("t.c", device=H100)
    items = []
    for inputs in ({"n": 19, "m": 37, "p": 41}, {"n": 1, "m": 1, "p": 1}, {"n": 19, "m": 37, "p": 16}):
        shared = covering_configs(program, 0, inputs, lambda c: c["shared_A_1"] or c["shared_B_1"])
        items += [(config, inputs) for config in shared]
    doubled = ["orcu_buffer ^= 1" in generate(program, program.nests[0], c, i).text for c, i in items]
    assert 10 < sum(doubled) < len(doubled)  # and a few whose two buffers would not fit: one buffer
    results = list(Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, items))
    assert [(r.status, r.message) for r in results] == [("ok", "")] * len(items)


@pytest.mark.slow
def test_every_sgemm_variant_with_both_tiles_is_right_where_strips_and_tiles_end_inside_and_at_the_edge(in_tmp):
    """n = 37: strips of 16 end at 16, 32 and 37, block tiles inside and at the edge; vectors
    where the rows allow and element by element where they do not."""
    program = sgemm(in_tmp)
    inputs = {"n": 37}
    items = [
        (c, inputs)
        for c in region_configs(program, 0, inputs, H100)
        if c["shared_A_1"] and c["shared_B_1"] and c["TC"] == 64
    ]
    assert len(items) > 20
    results = list(Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, items))
    assert [(r.status, r.message) for r in results] == [("ok", "")] * len(items)


@pytest.mark.slow
def test_nvcc_copies_asynchronously_on_sm_80_and_later_and_plainly_before(in_tmp):
    """On sm_90 the fills are cp.async and the strip's loop has one barrier; ptxas spills nothing
    at the widest tile; sm_75 (before cp.async) compiles plain copies without a warning."""
    program, config, code = sgemm_code(in_tmp, {"n": 4096}, TC=256, registers_i_1=8, registers_j_1=8, vectorize_1=True)
    text, _ = tuned_source(program, [Choice(config, {"n": 4096})])
    (in_tmp / "t.cu").write_text(text)
    for arch in ("sm_90", "sm_75"):
        proc = subprocess.run(
            [nvcc(), "-ptx", f"-arch={arch}", "-Xcompiler", "-Wall", "t.cu", "-o", f"{arch}.ptx"],
            capture_output=True,
            text=True,
            cwd=in_tmp,
        )
        assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    ptx90, ptx75 = (in_tmp / "sm_90.ptx").read_text(), (in_tmp / "sm_75.ptx").read_text()
    assert "cp.async.ca.shared.global" in ptx90 or "cp.async.cg.shared.global" in ptx90
    assert "cp.async" not in ptx75
    # the first strip's and one a strip (32-bit indices), two a strip with one buffer (64-bit)
    assert len(re.findall(r"\bbar\.sync\b", ptx90)) == 2 + 2
    report = kernel_resources(ptxas_report(in_tmp / "t.cu", H100.arch), code.host)
    assert (report.stack_bytes, report.spill_bytes, report.shared_bytes) == (0, 0, 2 * (64 * 16 + 16 * 256) * 4)


def test_a_vectorized_variant_whose_tile_reads_conflict_is_not_offered_beside_its_conflict_free_twin():
    """conv2d's image read with vectors along j: a thread's iterations a vector apart, so a warp's
    lanes read every fourth word (4 ways in a bank); without vectors, consecutive lanes read
    consecutive words."""
    program = load(EXAMPLES / "conv2d.c", device=H100)
    inputs = {"n": 33, "m": 45, "k": 5}
    nest = program.nests[0]
    configs = region_configs(program, 0, inputs, H100)
    assert not [c for c in configs if c["vectorize_1"] and c["shared_in_1"]]
    twin = next(c for c in configs if c["shared_in_1"] and c["registers_j_1"] == 4 and not c["vectorize_1"])
    assert generate(program, nest, twin, inputs).traffic(H100.multiprocessors).banks == (("in_shared", 1),)
    why = invalid_reason(transform_values(program, nest, {**twin, "vectorize_1": True}, inputs), H100, nest)
    assert why == (
        "vectorize: the reads of 'in''s shared tile would put up to 4 requests of a warp in one bank (a thread's "
        "iterations along x a vector apart); the same configuration without vectorize reads it free of conflicts"
    )


def test_a_conflicted_variant_the_user_asked_for_is_still_built_and_declares_its_conflicts(in_tmp):
    """vectorize=True written in the transform: no twin without vectors in the space."""
    text = (
        (EXAMPLES / "conv2d.c")
        .read_text()
        .replace(
            "mapping='auto', threadCount=TC",
            "mapping='x=j y=i', threadCount=TC, vectorize=True, registerTile={'j': 4}, shared=['in']",
        )
    )
    write(in_tmp / "t.c", text)
    program = load("t.c", device=H100)
    inputs = {"n": 33, "m": 45, "k": 5}
    configs = region_configs(program, 0, inputs, H100)
    assert configs
    code = generate(program, program.nests[0], configs[0], inputs)
    assert "// reads: up to 4 requests of a warp in one bank" in code.text
    (result,) = Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, [(configs[0], inputs)])
    assert (result.status, result.message) == ("ok", "")


GUARDED = """void f(int n, int m, {t} out[n][m], const {t} in[n][m])
{{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{ decl dynamic {t} out[n][m] = 0; decl dynamic {t} in[n][m] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {{
            out[i][j] = in[i][j];
            if ({up}) out[i][j] += in[i - {lo}][j];
            if ({right}) out[i][j] = out[i][j] + 2 * in[i][j + {hi}];
        }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize(
    "t, n, m, lo, hi, up, right, box",
    [
        # the rows above from lo, the columns to the right up to m - hi: the fill keeps inside each read's box
        ("double", 19, 23, 1, 1, "i >= 1", "j < m - 1", "(i0 - 1 + orcu_a0) >= 0 && (i0 - 1 + orcu_a0) <= n - 2"),
        ("float", 9, 37, 2, 3, "0 < i - 1", "j + 3 <= m - 1", "(i0 - 2 + orcu_a0) >= 0 && (i0 - 2 + orcu_a0) <= n - 3"),
        ("int", 26, 12, 1, 2, "i > 0 && j >= 0", "m - 2 > j", "(i0 - 1 + orcu_a0) >= 0 && (i0 - 1 + orcu_a0) <= n - 2"),
    ],
)
def test_reads_under_tests_of_the_iterators_get_a_tile_filled_inside_their_boxes(
    in_tmp, t, n, m, lo, hi, up, right, box
):
    """``if (i >= 1) ... in[i - 1][j]``: the test narrows the rows that read reaches, so ``in``
    gets a shared tile whose fill reads no row above the array (the loops' whole range would
    take row -1); every variant, tile or not, is right."""
    write(in_tmp / "g.c", GUARDED.format(t=t, n=n, m=m, lo=lo, hi=hi, up=up, right=right))
    program = load("g.c", device=H100)
    inputs = {"n": n, "m": m}
    config = first(program, inputs, shared_in_1=True)
    text = generate(program, program.nests[0], config, inputs).text
    fill = next(line for line in text.splitlines() if "ORCU_TILE_DATA(in_shared)" in line)
    assert box in fill
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "g.c", "--backend", "emulate", "--budget", "400", "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    [region] = json.loads(proc.stdout)["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 16, region["statuses"]


def test_a_read_under_a_test_that_does_not_bound_an_iterator_gets_no_tile(in_tmp):
    """``i != 3`` and a test of the data leave the rows read unbounded by them: no tile."""
    for up in ("i != 3", "in[i][j] > 0"):
        write(in_tmp / "g.c", GUARDED.format(t="double", n=9, m=9, lo=1, hi=1, up=up, right="j < m - 1"))
        program = load("g.c", device=H100)
        assert "shared_in_1" not in {p.name for p in performance_space(program, {"n": 9, "m": 9}).params}
        text = subprocess.run(
            [sys.executable, "-m", "orcu", "check", "g.c", "--explain"], capture_output=True, text=True
        ).stdout
        assert "'in[i - 1][j]' is read under a condition" in text
