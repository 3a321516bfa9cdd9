"""Where a tune's builds and timed runs happen: this machine (one run at a time, or one per GPU
with ``--gpus``), or the workers of a Dask cluster (``--cluster``).

The runner (orcu/execution/runners.py) hands an executor plain data: a harness's source with its
compiler and flags to build (a BuildJob), and a run of one variant of a built harness (a
RunJob); it gets plain data back. Neither the search nor the results database knows which
executor ran them; the database stays with the tune that asked, its only writer, so that a
tune resumes as it always does.

On a cluster, the source travels with each task and executables are cached by content on each
worker; a run goes to the worker that built its harness where it can, and builds it again
where it cannot. A worker that dies takes only its task with it: Dask runs it once more
elsewhere, then it is a ``crash``; a worker that hangs past the run's time limit is a
``timeout``; a cluster that goes away stops the tune (every result so far is in the database,
and the same command resumes).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import queue
import re
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from orcu.errors import UsageError
from orcu.execution.backends import backend as backend_of
from orcu.execution.toolchain import (
    NVCC,
    Build,
    Interrupted,
    KernelResources,
    compile_c,
    compile_program,
    partial_files,
    truncate,
)
from orcu.files import replace_atomically
from orcu.frontend.source import ENCODING


@dataclass(frozen=True)
class BuildJob:
    """One harness to build: everything the build depends on, and so the key of its cache."""

    source: str
    compiler: str  # the toolchain: NVCC or EMULATION (orcu.execution.toolchain)
    backend: str
    arch: str
    flags: tuple[str, ...] = ()
    libs: tuple[str, ...] = ()
    defines: tuple[tuple[str, str], ...] | None = None
    target_arch: str | None = None  # -arch for nvcc, None where the flags name one or the compiler is not nvcc
    reference: str = ""  # the C file of the reference (harness.HarnessSource), compiled by the C compiler

    @property
    def key(self) -> str:
        return hashlib.sha256(
            "\0".join(
                [
                    self.backend,
                    self.arch,
                    repr(dict(self.defines) if self.defines else None),
                    *self.flags,
                    "--",
                    *self.libs,
                    self.source,
                    self.reference,
                ]
            ).encode()
        ).hexdigest()[:20]


@dataclass(frozen=True)
class Built:
    """A built harness: its job, its path, and the worker that holds it (None: this machine)."""

    job: BuildJob
    path: str
    worker: str | None = None


@dataclass(frozen=True)
class RunJob:
    """One run of variant ``which`` of a harness: its arguments after the number, the
    environment it adds, and its time limits (see Runner.timeout)."""

    which: int
    arguments: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    limit: float = 60.0  # seconds the variant may take once the C reference has run
    reference_limit: float = 3600.0  # seconds the C reference may take
    address_limit: int | None = None  # bytes of address space (the emulation sets it on itself)


_MEMORY_COUNTS = re.compile(r"^orcu emulation memory: (\{.*\})\n?", re.M)


def build_harness(job: BuildJob, workdir: Path) -> tuple[Path, Build]:
    """Build ``job`` into ``workdir``, or find it built there (by content)."""
    workdir.mkdir(parents=True, exist_ok=True)
    key = job.key
    src, exe = workdir / f"{key}.cu", workdir / key
    report = workdir / f"{key}.ptxas.json"  # what ptxas said of its kernels, for the model
    if exe.exists() and src.exists() and src.read_text(**ENCODING) == job.source:  # content-addressed: built before
        try:
            found = {k: KernelResources(**r) for k, r in json.loads(report.read_text()).items()}
        except (OSError, ValueError, TypeError):
            found = {}
        return exe, Build(True, 0.0, "", found)
    # Several tunes share the cache: each writes and compiles under a name of its own and
    # renames the result into place, so no process ever runs another's half-written file.
    partial = workdir / f".{key}.{uuid.uuid4().hex[:8]}"  # a name of this build's own
    partial_src = Path(f"{partial}.cu")
    try:
        with partial_files(partial, partial_src):
            partial_src.write_text(job.source, **ENCODING)
            # nvcc's builds say what ptxas made of each kernel (registers, shared memory) for the model
            verbose = ("-Xptxas", "-v") if job.compiler == NVCC else ()
            # nothing runs it: nvcc compiles the device code alone (the host's compile was a third
            # of a build), anything else an object
            only = () if backend_of(job.backend).runs else ("-cubin",) if job.compiler == NVCC else ("-c",)
            reference, build = _reference_object(job, workdir) if job.reference and not only else (None, None)
            if build is None or build.ok:
                build = compile_program(
                    job.compiler,
                    partial_src,
                    partial,
                    job.target_arch,
                    job.flags + verbose + only,
                    dict(job.defines) if job.defines is not None else None,
                    libs=(str(reference), *job.libs) if reference is not None else job.libs,
                )
            os.replace(partial_src, src)  # kept after a failure too, for the user to read
            if build.ok:
                replace_atomically(report, json.dumps({k: asdict(r) for k, r in build.resources.items()}))
                os.replace(partial, exe)
    except Interrupted:
        return exe, Build(False, 0.0, "not built: orcu was interrupted")
    return exe, replace(build, message=build.message.replace(str(partial_src), str(src)))


def _reference_object(job: BuildJob, workdir: Path) -> tuple[Path, Build]:
    """The object of the harness's C reference, by its content and flags: the harnesses of one
    region and input size (every batch of its variants) share one; compiled where none is yet
    (its Build says how; 0 s where found). Its C file is kept beside it, for the user to read."""
    key = hashlib.sha256("\0".join([job.reference, *job.flags]).encode()).hexdigest()[:20]
    source, obj = workdir / f"reference-{key}.c", workdir / f"reference-{key}.o"
    if obj.exists():
        return obj, Build(True, 0.0, "")
    partial = workdir / f".reference-{key}.{uuid.uuid4().hex[:8]}"
    partial_c, partial_o = Path(f"{partial}.c"), Path(f"{partial}.o")
    with partial_files(partial_c, partial_o):
        partial_c.write_text(job.reference, **ENCODING)
        build = compile_c(partial_c, partial_o, job.flags)
        os.replace(partial_c, source)
        if build.ok:
            os.replace(partial_o, obj)
    message = build.message.replace(str(partial_c), str(source))
    return obj, replace(build, message=f"the original C code, compiled as C: {message}" if not build.ok else message)


def run_harness(exe: Path, job: RunJob, workdir: Path, live: set | None = None) -> dict[str, Any]:
    """Run one variant of a built harness under the watchdog: what happened, as plain data
    (the runner makes a Result of it): ``status`` and ``message``, and for a run that printed
    its report, that report's fields, ``stderr``, ``counted`` and ``variant_s`` (the run's
    seconds after the C reference). ``live``: holds the process while it runs (what a closing
    executor kills)."""
    env = dict(os.environ, **dict(job.env))
    if job.address_limit:  # the emulation sets it on itself as it starts
        env["ORCU_EMULATION_ADDRESS_LIMIT"] = str(job.address_limit)
    # the harness writes here how long the C reference took: the watchdog guards the variant
    mark = workdir / f".{os.getpid()}.{threading.get_ident()}.{time.monotonic_ns()}.reference"
    env["ORCU_REFERENCE_DONE"] = str(mark)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), str(job.which), *job.arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    if live is not None:
        live.add(proc)
    try:
        while True:
            try:
                stdout, stderr = proc.communicate(timeout=0.25)
                break
            except subprocess.TimeoutExpired:
                reference_s, running = _reference_seconds(mark), time.perf_counter() - start
                if reference_s is None and running > job.reference_limit:
                    late = f"the original C code took longer than {job.reference_limit:.0f} s at these sizes"
                elif reference_s is not None and running - reference_s > job.limit:
                    late = f"the run took longer than {job.limit:.1f} s"
                else:
                    continue
                proc.kill()
                proc.communicate()
                return {"status": "timeout", "message": late, "run_s": job.limit}
        elapsed = time.perf_counter() - start
        reference_s = _reference_seconds(mark)
        variant_s = elapsed - (reference_s or 0.0)
    finally:
        mark.unlink(missing_ok=True)
        if live is not None:
            live.discard(proc)
    err = truncate(stderr)
    if proc.returncode < 0:
        # before the mark, the C code as written was running: the inputs' failure, not the variant's
        return {
            "status": "crash",
            "signal": signal.Signals(-proc.returncode).name,
            "stderr": err,
            "run_s": elapsed,
            **({"reference_failed": True} if reference_s is None else {}),
        }
    if proc.returncode != 0:
        status = "launch_error" if "CUDA error" in err or "orcu emulation:" in err else "crash"
        return {"status": status, "message": err or f"exit code {proc.returncode}", "run_s": elapsed}
    try:
        report = json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {
            "status": "crash",
            "message": "the harness printed no result" + (f": {err}" if err else ""),
            "run_s": elapsed,
        }
    counted = _MEMORY_COUNTS.search(stderr)
    if counted is not None:  # a line for the tool, not a message for the user
        err = truncate(_MEMORY_COUNTS.sub("", stderr))
    return {
        **report,
        "stderr": err,
        "run_s": elapsed,
        "variant_s": variant_s,
        "counted": json.loads(counted.group(1)) if counted else None,
    }


def _reference_seconds(mark: Path) -> float | None:
    """How long the harness's C reference took, once it has written so (``mark``)."""
    try:
        return float(mark.read_text()) / 1e3
    except (OSError, ValueError):  # not yet, or being written
        return None


