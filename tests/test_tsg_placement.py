"""The TSG, part 2: Phase II's placements (register tiles, shared tiles, the read-only path),
the parameters through which the search chooses them, and the kernels they give."""

import json
import re
import subprocess
import sys
from itertools import product

import pytest
from conftest import EVERY, EXAMPLES, H100, covering_results, diagnose, evaluate, has_gpu, planted, write

from orcu.codegen.region import generate
from orcu.driver.cli import main
from orcu.driver.preflight import limits
from orcu.execution.runners import Runner
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space
from orcu.tsg.plan import REGISTER_TILES

WRITTEN = "the nest writes it (shared copies are for data the block only reads)"


def config(program, inputs, **fixed):
    """The first configuration with these values (the others at their first valid values)."""
    return performance_space(program, inputs).first_matching(fixed)


def placements(example):
    nest = load(EXAMPLES / example).nests[0]
    return {p.schedule: p for p in nest.recipe.placements}


@pytest.mark.parametrize("example", ["sgemm.c", "dgemm.c"])
def test_gemm_tiles_its_accumulators_in_registers_and_copies_a_and_b_per_strip_of_k(example):
    p = placements(example)["x=j y=i"]
    assert (p.blocked, p.grid, p.accumulators, p.read_only) == (None, ("i", "j"), ("sum",), ("A", "B"))
    assert [(t.array, t.loop, t.padded, t.reuse) for t in p.shared] == [("A", "k", False, 16), ("B", "k", False, 16)]
    assert dict(p.rejected) == {"C": WRITTEN}
    counts = {"i": 32, "j": 64, "k": 16}  # 16 x 8 threads, a 2 x 4 register tile, strips of 16
    assert (p.tile("A").shape(counts), p.tile("B").shape(counts)) == ((32, 16), (16, 64))


def test_transposed_gemv_copies_x_and_reads_a_coalesced_from_global_memory():
    p = placements("gemv_t.c")["x=j"]
    assert (p.blocked, p.grid, p.accumulators) == (None, ("j",), ())
    assert [(t.array, t.loop) for t in p.shared] == [("x", "i")]
    assert dict(p.rejected) == {
        "A": "no reuse across the threads of a block: each element is read once (16 threads per axis)",
        "y": WRITTEN,
    }
    program = load(EXAMPLES / "gemv_t.c")
    code = generate(
        program, program.nests[0], config(program, {"n": 41, "m": 37}, TC=64, registers_j_1=2, shared_x_1=True)
    )
    assert (
        "ORCU_SHARED_TILE(double, x_buffers, [2][16], 1);" in code.text
    )  # two buffers, the next strip copied meanwhile
    assert "double y_i_acc_0 = j_0 < m ? y[j_0] : (double)0;" in code.text  # y[j] in a register over i, per iteration
    assert "y_i_acc_1 += A[i * m + j_1] * x_shared[i - i0];" in code.text


def test_convolution_copies_the_image_window_with_its_halo_once_for_every_filter_tap():
    p = placements("conv2d.c")["x=j y=i"]
    assert (p.grid, p.accumulators) == (("i", "j"), ("acc",))
    assert [(t.array, t.outer, t.loop, t.padded) for t in p.shared] == [
        ("in", "p", "q", False),
        ("mask", "p", "q", False),
    ]
    counts = {"i": 8, "j": 32, "p": 16, "q": 16}
    assert p.tile("in").shape(counts) == (
        8 + 16 - 1,
        32 + 16 - 1,
    )  # the block's window widened by a strip of each filter loop
    assert p.tile("mask").shape(counts) == (16, 16)
    assert (
        "  shared: 'in' copied per pair of strips of the loops on 'p' and 'q', read 68.2x per element copied"
        in p.explain()
    )


