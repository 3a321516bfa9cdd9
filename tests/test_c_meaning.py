"""C's meaning where C++ reads the same text otherwise: each case is a loop as C users write it,
tuned in the emulation, and the tuned file's output is compared with gcc's program's on inputs
chosen to show the difference (negative, huge, tiny, past float's range); or it is refused with
a located reason. The reference every variant is checked against is compiled as C, so a variant
that computed C++'s answer would fail; the tuned file's output is gcc's to the last bit."""

import subprocess

import pytest
from conftest import write

from orcu.driver import api
from orcu.errors import OrcuError
from orcu.execution.toolchain import EMULATION, compile_program

KERNEL = """{includes}
{head}
void f(int n, {tx} *{x}, {ty} *{y})
{{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32]; }}
    def input_params {{ param n[] = [45]; }}
    def input_vars {{ decl dynamic {tx} {x}[n] = random; decl dynamic {ty} {y}[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) {body}
    ) @*/
    for (i = 0; i < n; i++) {body}
    /*@ end @*/
    /*@ end @*/
}}
"""

MAIN = """#include <stdio.h>
void f(int n, {tx} *x, {ty} *y);
static const {tx} given[] = {{ {values} }};
int main(void)
{{
    enum {{ N = sizeof given / sizeof given[0] }};
    {tx} x[N];
    {ty} y[N];
    for (int k = 0; k < N; k++) {{
        x[k] = given[k];
        y[k] = 0;
    }}
    f(N, x, y);
    for (int k = 0; k < N; k++)
        printf({format}, {printed});
    return 0;
}}
"""

FLOATS = "1.0f, 0.9f, -0.5f, 88.5f, 3.1415927f, 1e-40f, 1e4f, -7.25f"
DOUBLES = "-2.75, 2.05, 0.683, -1e-3, 1e9, 123456.789, -0.5, 7.0"
LONGS = "5000000000LL, -5000000000LL, -7LL, 2147483647LL, 4294967301LL, 12LL"

