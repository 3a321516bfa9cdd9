"""Sums through subscripts that are not affine (a histogram's ``hist[key[i]]++``, a scatter's
``y[idx[i]] += x[i]``, k-means' new centres): no two iterations can be shown to touch other
elements, but every update adds to its element, so the kernel makes each one with atomicAdd,
under either mapping, and every variant is checked against the C code. Sums of types atomicAdd
does not add, products, and elements read beside the sum are still refused."""

import re
import subprocess

import pytest
from conftest import run_orcu, write

from orcu.driver import api
from orcu.execution.toolchain import nvcc

REGION = """void {name}(int n, int bins, {params})
{{
  int {iterators};
  /*@ begin PerfTuning (
  def performance_params {{ {performance} }}
  def input_params {{ param n[] = [{n}]; param bins[] = [{bins}]; }}
  def input_vars {{ {decls} arg init_file = 'keys.c'; }}
  ) @*/
  /*@ begin Loop(transform CUDA({transform})
{loop}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""

# Keys in range, many iterations on each bin (atomics that collide), their order scrambled.
KEYS = """void init_input_vars()
{{
    for (int i = 0; i < n; i++)
        key[i] = (i * 7919 + i / 3) % bins;
}}
"""

MAPPINGS = {
    "orio": ("param TC[] = [32, 128];", "threadCount=TC"),
    "auto": ("", "mapping='auto'"),
}


def _as_written(kernel: str) -> str:
    """The kernels with each register tile's copy of i or j (i_1) and each vector's lane of an
    array (key_v1.y, its element of i) named as the loop writes them."""
    return re.sub(r"\b([ij])_\d+\b", r"\1", re.sub(r"\b(\w+)_v\d+\.[xyzw]\b", r"\1[i]", kernel))


def _tune(in_tmp, mapping: str, n: int, bins: int, params: str, decls: str, loop: str, budget: int = 4):
    performance, transform = MAPPINGS[mapping]
    text = REGION.format(
        name="scatter",
        params=params,
        iterators="i, j" if "j" in loop else "i",
        performance=performance,
        n=n,
        bins=bins,
        decls=decls,
        transform=transform,
        loop=loop,
    )
    write(in_tmp / "t.c", text)
    write(in_tmp / "keys.c", KEYS.format())
    result = api.tune("t.c", backend="emulate", progress=False, budget=budget)
    statuses = [s for r in result.regions for s in r.statuses]
    assert statuses and set(statuses) == {"ok"}, statuses
    tuned = (in_tmp / "t.tuned.cu").read_text()
    starts = [m.start() for m in re.finditer("__global__", tuned)]
    kernels = [tuned[k : tuned.index("\n}\n", k)] for k in starts]
    return tuned, _as_written("\n".join(kernels))


@pytest.mark.parametrize("mapping", ["orio", "auto"])
@pytest.mark.parametrize(
    "t, update, atomic",
    [
        ("int", "hist[key[i]]++;", "atomicAdd(&hist[key[i]], 1)"),
        ("unsigned int", "++hist[key[i]];", "atomicAdd(&hist[key[i]], (unsigned int) 1)"),
        ("int", "hist[key[i]] -= 2;", "atomicAdd(&hist[key[i]], -2)"),
        ("unsigned long long", "hist[key[i]] += key[i];", "atomicAdd(&hist[key[i]], (unsigned long long) key[i])"),
        # signed 64 bits, added as unsigned: the same bits, negative values included
        (
            "long",
            "hist[key[i]] -= key[i] - 3;",
            "atomicAdd((unsigned long long *) (&hist[key[i]]), -((unsigned long long) (key[i] - 3)))",
        ),
    ],
)
def test_a_histogram_counts_every_key_with_atomic_adds(in_tmp, mapping, t, update, atomic):
    tuned, kernel = _tune(
        in_tmp,
        mapping,
        1000 if t == "int" else 777,
        13 if "+=" in update else 5,
        f"const int *key, {t} *hist",
        f"decl dynamic int key[n] = 0; decl dynamic {t} hist[bins] = random;",
        f"  for (i = 0; i < n; i++)\n    {update}",
    )
    assert atomic in kernel, kernel
    assert update not in kernel
    assert f"    {update}" in tuned[tuned.index("#ifdef ORCU_ORIGINAL") :]  # the C code as written


@pytest.mark.parametrize("mapping", ["orio", "auto"])
@pytest.mark.parametrize(
    "t, update, atomic",
    [
        ("double", "y[key[i]] += a * x[i];", "atomicAdd(&y[key[i]], a * x[i])"),
        ("float", "y[key[i]] -= x[i];", "atomicAdd(&y[key[i]], -x[i])"),
        ("double", "y[key[i]] -= x[i] - a;", "atomicAdd(&y[key[i]], -(x[i] - a))"),  # all of it subtracted
        ("double", "y[key[i]] = x[i] + y[key[i]];", "atomicAdd(&y[key[i]], x[i])"),
        ("float", "if (x[i] > 0.25f) y[key[i]] = y[key[i]] + 2.0f * x[i];", "atomicAdd(&y[key[i]], 2.0f * x[i])"),
    ],
)
def test_a_scatter_adds_each_value_to_its_element_atomically(in_tmp, mapping, t, update, atomic):
    _, kernel = _tune(
        in_tmp,
        mapping,
        513,
        29,
        f"{t} a, const int *key, const {t} *x, {t} *y",
        f"decl dynamic int key[n] = 0; decl dynamic {t} x[n] = random; decl dynamic {t} y[bins] = random; "
        f"decl {t} a = 1.5;",
        f"  for (i = 0; i < n; i++)\n    {update}",
    )
    assert atomic in kernel, kernel


KMEANS = """  for (i = 0; i < n; i++) {{
{first}
{second}
  }}"""


@pytest.mark.parametrize("mapping", ["orio", "auto"])
@pytest.mark.parametrize("swapped", [False, True])
def test_k_means_new_centres_sum_each_point_into_its_cluster(in_tmp, mapping, swapped):
    """Rodinia's k-means update: each point's features added to its cluster's sums and the
    cluster's count incremented, an inner loop over the features inside the points' loop."""
    sums = "    for (j = 0; j < 5; j++)\n      centres[key[i] * 5 + j] += feature[i * 5 + j];"
    count = "    sizes[key[i]]++;"
    first, second = (count, sums) if swapped else (sums, count)
    _, kernels = _tune(
        in_tmp,
        mapping,
        301,
        7,
        "const int *key, const float *feature, float *centres, int *sizes",
        "decl dynamic int key[n] = 0; decl dynamic float feature[n*5] = random; "
        "decl dynamic float centres[bins*5] = 0; decl dynamic int sizes[bins] = 0;",
        KMEANS.format(first=first, second=second),
    )
    assert "atomicAdd(&centres[key[i] * 5 + j], " in kernels  # its value perhaps from a shared tile of feature
    assert "atomicAdd(&sizes[key[i]], 1)" in kernels


@pytest.mark.parametrize(
    "params, update, why",
    [
        # no atomicAdd of a char: the loop stays refused, its dependence named
        ("char *hist", "hist[key[i]]++;", "'hist[key[i]]' (line 11) and 'hist[key[i]]' (line 11)"),
        # a product: atomicAdd only adds
        ("double *hist", "hist[key[i]] *= 1.5;", "'hist[key[i]]' (line 11) and 'hist[key[i]]' (line 11)"),
        # C converts each step's float sum into the int: the steps cannot be reordered
        ("int *hist", "hist[key[i]] += 0.5f * i;", "'hist[key[i]]' (line 11) and 'hist[key[i]]' (line 11)"),
        # an element read beside the sum may be one another thread adds to
        ("double *hist", "hist[key[i]] += hist[i];", "'hist[key[i]]' (line 11) and 'hist[i]' (line 11)"),
    ],
)
def test_updates_that_no_atomic_add_makes_stay_refused(in_tmp, params, update, why):
    text = REGION.format(
        name="scatter",
        params=f"const int *key, {params}",
        iterators="i",
        performance="",
        n=100,
        bins=100,
        decls=f"decl dynamic int key[n] = 0; decl dynamic {params.split()[0]} hist[n] = 0;",
        transform="mapping='auto'",
        loop=f"  for (i = 0; i < n; i++)\n    {update}",
    )
    write(in_tmp / "t.c", text)
    write(in_tmp / "keys.c", KEYS.format())
    proc = run_orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("t.c:9:") and why in proc.stderr, proc.stderr


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc")
@pytest.mark.parametrize("t, ptx", [("float", r"add\.f32"), ("double", r"add\.f64"), ("int", r"add\.[su]32")])
def test_nvcc_makes_the_update_an_atomic_of_global_memory(in_tmp, t, ptx):
    tuned, _ = _tune(
        in_tmp,
        "auto",
        64,
        3,
        f"const int *key, const {t} *x, {t} *y",
        f"decl dynamic int key[n] = 0; decl dynamic {t} x[n] = random; decl dynamic {t} y[bins] = random;",
        "  for (i = 0; i < n; i++)\n    y[key[i]] += x[i];",
        budget=1,
    )
    proc = subprocess.run(
        [nvcc(), "-ptx", "-arch=sm_90", "t.tuned.cu", "-o", "t.ptx"], capture_output=True, text=True, cwd=in_tmp
    )
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    # the result unused: nvcc makes it a reduction (red), else an atomic (atom)
    assert re.search(rf"\b(red|atom)\.global\.{ptx}\b", (in_tmp / "t.ptx").read_text())


SCOP = """void scop(int n, int m, const int *key, const {t} *x, {t} *y, {t} *z)
{{
  int i;
  /*@ begin PerfTuning (
  def performance_params {{ }}
  def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
  def input_vars {{ decl dynamic int key[n] = 0; decl dynamic {t} x[n] = random; decl dynamic {t} y[m] = random;
    decl dynamic {t} z[n] = random; arg init_file = 'keys.c'; }}
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
{loops}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""

SCALE = "  for (i = 0; i < m; i++)\n    y[i] = 0.5 * y[i];"
SCATTER = "  for (i = 0; i < n; i++)\n    y[key[i]] += x[i] * z[i];"
GATHER = "  for (i = 0; i < n; i++)\n    z[i] = z[i] + y[key[i]];"


@pytest.mark.parametrize(
    "t, loops",
    [
        ("double", [SCALE, SCATTER, GATHER]),
        ("float", [SCATTER, SCALE]),
        ("double", [GATHER, SCALE, SCATTER]),
    ],
)
def test_a_scop_runs_its_scatter_and_the_loops_beside_it_on_the_device(in_tmp, t, loops):
    """Each loop its own kernel, in order: the affine accesses of y name their elements (a loop
    over y[i] runs in parallel beside a scatter into y), the scatter's updates are atomic, and a
    loop that reads y through key waits for the loops that write it."""
    write(in_tmp / "t.c", SCOP.format(t=t, n=301, m=23, loops="\n".join(loops)))
    write(in_tmp / "keys.c", KEYS.format().replace("bins", "m"))
    proc = run_orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    assert (
        "host loop" not in proc.stdout
        and f"kernels: {', '.join(f'orcu_scop_{k + 1}' for k in range(len(loops)))}"
        in (re.sub(r" \(line \d+\)", "", proc.stdout))
    ), proc.stdout
    result = api.tune("t.c", backend="emulate", progress=False, budget=2)
    statuses = [s for r in result.regions for s in r.statuses]
    assert statuses and set(statuses) == {"ok"}, statuses
    assert "atomicAdd(&y[key[i]], x[i] * z[i]);" in (in_tmp / "t.tuned.cu").read_text()


BICG = """void bicg(int nx, int ny, const {t} *A, const {t} *p, {t} *q, const {t} *r, {t} *s)
{{
  int i, j;
  /*@ begin PerfTuning (
  def performance_params {{ param TC[] = [32, 64]; param UIF[] = [1, 3]; }}
  def input_params {{ param nx[] = [{nx}]; param ny[] = [{ny}]; }}
  def input_vars {{ decl dynamic {t} A[nx*ny] = random; decl dynamic {t} p[ny] = random; decl dynamic {t} q[nx] = 0;
    decl dynamic {t} r[nx] = random; decl dynamic {t} s[ny] = random; }}
  ) @*/
  /*@ begin Loop(transform CUDA(threadCount=TC, unrollInner=UIF)
  for (i = 0; i <= nx - 1; i++) {{
    q[i] = 0;
    for (j = 0; j <= ny - 1; j++) {{
{body}
    }}
  }}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""


@pytest.mark.parametrize(
    "t, nx, ny, body, atomic",
    [
        (  # Orio's BICG as its test suite writes it
            "double",
            32,
            32,
            "      s[j] = s[j] + r[i] * A[i * ny + j];\n      q[i] = q[i] + A[i * ny + j] * p[j];",
            "atomicAdd(&s[j], r[i] * A[i * ny + j])",
        ),
        (
            "float",
            45,
            71,
            "      q[i] += A[i * ny + j] * p[j];\n      s[j] -= r[i] * A[i * ny + j];",
            "atomicAdd(&s[j], -(r[i] * A[i * ny + j]))",
        ),
    ],
)
def test_orios_mapping_adds_a_sum_along_its_outer_loop_atomically(in_tmp, t, nx, ny, body, atomic):
    """s[j] sums over the outer loop, whose iterations Orio's mapping gives to threads: each
    thread adds its share with atomicAdd; q[i], each thread's own, stays a plain sum (kept in a
    register over j)."""
    write(in_tmp / "t.c", BICG.format(t=t, nx=nx, ny=ny, body=body))
    result = api.tune("t.c", backend="emulate", progress=False, budget=4)
    statuses = [s for r in result.regions for s in r.statuses]
    assert statuses and set(statuses) == {"ok"}, statuses
    tuned = (in_tmp / "t.tuned.cu").read_text()
    kernel = tuned[tuned.index("__global__") : tuned.index("\n}\n", tuned.index("__global__"))]
    assert re.sub(r"\b([ij])_\d+\b", r"\1", kernel).count(atomic) >= 1, kernel
    assert "atomicAdd(&q" not in kernel
