"""orcu from Python (orcu/driver/api.py): every public function, its error type, an interrupted tune
resumed, results as tables and plots; and the command line over it (SIGINT, `orcu report`)."""

import json
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import time

import pytest
from conftest import write
from test_results import EIGHT

import orcu
from orcu.driver.plots import KINDS, figures

BCS = [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.fixture
def home(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", EIGHT)
    return in_tmp / "home"


def test_tune_returns_every_evaluation_and_the_files_it_wrote(home, in_tmp):
    tuning = orcu.tune("t.c", backend="emulate", search="Exhaustive", progress=False)
    assert isinstance(tuning, orcu.Tuning) and tuning.errors == [] and tuning.backend == "emulate"
    assert tuning.written == ["t.tuned.cu", "t.tuned.h"] and (in_tmp / "t.tuned.cu").is_file()  # C callers' header
    (region,) = tuning.regions
    assert (region.region, region.inputs, region.statuses, region.new) == ("orcu_f_1", {"n": 1000}, {"ok": 8}, 8)
    assert sorted(e.params["BC"] for e in region.evaluations) == BCS
    assert all(
        e.status == "ok" and e.measure == "model" and e.emulated and e.time_ms == e.predicted_ms
        for e in region.evaluations
    )
    assert region.best.time_ms == min(e.time_ms for e in region.evaluations)
    # the object `orcu tune --json` prints, and the tuned file, hold the same winner
    assert tuning.summary["regions"][0]["best"]["params"] == {"BC": region.best.params["BC"]}
    assert (
        f"blockCount={region.best.params['BC']}" in (in_tmp / "t.tuned.cu").read_text()
        or f"BC={region.best.params['BC']}" in (in_tmp / "t.tuned.cu").read_text()
    )
    records = tuning.records()
    assert len(records) == 8 and {r["status"] for r in records} == {"ok"} and {r["line"] for r in records} == {8}
    assert list(records[0])[:20] == [
        "file",
        "region",
        "line",
        "inputs",
        "params",
        "status",
        "time_ms",
        "total_ms",
        "kernel_ms",
        "gflop_s",
        "gb_s",
        "bound_fraction",
        "metrics",
        "backend",
        "device",
        "compiler",
        "created",
        "message",
        "total_samples",
        "kernel_samples",
    ]  # report --csv's
    assert all(isinstance(r["kernel_ms"], float) and r["kernel_samples"] for r in records)
    # each variant's rates at its own (predicted) time
    assert all(r["gflop_s"] == pytest.approx(r["metrics"]["flops"] / r["time_ms"] / 1e6) for r in records)
    frame = tuning.to_dataframe()
    assert len(frame) == 8 and list(frame["params"].map(lambda p: p["BC"]).sort_values()) == BCS


def test_a_progress_function_sees_each_evaluation(home):
    seen = []
    orcu.tune(
        "t.c",
        backend="emulate",
        search="Exhaustive",
        budget=3,
        progress=lambda t, result, origin: seen.append((t.name, result.status, origin)),
    )
    assert seen == [("orcu_f_1", "ok", "")] * 3


def test_check_emit_and_apply(home, in_tmp):
    report = orcu.check("t.c")
    assert report.summary["regions"][0]["name"] == "orcu_f_1" and "orcu_f_1" in report.text()
    text = orcu.emit("t.c", {"BC": 5})
    assert "__global__" in text and text == orcu.emit("t.c", {"BC": "5"})  # a value, or its text as on the command line
    assert orcu.emit("t.c", {"BC": 5}, output="five.cu") == (in_tmp / "five.cu").read_text()
    orcu.tune("t.c", backend="emulate", search="Exhaustive", output="tuned.cu", progress=False)
    assert orcu.apply("t.c", backend="emulate", output="applied.cu") == ["applied.cu", "applied.h"]
    assert (in_tmp / "applied.cu").read_text() == (in_tmp / "tuned.cu").read_text()


def test_results_exported_and_imported_elsewhere_apply_there(home, in_tmp, monkeypatch):
    orcu.tune("t.c", backend="emulate", search="Exhaustive", output="tuned.cu", progress=False)
    data = orcu.export("results.json", ["t.c"])  # the choice and its evaluation (every=True: all eight)
    assert len(data["choices"]) == 1 and json.loads((in_tmp / "results.json").read_text()) == data
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "elsewhere"))
    with pytest.raises(orcu.OrcuError, match="no results database"):
        orcu.apply("t.c", backend="emulate", output="applied.cu")
    assert orcu.import_from("results.json") == (1, 1, in_tmp / "elsewhere" / "results.sqlite")
    orcu.apply("t.c", backend="emulate", output="applied.cu")
    assert (in_tmp / "applied.cu").read_text() == (in_tmp / "tuned.cu").read_text()


