"""Generated CUDA: golden text per transformation, notes, sizes, and diagnostics."""

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from codegen_cases import CASES
from conftest import write

from orcu.codegen.region import generate
from orcu.errors import OrcuError
from orcu.planning.program import load

GOLDEN = Path(__file__).parent / "golden"


def region_code(in_tmp, text, params=None, inputs=None, index=0):
    write(in_tmp / "t.c", text)
    program = load("t.c")
    return generate(program, program.nests[index], params or {}, inputs or {})


def check_golden(name: str, text: str) -> None:
    """The tests only compare: tests/regenerate_golden.py writes the files after an intended change."""
    path = GOLDEN / f"{name}.cu"
    assert path.exists(), f"no golden file {path}: run python3 tests/regenerate_golden.py and review the diff"
    assert text == path.read_text(), f"{path} differs: after an intended change, python3 tests/regenerate_golden.py"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_region(in_tmp, name):
    check_golden(name, region_code(in_tmp, CASES[name]).text)


def test_grid_stride_loop_covers_any_grid(in_tmp):
    text = region_code(in_tmp, CASES["grid_stride"]).text
    assert (
        "    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;\n    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {"
        in text
    )
    assert "const int orcu_blocks = 4;" in text and "const int orcu_threads = 128;" in text


def test_any_positive_block_count_is_accepted(in_tmp):
    for blocks in (1, 7, 131, 100000):
        code = region_code(in_tmp, CASES["grid_stride"].replace("blockCount=4", f"blockCount={blocks}"))
        assert f"const int orcu_blocks = {blocks};" in code.text


def test_step_and_offset_move_only_the_touched_range(in_tmp):
    text = region_code(in_tmp, CASES["step_and_offset"]).text
    # b is written every other element: it is copied in too, so the gaps keep their values.
    assert "const long long orcu_b_first = 1LL, orcu_b_end = (long long)n - 1;" in text
    assert "const long long orcu_a_first = 0LL, orcu_a_end = (long long)n;" in text
    assert (
        "ORCU_CHECK(cudaMemcpy(d_b + orcu_b_first, b + orcu_b_first, sizeof(double) * orcu_count(orcu_b_first, orcu_b_end), cudaMemcpyHostToDevice));"
        in text
    )
    assert (
        "ORCU_CHECK(cudaMemcpy(d_a + orcu_a_first, a + orcu_a_first, sizeof(double) * orcu_count(orcu_a_first, orcu_a_end), cudaMemcpyHostToDevice));"
        in text
    )
    assert "const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x * 2;" in text


def test_dense_write_is_not_copied_in(in_tmp):
    src = CASES["grid_stride"].replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i];")
    text = region_code(in_tmp, src).text
    assert "cudaMemcpy(d_y + orcu_y_first, y" not in text
    assert (
        "ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(float) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));"
        in text
    )


def test_unroll_pragma_sits_on_the_inner_loop(in_tmp):
    lines = region_code(in_tmp, CASES["unroll_inner"]).text.split("\n")
    k = lines.index("        #pragma unroll 4")
    assert lines[k + 1] == "        for (k = 0; k < nv; k++) {"


def test_unroll_without_inner_loop_is_a_note(in_tmp):
    code = region_code(in_tmp, CASES["grid_stride"].replace("blockCount=4", "blockCount=4, unrollInner=2"))
    assert "#pragma unroll" not in code.text
    assert code.notes == ["unrollInner=2: no effect, the loop at line 4 has no inner loop"]


def test_cache_blocks_stages_the_array_every_thread_reads(in_tmp):
    code = region_code(in_tmp, CASES["cache_blocks"])
    assert "            y_k_acc += a_shared[k] * X[i + k * n];" in code.text
    assert "__syncthreads();" in code.text
    assert code.notes == []


def test_cache_blocks_skipped_without_reuse(in_tmp):
    code = region_code(in_tmp, CASES["grid_stride"].replace("blockCount=4", "blockCount=4, cacheBlocks=True"))
    assert "__shared__" not in code.text
    assert code.notes == [
        "cacheBlocks: skipped, no data is reused across the threads of a block "
        "('y' is written; each thread reads its own elements of 'x')"
    ]


