"""The tuned source and `orcu emit`: layout, annotations, re-tuning, atomic writes."""

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from codegen_cases import CASES
from conftest import EXAMPLES, write

from orcu.driver.cli import main
from orcu.driver.writeback import Choice, Provenance, tuned_source
from orcu.frontend import generated
from orcu.planning.program import load

GOLDEN = Path(__file__).parent / "golden"
DATE = Provenance(date="2026-01-01")
TWO = {"TC1": 256, "BC1": 132, "TC2": 1024, "BC2": 66}


def tuned(path, params=None, strip=False):
    program = load(path)
    text, _ = tuned_source(
        program, [Choice(params or {}, {"n": 12345} if params else {})] * len(program.nests), strip, DATE
    )
    return text


def golden_tuned_file() -> str:
    """The tuned file tests/golden/two_regions_file.cu holds (run where two_regions.c is copied)."""
    write(Path("two_regions.c"), (EXAMPLES / "two_regions.c").read_text())
    return tuned("two_regions.c", TWO)


def test_golden_tuned_file(in_tmp):
    text = golden_tuned_file()
    assert text == (GOLDEN / "two_regions_file.cu").read_text(), (
        "after an intended change: python3 tests/regenerate_golden.py"
    )


def test_regions_become_calls_with_the_original_kept(in_tmp):
    write(in_tmp / "two_regions.c", (EXAMPLES / "two_regions.c").read_text())
    text = tuned("two_regions.c", TWO)
    assert text.count("#ifdef ORCU_ORIGINAL\n    for (i = 0; i < n; i++)") == 2
    assert (
        "    orcu_scale_and_max_1(n, z, alpha, x);  // the loop above, run on the GPU by orcu\n"
        "    (void)i;  // only the original loops above use it\n#endif\n    /*@ end @*/"
    ) in text
    assert "    orcu_scale_and_max_2(n, &zmax, z);" in text
    # kernels and host functions come before the function, after the file's includes
    assert text.index("#include <math.h>\n") < text.index("__global__") < text.index("double scale_and_max(")
    assert text.startswith(generated.BEGIN + "\n/* Written by orcu ")
    assert " * orcu_scale_and_max_1 (line 25): TC1=256, BC1=132\n *     input n=12345; time not measured\n" in text


def test_a_tuned_file_tunes_again_to_the_same_text(in_tmp):
    write(in_tmp / "two_regions.c", (EXAMPLES / "two_regions.c").read_text())
    first = tuned("two_regions.c", TWO)
    write(in_tmp / "again.c", first)
    program = load("again.c")
    assert [n.reference.strip() for n in program.nests] == [n.reference.strip() for n in load("two_regions.c").nests]
    second, _ = tuned_source(program, [Choice(TWO, {"n": 12345})] * 2, provenance=DATE)

    def unplaced(text):  # line numbers name the loops' places in the file that was tuned
        return re.sub(r"(\.c:|line )\d+", r"\1N", text.replace("two_regions.c", "again.c"))

    assert unplaced(second) == unplaced(first)


def test_retuning_replaces_the_generated_code(in_tmp):
    write(in_tmp / "two_regions.c", (EXAMPLES / "two_regions.c").read_text())
    write(in_tmp / "again.c", tuned("two_regions.c", TWO))
    other = dict(TWO, TC1=512)
    text, _ = tuned_source(load("again.c"), [Choice(other, {"n": 12345})] * 2, provenance=DATE)
    assert text.count(" orcu_scale_and_max_1_kernel(") == 1
    assert "const int orcu_threads = 512;" in text and "const int orcu_threads = 256;" not in text


def test_strip_drops_every_annotation(in_tmp):
    write(in_tmp / "two_regions.c", (EXAMPLES / "two_regions.c").read_text())
    text = tuned("two_regions.c", TWO, strip=True)
    assert "/*@" not in text and "@*/" not in text
    assert "can tune this file again" not in text
    assert (
        "    zmax = z[0];\n#ifdef ORCU_ORIGINAL\n    for (i = 0; i < n; i++)\n        zmax = fmax(zmax, z[i]);\n#else\n"
        in text
    )
    assert "#endif\n    return zmax;\n}\n" in text