def test_one_error_type_with_the_command_lines_message(home, in_tmp):
    write(in_tmp / "bad.c", EIGHT.replace("param BC[] = [1, 2", "param BC[] = [1 2"))
    with pytest.raises(orcu.OrcuError) as bad:
        orcu.check("bad.c")
    assert str(bad.value).startswith("bad.c:") and ": error: " in str(bad.value)
    with pytest.raises(orcu.OrcuError, match="'9' is not one of the values of 'BC': 1, 2, 3"):
        orcu.emit("t.c", {"BC": 9})
    with pytest.raises(orcu.OrcuError, match="no such file: nosuch.c"):
        orcu.tune("nosuch.c", backend="emulate")
    with pytest.raises(orcu.OrcuError, match="budget, time_limit and jobs must be above 0"):
        orcu.tune("t.c", backend="emulate", budget=0)
    orcu.tune("t.c", backend="emulate", budget=1, progress=False)  # a database, without this code's choice
    write(in_tmp / "t.c", EIGHT.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] - y[i];"))
    with pytest.raises(orcu.NotWritten) as missing:
        orcu.apply("t.c", backend="emulate", output="x.cu")
    assert missing.value.lines == [
        "orcu: error: orcu_f_1 {'n': 1000}: no tuning result for this code, backend, device and "
        "measure (GPU kernel time predicted by orcu's performance model); run orcu tune"
    ]


def test_an_interrupted_tune_resumes_from_python_where_it_stopped(home):
    def interrupt_after_three(t, result, origin):
        if t.new == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        orcu.tune("t.c", backend="emulate", search="Exhaustive", progress=interrupt_after_three)
    assert len(orcu.results("t.c").evaluations) == 3
    resumed = orcu.tune("t.c", backend="emulate", search="Exhaustive", progress=False)
    assert (resumed.regions[0].new, resumed.regions[0].cached) == (5, 3)


def test_results_rank_by_the_measure_the_tune_used(home):
    tuning = orcu.tune("t.c", backend="emulate", search="Exhaustive", progress=False)
    found = orcu.results("t.c")
    assert [e.params["BC"] for e in found.evaluations] == [e.params["BC"] for e in tuning.regions[0].evaluations]
    assert all(e.measure == "model" and e.time_ms == e.predicted_ms for e in found.evaluations)
    kernel = orcu.results("t.c", measure="kernel")  # the emulation's CPU times, when asked for, and said to be
    assert all(
        e.measure == "kernel" and e.emulated and e.time_ms == statistics.median(e.kernel_ms) for e in kernel.evaluations
    )
    assert len(found.to_dataframe()) == 8


def test_the_four_plots_of_a_tune(home, in_tmp):
    tuning = orcu.tune("t.c", backend="emulate", search="Exhaustive", progress=False)
    made = {kind: figure for kind, _, figure in figures(tuning.evaluations, tuning.target)}
    assert sorted(made) == sorted(KINDS)
    (convergence,) = made["convergence"].axes
    steps = convergence.lines[0].get_xydata()
    assert list(steps[:, 0]) == list(range(1, 9)) and steps[-1, 1] == tuning.regions[0].best.time_ms
    assert convergence.get_xlabel() == "evaluations"
    assert convergence.get_ylabel().replace("\n", " ") == "best predicted GPU kernel time (ms)"
    assert "orcu_f_1 of t.c, n=1000" in convergence.get_title()
    (parameter, *_) = [ax for ax in made["parameters"].axes if ax.get_visible()]
    assert parameter.get_xlabel() == "BC" and len(parameter.collections[0].get_offsets()) == 8
    (model,) = made["model"].axes
    assert len(model.collections[0].get_offsets()) == 8
    assert model.get_ylabel().replace("\n", " ") == "CPU time of the emulated kernels (ms), not a GPU time"
    (roofline,) = made["roofline"].axes
    assert len(roofline.collections[0].get_offsets()) == 8 and roofline.get_xscale() == "log"
    assert [line.get_label().split(" peak")[0] for line in roofline.lines] == ["FP32", "FP64"]
    written = tuning.plot(in_tmp / "plots")
    assert sorted(p.name.split("_")[0] for p in written) == sorted(KINDS) and all(
        p.stat().st_size > 5000 for p in written
    )


