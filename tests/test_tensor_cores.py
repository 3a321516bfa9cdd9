"""Multiply-add nests on the tensor cores (tensorCores, tsg/tensor_cores.py): doubles on the FP64
ones, floats on the TF32 ones where the transform opts in (allowReducedPrecision). Which nests get
the parameter and why the others do not, every variant of several shapes right in the emulation
(its mma helpers trade operands with shuffles, its TF32 rounding bit for bit cvt.rna's), the
harness's check widened for the TF32 variants alone, the warps' layout and the operand tiles' rows
as generated, the instructions in nvcc's PTX, and the model's price of them."""

import random
import re
import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import EXAMPLES, H100, write

from orcu.codegen.region import generate
from orcu.codegen.templates import render
from orcu.driver.tuning import region_configs
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.harness import harness_source
from orcu.execution.model import predict
from orcu.execution.runners import Runner
from orcu.execution.toolchain import compile_program, kernel_resources, nvcc, ptxas_report
from orcu.planning.program import load
from orcu.planning.space import performance_space
from orcu.tsg.figures import Traffic
from orcu.tsg.tensor_cores import FP64, TF32, WarpLayout, warp_layout

REDUCED = ", tensorCores=True, allowReducedPrecision=True"  # a float nest's opt-in

TEMPLATE = """void f(int n, int p, int m, {t} alpha, {t} C[n][p], const {t} A[{a_dims}], const {t} B[m][p])
{{
    int i, j, k;{sum}
    /*@ begin PerfTuning (
    def performance_params {{ param TJ[] = [16, 32]; }}
    def input_params {{ param n[] = [{n}]; param p[] = [{p}]; param m[] = [{m}]; }}
    def input_vars {{ decl dynamic {t} alpha = random; decl dynamic {t} C[n][p] = random;
                     decl dynamic {t} A[{a_dims}] = random; decl dynamic {t} B[m][p] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', tile={{'i': 8, 'j': TJ}}{tensor})
    for (i = 0; i < n; i++)
        for (j = 0; j < p; j++) {{
{body}
        }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

BODIES = {  # (the left operand's dimensions, the loop body)
    # PolyBench's gemm: C kept in a register over k, alpha folded into the left operand
    "gemm": (
        "n][m",
        """            C[i][j] = C[i][j] * 0.5;
            for (k = 0; k < m; k++)
                C[i][j] += alpha * A[i][k] * B[k][j];""",
    ),
    # a private sum from k = 1, the result scaled after
    "sum from 1": (
        "n][m",
        """            sum = 0.0;
            for (k = 1; k < m; k++)
                sum += A[i][k] * B[k][j];
            C[i][j] = alpha * sum + C[i][j];""",
    ),
    # the left operand transposed (A^T B), the factors written right operand first
    "transposed, swapped": (
        "m][n",
        """            for (k = 0; k < m; k++)
                C[i][j] += B[k][j] * A[k][i];""",
    ),
}


def source(t="double", body="gemm", n=37, p=29, m=10, tensor=", tensorCores=True"):
    a_dims, text = BODIES[body]
    sum = f"\n    {t} sum;" if "sum" in text else ""
    return TEMPLATE.format(t=t, a_dims=a_dims, body=text, n=n, p=p, m=m, tensor=tensor, sum=sum)


@pytest.mark.parametrize(
    "t, body, n, p, m",
    [
        ("double", "gemm", 37, 29, 10),
        ("double", "sum from 1", 16, 40, 33),
        ("double", "transposed, swapped", 41, 24, 7),
        ("float", "gemm", 45, 21, 13),
        ("float", "sum from 1", 19, 40, 70),
        ("float", "transposed, swapped", 33, 24, 6),
    ],
)
def test_every_tensor_core_variant_is_right_in_the_emulation(in_tmp, t, body, n, p, m):
    """Sizes that are not whole 8 x 8 (16 x 8) tiles nor whole steps of 4 along k: the last
    strip's operands past the loop's end are zeros, the rows and columns past the grid's are never
    stored. The TF32 variants pass only with the check widened by their rounding, the others
    keep float's (an emulated TF32 product is off by about 10^-4 here, float's check allows 10^-5)."""
    write(
        in_tmp / "t.c", source(t=t, body=body, n=n, p=p, m=m, tensor=REDUCED if t == "float" else ", tensorCores=True")
    )
    program = load("t.c", device=H100)
    inputs = {"n": n, "p": p, "m": m}
    items = [(c, inputs) for c in region_configs(program, 0, inputs, H100)]
    assert len(items) >= 12
    results = list(Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, items))
    assert [(r.status, r.message) for r in results] == [("ok", "")] * len(items)
    instruction = FP64 if t == "double" else TF32
    code = generate(program, program.nests[0], items[0][0], inputs)
    assert f"{instruction.helper}(" in code.text and instruction.helper in code.needs
    assert code.rounding == instruction.rounding


def test_the_harness_widens_the_check_of_the_tf32_variants_alone(in_tmp):
    write(in_tmp / "t.c", source(t="float", tensor=REDUCED.replace("tensorCores=True", "tensorCores=TC")))
    text = (
        (in_tmp / "t.c")
        .read_text()
        .replace("param TJ[] = [16, 32];", "param TJ[] = [16, 32]; param TC[] = [False, True];")
    )
    write(in_tmp / "t.c", text)
    program = load("t.c", device=H100)
    inputs = {"n": 37, "p": 29, "m": 10}
    space = performance_space(program, inputs)
    settled = {
        "TJ": 32,
        "registers_i_1": 2,
        "registers_j_1": 2,
        "sharedDepth_1": 16,
        "shared_A_1": True,
        "shared_B_1": True,
    }
    codes = [
        generate(program, program.nests[0], space.first_matching({**settled, "TC": on}), inputs, suffix=f"_{on}")
        for on in (True, False)
    ]
    assert [c.rounding for c in codes] == [2.0**-10, 0.0]
    assert (
        "static const double orcu_roundings[] = { 0.0009765625, 0.0 };"
        in harness_source(program, 0, codes, inputs).text
    )
    # the kernel says so too: the tuned file states how its results were checked
    assert (
        "// TF32 (allowReducedPrecision): each operand rounded to 10 mantissa bits, the sums in float; orcu "
        "checked every result to 0.000976562 of its size" in codes[0].text
    )


def test_only_a_double_product_along_both_grid_loops_gets_the_parameter(in_tmp):
    def explained(text):
        write(in_tmp / "t.c", text)
        proc = subprocess.run(
            [sys.executable, "-m", "orcu", "check", "--explain", "t.c"], capture_output=True, text=True, cwd=in_tmp
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout + proc.stderr

    out = explained(source(tensor=""))
    assert "tensorCores_1      2 value(s): False, True" in out
    assert "tensor cores: 'C[i][j] += alpha * A[i][k] * B[k][j]' over 'k' as FP64 mma.sync" in out
    out = explained(source(t="float", tensor=""))
    assert "tensorCores_1" not in out
    assert (
        "no tensor cores: 'C[i][j]' is a float: the tensor cores would round its products' operands to TF32 "
        "(10 mantissa bits); allowReducedPrecision=True lets them" in out
    )
    out = explained(source(t="float", tensor=", allowReducedPrecision=True"))
    assert "tensorCores_1      2 value(s): False, True" in out
    assert (
        "tensor cores: 'C[i][j] += alpha * A[i][k] * B[k][j]' over 'k' as TF32 mma.sync (16 x 8 x 4 a warp, "
        "operands from the shared tiles of A and B); operands rounded to TF32, results checked to 0.000976562 of "
        "their size" in out
    )
    # a double nest ignores the opt-in: its products stay IEEE double ones
    assert "over 'k' as FP64 mma.sync" in explained(source(tensor=", allowReducedPrecision=True"))
    out = explained(source(t="int", tensor=", allowReducedPrecision=True"))
    assert "no tensor cores: 'C[i][j]' is neither a double nor a float" in out
    triangle = source(tensor="").replace("for (j = 0; j < p; j++)", "for (j = 0; j < i + 1; j++)")
    assert "tensorCores_1" not in explained(triangle)
    out = explained(source(tensor="").replace("alpha * A[i][k] * B[k][j]", "A[i][k] * B[k][j] * alpha"))
    assert "no tensor cores: " in out and "the right operand is not the last factor" in out
    assert "tensorCores_1" not in explained((EXAMPLES / "sgemm.c").read_text())


def test_the_widened_check_still_catches_a_tf32_variant_that_drops_a_term(in_tmp):
    """69 terms a sum, the last one dropped (its right operand read as zero): 1.4% of each result,
    14 times the TF32 variants' allowance."""
    write(in_tmp / "t.c", source(t="float", body="sum from 1", n=19, p=40, m=70, tensor=REDUCED))
    program = load("t.c", device=H100)
    inputs = {"n": 19, "p": 40, "m": 70}
    config = performance_space(program, inputs).first_matching(
        {"TJ": 32, "registers_i_1": 2, "registers_j_1": 2, "sharedDepth_1": 16, "shared_A_1": True, "shared_B_1": True}
    )
    last = "(k + orcu_lane % 4) < m ? orcu_tf32(B_shared"

    def dropped(code):
        assert last in code.text
        code.text = code.text.replace(last, last.replace("< m ?", "< m - 1 ?"))
        return code

    runner = Runner("emulate", H100, in_tmp / "build", jobs=2)
    right, wrong = (next(iter(runner.evaluate(program, 0, [(config, inputs)], edit=e))) for e in (None, dropped))
    assert right.status == "ok"
    assert wrong.status == "wrong_result" and wrong.message.startswith("C["), wrong.message


