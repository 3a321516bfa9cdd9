"""The performance model (orcu/execution/model.py) and its inputs: the static traffic figures of every
example, Orio's mapping and the TSG's schedules, checked against what the emulation counts on
the generated kernels' real index arithmetic; the model's ranking; tune's use of it."""

import dataclasses
import json
import math
import re
import sqlite3
import subprocess
import sys

import pytest
from conftest import EXAMPLES, H100, write

from orcu.codegen.region import generate
from orcu.driver.cli import main
from orcu.driver.preflight import region_limits
from orcu.driver.tuning import _figures
from orcu.execution.model import of_variant
from orcu.execution.result import Result
from orcu.execution.runners import Runner, build_item
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space, settings_text


def example(name: str, mapping: str | None = None) -> str:
    """An example's text, its mappings replaced by ``mapping`` where given."""
    text = (EXAMPLES / name).read_text()
    return text if mapping is None else re.sub(r"mapping='[^']*'", f"mapping='{mapping}'", text)


def figures(in_tmp, text: str, inputs: dict, fixed: dict) -> list[tuple[tuple, tuple]]:
    """For each region: ((requests, sectors, shared wavefronts) of the static figures, the same
    counted by an emulated run) of the first configuration with the ``fixed`` values."""
    write(in_tmp / "t.c", text)
    program = load("t.c")
    params = performance_space(program, inputs).first_matching(fixed)
    runner = Runner("emulate", H100, in_tmp / "build", jobs=2, count_memory=True)
    out = []
    for k, nest in enumerate(program.nests):
        static = generate(program, nest, params, inputs).traffic(H100.multiprocessors)
        result = next(runner.evaluate(program, k, [(params, inputs)]))
        assert result.status == "ok", result.message
        c = result.counted
        counted = (
            c["load_requests"] + c["store_requests"],
            c["load_sectors"] + c["store_sectors"],
            c["shared_wavefronts"],
        )
        out.append((static and (static.requests, static.sectors, static.wavefronts), counted))
    return out


# Sizes where every warp is whole and every row starts on a sector: the figures are exact.
EXACT = [
    ("sgemm.c", "orio", {"n": 64}, {"TC": 64}),
    ("sgemm.c", None, {"n": 64}, {"TC": 64, "registers_i_1": 1, "registers_j_1": 1}),
    (
        "sgemm.c",
        None,
        {"n": 64},
        {"TC": 64, "registers_i_1": 2, "registers_j_1": 2, "shared_A_1": True, "shared_B_1": True},
    ),
    (
        "dgemm.c",
        None,
        {"n": 64},
        {"registers_i_1": 4, "registers_j_1": 2, "shared_A_1": True, "shared_B_1": True, "sharedDepth_1": 32},
    ),
    ("gemv.c", None, {"n": 64, "m": 64}, {"TC": 64}),
    ("gemv.c", "x=i", {"n": 64, "m": 64}, {"TC": 64}),
    ("gemv_t.c", None, {"n": 48, "m": 64}, {"TC": 64, "shared_x_1": True}),
    ("conv2d.c", "orio", {"n": 64, "m": 45, "k": 5}, {"TC": 64}),
    ("atax.c", "orio", {"n": 64, "m": 64}, {"TC": 64}),
    ("bicg.c", "orio", {"n": 64, "m": 64}, {"TC": 64}),
    ("gesummv.c", None, {"n": 64}, {"TC": 64}),
    ("gesummv.c", "orio", {"n": 64}, {"TC": 64}),
    ("two_regions.c", None, {"n": 64}, {}),
    ("sgemm.c", None, {"n": 64}, {"TC": 64, "registers_i_1": 2, "registers_j_1": 2, "vectorize_1": True}),
    (
        "sgemm.c",
        None,
        {"n": 128},
        {"TC": 64, "registers_i_1": 2, "registers_j_1": 4, "shared_A_1": True, "shared_B_1": True, "vectorize_1": True},
    ),
    ("gemv_t.c", None, {"n": 48, "m": 256}, {"TC": 64, "registers_j_1": 4, "vectorize_1": True}),
    # a sum split over the threads and blocks along y: rows of 32 threads, each block's sums added atomically
    ("gemv_t.c", "x=j y=i(split)", {"n": 48, "m": 64}, {"TC": 64}),
    ("gemv_t.c", "x=j y=i(split)", {"n": 1000, "m": 64}, {"TC": 128}),
    ("gemv_t.c", "x=j y=i(split)", {"n": 96, "m": 256}, {"TC": 128, "registers_j_1": 4, "vectorize_1": True}),
    # ... x[i] from constant memory (each row of threads its own element): no global request on either side
    ("gemv_t.c", "x=j y=i(split)", {"n": 1000, "m": 64}, {"TC": 128, "constant_x_1": True}),
]