def test_no_plot_text_leaves_its_figure_and_evaluations_count_from_one(home, in_tmp):
    """A long file name: the model plot's title was cut after "n=", the achieved plot's y label
    at the top and bottom; the achieved plot counted evaluations from 0."""
    write(in_tmp / "a_kernel_file_with_a_name_long_enough_to_need_room.c", EIGHT)
    tuning = orcu.tune(
        "a_kernel_file_with_a_name_long_enough_to_need_room.c", backend="emulate", search="Exhaustive", progress=False
    )
    made = {kind: figure for kind, _, figure in figures(tuning.evaluations, tuning.target)}
    for kind, figure in made.items():
        figure.tight_layout()
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        box = figure.bbox
        texts = [figure._suptitle] if figure._suptitle is not None else []
        for ax in (ax for ax in figure.axes if ax.get_visible()):
            texts += [ax.title, ax.xaxis.label, ax.yaxis.label]
            for axis, (lo, hi) in ((0, sorted(ax.get_xlim())), (1, sorted(ax.get_ylim()))):  # the ticks in view
                texts += [
                    t for t in (ax.get_xticklabels, ax.get_yticklabels)[axis]() if lo <= t.get_position()[axis] <= hi
                ]
            texts += ax.get_legend().get_texts() if ax.get_legend() is not None else []
        for text in texts:
            if not (text.get_visible() and text.get_text()):
                continue
            extent = text.get_window_extent(renderer)
            assert (
                extent.x0 >= box.x0 - 1
                and extent.x1 <= box.x1 + 1
                and extent.y0 >= box.y0 - 1
                and extent.y1 <= box.y1 + 1
            ), (kind, text.get_text(), extent, box)
    (achieved,) = made["achieved"].axes
    assert min(achieved.collections[0].get_offsets()[:, 0]) == 1


def test_a_plot_the_results_do_not_allow_is_said_with_why(home, in_tmp):
    write(in_tmp / "one.c", EIGHT.replace("param BC[] = [1, 2, 3, 4, 5, 6, 7, 8];", "param BC[] = [4];"))
    tuning = orcu.tune("one.c", backend="emulate", progress=False)
    skipped = []
    written = tuning.plot(in_tmp / "plots", skipped=skipped)
    assert sorted(p.name.split("_")[0] for p in written) == sorted(set(KINDS) - {"parameters"})
    assert skipped == [
        "no parameters plot of orcu_f_1 of one.c, n=1000: no parameter takes more than one value among "
        "the ranked variants"
    ]


def test_report_plot_writes_them_from_the_database(home, in_tmp):
    orcu.tune("t.c", backend="emulate", search="Exhaustive", progress=False)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "report", "t.c", "--plot", "plots"],
        capture_output=True,
        text=True,
        cwd=in_tmp,
        env=dict(os.environ, ORCU_HOME=str(home)),
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (in_tmp / "plots").iterdir()) == [
        f"{kind}_t_f_1_n1000_emulate.png" for kind in sorted(KINDS)
    ]


def test_report_shows_the_tuned_files_winner_in_100_columns(home, in_tmp):
    write(in_tmp / "a_rather_long_kernel_file_name.c", EIGHT)
    tuning = orcu.tune("a_rather_long_kernel_file_name.c", backend="emulate", search="Exhaustive", progress=False)
    best = tuning.regions[0].best
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "report"],
        capture_output=True,
        text=True,
        cwd=in_tmp,
        env=dict(os.environ, ORCU_HOME=str(home)),
    )  # a pipe, not a terminal
    lines = proc.stdout.splitlines()
    assert max(map(len, lines)) <= 100
    assert lines[0] == "a_rather_long_kernel_file_name.c: orcu_f_1 (line 8), n=1000"
    assert lines[1] == "  on         H100 80GB HBM3, emulated on the CPU (orcu's emulation checks the variants)"
    assert (
        lines[2] == f"  winner     BC={best.params['BC']}, TC=128 (in the tuned file)"
        or lines[2] == f"  winner     BC={best.params['BC']} (in the tuned file)"
    )
    assert lines[3] == f"  time       {best.time_ms:.4g} ms, predicted GPU kernel time (orcu's performance model)"
    assert "kernel time" not in proc.stdout.replace(
        "predicted GPU kernel time", ""
    )  # no CPU time passed off as a GPU's


@pytest.mark.slow  # it signals a real tune at a moment it waits for: a race with the clock on a busy machine
def test_sigint_twice_one_line_exit_130_and_the_resumed_tune_repeats_nothing(in_tmp):
    write(in_tmp / "t.c", EIGHT.replace("param n[] = [1000]", "param n[] = [300000]"))
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--search", "Exhaustive", "-j", "1"],
        env=env,
        cwd=in_tmp,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines, finished = [], 0
    deadline = time.monotonic() + 300
    while finished < 2 and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        finished += re.match(r"orcu:   \d/8 \[BC=\d\]: ok ", line) is not None
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # a second press, as an impatient user gives it
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    took = time.monotonic() - start
    assert finished == 2, "".join(lines)
    assert proc.returncode == 130 and rest.splitlines()[-1:] == ["orcu: interrupted"], rest
    assert "Traceback" not in rest and "Exception ignored" not in rest
    assert took < 3, took  # out at once: the builds and runs under way are not waited for
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as conn:
        kept = conn.execute("SELECT count(*) FROM evaluations").fetchone()[0]
    assert 2 <= kept < 8
    resumed = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--search", "Exhaustive", "--json"],
        env=env,
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert json.loads(resumed.stdout)["regions"][0]["evaluated"] == {"new": 8 - kept, "cached": kept, "same_build": 0}


