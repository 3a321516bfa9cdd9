"""One tune over many workers (orcu/execution/executors.py): a Dask cluster of real worker processes, and
several GPUs of one machine (emulated ones here): the same results as one run at a time, nothing
lost when a worker dies, nothing evaluated again when the tune is killed and run again."""

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import scale_kernel, write

import orcu
from orcu.driver.cli import main

SIXTEEN = scale_kernel([4, 8, 16, 32], "%d")  # % n


def rows(home) -> list[tuple]:
    """What the database holds of each evaluation, but the CPU's own times and when."""
    with sqlite3.connect(home / "results.sqlite") as conn:
        return sorted(conn.execute("SELECT key, params, status, time_ms, message FROM evaluations").fetchall())


def serial(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "serial"))
    return orcu.tune("t.c", backend="emulate", progress=False, output="serial.cu")


def test_a_tune_on_three_workers_gives_the_serial_tunes_results(in_tmp, monkeypatch):
    write(in_tmp / "t.c", SIXTEEN % 20000)
    alone = serial(in_tmp, monkeypatch)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "cluster"))
    spread = orcu.tune("t.c", backend="emulate", progress=False, cluster="local:3", output="cluster.cu")
    assert spread.errors == [] and spread.regions[0].statuses == {"ok": 16}
    assert spread.regions[0].best.params == alone.regions[0].best.params
    assert rows(in_tmp / "cluster") == rows(in_tmp / "serial")
    assert (in_tmp / "cluster.cu").read_text().split("*/", 1)[1] == (in_tmp / "serial.cu").read_text().split("*/", 1)[1]


