"""Register tiles under triangular bounds (syrk, syr2k, trmm, covariance: ``j <= i``): a grid
loop whose bounds read an outer grid loop gets tiles as a rectangle's do, the tile loop running
to the bound at the block's extreme value of the outer loop and each iteration of a thread's
tile guarded by the bounds at its own copy of it. Lower and upper triangles, strict or not,
offset, of several element types; every variant of the space is checked in the emulation."""

import json
import re

import pytest
from conftest import H100, covering_configs, run_orcu

from orcu.codegen.region import generate
from orcu.execution.runners import Runner
from orcu.planning.program import load
from orcu.planning.space import performance_space

TEMPLATE = """void f(int n, int m, {t} alpha, {t} C[n][n], const {t} A[n][m])
{{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param m[] = [7]; }}
    def input_vars {{ decl dynamic {t} alpha = random; decl dynamic {t} C[n][n] = random;
                     decl dynamic {t} A[n][m] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = {lower}; j < {upper}; j++) {{
            C[i][j] = C[i][j] * alpha;
            for (k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
        }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

TRIANGLES = {  # (lower, upper) of j
    "lower": ("0", "i + 1"),
    "strictly lower": ("0", "i"),
    "upper": ("i", "n"),
    "strictly upper, offset": ("i + 2", "n"),
}


@pytest.mark.parametrize(
    "triangle, t, n",
    [
        ("lower", "double", 30),
        ("lower", "int", 23),
        ("strictly lower", "float", 45),
        ("upper", "int", 23),
        ("strictly upper, offset", "double", 30),
    ],
)
def test_every_register_and_shared_tile_of_a_triangle_is_right(tmp_path, triangle, t, n):
    lower, upper = TRIANGLES[triangle]
    (tmp_path / "t.c").write_text(TEMPLATE.format(t=t, n=n, lower=lower, upper=upper))
    check = run_orcu("check", "t.c", "--json", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    names = {p["name"] for p in json.loads(check.stdout)["performance_params"]}
    assert {"registers_i_1", "registers_j_1", "shared_A_1"} <= names  # A's tiles: of rows i, of rows j
    proc = run_orcu("tune", "t.c", "--backend", "emulate", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    [region] = json.loads(proc.stdout)["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 16, region["statuses"]


def test_the_tile_loop_runs_to_the_bound_at_the_blocks_last_row(tmp_path):
    """``j < i + 1`` with tiles of 16 rows a block: the block's tiles along j run below i0 + 15 + 1,
    and each of a thread's two rows checks j against its own row."""
    (tmp_path / "t.c").write_text(TEMPLATE.format(t="double", n=30, lower="0", upper="i + 1"))
    program = load(tmp_path / "t.c")
    inputs = {"n": 30, "m": 7}
    space = performance_space(program, inputs)
    config = {**space.config(0), "mapping_1": "x=j y=i", "registers_i_1": 2, "registers_j_1": 1}
    text = generate(program, program.nests[0], config, inputs).text
    assert "j0 < (i0 + 15) + 1;" in text
    assert "if (i_0 < n && j < i_0 + 1) {" in text and "if (i_1 < n && j < i_1 + 1) {" in text