def test_the_opt_in_is_a_value_for_the_tsg(in_tmp):
    """allowReducedPrecision is decided when the file loads, on a nest the TSG maps."""

    def refused(text):
        write(in_tmp / "t.c", text)
        proc = subprocess.run(
            [sys.executable, "-m", "orcu", "check", "t.c"], capture_output=True, text=True, cwd=in_tmp
        )
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stderr

    text = source(t="float", tensor=", allowReducedPrecision=TJ > 16")
    assert (
        "t.c:10:" in (err := refused(text))
        and "'allowReducedPrecision' is decided when the file loads: give it a value, not a parameter\n" in err
    )
    text = source(t="float", tensor=", allowReducedPrecision=True").replace(
        "mapping='auto', tile={'i': 8, 'j': TJ}, ", ""
    )
    assert "'allowReducedPrecision' needs the TSG: add mapping='auto'" in refused(text)
    assert "must be True or False, got 'yes'" in refused(source(t="float", tensor=", allowReducedPrecision='yes'"))


def test_the_warps_split_the_block_tile_with_the_fewest_operand_loads():
    product = type("P", (), {"rows": "i", "cols": "j", "instruction": FP64})
    # 256 threads, a 16 x 64 tile: 1 x 8 warps of 16 x 8 (2 rows + 1 pair a step) or 2 x 4 of 8 x 16
    # (1 row + 2 pairs): equal, the first found kept
    assert warp_layout((32, 8), {"i": 16, "j": 64}, product) == WarpLayout(1, 8, 2, 2, 16, 64)
    assert warp_layout((32, 8), {"i": 64, "j": 128}, product) == WarpLayout(2, 4, 4, 8, 64, 128)
    assert "does not split into 8 x 8 tiles" in warp_layout((32, 8), {"i": 8, "j": 32}, product)
    assert "not whole warps" in warp_layout((16, 1), {"i": 8, "j": 16}, product)
    # TF32: 16 x 8 an instruction, a thread's rows in pairs
    tf32 = type("P", (), {"rows": "i", "cols": "j", "instruction": TF32})
    assert warp_layout((32, 8), {"i": 16, "j": 64}, tf32) == WarpLayout(1, 8, 2, 2, 16, 64)
    assert warp_layout((32, 8), {"i": 64, "j": 128}, tf32) == WarpLayout(2, 4, 4, 8, 64, 128)
    assert warp_layout((32, 4), {"i": 32, "j": 32}, tf32) == WarpLayout(2, 2, 2, 4, 32, 32)
    assert "does not split into 16 x 8 tiles among its 8 warps" in warp_layout((32, 8), {"i": 8, "j": 64}, tf32)


