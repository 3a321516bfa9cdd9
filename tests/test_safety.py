"""Tuning a file is as safe as reading it, and impossible requests stop before anything runs."""

import os
import shutil
import stat

import pytest
from conftest import H100, evaluate, planted, write

from orcu.driver.cli import main
from orcu.execution.runners import Runner
from orcu.planning.program import load

SPEC = """/*@ begin PerfTuning (
 def performance_params {{ param CF[] = {cflags}; }}
 def build {{ arg build_command = '{command}'; }}
 def input_params {{ param n[] = [1000]; }}
 def input_vars {{ decl dynamic float y[n] = random; }}
) @*/
void f(int n, float *y) {{
    int i;
    /*@ begin Loop(transform CUDA(threadCount=64)
    for (i = 0; i < n; i++) y[i] = 2.0f * y[i];
    ) @*/
    /*@ end @*/
}}
/*@ end @*/
"""
REMEDY = (
    "; a spec may ask only for optimisation levels, macros, include paths, math modes, register limits, ptxas "
    "reports, line info and GPU targets; pass --trust-spec to orcu to allow it"
)


def spec_file(in_tmp, command="nvcc -O3 @CF@", cflags="['']"):
    write(in_tmp / "t.c", SPEC.format(command=command, cflags=cflags))
    return "t.c"


@pytest.mark.parametrize(
    "command, cflags, where, flag, why",
    [
        (
            "nvcc -O3 -ccbin /some/dir @CF@",
            "['']",
            "3:44",
            "-ccbin /some/dir",
            "it changes the host compiler nvcc runs",
        ),
        (
            "nvcc --compiler-bindir=/some/dir",
            "['']",
            "3:40",
            "--compiler-bindir=/some/dir",
            "it changes the host compiler nvcc runs",
        ),
        ("nvcc -O3 --run", "['']", "3:44", "--run", "it runs a program"),
        (
            "nvcc -O3 -o /tmp/elsewhere",
            "['']",
            "3:44",
            "-o /tmp/elsewhere",
            "it writes output where orcu does not look",
        ),
        ("nvcc -odir /tmp", "['']", "3:40", "-odir /tmp", "it writes output where orcu does not look"),
        # from a parameter's value: at that value
        (
            "nvcc -O3 @CF@",
            "['', '-Xcompiler -fplugin=evil.so']",
            "2:46",
            "-Xcompiler -fplugin=evil.so",
            "it hands '-fplugin=evil.so' to the host compiler",
        ),
        (
            "nvcc -O3 @CF@",
            "['-Xcompiler=-O2,-B/tmp']",
            "2:42",
            "-Xcompiler=-O2,-B/tmp",
            "it hands '-B/tmp' to the host compiler",
        ),
        ("nvcc -Xlinker -rpath=/x", "['']", "3:40", "-Xlinker -rpath=/x", "it changes what the linker loads"),
        (
            "nvcc -Xptxas -v,--compile-only",
            "['']",
            "3:40",
            "-Xptxas -v,--compile-only",
            "ptxas option '--compile-only' does more than report or tune",
        ),
    ],
)
def test_refused_build_flags_are_located_by_check(in_tmp, capsys, command, cflags, where, flag, why):
    assert main(["check", spec_file(in_tmp, command, cflags)]) == 2
    assert capsys.readouterr().err.split("\n")[0] == f"t.c:{where}: error: build flag '{flag}' refused: {why}{REMEDY}"
    assert main(["check", "t.c", "--trust-spec"]) == 0


def test_flags_tuning_needs_are_accepted(in_tmp):
    command = (
        "nvcc -O3 -use_fast_math -ftz=true -prec-div=false -fmad=true -DTILE=@CF@ -I include -maxrregcount 64 "
        "-Xptxas -v,-dlcm=cg,--warn-on-spills -lineinfo -arch=sm_90 -gencode arch=compute_90,code=sm_90 "
        "-Xcompiler -O3,-march=native -lcublas -std=c++17"
    )
    assert main(["check", spec_file(in_tmp, command, "[8, 16]")]) == 0


def spy(directory, name, real, log):
    """An executable that records its arguments, one per line, then runs the real tool."""
    path = directory / name
    path.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" >> {log}\necho ---- >> {log}\nexec {real} "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_refused_flags_reach_nvcc_only_when_trusted(in_tmp, monkeypatch):
    log = in_tmp / "calls.log"
    bin_dir = in_tmp / "bin"
    bin_dir.mkdir()
    host_dir = os.path.dirname(shutil.which("g++"))  # a real toolchain directory: -ccbin is harmless here
    spy(bin_dir, "nvcc", shutil.which("nvcc"), log)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("CXX", str(spy(bin_dir, "spy-g++", shutil.which("g++"), log)))
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    source = SPEC.format(command=f"nvcc -O3 -ccbin {host_dir} @CF@", cflags="['-DONE=1']")
    # Not trusted: the tune stops at the flag, before any build.
    write(in_tmp / "t.c", source)
    assert main(["tune", "t.c", "--backend", "emulate"]) == 2
    assert not log.exists() and not (in_tmp / "home" / "build").exists()
    # Trusted (what --trust-spec does): the flags go to nvcc exactly as the spec wrote them.
    result = evaluate(in_tmp, source, backend="cuda", params={"CF": "-DONE=1"})
    assert result.status != "compile_error", result.message
    calls = [c.split("\n") for c in log.read_text().split("----\n") if c.strip()]
    assert len(calls) == 1
    # then orcu's own -Xptxas -v: the model reads each kernel's registers from ptxas's report
    assert calls[0][:9] == ["-arch", "sm_90", "-O3", "-ccbin", host_dir, "-DONE=1", "-Xptxas", "-v", "-o"]