LOCAL_UNDER_IF = """void f(int n, {t} a[n][n], {t} w[n], {t} y[n])
{{
    int i, k;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} a[n][n] = random; decl dynamic {t} w[n] = random; decl dynamic {t} y[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++) {{
        {t} best = a[i][i];
        for (k = 0; k < i; k++) {{
            if (w[k] > {half}) {{
                {t} c = a[i][k] * w[k];
                if (c < best)
                    best = c;
            }}
        }}
        y[i] = best;
    }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t, n, half", [("double", 37, "0.5"), ("float", 20, "0.25f"), ("int", 29, "8")])
def test_a_local_declared_under_an_if_in_a_triangle_gets_a_register_per_row(tmp_path, t, n, half):
    """The loop on k runs once per row of the tile (its bounds read i): ``c``, declared under an
    ``if`` inside it, is each row's register (c_0, c_1), assigned there, never declared again."""
    (tmp_path / "t.c").write_text(LOCAL_UNDER_IF.format(t=t, n=n, half=half))
    program = load(tmp_path / "t.c")
    inputs = {"n": n}
    config = {**performance_space(program, inputs).config(0), "registers_i_1": 2}
    text = generate(program, program.nests[0], config, inputs).text
    kernel = text[text.index("__global__") :]
    kernel = kernel[: kernel.index("\n}\n")]
    assert f"{t} c_0, c_1;" in kernel and "c_0 = a[i_0][k] * w[k];" in kernel and f"{t} c =" not in kernel
    proc = run_orcu("tune", "t.c", "--backend", "emulate", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    [region] = json.loads(proc.stdout)["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 4, region["statuses"]


PRODUCTS = {  # the arrays' declarations, the k loop's statement, j's bounds: an array read by accesses that move unlike
    "syr2k, upper": (
        "{t} A[n][m], {t} B[n][m]",
        "C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];",
        "i",
        "n",
    ),
    "covariance, lower, scaled after": (
        "{t} A[m][n], {t} B[m][n]",
        "C[i][j] += A[k][i] * A[k][j] - B[k][j];",
        "0",
        "i + 1",
    ),
    "a group without a box": (
        "{t} A[2 * n][m], {t} B[n][m]",
        "C[i][j] += (A[i][k] + A[i + n][k]) * A[j][k] + B[j][k];",
        "0",
        "i",
    ),
}

PRODUCT = """void f(int n, int m, {t} alpha, {t} C[n][n], {arrays})
{{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{ decl dynamic {t} alpha = random; decl dynamic {t} C[n][n] = random; {decls} }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = {lower}; j < {upper}; j++) {{
            {before}
            for (k = 0; k < m; k++)
                {product}
            {after}
        }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize(
    "name, t, n, m",
    [
        ("syr2k, upper", "double", 29, 19),
        ("covariance, lower, scaled after", "float", 37, 20),
        ("a group without a box", "double", 21, 35),
    ],
)
def test_an_arrays_accesses_that_move_unlike_get_a_shared_tile_each(in_tmp, name, t, n, m):
    """syrk's A[i][k] and A[j][k] (the block's rows of i, and its rows of j) are two tiles of A,
    each filled over the box every thread of the block reads (a triangle's j <= i at the block's
    extreme i, not the thread's own); a group whose accesses are no constant distance apart
    (A[i][k], A[i + n][k]) reads global memory beside the other's tile. Every shared variant of
    the covering array is right in the emulation."""
    arrays, product, lower, upper = PRODUCTS[name]
    scale = "C[i][j] = C[i][j] * alpha;"
    after = "scaled after" in name
    decls = " ".join(f"decl dynamic {t} {a.removeprefix('{t} ')} = random;" for a in arrays.split(", "))
    source = PRODUCT.format(
        t=t,
        n=n,
        m=m,
        arrays=arrays.format(t=t),
        decls=decls.format(t=t),
        lower=lower,
        upper=upper,
        before="" if after else scale,
        after=scale if after else "",
        product=product,
    )
    (in_tmp / "t.c").write_text(source)
    program = load("t.c")
    inputs = {"n": n, "m": m}
    config = {**performance_space(program, inputs).first_matching({"shared_A_1": True, "shared_B_1": True})}
    config.update(registers_i_1=2, registers_j_1=2)
    code = generate(program, program.nests[0], config, inputs)
    kernel = code.text[code.text.index("__global__") :]
    tiles = set(re.findall(r"ORCU_SHARED_TILE\(\w+, (\w+),", kernel))  # two buffers each
    assert (
        tiles
        == {
            "syr2k, upper": {"A_buffers", "A_buffers2", "B_buffers", "B_buffers2"},
            "covariance, lower, scaled after": {"A_buffers", "A_buffers2", "B_buffers"},
            "a group without a box": {"A_buffers", "B_buffers"},
        }[name]
    )
    if name == "a group without a box":  # A[j][k] from its tile, A[i][k] and A[i + n][k] from global memory
        assert re.search(r"A\[\(?i_0 \+ n\)?\]\[k\]", kernel) and "A_shared[j_0 - j0][k - k0]" in kernel
    # the model counts each tile's fill from the first block's corner of the box (j's at the least i):
    # a block's rows of the tile (padded to 17 columns where declared so) over 32 threads, a fill per
    # strip of k, in every block (2 blocks of 32 x 8 threads, 3 for covariance's 37 rows)
    requests = {
        "syr2k, upper": {"A_shared": 136, "A_shared2": 32, "B_shared": 32, "B_shared2": 136},
        "covariance, lower, scaled after": {"A_shared": 48, "A_shared2": 192, "B_shared": 192},
        "a group without a box": {"A_shared": 204, "B_shared": 204},
    }
    assert {f.access: f.requests for f in code.traffic(H100.multiprocessors).fills} == requests[name]
    # a fill's bounds name no thread's own row: every row some thread of the block reads is copied
    fills = [line for line in kernel.splitlines() if "orcu_a0) >=" in line]
    assert fills and not re.search(r"[ij]_[01]\b|<= [ij]\b|>= [ij]\b", "\n".join(fills))
    keep = lambda c: c["shared_A_1"] and c["shared_B_1"]  # noqa: E731
    configs = covering_configs(program, 0, inputs, keep=keep)
    assert len(configs) >= 8
    runner = Runner("emulate", H100, in_tmp / "build", jobs=2, measure="kernel")
    results = list(runner.evaluate(program, 0, [(c, inputs) for c in configs]))
    assert {r.status for r in results} == {"ok"}, [(r.params, r.status, r.message[:300]) for r in results]


TRMM = """void f(int m, int n, {t} alpha, {t} B[m][n], const {t} A[m][m], const {t} W[m][n])
{{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param m[] = [{m}]; param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} alpha = random; decl dynamic {t} B[m][n] = random;
                     decl dynamic {t} A[m][m] = random; decl dynamic {t} W[m][n] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {{
            {before}
            for (k = {lower}; k < {upper}; k++)
                B[i][j] += A[k][i] * W[k][j];
            {after}
        }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize(
    "lower, upper, t, m, n, scaled_first, strips",
    [
        ("i + 1", "m", "double", 37, 21, False, 3 + 2 + 1),  # trmm's: the rows below
        ("0", "i", "float", 29, 34, True, (1 + 2) * 2),  # the rows above; two blocks along j
        ("i", "m", "double", 20, 19, True, 2 + 1),
    ],
)
def test_a_strip_loop_whose_bounds_follow_the_grid_runs_over_the_blocks_union(
    in_tmp, lower, upper, t, m, n, scaled_first, strips
):
    """trmm's ``k`` from ``i + 1``: the threads of a block run k from the bound at the block's
    extreme row, so every thread reaches the strips' barriers and A and W get shared tiles; each
    iteration's statements are guarded by its own bounds, the tiles read by every thread at every
    step. The model counts each block's own strips (16 rows of i a block, 16 iterations of k a
    strip: 3, 2 and 1 strips in trmm's three blocks), a fill of A 8 requests, of W 16. Every shared
    variant of the covering array is right in the emulation."""
    scale = "B[i][j] = alpha * B[i][j];"
    source = TRMM.format(
        t=t,
        m=m,
        n=n,
        lower=lower,
        upper=upper,
        before=scale if scaled_first else "",
        after="" if scaled_first else scale,
    )
    (in_tmp / "t.c").write_text(source)
    program = load("t.c")
    inputs = {"m": m, "n": n}
    config = performance_space(program, inputs).first_matching(
        {"mapping_1": "x=j y=i", "shared_A_1": True, "shared_W_1": True, "registers_i_1": 2}
    )
    kernel = generate(program, program.nests[0], config, inputs).text
    kernel = kernel[kernel.index("__global__") :]
    start = {"i + 1": "i0 + 1", "0": "0", "i": "i0"}[lower]
    assert f"for (orcu_index k0 = {start}; k0 < " in kernel  # the block's least lower bound
    own = {"i + 1": "k >= i_0 + 1", "0": "k < i_0", "i": "k >= i_0"}[lower]
    assert own in kernel and "const " + t + " orcu_read0 = " in kernel
    fills = generate(program, program.nests[0], config, inputs).traffic(H100.multiprocessors).fills
    assert {f.access: f.requests for f in fills} == {"A_shared": 8 * strips, "W_shared": 16 * strips}
    keep = lambda c: c["shared_A_1"] or c["shared_W_1"]  # noqa: E731
    configs = covering_configs(program, 0, inputs, keep=keep)
    assert len(configs) >= 8
    runner = Runner("emulate", H100, in_tmp / "build", jobs=2, measure="kernel")
    results = list(runner.evaluate(program, 0, [(c, inputs) for c in configs]))
    assert {r.status for r in results} == {"ok"}, [(r.params, r.status, r.message[:300]) for r in results]
