"""The results database through `orcu tune` and `orcu report`: reuse, resume, concurrency, exports."""

import csv
import json
import multiprocessing
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time

import pytest
from conftest import EXAMPLES, ROOT, write
from test_tune import AXPY

from orcu.driver.cli import main
from orcu.driver.ktcache import read_cache

# Eight configurations of a small axpy; the search is exhaustive unless a test says otherwise.
EIGHT = AXPY.replace("blockCount=8", "blockCount=BC").replace(
    "def input_params", "def performance_params { param BC[] = [1, 2, 3, 4, 5, 6, 7, 8]; }\n def input_params"
)


def tune(*args, home, cwd, check=True):
    env = dict(os.environ, ORCU_HOME=str(home))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", *args, "--backend", "emulate", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def evaluated(proc):
    return json.loads(proc.stdout)["regions"][0]["evaluated"]


def test_second_identical_tune_evaluates_nothing(in_tmp):
    write(in_tmp / "t.c", EIGHT)
    first = tune("t.c", "--search", "Exhaustive", home=in_tmp / "home", cwd=in_tmp)
    built = {p: p.stat().st_mtime_ns for p in (in_tmp / "home" / "build").iterdir()}
    second = tune("t.c", "--search", "Exhaustive", home=in_tmp / "home", cwd=in_tmp)
    assert evaluated(first) == {"new": 8, "cached": 0, "same_build": 0}
    assert evaluated(second) == {"new": 0, "cached": 8, "same_build": 0}
    assert {
        p: p.stat().st_mtime_ns for p in (in_tmp / "home" / "build").iterdir()
    } == built  # nothing built or rewritten
    assert json.loads(second.stdout)["regions"][0]["best"] == json.loads(first.stdout)["regions"][0]["best"]


@pytest.mark.slow
def test_a_genetic_search_retraces_its_steps(in_tmp):
    write(in_tmp / "t.c", EIGHT)
    first = tune("t.c", "--search", "Genetic", "--budget", "5", home=in_tmp / "home", cwd=in_tmp)
    second = tune("t.c", "--search", "Genetic", "--budget", "5", home=in_tmp / "home", cwd=in_tmp)
    assert evaluated(first) == {"new": 5, "cached": 0, "same_build": 0} and evaluated(second) == {
        "new": 0,
        "cached": 5,
        "same_build": 0,
    }
    third = tune("t.c", "--search", "Genetic", "--budget", "7", home=in_tmp / "home", cwd=in_tmp)
    assert evaluated(third) == {
        "new": 2,
        "cached": 5,
        "same_build": 0,
    }  # a larger budget goes on where the first stopped


@pytest.mark.slow  # it signals a real tune at a moment it waits for: a race with the clock on a busy machine
def test_resume_after_sigkill_loses_only_what_was_in_flight(in_tmp):
    write(in_tmp / "t.c", EIGHT.replace("param n[] = [1000]", "param n[] = [300000]"))
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--search", "Exhaustive", "-j", "1"],
        env=env,
        cwd=in_tmp,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    database = in_tmp / "home" / "results.sqlite"
    done = 0
    deadline = time.monotonic() + 300
    while done < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if database.exists():
            try:
                with sqlite3.connect(database) as conn:
                    done = conn.execute("SELECT count(*) FROM evaluations").fetchone()[0]
            except sqlite3.OperationalError:  # created, its tables not yet
                pass
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 3 <= done < 8, "the tune finished before it could be killed"
    with sqlite3.connect(database) as conn:
        kept = conn.execute("SELECT count(*) FROM evaluations").fetchone()[0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    resumed = tune("t.c", "--search", "Exhaustive", home=in_tmp / "home", cwd=in_tmp)
    assert evaluated(resumed) == {"new": 8 - kept, "cached": kept, "same_build": 0}


def test_two_concurrent_tunes_share_one_database(in_tmp):
    write(in_tmp / "a.c", EIGHT)
    write(in_tmp / "b.c", EIGHT.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] - y[i];"))
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"))
    # Two tunes of a.c build the same harnesses into the shared build cache at the same time.
    runs = [("a.c", "a.tuned.cu"), ("b.c", "b.tuned.cu"), ("a.c", "a2.tuned.cu")]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "orcu",
                "tune",
                name,
                "-o",
                out,
                "--backend",
                "emulate",
                "--search",
                "Exhaustive",
                "-j",
                "1",
                "--json",
            ],
            env=env,
            cwd=in_tmp,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, out in runs
    ]
    outputs = [p.communicate() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outputs]
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as conn:
        rows = conn.execute("SELECT file, count(*) FROM evaluations GROUP BY file ORDER BY file").fetchall()
    assert [(os.path.basename(f), n) for f, n in rows] == [("a.c", 8), ("b.c", 8)]
    assert all(json.loads(out)["regions"][0]["statuses"] == {"ok": 8} for out, _ in outputs)
    assert not [
        p.name for p in (in_tmp / "home" / "build").iterdir() if p.name.startswith(".")
    ]  # no partial build left


