"""Double multiply-add nests on the FP64 tensor cores (tensorCores, tsg/tensor_cores.py): which
nests get the parameter and why the others do not, every variant of several shapes right in the
emulation (its mma helper trades operands with shuffles), the warps' layout and the operand tiles'
rows as generated, the instruction in nvcc's PTX, and the model's price of it."""

import re
import subprocess
import sys

import pytest
from conftest import EXAMPLES, H100, write

from orcu.codegen.region import generate
from orcu.driver.tuning import region_configs
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.model import predict
from orcu.execution.runners import Runner
from orcu.execution.toolchain import kernel_resources, nvcc, ptxas_report
from orcu.planning.program import load
from orcu.planning.space import performance_space
from orcu.tsg.figures import Traffic
from orcu.tsg.tensor_cores import WarpLayout, warp_layout

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
    "body, n, p, m",
    [("gemm", 37, 29, 10), ("sum from 1", 16, 40, 33), ("transposed, swapped", 41, 24, 7)],
)
def test_every_tensor_core_variant_is_right_in_the_emulation(in_tmp, body, n, p, m):
    """Sizes that are not whole 8 x 8 tiles nor whole steps of 4 along k: the last strip's
    operands past the loop's end are zeros, the rows and columns past the grid's are never stored."""
    write(in_tmp / "t.c", source(body=body, n=n, p=p, m=m))
    program = load("t.c", device=H100)
    inputs = {"n": n, "p": p, "m": m}
    items = [(c, inputs) for c in region_configs(program, 0, inputs, H100)]
    assert len(items) >= 12
    results = list(Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, items))
    assert [(r.status, r.message) for r in results] == [("ok", "")] * len(items)
    code = generate(program, program.nests[0], items[0][0], inputs)
    assert "orcu_mma_f64(" in code.text and "mma" in code.needs


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
    assert "tensorCores_1" not in out and "no tensor cores: 'C[i][j]' is not a double" in out
    triangle = source(tensor="").replace("for (j = 0; j < p; j++)", "for (j = 0; j < i + 1; j++)")
    assert "tensorCores_1" not in explained(triangle)
    out = explained(source(tensor="").replace("alpha * A[i][k] * B[k][j]", "A[i][k] * B[k][j] * alpha"))
    assert "no tensor cores: " in out and "the right operand is not the last factor" in out
    assert "tensorCores_1" not in explained((EXAMPLES / "sgemm.c").read_text())


def test_the_warps_split_the_block_tile_with_the_fewest_operand_loads():
    product = type("P", (), {"rows": "i", "cols": "j"})
    # 256 threads, a 16 x 64 tile: 1 x 8 warps of 16 x 8 (2 rows + 1 pair a step) or 2 x 4 of 8 x 16
    # (1 row + 2 pairs): equal, the first found kept
    assert warp_layout((32, 8), {"i": 16, "j": 64}, product) == WarpLayout(1, 8, 2, 2, 16, 64)
    assert warp_layout((32, 8), {"i": 64, "j": 128}, product) == WarpLayout(2, 4, 4, 8, 64, 128)
    assert "does not split into 8 x 8 tiles" in warp_layout((32, 8), {"i": 8, "j": 32}, product)
    assert "not whole warps" in warp_layout((16, 1), {"i": 8, "j": 16}, product)


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


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc")
def test_nvcc_runs_the_product_as_fp64_mma_on_sm_80_and_later(in_tmp):
    write(in_tmp / "t.c", source())
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
    ptx90, ptx75 = (in_tmp / "sm_90.ptx").read_text(), (in_tmp / "sm_75.ptx").read_text()
    # 4 x 4 sums a thread: 2 rows x 4 pairs of columns, unrolled over a strip of 16 (4 steps)
    assert len(re.findall(r"mma\.sync\.aligned\.m8n8k4\.row\.col\.f64\.f64\.f64\.f64", ptx90)) >= 8 * 4
    assert "mma.sync" not in ptx75 and "shfl.sync" in ptx75
    code = generate(program, program.nests[0], config, inputs)
    report = kernel_resources(ptxas_report(in_tmp / "t.cu", H100.arch), code.host)
    assert (report.stack_bytes, report.spill_bytes) == (0, 0)


def test_the_model_prices_the_products_at_the_tensor_cores_rate():
    """H100: 128 double multiply-adds a cycle a multiprocessor on the tensor cores, 64 on the FMA units."""
    work = 2 * 2048**3
    scalar = Traffic((), (), (), 2048 * 2048, blocks=4096, threads=256, operations=work)
    tensor = Traffic((), (), (), 2048 * 2048, blocks=4096, threads=256, operations=work, tensor_operations=work)
    a, b = predict(scalar, H100, 8, 0), predict(tensor, H100, 8, 0)
    assert a.terms["compute"] == pytest.approx(2 * b.terms["compute"])
    assert a.bound == b.bound == "compute"