CONV = """void f(int n, int m, int k, const float *in, const float *mask, const float *w, float *out) {{
    int i, j, p, q;
    float acc;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [64]; }}
    def input_params {{ param n[] = [1, 19]; param m[] = [37]; param k[] = [1, 17, 33]; }}
    def input_vars {{
        decl dynamic float in[(n + k - 1)*(m + k - 1)] = random;
        decl dynamic float mask[k*k] = random;
        decl dynamic float w[k] = random;
        decl dynamic float out[n*m] = 0;
    }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='x=j y=i', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {{
            acc = 0.0f;
            for (p = 0; p < k; p++)
                for (q = 0; q < k; q++)
                    acc = {update};
            out[i*m + j] = acc;
        }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


def test_a_pair_whose_loop_another_tile_strips_alone_is_refused_where_one_loop_leaves_it_no_reuse(in_tmp):
    """in's elements are read once along q (32 apart along j): only the pair reuses them, across
    p; w[p] strips p alone, so in has no tile at all (it was once a crash)."""
    write(in_tmp / "t.c", CONV.format(update="acc + in[(i + p)*(32*m + k) + 32*j + q] * w[p]"))
    placed = load("t.c").nests[0].recipe.placements[0]
    assert {t.array: t.outer for t in placed.shared} == {"w": None}
    assert (
        dict(placed.rejected)["in"]
        == "no reuse across the threads of a block: each element is read once (16 threads per axis)"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "update, pairs",
    [
        ("acc + in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q]", {"in": "p", "mask": "p"}),
        # w[p] is copied per strip of p alone: the filter's loops are strip-mined one way for all tiles
        ("acc + in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q] * w[p]", {"in": None, "mask": None, "w": None}),
        # acc carries a value along both loops in their order: the strips may not swap them
        ("0.5f * acc + in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q]", {"in": None, "mask": None}),
    ],
)
def test_a_pair_of_strips_needs_loops_that_swap_and_tiles_that_agree_and_every_variant_validates(in_tmp, update, pairs):
    write(in_tmp / "t.c", CONV.format(update=update))
    program = load("t.c")
    placed = program.nests[0].recipe.placements[0]
    assert {t.array: t.outer for t in placed.shared} == pairs
    for inputs in input_space(program).configs():  # one strip, several, the last one cut short
        results = covering_results(program, 0, inputs, in_tmp / "build", measure="kernel")
        assert {(r.status, r.message) for r in results} == {("ok", "")}


def test_an_element_read_under_a_condition_is_not_copied(in_tmp):
    # b[i + 1][j] past the last row would be read by a copy of the box over i's whole range.
    write(
        in_tmp / "t.c",
        """void f(double a[40][50], const double b[40][50]) {
    int i, j;
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < 40; i++)
        for (j = 0; j < 50; j++)
            a[i][j] = b[i][j] + (i < 39 ? b[i + 1][j] : 0.0);
    ) @*/
    /*@ end @*/
}
""",
    )
    (p,) = load("t.c").nests[0].recipe.placements
    assert not p.shared and dict(p.rejected)["b"] == (
        "'b[i + 1][j]' is read under a condition: the loops' ranges do not bound the elements it reads"
    )


@pytest.mark.parametrize(
    "example, why",
    [
        (
            "gemv.c",
            "the loop on 'j' runs over a row of threads that folds a reduction: each thread holds one share, not a tile",
        ),
    ],
)
def test_schedules_without_block_tiles_say_why(example, why):
    (p,) = [p for p in placements(example).values() if p.blocked]
    assert p.blocked == why and not p.shared and not p.grid
    assert f"  no register or shared tiles: {why}" in p.explain()


def test_a_triangle_gets_tiles_but_a_bound_scaled_by_a_size_does_not(in_tmp):
    """syr2k's ``j <= i`` takes register tiles (tests/test_triangles.py); ``j < i*m``: the bound's
    largest value over a block's rows depends on the sign of m, which nothing says."""
    assert not [p for p in placements("syr2k.c").values() if p.blocked]
    write(
        in_tmp / "t.c",
        """void f(int n, int m, double *a) {
    int i, j;
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < i * m; j++)
            a[i * n * m + j] = 1.0;
    ) @*/
    /*@ end @*/
}
""",
    )
    blocked = {p.blocked for p in load("t.c").nests[0].recipe.placements}
    assert "the bounds of 'j' are not the same for every thread of a block" in blocked


GEMM = """/*@ begin PerfTuning (
 def performance_params {{ param TC[] = [64]; }}
 def input_params {{ param n[] = [37]; }}
 def input_vars {{ decl dynamic float A[n*n] = random; decl dynamic float B[n*n] = random; decl dynamic float C[n*n] = 0; }}
) @*/
void f(int n, const float *A, const float *B, float *C) {{
    int i, j, k;
    float s;
    /*@ begin Loop(transform CUDA(threadCount=TC, {transform})
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {{
            s = 0.0f;
            for (k = 0; k < n; k++)
                s += A[i*n + k] * B[{b}];
            C[i*n + j] = s;
        }}
    ) @*/
    /*@ end @*/
}}
/*@ end @*/
"""


