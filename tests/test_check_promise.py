"""What `orcu check` promises: a file that checks clean gets past everything tune checks before it
builds; what the spec says is acted on or said to be ignored; identical builds are one evaluation;
build flags for another GPU; file-scope fragments."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from codegen_cases import CASES
from conftest import EXAMPLES, H100, ROOT, write

from orcu.execution.buildflags import build_flags, foreign_arch
from orcu.execution.runners import Runner, build_item
from orcu.planning.program import load

SPEC = """/*@ begin PerfTuning (
 def performance_params {{ {params} }}
 def input_params {{ param n[] = [1000]; }}
 def input_vars {{ decl dynamic float x[n] = random; decl dynamic float y[n] = random; }}
) @*/
"""
AXPY = """void f(int n, const float *x, float *y) {{
    int i;
    /*@ begin Loop(transform CUDA({args})
    for (i = 0; i < n; i++) {body}
    ) @*/
    /*@ end @*/
}}
/*@ end @*/
"""


def axpy(params="param TC[] = [32, 64];", args="threadCount=TC", body="y[i] = 2.0f * x[i] + y[i];", spec_extra=""):
    return SPEC.format(params=params).replace(" def input_params", spec_extra + " def input_params") + AXPY.format(
        args=args, body=body
    )


# Files that something refuses before a build: each for its own reason.
REFUSED = {
    "carried": axpy(body="y[i] = y[i - 1] + x[i];").replace("i = 0; i < n", "i = 1; i < n"),
    "undeclared_array": axpy(body="y[i] = 2.0f * z[i];").replace("float *y)", "float *y, const float *z)"),
    "never_valid_argument": axpy(params="param PL[] = [20, 30];", args="preferL1Size=PL"),
    "mixed_fragment": axpy()
    + "int j;\n/*@ begin Loop(transform CUDA()\nfor (j = 0; j < n; j++) y[j] = x[j];\n) @*/\n/*@ end @*/\n",
}
ACCEPTED = {
    "some_invalid_values": axpy(params="param PL[] = range(0, 64, 8);", args="preferL1Size=PL"),
    "fragment": SPEC.format(params="param TC[] = [32, 64];")
    .replace("float x[n]", "double x[n]")
    .replace("float y[n]", "double y[n]")
    + "int i;\n/*@ begin Loop(transform CUDA(threadCount=TC)\nfor (i = 0; i <= n - 1; i++)\n    y[i] = 2.0 * x[i] + y[i];\n) @*/\n"
    "for (i = 0; i <= n - 1; i++)\n    y[i] = 2.0 * x[i] + y[i];\n/*@ end @*/\n/*@ end @*/\n",
}
INPUTS = {
    **{f"example {p.name}": p.read_text() for p in sorted(EXAMPLES.glob("*.c"))},
    **{f"orio {p.name}": p.read_text() for p in sorted((EXAMPLES / "orio").glob("*.c"))},
    **{f"case {name}": text for name, text in CASES.items()},
    **REFUSED,
    **ACCEPTED,
}


def run(*args, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "orcu", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, ORCU_HOME=str(Path(cwd) / "home"), **(env or {})),
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(INPUTS))
def test_check_succeeds_exactly_when_tune_gets_to_building(in_tmp, name):
    write(in_tmp / "t.c", INPUTS[name])
    if name.startswith("example ") and (EXAMPLES / (name.split()[1] + ".orcu.yaml")).exists():
        write(in_tmp / "t.c.orcu.yaml", (EXAMPLES / (name.split()[1] + ".orcu.yaml")).read_text())
    checked = run("check", "t.c", cwd=in_tmp)
    # A compiler that fails at once: a tune that gets to building ends with no variant passed (1), not a diagnostic (2).
    tuned = run("tune", "t.c", "--budget", "1", "--backend", "emulate", cwd=in_tmp, env={"CXX": "false"})
    assert checked.returncode in (0, 2) and tuned.returncode in (1, 2), (checked.stderr, tuned.stderr)
    assert (checked.returncode == 0) == (tuned.returncode == 1), (checked.stderr, tuned.stderr)
    if checked.returncode == 2:  # the same diagnostic from both
        assert checked.stderr.splitlines()[0] == [line for line in tuned.stderr.splitlines() if ": error: " in line][0]
    assert (name in REFUSED) <= (checked.returncode == 2)


def test_refusals_say_why_where(in_tmp):
    messages = {}
    for name, text in REFUSED.items():
        write(in_tmp / "t.c", text)
        messages[name] = run("check", "t.c", cwd=in_tmp).stderr.splitlines()[0]
    assert messages["carried"] == (
        "t.c:9:36: error: loop-carried dependence on 'y': 'y[i]' (line 9) and 'y[i - 1]' (line 9) "
        "touch the same elements in different iterations of 'i'"
    )
    assert messages["never_valid_argument"] == (
        "t.c:8:48: error: no configuration for n=1000 can be built: 'preferL1Size is 0, "
        "16, 32 or 48' holds for none of the 2 there were"
    )
    assert messages["undeclared_array"] == (
        "t.c:6:53: error: 'z' is an array the tuned code uses: declare it in input_vars so "
        "that orcu can allocate and fill it"
    )
    assert messages["mixed_fragment"] == (
        "t.c:15:1: error: a Loop region outside a function cannot become a call in a file whose other Loop regions are in "
        "functions: put it in a function (a file whose Loop regions all stand outside functions is a fragment, tuned into a "
        "fragment and a .cu)"
    )


# -- one bad value does not stop a tune ------------------------------------------------------------
def test_values_out_of_an_arguments_range_leave_those_configurations_out(in_tmp):
    write(in_tmp / "t.c", ACCEPTED["some_invalid_values"])
    checked = run("check", "t.c", cwd=in_tmp)
    assert (
        "  cannot be built: 4 of 8 configuration(s) (they break: preferL1Size is 0, 16, 32 or 48)\n" in checked.stdout
    )
    tuned = run("tune", "t.c", "--budget", "2", "--backend", "emulate", "--json", cwd=in_tmp)
    assert tuned.returncode == 0, tuned.stderr
    assert (
        "orcu: note: orcu_f_1 n=1000: 4 of 8 configurations cannot be built and are left out (they break: preferL1Size is 0, 16, 32 "
        "or 48)\n"
    ) in tuned.stderr
    region = json.loads(tuned.stdout)["regions"][0]
    assert region["statuses"] == {"ok": 2} and region["best"]["params"]["PL"] in (0, 16, 32, 48)


def test_a_configuration_out_of_range_is_invalid_and_the_rest_runs(in_tmp):
    # What a strategy cannot propose (the space leaves it out) still fails alone if asked for, with its reason.
    write(in_tmp / "t.c", axpy())
    runner = Runner("emulate", H100, in_tmp / "build", jobs=1)
    results = list(runner.evaluate(load("t.c"), 0, [({"TC": 0}, {"n": 1000}), ({"TC": 32}, {"n": 1000})]))
    assert [r.status for r in results] == ["invalid", "ok"]
    assert results[0].message == "t.c:8:47: transform argument 'threadCount' must be a positive integer, got 0"


# -- what the spec says ----------------------------------------------------------------------------
def test_spec_arguments_orcu_does_not_act_on_are_said_at_their_place(in_tmp):
    extra = (
        " def performance_counter { arg method = 'basic timer'; }\n def search { arg resume = True; }\n"
        " def validation { arg validation_file = 'check.c'; }\n def cmdline_params { option '-n' = [1]; }\n"
    )
    write(in_tmp / "t.c", axpy(spec_extra=extra))
    err = run("check", "t.c", cwd=in_tmp).stderr
    assert err.splitlines() == [
        "t.c:3:32: warning: 'method' is not used: orcu times each variant with CUDA events around its kernels, or with a "
        "monotonic clock around the whole host function; choose between them with arg measure = 'kernel' or 'total'",
        "t.c:4:19: note: 'resume' is what orcu always does: every evaluation stays in the results database "
        "($ORCU_HOME/results.sqlite), and a tune that meets a configuration again takes its result from there",
        "t.c:5:23: warning: 'validation_file' is not used: orcu checks every variant against the original code, run by the "
        "harness on the same inputs, element by element with a tolerance fit for each type",
        "t.c:6:30: warning: 'cmdline_params' is not used: orcu times its own harness around the Loop regions, not the "
        "program, so there is no command line to give options to",
    ]


def test_libs_are_linked_and_checked(in_tmp):
    write(in_tmp / "t.c", axpy(spec_extra=" def build { arg libs = '-lorcu_no_such_library'; }\n"))
    tuned = run("tune", "t.c", "--budget", "1", "--backend", "emulate", "--json", cwd=in_tmp)
    assert tuned.returncode == 1
    db = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("
            "'select message from evaluations').fetchone()[0])",
            str(in_tmp / "home" / "results.sqlite"),
        ],
        capture_output=True,
        text=True,
    )
    assert "-lorcu_no_such_library" in db.stdout
    write(in_tmp / "t.c", axpy(spec_extra=" def build { arg libs = '-lm -L/tmp/x'; }\n"))
    assert run("check", "t.c", cwd=in_tmp).stderr.splitlines()[0] == (
        "t.c:3:30: error: libs: '-L/tmp/x' refused: it changes what the linker loads; libs may name libraries (-lNAME); "
        "pass --trust-spec to orcu to allow more"
    )
    write(in_tmp / "t.c", axpy(spec_extra=" def build { arg libs = '-lm -lrt'; }\n"))
    assert run("tune", "t.c", "--budget", "1", "--backend", "emulate", cwd=in_tmp).returncode == 0


# -- identical builds ----------------------------------------------------------------------------------
def test_configurations_that_make_one_build_are_evaluated_once(in_tmp):
    params = "param TC[] = [32, 64]; param CB[] = [False, True]; param CFLAGS[] = ['', '-use_fast_math', '-Xptxas -v'];"
    write(
        in_tmp / "t.c",
        axpy(
            params=params,
            args="threadCount=TC, cacheBlocks=CB",
            spec_extra=" def build { arg build_command = 'nvcc -O3 @CFLAGS'; }\n",
        ),
    )
    tuned = run("tune", "t.c", "--backend", "emulate", "--json", cwd=in_tmp)
    assert tuned.returncode == 0, tuned.stderr
    region = json.loads(tuned.stdout)["regions"][0]
    # under the emulation nvcc's flags do not reach the compiler, and no array is reused: TC alone makes builds
    assert region["evaluated"] == {"new": 2, "cached": 0, "same_build": 10}
    assert region["best"]["no_effect"] == ["CB", "CFLAGS"]
    assert (
        "orcu: note: orcu_f_1 n=1000: CB, CFLAGS changed nothing in the winner's build (the table leaves them out)\n"
        in tuned.stderr
    )
    assert (
        "orcu: note: orcu_f_1 n=1000: cacheBlocks: skipped, no data is reused across the threads of a block ('y' is "
        "written; each thread reads its own elements of 'x')\n"
    ) in tuned.stderr
    again = run("tune", "t.c", "--backend", "emulate", "--json", cwd=in_tmp)
    assert json.loads(again.stdout)["regions"][0]["evaluated"] == {"new": 0, "cached": 2, "same_build": 10}


# -- another GPU's flags --------------------------------------------------------------------------------
def test_flags_for_another_gpu_give_way_to_the_devices_with_a_note(in_tmp):
    assert build_flags("nvcc -O3 -arch=sm_20", {}, "cuda", "sm_90") == ("-O3",)
    assert build_flags("nvcc -O3 -arch sm_90", {}, "cuda", "sm_90") == ("-O3", "-arch", "sm_90")
    assert build_flags(
        "nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90", {}, "cuda", "sm_90"
    ) == ("-gencode", "arch=compute_90,code=sm_90")
    write(
        in_tmp / "t.c",
        axpy(
            params="param TC[] = [32]; param CFLAGS[] = ['', '-arch=sm_35'];",
            spec_extra=" def build { arg build_command = 'nvcc -O2 -arch=sm_20 @CFLAGS'; }\n",
        ),
    )
    program = load("t.c")
    assert foreign_arch(program, H100) == [
        "orcu: note: build flag '-arch=sm_20' names only other GPUs than the NVIDIA H100 80GB HBM3 (sm_90): orcu compiles for "
        "sm_90 instead",
        "orcu: note: build flag '-arch=sm_35' names only other GPUs than the NVIDIA H100 80GB HBM3 (sm_90): orcu compiles for "
        "sm_90 instead",
    ]
    item = build_item(program, 0, 0, {"TC": 32, "CFLAGS": "-arch=sm_35"}, {"n": 1000}, "cuda", "sm_90")
    built = Runner("cuda", H100, in_tmp / "build", jobs=1)._build_batch(program, 0, [item], None)
    assert built[0][2].ok, built[0][2].message  # nvcc 13 refuses sm_20 and sm_35: the device's own was used


# -- fragments ----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_fragment_tunes_into_statements_and_a_cu_that_build_and_agree(in_tmp):
    write(in_tmp / "frag.c", ACCEPTED["fragment"])
    tuned = run("tune", "frag.c", "--backend", "emulate", "--json", cwd=in_tmp)
    assert tuned.returncode == 0, tuned.stderr
    assert tuned.stderr.endswith("orcu: wrote frag.tuned.cu and frag.tuned.c\n")
    assert json.loads(tuned.stdout)["fragment"] == "frag.tuned.c"
    statements = (in_tmp / "frag.tuned.c").read_text()
    assert (
        "{ extern void orcu_file_1(int, double *, const double *); orcu_file_1(n, y, x); }  // the loop above, run on the "
        "GPU by orcu"
    ) in statements
    assert 'extern "C" void orcu_file_1(int n, double *y, const double *x)\n' in (in_tmp / "frag.tuned.cu").read_text()
    # The user's program: the statements pasted into a C function, the .cu built apart (here by the emulation).
    write(
        in_tmp / "main.c",
        "#include <stdio.h>\n#define n 1000\nint main(void)\n{\n    double x[n], y[n];\n"
        '    for (int k = 0; k < n; k++) { x[k] = k; y[k] = 1; }\n#include "frag.tuned.c"\n'
        '    printf("%g %g\\n", y[10], y[999]);\n    return 0;\n}\n',
    )
    outputs = []
    for original in (False, True):
        flags = ["-DORCU_ORIGINAL"] if original else []
        subprocess.run(["gcc", *flags, "-c", "main.c", "-o", "main.o"], cwd=in_tmp, check=True)
        objects = ["main.o"]
        if not original:
            subprocess.run(
                [
                    "g++",
                    "-x",
                    "c++",
                    "-std=c++17",
                    "-I",
                    str(ROOT / "templates" / "emulation"),
                    "-c",
                    "frag.tuned.cu",
                    "-o",
                    "gpu.o",
                ],
                cwd=in_tmp,
                check=True,
            )
            objects.append("gpu.o")
        subprocess.run(["g++", *objects, "-o", "prog", "-lpthread"], cwd=in_tmp, check=True)
        outputs.append(subprocess.run(["./prog"], cwd=in_tmp, capture_output=True, text=True, check=True).stdout)
    assert outputs == ["21 1999\n", "21 1999\n"]
    compiled = subprocess.run(
        ["nvcc", "-c", "-arch=sm_90", "frag.tuned.cu", "-o", "frag.o"], cwd=in_tmp, capture_output=True, text=True
    )
    assert compiled.returncode == 0, compiled.stderr


def test_emit_of_a_fragment_needs_an_output(in_tmp):
    write(in_tmp / "frag.c", ACCEPTED["fragment"])
    proc = run("emit", "frag.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr == (
        "orcu: error: frag.c is a fragment (its Loop regions stand outside functions): it becomes the tuned "
        "statements and a .cu with their GPU code; give -o FILE.cu\n"
    )
    assert run("emit", "frag.c", "-o", "frag.cu", cwd=in_tmp).returncode == 2  # frag.c would be overwritten
    assert run("emit", "frag.c", "-o", "out.cu", cwd=in_tmp).returncode == 0
    assert (in_tmp / "out.c").exists()