def test_streams_move_only_chunkable_arrays_by_chunk(in_tmp):
    code = region_code(in_tmp, CASES["streams"])
    assert code.notes == ["streamCount: 'c' moves whole before and after the chunks: it is not indexed by 'i' alone"]
    assert (
        "ORCU_CHECK(cudaMemcpy(d_c + orcu_c_first, c + orcu_c_first, sizeof(double) * orcu_count(orcu_c_first, orcu_c_end), cudaMemcpyHostToDevice));"
        in code.text
    )
    # x moves chunk by chunk through a pinned staging buffer kept between calls, after the copy of c
    assert (
        "memcpy(orcu_x_staged + orcu_chunk_lo, x + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));\n        ORCU_CHECK(cudaMemcpyAsync(d_x + orcu_chunk_lo, orcu_x_staged + orcu_chunk_lo"
        in code.text
    )
    assert (
        "orcu_pin(" not in code.text
        and "cudaStreamCreate" in code.text
        and "cudaStreamDestroy(orcu_stream" not in code.text
    )
    assert code.text.index(
        "ORCU_CHECK(cudaStreamWaitEvent(orcu_stream[orcu_s], orcu_f_1_ready, 0));"
    ) > code.text.index("ORCU_CHECK(cudaEventRecord(orcu_f_1_ready, 0));")


def test_prefer_l1_is_set_and_restored(in_tmp):
    text = region_code(in_tmp, CASES["prefer_l1"]).text
    for line in (
        "ORCU_CHECK(cudaFuncSetCacheConfig(orcu_kernel, cudaFuncCachePreferShared));",
        "ORCU_CHECK(cudaFuncSetAttribute(orcu_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));",
        "ORCU_CHECK(cudaFuncSetCacheConfig(orcu_kernel, cudaFuncCachePreferNone));",
        "ORCU_CHECK(cudaFuncSetAttribute(orcu_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutDefault));",
    ):
        assert text.count(line) == 1


def test_data_on_device_moves_nothing(in_tmp):
    text = region_code(in_tmp, CASES["data_on_device"]).text
    assert "cudaMemcpy" not in text and "orcu_device_buffer" not in text and "orcu_buffer" not in text
    assert "double *y" in text and "__restrict__" not in text  # device pointers may alias
    assert "ORCU_CHECK(cudaStreamSynchronize(0));" in text
    # overlapping arrays cannot run on the host instead: they are device memory
    assert 'orcu_aliased("orcu_f_1");' in text and "ORCU_ALLOW_ALIASING" not in text


@pytest.mark.parametrize(
    "name, identity, functor, call",
    [  # the host function's parameters come in the order the region first uses them
        ("sum_float", "float r = 0.0f;", "orcu_sum", "orcu_f_1(n, &r, x);"),
        ("product_int", "int r = 1;", "orcu_product", "orcu_f_1(n, &r, x);"),
        ("min_double_if", "double r = INFINITY;", "orcu_min", "orcu_f_1(n, x, &r);"),  # x read in the test first
        ("max_long_ternary", "long r = LONG_MIN;", "orcu_max", "orcu_f_1(n, &r, x);"),
    ],
)
def test_reductions_keep_the_initial_value(in_tmp, name, identity, functor, call):
    code = region_code(in_tmp, CASES[name])
    assert identity in code.text
    assert f"*orcu_r_result = {functor}::combine(orcu_r_before, r);" in code.text
    assert ", orcu_r_partial, *r, (" in code.text  # the host's value goes in
    assert code.call == call
    assert {"reduce", functor} <= code.needs


def test_unsupported_reduction_type(in_tmp):
    src = CASES["sum_float"].replace("float", "long double")
    with pytest.raises(OrcuError) as info:
        region_code(in_tmp, src)
    assert info.value.render().startswith(
        "t.c:5:9: error: reductions of type 'long double' are not supported (float, double, int, long, long long and their "
        "unsigned forms are)"
    )