def test_a_tile_that_thread_x_reads_down_a_column_gets_padded_rows(in_tmp):
    source = GEMM.format(transform="mapping='auto'", b="j*n + k")  # C = A B^T: thread x (j) moves B along its rows
    write(in_tmp / "t.c", source)
    program = load("t.c")
    (p,) = program.nests[0].recipe.placements
    assert [(t.array, t.padded) for t in p.shared] == [("A", False), ("B", True)]
    assert p.tile("B").shape({"i": 2, "j": 32, "k": 16}) == (32, 17)
    params = config(program, {"n": 37}, registers_i_1=2, shared_A_1=True, shared_B_1=True)
    text = generate(program, program.nests[0], params, {"n": 37}).text
    assert "ORCU_SHARED_TILE(float, B_buffers, [2][32][17], 1);  // free of bank conflicts" in text
    result = evaluate(in_tmp, source, params=params)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message
    # Without the padding, the same claim is false: the emulation counts each warp's requests.
    unpadded = evaluate(
        in_tmp, source, planted("B_buffers, [2][32][17], 1)", "B_buffers, [2][32][16], 1)"), params=params
    )
    assert unpadded.status == "launch_error"
    assert re.search(
        r"orcu emulation: shared tile B_buffers in block \(\d+,\d+,0\): a request of warp \d puts \d+ words in "
        r"one bank; its declaration says at most 1",
        unpadded.message,
    ), unpadded.message


SHARED = {
    "TC": 64,
    "mapping_1": "x=j y=i",
    "registers_i_1": 2,
    "registers_j_1": 2,
    "shared_A_1": True,
    "shared_B_1": True,
    "sharedDepth_1": 16,
    "vectorize_1": False,
}


@pytest.mark.parametrize(
    "double, barrier",
    [
        (False, "__syncthreads();  // the tiles are whole before any thread reads them"),
        (False, "__syncthreads();  // every thread has read the strip before the next one fills it"),
        (True, "__syncthreads();  // the tiles are whole before any thread reads them"),  # the first strip's
        (True, "__syncthreads();  // the next strip is whole, and every thread has read this one"),
    ],
)
def test_the_emulation_catches_a_missing_barrier_around_a_shared_tile(in_tmp, double, barrier):
    source = GEMM.format(transform=f"mapping='auto', doubleBuffer={double}", b="k*n + j")
    assert evaluate(in_tmp, source, params=SHARED).status == "ok"
    assert evaluate(in_tmp, source, planted(barrier, ";"), params=SHARED).status == "wrong_result"


def test_placements_that_cannot_run_are_pruned_with_their_reason(in_tmp):
    write(in_tmp / "t.c", GEMM.format(transform="mapping='auto'", b="k*n + j"))
    program = load("t.c")
    nest = program.nests[0]
    (p,) = nest.recipe.placements
    schedule = nest.recipe.kept[0]
    base = {"registerTile": {"i": 1, "j": 1}, "shared": [], "sharedDepth": 16, "constant": [], "vectorize": False}
    bytes_ = {"A": 4, "B": 4, "C": 4}
    assert p.problem(base, schedule, (32, 2), bytes_, 48 * 1024) is None
    assert p.problem({**base, "registerTile": {"k": 2}}, schedule, (32, 2), bytes_, 48 * 1024) == (
        "registerTile: 'k' is not a grid loop of the mapping 'x=j y=i'"
    )
    assert p.problem({**base, "shared": ["C"]}, schedule, (32, 2), bytes_, 48 * 1024) == (
        f"shared: 'C' cannot be copied to shared memory with the mapping 'x=j y=i': {WRITTEN}"
    )
    assert p.problem({**base, "constant": ["A"]}, schedule, (32, 2), bytes_, 48 * 1024) == (
        "constant: 'A' cannot be in constant memory with the mapping 'x=j y=i': 'A[(i * n) + k]' moves with 'i', "
        "which differs between the threads"
    )
    assert p.problem({**base, "sharedDepth": 32}, schedule, (32, 2), bytes_, 48 * 1024).startswith(
        "sharedDepth=32: no shared tile is a strip of a loop"
    )
    assert p.problem({**base, "vectorize": True}, schedule, (32, 2), bytes_, 48 * 1024) == (
        "vectorize: the register tile along 'j' has one iteration (the same code as vectorize=False)"
    )
    assert (
        p.problem({**base, "vectorize": True, "registerTile": {"i": 1, "j": 2}}, schedule, (32, 2), bytes_, 48 * 1024)
        is None
    )
    big = {
        "registerTile": {"i": 4, "j": 4},
        "shared": ["A", "B"],
        "sharedDepth": 32,
        "constant": [],
        "vectorize": True,
    }  # 128 x 32, 32 x 128 floats
    assert p.problem(big, schedule, (32, 32), bytes_, 48 * 1024) is None
    assert p.problem(big, schedule, (32, 32), bytes_, 16 * 1024) == (
        "the shared tiles take 32768 bytes per block, above the 16384 of the device"
    )
    # The space the search sees has none of them: sharedDepth without a strip, or vectorize with
    # one iteration along x, is the same variant as another: 16 x 2 of the first (4 x 4 register
    # tiles, vectors or not), 4 x 4 x 2 of the second, 4 of them both.
    found = limits(program, 0, {"n": 37}, H100)
    assert len(REGISTER_TILES) == 4 and (found.removed, found.of) == (32 + 32 - 4, 16 * 4 * 2 * 2)