def test_the_lanes_hold_the_instructions_layout_and_the_operand_rows_are_conflict_free(in_tmp):
    write(in_tmp / "t.c", source())
    program = load("t.c", device=H100)
    inputs = {"n": 37, "p": 29, "m": 10}
    config = performance_space(program, inputs).first_matching(
        {"TJ": 32, "registers_i_1": 2, "registers_j_1": 2, "sharedDepth_1": 16, "shared_A_1": True, "shared_B_1": True}
    )
    text = generate(program, program.nests[0], config, inputs).text
    # a 16 x 64 block tile: warps 1 x 8, each 16 x 8; rows 8 apart, columns in pairs
    assert "const int orcu_lane = (threadIdx.y * 32 + threadIdx.x) % 32;" in text
    assert "const orcu_index i_0 = i0 + (orcu_lane / 4);" in text
    assert "const orcu_index i_1 = i0 + (8 + orcu_lane / 4);" in text
    assert "const orcu_index j_1 = j0 + (orcu_warp % 8 * 8 + 1 + 2 * (orcu_lane % 4));" in text
    assert "const orcu_index j_right_0 = j0 + (orcu_warp % 8 * 8 + orcu_lane / 4);" in text
    # rows of 16 + 4 and 64 + 4 doubles: no two of a warp's reads in one bank
    assert "ORCU_SHARED_TILE(double, A_buffers, [2][16][20], 1);" in text
    assert "ORCU_SHARED_TILE(double, B_buffers, [2][16][68], 1);" in text
    assert "const double A_left_1 = alpha * A_shared[i_1 - i0][(k + orcu_lane % 4) - k0];" in text
    assert "orcu_mma_f64(C_k_acc_1_0, C_k_acc_1_1, A_left_1, B_right_0, orcu_lane);" in text
    # the last strip: zeros past k's end
    assert (
        "const double B_right_0 = (k + orcu_lane % 4) < m ? B_shared[(k + orcu_lane % 4) - k0][j_right_0 - j0] : 0.0;"
        in text
    )


