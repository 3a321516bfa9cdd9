import pytest
from conftest import EXAMPLES, diagnose, write
from pycparser import c_ast

from orcu.errors import SpecError
from orcu.frontend.ir import Loop, c_text
from orcu.planning.program import load


def region(body, decls="int n, double *a, double *b", pre="  int i, j;\n", args=""):
    return (
        f"void f({decls}) {{\n{pre}"
        f"  /*@ begin Loop(transform CUDA({args})\n{body}\n  ) @*/\n{body}\n  /*@ end @*/\n}}\n"
    )


def test_dia_nest_ir():
    (nest,) = load(EXAMPLES / "spmv_dia.c").nests
    outer = nest.body[0]
    assert isinstance(outer, Loop) and outer.var == "i" and outer.step == 1
    assert (c_text(outer.lower), c_text(outer.upper)) == ("0", "nrows")  # i <= nrows-1 normalised
    inner = outer.body[0]
    assert (inner.var, c_text(inner.upper), inner.loc.line, inner.loc.col) == ("j", "ndiags", 40, 9)
    assign, guarded = inner.body
    assert assign.scalar_writes == {"col"}
    assert [(a.text, a.write) for a in assign.accesses] == [("offsets[j]", False)]
    assert {(a.text, a.write) for a in guarded.accesses} == {
        ("y[i]", True),
        ("y[i]", False),
        ("A[i + (j * nrows)]", False),
        ("x[col]", False),
    }
    assert guarded.loc.line == 42
    types = {v.name: (str(v.ctype), v.kind, v.origin) for v in nest.variables.values()}
    assert types["A"] == ("double*", "array", "parameter")
    assert types["nrows"] == ("int", "scalar", "local")
    assert nest.function == "MatMult_SeqDia" and nest.name == "MatMult_SeqDia_1"
    assert set(nest.transform.args) == {"threadCount", "blockCount", "preferL1Size", "unrollInner"}


def test_loop_forms_are_normalised(in_tmp):
    write(
        in_tmp / "t.c",
        region("  for (int k = 2; k < n; k += 4)\n    for (j = 0; n > j; j = j + 1)\n      a[k] += b[j];"),
    )
    loop = load("t.c").nests[0].body[0]
    assert (loop.var, c_text(loop.lower), c_text(loop.upper), loop.step) == ("k", "2", "n", 4)
    assert (loop.body[0].var, c_text(loop.body[0].upper), loop.body[0].step) == ("j", "n", 1)


def test_le_bound_gets_plus_one(in_tmp):
    write(in_tmp / "t.c", region("  for (i = 0; i <= n * 2; i++) a[i] = 0;"))
    loop = load("t.c").nests[0].body[0]
    assert c_text(loop.upper) == "(n * 2) + 1"
    write(in_tmp / "t.c", region("  for (i = 0; i <= 9; i++) a[i] = 0;"))
    assert c_text(load("t.c").nests[0].body[0].upper) == "10"


def test_types_from_input_vars_globals_and_macros(in_tmp):
    text = (
        "#define SCALE 2.5\n#define N 64\ndouble g[N];\n"
        "/*@ begin PerfTuning ( def input_vars { decl static float q[N2]; } def input_params { param N2[] = [4]; } ) @*/\n"
        "void f(double *a) {\n  int i;\n"
        "  /*@ begin Loop(transform CUDA()\n  for (i = 0; i < N; i++) a[i] = g[i] * SCALE + q[i];\n  ) @*/\n"
        "  /*@ end @*/\n}\n/*@ end @*/\n"
    )
    write(in_tmp / "t.c", text)
    nest = load("t.c").nests[0]
    types = {v.name: (str(v.ctype), v.kind, v.origin) for v in nest.variables.values()}
    assert types == {
        "i": ("int", "scalar", "local"),
        "N": ("const int", "constant", "macro"),
        "a": ("double*", "array", "parameter"),
        "g": ("double[N]", "array", "global"),
        "SCALE": ("const double", "constant", "macro"),
        "q": ("float[N2]", "array", "input_vars"),
    }
    # An empty original code: the annotation body is the reference.
    assert "a[i] = g[i] * SCALE" in nest.reference


def test_orio_fragment_at_file_scope(in_tmp):
    text = (
        "/*@ begin PerfTuning ( def input_params { param n[] = [8]; }\n"
        "  def input_vars { decl static double x[n] = random; decl static double y[n] = 0; decl int i = 0; } ) @*/\n"
        "/*@ begin Loop(transform CUDA(threadCount=32)\nfor (i=0; i<=n-1; i++) y[i] += 2*x[i];\n) @*/\n"
        "for (i=0; i<=n-1; i++) y[i] += 2*x[i];\n/*@ end @*/\n/*@ end @*/\n"
    )
    write(in_tmp / "t.c", text)
    nest = load("t.c").nests[0]
    assert nest.function is None
    assert {v.name: (str(v.ctype), v.kind, v.origin) for v in nest.variables.values()} == {
        "i": ("int", "scalar", "input_vars"),
        "n": ("const int", "constant", "input_params"),
        "y": ("double[n]", "array", "input_vars"),
        "x": ("double[n]", "array", "input_vars"),
    }


def test_undeclared_identifier(in_tmp):
    assert diagnose(in_tmp, region("  for (i = 0; i < n; i++) a[i] = c[i];")) == (
        "t.c:4:34: error: 'c' is not declared: declare it in the enclosing function or in input_vars\n"
        "  for (i = 0; i < n; i++) a[i] = c[i];\n"
        "                                 ^"
    )