@pytest.mark.parametrize(
    "transform, message",
    [
        (
            "mapping='orio', shared=['A']",
            "'shared' needs the TSG: add mapping='auto' (Orio's mapping has no such choice)",
        ),
        ("mapping='auto', shared=['D']", "'shared': no array 'D' in this region"),
        ("mapping='auto', registerTile={'l': 2}", "'registerTile': no loop 'l' in this region"),
    ],
)
def test_placement_arguments_are_checked_where_they_are_written(in_tmp, transform, message):
    assert message in diagnose(in_tmp, GEMM.format(transform=transform, b="k*n + j")).split("\n")[0]


def test_placements_given_by_hand_add_no_parameters(in_tmp):
    write(
        in_tmp / "t.c",
        GEMM.format(transform="mapping='x=j y=i', registerTile={'i': 2, 'j': 4}, shared=['B']", b="k*n + j"),
    )
    program = load("t.c")
    assert [p.name for p in program.spec.performance_params] == ["TC"]
    code = generate(program, program.nests[0], {"TC": 64}, {"n": 37})
    assert "ORCU_SHARED_TILE(float, B_buffers, [2][16][128], 1);" in code.text and "A_shared" not in code.text
    lines = [line.strip() for line in code.text.splitlines()]
    at = lines.index("s_1_3 += A[i_1 * n + k] * B_shared[k - k0][j_3 - j0];")
    assert (
        lines[at - 1] == "if (i_1 < n && j_3 < n) {"
    )  # it reads A from global memory: only where i and j are in range
    assert "s_1_3 = 0.0f;" in lines  # a register alone: every iteration of the tile


PLACED = [
    "2mm.c",
    "atax.c",
    "bicg.c",
    "conv2d.c",
    "dgemm.c",
    "gemv_t.c",
    "jacobi2d.c",
    "mvt.c",
    "sgemm.c",
    "sgemm_tf32.c",
]
# Sizes that every tile, block and vector width divides, beside each example's size that none does.
WHOLE = {
    "2mm.c": {"ni": 64, "nj": 64, "nk": 64, "nl": 64},
    "atax.c": {"n": 64, "m": 64},
    "bicg.c": {"n": 64, "m": 64},
    "conv2d.c": {"n": 64, "m": 64, "k": 5},
    "dgemm.c": {"n": 64},
    "gemv_t.c": {"n": 64, "m": 64},
    "jacobi2d.c": {"n": 66},
    "mvt.c": {"n": 64},
    "sgemm.c": {"n": 64},
    "sgemm_tf32.c": {"n": 64},
}


def odd_size(program):
    """The example's input size whose every integer is odd: no tile divides it."""
    return [s for s in input_space(program).configs() if all(v % 2 for v in s.values() if isinstance(v, int))][0]


@pytest.mark.slow
@pytest.mark.whole_space
@pytest.mark.parametrize("size", ["odd", "whole"])
@pytest.mark.parametrize("example", PLACED)
def test_the_placements_of_the_examples_validate_in_emulation(in_tmp, example, size):
    """Each region's covering array of its space (every pair of values of any two parameters
    that a valid configuration holds: register tiles against shared tiles, vectors, strip
    depths and block sizes) at a size no tile divides and at one they all divide, built and
    checked in emulation: every variant ok. With ORCU_VALIDATE_ALL=1 (bench/validate_all.py,
    run before a change to code generation lands), every configuration of the space."""
    program = load(EXAMPLES / example)
    inputs = odd_size(program) if size == "odd" else WHOLE[example]
    for k in range(len(program.nests)):
        results = covering_results(program, k, inputs, in_tmp / "build", EVERY)
        statuses = {(tuple(sorted(r.params.items())), r.status, r.message) for r in results}
        assert {s[1] for s in statuses} == {"ok"}, sorted(s for s in statuses if s[1] != "ok")[:3]
        assert len(statuses) == len(results)


def tile_builds(program, inputs, in_tmp):
    """A GPU runner's results for every register tile of gemm, with and without the shared
    tiles and vectors: nvcc builds them (with ptxas's report); without a GPU their runs fail."""
    configs = []
    for ri, rj, shared, vectors in product(REGISTER_TILES, REGISTER_TILES, (False, True), (False, True)):
        if ri == rj == 1 or (vectors and rj == 1):
            continue
        fixed = {
            "registers_i_1": ri,
            "registers_j_1": rj,
            "shared_A_1": shared,
            "shared_B_1": shared,
            "vectorize_1": vectors,
        }
        configs.append((config(program, inputs, **fixed), inputs))
    runner = Runner("cuda", H100, in_tmp / "build", jobs=2)
    return list(runner.evaluate(program, 0, configs))