def _built(in_tmp, t: str, tensor: str):
    """gemm of ``t`` at 2048 with a 4 x 4 register tile and strips of 16, its tuned file's PTX for
    sm_90 and sm_75 (nvcc, no warning) and ptxas's report of its kernel for the H100."""
    write(in_tmp / "t.c", source(t=t, tensor=tensor))
    program = load("t.c", device=H100)
    inputs = {"n": 2048, "p": 2048, "m": 2048}
    config = performance_space(program, inputs).first_matching(
        {"TJ": 32, "registers_i_1": 4, "registers_j_1": 4, "sharedDepth_1": 16, "shared_A_1": True, "shared_B_1": True}
    )
    text, _ = tuned_source(program, [Choice(config, inputs)])
    (in_tmp / "t.cu").write_text(text)
    for arch in ("sm_90", "sm_75"):
        proc = subprocess.run(
            [nvcc(), "-ptx", f"-arch={arch}", "t.cu", "-o", f"{arch}.ptx"], capture_output=True, text=True, cwd=in_tmp
        )
        assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    code = generate(program, program.nests[0], config, inputs)
    report = kernel_resources(ptxas_report(in_tmp / "t.cu", H100.arch), code.host)
    return (in_tmp / "sm_90.ptx").read_text(), (in_tmp / "sm_75.ptx").read_text(), report


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc")
def test_nvcc_runs_the_product_as_fp64_mma_on_sm_80_and_later(in_tmp):
    ptx90, ptx75, report = _built(in_tmp, "double", ", tensorCores=True")
    # 4 x 4 sums a thread: 2 rows x 4 pairs of columns, unrolled over a strip of 16 (4 steps)
    assert len(re.findall(re.escape(FP64.ptx), ptx90)) >= 8 * 4
    assert "mma.sync" not in ptx75 and "shfl.sync" in ptx75
    assert (report.stack_bytes, report.spill_bytes) == (0, 0)


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc")
def test_nvcc_runs_a_float_product_as_tf32_mma_on_sm_80_and_later(in_tmp):
    ptx90, ptx75, report = _built(in_tmp, "float", REDUCED)
    # a 32 x 128 block tile of 8 warps (2 x 4 of 16 x 32): a thread's 2 rows x 8 columns are 4
    # instructions a step, 4 steps a strip of 16, in each of the kernel's two index widths
    assert len(re.findall(re.escape(TF32.ptx), ptx90)) >= 2 * 4 * 4
    # an operand rounded once where it is loaded: 2 left and 4 right a step
    assert len(re.findall(r"cvt\.rna\.tf32\.f32", ptx90)) >= 2 * 6 * 4
    assert "mma.sync" not in ptx75 and "cvt.rna" not in ptx75 and "shfl.sync" in ptx75
    # the strips' operand tiles double-buffered: the next one copied asynchronously
    assert "cp.async.ca.shared.global" in ptx90 and "cp.async" not in ptx75
    assert (report.stack_bytes, report.spill_bytes) == (0, 0)


