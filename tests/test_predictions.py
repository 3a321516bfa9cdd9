"""--backend model ranks variants it compiles and never runs: nothing it predicted reaches a build unchecked.
Its winners run in the emulation against the original code first; a prediction never overrides
what a run found wrong; apply and cc refuse unchecked results unless asked (--unchecked)."""

import json
import os
import subprocess
import sys

import pytest
from conftest import H100, planted, write

from orcu.driver.database import Context, Database
from orcu.driver.predictions import check_predictions
from orcu.driver.tuning import tune
from orcu.execution.result import NOT_RUN, Result
from orcu.execution.runners import Runner
from orcu.execution.toolchain import model_compiler
from orcu.planning.program import load

LOOP = """    for (i = 0; i < n; i++) {
        double s = 0;
        for (j = 0; j < n; j++)
            s += A[i*n + j] * x[j];
        y[i] = s;
    }"""
MATVEC = f"""void matvec(int n, const double *A, const double *x, double *y) {{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64, 128, 256]; }}
    def input_params {{ param n[] = [77]; }}
    def input_vars {{
        decl dynamic double A[n*n] = random;
        decl dynamic double x[n] = random;
        decl dynamic double y[n] = 0;
    }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
{LOOP}
    ) @*/
{LOOP}
    /*@ end @*/
    /*@ end @*/
}}
"""
MAIN = """#include <stdio.h>
void matvec(int n, const double *A, const double *x, double *y);
int main(void) {
    enum { n = 77 };
    static double A[n * n], x[n], y[n];
    for (int k = 0; k < n * n; k++) A[k] = (k % 13) * 0.25 - 1.0;
    for (int k = 0; k < n; k++) x[k] = (k % 7) * 0.5;
    matvec(n, A, x, y);
    for (int k = 0; k < n; k += 19) printf("%.6f\\n", y[k]);
    return 0;
}
"""


def orcu(*arguments, cwd, home, **env):
    return subprocess.run(
        [sys.executable, "-m", "orcu", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "ORCU_HOME": str(home), **env},
    )


def contexts(program, backend):
    source = program.src.text
    return lambda k: Context(
        program.src.path,
        f"orcu_{program.nests[k].name}",
        program.nests[k].loc.line,
        source,
        backend,
        f"H100 {backend}",
        backend,
    )


def test_a_model_tune_then_cc_builds_what_gcc_builds(in_tmp):
    write(in_tmp / "matvec.c", MATVEC)
    write(in_tmp / "main.c", MAIN)
    home = in_tmp / "home"
    tuned = orcu("tune", "matvec.c", "--backend", "model", "--json", cwd=in_tmp, home=home)
    assert tuned.returncode == 0, tuned.stderr
    best = json.loads(tuned.stdout)["regions"][0]["best"]
    assert best["status"] == "predicted" and best["checked"] is True
    built = orcu("cc", "--emulate", "--", "gcc", "main.c", "matvec.c", "-o", "app", cwd=in_tmp, home=home)
    assert built.returncode == 0, built.stderr
    subprocess.run(["gcc", "main.c", "matvec.c", "-o", "plain"], cwd=in_tmp, check=True)
    expected = subprocess.run(["./plain"], cwd=in_tmp, capture_output=True, text=True, check=True).stdout
    assert subprocess.run(["./app"], cwd=in_tmp, capture_output=True, text=True, check=True).stdout == expected


def test_the_model_compiles_every_variant_it_ranks_and_a_compile_error_is_its_status(in_tmp):
    program = load(write(in_tmp / "matvec.c", MATVEC))
    configs = [({"TC": tc, "mapping_1": "x=j(threads) y=i"}, {"n": 77}) for tc in (32, 64)]
    model = Runner("model", H100, in_tmp / "build", measure="model")
    results = list(model.evaluate(program, 0, configs))
    assert [r.status for r in results] == ["predicted", "predicted"]
    assert all(r.message == NOT_RUN for r in results)
    if model.compiler == "cuda":  # nvcc compiled them: ptxas's report reaches the model
        assert all(r.resources is not None and r.resources.registers > 0 for r in results)
    # a variant that does not compile is no prediction
    broken = list(
        Runner("model", H100, in_tmp / "build", measure="model").evaluate(
            program, 0, configs[:1], planted("__global__", "__global__ undeclared_type")
        )
    )
    assert broken[0].status == "compile_error" and "undeclared_type" in broken[0].message


def test_a_prediction_never_overrides_a_wrong_result_a_run_found(in_tmp):
    program = load(write(in_tmp / "matvec.c", MATVEC))
    inputs = {"n": 77}
    db = Database(in_tmp / "r.sqlite")
    emulated, predicted = contexts(program, "emulate"), contexts(program, "model")
    # an earlier emulated tune found TC=32 wrong (as it did before reductions were folded)
    wrong = Result(
        "wrong_result", {"TC": 32, "mapping_1": "x=j(threads) y=i"}, inputs, message="y[3] is 1.5, expected 2"
    )
    db.put(emulated(0).key(wrong.params, inputs), emulated(0), wrong)
    model = Runner("model", H100, in_tmp / "build", measure="model")
    (tuning,) = tune(program, model, db, predicted, search="Exhaustive")
    statuses = {
        r.params["TC"]: (r.status, r.message)
        for r in tuning.results
        if r.params.get("mapping_1") == wrong.params["mapping_1"]
    }
    assert statuses[32] == ("wrong_result", "a tune with --backend emulate found it so: y[3] is 1.5, expected 2")
    assert {statuses[tc][0] for tc in (64, 128, 256)} == {"predicted"}
    assert tuning.best.params != wrong.params


