"""What a new user hits first: budgets, encodings, the state directory, outputs, noisy times, help."""

import argparse
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import H100, write

from orcu.driver.cli import build_parser, main
from orcu.driver.database import Database
from orcu.driver.tuning import EXTRA_ROUNDS, RETIME_ROUNDS, RegionTuning, _Builds, _retime
from orcu.execution.result import Result
from orcu.execution.runners import Runner
from orcu.planning.program import load

SOURCE = """/*@ begin PerfTuning (
 def performance_params {{ param TC[] = {threads}; }}
 def input_params {{ param n[] = [1000]; }}
 def input_vars {{ decl dynamic float y[n] = random; }}
) @*/
{comment}void f(int n, float *y) {{
    int i;
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) y[i] = 2.0f * y[i];
    ) @*/
    /*@ end @*/
}}
/*@ end @*/
"""


def source(threads="[64, 128]", comment=""):
    return SOURCE.format(threads=threads, comment=comment)


def tune(*args, home, cwd):
    return subprocess.run(
        [sys.executable, "-m", "orcu", "tune", *args, "--backend", "emulate"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, ORCU_HOME=str(home)),
    )


@pytest.mark.slow
def test_device_limits_prune_the_space_before_the_budget_is_spent(in_tmp, capsys):
    write(in_tmp / "t.c", source("range(1, 100001)"))
    assert main(["check", "t.c"]) == 0
    assert (
        "  cannot be built: 98976 of 100000 configuration(s) (they break: threadCount <= 1024 (threads per block of "
        "NVIDIA H100 80GB HBM3))\n" in capsys.readouterr().out
    )
    proc = tune("t.c", "--budget", "3", "--json", home=in_tmp / "home", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    region = json.loads(proc.stdout)["regions"][0]
    assert region["statuses"] == {"ok": 3} and region["best"]["params"]["TC"] <= 1024
    assert region["evaluated"] == {"new": 3, "cached": 0, "same_build": 0}  # the budget spent on buildable ones only


def test_bytes_outside_utf8_in_comments_and_strings_are_kept(in_tmp):
    text = source(comment='/* caf\udce9 au lait */\nstatic const char *motto = "d\udce9j\udce0 vu";\n')
    (in_tmp / "t.c").write_bytes(text.encode("utf-8", "surrogateescape"))
    assert main(["emit", "t.c", "-o", "t.cu"]) == 0
    tuned = (in_tmp / "t.cu").read_bytes()
    assert b"/* caf\xe9 au lait */" in tuned and b'"d\xe9j\xe0 vu"' in tuned
    proc = tune("t.c", "--budget", "1", home=in_tmp / "home", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    assert b"/* caf\xe9 au lait */" in (in_tmp / "t.tuned.cu").read_bytes()


def test_bytes_outside_utf8_in_code_are_located(in_tmp, capsys):
    (in_tmp / "t.c").write_bytes(source().replace("float *y)", "float *y\udce9)").encode("utf-8", "surrogateescape"))
    assert main(["check", "t.c"]) == 2
    assert capsys.readouterr().err == (
        "t.c:6:23: error: byte 0xE9 is not UTF-8: orcu reads C code as UTF-8 "
        "(other bytes may stand in comments and strings)\n"
        "void f(int n, float *y?) {\n"
        "                      ^\n"
    )


@pytest.mark.parametrize(
    "command",
    [["tune", "t.c", "--backend", "emulate"], ["apply", "t.c", "--backend", "emulate"], ["report"], ["devices"]],
)
def test_a_state_directory_that_is_a_file_is_said_at_once(in_tmp, monkeypatch, capsys, command):
    write(in_tmp / "t.c", source())
    write(in_tmp / "state", "")
    monkeypatch.setenv("ORCU_HOME", "state")
    monkeypatch.setattr("orcu.device.gpu_visible", lambda: True)  # devices would look for the cache
    assert main(command) == 2
    assert capsys.readouterr().err == (
        "orcu: error: ORCU_HOME=state is not a directory: orcu keeps its results database and builds there\n"
    )


def test_an_output_that_cannot_be_written_is_found_before_tuning(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", source())
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["tune", "t.c", "--backend", "emulate", "-o", "nowhere/t.cu"]) == 2
    assert capsys.readouterr().err == "orcu: error: cannot write nowhere/t.cu: there is no directory nowhere\n"
    assert not (in_tmp / "home" / "results.sqlite").exists()  # nothing was tuned
    (in_tmp / "t.tuned.cu").mkdir()
    assert main(["tune", "t.c", "--backend", "emulate"]) == 2
    assert capsys.readouterr().err == "orcu: error: cannot write t.tuned.cu: it is a directory\n"


def test_a_write_that_fails_after_tuning_points_to_apply(in_tmp, monkeypatch, capsys):
    from orcu.errors import UsageError

    def full_disk(path, text, source):
        raise UsageError(f"cannot write {path}: No space left on device")

    write(in_tmp / "t.c", source())
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    monkeypatch.setattr("orcu.driver.writeback.write_atomically", full_disk)
    assert main(["tune", "t.c", "--backend", "emulate"]) == 2
    assert capsys.readouterr().err.endswith(
        "orcu: error: cannot write t.tuned.cu: No space left on device; the results are in the database: "
        "orcu apply t.c -o OTHER writes them elsewhere\n"
    )


class NoisyRunner:
    """Stands in for the GPU: the same configuration's times jump around (a busy machine)."""

    measure = "kernel"

    def __init__(self, noise):
        self.noise = iter(noise)
        self.calls = 0

    def evaluate(self, program, region, configs):
        self.calls += 1
        params, inputs = configs[0]
        yield Result("ok", params, inputs, kernel_ms=[next(self.noise)] * 5, total_ms=[1.0] * 5)


# Runs alternate between the two candidates: [1, 1, 3, 3] gives each of them 1 ms and 3 ms in turn.
@pytest.mark.parametrize("noise, unsteady", [([1.0] * 99, False), ([1.0, 1.0, 3.0, 3.0] * 25, True)])
def test_a_noisy_winner_is_re_timed_more_and_named(in_tmp, noise, unsteady):
    write(in_tmp / "t.c", source())
    program = load("t.c")
    tuning = RegionTuning(0, "orcu_f_1", 8, {"n": 1000}, ("TC",))
    tuning.results = [
        Result("ok", {"TC": 64}, {"n": 1000}, kernel_ms=[1.0, 1.0, 3.0, 3.0, 1.0], total_ms=[1.0] * 5),
        Result("ok", {"TC": 128}, {"n": 1000}, kernel_ms=[1.05] * 5, total_ms=[1.0] * 5),
    ]
    runner = NoisyRunner(noise)
    db = Database(in_tmp / "r.sqlite")
    builds = _Builds(program, 0, {"n": 1000}, Runner("emulate", H100, in_tmp / "build"))
    _retime(program, runner, db, tuning, lambda params: json.dumps(params), builds)
    assert runner.calls == 2 * (RETIME_ROUNDS + (EXTRA_ROUNDS if unsteady else 0))
    assert tuning.unsteady == unsteady and tuning.runs == len(tuning.final.kernel_ms)


def test_the_warning_names_an_unsteady_winner(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", source())
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    monkeypatch.setattr("orcu.driver.tuning.UNSTEADY", -1.0)  # every winner counts as unsteady
    assert (
        main(["tune", "t.c", "--backend", "emulate", "--measure", "kernel"]) == 0
    )  # the model's predictions do not spread
    warning = re.search(
        r"orcu: warning: orcu_f_1 n=1000: the winner's times still spread over \d+% of their median "
        r"after \d+ runs \(interquartile range\): other work on the machine may have disturbed them; "
        r"tune again on a quiet machine before relying on the choice\n",
        capsys.readouterr().err,
    )
    assert warning is not None


def test_every_positional_argument_is_described():
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        for action in sub._actions:
            if not action.option_strings:
                assert action.help, f"orcu {name}: '{action.dest}' has no description"


def test_report_fits_in_100_columns(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", source())
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["tune", "t.c", "--backend", "emulate"]) == 0
    capsys.readouterr()
    assert main(["report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert any("H100 80GB" in line for line in lines) and any("emulated" in line for line in lines)


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--budget", "0"], "argument --budget: must be a whole number above 0, got '0'"),
        (["--budget", "-3"], "argument --budget: must be a whole number above 0, got '-3'"),
        (["--time-limit", "0"], "argument --time-limit: must be a number above 0, got '0'"),
        (["-j", "0"], "argument -j/--jobs: must be a whole number above 0, got '0'"),
    ],
)
def test_limits_that_mean_nothing_are_refused_before_anything_runs(in_tmp, arguments, message):
    write(in_tmp / "t.c", source("[64, 128]"))
    proc = tune("t.c", *arguments, home=in_tmp / "home", cwd=in_tmp)
    assert proc.returncode == 2 and proc.stderr.splitlines()[-1] == f"orcu tune: error: {message}"
    assert not (in_tmp / "home").exists()  # nothing was tuned


def test_a_missing_file_is_the_one_thing_said(in_tmp):
    proc = tune("nosuch.c", home=in_tmp / "home", cwd=in_tmp)
    assert (proc.returncode, proc.stderr) == (2, "orcu: error: no such file: nosuch.c\n")


def test_apply_runs_nothing_and_says_nothing_of_running(in_tmp, capsys, monkeypatch):
    write(in_tmp / "t.c", source("[64, 128]"))
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert tune("t.c", "--backend", "emulate", home=in_tmp / "home", cwd=in_tmp).returncode == 0
    capsys.readouterr()
    # auto without a GPU: the emulation's results, with no word of variants running
    monkeypatch.setattr("orcu.device.gpu_visible", lambda: False)
    assert main(["apply", "t.c", "-o", "applied.cu"]) == 0
    assert capsys.readouterr().err == "orcu: wrote applied.cu and applied.h\n"
    help_text = (
        build_parser().format_help() + build_parser()._subparsers._group_actions[0].choices["apply"].format_help()
    )
    assert (
        "whose results to write" in help_text and "cuda: run on the GPU" not in help_text.split("usage: orcu apply")[1]
    )


def test_a_decl_no_code_names_draws_a_note_at_it(in_tmp, capsys):
    write(
        in_tmp / "t.c",
        source().replace(
            "decl dynamic float y[n] = random;", "decl dynamic float y[n] = random; decl dynamic float yy[n] = 0;"
        ),
    )
    assert main(["check", "t.c"]) == 0
    assert capsys.readouterr().err == (
        "t.c:4:72: note: decl 'yy' is named by no code this spec tunes: orcu makes and fills it for nothing\n"
    )
    write(in_tmp / "u.c", source())
    assert main(["check", "u.c"]) == 0 and capsys.readouterr().err == ""


@pytest.mark.parametrize("command", [["report"], ["report", "--csv", "out.csv"], ["export", "-o", "out.json"]])
def test_the_results_of_a_missing_file_are_no_such_file(in_tmp, capsys, command):
    """As tune and check say it: exit 2, not an empty report that exits 0."""
    write(in_tmp / "here.c", SOURCE.format(threads="[32]", comment=""))
    assert main(command + ["nosuch.c"]) == 2
    assert "orcu: error: no such file: nosuch.c" in capsys.readouterr().err


TWO_COPIES = """void scale(int n, const double *x, double *y)
{{
    int i;
    double s;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [1000]; }}
    def input_vars {{ decl dynamic double x[n] = random; decl dynamic double y[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) {{
        s = x[i] * 2;
        y[i] = 2.0 * s;  // scaled
    }}
    ) @*/
    for (i = 0; i < n; i++) {{
{copy}
    }}
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("command", ["check", "tune"])
def test_two_copies_of_a_loop_that_differ_are_named_at_both_tokens(in_tmp, command):
    """Only the plain copy changed: check said nothing and tune ran every variant into
    wrong_result at 5.6e11 times the tolerance."""
    write(in_tmp / "t.c", TWO_COPIES.format(copy="        s = x[i] * 2;\n        y[i] = s;"))
    backend = ["--backend", "emulate"] if command == "tune" else []
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", command, "t.c", *backend],
        cwd=in_tmp,
        capture_output=True,
        text=True,
        env=dict(os.environ, ORCU_HOME=str(in_tmp / "home")),
    )
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-6:] == [
        "t.c:13:16: error: the loop in Loop(...) and its copy below differ here: '2.0' against 's'; the kernels are built "
        "from this one, the copy is what every variant is checked against: make them the same",
        "        y[i] = 2.0 * s;  // scaled",
        "               ^",
        "t.c:18:16: note: the copy has 's' here",
        "        y[i] = s;",
        "               ^",
    ]
    assert not (in_tmp / ".orcu").exists()  # nothing was built


@pytest.mark.parametrize(
    "copy", ["        s = x[i]*2;   /* as above */\n        y[i] = 2.0*s;", "        s = x[i] * 2; y[i] = 2.0 * s;"]
)
def test_copies_that_differ_only_in_spacing_and_comments_are_the_same_loop(in_tmp, copy):
    write(in_tmp / "t.c", TWO_COPIES.format(copy=copy))
    load("t.c")


def test_a_copy_cut_short_is_said_at_its_end(in_tmp):
    write(in_tmp / "t.c", TWO_COPIES.format(copy="        s = x[i] * 2;"))
    with pytest.raises(Exception) as info:
        load("t.c")
    assert info.value.render().startswith(
        "t.c:13:9: error: the loop in Loop(...) and its copy below differ here: 'y' against '}'"
    )


SAME_BUILDS = """void f(int n, float *y, float *z)
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64, 128, 256]; param UF[] = [1, 2, 3]; }
    def input_params { param n[] = [1000, 777]; }
    def input_vars { decl dynamic float y[n] = random; decl dynamic float z[n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, unrollInner=UF)
    for (i = 0; i < n; i++) y[i] = 2.0f * y[i];
    ) @*/
    /*@ end @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, unrollInner=UF)
    for (i = 0; i < n; i++) z[i] = 3.0f * z[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_progress_never_counts_past_its_total_and_same_builds_are_uncounted(in_tmp):
    """unrollInner changes nothing here: most configurations are the same build as one evaluated.
    Two regions and --budget 10 printed 6/5 ... 12/5."""
    write(in_tmp / "t.c", SAME_BUILDS)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--budget", "16"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
        env=dict(os.environ, ORCU_HOME=str(in_tmp / "home")),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    counts = [tuple(map(int, m.groups())) for m in re.finditer(r"^orcu:   (\d+)/(\d+) \[", proc.stderr, re.M)]
    assert counts and all(done <= total for done, total in counts)
    same = re.findall(r"^orcu:   = \[.*\(the same build as one evaluated: its result, at no cost\)$", proc.stderr, re.M)
    assert same


def test_a_budget_below_one_a_region_and_size_says_each_gets_one(in_tmp):
    write(in_tmp / "t.c", SAME_BUILDS)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--budget", "3"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
        env=dict(os.environ, ORCU_HOME=str(in_tmp / "home")),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (
        "orcu: note: --budget 3 is less than the tune's 4 region and input size pairs: each gets one evaluation, 4 "
        "in all"
    ) in proc.stderr.splitlines()


@pytest.mark.parametrize("columns", ["100", "80"])
def test_the_tune_and_report_tables_fit_the_width_they_are_given(in_tmp, columns):
    """The tune's table was 160 columns whatever the terminal (129 in a 100-column one), report
    --wide 240; each now takes the terminal's width ($COLUMNS where it is no terminal), folding
    long configurations onto several lines (report --wide, narrower than its table: one table
    a region and size, a figure a line)."""
    write(in_tmp / "t.c", SAME_BUILDS)
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"), COLUMNS=columns)
    tuned = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--budget", "4"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
        env=env,
    )
    wide = subprocess.run(
        [sys.executable, "-m", "orcu", "report", "t.c", "--wide"], cwd=in_tmp, capture_output=True, text=True, env=env
    )
    for proc in (tuned, wide):
        assert proc.returncode == 0, proc.stderr[-2000:]
        lines = proc.stdout.splitlines()
        assert lines and max(len(line) for line in lines) <= int(columns), proc.stdout
    assert "TC=256" in tuned.stdout and "TC=256, UF=" in wide.stdout


def test_check_tune_and_report_name_a_region_alike(in_tmp):
    """check said `f_1`, tune and report `orcu_f_1`."""
    write(in_tmp / "t.c", SAME_BUILDS)
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"))
    run = [sys.executable, "-m", "orcu"]
    check = subprocess.run([*run, "check", "t.c"], cwd=in_tmp, capture_output=True, text=True, env=env)
    tune = subprocess.run(
        [*run, "tune", "t.c", "--backend", "emulate", "--budget", "4"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
        env=env,
    )
    report = subprocess.run([*run, "report", "t.c"], cwd=in_tmp, capture_output=True, text=True, env=env)
    assert "region orcu_f_1 at line 9 in f()" in check.stdout
    assert "orcu_f_1" in tune.stdout and "t.c: orcu_f_1 (line 9), n=1000" in report.stdout


@pytest.mark.parametrize("n, small", [(1000, True), (16000000, False)])
def test_a_model_ranking_says_it_is_the_models_and_when_it_says_little(in_tmp, n, small):
    """At small sizes every variant was predicted at 6 to 9 us, and nothing said that the
    ranking was the model's, nor that such predictions cannot tell variants apart."""
    write(
        in_tmp / "t.c",
        SOURCE.format(threads="[32, 64]", comment="").replace("param n[] = [1000]", f"param n[] = [{n}]"),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
        env=dict(os.environ, ORCU_HOME=str(in_tmp / "home")),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (
        "orcu: note: the ranking above is orcu's performance model's, not a GPU's: no GPU ran these variants (the "
        "emulation checked each one)"
    ) in proc.stderr.splitlines()
    said = re.search(
        r"orcu: warning: orcu_f_1 n=\d+: the model predicts the winner's kernels at [\d.]+ us, a few "
        r"launches' cost",
        proc.stderr,
    )
    assert bool(said) == small, proc.stderr[-1500:]