# (id, x's type, y's type, the loop's body, the inputs main passes, declarations before f)
CASES = [
    # <math.h> given floats: C calls the double function, C++ (and CUDA) the float one
    ("exp_of_float", "float", "float", "y[i] = log(1.0 + exp(x[i] * 100.0f));", FLOATS, ""),
    ("sqrt_of_float", "float", "double", "y[i] = sqrt(x[i] * x[i] + 2.0f);", FLOATS, ""),
    ("pow_of_floats", "float", "double", "y[i] = pow(x[i], 1.5f) + pow(2.0f, x[i]);", FLOATS, ""),
    ("pow_float_int", "float", "double", "y[i] = pow(x[i], 3);", FLOATS, ""),
    ("sin_of_float", "float", "double", "y[i] = sin(x[i]);", FLOATS, ""),
    ("cos_tan_of_float", "float", "double", "y[i] = cos(x[i]) + tan(x[i] * 0.25f);", FLOATS, ""),
    ("tanh_sinh_of_float", "float", "double", "y[i] = tanh(x[i] * 0.1f) + sinh(x[i] * 0.01f);", FLOATS, ""),
    ("atan2_of_floats", "float", "double", "y[i] = atan2(x[i], 3.0f);", FLOATS, ""),
    ("fmod_of_floats", "float", "double", "y[i] = fmod(x[i], 0.7f);", FLOATS, ""),
    ("hypot_cbrt_of_float", "float", "double", "y[i] = hypot(x[i], 1.0f / 3.0f) + cbrt(x[i]);", FLOATS, ""),
    ("expm1_log1p_of_float", "float", "double", "y[i] = expm1(x[i] * 0.001f) + log1p(fabs(x[i]));", FLOATS, ""),
    ("erf_of_float", "float", "double", "y[i] = erf(x[i] * 0.3f);", FLOATS, ""),
    ("log10_exp2_of_float", "float", "double", "y[i] = log10(fabs(x[i]) + 1.0f) + exp2(x[i] * 0.1f);", FLOATS, ""),
    ("fma_of_floats", "float", "double", "y[i] = fma(x[i], x[i] * 1.1f, 1.0f / 3.0f);", FLOATS, ""),
    ("fmin_fmax_of_float", "float", "double", "y[i] = fmin(x[i], 0.3f) + fmax(x[i] / 3.0f, 0.1f);", FLOATS, ""),
    ("copysign_ldexp_of_float", "float", "double", "y[i] = copysign(x[i] / 3.0f, -1.0f) + ldexp(x[i], 3);", FLOATS, ""),
    ("round_lround_of_float", "float", "long long", "y[i] = lround(x[i] * 2.5f) + (long long)round(x[i]);", FLOATS, ""),
    ("float_function_of_double", "double", "double", "y[i] = sqrtf(fabs(x[i])) + expf(x[i] * 1e-3);", DOUBLES, ""),
    ("exp_of_int", "int", "double", "y[i] = exp(x[i] / 4) + sqrt(x[i] > 0 ? x[i] : -x[i]);", "-9, 0, 7, 100, 3", ""),
    ("floor_of_int_quotient", "int", "double", "y[i] = floor(x[i] / 2) + ceil(x[i] / 3.0f);", "-9, 0, 7, 100, 3", ""),
    # the abs family: C converts to the parameter's integer type
    ("abs_of_double", "double", "double", "y[i] = abs(x[i] * 3.0) + x[i];", "-2.75, 2.05, 0.683, -1e-3, -7e8", ""),
    ("abs_of_float", "float", "float", "y[i] = abs(x[i]) + 0.25f;", "1.0f, 0.9f, -0.5f, 88.5f, -7.25f", ""),
    ("abs_of_long_long", "long long", "long long", "y[i] = abs(x[i]);", LONGS, ""),
    ("labs_of_double", "double", "long", "y[i] = labs(x[i] * 10);", DOUBLES, ""),
    ("llabs_of_double", "double", "long long", "y[i] = llabs(x[i] * 1e3);", DOUBLES, ""),
    ("abs_of_unsigned", "unsigned", "int", "y[i] = abs(x[i]);", "4294967295u, 5u, 2147483649u, 0u", ""),
    ("abs_of_char", "signed char", "int", "y[i] = abs(x[i]) + abs(x[i] * 300);", "-5, 100, -128, 0", ""),
    ("llabs_of_float", "float", "long long", "y[i] = llabs(x[i] * 1e3f) + labs(x[i]);", FLOATS, ""),
    ("fabs_of_int", "int", "double", "y[i] = fabs(x[i]) / 3;", "-9, 0, 7, 100, 3", ""),
    # promotions and conversions C and C++ share: the same bits either way
    ("unsigned_char_product", "unsigned char", "int", "y[i] = x[i] * x[i] - 300;", "255, 0, 17, 128", ""),
    ("unsigned_short_sum", "unsigned short", "long long", "y[i] = x[i] * 2 - 70000;", "65535, 0, 40000", ""),
    ("signed_unsigned_compare", "int", "int", "y[i] = (x[i] < 3u) + 2 * (x[i] < 3);", "-1, 2, 5, 0", ""),
    ("char_shift", "char", "int", "y[i] = (x[i] >> 1) + (x[i] << 2);", "-128, 127, -1, 5", ""),
    ("negative_quotient", "int", "int", "y[i] = x[i] / -3 + x[i] % -3;", "-9, -8, 7, 100, 3", ""),
    ("float_to_int", "double", "int", "y[i] = (int)(x[i] * 2.5) + (short)(x[i] * 1e3);", DOUBLES, ""),
    # names of C that C++ or CUDA take for themselves
    ("parameters_new_and_class", "double", "double", "class[i] = 2.0 * new[i] + 1;", DOUBLES, "", "new", "class"),
    (
        "local_this_and_delete",
        "double",
        "double",
        "{ double this = x[i]; int delete = 2; y[i] = this * delete; }",
        DOUBLES,
        "",
    ),
    (
        "own_max_function",
        "int",
        "int",
        "y[i] = max(x[i], 3) + min(x[i], -1);",
        "-9, 0, 7, 100, 3",
        "static int max(int a, int b) { return a > b ? a : b; }\nstatic int min(int a, int b) { return a < b ? a : b; }",
    ),
    (
        "own_max_macro",
        "int",
        "int",
        "y[i] = max(x[i], 3) * 2;",
        "-9, 0, 7, 100, 3",
        "#define max(a, b) ((a) > (b) ? (a) : (b))",
    ),
    (
        "helper_named_uint",
        "double",
        "unsigned",
        "y[i] = uint(x[i]) + ushort(x[i] * 2);",
        "2.75, 2.05, 0.683, 7.0",
        "static unsigned uint(double v) { return (unsigned)(v * 10); }\n"
        "static unsigned short ushort(double v) { return (unsigned short)v; }",
    ),
    (
        "typedef_float2",
        "double",
        "double",
        "{ float2 t = x[i]; y[i] = rsqrt(t * t); }",
        DOUBLES,
        "typedef double float2;\nstatic double rsqrt(double v) { return v > 1.0 ? 1.0 / v : v; }",
    ),
    (
        "struct_named_int2",
        "double",
        "double",
        "{ struct int2 d; d.x = x[i]; d.y = 2; y[i] = d.x * d.y; }",
        DOUBLES,
        "struct int2 { double x, y; };",
    ),
    (
        "locals_named_as_cuda",
        "double",
        "double",
        "{ double rsqrtf = x[i]; int uchar = 3; y[i] = rsqrtf * uchar; }",
        DOUBLES,
        "",
    ),
]