@pytest.mark.slow
@pytest.mark.parametrize("example", ["sgemm.c", "dgemm.c"])
def test_register_tiled_gemm_kernels_that_tuning_keeps_have_their_tiles_out_of_local_memory(in_tmp, example):
    """ptxas's report of every register tile of gemm: no stack frame, no spills (the tile's
    registers are indexed by constants only). Whether ptxas spills a few registers of a kernel
    is its heuristics' choice (CUDA 13 spilled 4 to 32 bytes of 64-bit-index instances of some
    vector variants while moving the same code's thread offsets between 32 and 64 bits); a
    variant it spills is not kept, and says why."""
    program = load(EXAMPLES / example)
    results = tile_builds(program, next(iter(input_space(program).configs())), in_tmp)
    tiles = len(REGISTER_TILES)
    # the tiles, shared or not, and with vectors where j has a tile
    assert len(results) == (tiles * tiles - 1) * 2 + tiles * (tiles - 1) * 2
    for result in results:
        assert result.resources is not None, result.message  # nvcc built it
        if result.status == "invalid":
            # without vectors every tile of up to 4 x 4 stays in registers; 64 doubles of 8 x 8 may not
            largest = max(result.params["registers_i_1"], result.params["registers_j_1"])
            assert result.params["vectorize_1"] or (example == "dgemm.c" and largest == 8), result.params
            assert result.message.startswith("ptxas keeps part of the register tile in local memory"), result.message
        else:
            assert (result.resources.stack_bytes, result.resources.spill_bytes) == (0, 0), result.params


def test_a_register_tile_that_ptxas_spills_is_not_kept(in_tmp):
    """A block of 1024 threads leaves 64 registers a thread: too few for a 4 x 4 tile of doubles.
    ptxas spills it, and the variant is invalid with the reason (a GPU tune never picks it)."""
    source = GEMM.format(transform="mapping='auto'", b="k*n + j").replace("float", "double").replace("0.0f", "0.0")
    write(in_tmp / "t.c", source.replace("param TC[] = [64]", "param TC[] = [1024]"))
    program = load("t.c")
    inputs = {"n": 37}
    configs = [
        (config(program, inputs, registers_i_1=ri, registers_j_1=rj, shared_A_1=True, shared_B_1=True), inputs)
        for ri, rj in ((1, 1), (4, 4))
    ]
    plain, tiled = Runner("cuda", H100, in_tmp / "build", jobs=2).evaluate(program, 0, configs)
    # the plain tile is built and run (without a GPU its run cannot create an event), the tiled one never runs
    assert (plain.status, plain.resources.spill_bytes) == ("ok" if has_gpu() else "crash", 0), plain.message
    assert tiled.status == "invalid" and re.fullmatch(
        r"ptxas keeps part of the register tile in local memory \(\d+ bytes of stack frame, [1-9]\d* bytes of spill stores "
        r"and loads, 64 registers\): not kept",
        tiled.message,
    ), tiled.message