@pytest.mark.parametrize("name, mapping, inputs, fixed", EXACT)
def test_the_static_figures_are_the_emulations_counts_where_warps_are_whole(in_tmp, name, mapping, inputs, fixed):
    for static, counted in figures(in_tmp, example(name, mapping), inputs, fixed):
        assert static == counted


# Sizes whose loops' ends cut the last block's warps (rows on a sector, no shared tile: a fill
# reads its whole tile): the warps and tile iterations past the end issue nothing, and a split
# loop's rows each run their own turns, so the requests are the emulation's.
CUT = [
    ("sgemm.c", None, {"n": 40}, {"TC": 64, "registers_i_1": 1, "registers_j_1": 4}),
    ("sgemm.c", None, {"n": 40}, {"TC": 64, "registers_i_1": 2, "registers_j_1": 2}),
    ("sgemm.c", None, {"n": 72}, {"TC": 64, "registers_i_1": 2, "registers_j_1": 4, "vectorize_1": True}),
    ("dgemm.c", None, {"n": 44}, {"registers_i_1": 4, "registers_j_1": 2, "shared_A_1": False, "shared_B_1": False}),
    ("gemv.c", None, {"n": 88, "m": 64}, {"TC": 64}),
    ("gemv.c", "x=i", {"n": 200, "m": 64}, {"TC": 128}),
    ("gemv_t.c", "x=j y=i(split)", {"n": 1001, "m": 72}, {"TC": 128}),
    ("gemv_t.c", "x=j y=i(split)", {"n": 333, "m": 24}, {"TC": 64}),
    ("gesummv.c", None, {"n": 100}, {"TC": 64}),
]


@pytest.mark.parametrize("name, mapping, inputs, fixed", CUT)
def test_the_static_requests_are_the_emulations_where_the_loops_ends_cut_warps(in_tmp, name, mapping, inputs, fixed):
    for static, counted in figures(in_tmp, example(name, mapping), inputs, fixed):
        assert static[0] == counted[0] and static[1] >= counted[1]


MAPPED = [
    "2mm.c",
    "atax.c",
    "bicg.c",
    "conv2d.c",
    "dgemm.c",
    "gemv.c",
    "gemv_t.c",
    "gesummv.c",
    "jacobi2d.c",
    "mvt.c",
    "sgemm.c",
    "syr2k.c",
]
ORIO = [
    "atax.c",
    "axpy.c",
    "bicg.c",
    "conv2d.c",
    "dot.c",
    "gemv.c",
    "gesummv.c",
    "jacobi2d.c",
    "multi_axpy.c",
    "norm2.c",
    "sgemm.c",
    "syr2k.c",
    "two_regions.c",
]