def test_region_with_annotation_body_only_keeps_it_as_the_original(in_tmp):
    write(in_tmp / "t.c", CASES["grid_stride"])
    text = tuned("t.c")
    assert (
        "    ) @*/\n#ifdef ORCU_ORIGINAL\n    for (i = 0; i < n; i++)\n        y[i] = a * x[i] + y[i];\n#else\n    orcu_f_1(n, y, a, x);"
        in text
    )


def test_generated_code_goes_above_the_comment_and_specifiers_of_the_function(in_tmp):
    src = "#define N 64\n/* documents f */\nstatic inline\nvoid f(float *y) {\n    int i;\n    /*@ begin Loop(transform CUDA(threadCount=32)\n    for (i = 0; i < N; i++) y[i] = 2.0f * y[i];\n    ) @*/\n    /*@ end @*/\n}\n"
    write(in_tmp / "t.c", src)
    text = tuned("t.c")
    assert "#define N 64\n" + generated.BEGIN + "\n#ifndef ORCU_ORIGINAL\n" in text
    assert generated.END + "\n/* documents f */\nstatic inline\nvoid f(float *y) {" in text


def test_emit_writes_atomically_and_never_touches_the_input(in_tmp):
    src = write(in_tmp / "axpy.c", (EXAMPLES / "axpy.c").read_text())
    before = hashlib.sha256(src.read_bytes()).hexdigest()
    assert main(["emit", "axpy.c", "--set", "TC=512", "--set", "SC=2", "-o", "out/axpy.cu"]) == 2  # no such directory
    os.mkdir("out")
    assert main(["emit", "axpy.c", "--set", "TC=512", "--set", "SC=2", "-o", "out/axpy.cu"]) == 0
    text = Path("out/axpy.cu").read_text()
    assert "const int orcu_threads = 512;" in text and "static cudaStream_t orcu_daxpy_1_streams[2];" in text
    assert sorted(os.listdir("out")) == ["axpy.cu", "axpy.h"]  # and its C header; no temporary file left behind
    assert main(["emit", "axpy.c", "-o", "axpy.c"]) == 2
    assert hashlib.sha256(src.read_bytes()).hexdigest() == before


def test_emit_unset_parameters_take_the_first_valid_values(in_tmp, capsys):
    write(in_tmp / "axpy.c", (EXAMPLES / "axpy.c").read_text())
    assert main(["emit", "axpy.c", "--set", "TC=64"]) == 0
    out = capsys.readouterr().out
    # TC=64 needs BC=132 to satisfy TC * BC >= 8192; SC and PL take their first values
    assert " * orcu_daxpy_1 (line 25): TC=64, BC=132, SC=1, PL=16\n *     input n=100000;" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--set", "TC=5"],
            "orcu: error: --set: '5' is not one of the values of 'TC': 64, 128, 192, 256, 320, 384, 448, 512, 576, 640, 704, 768, ...",
        ),
        (["--set", "tc=64"], "orcu: error: --set: 'tc' is not a parameter here (did you mean 'TC'?)"),
        (["--set", "n=100000"], "orcu: error: --set: 'n' is not a parameter here (it is set with --input)"),
        (["--set", "TC"], "orcu: error: --set expects NAME=VALUE, got 'TC'"),
        (["--input", "n=7"], "orcu: error: --input: '7' is not one of the values of 'n': 100000, 1000003"),
        (
            ["--set", "TC=64", "--set", "BC=66"],
            "orcu: error: no configuration with TC=64, BC=66 satisfies the constraints: enough_threads (TC * BC >= 8192)",
        ),
    ],
)
def test_emit_usage_errors(in_tmp, capsys, args, message):
    write(in_tmp / "axpy.c", (EXAMPLES / "axpy.c").read_text())
    assert main(["emit", "axpy.c", *args]) == 2
    assert capsys.readouterr().err.strip() == message