@pytest.mark.slow  # it signals a real tune at a moment it waits for: a race with the clock on a busy machine
def test_sigint_to_the_process_group_leaves_no_compiler_and_no_partial_file(in_tmp):
    """A terminal's Ctrl-C reaches orcu and its compilers at once: the build threads that saw
    their compiler die started the next build, and orcu left their partial files in the cache."""
    write(in_tmp / "t.c", EIGHT.replace("param n[] = [1000]", "param n[] = [300000]"))
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--search", "Exhaustive", "-j", "2"],
        env=env,
        cwd=in_tmp,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    build = in_tmp / "home" / "build"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not any(p.name.startswith(".") for p in build.glob(".*.cu")):
        time.sleep(0.01)  # a build under way: its partial source is there
    os.killpg(proc.pid, signal.SIGINT)
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    assert proc.returncode == 130 and rest.splitlines()[-1:] == ["orcu: interrupted"], rest
    time.sleep(1)  # a compiler started after the interrupt would be writing by now
    assert [p.name for p in build.iterdir() if p.name.startswith(".")] == []
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(build) not in running


def test_the_readmes_python_script_runs_as_written(in_tmp, monkeypatch):
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    script = readme.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (in_tmp / "annotated_examples").mkdir()
    write(in_tmp / "annotated_examples" / "gemv.c", (ROOT / "annotated_examples" / "gemv.c").read_text())
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = subprocess.run([sys.executable, "-c", script], cwd=in_tmp, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "['annotated_examples/gemv.tuned.cu', 'annotated_examples/gemv.tuned.h']"
    code = [
        (in_tmp / name).read_text().split(" */\n", 1)[1] for name in ("gemv.cu", "annotated_examples/gemv.tuned.cu")
    ]
    # apply wrote what tune did; each names the source from where it lies
    assert code[0].replace("annotated_examples/gemv.c", "gemv.c") == code[1]
    assert len(list((in_tmp / "plots").glob("roofline_*.png"))) == 2  # one per input size


def test_progress_in_a_pipe_says_k_of_n_and_the_time_left(home, in_tmp):
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--search", "Exhaustive"],
        cwd=in_tmp,
        env=dict(os.environ, ORCU_HOME=str(home)),
        capture_output=True,
        text=True,
    )
    lines = [line for line in proc.stderr.splitlines() if line.startswith("orcu:   ")]
    assert [line.split(" [")[0] for line in lines] == [f"orcu:   {k}/8" for k in range(1, 9)]
    assert all(re.search(r"\[\d+ s, about \d+ s left\]$", line) for line in lines[:-1]) and re.search(
        r"\[\d+ s\]$", lines[-1]
    )


@pytest.mark.parametrize(
    "sizes, total, pairs, time", [("[1000]", 400, "pair", "7 min"), ("[1000, 2000]", 800, "pairs", "13 min")]
)
def test_a_large_search_without_a_budget_is_said_before_it_starts(home, in_tmp, sizes, total, pairs, time):
    """Counted over every input size (at two sizes it said one size's 400)."""
    write(
        in_tmp / "big.c",
        EIGHT.replace("param BC[] = [1, 2, 3, 4, 5, 6, 7, 8]", "param BC[] = range(1, 401)").replace(
            "param n[] = [1000]", f"param n[] = {sizes}"
        ),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "orcu", "tune", "big.c", "--backend", "emulate"],
        cwd=in_tmp,
        env=dict(os.environ, ORCU_HOME=str(home)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = proc.stderr.readline()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    n = total // 400
    assert first == (
        f"orcu: note: {total} variants to evaluate with no budget, over the tune's {n} region and input size "
        f"{pairs} (at a second a variant, about {time}); --budget N or --time-limit SECONDS caps the search\n"
    )
    capped = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "big.c", "--backend", "emulate", "--budget", "2"],
        cwd=in_tmp,
        env=dict(os.environ, ORCU_HOME=str(home)),
        capture_output=True,
        text=True,
    )
    assert "variants to evaluate with no budget" not in capped.stderr
