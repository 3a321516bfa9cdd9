"""``orcu cc``: a compiler wrapper, as Orio's orcc was.

``orcu cc [options] -- <compiler> <args...>`` runs the compiler command with each annotated
source among its arguments replaced by its tuned version: orcu writes the tuned ``.cu`` (from
the results database, as ``orcu apply`` does, or by tuning it with ``--tune-missing`` when
there are no results), compiles it with nvcc (or, with ``--emulate``, with the C++ compiler
against orcu's CPU emulation) to an object, and hands that object to the compiler in the
source's place. Every other argument passes through untouched; what the compiler and nvcc say,
and their exit codes, are the wrapper's.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from orcu.driver.database import database_path
from orcu.errors import UsageError
from orcu.execution.toolchain import EMULATION, NVCC, build_command, nvcc

SOURCES = (".c", ".cc", ".cpp", ".cxx", ".C")
# Compiler options whose value is the next argument (so that argument is no source).
TAKES_VALUE = {
    "-o",
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-x",
    "-MF",
    "-MT",
    "-MQ",
    "-L",
    "-Xlinker",
    "-Xpreprocessor",
    "-Xassembler",
    "-idirafter",
    "-arch",
}
_ANNOTATED = re.compile(r"/\*@\s*begin\s+Loop\b")
# What the tuned file's compile keeps of the compiler's arguments: the preprocessor's, -O and -g.
_KEPT = re.compile(r"-[DUI].*|-O.*|-g")


def annotated_sources(command: list[str]) -> list[int]:
    """Positions of the annotated C sources among the compiler's arguments."""
    found = []
    for k in range(1, len(command)):
        arg = command[k]
        if command[k - 1] in TAKES_VALUE or not arg.endswith(SOURCES) or not Path(arg).is_file():
            continue
        if _ANNOTATED.search(Path(arg).read_text(errors="replace")):
            found.append(k)
    return found


def run(command: list[str], emulate: bool, orcu_options: list[str], tune_options: list[str] | None, arch: str) -> int:
    """``orcu_options`` for apply and tune; ``tune_options``: None to refuse regions without
    results, else the options of the tune that makes them."""
    if not command:
        raise UsageError("orcu cc: give the compiler command after '--', e.g. orcu cc -- gcc -c main.c")
    sources = annotated_sources(command)
    compile_only = "-c" in command[1:]
    output = command[command.index("-o") + 1] if "-o" in command[:-1] else None
    kept = _kept_flags(command)
    work = Path(tempfile.mkdtemp(prefix="orcu-cc-"))
    try:
        replaced = list(command)
        alone = output is not None and len(sources) == 1 and not _other_sources(command, sources)
        for k in sorted(sources, reverse=True):
            source = Path(command[k])
            tuned = work / f"{source.stem}.tuned.cu"
            status = _tuned(source, tuned, orcu_options, tune_options)
            if status != 0:
                return status
            if compile_only:  # the object the compiler would have made of the source
                obj = output if alone else f"{source.stem}.o"
            else:
                obj = str(work / f"{source.stem}.o")
            built = subprocess.run(_object_command(tuned, Path(obj), source.parent, kept, emulate, arch))
            if built.returncode != 0:
                return built.returncode
            if compile_only:
                del replaced[k]
            else:
                replaced[k] = obj
        if compile_only and not _other_sources(command, sources):
            return 0  # the tuned objects were all the command made
        if sources:  # the other sources may include the tuned headers (FILE.tuned.h)
            replaced.insert(1, f"-I{work}")
        if sources and not compile_only:
            replaced += _runtime_libraries(emulate)
        return subprocess.run(replaced).returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _other_sources(command: list[str], annotated: list[int]) -> bool:
    return any(
        arg.endswith(SOURCES + (".cu", ".s", ".S")) and command[k - 1] not in TAKES_VALUE and k not in annotated
        for k, arg in enumerate(command[1:], 1)
    )


def _kept_flags(command: list[str]) -> list[str]:
    kept = []
    for k, arg in enumerate(command[1:], 1):
        if arg in ("-D", "-U", "-I") and k + 1 < len(command):
            kept += [arg, command[k + 1]]
        elif _KEPT.fullmatch(arg) and arg not in ("-D", "-U", "-I"):
            kept.append(arg)
    return kept


def _tuned(source: Path, tuned: Path, options: list[str], tune_options: list[str] | None) -> int:
    """Writes the tuned file of ``source``: orcu apply, else (``tune_options`` given) orcu tune."""
    base = [sys.executable, "-m", "orcu"]
    tune = [*base, "tune", str(source), "-o", str(tuned), *options, *(tune_options or [])]
    if tune_options is not None and not database_path(source).exists():  # nothing was ever tuned for it
        return subprocess.run(tune, stdout=subprocess.DEVNULL).returncode
    applied = subprocess.run([*base, "apply", str(source), "-o", str(tuned), *options], capture_output=True, text=True)
    if applied.returncode == 1 and tune_options is not None:  # no results for some region: tune it
        return subprocess.run(tune, stdout=subprocess.DEVNULL).returncode
    if applied.returncode != 0:
        sys.stderr.write(applied.stderr)
    if applied.returncode == 1:
        print(
            f"orcu cc: {source} has no tuning results: run orcu tune {source}, or orcu cc --tune-missing",
            file=sys.stderr,
        )
    return applied.returncode


def _object_command(tuned: Path, obj: Path, source_dir: Path, kept: list[str], emulate: bool, arch: str) -> list[str]:
    """The tuned file's compile to an object: the toolchain's command, with -c."""
    try:
        return build_command(
            EMULATION if emulate else NVCC, tuned, obj, None if emulate else arch, ("-c", "-I", str(source_dir), *kept)
        )
    except FileNotFoundError as missing:
        raise UsageError(
            f"orcu cc: {missing}{'' if emulate else ', or build against the emulation with --emulate'}"
        ) from None


def _runtime_libraries(emulate: bool) -> list[str]:
    """What the link needs for the tuned objects: the C++ runtime, and CUDA's on the GPU."""
    if emulate:
        return ["-lstdc++", "-lm"]
    found = _cuda_library_dir()
    return [*([f"-L{found}"] if found else []), "-lcudart", "-lstdc++", "-lm"]


def _cuda_library_dir() -> Path | None:
    """The directory that holds libcudart: CUDA_HOME's, else nvcc's installation's, else the usual place."""
    found = nvcc()
    roots = [Path(os.environ[v]) for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    roots += [Path(found).resolve().parent.parent] if found else []
    roots += [Path("/usr/local/cuda")]
    return next(
        (
            root / sub
            for root in roots
            for sub in ("lib64", "lib", "targets/x86_64-linux/lib")
            if any((root / sub).glob("libcudart.so*"))
        ),
        None,
    )