# Refused where they stand: what the generated CUDA C++ cannot say as C means it.
REFUSED = [
    (
        "keyword_template",
        "double",
        "double",
        "{ double template = x[i]; y[i] = template; }",
        "'template' is a C++ keyword",
    ),
    (
        "keyword_typename",
        "double",
        "double",
        "{ int typename = 2; y[i] = x[i] * typename; }",
        "'typename' is a C++ keyword",
    ),
    ("operator_and", "double", "double", "{ double and = x[i]; y[i] = and; }", "'and' is a C++ operator"),
    ("cuda_dim3", "double", "double", "{ double dim3 = x[i]; y[i] = dim3; }", "'dim3' is a name of CUDA's"),
    ("struct_dim3", "double", "double", "{ struct dim3 d; d.x = x[i]; y[i] = d.x; }", "'dim3' is a name of CUDA's"),
    ("cuda_threadIdx", "int", "int", "{ int threadIdx = x[i]; y[i] = threadIdx; }", "'threadIdx' is a name of CUDA's"),
]


def _print(ty: str) -> tuple[str, str]:
    if ty in ("float", "double"):
        return '"%a\\n"', "(double)y[k]"
    if ty.startswith("unsigned"):
        return '"%llu\\n"', "(unsigned long long)y[k]"
    return '"%lld\\n"', "(long long)y[k]"


INCLUDES = "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>"


def _source(tx, ty, body, head, x="x", y="y"):
    # glibc's <stdlib.h> declares uint and ushort for C too: a file that names them includes less
    includes = "#include <math.h>" if "uint(" in head else INCLUDES
    return KERNEL.format(includes=includes, tx=tx, ty=ty, body=body, head=head, x=x, y=y)


def _run(folder, command):
    proc = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_tuned_program_prints_what_gccs_prints(in_tmp, case):
    name, tx, ty, body, values, head, *names = case
    write(in_tmp / "t.c", _source(tx, ty, body, head, *names))
    form, printed = _print(ty)
    write(in_tmp / "main.c", MAIN.format(tx=tx, ty=ty, values=values, format=form, printed=printed))
    expected = _run(in_tmp, ["gcc", "-O2", "-w", "t.c", "main.c", "-lm", "-o", "by_gcc"]) or _run(in_tmp, ["./by_gcc"])
    result = api.tune("t.c", backend="emulate", progress=False)
    assert [r.statuses for r in result.regions] == [{"ok": 1}], [r.statuses for r in result.regions]
    _run(in_tmp, ["gcc", "-O2", "-c", "main.c", "-o", "main.o"])
    build = compile_program(EMULATION, in_tmp / "t.tuned.cu", in_tmp / "tuned", libs=("main.o", "-lm"))
    assert build.ok, build.message
    assert _run(in_tmp, ["./tuned"]) == expected


@pytest.mark.parametrize("case", REFUSED, ids=[c[0] for c in REFUSED])
def test_what_cuda_cpp_cannot_say_is_refused_where_it_stands(in_tmp, case):
    name, tx, ty, body, why = case
    write(in_tmp / "t.c", _source(tx, ty, body, ""))
    with pytest.raises(OrcuError) as caught:
        api.tune("t.c", backend="emulate", progress=False)
    assert why in caught.value.message
    loc, name = caught.value.loc, why.split("'")[1]
    line = (in_tmp / "t.c").read_text().splitlines()[loc.line - 1]
    assert loc.path == "t.c" and line[loc.col - 1 :].startswith(name) and line.strip().startswith("for (i = 0")


# What the generated C++ still computes otherwise (a character constant is an int in C and a
# char in C++; a comparison an int in C and a bool in C++): the reference, compiled as C, says
# so, and no tuned file is written.
CAUGHT = [
    ("sizeof_character", "y[i] = x[i] * (int)sizeof('a');"),
    ("sizeof_comparison", "y[i] = x[i] + (int)sizeof(x[i] < 0);"),
    ("sizeof_negation", "{ int k = (int)sizeof(!x[i]); y[i] = k; }"),
]


@pytest.mark.parametrize("case", CAUGHT, ids=[c[0] for c in CAUGHT])
def test_what_cpp_computes_otherwise_fails_against_the_c_reference(in_tmp, case):
    name, body = case
    write(in_tmp / "t.c", _source("int", "int", body, ""))
    result = api.tune("t.c", backend="emulate", progress=False)
    assert [r.statuses for r in result.regions] == [{"wrong_result": 1}]
    assert not (in_tmp / "t.tuned.cu").exists()