@pytest.mark.parametrize("name, mapping", [(n, None) for n in MAPPED] + [(n, "orio") for n in ORIO])
def test_the_static_figures_bound_the_emulations_counts_at_any_size(in_tmp, name, mapping):
    """At the example's own sizes (tiles and warps cut short), with the most register tiles,
    shared copies and vectors. The static figures take every lane of the first warp as active, past a
    loop's end too (a bound), and its rows' alignment for every warp's: a row that starts off a
    sector boundary costs at most one sector more per request."""
    text = example(name, mapping)
    write(in_tmp / "t.c", text)
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    space = performance_space(program, inputs, tuple(c for nest in program.nests for c in region_limits(nest, H100)))
    placing = [
        p.name
        for p in program.spec.performance_params
        if p.name.startswith(("registers_", "shared_", "vectorize_")) and not p.name.startswith("sharedDepth")
    ]

    def width(config: dict) -> tuple:  # shared copies, then register tiles, then vectors: the most the device holds
        return (
            sum(config[n] is True for n in placing if n.startswith("shared_")),
            math.prod(config[n] for n in placing if n.startswith("registers_")),
            sum(config[n] is True for n in placing if n.startswith("vectorize_")),
        )

    widest = max(space.configs(), key=width)
    fixed = {n: widest[n] for n in placing}
    for static, (r, s, w) in figures(in_tmp, text, inputs, fixed):
        requests, sectors, wavefronts = static  # syr2k's triangle of grid loops too: the box and its warps inside
        assert 0.95 * r <= requests and s <= sectors + r and w <= wavefronts, (requests, sectors, wavefronts, r, s, w)


def predicted(name: str, mapping: str | None, inputs: dict, fixed: dict, tmp) -> float:
    write(tmp / "p.c", example(name, mapping))
    program = load(str(tmp / "p.c"))
    params = performance_space(program, inputs).first_matching(fixed)
    code = generate(program, program.nests[0], params, inputs)
    return of_variant(program, 0, code.traffic(H100.multiprocessors), inputs, H100).ms


def test_the_model_ranks_gemm_tiles_and_coalesced_rows_first(in_tmp):
    """gemm 2048: the TSG's shared and register tiles ahead of its plain 2-D mapping, and that ahead
    of Orio's thread per row by far; row-major gemv 8192: a warp along each row ahead of a thread a row."""
    gemm = {"n": 2048}
    tiled = predicted(
        "sgemm.c",
        None,
        gemm,
        {"TC": 128, "registers_i_1": 4, "registers_j_1": 4, "shared_A_1": True, "shared_B_1": True},
        in_tmp,
    )
    plain = predicted(
        "sgemm.c",
        None,
        gemm,
        {"TC": 128, "registers_i_1": 1, "registers_j_1": 1, "shared_A_1": False, "shared_B_1": False},
        in_tmp,
    )
    orio = predicted("sgemm.c", "orio", gemm, {"TC": 128}, in_tmp)
    assert tiled < plain < orio and orio > 10 * tiled
    gemv = {"n": 8192, "m": 8192}
    assert (
        predicted("gemv.c", None, gemv, {"TC": 128}, in_tmp) < predicted("gemv.c", "x=i", gemv, {"TC": 128}, in_tmp) / 2
    )


def test_a_devices_fit_scales_its_predictions_and_no_other(in_tmp, monkeypatch):
    """bench/gpu_all.py's calibrate step writes a fit per device; the model applies it to that device."""
    from orcu.execution import model

    inputs, fixed = {"n": 2048}, {"TC": 128, "registers_i_1": 4, "registers_j_1": 4}
    monkeypatch.setattr(model, "fitted_calibrations", lambda: {})  # the constants alone (orcu ships an H100 fit)
    before = predicted("sgemm.c", None, inputs, fixed, in_tmp)
    launch = model.CALIBRATION.launch_us * 1e-3
    monkeypatch.setattr(model, "fitted_calibrations", lambda: {H100.name: {"scale": 2.0, "launch_ms": 0.01}})
    assert predicted("sgemm.c", None, inputs, fixed, in_tmp) == pytest.approx(2 * (before - launch) + 0.01)
    monkeypatch.setattr(model, "fitted_calibrations", lambda: {"another GPU": {"scale": 2.0, "launch_ms": 0.01}})
    assert predicted("sgemm.c", None, inputs, fixed, in_tmp) == before


