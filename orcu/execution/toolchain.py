"""Compilers: nvcc for the GPU, g++ with orcu's emulation header for the CPU.

Each build runs in a subprocess with a timeout; a failure is a message, never an
exception, so one broken variant costs one status.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

MESSAGE_LIMIT = 4000  # characters of compiler output kept with a status


class _Compiles:
    """The compiler processes running and the partial files they write, so that an interrupted
    orcu ends the one and removes the others before it leaves (cli.entry), and starts no build
    after the interrupt: a Ctrl-C at a terminal reaches the compilers first, and a build thread
    that saw its compiler die would otherwise go on to the next build."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.running: set[subprocess.Popen] = set()
        self.partials: set[Path] = set()
        self.writing = 0  # builds inside partial_files: each may still create its files
        self.stopped = False


_COMPILES = _Compiles()


class Interrupted(Exception):
    """A build asked for after orcu was interrupted."""


def stop_compiles(wait: float = 5.0) -> None:
    """No compile starts from now on; those running end, and the builds under way leave (up to
    ``wait`` seconds: they find their compiler gone or refused), their partial files removed."""
    with _COMPILES.lock:
        _COMPILES.stopped = True
        running = list(_COMPILES.running)
    for proc in running:
        proc.kill()
    with _COMPILES.lock:
        _COMPILES.lock.wait_for(lambda: _COMPILES.writing == 0, timeout=wait)
        partials = list(_COMPILES.partials)
    for path in partials:
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def partial_files(*paths: Path):
    """Files a build writes before it renames them into place: removed on leaving, and by
    stop_compiles, which waits for the builds inside to leave. Refused once stopped."""
    with _COMPILES.lock:
        if _COMPILES.stopped:
            raise Interrupted(str(paths[0]))
        _COMPILES.partials.update(paths)
        _COMPILES.writing += 1
    try:
        yield
    finally:
        for path in paths:
            path.unlink(missing_ok=True)
        with _COMPILES.lock:
            _COMPILES.partials.difference_update(paths)
            _COMPILES.writing -= 1
            _COMPILES.lock.notify_all()


def run_compiler(command: list[str], timeout: float) -> subprocess.CompletedProcess:
    """subprocess.run for a compiler, which stop_compiles can end; none starts once stopped."""
    with _COMPILES.lock:
        if _COMPILES.stopped:
            raise Interrupted(command[0])
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _COMPILES.running.add(proc)
    try:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
    finally:
        with _COMPILES.lock:
            _COMPILES.running.discard(proc)
    if proc.returncode == -signal.SIGINT:  # a Ctrl-C at the terminal: the tune is being interrupted
        with _COMPILES.lock:
            _COMPILES.stopped = True
    return subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)


# The two toolchains a variant is built with: nvcc for the GPU, g++ with orcu's emulation header
# for the CPU (orcu.execution.backends says which backend uses which).
NVCC = "cuda"
EMULATION = "emulate"


def nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    candidate = Path(home, "bin", "nvcc") if home else None
    return str(candidate) if candidate is not None and candidate.is_file() else None


def gxx() -> str | None:
    return shutil.which(os.environ.get("CXX", "g++"))


def cc() -> str | None:
    """The C compiler the reference is built with: $CC, else cc (gcc where cc is not there)."""
    return shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


def model_compiler() -> str:
    """The toolchain that checks what --backend model ranks and writes: nvcc where it is
    installed, the GPU build being the one that matters; else the emulation's."""
    return NVCC if nvcc() is not None else EMULATION


def emulation_include() -> Path:
    """The directory whose ``cuda_runtime.h`` is orcu's CPU emulation."""
    return Path(str(resources.files("orcu.templates"))) / "emulation"