@pytest.mark.slow
def test_the_tsg_search_tunes_gemm_over_its_recipes_then_the_best_ones_sizes(in_tmp, monkeypatch):
    """Phase III: the 112 recipes (4 x 4 register tiles, A and B shared or not, vectors where j has
    a register tile: 64 + 48) at the middle
    sizes; Phase IV: the other sizes of the best one (threads, and strip depths if it has shared tiles)."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "sgemm.c", (EXAMPLES / "sgemm.c").read_text())
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            "sgemm.c",
            "--backend",
            "emulate",
            "--search",
            "TSG",
            "--input=n=37",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    (region,) = json.loads(proc.stdout)["regions"]
    best = region["best"]["params"]
    sizes = 3 * (2 if best["shared_A_1"] or best["shared_B_1"] else 1)
    assert region["strategy"] == "TSG" and set(region["statuses"]) == {"ok"}
    tiles = len(REGISTER_TILES)
    recipes = tiles * tiles * 4 + tiles * (tiles - 1) * 4
    assert recipes == 112 and region["evaluated"]["new"] == recipes + sizes - 1, region


def test_emit_explains_the_traffic_a_placement_saves(in_tmp, capsys):
    """gemm 64 on 32 x 2 threads: A read once per k by a whole warp (1 sector: a broadcast), B
    by consecutive threads (4 sectors); with 4 x 4 register tiles and A and B in shared
    memory, global memory sees only C and the tiles' fills (a block tile 128 wide along j: the
    iterations past j = 64 touch no C)."""

    def explain(*sets):
        assert (
            main(
                [
                    "emit",
                    "--explain",
                    str(EXAMPLES / "sgemm.c"),
                    "--input",
                    "n=64",
                    "-o",
                    "out.cu",
                    *(f"--set={s}" for s in sets),
                ]
            )
            == 0
        )
        lines = capsys.readouterr().err.splitlines()
        start = next(k for k, line in enumerate(lines) if line.startswith("  traffic:"))
        return lines[start : next(k for k, line in enumerate(lines) if line.startswith("  ptxas"))]

    assert explain() == [
        "  traffic: 328.0 bytes of global memory requested per iteration of the grid loops (4096 iterations; sectors "
        "of 32 bytes, before any cache)",
        "    A[(i * n) + k]: 1 sectors per warp request, 8192 requests",
        "    B[(k * n) + j]: 4 sectors per warp request, 8192 requests",
        "    C[(i * n) + j]: 4 sectors per warp request, 256 requests",
    ]  # read and written
    assert explain("registers_i_1=4", "registers_j_1=4", "shared_A_1=True", "shared_B_1=True") == [
        "  traffic: 76.0 bytes of global memory requested per iteration of the grid loops (4096 iterations; sectors "
        "of 32 bytes, before any cache)",
        "    C[(i * n) + j]: 4 sectors per warp request, 256 requests",
        "    A_shared (fill of its shared tile): 16 sectors per warp request, 32 requests",  # 16-byte loads
        "    B_shared (fill of its shared tile): 16 sectors per warp request, 512 requests",
        "    A_shared: no bank conflicts",
        "    B_shared: no bank conflicts",
    ]


def test_an_element_kept_in_a_register_is_loaded_and_stored_once_per_loop(capsys):
    assert main(["emit", "--explain", str(EXAMPLES / "gemv_t.c"), "--set=shared_x_1=True", "-o", "/dev/null"]) == 0
    err = capsys.readouterr().err
    # n = 41, m = 37: one block of 64 threads (2 warps); y[j] stays in a register over i, A streams, x is a tile
    assert "    y[j]: 8 sectors per warp request, 4 requests\n" in err
    assert "    A[(i * m) + j]: 8 sectors per warp request, 82 requests\n" in err


MIXED = """/*@ begin PerfTuning (
 def performance_params { param TC[] = [64]; }
 def input_params { param n[] = [37]; param m[] = [29]; }
 def input_vars { decl dynamic float A[n*m] = random; decl dynamic float B[n*m] = random; decl dynamic float x[8] = random;
                  decl dynamic float C[n*m] = 0; }
) @*/
void f(int n, int m, const float *A, const float *B, const float *x, float *C) {
    int i, j, k, q;
    float s, t;
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 1; i < n; i += 2)
        for (j = 2; j < m; j++) {
            s = 0.0f;
            for (k = 0; k < i; k++)
                s += A[k*m + j];
            t = 0.0f;
            for (q = 0; q < 8; q++)
                t += x[q] * B[i*m + j];
            C[i*m + j] = s + t;
        }
    ) @*/
    /*@ end @*/
}
/*@ end @*/
"""


@pytest.mark.slow
def test_every_placement_of_a_nest_with_steps_offsets_and_a_triangular_loop_validates(in_tmp, monkeypatch):
    """Grid loops from 1 by 2 and from 2; a loop bounded by i (each iteration of the register
    tile runs its own, or, with A's shared strips, the block runs it to its last row's bound,
    each iteration guarded by its own); a loop alike in every thread whose x[q] is a shared strip."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", MIXED)
    (p,) = load("t.c").nests[0].recipe.placements
    assert [t.array for t in p.shared] == ["A", "x"] and dict(p.rejected)["B"] == "the loop on 'i' steps by 2"
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--search", "Exhaustive", "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    (region,) = json.loads(proc.stdout)["regions"]
    # register tiles, and those along j with vectors (A, B and C move one element a step with j),
    # x (x in global memory, in shared memory at two strip depths, or in constant memory), A
    # in global memory (x's three placements, four) or in shared memory at two strip depths (six)
    tiles = len(REGISTER_TILES)
    assert region["statuses"] == {"ok": (tiles * tiles + tiles * (tiles - 1)) * ((1 + 2 + 1) + (2 + 2 + 2))}


GEMV_T = """/*@ begin PerfTuning (
 def performance_params {{ param TC[] = [64]; }}
 def input_params {{ param n[] = [{n}]; param m[] = [37]; }}
 def input_vars {{ decl dynamic double A[n*m] = random; decl dynamic double x[n] = random; decl dynamic double y[m] = 0; }}
) @*/
void f(int n, int m, const double *A, const double *x, double *y) {{
    int i, j;
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[j] += A[i*m + j] * x[i];
    ) @*/
    /*@ end @*/
}}
/*@ end @*/
"""