def _open_together(path, barrier):
    from orcu.driver.database import Database

    barrier.wait()
    Database(path).close()


def test_processes_creating_the_database_at_once_all_open_it(in_tmp):
    # The stampede forks from a fresh process: forking this one is unsafe once another test has
    # left threads in it (Dask's client keeps one), and a child forked holding one of their locks hung.
    fresh = multiprocessing.get_context("spawn").Process(target=_stampede, args=(in_tmp,))
    fresh.start()
    fresh.join(600)
    assert fresh.exitcode == 0


def _stampede(in_tmp):
    # Turning a new file to WAL mode is where simultaneous first opens collided ("database
    # is locked" at once, without waiting); repeat the stampede to give the race its chances.
    context = multiprocessing.get_context("fork")
    for attempt in range(20):
        path = in_tmp / f"r{attempt}.sqlite"
        barrier = context.Barrier(6)
        workers = [context.Process(target=_open_together, args=(path, barrier)) for _ in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        assert [w.exitcode for w in workers] == [0] * 6, attempt
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.slow
def test_spec_total_runs_and_time_limit_bound_the_search(in_tmp):
    write(
        in_tmp / "t.c",
        EIGHT.replace(
            "def input_params", "def search { arg algorithm = 'Random'; arg total_runs = 3; }\n def input_params"
        ),
    )
    assert evaluated(tune("t.c", home=in_tmp / "home", cwd=in_tmp)) == {"new": 3, "cached": 0, "same_build": 0}
    assert (
        json.loads(tune("t.c", "--budget", "2", home=in_tmp / "h2", cwd=in_tmp).stdout)["regions"][0]["evaluated"][
            "new"
        ]
        == 2
    )
    limited = tune(
        "t.c", "--search", "Exhaustive", "--budget", "8", "--time-limit", "0.001", home=in_tmp / "h3", cwd=in_tmp
    )
    assert evaluated(limited)["new"] < 8  # the batch in flight finishes; no other starts


def test_report_exports_csv_and_kernel_tuner_cache(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", EIGHT)
    tune("t.c", "--search", "Exhaustive", "--budget", "4", home=in_tmp / "home", cwd=in_tmp)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["report", "t.c", "--csv", "out.csv", "--kt-cache", "kt.json"]) == 0
    lines = (in_tmp / "out.csv").read_text().splitlines()
    assert lines[0] == (
        "file,region,line,inputs,params,status,time_ms,total_ms,kernel_ms,gflop_s,gb_s,bound_fraction,metrics,"
        "backend,device,compiler,created,message,total_samples,kernel_samples"
    )
    assert len(lines) == 5
    # a time is a number (it was list text, "[8.316102]"); its samples follow in their own columns
    rows = list(csv.DictReader((in_tmp / "out.csv").open()))
    for row in rows:
        for kind in ("total", "kernel"):
            samples = json.loads(row[f"{kind}_samples"])
            assert samples and float(row[f"{kind}_ms"]) == statistics.median(samples)
    space, cost = read_cache(in_tmp / "kt.json")
    assert len(space) == 4 and all(0 < c < float("inf") for c in cost.values())
    assert main(["report"]) == 0
    out = capsys.readouterr().out
    assert "t.c: orcu_f_1 (line 8), n=1000" in out
    assert "\n  model " not in out  # the emulation measures no GPU time to hold a prediction against


def test_report_holds_the_models_prediction_against_a_gpus_measurement(in_tmp, monkeypatch, capsys):
    """The H200's PolyBench tunes (bench/results/gpu/h200): the winner's prediction as made then, and
    how far off the model was over the region's measured variants."""
    (in_tmp / "home").mkdir()
    shutil.copy(ROOT / "bench" / "results" / "gpu" / "h200" / "results.sqlite", in_tmp / "home")
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["report"]) == 0
    out = capsys.readouterr().out
    atax = out[out.index("orcu_kernel_atax_2") :]
    words = " ".join(atax[: atax.index("evaluated")].split("  model      ")[1].split())  # the lines unwrapped
    assert words == (
        "0.8201 ms predicted, 3.28 times the kernel time measured; its 6 measured variants' "
        "predictions typically 1.93 times off"
    )
    assert out.count("\n  model ") == out.count(", on the GPU\n")  # every winner measured on the GPU


def test_report_without_a_database(in_tmp, monkeypatch, capsys):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "nothing"))
    assert main(["report"]) == 2
    assert "no results database at" in capsys.readouterr().err


