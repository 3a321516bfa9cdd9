"""Orio's own inputs, class by class (issue 11): each construct Orio accepts has a minimal
example in annotated_examples/orio/ that tunes with every variant ok, and what stays refused
says so exactly."""

import json
import shutil
import subprocess
import sys

import pytest
from conftest import EXAMPLES, ROOT, covering_results, evaluate, write

from orcu.codegen.region import generate
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.harness import harness_source
from orcu.execution.toolchain import compile_program
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space

ORIO = EXAMPLES / "orio"
# Files without a spec are tuned at the sizes given on the command line.
SIZES = {"no_spec.c": ["--input", "n=5000", "--input", "n=777"]}


def orcu(*args, cwd):
    return subprocess.run([sys.executable, "-m", "orcu", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(p.name for p in ORIO.glob("*.c")))
def test_every_orio_construct_tunes_with_every_variant_ok(in_tmp, monkeypatch, example):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shutil.copytree(ORIO, in_tmp / "orio")
    proc = orcu(
        "tune",
        f"orio/{example}",
        "--backend",
        "emulate",
        "--search",
        "Exhaustive",
        "--json",
        *SIZES.get(example, []),
        cwd=in_tmp,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    for region in result["regions"]:
        assert set(region["statuses"]) == {"ok"}, region
    assert len(result["regions"]) == len(load(ORIO / example).nests)


@pytest.mark.slow
def test_a_7_point_dia_product_at_128_cubed_validates_in_emulation(in_tmp):
    """Orio's matVec3D at its size, 2 million rows of 7 diagonals: each variant of the space's
    covering array (every pair of values of TC, BC and UIF) is checked whole against the C
    loop, memory counted for the model (the indirect x[col] has no static figures).
    bench/bench_emulation.py times it: seconds a variant, where it timed out before."""
    program = load(ROOT / "bench" / "kernels" / "matvec3d.c")
    results = covering_results(program, 0, {"m": 128, "n": 128, "p": 128, "nos": 7, "dof": 1}, in_tmp / "build")
    assert [r.status for r in results] == ["ok"] * 4, [r.message for r in results]
    assert all(r.counted["global_sites"] == 5 and r.counted["store_requests"] == 2**21 // 32 for r in results)


def test_implicit_iterators_are_int(in_tmp):
    nest = load(ORIO / "implicit_iterators.c").nests[0]
    assert {n: (v.ctype.base, v.origin) for n, v in nest.variables.items() if n in "ij"} == {
        "i": ("int", "local"),
        "j": ("int", "local"),
    }


def test_an_undeclared_name_that_is_no_iterator_is_still_refused(in_tmp):
    write(in_tmp / "t.c", (ORIO / "implicit_iterators.c").read_text().replace("a * A[i*n + j]", "c * A[i*n + j]"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert (
        proc.stderr.splitlines()[0]
        == "t.c:11:26: error: 'c' is not declared: declare it in the enclosing function or in input_vars"
    )


def test_a_sum_along_the_outer_loop_is_made_with_atomic_adds_under_orios_mapping(in_tmp):
    """It was refused (Orio's own kernel races on it); each thread now adds its share with
    atomicAdd, and check says so. A product along the loop, which atomicAdd cannot make, stays
    refused, naming the loop the TSG could spread over threads instead."""
    write(in_tmp / "t.c", (ORIO / "column_sums.c").read_text().replace(", mapping='auto'", ""))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    assert (
        "  atomicAdd: 's[j] += r[i] * A[(i * n) + j]' (line 13), a sum that the threads add to at once\n" in proc.stdout
    )
    write(in_tmp / "t.c", (in_tmp / "t.c").read_text().replace("s[j] += r[i]", "s[j] *= r[i]"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "t.c:13:13: error: 's[j]' (line 13) is a sum over iterations of 'i', which Orio's mapping spreads over threads; "
        "'j' has no dependence between its iterations: mapping='auto' lets the TSG spread it over threads instead"
    )


def test_overlapping_bands_are_a_dependence(in_tmp):
    # y[i + n - 1] of iteration i is y[i' + n - ...]: with the band one element short, iterations meet.
    write(
        in_tmp / "t.c", (ORIO / "dia_bands.c").read_text().replace("y[i + n] = dia[i + n]", "y[i + n - 1] = dia[i + n]")
    )
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "t.c:12:9: error: loop-carried dependence on 'y': 'y[i]' (line 12) and 'y[(i + n) - 1]' (line 13) touch the same "
        "elements in different iterations of 'i'"
    )


def test_a_scalar_set_on_one_branch_only_is_carried(in_tmp):
    write(in_tmp / "t.c", (ORIO / "private_scalars.c").read_text().replace("        else\n            t = -s;\n", ""))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "t.c:16:9: error: 't' carries a value from one iteration of the outer loop to the next (loop-carried dependence)"
    )


def test_host_statements_around_the_loop_run_around_the_kernel_and_are_checked(in_tmp):
    program = load(ORIO / "norm_host_after.c")
    nest, host = program.nests[0], program.hosts[0]
    assert (host.text, sorted(host.writes), host.repeated) == ("r = 0.0;\norcu_loop_0();\nr = sqrt(r);", ["r"], False)
    text, _ = tuned_source(program, [Choice({"TC": 32})])
    assert (
        "    r = 0.0;\n    orcu_nrm2_1(&r, n, x);  // the loop above, run on the GPU by orcu\n    r = sqrt(r);\n"
        "    (void)i;  // only the original loops above use it\n#endif" in text
    )
    # r after the region is one of the values the harness compares with the reference's.
    harness = harness_source(program, 0, [generate(program, nest, {"TC": 32}, {"n": 5000})], {"n": 5000}).text
    assert "const double orcu_got = (double)r;" in harness and 'orcu_compare("r", -1, orcu_got' in harness


def test_init_file_fills_the_inputs(in_tmp):
    shutil.copy(ORIO / "init_file_inputs.inc", in_tmp)
    result = evaluate(in_tmp, (ORIO / "init_file.c").read_text(), params={"TC": 32})
    # w[k] = 2 * k/n - 1 from the user's values: the worst (exact) element is the first, -1.
    assert (result.status, result.worst["name"], result.worst["want"]) == ("ok", "w", -1.0)


@pytest.mark.parametrize(
    "name, message",
    [
        ("missing.inc", "t.c:14:13: error: cannot read the init_file 'missing.inc': No such file or directory"),
        (
            "t.c",
            "t.c:14:13: error: the init_file 't.c' defines no 'void init_input_vars()', the function that fills the "
            "inputs",
        ),
    ],
)
def test_init_file_problems(in_tmp, name, message):
    write(in_tmp / "t.c", (ORIO / "init_file.c").read_text().replace("'init_file_inputs.inc'", f"'{name}'"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert (proc.returncode, proc.stderr.splitlines()[0]) == (2, message)


def test_a_file_without_a_spec_says_what_it_needs_and_what_was_assumed(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shutil.copy(ORIO / "no_spec.c", in_tmp / "no_spec.c")
    missing = orcu("tune", "no_spec.c", "--backend", "emulate", cwd=in_tmp)
    assert missing.returncode == 2
    assert missing.stderr.splitlines()[-3] == (
        "no_spec.c:6:5: error: 'n' sets a loop bound or an array's size, and "
        "the file has no tuning spec: give its value with --input n=VALUE"
    )
    tuned = orcu("tune", "no_spec.c", "--backend", "emulate", "--input", "n=1000", "--budget", "2", cwd=in_tmp)
    assert tuned.returncode == 0, tuned.stderr
    assert tuned.stderr.splitlines()[:5] == [
        "orcu: note: no_spec.c has no tuning spec: orcu assumed one (a PerfTuning region or a .orcu.yaml spec replaces it)",
        "orcu: note: sizes from --input: n=1000",
        "orcu: note: arrays as far as their subscripts reach, at random: y[n], x[n]",
        "orcu: note: scalars at random: a",
        "orcu: note: orcu_VecAXPY_1 leaves its launch shape unset: searched blockCount in "
        "[device_sms * k for k in [1, 2, 4, 8]]",
    ]
    checked = orcu("check", "no_spec.c", "--input", "n=1000", "--json", cwd=in_tmp)
    assert checked.returncode == 0 and json.loads(checked.stdout)["spec"] == "assumed"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--input", "n"], "orcu: error: --input expects NAME=VALUE, got 'n'"),
        (["--input", "n=big"], "orcu: error: --input n: 'big' is not a number"),
        (["--input", "n=10", "--input", "q=3"], "orcu: error: --input q: no Loop region of no_spec.c uses 'q'"),
    ],
)
def test_bad_inputs(in_tmp, args, message):
    shutil.copy(ORIO / "no_spec.c", in_tmp / "no_spec.c")
    proc = orcu("check", "no_spec.c", *args, cwd=in_tmp)
    assert (proc.returncode, proc.stderr.splitlines()[-1]) == (2, message)


def test_input_replaces_the_spec_sizes(in_tmp):
    shutil.copytree(ORIO, in_tmp / "orio")
    proc = orcu("check", "orio/dia_bands.c", "--input", "n=64", "--input", "n=128", "--json", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    assert [(p["name"], p["values"]) for p in json.loads(proc.stdout)["input_params"]] == [("n", [64, 128])]
    wrong = orcu("check", "orio/dia_bands.c", "--input", "N=3", cwd=in_tmp)
    assert (
        wrong.stderr.splitlines()[-1]
        == "orcu: error: --input: 'N' is not an input parameter of the spec (did you mean 'n'?)"
    )


# Drivers that run a tuned file's function on fixed inputs and print every element.
DRIVERS = {
    "two_kernels.c": ("waxpy_then_scale(n, 1.5, x, y, w)", ["x", "y", "w"]),
    "time_steps.c": ("jacobi1d(7, n, a, b)", ["a", "b"]),
}


@pytest.mark.parametrize("example", sorted(DRIVERS))
def test_loops_of_one_region_share_their_arrays_on_the_device(in_tmp, example):
    """The tuned file keeps the region's arrays on the device across its kernels (copied in and
    out once) and computes what the original C code computes."""
    program = load(ORIO / example)
    inputs = next(iter(input_space(program).configs()))
    text, _ = tuned_source(program, [Choice(performance_space(program, inputs).config(0), inputs)] * len(program.nests))
    assert "stay on the device while the region's loops run: copied in once, back once" in text
    assert text.count("orcu_resident_in(") == len(DRIVERS[example][1]) + 1  # one per array, and its definition
    _same_as_the_original(in_tmp, text, *DRIVERS[example])


def _same_as_the_original(in_tmp, text: str, call: str, arrays: list[str]) -> None:
    """The tuned file's function, run on fixed inputs in the emulation, prints what the original
    C code (-DORCU_ORIGINAL) prints."""
    write(in_tmp / "case.cu", text)
    fill = "\n".join(
        f"    static double {a}[1000]; for (int k = 0; k < 1000; k++) {a}[k] = 0.25 + (k * {j + 3} % 17) / 8.0;"
        for j, a in enumerate(arrays)
    )
    show = "\n".join(f'    for (int k = 0; k < 1000; k++) printf("%.17g\\n", {a}[k]);' for a in arrays)
    write(
        in_tmp / "main.cu",
        f'#include <stdio.h>\n#include "case.cu"\nint main(void)\n{{\n    int n = 1000;\n{fill}\n'
        f"    {call};\n{show}\n    return 0;\n}}\n",
    )
    outputs = []
    for defines in ({}, {"ORCU_ORIGINAL": "1"}):
        built = compile_program("emulate", in_tmp / "main.cu", in_tmp / "main", defines=defines)
        assert built.ok, built.message
        run = subprocess.run([str(in_tmp / "main")], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        outputs.append([float(v) for v in run.stdout.split()])
    assert len(outputs[0]) == 1000 * len(arrays) and outputs[0] == outputs[1]


# Host statements at the end of each time step of time_steps.c, and the copies each makes.
HOST_STATEMENTS = {
    # reads an element a kernel wrote, writes one a kernel reads
    "a[0] = a[1];": [
        "orcu_resident_sync(orcu_on_device_a, a, &(a[1]), sizeof(a[1]), orcu_a_bytes, false);  "
        "// 'a[1]' back: a kernel may have written it",
        "orcu_resident_sync(orcu_on_device_a, a, &(a[0]), sizeof(a[0]), orcu_a_bytes, true);  "
        "// 'a[0]' to the device: later kernels read it there",
    ],
    # an update reads its element first; subscripts from the step
    "b[t % 7 + 1] += 2.0 * a[t + 2];": [
        "orcu_resident_sync(orcu_on_device_b, b, &(b[(t % 7) + 1]), sizeof(b[(t % 7) + 1]), orcu_b_bytes, false);  "
        "// 'b[(t % 7) + 1]' back: a kernel may have written it",
        "orcu_resident_sync(orcu_on_device_a, a, &(a[t + 2]), sizeof(a[t + 2]), orcu_a_bytes, false);  "
        "// 'a[t + 2]' back: a kernel may have written it",
        "orcu_resident_sync(orcu_on_device_b, b, &(b[(t % 7) + 1]), sizeof(b[(t % 7) + 1]), orcu_b_bytes, true);  "
        "// 'b[(t % 7) + 1]' to the device: later kernels read it there",
    ],
    # a loop left to the host: the whole arrays it names
    "for (int k = 0; k < 5; k++) b[k * 3] = a[k] - b[k];": [
        "orcu_resident_sync(orcu_on_device_a, a, a, orcu_a_bytes, orcu_a_bytes, false);  "
        "// all of 'a' back: a kernel may have written it",
        "orcu_resident_sync(orcu_on_device_b, b, b, orcu_b_bytes, orcu_b_bytes, false);  "
        "// all of 'b' back: a kernel may have written it",
        "orcu_resident_sync(orcu_on_device_b, b, b, orcu_b_bytes, orcu_b_bytes, true);  "
        "// all of 'b' to the device: later kernels read it there",
    ],
    # the last element, which no kernel reaches, and a subscript the statement changes
    "a[n - 1] = a[n - 2] * 0.5; a[t++ % 3] = 1.0; t--;": None,
}


@pytest.mark.parametrize("statement", sorted(HOST_STATEMENTS))
def test_host_statements_between_the_loops_move_only_what_they_touch(in_tmp, statement):
    """Host code that reads and writes array elements between the kernels leaves the arrays on the
    device: each statement copies back the elements it reads that a kernel may have written and
    sends the ones it writes (the whole arrays for a loop or a statement that changes its
    subscripts), and the tuned file computes what the C code computes."""
    source = (ORIO / "time_steps.c").read_text().replace("    }\n    ) @*/", f"        {statement}\n    }}\n    ) @*/")
    write(in_tmp / "t.c", source)
    program = load("t.c")
    text, _ = tuned_source(program, [Choice({"TC": 32}, {})] * 2)
    assert "b, a stay on the device while the region's loops run" in text and text.count("orcu_resident_in(") == 3
    syncs = [line.strip() for line in text.splitlines() if "orcu_resident_sync(" in line and "static" not in line]
    if HOST_STATEMENTS[statement] is not None:
        assert syncs == HOST_STATEMENTS[statement]
    else:  # the element beyond the kernels' reach: its copy is skipped at run time
        assert syncs[:2] == [
            "orcu_resident_sync(orcu_on_device_a, a, &(a[n - 2]), sizeof(a[n - 2]), orcu_a_bytes, false);  "
            "// 'a[n - 2]' back: a kernel may have written it",
            "orcu_resident_sync(orcu_on_device_a, a, &(a[n - 1]), sizeof(a[n - 1]), orcu_a_bytes, true);  "
            "// 'a[n - 1]' to the device: later kernels read it there",
        ] and syncs[2:4] == [
            "orcu_resident_sync(orcu_on_device_a, a, a, orcu_a_bytes, orcu_a_bytes, false);  "
            "// all of 'a' back: a kernel may have written it",
            "orcu_resident_sync(orcu_on_device_a, a, a, orcu_a_bytes, orcu_a_bytes, true);  "
            "// all of 'a' to the device: later kernels read it there",
        ]
    _same_as_the_original(in_tmp, text, *DRIVERS["time_steps.c"])


def test_host_code_that_uses_an_array_as_a_pointer_keeps_them_moving_with_each_loop(in_tmp):
    source = (
        (ORIO / "time_steps.c").read_text().replace("    }\n    ) @*/", "        a[0] = jump(a + 1);\n    }\n    ) @*/")
    )
    write(in_tmp / "t.c", "static double jump(const double *p) { return p[0]; }\n" + source)
    program = load("t.c")
    text, _ = tuned_source(program, [Choice({"TC": 32}, {})] * 2)
    assert (
        "// Each loop moves its arrays to the device and back: the host code uses the array 'a' as a pointer.\n" in text
    ) and "orcu_resident_in" not in text


def test_host_code_that_dereferences_an_array_copies_that_element(in_tmp):
    """`*a = *b;` between the loops is `a[0] = b[0];` (frontend/pointers.py): the arrays stay on
    the device, the statement copies those two elements."""
    source = (ORIO / "time_steps.c").read_text().replace("    }\n    ) @*/", "        *a = *b;\n    }\n    ) @*/")
    write(in_tmp / "t.c", source)
    program = load("t.c")
    text, _ = tuned_source(program, [Choice({"TC": 32}, {})] * 2)
    syncs = [line.strip() for line in text.splitlines() if "orcu_resident_sync(orcu_on_device" in line]
    assert syncs == [
        "orcu_resident_sync(orcu_on_device_b, b, &(b[0]), sizeof(b[0]), orcu_b_bytes, false);  "
        "// 'b[0]' back: a kernel may have written it",
        "orcu_resident_sync(orcu_on_device_a, a, &(a[0]), sizeof(a[0]), orcu_a_bytes, true);  "
        "// 'a[0]' to the device: later kernels read it there",
    ]


def test_a_transform_must_precede_a_loop(in_tmp):
    source = (
        (ORIO / "two_kernels.c")
        .read_text()
        .replace(
            "    transform CUDA(threadCount=TC2)\n    for (j = 0; j <= n - 1; j++)\n        y[j] = 2.0 * w[j];\n",
            "    y[0] = 1.0;\n    transform CUDA(threadCount=TC2)\n",
        )
    )
    write(in_tmp / "t.c", source)
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.stderr.splitlines()[0] == (
        "t.c:15:5: error: 'transform CUDA(...)' applies to the statement after it, which must be a 'for' loop"
    )


@pytest.mark.slow
def test_the_loops_of_a_region_are_checked_together_as_the_tuned_file_runs_them(in_tmp, monkeypatch, capsys):
    from conftest import H100

    from orcu.codegen.resident import Resident
    from orcu.driver.chosen import run_together
    from orcu.execution.runners import Runner

    program = load(ORIO / "time_steps.c")
    inputs = next(iter(input_space(program).configs()))
    chosen = {k: Choice({"TC": 32}, inputs) for k in program.hosts[0].nests}
    runner = Runner("emulate", H100, in_tmp / "build", jobs=2)
    assert run_together(program, runner, 0, chosen).status == "ok"
    # Arrays left on the device (never copied back): each loop alone is right, the region is not.
    wrap = Resident.wrap
    monkeypatch.setattr(Resident, "wrap", lambda self, code: wrap(self, code).replace(", true);", ", false);"))
    result = run_together(program, runner, 0, chosen)
    assert result.status == "wrong_result" and " expected " in result.message
    # tune says so, and writes nothing.
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", (ORIO / "time_steps.c").read_text())
    from orcu.driver.cli import main

    assert main(["tune", "t.c", "--backend", "emulate"]) == 1
    assert not (in_tmp / "t.tuned.cu").exists()
    assert (
        "orcu: error: the loops of the Loop region at line 10 each passed alone, but not together as the tuned file "
        "runs them (wrong_result: "
    ) in capsys.readouterr().err


@pytest.mark.slow
def test_tune_json_reports_each_region_run_together_at_each_size(in_tmp):
    write(in_tmp / "t.c", (ORIO / "time_steps.c").read_text())
    proc = orcu("tune", "t.c", "--backend", "emulate", "--budget", "2", "--json", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    sizes = [dict(s) for s in input_space(load(ORIO / "time_steps.c")).configs()]
    runs = summary["together"]
    assert [(r["line"], r["inputs"]) for r in runs] == [(10, s) for s in sizes]
    # the host function's whole time holds its kernels' and the transfers
    assert all(0 < r["kernel_ms"] <= r["total_ms"] for r in runs)
    # one loop outside any host loop is its own run: nothing more to report
    write(in_tmp / "one.c", (EXAMPLES / "axpy.c").read_text())
    proc = orcu("tune", "one.c", "--backend", "emulate", "--budget", "1", "--json", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    assert "together" not in json.loads(proc.stdout)


def test_a_sum_not_reset_in_each_iteration_is_still_carried(in_tmp):
    write(in_tmp / "t.c", (ORIO / "loop_under_if.c").read_text().replace("        ysum = 0.0;\n", ""))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.stderr.splitlines()[0] == (
        "t.c:22:13: error: 'ysum' carries a value from one iteration of the outer loop to the next (loop-carried dependence)"
    )


def test_an_initial_value_that_is_no_number_is_a_diagnostic(in_tmp):
    write(in_tmp / "t.c", (ORIO / "loop_under_if.c").read_text().replace("= [-1, 0, 1];", "= [-1, 0.5, 'x'];"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert (
        proc.stderr.splitlines()[0]
        == "t.c:14:25: error: the initial value of 'offsets' must be numbers, got [-1, 0.5, 'x']"
    )


def test_init_file_in_a_yaml_spec(in_tmp):
    shutil.copy(ORIO / "init_file_inputs.inc", in_tmp)
    text = (ORIO / "init_file.c").read_text()
    loop = text[text.index("    /*@ begin Loop") : text.index("    /*@ end @*/\n    /*@ end @*/")] + "    /*@ end @*/\n"
    write(in_tmp / "t.c", text[: text.index("    /*@ begin PerfTuning")] + loop + "}\n")
    write(
        in_tmp / "t.c.orcu.yaml",
        "performance_params: {TC: [32]}\ninput_params: {n: [2000]}\ninput_vars:\n"
        + "".join(
            f"  - {decl}\n"
            for decl in (
                "dynamic double w[n] = 0",
                "dynamic double x[n]",
                "dynamic double y[n]",
                "double a",
                "double b",
            )
        )
        + "  - {init_file: init_file_inputs.inc}\n",
    )
    result = evaluate(in_tmp, (in_tmp / "t.c").read_text(), params={"TC": 32})
    assert (result.status, result.worst["name"], result.worst["want"]) == ("ok", "w", -1.0)


def test_decl_file_says_what_to_write_instead(in_tmp):
    write(in_tmp / "t.c", (ORIO / "init_file.c").read_text().replace("arg init_file", "arg decl_file"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.stderr.splitlines()[0] == (
        "t.c:14:13: error: 'decl_file' is not supported: orcu declares and allocates "
        "the inputs itself from 'decl' statements; an init_file may fill them"
    )