class Local:
    """This machine: builds in the caller's threads, runs one at a time, or one per GPU of
    ``gpus`` at a time, each pinned to its GPU with CUDA_VISIBLE_DEVICES."""

    def __init__(self, workdir: Path, gpus: list[str] | None = None):
        self.workdir = Path(workdir)
        self.gpus = list(gpus or [None])
        self._free: queue.Queue = queue.Queue()
        for gpu in self.gpus:
            self._free.put(gpu)
        self._pool = ThreadPoolExecutor(max_workers=len(self.gpus), thread_name_prefix="orcu-run")
        self._busy = 0
        self._lock = threading.Lock()
        self._running: set = set()  # the harnesses running now

    @property
    def slots(self) -> int:
        return len(self.gpus)

    def describe(self) -> str:
        return f"{len(self.gpus)} GPUs ({', '.join(self.gpus)})" if self.gpus != [None] else "this machine"

    def compile(self, job: BuildJob) -> tuple[Built, Build]:
        exe, build = build_harness(job, self.workdir)
        return Built(job, str(exe)), build

    def run(self, built: Built, job: RunJob) -> Future:
        def go():
            gpu = self._free.get()
            with self._lock:
                self._busy += 1
            try:
                pinned = job if gpu is None else replace(job, env=job.env + (("CUDA_VISIBLE_DEVICES", gpu),))
                outcome = run_harness(Path(built.path), pinned, self.workdir, self._running)
                return outcome if gpu is None else {**outcome, "gpu": gpu}
            finally:
                with self._lock:
                    self._busy -= 1
                self._free.put(gpu)

        return self._pool.submit(go)

    def workers(self) -> tuple[int, int]:
        """(busy, all) run slots."""
        return self._busy, len(self.gpus)

    def close(self) -> None:
        """Drop the runs not started and end those running (a tune interrupted does not wait
        for them)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(self._running):
            proc.kill()


# -- a Dask cluster -------------------------------------------------------------------------------

BATCH_SCHEDULERS = ("slurm", "pbs", "lsf", "sge", "htcondor", "moab", "oar")
WORKER_WAIT_S = 120  # how long a tune waits for its first worker
SLOTS_S = 5.0
GONE_S = 10.0  # a scheduler unreachable this long has gone
BUILD_WAIT_S = 900.0  # a build's task: the compiler's own limit (300 s) and the queue before it


def _worker_dir() -> Path:
    """Where a worker keeps the harnesses it built: its machine's temporary folder, per user."""
    return Path(tempfile.gettempdir()) / f"orcu-worker-{os.getuid()}" / "build"