def test_apply_writes_what_tune_chose_without_tuning(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", EIGHT)
    tune("t.c", "--search", "Exhaustive", "-o", "tuned.cu", home=in_tmp / "home", cwd=in_tmp)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["apply", "t.c", "--backend", "emulate", "-o", "applied.cu"]) == 0
    assert (in_tmp / "applied.cu").read_text() == (in_tmp / "tuned.cu").read_text()
    write(in_tmp / "t.c", EIGHT.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] + 2 * y[i];"))
    assert main(["apply", "t.c", "--backend", "emulate", "-o", "stale.cu"]) == 1  # the code changed: no result for it
    assert (
        "orcu: error: orcu_f_1 {'n': 1000}: no tuning result for this code, backend, device and measure (GPU kernel time predicted by orcu's performance model); run orcu tune"
        in capsys.readouterr().err
    )
    assert not (in_tmp / "stale.cu").exists()


def test_a_database_from_a_newer_orcu_is_refused(in_tmp):
    from orcu.driver.database import SCHEMA_VERSION, Database
    from orcu.errors import UsageError

    Database(in_tmp / "r.sqlite").close()
    with sqlite3.connect(in_tmp / "r.sqlite") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(UsageError) as info:
        Database(in_tmp / "r.sqlite")
    assert str(info.value).endswith(
        f"was written by a newer orcu (schema {SCHEMA_VERSION + 1}, this one reads {SCHEMA_VERSION})"
    )


def test_a_database_of_the_first_schema_gains_the_traffic_column_and_keeps_its_rows(in_tmp):
    from orcu.driver.database import Database

    schema_1 = """CREATE TABLE evaluations (key TEXT PRIMARY KEY, file TEXT NOT NULL, region TEXT NOT NULL,
        line INTEGER NOT NULL, context TEXT NOT NULL, params TEXT NOT NULL, inputs TEXT NOT NULL, backend TEXT NOT NULL,
        device TEXT NOT NULL, compiler TEXT NOT NULL, status TEXT NOT NULL, time_ms REAL, kernel_ms TEXT NOT NULL,
        total_ms TEXT NOT NULL, message TEXT NOT NULL, compile_s REAL NOT NULL, run_s REAL NOT NULL, created TEXT NOT NULL)"""
    with sqlite3.connect(in_tmp / "r.sqlite") as conn:
        conn.execute(schema_1)
        conn.execute(
            "INSERT INTO evaluations VALUES ('k', 'f.c', 'orcu_f_1', 3, 'c', '{\"T\": 1}', '{}', 'emulate', 'd', "
            "'g++', 'ok', 1.5, '[1.5]', '[2.0]', '', 0.1, 0.2, 'then')"
        )
        conn.execute("PRAGMA user_version = 1")
    db = Database(in_tmp / "r.sqlite")
    old = db.get("k")
    assert (old.status, old.params, old.kernel_ms, old.figures) == ("ok", {"T": 1}, [1.5], None)
    assert [r["figures"] for r in db.rows()] == [None]


@pytest.mark.slow
def test_tune_keeps_each_tsg_variants_traffic_with_its_evaluation(in_tmp, capsys):
    from orcu.driver.database import Database

    write(in_tmp / "sgemm.c", (EXAMPLES / "sgemm.c").read_text())
    tune("sgemm.c", "--input=n=37", "--budget=4", "--search=Random", home=in_tmp / "home", cwd=in_tmp)
    rows = list(Database(in_tmp / "home" / "results.sqlite").rows())
    assert len(rows) == 4
    for r in rows:  # what orcu emit --explain prints for the same configuration
        assert (
            main(
                [
                    "emit",
                    "--explain",
                    "sgemm.c",
                    "--input=n=37",
                    "-o",
                    "out.cu",
                    *(f"--set={k}={v}" for k, v in r["params"].items()),
                ]
            )
            == 0
        )
        assert r["figures"]["outputs"] == 37 * 37 and r["figures"]["bytes_per_output"] > 0
        assert f"  traffic: {r['figures']['bytes_per_output']:.1f} bytes" in capsys.readouterr().err