def test_an_array_every_thread_reads_alike_is_a_constant_memory_candidate():
    conv = placements("conv2d.c")["x=j y=i"]
    assert conv.constant == ("mask",) and dict(conv.not_constant) == {
        "in": "'in[(((i + p) * ((m + k) - 1)) + j) + q]' moves with 'i', which differs between the threads"
    }
    assert placements("gemv_t.c")["x=j"].constant == ("x",)  # x[i]: i is a loop every thread runs alike
    assert placements("sgemm.c")["x=j y=i"].constant == ()


@pytest.mark.parametrize("n", [37, 2049])  # 2048 doubles fit in 16 KB: 2049 are read from global memory
def test_constant_memory_holds_an_array_that_fits_and_global_memory_the_others(in_tmp, n):
    source = GEMV_T.format(n=n)
    write(in_tmp / "t.c", source)
    program = load("t.c")
    params = config(program, {"n": n, "m": 37}, registers_j_1=2, constant_x_1=True)
    text = generate(program, program.nests[0], params, {"n": n, "m": 37}).text
    assert "__constant__ double orcu_constant_double_x[2048];" in text
    assert "const bool x_in_constant = orcu_x_end <= 2048;" in text
    assert "y_i_acc_0 += A[i * m + j_0] * (x_in_constant ? orcu_constant_double_x[i] : x[i]);" in text
    result = evaluate(in_tmp, source, params=params, inputs={"n": n, "m": 37})
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_occupancy_follows_the_first_limit_a_block_meets():
    from orcu.device import occupancy

    # H100 (sm_90): 2048 threads, 32 blocks, 228 KB of shared memory and 65536 registers per multiprocessor.
    assert occupancy(H100, 256, 32, 0) == (8, 1.0, "threads")
    assert occupancy(H100, 256, 48, 10240) == (5, 0.625, "registers")  # 48 x 256 = 12288 registers a block
    assert occupancy(H100, 256, 32, 48 * 1024) == (4, 0.5, "shared memory")  # 49 KB with the runtime's 1 KB
    assert occupancy(H100, 32, 16, 0) == (32, 0.5, "blocks")


def test_emit_explains_what_ptxas_reports_of_a_register_tiled_kernel(capsys):
    from orcu.device import occupancy

    assert (
        main(
            [
                "emit",
                "--explain",
                str(EXAMPLES / "sgemm.c"),
                "--input=n=37",
                "-o",
                "/dev/null",
                "--set=TC=256",
                "--set=registers_i_1=4",
                "--set=registers_j_1=4",
                "--set=shared_A_1=True",
                "--set=shared_B_1=True",
            ]
        )
        == 0
    )
    line = next(text for text in capsys.readouterr().err.splitlines() if "ptxas" in text)
    m = re.fullmatch(
        r"  ptxas \(sm_90\): (\d+) registers a thread, 20480 bytes of shared memory a block, no stack frame or "
        r"spills; (\d+) blocks of 256 threads per multiprocessor \((\w[\w ]*) bound\): occupancy (\d+)%",
        line,
    )
    assert m, line  # A 32 x 16 and B 16 x 128 floats, two buffers each; 4 x 4 accumulators in registers
    blocks, busy, limit = occupancy(H100, 256, int(m.group(1)), 20480)
    assert (int(m.group(2)), m.group(3), int(m.group(4))) == (blocks, limit, round(busy * 100))


@pytest.mark.parametrize("n", [64, 37])  # rows of 64 floats start on 16 bytes; rows of 37 do not
def test_a_fill_moves_16_bytes_a_thread_where_the_rows_allow(in_tmp, n):
    source = GEMM.format(transform="mapping='auto'", b="k*n + j").replace("param n[] = [37]", f"param n[] = [{n}]")
    write(in_tmp / "t.c", source)
    program = load("t.c")
    params = config(program, {"n": n}, registers_i_1=2, registers_j_1=4, shared_A_1=True, shared_B_1=True)
    text = generate(program, program.nests[0], params, {"n": n}).text
    assert (
        "if ((n) % 4 == 0 && (size_t)&B[(k0) * (n) + (j0)] % 16 == 0) {  // every row of the tile starts on 16 bytes"
        in text
    )
    assert (
        "*(float4 *)&ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = *(const float4 *)&B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1)];"
        in text
    )
    result = evaluate(in_tmp, source, params=params, inputs={"n": n})
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_a_tile_whose_rows_are_no_whole_number_of_vectors_is_filled_element_by_element():
    program = load(EXAMPLES / "conv2d.c")
    params = config(program, {"n": 33, "m": 45, "k": 5}, shared_in_1=True)  # 2 + 16 - 1 rows of 32 + 16 - 1 floats
    text = generate(program, program.nests[0], params, {"n": 33, "m": 45, "k": 5}).text
    assert "ORCU_SHARED_TILE(float, in_shared, [17][47], 1);" in text and "float4" not in text


