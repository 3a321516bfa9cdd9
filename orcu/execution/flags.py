"""Compiler flags a spec may ask for.

Tuning a file from a colleague or a paper's artifact must be as safe as reading it: its
spec's expressions go through the safe evaluator, and its build flags (``build_command``
after the compiler, with the ``@CFLAGS`` and ``@NAME@`` values of every configuration)
through an allowlist of what tuning needs: optimisation levels, macros, include paths,
math modes, register limits, ptxas options that only report or tune, line info and GPU
targets. Anything else, a flag that changes the toolchain, runs a program, writes output
elsewhere or hands options to the host compiler or linker, is refused at its place in
the file. Only the command line can allow it (``--trust-spec``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

from orcu.errors import Location, SpecError
from orcu.frontend.source import SourceFile
from orcu.spec.model import TuningSpec

# Flags a spec may give, whole (after '=' or as the next word where nvcc takes one).
_GPU = r"(?:sm|compute|lto)_\d+[af]?"
_ALLOWED = [
    re.compile(p)
    for p in (
        r"-O[0-3]?",
        r"--optimize=[0-3]",
        r"-dopt=(?:on|off)",
        r"-D.+",
        r"--define-macro=.+",
        r"-U.+",
        r"--undefine-macro=.+",
        r"-I.+",
        r"--include-path=.+",
        r"--?use_fast_math",
        r"--?(?:ftz|prec-div|prec-sqrt|fmad)=(?:true|false)",
        r"--?maxrregcount=\d+",
        r"-lineinfo",
        r"--generate-line-info",
        r"-g",
        r"-G",
        r"--device-debug",
        r"--debug",
        rf"-arch=(?:{_GPU}|native|all|all-major)",
        rf"--gpu-architecture=(?:{_GPU}|native|all|all-major)",
        rf"(?:-code|--gpu-code)=(?:{_GPU})(?:,{_GPU})*",
        rf"(?:-gencode|--generate-code)=arch={_GPU},code=(?:{_GPU}|\[{_GPU}(?:,{_GPU})*\])",
        r"-std=c\+\+\d\d",
        r"--std=c\+\+\d\d",
        r"-w",
        r"--disable-warnings",
        r"-W[\w=,+-]*",
        r"--expt-relaxed-constexpr",
        r"--extended-lambda",
        r"--expt-extended-lambda",
        r"-res-usage",
        r"--resource-usage",
        r"-l[\w+-]+",
    )
]
# nvcc options whose value may be the next word.
_TAKES_VALUE = {
    "-D",
    "-U",
    "-I",
    "-arch",
    "--gpu-architecture",
    "-code",
    "--gpu-code",
    "-gencode",
    "--generate-code",
    "-maxrregcount",
    "--maxrregcount",
    "--optimize",
    "-Xptxas",
    "--ptxas-options",
    "-Xcompiler",
    "--compiler-options",
    "-ccbin",
    "--compiler-bindir",
    "-o",
    "--output-file",
    "-odir",
    "--output-directory",
    "-Xlinker",
    "--linker-options",
    "-Xnvlink",
    "--nvlink-options",
    "-L",
    "--library-path",
    "--keep-dir",
    "-keep-dir",
    "-MF",
    "--dependency-output",
    "-optf",
    "--options-file",
    "--run-args",
    "-run-args",
    "--std",
    "--define-macro",
    "--undefine-macro",
    "--include-path",
}
# Options ptxas may get: they report, or tune code generation.
_PTXAS = [
    re.compile(p)
    for p in (
        r"-v",
        r"--verbose",
        r"-O[0-3]",
        r"--opt-level=[0-3]",
        r"-dlcm=c[ags]",
        r"--def-load-cache=c[ags]",
        r"-dscm=(?:wb|cg|cs|wt)",
        r"--def-store-cache=(?:wb|cg|cs|wt)",
        r"--?warn-on-spills",
        r"-warn-spills",
        r"--?warn-on-local-memory-usage",
        r"-warn-lmem-usage",
        r"--allow-expensive-optimizations=(?:true|false)",
        r"--?maxrregcount=\d+",
        r"--?fmad=(?:true|false)",
        r"-w",
        r"--disable-warnings",
    )
]
# Options the host compiler may get: optimisation, warnings, code generation.
_HOST = [
    re.compile(p)
    for p in (
        r"-O[0-3s]?",
        r"-W[\w=,+-]*",
        r"-w",
        r"-march=[\w-]+",
        r"-mtune=[\w-]+",
        r"-ffast-math",
        r"-funroll-loops",
        r"-fno-[\w-]+",
        r"-fopenmp",
        r"-g",
    )
]
# Why the flags that matter most are refused.
_REFUSED = [
    (re.compile(r"(?:-ccbin|--compiler-bindir)(?:=.*)?"), "it changes the host compiler nvcc runs"),
    (re.compile(r"--?run(?:-args)?(?:=.*)?"), "it runs a program"),
    (re.compile(r"--?dryrun"), "it makes nvcc print commands instead of building"),
    (
        re.compile(
            r"(?:-o|--output-file|-odir|--output-directory|--?keep(?:-dir)?|--?save-temps|-M\w*|--dependency-output)(?:=.*)?"
        ),
        "it writes output where orcu does not look",
    ),
    (
        re.compile(r"(?:-Xlinker|--linker-options|-Xnvlink|--nvlink-options|-L.*|--library-path)(?:=.*)?"),
        "it changes what the linker loads",
    ),
    (re.compile(r"(?:-optf|--options-file)(?:=.*)?"), "it reads more options from a file"),
]
_ALLOWED_TEXT = (
    "a spec may ask only for optimisation levels, macros, include paths, math modes, register limits, "
    "ptxas reports, line info and GPU targets; pass --trust-spec to orcu to allow it"
)


def _words(flags: list[str]) -> Iterator[tuple[str, str]]:
    """(flag as written, the same with its value joined by '=') of a flag list."""
    k = 0
    while k < len(flags):
        word = flags[k]
        if word in _TAKES_VALUE and k + 1 < len(flags):
            yield f"{word} {flags[k + 1]}", word + ("" if word in ("-D", "-U", "-I", "-L") else "=") + flags[k + 1]
            k += 2
        else:
            yield word, word
            k += 1


def refusal(flag: str) -> str | None:
    """Why a spec may not give ``flag`` (with its value joined by '='); None when it may."""
    name, _, value = flag.partition("=")
    if name in ("-Xptxas", "--ptxas-options"):
        bad = [o for o in value.split(",") if not any(p.fullmatch(o) for p in _PTXAS)]
        return None if value and not bad else f"ptxas option '{bad[0] if bad else value}' does more than report or tune"
    if name in ("-Xcompiler", "--compiler-options"):
        bad = [o for o in value.split(",") if not any(p.fullmatch(o) for p in _HOST)]
        return None if value and not bad else f"it hands '{bad[0] if bad else value}' to the host compiler"
    if any(p.fullmatch(flag) for p in _ALLOWED):
        return None
    for pattern, why in _REFUSED:
        if pattern.fullmatch(flag):
            return why
    return "orcu does not pass it from a spec"


def _substituted(command: str, params: Mapping[str, Any]) -> str:
    for name, value in params.items():
        command = command.replace(f"@{name}@", str(value))
    if "CFLAGS" in params:
        command = command.replace("@CFLAGS", str(params["CFLAGS"]))
    return command


def spec_flags(command: str | None, params: Mapping[str, Any]) -> tuple[str, ...]:
    """The flags of ``build_command`` with @NAME@ and @CFLAGS substituted, the compiler dropped."""
    if not command:
        return ()
    return tuple(shlex.split(_substituted(command, params))[1:])


def check_build_flags(spec: TuningSpec, src: SourceFile) -> None:
    """A located diagnostic at the first flag the spec may not give, for any value of the
    parameters its build command reads (each parameter's values in turn, the others at their
    first: a flag comes from one place), and at the first word of ``libs`` that names no
    library (``-lNAME``)."""
    libs = spec.build.get("libs")
    if libs is None and not spec.build_command:
        return  # nothing to read the spec's text for (a spec orcu assumed has none)
    spec_src = src if spec.path == src.path else SourceFile.read(spec.path)
    if libs is not None:
        try:
            words = shlex.split(libs.value)
        except ValueError as e:
            raise spec_src.error_at(libs.loc, f"libs cannot be split into words: {e}", SpecError) from None
        for written, flag in _words(words):
            why = (
                refusal(flag)
                if flag.startswith("-l")
                else next((w for pattern, w in _REFUSED if pattern.fullmatch(flag)), "it is not a library (-lNAME)")
            )
            if why is not None:
                raise spec_src.error_at(
                    _place(spec_src, libs.loc, written.split()[0]),
                    f"libs: '{written}' refused: {why}; "
                    "libs may name libraries (-lNAME); pass --trust-spec to orcu to allow more",
                    SpecError,
                )
    command = spec.build_command
    if not command:
        return
    used = _used(spec)
    arg = spec.build["build_command"]
    settings = flag_settings(spec)
    for setting in settings:
        try:
            flags = spec_flags(command, setting)
        except ValueError as e:  # unbalanced quotes
            raise spec_src.error_at(arg.loc, f"build_command cannot be split into words: {e}", SpecError) from None
        for written, flag in _words(list(flags)):
            why = refusal(flag)
            if why is None:
                continue
            word = (written.split() or [written])[0]  # a quoted blank is a word too
            source = next((p for p in used if word in str(setting[p.name]).split()), None)
            loc = _place(spec_src, source.loc if source else arg.loc, word)
            raise spec_src.error_at(loc, f"build flag '{written}' refused: {why}; {_ALLOWED_TEXT}", SpecError)


def _used(spec: TuningSpec) -> list:
    command = spec.build_command or ""
    return [
        p for p in spec.performance_params if f"@{p.name}@" in command or (p.name == "CFLAGS" and "@CFLAGS" in command)
    ]


def flag_settings(spec: TuningSpec) -> list[dict[str, Any]]:
    """Settings of the parameters the build command reads that give every flag it can give:
    each parameter's values in turn, the others at their first (a flag comes from one place)."""
    used = _used(spec)
    first = {p.name: p.values[0] for p in used}
    return [first] + [{**first, p.name: value} for p in used for value in p.values[1:]]


def _place(src: SourceFile, start: Location, text: str) -> Location:
    """Where ``text`` first appears in the statement that starts at ``start`` (else ``start``)."""
    begin = src.offset(start.line, start.col)
    end = src.text.find(";", begin)
    at = src.text.find(text, begin, end if end >= 0 else len(src.text))
    return src.location(at) if at >= 0 else start