@pytest.mark.parametrize("small, share", [("short", "int"), ("unsigned char", "int"), ("unsigned short", "int")])
def test_a_reduction_of_a_small_type_keeps_its_shares_in_int(in_tmp, small, share):
    """C converts each step's int sum back to the small type, modulo its range: the shares
    summed in int and converted once give the same value."""
    code = region_code(in_tmp, CASES["sum_float"].replace("float", small))
    assert f"{share} r = 0;" in code.text and f"{small} *r" in code.text
    assert f"orcu_block_reduce<{share}, orcu_sum" in code.text


def test_array_size_from_arraysizes(in_tmp):
    src = """void f(int n, const int *idx, const double *v, double *y) {
    int i;
    /*@ begin Loop(transform CUDA(arraySizes={'v': 'n + 10'})
    for (i = 0; i < n; i++)
        y[i] = v[idx[i]];
    ) @*/
    /*@ end @*/
}
"""
    text = region_code(in_tmp, src).text
    assert "const long long orcu_v_first = 0LL, orcu_v_end = (long long)n + 10;" in text
    assert (
        "double *const d_v = (double *)orcu_device_buffer(&orcu_f_1_buffers[1], sizeof(double) * orcu_count(0, orcu_v_end));"
        in text
    )


def test_unknown_array_size_is_an_error_naming_the_array(in_tmp):
    src = """void f(int n, const int *idx, const double *v, double *y) {
    int i;
    /*@ begin Loop(transform CUDA(threadCount=64)
    for (i = 0; i < n; i++)
        y[i] = v[idx[i]];
    ) @*/
    /*@ end @*/
}
"""
    with pytest.raises(OrcuError) as info:
        region_code(in_tmp, src)
    assert info.value.render().split("\n")[0] == (
        "t.c:5:16: error: cannot tell how many elements of 'v' to transfer: its subscripts are not affine "
        "in the loop bounds; declare it in input_vars or give arraySizes={'v': ...}"
    )


def test_sizes_from_input_vars_become_parameters(in_tmp):
    program = load(Path(__file__).resolve().parent.parent / "annotated_examples" / "spmv_dia.c")
    code = generate(program, program.nests[0], {"TC": 32, "BC": 14, "UIF": 1, "PL": 16, "CFLAGS": ""}, {})
    assert code.call == "orcu_MatMult_SeqDia_1(nrows, ndiags, offsets, y, A, x, m, n, dof);"
    assert "const long long orcu_x_first = 0LL, orcu_x_end = (long long)m * n * dof;" in code.text


@pytest.mark.slow
def test_variants_generated_in_threads_match_serial_generation(in_tmp):
    """The runner generates a batch's variants in a thread pool: the text must not depend on it.
    A body of nested ifs keeps the printer's indentation busy (this failed every round when
    one pycparser generator was shared)."""
    nested = "\n".join(
        f"        if (x[i] > {k}.0) {{\n            if (x[i] < {k + 1}.0) {{\n                y[i] += {k}.0 * x[i];\n"
        f"            }} else {{\n                y[i] -= 1.0;\n            }}\n        }}"
        for k in range(12)
    )
    write(
        in_tmp / "t.c",
        f"""/*@ begin PerfTuning ( def performance_params {{ param TC[] = range(32, 300, 32); }} ) @*/
void f(int n, const double *x, double *y) {{
    int i;
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) {{
{nested}
    }}
    ) @*/
    /*@ end @*/
}}
/*@ end @*/
""",
    )
    program = load("t.c")
    nest = program.nests[0]
    configs = [{"TC": 32 * k} for k in range(1, 9)]
    serial = [generate(program, nest, c, {}).text for c in configs]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, to expose shared state
    try:
        for _ in range(4):  # a shared printer failed every round
            with ThreadPoolExecutor(max_workers=8) as pool:
                assert list(pool.map(lambda c: generate(program, nest, c, {}).text, configs)) == serial
    finally:
        sys.setswitchinterval(interval)