def remote_build(job: BuildJob) -> tuple[str, Build, str]:
    """A worker's task: build ``job`` (or find it built): (its path, the build, the worker)."""
    from distributed import get_worker

    exe, build = build_harness(job, _worker_dir())
    return str(exe), build, get_worker().address


def remote_run(built: Built, job: RunJob) -> dict[str, Any]:
    """A worker's task: run one variant, building its harness first where this worker has not."""
    from distributed import get_worker

    exe, build = build_harness(built.job, _worker_dir())
    if not build.ok:
        return {
            "status": "crash",
            "message": f"the harness does not build on worker {get_worker().address}: {build.message}",
        }
    return {**run_harness(exe, job, _worker_dir()), "worker": get_worker().address}


class ClusterGone(UsageError):
    """The cluster stopped answering: the tune stops, its results so far in the database."""


class Cluster:
    """A Dask cluster: ``local:N`` (a LocalCluster of N worker processes), ``tcp://HOST:PORT`` (a
    running scheduler), or ``slurm:N``, ``pbs:N``, ``lsf:N``... (N workers started through
    dask-jobqueue, with the settings of ``settings``: orcu.toml's [cluster] section, else
    dask-jobqueue's own configuration and environment)."""

    def __init__(self, spec: str, settings: dict[str, Any] | None = None):
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--cluster needs Dask: pip install 'orcu[cluster]'") from None
        self.spec = spec
        self._inflight, self._lock = 0, threading.Lock()  # tasks of this tune on the workers
        self._slots: tuple[int, int, int, float] | None = None
        # a worker that dies takes its task: run once more elsewhere, then the task fails (a crash)
        dask.config.set({"distributed.scheduler.allowed-failures": 1})
        kind, _, count = spec.partition(":")
        self._cluster = None
        if spec.startswith(("tcp://", "tls://", "ucx://")):
            self.client = Client(spec, timeout=WORKER_WAIT_S)
        elif kind in ("local", *BATCH_SCHEDULERS) and count.isdigit() and int(count) > 0:
            if kind == "local":
                self._cluster = LocalCluster(
                    n_workers=int(count), threads_per_worker=1, processes=True, dashboard_address=None
                )
            else:
                self._cluster = _jobqueue(kind, settings)
                self._cluster.scale(int(count))
            self.client = Client(self._cluster)
        else:
            raise UsageError(
                f"--cluster: expected local:N, tcp://HOST:PORT or {'|'.join(BATCH_SCHEDULERS[:3])}:N, got '{spec}'"
            )
        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except (TimeoutError, OSError) as e:
            self.close()
            raise UsageError(f"--cluster {spec}: no worker joined in {WORKER_WAIT_S} s ({e})") from None

    @property
    def slots(self) -> int:
        """The workers' threads (workers come and go)."""
        return self._workers_now()[0]

    def _workers_now(self) -> tuple[int, int, int]:
        """(run slots, workers, workers with a GPU resource), asked of the scheduler at most every
        SLOTS_S seconds. Where some workers declare GPUs (dask worker --resources GPU=1), runs
        go to them alone, one a GPU, and builds to any worker; else every worker thread runs."""
        if self._slots is None or time.monotonic() - self._slots[3] > SLOTS_S:
            info = self.client.scheduler_info()["workers"].values()
            gpus = sum(int(w.get("resources", {}).get("GPU", 0)) for w in info)
            threads = sum(w["nthreads"] for w in info)
            self._slots = (max(1, gpus or threads), len(info), gpus, time.monotonic())
        return self._slots[:3]

    def describe(self) -> str:
        return f"the Dask cluster {self.spec} ({self.slots} worker threads)"

    def _track(self, future):
        with self._lock:
            self._inflight += 1

        def done(_):
            with self._lock:
                self._inflight -= 1

        future.add_done_callback(done)
        return future

    def compile(self, job: BuildJob) -> tuple[Built, Build]:
        outcome = _Pending(self, self._track(self.client.submit(remote_build, job, pure=False)), BUILD_WAIT_S).result()
        if isinstance(outcome, dict):  # its workers died twice, or hung: no verdict on the code
            raise UsageError(
                f"building on {self.spec} failed: {outcome['message']}; every result so far is in the results database"
            )
        path, build, worker = outcome
        return Built(job, path, worker), build

    def run(self, built: Built, job: RunJob) -> _Pending:
        gpus = self._workers_now()[2]
        where = (
            {"resources": {"GPU": 1}}
            if gpus
            else {"workers": [built.worker], "allow_other_workers": True}
            if built.worker
            else {}
        )
        future = self._track(self.client.submit(remote_run, built, job, pure=False, **where))
        return _Pending(self, future, job.limit + job.reference_limit + 60)

    def workers(self) -> tuple[int, int]:
        """(workers busy with this tune's builds and runs, workers)."""
        every = self._workers_now()[1]
        return min(self._inflight, every), every

    def gone(self, why: str) -> None:
        raise ClusterGone(
            f"the cluster {self.spec} went away ({why}); every result so far is in the results database: "
            "the same command resumes, on this cluster or another"
        )

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self._cluster is not None:
                self._cluster.close()