def truncate(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """The start and the end of a long message (the first error and the summary)."""
    text = text.strip()
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + f"\n[... {len(text) - limit} characters left out ...]\n" + text[-half:]


@dataclass(frozen=True)
class Build:
    ok: bool
    seconds: float
    message: str  # compiler output (warnings included), truncated
    resources: dict[str, KernelResources] = field(default_factory=dict)  # ptxas's report by kernel (-Xptxas -v builds)


def build_command(
    compiler_kind: str,
    source: Path,
    output: Path,
    arch: str | None = None,
    flags: tuple[str, ...] = (),
    defines: dict[str, str] | None = None,
    libs: tuple[str, ...] = (),
) -> list[str]:
    """``flags`` before the source (the emulation gets the spec's -D, -I and -O ones: see
    runners.build_flags), ``libs`` after it, where the linker looks for what it still needs."""
    macros = [f"-D{k}={v}" for k, v in (defines or {}).items()]
    if compiler_kind == NVCC:
        compiler = nvcc()
        if compiler is None:
            raise FileNotFoundError("nvcc is not on PATH (set CUDA_HOME)")
        return [compiler, *(["-arch", arch] if arch else []), *flags, *macros, "-o", str(output), str(source), *libs]
    compiler = gxx()
    if compiler is None:
        raise FileNotFoundError("g++ is not on PATH")
    # The emulation's cuda_runtime.h first: a -I of the flags may name the real CUDA headers.
    # -O1: a third less compile time than -O2 for the same checks (no floating-point change);
    # the emulation's runs are checks, not timings (a spec's own -O flag comes after it and wins).
    # -Wno-unknown-pragmas: nvcc's `#pragma unroll` means nothing to g++, as it should.
    return [
        compiler,
        "-x",
        "c++",
        "-std=c++17",
        "-O1",
        "-Wno-unknown-pragmas",
        "-I",
        str(emulation_include()),
        *flags,
        *macros,
        "-o",
        str(output),
        str(source),
        "-x",
        "none",
        *libs,
    ]


def compile_c(source: Path, output: Path, flags: tuple[str, ...] = (), timeout: float = 300) -> Build:
    """The object of a C file: the harness's reference (harness.HarnessSource), compiled as the
    user's C compiler compiles it: at -O2 unless ``flags`` (a variant's build flags, of which the
    -D, -I and -O ones are C's too) say otherwise, warnings off (they are the user's to read)."""
    start = time.perf_counter()
    compiler = cc()
    if compiler is None:
        return Build(False, 0.0, "no C compiler on PATH (cc, gcc or $CC)")
    kept = [f for k, f in enumerate(flags) if f.startswith(("-D", "-I", "-O")) or (k and flags[k - 1] in ("-D", "-I"))]
    try:
        proc = run_compiler(
            [compiler, "-x", "c", "-O2", "-fwrapv", "-w", *kept, "-c", "-o", str(output), str(source)], timeout
        )
    except subprocess.TimeoutExpired:
        return Build(False, time.perf_counter() - start, f"the C compiler ran longer than {timeout:.0f} s")
    except Interrupted:
        return Build(False, time.perf_counter() - start, "not built: orcu was interrupted")
    return Build(proc.returncode == 0, time.perf_counter() - start, truncate((proc.stdout + proc.stderr).strip()))


def tuned_file_problem(
    text: str, name: str, include: Path, compiler_kind: str, defines: Mapping[str, str], flags: tuple[str, ...] = ()
) -> str | None:
    """Why a tuned file does not compile as a build compiles it, None when it does: nvcc for the
    GPU; otherwise the emulation's compiler, on the same C++ (its syntax only: quick). It is
    compiled from ``include``, the source's folder, with ``flags`` (the spec's -D and -I, which
    may name folders relative to it). FileNotFoundError: that compiler is not installed."""
    with tempfile.TemporaryDirectory(prefix="orcu-tuned-") as folder:
        source = Path(folder) / name
        source.write_bytes(text.encode("utf-8", "surrogateescape"))  # the source's bytes, as the tuned file keeps them
        own = ("-c",) if compiler_kind == NVCC else ("-fsyntax-only",)
        command = build_command(
            compiler_kind, source, Path(folder) / "tuned.o", None, (*own, "-I", str(include), *flags), dict(defines)
        )
        proc = subprocess.run(command, capture_output=True, text=True, errors="replace", cwd=include, timeout=600)
    return None if proc.returncode == 0 else truncate(proc.stderr.replace(str(source), name).strip())


def counting_commands(
    source: Path, output: Path, flags: tuple[str, ...], defines: dict[str, str], libs: tuple[str, ...] = ()
) -> list[list[str]]:
    """An emulated build that counts memory traffic (ORCU_EMULATION_SECTORS): compiled with the
    compiler's load and store instrumentation (-fsanitize=thread; the emulation's header has the
    hooks, so no sanitizer runtime is linked: two steps) and at -O0, so that each access the
    generated code writes is one access."""
    obj = output.parent / (output.name + ".o")
    compile_ = build_command(
        EMULATION, source, obj, None, (*flags, "-fsanitize=thread", "-fno-threadsafe-statics", "-O0"), defines
    )
    at = compile_.index("-o")
    return [compile_[:at] + ["-c"] + compile_[at:-2], [compile_[0], "-o", str(output), str(obj), *libs]]


def emulation_runtime(command: list[str]) -> Path | None:
    """A folder holding the emulation's runtime compiled for the options of ``command`` (an
    emulated compile, build_command's): cuda_runtime.h precompiled as a harness includes it
    (cuda_runtime.h.gch, with ORCU_EMULATION_RUNTIME_APART: types, declarations, templates) and
    the object of the functions it declares (runtime.o, emulation_runtime.inc). Made once per
    machine and option set; None where it cannot be made (a build then compiles the whole
    header). Parsing the header was half of a harness's compile and compiling its functions
    most of the rest; with the folder first on the include path g++ loads the .gch instead
    (where the .gch does not fit the options, g++ checks, it reads the header as before)."""
    header = emulation_include() / "cuda_runtime.h"
    try:
        text = header.read_text() + (header.parent / "emulation_runtime.inc").read_text()
        compiler = os.path.realpath(command[0])
        options = _runtime_options(command[1 : command.index("-o")], text)
        key = hashlib.sha256(
            "\0".join([compiler, str(os.stat(compiler).st_mtime), *options, text]).encode()
        ).hexdigest()[:20]
    except OSError:
        return None
    folder = Path(tempfile.gettempdir()) / f"orcu-emulation-{os.getuid()}" / key
    made = {
        folder / "cuda_runtime.h.gch": ["-x", "c++-header", "-DORCU_EMULATION_RUNTIME_APART"],
        folder / "runtime.o": ["-x", "c++", "-DORCU_EMULATION_RUNTIME_OBJECT", "-c"],
    }
    if all(target.exists() for target in made):
        os.utime(folder)  # used now: the last to be pruned
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for target, how in made.items():
            if not target.exists():
                _compile_once([command[0], *how, *options, str(header)], target)
        _prune_emulation_runtimes(folder)
        return folder
    except (OSError, subprocess.SubprocessError):
        shutil.rmtree(folder, ignore_errors=True)
        return None


def _runtime_options(options: list[str], text: str) -> list[str]:
    """The options of a harness's compile that the runtime is compiled with: all but the input
    language and the user's macros that the runtime's ``text`` does not name (a spec's
    -DN=..., one value per configuration, would otherwise make a runtime each; g++ accepts a
    precompiled header where the macros defined since do not appear in it). Macros of the
    implementation (_GLIBCXX_DEBUG, _FORTIFY_SOURCE, ...) and NDEBUG change the standard
    headers, so they stay."""
    kept, k = [], 0
    while k < len(options):
        word = options[k]
        take = 2 if word in ("-x", "-D", "-U") else 1
        macro = options[k + 1] if take == 2 else word[2:]
        name = re.split("[=(]", macro)[0]
        user_macro = word.startswith(("-D", "-U")) and re.fullmatch(r"[A-Za-z]\w*", name) and name != "NDEBUG"
        if word not in ("-x", "-c") and not (user_macro and not re.search(rf"\b{name}\b", text)):
            kept += options[k : k + take]
        k += take
    return kept


def _compile_once(command: list[str], target: Path) -> None:
    """``command`` writing ``target`` whole or not at all (several builds may make it at once)."""
    partial = target.parent / f".{target.name}.{uuid.uuid4().hex[:8]}"  # a name of this compile's own
    with partial_files(partial):
        proc = run_compiler([*command, "-o", str(partial)], timeout=300)
        if proc.returncode != 0:
            raise subprocess.CalledProcessError(proc.returncode, command, proc.stdout, proc.stderr)
        os.replace(partial, target)


KEPT_RUNTIMES = 8  # of 45 MB each: a few option sets (-O and -f flags, counting builds) and orcu versions
RUNTIME_IN_USE_S = 3600  # one used since is kept whatever their number: a tune may be linking with it


def _prune_emulation_runtimes(new: Path) -> None:
    """Removes the runtimes beyond the KEPT_RUNTIMES most recently used (``new`` among them)
    that no build has used for RUNTIME_IN_USE_S."""
    try:
        others = sorted(((f.stat().st_mtime, f) for f in new.parent.iterdir() if f != new), reverse=True)
    except OSError:
        return
    for used, old in others[KEPT_RUNTIMES - 1 :]:
        if used < time.time() - RUNTIME_IN_USE_S:
            shutil.rmtree(old, ignore_errors=True)


def _linking_runtime(commands: list[list[str]], folder: Path, libs: tuple[str, ...]) -> list[list[str]]:
    """An emulated build's ``commands`` (build_command's, or counting_commands') compiling the
    header's declarations (its precompiled form first) and linking the runtime's object."""
    out = [[commands[0][0], "-I", str(folder), "-DORCU_EMULATION_RUNTIME_APART", *commands[0][1:]], *commands[1:]]
    link = out[-1]  # the compile itself, or the link of its object: both end with the libraries
    at = len(link) - len(libs)
    out[-1] = [*link[:at], str(folder / "runtime.o"), *link[at:]]
    return out


def compile_program(
    compiler_kind: str,
    source: Path,
    output: Path,
    arch: str | None = None,
    flags: tuple[str, ...] = (),
    defines: dict[str, str] | None = None,
    timeout: float = 300,
    libs: tuple[str, ...] = (),
) -> Build:
    start = time.perf_counter()
    try:
        if compiler_kind == EMULATION and "ORCU_EMULATION_SECTORS" in (defines or {}):
            commands = counting_commands(source, output, flags, defines, libs)
        else:
            commands = [build_command(compiler_kind, source, output, arch, flags, defines, libs)]
        folder = emulation_runtime(commands[0]) if compiler_kind == EMULATION else None
        if folder is not None:
            commands = _linking_runtime(commands, folder, libs)
        with partial_files(Path(str(output) + ".o")):
            for command in commands:
                proc = run_compiler(command, timeout)
                if proc.returncode != 0:
                    break
    except subprocess.TimeoutExpired:
        return Build(False, time.perf_counter() - start, f"the compiler ran longer than {timeout:.0f} s")
    except Interrupted:
        return Build(False, time.perf_counter() - start, "not built: orcu was interrupted")
    except FileNotFoundError as e:
        return Build(False, time.perf_counter() - start, str(e))
    lines = (proc.stdout + proc.stderr).splitlines()
    ptxas = [line.startswith("ptxas info") or _PTXAS_FRAME.search(line) is not None for line in lines]  # -Xptxas -v
    report = "\n".join(line for line, said in zip(lines, ptxas) if said)
    message = "\n".join(line for line, said in zip(lines, ptxas) if not said)
    return Build(proc.returncode == 0, time.perf_counter() - start, truncate(message), ptxas_resources(report))


@dataclass(frozen=True)
class KernelResources:
    """What ptxas reports of one kernel."""

    registers: int
    shared_bytes: int  # static shared memory per block
    stack_bytes: int
    spill_bytes: int  # stores and loads

    @property
    def local_bytes(self) -> int:
        """Bytes of local memory it uses: stack frame and spills (none for a tile kept in registers)."""
        return self.stack_bytes + self.spill_bytes


_PTXAS_ENTRY = re.compile(r"Compiling entry function '(\w+)'")
_PTXAS_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_USED = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")


def ptxas_report(source: Path, arch: str) -> dict[str, KernelResources] | str:
    """Each kernel's resources in ``source`` compiled for ``arch`` by mangled name, or why there
    are none (no nvcc, a compile error)."""
    compiler = nvcc()
    if compiler is None:
        return "no nvcc"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [compiler, "-c", f"-arch={arch}", "-Xptxas", "-v", str(source), "-o", str(Path(tmp) / "k.o")],
            capture_output=True,
            text=True,
        )
    if proc.returncode != 0:
        return truncate(proc.stderr.strip() or f"nvcc exit code {proc.returncode}")
    return ptxas_resources(proc.stderr)


