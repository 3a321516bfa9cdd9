"""Orio's own inputs, class by class (issue 11): each construct Orio accepts has a minimal
example in annotated_examples/orio/ that tunes with every variant ok, and what stays refused
says so exactly."""
import json
import shutil
import subprocess
import sys

import pytest

from conftest import EXAMPLES, evaluate, write
from orcu.harness import harness_source
from orcu.codegen.region import generate
from orcu.program import load
from orcu.writeback import Choice, tuned_source

ORIO = EXAMPLES / "orio"
# Files without a spec are tuned at the sizes given on the command line.
SIZES = {"no_spec.c": ["--input", "n=5000", "--input", "n=777"]}


def orcu(*args, cwd):
    return subprocess.run([sys.executable, "-m", "orcu", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.parametrize("example", sorted(p.name for p in ORIO.glob("*.c")))
def test_every_orio_construct_tunes_with_every_variant_ok(in_tmp, monkeypatch, example):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shutil.copytree(ORIO, in_tmp / "orio")
    proc = orcu("tune", f"orio/{example}", "--backend", "emulate", "--search", "Exhaustive", "--json",
                *SIZES.get(example, []), cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    for region in result["regions"]:
        assert set(region["statuses"]) == {"ok"}, region
    assert len(result["regions"]) == len(load(ORIO / example).nests)


def test_implicit_iterators_are_int(in_tmp):
    nest = load(ORIO / "implicit_iterators.c").nests[0]
    assert {n: (v.ctype.base, v.origin) for n, v in nest.variables.items() if n in "ij"} == {
        "i": ("int", "local"), "j": ("int", "local")}


def test_an_undeclared_name_that_is_no_iterator_is_still_refused(in_tmp):
    write(in_tmp / "t.c", (ORIO / "implicit_iterators.c").read_text().replace("a * A[i*n + j]", "c * A[i*n + j]"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == "t.c:11:26: error: 'c' is not declared: declare it in the enclosing function or in input_vars"


def test_a_sum_along_the_outer_loop_names_the_loop_that_could_be_parallel(in_tmp):
    write(in_tmp / "t.c", (ORIO / "column_sums.c").read_text().replace(", mapping='auto'", ""))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "t.c:13:13: error: 's[j]' (line 13) is a sum over iterations of 'i', which Orio's mapping spreads over threads; "
        "'j' has no dependence between its iterations: mapping='auto' lets the TSG spread it over threads instead")


def test_overlapping_bands_are_a_dependence(in_tmp):
    # y[i + n - 1] of iteration i is y[i' + n - ...]: with the band one element short, iterations meet.
    write(in_tmp / "t.c", (ORIO / "dia_bands.c").read_text().replace("y[i + n] = dia[i + n]", "y[i + n - 1] = dia[i + n]"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "t.c:12:9: error: loop-carried dependence on 'y': 'y[i]' (line 12) and 'y[(i + n) - 1]' (line 13) touch the same "
        "elements in different iterations of 'i'")


def test_a_scalar_set_on_one_branch_only_is_carried(in_tmp):
    write(in_tmp / "t.c", (ORIO / "private_scalars.c").read_text().replace("        else\n            t = -s;\n", ""))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "t.c:16:9: error: 't' carries a value from one iteration of the outer loop to the next (loop-carried dependence)")


def test_host_statements_around_the_loop_run_around_the_kernel_and_are_checked(in_tmp):
    program = load(ORIO / "norm_host_after.c")
    nest = program.nests[0]
    assert (nest.before, nest.after, sorted(nest.host_writes)) == ("r = 0.0;\n", "\nr = sqrt(r);", ["r"])
    text, _ = tuned_source(program, [Choice({"TC": 32})])
    assert ("    r = 0.0;\n    orcu_nrm2_1(&r, n, x);  // the loop above, run on the GPU by orcu\n    r = sqrt(r);\n#endif"
            in text)
    # r after the region is one of the values the harness compares with the reference's.
    harness = harness_source(program, 0, [generate(program, nest, {"TC": 32}, {"n": 5000})], {"n": 5000})
    assert 'orcu_compare("r", -1, (double)r' in harness


def test_init_file_fills_the_inputs(in_tmp):
    shutil.copy(ORIO / "init_file_inputs.inc", in_tmp)
    result = evaluate(in_tmp, (ORIO / "init_file.c").read_text(), params={"TC": 32})
    # w[k] = 2 * k/n - 1 from the user's values: the worst (exact) element is the first, -1.
    assert (result.status, result.worst["name"], result.worst["want"]) == ("ok", "w", -1.0)


@pytest.mark.parametrize("name, message", [
    ("missing.inc", "t.c:14:13: error: cannot read the init_file 'missing.inc': No such file or directory"),
    ("t.c", "t.c:14:13: error: the init_file 't.c' defines no 'void init_input_vars()', the function that fills the "
            "inputs"),
])
def test_init_file_problems(in_tmp, name, message):
    write(in_tmp / "t.c", (ORIO / "init_file.c").read_text().replace("'init_file_inputs.inc'", f"'{name}'"))
    proc = orcu("check", "t.c", cwd=in_tmp)
    assert (proc.returncode, proc.stderr.splitlines()[0]) == (2, message)


def test_a_file_without_a_spec_says_what_it_needs_and_what_was_assumed(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shutil.copy(ORIO / "no_spec.c", in_tmp / "no_spec.c")
    missing = orcu("tune", "no_spec.c", "--backend", "emulate", cwd=in_tmp)
    assert missing.returncode == 2
    assert missing.stderr.splitlines()[-3] == ("no_spec.c:6:5: error: 'n' sets a loop bound or an array's size, and "
                                               "the file has no tuning spec: give its value with --input n=VALUE")
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


@pytest.mark.parametrize("args, message", [
    (["--input", "n"], "orcu: error: --input expects NAME=VALUE, got 'n'"),
    (["--input", "n=big"], "orcu: error: --input n: 'big' is not a number"),
    (["--input", "n=10", "--input", "q=3"], "orcu: error: --input q: no Loop region of no_spec.c uses 'q'"),
])
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
    assert wrong.stderr.splitlines()[-1] == "orcu: error: --input: 'N' is not an input parameter of the spec (did you mean 'n'?)"