STEPPED = """void stepped(int T, int n, %(t)s *a, %(t)s *b) {
    int t, s, i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [64]; }
    def input_params { param T[] = [1]; param n[] = [%(n)d]; }
    def input_vars { decl dynamic %(t)s a[n] = random; decl dynamic %(t)s b[n] = 0; }
    ) @*/
    /*@ begin Loop(
    %(around)s {
        transform CUDA(threadCount=TC, blockCount=8)
        for (i = 1; i <= n - 2; i++)
            b[i] = 0.25 * (a[i - 1] + 2 * a[i] + a[i + 1]);
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


@pytest.mark.parametrize(
    "ctype, n, around, steps",
    [
        ("double", 4096, "for (t = 0; t < T; t++)", {1: 1, 7: 7, 500: 500}),
        ("float", 100000, "for (t = 0; t < T; t++) for (s = 0; s < 2; s++)", {1: 2, 3: 6}),
        ("double", 1000, "for (t = 1; t <= T; t++) for (s = 0; s < t; s++)", {1: 1, 4: 10, 30: 465}),
    ],
)
def test_the_model_predicts_every_launch_of_a_kernel_in_host_loops(in_tmp, monkeypatch, ctype, n, around, steps):
    """A kernel launched at each step of a time loop takes the steps' times: the model predicted one
    launch (PolyBench's jacobi-1d at 500 steps measured 600 times its prediction on the H200)."""
    from orcu.execution import model

    monkeypatch.setattr(model, "fitted_calibrations", lambda: {H100.name: {"scale": 0.5, "launch_ms": 0.004}})
    write(in_tmp / "s.c", STEPPED % {"t": ctype, "n": n, "around": around})
    program = load(str(in_tmp / "s.c"))
    code = generate(program, program.nests[0], {"TC": 64}, {"T": 1, "n": n})
    traffic = code.traffic(H100.multiprocessors)
    once = None
    for T, launched in steps.items():
        p = of_variant(program, 0, traffic, {"T": T, "n": n}, H100)
        assert p.launches == launched and p.as_dict().get("launches", 1) == launched
        slowest = max(p.terms.values())
        assert p.slowest_ms == pytest.approx(launched * slowest) and p.ms == pytest.approx(
            0.5 * launched * slowest + launched * 0.004
        )
        once = once or p.ms / launched
        assert p.ms == pytest.approx(launched * once)
    # figures the emulation counted over a whole run hold every launch's traffic already
    counted = dataclasses.replace(traffic, whole_run=True)
    T, launched = max(steps.items())
    whole = of_variant(program, 0, counted, {"T": T, "n": n}, H100)
    assert whole.ms == pytest.approx(0.5 * max(whole.terms.values()) + launched * 0.004)


COLUMNS = """/*@ begin PerfTuning (
 def performance_params {{ param TC[] = [64, 128]; }}
 def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
 def input_vars {{ decl dynamic {t} A[n*m] = random; decl dynamic {t} x[n] = random; decl dynamic {t} y[m] = 0; }}
) @*/
void f(int n, int m, const {t} *A, const {t} *x, {t} *y) {{
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


@pytest.mark.parametrize(
    "ctype, n, m, fits",
    [
        ("double", 2000, 600, True),
        ("float", 4000, 300, True),
        ("double", 2049, 600, False),
        ("float", 9000, 256, False),
    ],
)
def test_reads_of_a_constant_copy_are_the_constant_caches_where_the_array_fits(in_tmp, monkeypatch, ctype, n, m, fits):
    """x[i], the same element for every thread, copied to constant memory (TSG phase II) is no
    request of global memory where the copy holds it (16 KB): PolyBench's atax at LARGE ran 1.5 times
    faster on the H200 so (0.250 against 0.377 ms) where the model predicted the same time."""
    from orcu.execution import model

    monkeypatch.setattr(model, "fitted_calibrations", lambda: {})
    write(in_tmp / "c.c", COLUMNS.format(t=ctype, n=n, m=m))
    program = load(str(in_tmp / "c.c"))
    inputs = {"n": n, "m": m}
    space = performance_space(program, inputs)

    def figures(constant: bool):
        config = space.first_matching({"TC": 64, "mapping_1": "x=j", "registers_j_1": 1, "constant_x_1": constant})
        traffic = generate(program, program.nests[0], config, inputs).traffic(H100.multiprocessors)
        return traffic, of_variant(program, 0, traffic, inputs, H100)

    (plain, in_global), (copied, in_constant) = figures(False), figures(True)
    read = next(f for f in plain.globals_ if f.access == "x[i]")
    assert "x[i]" not in {f.access for f in copied.globals_} and copied.constant_reads == (("x", read.requests),)
    assert copied.as_dict()["constant"] == {"x": read.requests}
    if fits:
        assert in_constant.terms["latency"] < in_global.terms["latency"] and in_constant.ms < in_global.ms
        assert in_constant.terms["issue"] == pytest.approx(in_global.terms["issue"])  # a read a warp all the same
    else:  # x_in_constant is false at run time: the reads are global memory's, as without the copy
        assert in_constant.ms == pytest.approx(in_global.ms) and in_constant.terms == pytest.approx(in_global.terms)


@pytest.mark.parametrize("ctype, width", [("double", 32), ("float", 16), ("double", 8), ("int", 4)])
def test_a_split_reads_constant_memory_once_for_each_row_of_threads_in_a_warp(in_tmp, ctype, width):
    """Split over the rows of threads, x[i] is one element a row: a warp of rows of ``width``
    threads reads 32 / width of them, each a request of the constant cache; the variants agree
    with the C code in the emulation at sizes off the block."""
    text = COLUMNS.format(t=ctype, n=77, m=45).replace(
        "mapping='auto', threadCount=TC", f"mapping='x=j y=i(split)', threadCount=TC, tile={{'j': {width}}}"
    )
    write(in_tmp / "c.c", text)
    program = load(str(in_tmp / "c.c"))
    inputs = {"n": 77, "m": 45}
    space = performance_space(program, inputs)

    def config(constant: bool):
        return space.first_matching({"TC": 128, "registers_j_1": 1, "constant_x_1": constant})

    def figures(constant: bool):
        return generate(program, program.nests[0], config(constant), inputs).traffic(H100.multiprocessors)

    plain, copied = figures(False), figures(True)
    read = next(f for f in plain.globals_ if f.access == "x[i]")
    assert copied.constant_reads == (("x", read.requests * (32 // width)),)
    assert [f for f in copied.globals_ if f.access != "x[i]"] == [f for f in plain.globals_ if f.access != "x[i]"]
    runner = Runner("emulate", H100, in_tmp / "build", jobs=2)
    items = [(config(c), size) for c in (False, True) for size in (inputs, {"n": 300, "m": 33})]
    assert [(r.status, r.message) for r in runner.evaluate(program, 0, items)] == [("ok", "")] * 4


@pytest.mark.parametrize(
    "ctype, rows, columns", [("double", 8192, 8192), ("float", 4096, 1000), ("double", 2100, 1900)]
)
def test_a_threads_loop_has_several_steps_loads_in_flight(in_tmp, monkeypatch, ctype, rows, columns):
    """A thread that walks a loop (a column of GEMV's transpose) has the loads of nvcc's unrolled
    steps in flight (4 by default), up to the warp's most; one without a loop of its own (axpy) its
    one step's. The model took one step's: twice to seven times slow on the H200's PolyBench products."""
    from orcu.execution import model

    monkeypatch.setattr(model, "fitted_calibrations", lambda: {})
    write(in_tmp / "c.c", COLUMNS.format(t=ctype, n=rows, m=columns))
    program = load(str(in_tmp / "c.c"))
    inputs = {"n": rows, "m": columns}
    config = performance_space(program, inputs).first_matching({"mapping_1": "x=j", "registers_j_1": 1})
    traffic = generate(program, program.nests[0], config, inputs).traffic(H100.multiprocessors)
    stepwise = dataclasses.replace(model.CALIBRATION, unrolled=1)
    touched = sum(b for _, b in traffic.bytes_by_array)
    one, unrolled = (model.predict(traffic, H100, 8, touched, calibration=c) for c in (stepwise, model.CALIBRATION))
    assert traffic.parallel == 3  # y[j] kept in a register, A's element and x's a step
    # 4 steps' 12 loads, of which the warp keeps its most (8) in flight
    assert unrolled.terms["latency"] == pytest.approx(one.terms["latency"] * 3 / 8)

    write(in_tmp / "a.c", example("axpy.c"))
    axpy = load(str(in_tmp / "a.c"))
    flat = {"n": 1 << 20}
    params = performance_space(axpy, flat).first_matching({})
    code = generate(axpy, axpy.nests[0], params, flat).traffic(H100.multiprocessors)
    steps = code.distinct[0] / (code.blocks * -(-code.threads // 32)) / code.parallel
    single = [
        model.predict(code, H100, 8, 1 << 24, calibration=c).terms["latency"] for c in (stepwise, model.CALIBRATION)
    ]
    assert single[1] == pytest.approx(single[0] / min(4, max(1, steps)))


def test_tune_in_the_emulation_ranks_by_the_model_and_says_so(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "sgemm.c", example("sgemm.c"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            "sgemm.c",
            "--backend",
            "emulate",
            "--input=n=40",
            "--budget",
            "6",
            "--json",
            "-o",
            "s.cu",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    (region,) = json.loads(proc.stdout)["regions"]
    best = region["best"]
    assert best["measure"] == "model" and best["kernel_ms"] > 0  # the CPU's time is kept beside the prediction
    assert re.search(r"\]: ok [\d.e-]+ ms predicted on the GPU", proc.stderr)
    header = (in_tmp / "s.cu").read_text()
    assert (
        f"time {best['time_ms']:.4g} ms (GPU kernel time predicted by orcu's performance model, which ranked" in header
    )
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as db:
        rows = db.execute("SELECT time_ms, kernel_ms, figures FROM evaluations WHERE status = 'ok'").fetchall()
    assert len(rows) == 6
    for time_ms, kernel_ms, figures_ in rows:
        model = json.loads(figures_)["model"]
        assert time_ms == model["predicted_ms"] and json.loads(kernel_ms) and model["bound"] in model["terms"]
    assert min(r[0] for r in rows) == best["time_ms"]


@pytest.mark.slow
def test_the_model_backend_compiles_every_variant_and_runs_only_its_winners_check(in_tmp, monkeypatch, capsys):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    # 64 threads a block alone: a third of the space, with register tiles ptxas spills, some kept
    # with a minBlocks and some not (the whole space was 588 nvcc builds, ten minutes on CI)
    write(in_tmp / "sgemm.c", example("sgemm.c").replace("param TC[] = [64, 128, 256];", "param TC[] = [64];"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            "sgemm.c",
            "--backend",
            "model",
            "--input=n=256",
            "--json",
            "-o",
            "s.cu",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    (region,) = json.loads(proc.stdout)["regions"]
    statuses = region["statuses"]
    # the space at n=256: 196 configurations the device can run (4 x 4 register tiles, shared, depths, vectors)
    assert statuses["predicted"] + statuses.get("invalid", 0) == 196 and region["best"]["measure"] == "model"
    # every variant compiled: where nvcc did, a register tile ptxas spilled is built again with a minBlocks
    # (tests/test_spills.py), and one it spills even then, or at 255 registers, is invalid, as on the GPU
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as db:
        invalid = db.execute("SELECT message, params FROM evaluations WHERE status = 'invalid'").fetchall()
        kept = db.execute(
            "SELECT params FROM evaluations WHERE status = 'predicted' AND params LIKE '%minBlocks_1%'"
        ).fetchall()
    assert len(invalid) == statuses.get("invalid", 0)
    for why, params in invalid:  # tried last with all the registers a thread may have, unless ptxas gave it 255 already
        tried = re.fullmatch(
            r"ptxas keeps part of the register tile in local memory \(.*, (\d+) registers(, minBlocks (\d+))?\): "
            r"not kept",
            why,
        )
        params = json.loads(params)
        blocks = params.get("minBlocks_1")
        assert tried and (tried[1] == "255" if blocks is None else int(tried[3]) == blocks), why
        assert blocks is None or 65536 // (params["TC"] * blocks) >= 255, why
    assert kept  # spilled under ptxas's own target, kept with a minBlocks
    assert (
        region["best"]["status"] == "predicted"
        and region["best"]["checked"] is True
        and region["best"]["check_note"] == ""
    )
    winner = settings_text(region["best"]["params"])
    assert f"orcu: checking the prediction for orcu_sgemm_1 n=256 [{winner}]: ok" in proc.stderr
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as db:  # the one variant run: the winner, in the emulation
        assert db.execute("SELECT backend, status, params FROM evaluations WHERE backend != 'model'").fetchall() == [
            ("emulate", "ok", json.dumps(region["best"]["params"]))
        ]
    text = (in_tmp / "s.cu").read_text()
    assert (
        "Device: NVIDIA H100 80GB HBM3 (sm_90, predicted by orcu's performance model)" in text
        and "UNCHECKED" not in text
    )
    assert main(["report", "sgemm.c", "--measure", "model"]) == 0
    out = capsys.readouterr().out
    assert f"{region['best']['time_ms']:.4g} ms, predicted GPU kernel time (orcu's performance model)" in out


def test_the_model_backend_counts_in_the_emulation_what_the_static_figures_cannot_tell(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    # DIA's bands come from an array of offsets: no static figures, so each variant runs once in the
    # emulation, which counts its traffic, and the model predicts from those counts
    write(in_tmp / "dia.c", example("spmv_dia.c").replace("[32, 64, 128, 256, 512]", "[64]"))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "dia.c", "--backend", "model", "--budget", "2", "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    (region,) = json.loads(proc.stdout)["regions"]
    assert region["statuses"] == {"predicted": 2} and region["best"]["measure"] == "model"
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as db:
        rows = db.execute("SELECT figures FROM evaluations WHERE backend = 'model' AND params LIKE '%TC%'").fetchall()
    assert len(rows) == 2
    for (figures_,) in rows:  # the figures the run counted, and the prediction made from them
        figures = json.loads(figures_)
        assert [g["access"] for g in figures["global"]] == ["global load (counted)", "global store (counted)"]
        assert all(g["requests"] > 0 for g in figures["global"]) and figures["model"]["predicted_ms"] > 0


def test_the_emulation_counts_what_the_static_figures_cannot_tell(in_tmp):
    """DIA's subscripts go through an array of offsets: the emulated run counts the traffic, and
    the model predicts from those counts."""
    write(in_tmp / "t.c", example("spmv_dia.c"))
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    params = next(iter(performance_space(program, inputs).configs()))
    assert generate(program, program.nests[0], params, inputs).traffic(H100.multiprocessors) is None
    result = next(
        Runner("emulate", H100, in_tmp / "build", jobs=2, measure="model").evaluate(program, 0, [(params, inputs)])
    )
    assert (inputs, params["TC"], params["BC"]) == ({"m": 32, "n": 32, "nos": 5, "dof": 1}, 32, 132)
    # 1024 rows, 32 warps of them; each warp loads y once and, per diagonal, offsets[j] and, where a lane's
    # column is inside the matrix, A and x: every warp but the first on the diagonal -m and the last on +m
    c = result.counted
    assert result.status == "ok" and c["load_requests"] == 32 * (1 + 5 + 5 * 2) - 2 * 2 and c["store_requests"] == 32
    assert (c["blocks"], c["threads"]) == (132, 32)


def test_emit_explains_the_models_prediction(capsys):
    assert (
        main(
            [
                "emit",
                "--explain",
                str(EXAMPLES / "sgemm.c"),
                "--input",
                "n=64",
                "-o",
                "/dev/null",
                "--set=registers_i_1=4",
                "--set=registers_j_1=4",
                "--set=shared_A_1=True",
                "--set=shared_B_1=True",
            ]
        )
        == 0
    )
    line = next(line for line in capsys.readouterr().err.splitlines() if line.startswith("  model:"))
    # ptxas's registers (80 a thread, two buffers a strip) hold 12 blocks of 64 threads a multiprocessor: 38% occupancy
    assert re.fullmatch(
        r"  model: [\d.e-]+ ms predicted on the GPU, bound by (dram|l2|shared|compute|issue|latency); ms by "
        r"resource: dram [\d.e-]+, l2 [\d.e-]+, shared [\d.e-]+, compute [\d.e-]+, issue [\d.e-]+, latency "
        r"[\d.e-]+; 1 wave of blocks at 38% occupancy",
        line,
    ), line


@pytest.mark.slow
def test_a_gpu_build_keeps_what_ptxas_says_of_each_kernel_for_the_model(in_tmp, capsys):
    """nvcc builds (no GPU needed) report each variant's registers and shared memory, from a
    harness of two variants and again from the build cache: the figures emit --explain prints."""
    program = load(EXAMPLES / "sgemm.c")
    inputs = {"n": 64}
    tiled = {"TC": 64, "registers_i_1": 4, "registers_j_1": 4, "shared_A_1": True, "shared_B_1": True}
    items = [
        build_item(program, 0, k, performance_space(program, inputs).first_matching(fixed), inputs, "cuda", "sm_90")
        for k, fixed in enumerate((tiled, {"TC": 64, "registers_i_1": 1, "registers_j_1": 1}))
    ]
    for _ in range(2):  # built, then found in the cache
        runner = Runner("cuda", H100, in_tmp / "build", jobs=1)
        (_, _, first), (_, _, second) = runner._build_batch(program, 0, items, None)
        assert first.ok and len(first.resources) == len(second.resources) == 2  # 32- and 64-bit indices, 32 first
        assert ["_kernelIiE" in name for name in first.resources] == [True, False]
        registers = next(iter(first.resources.values())).registers
        assert registers > next(iter(second.resources.values())).registers  # 16 accumulators a thread
    assert (
        main(
            [
                "emit",
                "--explain",
                str(EXAMPLES / "sgemm.c"),
                "--input",
                "n=64",
                "-o",
                "/dev/null",
                *(f"--set={k}={v}" for k, v in tiled.items()),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert f"ptxas (sm_90): {registers} registers a thread" in err
    # what a GPU tune keeps with the evaluation: ptxas's figures, the occupancy they allow, the model's prediction from them
    params = items[0][1]
    result = Result("ok", params, inputs, kernel_ms=[1.0], resources=next(iter(first.resources.values())))
    _figures(program, 0, items[0][4], result, runner)
    ptxas = result.figures["ptxas"]
    assert ptxas["registers"] == registers and ptxas["stack_bytes"] == ptxas["spill_bytes"] == 0
    occupancy = re.search(r"(\d+) blocks of 64 threads per multiprocessor \((\w+) bound\): occupancy (\d+)%", err)
    assert (ptxas["blocks_per_sm"], ptxas["limit"], round(100 * ptxas["occupancy"])) == (
        int(occupancy.group(1)),
        occupancy.group(2),
        int(occupancy.group(3)),
    )
    assert result.figures["model"]["occupancy"] == ptxas["occupancy"]