class _Pending:
    """A task on the cluster; ``result()`` is its outcome, a worker's death or hang included. What
    is no verdict on the variant (the cluster gone, a worker that cannot run orcu) stops the tune
    instead of being recorded as one."""

    def __init__(self, cluster: Cluster, future, wait_s: float):
        self.cluster, self.future, self.wait_s = cluster, future, wait_s

    def result(self):
        from distributed import KilledWorker

        start, unreachable = time.monotonic(), None
        while True:
            try:
                return self.future.result(timeout=0.5)
            except TimeoutError:  # not yet: is the scheduler still there, and the task within its time?
                if self.cluster.client.status != "running":  # reconnecting: gone, past GONE_S
                    unreachable = unreachable or time.monotonic()
                    if time.monotonic() - unreachable > GONE_S:
                        self.cluster.gone(f"the scheduler did not answer for {GONE_S:.0f} s")
                else:
                    unreachable = None
                if time.monotonic() - start > self.wait_s:
                    self.future.cancel()
                    return {"status": "timeout", "message": f"its worker did not answer in {self.wait_s:.0f} s"}
            except KilledWorker as e:
                return {"status": "crash", "message": f"the workers running it died, twice ({e})"}
            except (Exception, asyncio.CancelledError) as e:  # noqa: BLE001  no verdict on the variant: the cluster, or orcu on a worker
                if self.cluster.client.status != "running":
                    self.cluster.gone(f"{type(e).__name__}: {e}")
                raise UsageError(
                    f"a worker of {self.cluster.spec} could not run orcu's task ({type(e).__name__}: {e}): "
                    "workers need orcu and the toolchain; every result so far is in the results database"
                ) from None