def ptxas_resources(report: str) -> dict[str, KernelResources]:
    """Each kernel's resources by mangled name, from what -Xptxas -v printed."""
    out: dict[str, KernelResources] = {}
    entry: str | None = None
    frame: tuple[int, ...] = (0, 0, 0)
    for line in report.splitlines():
        if (m := _PTXAS_ENTRY.search(line)) is not None:
            entry, frame = m.group(1), (0, 0, 0)
        elif (m := _PTXAS_FRAME.search(line)) is not None:
            frame = tuple(int(g) for g in m.groups())
        elif entry is not None and (m := _PTXAS_USED.search(line)) is not None:
            out[entry] = KernelResources(int(m.group(1)), int(m.group(2) or 0), frame[0], frame[1] + frame[2])
            entry = None
    return out


def kernel_instances(found: Mapping[str, KernelResources], host: str) -> dict[str, KernelResources]:
    """The reports of the kernel of a region's host function ``host`` alone (a file or a harness
    holds several kernels), by instance: first the one with 32-bit indices where there are two."""
    named = {name: r for name, r in found.items() if f"{host}_kernel" in name}
    return dict(sorted(named.items(), key=lambda item: "IiE" not in item[0]))


def kernel_resources(found: Mapping[str, KernelResources], host: str) -> KernelResources | None:
    """The report of the kernel of a region's host function ``host``: its instance with 32-bit
    indices where there are two."""
    return next(iter(kernel_instances(found, host).values()), None)
