"""Other names of C's arithmetic types (``typedef double real;``), as scientific codes write
them: orcu reads, reduces, generates and checks the type they stand for, the harness declares
them as the file does (in double for the accurate reference of float ones), and a name the file
defines as two types under preprocessor conditions is refused where a region uses it."""

import pytest
from conftest import builds_as_cuda_and_as_c, covering_results, diagnose, evaluate, planted, write

from orcu.codegen.region import generate
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.harness import harness_source
from orcu.frontend.cparse import ambiguous_typedefs, arithmetic_typedefs
from orcu.frontend.source import SourceFile
from orcu.planning.program import load
from orcu.planning.space import input_space

HEAD = """typedef {ctype} real;
typedef real elem;  /* a name of a name */
typedef unsigned char byte;
typedef long idx_t;
"""

# A sum in a scalar of the typedef'd type (a reduction), the spec's decl naming the typedefs.
DOT = """void dot(int n, const real *x, const elem *y, real *r)
{
    idx_t i;
    real s;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param n[] = [%(n)d]; }
    def input_vars { decl dynamic real x[n] = random; decl dynamic elem y[n] = random; decl dynamic real r[1] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    s = 0;
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    r[0] = s;
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""

# A local of the typedef'd type, casts and sizeof of it, an array of a small typedef'd type.
LOCAL = """void scale(int n, const byte *mask, const elem *x, real *y)
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; param U[] = [1, 2]; }
    def input_params { param n[] = [%(n)d]; }
    def input_vars { decl dynamic byte mask[n] = random; decl dynamic real x[n] = random; decl dynamic real y[n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, unrollInner=U)
    for (i = 0; i < n; i++) {
        elem t = x[i] * (real)2 + (elem)sizeof(real);
        y[i] = mask[i] > 100 ? t * t : (real)mask[i];
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""

# A product the TSG maps (shared and register tiles, tensor cores for double), typedef'd
# iterators and C99 array parameters of the typedef'd type.
GEMM = """void mm(int n, real A[n][n], real B[n][n], elem C[n][n])
{
    idx_t i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [%(n)d]; }
    def input_vars { decl dynamic real A[n][n] = random; decl dynamic real B[n][n] = random; decl dynamic real C[n][n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            real s = 0;
            for (k = 0; k < n; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""

SHAPES = {"dot": DOT, "local": LOCAL, "gemm": GEMM}


@pytest.mark.parametrize("ctype, n", [("double", 37), ("float", 130)])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_typedefd_type_tunes_as_the_type_it_names(in_tmp, shape, ctype, n):
    write(in_tmp / "t.c", HEAD.format(ctype=ctype) + SHAPES[shape] % {"n": n})
    program = load("t.c")
    nest = program.nests[0]
    assert {nest.variables[a].ctype.base for a in ("x", "y", "A", "C") if a in nest.variables} == {ctype}
    if "mask" in nest.variables:
        assert nest.variables["mask"].ctype.base == "unsigned char"
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=shape != "gemm", measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    if shape == "gemm":
        offered = {name for r in results for name, value in r.params.items() if value is True}
        assert {"shared_A_1", "shared_B_1"} <= offered and ("tensorCores_1" in offered) == (ctype == "double")
    tuned, _ = tuned_source(program, [Choice(results[0].params, results[0].inputs)])
    assert f"typedef {ctype} real;" in tuned  # the file's own text stays as written
    builds_as_cuda_and_as_c(in_tmp, tuned)


@pytest.mark.parametrize("ctype", ["double", "float"])
def test_a_wrong_sum_of_a_typedefd_type_is_caught(in_tmp, ctype):
    result = evaluate(
        in_tmp,
        HEAD.format(ctype=ctype) + DOT % {"n": 1000},
        planted("s += x[i] * y[i]", "s += x[i] * y[i] * 1.01f"),
        params={"TC": 128},
    )
    assert result.status == "wrong_result", result.message


def test_the_harness_declares_the_files_names_and_widens_float_ones_for_the_accurate_reference(in_tmp):
    write(in_tmp / "t.c", HEAD.format(ctype="float") + LOCAL % {"n": 50})
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    source = harness_source(program, 0, [generate(program, program.nests[0], {"TC": 32, "U": 2}, inputs)], inputs)
    declared = source.text[: source.text.index("namespace orcu_accurate {")]
    accurate = source.reference[source.reference.index("void orcu_accurate_c(") :]  # compiled as C
    assert [line for line in declared.splitlines() if line.startswith("typedef ")] == [
        "typedef float real;  // the file's",
        "typedef float elem;  // the file's",
        "typedef unsigned char byte;  // the file's",
        "typedef long idx_t;  // the file's",
    ]
    assert [line.strip() for line in accurate.splitlines() if line.strip().startswith("typedef ")] == [
        "typedef double real;",
        "typedef double elem;",
    ]
    assert "elem t = x[i] * (real)2 + (elem)sizeof(real);" in accurate  # the code as written, in double


def test_the_names_the_file_and_its_headers_give_arithmetic_types(in_tmp):
    write(in_tmp / "kinds.h", "typedef unsigned long long u64;\ntypedef u64 key_t;\n")
    text = """#include "kinds.h"
typedef double real;  /* typedef float real; in a comment is no definition */
typedef real vec_elem;
typedef   signed   int   sint ;
typedef uint32_t index_t;
typedef double *dptr;
typedef double vec3[3];
typedef struct { real x, y; } point;
typedef void (*callback)(int);
typedef const double cdouble;
"""
    src = SourceFile(str(in_tmp / "t.c"), text)
    assert arithmetic_typedefs(src) == {
        "u64": "unsigned long long",
        "key_t": "unsigned long long",
        "real": "double",
        "vec_elem": "double",
        "sint": "int",
        "index_t": "uint32_t",
    }
    assert ambiguous_typedefs(src) == set()


IFDEF = """#ifdef SINGLE
typedef float real;
#else
typedef double real;
#endif
typedef real elem;
typedef double other;
void axpy(int n, other a, elem *x, other *y)
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [100]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random; decl double a = 2.0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_a_name_defined_as_two_types_under_ifdef_is_refused_where_a_region_uses_it(in_tmp):
    assert ambiguous_typedefs(SourceFile("t.c", IFDEF)) == {"real", "elem"}
    assert diagnose(in_tmp, IFDEF).splitlines()[0] == (
        "t.c:8:32: error: 'x' is of type 'elem', which the file defines as more than one type (typedefs "
        "under #if or #ifdef, which orcu does not evaluate): keep the one to tune"
    )
    write(in_tmp / "t.c", IFDEF.replace("elem *x", "other *x"))  # the region no longer uses it
    assert load("t.c").nests[0].variables["x"].ctype.base == "double"