def test_a_worker_killed_mid_tune_loses_nothing(in_tmp, monkeypatch):
    from distributed import Client, LocalCluster

    write(in_tmp / "t.c", SIXTEEN % 400000)
    alone = serial(in_tmp, monkeypatch)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "cluster"))
    with (
        LocalCluster(n_workers=3, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        pids = list(client.run(os.getpid).values())
        seen, killed = [], []

        def progress(tuning, result, origin):
            seen.append(result.status)
            if len(seen) == 3 and not killed:  # runs are in flight on the others: kill one worker's process
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        spread = orcu.tune("t.c", backend="emulate", progress=progress, cluster=cluster.scheduler_address)
    assert killed and spread.errors == []
    assert spread.regions[0].statuses == {"ok": 16} and spread.regions[0].new == 16
    assert spread.regions[0].best.params == alone.regions[0].best.params
    assert [r[:4] for r in rows(in_tmp / "cluster")] == [r[:4] for r in rows(in_tmp / "serial")]


@pytest.mark.slow  # it signals a real tune at a moment it waits for: a race with the clock on a busy machine
def test_a_killed_tune_on_a_cluster_resumes_without_evaluating_anything_again(in_tmp):
    write(in_tmp / "t.c", SIXTEEN % 400000)
    env = dict(os.environ, ORCU_HOME=str(in_tmp / "home"))
    command = [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--cluster", "local:3", "--json"]
    first = subprocess.Popen(
        command, cwd=in_tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )  # its workers too are in the group that is killed
    database = in_tmp / "home" / "results.sqlite"
    deadline = time.monotonic() + 300
    done = 0
    while done < 4 and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.2)
        if database.exists():
            with contextlib.suppress(sqlite3.OperationalError), sqlite3.connect(database) as conn:
                # the file exists a moment before the tune has created its tables
                done = conn.execute("SELECT count(*) FROM evaluations").fetchone()[0]
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    with sqlite3.connect(database) as conn:
        kept = conn.execute("SELECT count(*) FROM evaluations").fetchone()[0]
    assert 4 <= kept < 16
    second = subprocess.run(command, cwd=in_tmp, env=env, capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    evaluated = json.loads(second.stdout)["regions"][0]["evaluated"]
    assert evaluated == {"new": 16 - kept, "cached": kept, "same_build": 0}


def test_several_gpus_time_side_by_side_each_pinned(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", SIXTEEN % 20000)
    alone = serial(in_tmp, monkeypatch)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "gpus"))
    monkeypatch.setenv("ORCU_EMULATION_DEVICES", "2")  # the emulation shows two GPUs
    both = orcu.tune("t.c", backend="emulate", progress=False, gpus="0,1")
    assert both.regions[0].best.params == alone.regions[0].best.params
    assert [r[:4] for r in rows(in_tmp / "gpus")] == [r[:4] for r in rows(in_tmp / "serial")]
    with sqlite3.connect(in_tmp / "gpus" / "results.sqlite") as conn:
        used = {json.loads(m)["gpu"] for (m,) in conn.execute("SELECT measured FROM evaluations")}
    assert used == {"0", "1"}
    assert main(["tune", "t.c", "--backend", "emulate", "--gpus", "0,2"]) == 2
    assert (
        "--gpus: no GPU 2 here (visible: 0, 1; the emulation shows ORCU_EMULATION_DEVICES of them)"
        in capsys.readouterr().err
    )


def test_a_batch_schedulers_workers_take_orcu_toml_settings(in_tmp):
    from orcu.execution.executors import _jobqueue, cluster_settings

    write(
        in_tmp / "orcu.toml",
        """[cluster]
cores = 8
memory = "32GB"
queue = "gpu"
walltime = "02:00:00"
job_extra_directives = ["--gres=gpu:1"]
""",
    )
    write(in_tmp / "t.c", SIXTEEN % 1000)
    settings = cluster_settings(in_tmp / "t.c")
    assert settings["queue"] == "gpu" and settings["cores"] == 8
    script = _jobqueue("slurm", settings).job_script()
    assert "#SBATCH -p gpu" in script and "#SBATCH --gres=gpu:1" in script and "#SBATCH -t 02:00:00" in script
    assert (
        "-m distributed.cli.dask_worker" in script or "dask-worker" in script or "distributed.cli.dask_spec" in script
    )


def test_bad_cluster_specs_are_errors(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", SIXTEEN % 1000)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    assert main(["tune", "t.c", "--backend", "emulate", "--cluster", "local:none"]) == 2
    assert (
        "--cluster: expected local:N, tcp://HOST:PORT or slurm|pbs|lsf:N, got 'local:none'" in capsys.readouterr().err
    )
    assert main(["tune", "t.c", "--backend", "emulate", "--cluster", "local:1", "--gpus", "0"]) == 2
    assert "--gpus and --cluster" in capsys.readouterr().err


@pytest.mark.gpu
def test_the_real_gpus_time_side_by_side(in_tmp, monkeypatch):
    from orcu.execution.executors import visible_gpus

    write(in_tmp / "t.c", SIXTEEN % 1000000)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shown = [index for index, model in visible_gpus("cuda") if model == visible_gpus("cuda")[0][1]]
    tuning = orcu.tune("t.c", backend="cuda", progress=False, gpus=",".join(shown), budget=8)
    assert tuning.errors == [] and tuning.regions[0].statuses == {"ok": 8}
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as conn:
        used = {json.loads(m)["gpu"] for (m,) in conn.execute("SELECT measured FROM evaluations") if m != "null"}
    assert used <= set(shown) and (len(used) > 1 or len(shown) == 1)


def test_runs_go_to_the_workers_with_a_gpu_and_builds_to_any(in_tmp, monkeypatch):
    """Two workers started as a batch job starts them (dask worker), one declaring a GPU."""
    from distributed import Client, LocalCluster

    write(in_tmp / "t.c", SIXTEEN % 20000)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    with LocalCluster(n_workers=0, dashboard_address=None) as cluster, Client(cluster) as client:

        def worker(*extra):
            return subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    cluster.scheduler_address,
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    *extra,
                ],
                stderr=subprocess.DEVNULL,
            )

        workers = [worker("--resources", "GPU=1", "--name", "gpu"), worker("--name", "cpu")]
        try:
            client.wait_for_workers(2, timeout=120)
            gpu = next(a for a, w in client.scheduler_info()["workers"].items() if w["name"] == "gpu")
            tuning = orcu.tune("t.c", backend="emulate", progress=False, cluster=cluster.scheduler_address)
        finally:
            for w in workers:
                w.kill()
                w.wait()
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as conn:
        ran_on = {json.loads(m)["worker"] for (m,) in conn.execute("SELECT measured FROM evaluations")}
    assert tuning.regions[0].statuses == {"ok": 16} and ran_on == {gpu}


def test_a_cluster_that_goes_away_stops_the_tune_and_another_resumes_it(in_tmp, monkeypatch, capsys):
    from distributed import LocalCluster

    from orcu.errors import OrcuError

    write(in_tmp / "t.c", SIXTEEN % 400000)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    seen = []

    def progress(tuning, result, origin):
        seen.append(result.status)
        if len(seen) == 3:
            cluster.close()

    with pytest.raises(OrcuError) as info:
        orcu.tune("t.c", backend="emulate", progress=progress, cluster=cluster.scheduler_address)
    assert f"the cluster {cluster.scheduler_address} went away" in info.value.message
    assert "every result so far is in the results database: the same command resumes" in info.value.message
    with sqlite3.connect(in_tmp / "home" / "results.sqlite") as conn:
        kept = conn.execute("SELECT count(*) FROM evaluations WHERE status = 'ok'").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM evaluations WHERE status != 'ok'").fetchone()[0] == 0
    assert kept >= 3
    again = orcu.tune("t.c", backend="emulate", progress=False, cluster="local:2")
    assert (again.regions[0].cached, again.regions[0].new) == (kept, 16 - kept)