def test_emit_rejects_a_loop_carried_dependence(in_tmp):
    src = "void f(int n, double *a) {\n    int i;\n    /*@ begin Loop(transform CUDA(threadCount=64)\n    for (i = 1; i < n; i++)\n        a[i] = a[i-1] + 1.0;\n    ) @*/\n    /*@ end @*/\n}\n"
    write(in_tmp / "dep.c", src)
    proc = subprocess.run([sys.executable, "-m", "orcu", "emit", "dep.c"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "dep.c:5:16: error: loop-carried dependence on 'a': 'a[i]' (line 5) and 'a[i - 1]' (line 5) "
        "touch the same elements in different iterations of 'i'\n"
        "        a[i] = a[i-1] + 1.0;\n"
        "               ^\n"
    )


def test_emit_explain_reports_skipped_transformations(in_tmp, capsys):
    write(in_tmp / "dot.c", (EXAMPLES / "dot.c").read_text())
    assert main(["emit", "dot.c", "--set", "CB=True", "--explain", "-o", "dot.cu"]) == 0
    err = capsys.readouterr().err
    assert (
        "  note: cacheBlocks: skipped, no data is reused across the threads of a block (each thread reads its own elements of 'x'; each thread reads its own elements of 'y')\n"
        in err
    )


def test_a_region_outside_any_function_beside_one_inside_cannot_become_a_call(in_tmp, capsys):
    outside = "/*@ begin Loop(transform CUDA(threadCount=32)\nfor (i = 0; i < n; i++) a[i] = 1.0;\n) @*/\n/*@ end @*/\n"
    inside = "void f(int n, double *b) {\n int j;\n/*@ begin Loop(transform CUDA()\nfor (j = 0; j < n; j++) b[j] = 2.0;\n) @*/\n/*@ end @*/\n}\n"
    write(in_tmp / "frag.c", "int i; int n; double a[100];\n" + outside + inside)
    assert main(["emit", "frag.c", "-o", "out.cu"]) == 2
    assert capsys.readouterr().err.split("\n")[0] == (
        "frag.c:2:1: error: a Loop region outside a function cannot become a call in a file whose other Loop regions are in "
        "functions: put it in a function (a file whose Loop regions all stand outside functions is a fragment, tuned into a "
        "fragment and a .cu)"
    )


def test_sizes_with_different_winners_get_a_dispatch(in_tmp):
    write(in_tmp / "axpy.c", (EXAMPLES / "axpy.c").read_text())
    program = load("axpy.c")
    small = Choice({"TC": 128, "BC": 132, "SC": 1, "PL": 16}, {"n": 100000}, 0.5)
    large = Choice({"TC": 256, "BC": 264, "SC": 2, "PL": 48}, {"n": 1000003}, 1.5)
    text, codes = tuned_source(program, [[small, large]], provenance=DATE)
    assert [c.host for c in codes] == ["orcu_daxpy_1_v1", "orcu_daxpy_1_v2"]
    assert "    if (n == 100000) {\n        orcu_daxpy_1_v1(n, y, a, x);\n        return;\n    }\n" in text
    assert "        fabs(((double)n - 1000003) / 1000003),\n" in text  # other sizes: the nearest tuned one
    assert "    orcu_daxpy_1(n, y, a, x);  // the loop above, run on the GPU by orcu\n" in text
    assert (
        " * orcu_daxpy_1 (line 25): TC=256, BC=264, SC=2, PL=48\n *     input n=1000003; time 1.5 ms (kernel time, which ranked the variants)\n"
        in text
    )
    # one call frees what both configurations keep
    assert (
        "void orcu_release_daxpy_1(void)\n{\n    orcu_release_daxpy_1_v1();\n    orcu_release_daxpy_1_v2();\n}\n"
        in text
    )
    write(in_tmp / "axpy.cu", text)
    build = subprocess.run(["nvcc", "-c", "-arch=sm_90", "axpy.cu", "-o", "axpy.o"], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    same, _ = tuned_source(program, [[small, Choice(small.params, large.inputs)]], provenance=DATE)
    assert "_v1" not in same  # one winner for every size: no dispatch