@pytest.mark.slow
def test_kernel_time_ranks_unless_total_is_asked_for(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", EIGHT)
    kernel = json.loads(
        tune(
            "t.c", "--search", "Exhaustive", "--measure", "kernel", "-o", "k.cu", home=in_tmp / "home", cwd=in_tmp
        ).stdout
    )
    best = kernel["regions"][0]["best"]
    assert best["measure"] == "kernel" and best["time_ms"] == best["kernel_ms"] and best["total_ms"] > best["kernel_ms"]
    assert "(kernel time, which ranked the variants)" in (in_tmp / "k.cu").read_text()
    # The same evaluations, ranked by total time: nothing runs again, and the choice is kept apart.
    total = tune("t.c", "--search", "Exhaustive", "--measure", "total", "-o", "t.cu", home=in_tmp / "home", cwd=in_tmp)
    best = json.loads(total.stdout)["regions"][0]["best"]
    assert evaluated(total) == {"new": 0, "cached": 8, "same_build": 0}
    assert best["measure"] == "total" and best["time_ms"] == best["total_ms"]
    assert "(total time, which ranked the variants)" in (in_tmp / "t.cu").read_text()
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["apply", "t.c", "--backend", "emulate", "--measure", "total", "-o", "applied.cu"]) == 0
    assert (in_tmp / "applied.cu").read_text() == (in_tmp / "t.cu").read_text()
    capsys.readouterr()
    assert main(["report", "t.c"]) == 0  # by the measure of the last tune: the total time, emulated
    out = capsys.readouterr().out
    assert (
        "ms, CPU time of the emulated host function's whole time, not a GPU time" in out
        and "(in the tuned file)" in out
    )
    assert main(["report", "t.c", "--wide"]) == 0
    out = capsys.readouterr().out
    assert "kernel ms" in out and "total ms" in out and "(CPU)" in out
    # The spec can ask for total time too; anything else is refused at the value.
    write(
        in_tmp / "s.c",
        EIGHT.replace("def input_params", "def performance_counter { arg measure = 'total'; }\n def input_params"),
    )
    assert (
        json.loads(tune("s.c", "--search", "Exhaustive", home=in_tmp / "home", cwd=in_tmp).stdout)["regions"][0][
            "best"
        ]["measure"]
        == "total"
    )
    write(
        in_tmp / "bad.c",
        EIGHT.replace("def input_params", "def performance_counter { arg measure = 'wall'; }\n def input_params"),
    )
    bad = tune("bad.c", home=in_tmp / "home", cwd=in_tmp, check=False)
    assert bad.returncode == 2 and "error: argument 'measure' must be 'kernel' or 'total', got 'wall'" in bad.stderr


def test_the_database_is_found_as_git_finds_its_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("ORCU_HOME", raising=False)
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    elsewhere.mkdir()
    write(project / "src" / "t.c", EIGHT)
    command = [sys.executable, "-m", "orcu"]
    env = {k: v for k, v in os.environ.items() if k != "ORCU_HOME"}
    tuned = subprocess.run(
        [*command, "tune", "../project/src/t.c", "--backend", "emulate", "--budget", "2"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert tuned.returncode == 0, tuned.stderr
    assert (project / ".orcu" / "results.sqlite").is_file()  # at the project's root, not where the command ran
    assert not (elsewhere / ".orcu").exists() and not (project / "src" / ".orcu").exists()
    report = subprocess.run(
        [*command, "report", "project/src/t.c"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert report.returncode == 0 and "project/src/t.c: orcu_f_1 (line 8), n=1000" in report.stdout, report.stderr
    applied = subprocess.run(
        [*command, "apply", "t.c", "--backend", "emulate", "-o", "again.cu"],
        cwd=project / "src",
        env=env,
        capture_output=True,
        text=True,
    )
    assert applied.returncode == 0, applied.stderr
    # a .orcu folder nearer the file wins; outside a repository, a new one goes beside the file
    (project / "src" / ".orcu").mkdir()
    subprocess.run(
        [*command, "tune", "src/t.c", "--backend", "emulate", "--budget", "1"],
        cwd=project,
        env=env,
        capture_output=True,
        check=True,
    )
    assert (project / "src" / ".orcu" / "results.sqlite").is_file()
    write(elsewhere / "u.c", EIGHT)
    subprocess.run(
        [*command, "tune", "elsewhere/u.c", "--backend", "emulate", "--budget", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        check=True,
    )
    assert (elsewhere / ".orcu" / "results.sqlite").is_file()


def test_the_last_choice_wins_within_one_second(tmp_path):
    # two tunes of one region by two measures, a second apart at most: report shows the later's
    from orcu.driver.database import Context, Database

    db = Database(tmp_path / "results.sqlite")
    context = Context("t.c", "orcu_f_1", 8, "source", "emulate", "H100", "g++")
    for measure, bc in (("kernel", 3), ("total", 5)):
        db.put_choice(context, {"n": 1000}, {"BC": bc}, 1.0, measure)
    assert db.chosen(context.digest, "orcu_f_1", {"n": 1000})[:2] == ("total", {"BC": 5})
    db.put_choice(context, {"n": 1000}, {"BC": 4}, 1.0, "kernel")  # replaced: the latest again
    assert db.chosen(context.digest, "orcu_f_1", {"n": 1000})[:2] == ("kernel", {"BC": 4})
    db.close()