def test_c_syntax_error_in_loop_body(in_tmp):
    text = region("  for (i = 0; i < n; i++) a[i] = b[i] +;").replace("b[i] +;\n  /*@ end", "b[i];\n  /*@ end")
    assert diagnose(in_tmp, text) == (
        "t.c:4:40: error: C syntax error before ';'\n"
        "  for (i = 0; i < n; i++) a[i] = b[i] +;\n"
        "                                       ^"
    )


def test_c_syntax_error_in_original_code(in_tmp):
    text = region("  for (i = 0; i < n; i++) a[i] = b[i];").replace("b[i];\n  /*@ end", "b[i]\n  /*@ end")
    assert diagnose(in_tmp, text) == (
        "t.c:6:38: error: C syntax error at the end of the region's code (missing ';'?)\n"
        "  for (i = 0; i < n; i++) a[i] = b[i]\n"
        "                                     ^"
    )


def test_unsupported_loop_forms(in_tmp):
    assert diagnose(in_tmp, region("  for (i = 0; 2 * i < n; i++) a[i] = 0;")) == (
        "t.c:4:15: error: unsupported loop: the condition must be 'i < upper', 'i <= upper' or 'i != upper' "
        "(or, counting down, 'i >= lower' or 'i > lower')\n"
        "  for (i = 0; 2 * i < n; i++) a[i] = 0;\n"
        "              ^"
    )
    assert diagnose(in_tmp, region("  for (i = n; i > 0; i -= j) a[i] = 0;")).startswith(
        "t.c:4:22: error: unsupported loop: a loop counting down must step by a positive constant ('i--', 'i -= 2')"
    )
    assert diagnose(in_tmp, region("  for (i = n; i < 0; i--) a[i] = 0;")).startswith(
        "t.c:4:15: error: unsupported loop: counting down, the condition must be 'i >= lower' or 'i > lower'"
    )
    assert diagnose(in_tmp, region("  for (i = 0; i != n; i += 2) a[i] = 0;")).startswith(
        "t.c:4:15: error: unsupported loop: 'i != upper' with a step of 2 may step over the bound"
    )
    assert diagnose(in_tmp, region("  for (i = 0; i < n; i += n) a[i] = 0;")).startswith(
        "t.c:4:22: error: unsupported loop: the increment must be 'i++' or 'i += c' with a positive constant c"
    )
    # a while loop runs inside an iteration, but is no loop to transform
    assert diagnose(in_tmp, region("  while (n) n--;")).startswith(
        "t.c:3:18: error: 'transform CUDA(...)' applies to the statement after it, which must be a 'for' loop"
    )


def test_unknown_transform_argument_suggests(in_tmp):
    assert diagnose(in_tmp, region("  for (i = 0; i < n; i++) a[i] = 0;", args="threadCount=64, preferLLSize=16")) == (
        "t.c:3:49: error: unknown transform argument 'preferLLSize' (did you mean 'preferL1Size'?)\n"
        "  /*@ begin Loop(transform CUDA(threadCount=64, preferLLSize=16)\n"
        "                                                ^"
    )


def test_undefined_name_in_transform_argument(in_tmp):
    assert diagnose(in_tmp, region("  for (i = 0; i < n; i++) a[i] = 0;", args="threadCount=TC")) == (
        "t.c:3:45: error: undefined name 'TC' in transform argument 'threadCount'\n"
        "  /*@ begin Loop(transform CUDA(threadCount=TC)\n"
        "                                            ^"
    )


def test_transform_values_defaults_and_checks(in_tmp):
    write(in_tmp / "t.c", region("  for (i = 0; i < n; i++) a[i] = 0;", args="threadCount=2*64, cacheBlocks=1"))
    transform = load("t.c").nests[0].transform
    values = transform.values({})
    assert values["threadCount"] == 128 and values["cacheBlocks"] is True and values["streamCount"] == 1
    write(in_tmp / "t.c", region("  for (i = 0; i < n; i++) a[i] = 0;", args="streamCount=0"))
    with pytest.raises(SpecError) as info:
        load("t.c").nests[0].transform.values({})
    assert info.value.render().startswith(
        "t.c:3:45: error: transform argument 'streamCount' must be a positive integer, got 0"
    )


def test_positional_transform_argument(in_tmp):
    assert diagnose(in_tmp, region("  for (i = 0; i < n; i++) a[i] = 0;", args="64")).startswith(
        "t.c:3:33: error: transform arguments are written name=value"
    )


def test_unknown_transformation(in_tmp):
    assert diagnose(in_tmp, region("  a[0] = 0;").replace("transform CUDA(", "transform OpenCL(")).startswith(
        "t.c:3:28: error: unknown transformation 'OpenCL' (orcu provides 'CUDA')"
    )


def test_statement_nodes_are_pycparser_nodes():
    nest = load(EXAMPLES / "dot.c").nests[0]
    (loop,) = nest.body
    assert isinstance(loop.body[0].node, c_ast.Assignment) and loop.body[0].scalar_writes == {"r"}


def test_function_header_without_body_is_a_syntax_error(in_tmp):
    # Found by the fuzz test: pycparser's internal assertion must not escape.
    text = region("  for (i = 0; i < n; i++) a[i] = 0;").replace("double *b) {\n", "double *b)\n", 1)
    assert diagnose(in_tmp, text) == "t.c:8:1: error: C syntax error before '}'\n}\n^"