@pytest.mark.parametrize("n", [64, 37])  # rows that start on 16 bytes, and rows of which one in four does
def test_vectorize_gives_each_thread_consecutive_iterations_along_x_moved_as_vectors(in_tmp, n):
    """A 2 x 4 register tile with vectorize: j's four iterations are consecutive, B's strip is read
    as one float4 for both rows of the tile, C is assigned a float4 at a time and stored as one
    where the group is whole and aligned, element by element otherwise."""
    source = GEMM.format(transform="mapping='auto'", b="k*n + j").replace("param n[] = [37]", f"param n[] = [{n}]")
    write(in_tmp / "t.c", source)
    program = load("t.c")
    (p,) = program.nests[0].recipe.placements
    assert p.along_x == ("B[(k * n) + j]", "C[(i * n) + j]")
    assert (
        "  vectors: B[(k * n) + j], C[(i * n) + j] move one element a step with 'j': with vectorize, a thread's "
        "register tile along 'j' reads and writes them 16 bytes at a time where aligned"
    ) in p.explain()
    params = config(
        program, {"n": n}, registers_i_1=2, registers_j_1=4, shared_A_1=True, shared_B_1=True, vectorize_1=True
    )
    lines = [line.strip() for line in generate(program, program.nests[0], params, {"n": n}).text.splitlines()]
    assert "const orcu_index j_3 = j0 + (orcu_index)(threadIdx.x * 4 + 3);" in lines
    assert (
        lines.count("const float4 B_v1 = ORCU_TILE_VECTOR(float4, B_shared, [k - k0][j_0 - j0]);") == 2
    )  # strip, rest
    assert "s_1_3 += A_shared[i_1 - i0][k - k0] * B_v1.w;" in lines
    assert "float4 C_v3;  // every iteration assigns it" in lines and "C_v3.z = s_0_2;" in lines
    assert (
        "if (i_0 < n && j_3 < n && (size_t)&C[i_0 * n + j_0] % 16 == 0) *(float4 *)&C[i_0 * n + j_0] = C_v3;" in lines
    )
    result = evaluate(in_tmp, source, params=params, inputs={"n": n})
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_vectorize_loads_and_stores_an_element_kept_in_a_register_a_group_at_a_time():
    program = load(EXAMPLES / "gemv_t.c")
    params = config(program, {"n": 41, "m": 37}, TC=64, registers_j_1=4, vectorize_1=True)
    lines = [line.strip() for line in generate(program, program.nests[0], params, {"n": 41, "m": 37}).text.splitlines()]
    # doubles: two groups of two (16 bytes), 128 apart
    assert "const orcu_index j_2 = j0 + (orcu_index)((threadIdx.x + 64) * 2);" in lines
    at = lines.index("double2 y_i_acc_v1;")
    assert lines[at + 1 : at + 4] == [
        "if (j_1 < m && (size_t)&y[j_0] % 16 == 0) y_i_acc_v1 = *(const double2 *)&y[j_0];",
        "else { y_i_acc_v1.x = j_0 < m ? y[j_0] : (double)0; y_i_acc_v1.y = j_1 < m ? y[j_1] : (double)0; }",
        "double y_i_acc_0 = y_i_acc_v1.x;  // y[j_0] stays in a register over the loop on i",
    ]
    assert "y_i_acc_3 += A_v4.y * x[i];" in lines  # A's row: a double2 each group, each turn of i
    assert "if (j_3 < m && (size_t)&y[j_2] % 16 == 0) *(double2 *)&y[j_2] = y_i_acc_v6;" in lines


def test_vectorized_gemm_issues_vector_loads_and_stores_in_its_ptx(in_tmp):
    program = load(EXAMPLES / "sgemm.c")
    params = config(
        program, {"n": 64}, TC=128, registers_i_1=4, registers_j_1=4, shared_A_1=True, shared_B_1=True, vectorize_1=True
    )
    assert main(["emit", str(EXAMPLES / "sgemm.c"), "-o", "v.cu", *(f"--set={k}={v}" for k, v in params.items())]) == 0
    build = subprocess.run([nvcc(), "-ptx", "-arch=sm_90", "v.cu", "-o", "v.ptx"], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    ptx = (in_tmp / "v.ptx").read_text()
    for instruction in ("ld.shared.v4.f32", "ld.global.v4.f32", "st.global.v4.f32"):  # B's strip; C read and written
        assert instruction in ptx