def test_a_winner_the_emulation_finds_wrong_gives_way_to_the_next_prediction(in_tmp):
    program = load(write(in_tmp / "matvec.c", MATVEC))
    db = Database(in_tmp / "r.sqlite")
    emulated, predicted = contexts(program, "emulate"), contexts(program, "model")
    (tuning,) = tune(
        program, Runner("model", H100, in_tmp / "build", measure="model"), db, predicted, search="Exhaustive"
    )
    ranked = sorted((r for r in tuning.results if r.status == "predicted"), key=lambda r: r.time_ms)
    first, second = ranked[0], ranked[1]
    # the check of the first finds it wrong (as recorded here before the check runs it)
    db.put(
        emulated(0).key(first.params, first.inputs),
        emulated(0),
        Result("wrong_result", first.params, first.inputs, message="planted"),
    )
    lines = []
    check_predictions(
        program,
        [tuning],
        Runner("emulate", H100, in_tmp / "build", measure="model"),
        db,
        predicted,
        emulated,
        progress=lines.append,
    )
    assert tuning.checked is True and tuning.best.params == second.params
    assert [line.rsplit(": ", 1)[1] for line in lines] == ["wrong_result", "ok"]
    assert db.get_choice(predicted(0), first.inputs, "model") == (second.params, second.time_ms, True, "")


@pytest.mark.slow
def test_a_size_too_slow_for_the_emulation_is_checked_at_a_smaller_one_and_says_so(in_tmp):
    # n^2 work on n elements: 10^10 multiply-adds at the larger size, a few megabytes
    pairs = (
        MATVEC.replace("param n[] = [77];", "param n[] = [77, 100000];")
        .replace("decl dynamic double A[n*n] = random;", "")
        .replace("const double *A, ", "")
        .replace("A[i*n + j] * x[j]", "x[i] * x[j]")
    )
    write(in_tmp / "pairs.c", pairs)
    proc = orcu("tune", "pairs.c", "--backend", "model", "--json", cwd=in_tmp, home=in_tmp / "home")
    assert proc.returncode == 0, proc.stderr
    large = json.loads(proc.stdout)["regions"][0]["per_input"][1]
    assert large["inputs"] == {"n": 100000} and large["best"]["checked"] is True
    assert large["best"]["check_note"].startswith(
        "checked at n=77 in the emulation: it cannot run n=100000 here (timeout: about "
    )
    assert f"orcu: note: orcu_matvec_1 n=100000: {large['best']['check_note']}" in proc.stderr


def test_apply_and_cc_refuse_an_unchecked_prediction_unless_asked(in_tmp):
    write(in_tmp / "matvec.c", MATVEC)
    write(in_tmp / "main.c", MAIN)
    home = in_tmp / "home"
    # without a C++ compiler nothing runs the emulation that checks the model's winner
    tuned = orcu("tune", "matvec.c", "--backend", "model", cwd=in_tmp, home=home, CXX="no-such-compiler")
    assert tuned.returncode == 1 and not (in_tmp / "matvec.tuned.cu").exists()
    assert (
        "orcu: note: orcu_matvec_1 n=77: no C++ compiler (g++) runs the emulation that checks the model's winners"
        in tuned.stderr
    )
    assert REFUSED in tuned.stderr and "orcu: error: no output written: the results are in the database" in tuned.stderr

    refused = orcu("apply", "matvec.c", "--backend", "model", "-o", "t.cu", cwd=in_tmp, home=home)
    assert refused.returncode == 1 and REFUSED in refused.stderr and not (in_tmp / "t.cu").exists()
    cc = orcu("cc", "--emulate", "--", "gcc", "main.c", "matvec.c", "-o", "app", cwd=in_tmp, home=home)
    assert cc.returncode != 0 and REFUSED in cc.stderr and not (in_tmp / "app").exists()

    checked = orcu("tune", "matvec.c", "--backend", "emulate", "--budget", "1", "-o", "t.cu", cwd=in_tmp, home=home)
    assert checked.returncode == 0 and UNCHECKED not in (in_tmp / "t.cu").read_text(), checked.stderr
    written = orcu("apply", "matvec.c", "--backend", "model", "--unchecked", "-o", "t.cu", cwd=in_tmp, home=home)
    assert written.returncode == 0 and "(--unchecked); its header says so" in written.stderr
    assert (
        "orcu: warning: t.cu held variants checked against the original code; it now holds predictions that no run "
        "checked (--unchecked)"
    ) in written.stderr
    assert UNCHECKED in (in_tmp / "t.cu").read_text()
    cc = orcu("cc", "--emulate", "--unchecked", "--", "gcc", "main.c", "matvec.c", "-o", "app", cwd=in_tmp, home=home)
    assert cc.returncode == 0 and (in_tmp / "app").exists(), cc.stderr
    tuned = orcu("tune", "matvec.c", "--backend", "model", "--unchecked", cwd=in_tmp, home=home, CXX="no-such-compiler")
    assert tuned.returncode == 0 and UNCHECKED in (in_tmp / "matvec.tuned.cu").read_text()
    # the variants and the tuned file are compiled by nvcc where it is installed (it needs no CXX), else by g++
    unbuilt = "orcu: note: matvec.tuned.cu is written without a compile of its own: g++ is not on PATH"
    assert (unbuilt in tuned.stderr) == (model_compiler() == "emulate")


REFUSED = (
    "orcu: error: orcu_matvec_1 n=77: the result was predicted by orcu's performance model and never checked "
    "against the original code; tune with --backend emulate or cuda, or pass --unchecked to use it anyway"
)
UNCHECKED = " * UNCHECKED (--unchecked): a variant here was ranked by orcu's performance model and never run"