def _jobqueue(kind: str, settings: dict[str, Any] | None):
    """A dask-jobqueue cluster of a batch scheduler, from ``settings`` (cores, memory, queue,
    account, walltime, job_extra_directives...) or dask-jobqueue's configuration."""
    try:
        import dask_jobqueue
    except ImportError:
        raise UsageError(f"--cluster {kind}:N needs dask-jobqueue: pip install 'orcu[cluster]'") from None
    names = {
        "slurm": "SLURMCluster",
        "pbs": "PBSCluster",
        "lsf": "LSFCluster",
        "sge": "SGECluster",
        "htcondor": "HTCondorCluster",
        "moab": "MoabCluster",
        "oar": "OARCluster",
    }
    try:
        return getattr(dask_jobqueue, names[kind])(**(settings or {}))
    except (TypeError, ValueError) as e:
        raise UsageError(
            f"--cluster {kind}: {e} (orcu.toml's [cluster] section, or dask-jobqueue's configuration)"
        ) from None


def cluster_settings(near: Path) -> dict[str, Any]:
    """The [cluster] section of the orcu.toml in the current directory, else beside ``near``."""
    for folder in (Path.cwd(), Path(near).resolve().parent):
        path = folder / "orcu.toml"
        if path.is_file():
            try:
                import tomllib
            except ImportError:  # Python 3.10
                raise UsageError(f"{path}: reading orcu.toml needs Python 3.11 or later") from None
            try:
                return dict(tomllib.loads(path.read_text()).get("cluster", {}))
            except tomllib.TOMLDecodeError as e:
                raise UsageError(f"{path}: {e}") from None
    return {}


def visible_gpus(backend: str) -> list[tuple[str, str]]:
    """(index, model) of each GPU this machine shows: nvidia-smi's (within CUDA_VISIBLE_DEVICES)
    for --backend cuda; under the emulation, ORCU_EMULATION_DEVICES of the emulated device (1
    by default), to try several GPUs without one."""
    if not backend_of(backend).on_gpu:
        return [(str(k), "emulated") for k in range(int(os.environ.get("ORCU_EMULATION_DEVICES", "1") or 1))]
    try:
        proc = subprocess.run(
            ["nvidia-smi", "--query-gpu=index,name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = [
        (index.strip(), model.strip())
        for index, model in (line.split(",", 1) for line in proc.stdout.splitlines() if "," in line)
    ]
    shown = os.environ.get("CUDA_VISIBLE_DEVICES")
    if shown is not None:
        wanted = [s.strip() for s in shown.split(",") if s.strip()]
        found = [f for f in found if f[0] in wanted]
    return found


def chosen_gpus(requested: str | None, backend: str) -> list[str] | None:
    """The GPUs of ``--gpus 0,1`` (checked to exist and be of one model), or by default with
    --backend cuda every visible GPU of the first one's model; None: one run at a time, as before."""
    shown = visible_gpus(backend)
    if requested is None:
        if not backend_of(backend).on_gpu or len(shown) < 2:
            return None
        return [index for index, model in shown if model == shown[0][1]]
    wanted = [g.strip() for g in requested.split(",") if g.strip()]
    models = dict(shown)
    for g in wanted:
        if g not in models:
            raise UsageError(
                f"--gpus: no GPU {g} here (visible: {', '.join(models) or 'none'}"
                f"{'; the emulation shows ORCU_EMULATION_DEVICES of them' if not backend_of(backend).on_gpu else ''})"
            )
    if len({models[g] for g in wanted}) > 1:
        raise UsageError(
            "--gpus: "
            + ", ".join(f"GPU {g} is {models[g]}" for g in wanted)
            + ": one tune times one model (its results are keyed by the device)"
        )
    if len(set(wanted)) != len(wanted):
        raise UsageError(f"--gpus names a GPU twice: {requested}")
    return wanted