@pytest.mark.gpu
def test_trusted_refused_flags_reach_nvcc_on_the_gpu(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    host_dir = os.path.dirname(shutil.which("g++"))
    write(in_tmp / "t.c", SPEC.format(command=f"nvcc -O3 -ccbin {host_dir} @CF@", cflags="['']"))
    assert main(["tune", "t.c", "--backend", "cuda"]) == 2
    assert main(["tune", "t.c", "--backend", "cuda", "--trust-spec"]) == 0


def test_prebuild_and_postbuild_run_only_when_trusted(in_tmp, monkeypatch, capsys):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    source = SPEC.format(command="nvcc -O3", cflags="['']").replace(
        "arg build_command = 'nvcc -O3';",
        "arg build_command = 'nvcc -O3'; arg prebuild_command = 'touch before'; arg postbuild_command = 'touch after';",
    )
    write(in_tmp / "t.c", source)
    assert main(["tune", "t.c", "--backend", "emulate"]) == 0
    err = capsys.readouterr().err
    assert (
        err.count(
            "orcu: warning: the spec's prebuild_command and postbuild_command were not run: commands from a "
            "spec run only with --trust-spec\n"
        )
        == 1
    )
    assert not (in_tmp / "before").exists() and not (in_tmp / "after").exists()
    assert main(["tune", "t.c", "--backend", "emulate", "--trust-spec"]) == 0
    assert (in_tmp / "before").exists() and (in_tmp / "after").exists()


def test_an_input_that_cannot_fit_is_invalid_before_anything_runs(in_tmp):
    source = SPEC.format(command="nvcc -O3", cflags="['']").replace("param n[] = [1000];", "param n[] = [2 ** 40];")
    result = evaluate(in_tmp, source)
    assert (result.compile_s, result.run_s) == (0.0, 0.0)  # nothing was built or run
    assert (result.status, result.message) == (
        "invalid",
        "the arrays (y 4.0 TiB) need 4.0 TiB of device memory; NVIDIA H100 80GB HBM3 has 79.0 GiB",
    )
    assert not (in_tmp / "build").exists() or not any((in_tmp / "build").iterdir())


def test_a_run_that_allocates_without_bound_crashes_alone(in_tmp):
    write(in_tmp / "t.c", SPEC.format(command="nvcc -O3", cflags="['']"))
    program = load("t.c")
    runner = Runner("emulate", H100, in_tmp / "build", jobs=1, address_limit=2**30)
    runaway = planted(
        "    const long long orcu_lo",
        "    for (;;) {  // planted: allocates until it fails\n"
        "        char *orcu_p = (char *)malloc(1 << 24);\n        if (orcu_p == NULL)\n            abort();\n"
        "        memset(orcu_p, 1, 1 << 24);\n    }\n    const long long orcu_lo",
    )
    result = next(runner.evaluate(program, 0, [({"CF": ""}, {"n": 1000})], runaway))
    assert result.status == "crash"
    assert result.message.startswith("killed by SIGABRT") and result.message.endswith(
        "(runs may take 1.0 GiB of address space)"
    )


def test_a_space_the_constraints_empty_is_a_diagnostic(in_tmp, capsys):
    write(
        in_tmp / "t.c",
        SPEC.format(command="nvcc -O3", cflags="['']").replace(
            " def performance_params { param CF[] = ['']; }",
            " def performance_params {\n     param CF[] = [''];\n     param TC[] = [32, 64, 128];\n     constraint big = TC >= 64;\n"
            "     constraint huge = TC > 512;\n     constraint never = TC < 0;\n }",
        ),
    )
    for command in (["check", "t.c"], ["tune", "t.c", "--backend", "emulate"]):
        assert main(command) == 2
        assert capsys.readouterr().err.split("\n")[:3] == [
            "t.c:6:24: error: constraint 'huge' leaves no configuration for n=1000: there were 2 before it",
            "     constraint huge = TC > 512;",
            "                       ^",
        ]


def test_tuned_text_does_not_depend_on_the_directory_orcu_ran_in(in_tmp, monkeypatch):
    (in_tmp / "src").mkdir()
    (in_tmp / "out").mkdir()
    write(in_tmp / "src" / "t.c", SPEC.format(command="nvcc -O3", cflags="['']"))
    assert main(["emit", "src/t.c", "-o", "out/t.cu"]) == 0
    monkeypatch.chdir(in_tmp / "src")
    assert main(["emit", "t.c", "-o", "../out/again.cu"]) == 0
    first, again = (in_tmp / "out" / "t.cu").read_text(), (in_tmp / "out" / "again.cu").read_text()
    assert first == again and "// Kernel of the loop at ../src/t.c:10 in f():" in first