# A warp's 16 x 8 x 4 TF32 product through the prelude's helpers, each lane its fragments.
_FRAGMENTS = """#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
{prelude}
__global__ void product(const float *a, const float *b, float *c, float *rounded, const float *values)
{{
    const int l = threadIdx.x;
    float d0 = c[l / 4 * 8 + 2 * (l % 4)], d1 = c[l / 4 * 8 + 2 * (l % 4) + 1];
    float d2 = c[(l / 4 + 8) * 8 + 2 * (l % 4)], d3 = c[(l / 4 + 8) * 8 + 2 * (l % 4) + 1];
    orcu_mma_tf32(d0, d1, d2, d3, orcu_tf32(a[l / 4 * 4 + l % 4]), orcu_tf32(a[(l / 4 + 8) * 4 + l % 4]),
                  orcu_tf32(b[l % 4 * 8 + l / 4]), l);
    c[l / 4 * 8 + 2 * (l % 4)] = d0, c[l / 4 * 8 + 2 * (l % 4) + 1] = d1;
    c[(l / 4 + 8) * 8 + 2 * (l % 4)] = d2, c[(l / 4 + 8) * 8 + 2 * (l % 4) + 1] = d3;
    rounded[l] = orcu_tf32(values[l]);
}}

int main(void)
{{
    float host[64 + 32 + 128 + 32 + 32], *device;
    for (int k = 0; k < 64 + 32 + 128 + 32; k++)
        if (scanf("%a", &host[k]) != 1) return 2;
    cudaMalloc((void **)&device, sizeof host);
    cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice);
    ORCU_LAUNCH(product, 1, 32, 0, 0, device, device + 64, device + 96, device + 256, device + 224);
    cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
    for (int k = 96; k < 64 + 32 + 128 + 32 + 32; k++)
        if (k < 224 || k >= 256)  // the sums, then the values rounded
            printf("%a\\n", host[k]);
    return cudaGetLastError() != cudaSuccess;
}}
"""


def _tf32(x: float) -> float:
    """cvt.rna.tf32.f32: to nearest, ties away from zero, 10 mantissa bits."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    if bits & 0x7F800000 != 0x7F800000:
        bits = (bits + 0x1000) & 0xFFFFE000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def test_the_emulated_tf32_product_rounds_each_operand_and_sums_in_the_order_of_k(in_tmp):
    """Bit for bit: operands in [0.5, 2) with all 24 bits, sums in [0.5, 64): a product of two TF32
    values and its sum with a float are exact in double, so numpy's float32 of it is the one
    rounding fmaf makes."""
    rng = random.Random(7)
    a = np.array([rng.uniform(0.5, 2) for _ in range(64)], np.float32).reshape(16, 4)
    b = np.array([rng.uniform(0.5, 2) for _ in range(32)], np.float32).reshape(4, 8)
    c = np.array([rng.uniform(0.5, 48) for _ in range(128)], np.float32).reshape(16, 8)
    half = 2.0**-11  # half of TF32's unit in the last place at 1
    values = [1 + half, -(1 + half), 1 + half / 2, 1 + 3 * half, 1.5 + half - 2.0**-23, float("inf"), 2.0**-130]
    values = np.array(values + [rng.uniform(-4, 4) for _ in range(32 - len(values))], np.float32)
    program = _FRAGMENTS.format(prelude=render("prelude.cu.j2", needs={"orcu_mma_tf32"}))
    write(in_tmp / "tf32.cu", program)
    built = compile_program("emulate", in_tmp / "tf32.cu", in_tmp / "tf32")
    assert built.ok, built.message
    given = "\n".join(float(x).hex() for x in [*a.flat, *b.flat, *c.flat, *values])
    run = subprocess.run([str(in_tmp / "tf32")], input=given, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    got = [float.fromhex(line) for line in run.stdout.split()]
    want = c.astype(np.float64)
    for row in range(16):
        for col in range(8):
            for k in range(4):
                product = _tf32(float(a[row, k])) * _tf32(float(b[k, col]))
                want[row, col] = float(np.float32(want[row, col] + product))
    assert got[:128] == list(want.flat)
    assert got[128:] == [_tf32(float(v)) for v in values]
    assert got[128:133] == [1 + 2 * half, -(1 + 2 * half), 1.0, 1 + 4 * half, 1.5]


def test_the_model_prices_the_products_at_the_tensor_cores_rate():
    """H100: 128 double multiply-adds a cycle a multiprocessor on the tensor cores, 64 on the FMA units."""
    work = 2 * 2048**3
    scalar = Traffic((), (), (), 2048 * 2048, blocks=4096, threads=256, operations=work)
    tensor = Traffic((), (), (), 2048 * 2048, blocks=4096, threads=256, operations=work, tensor_operations=work)
    a, b = predict(scalar, H100, 8, 0), predict(tensor, H100, 8, 0)
    assert a.terms["compute"] == pytest.approx(2 * b.terms["compute"])
    assert a.bound == b.bound == "compute"
    # TF32: 1024 float multiply-adds a cycle a multiprocessor (mma.sync's part of them: calibrated), 128 on the FMA units
    c, d = predict(scalar, H100, 4, 0), predict(tensor, H100, 4, 0)
    assert c.terms["compute"] == pytest.approx(8 * d.terms["compute"])
