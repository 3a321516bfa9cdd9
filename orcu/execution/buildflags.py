"""The flags a variant's harness is built with: the spec's build command with its parameters
substituted, as each compiler takes them, the GPU architecture's own, and the libraries to link."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping
from typing import Any

from orcu.device import Device
from orcu.execution.backends import backend as backend_of
from orcu.execution.flags import flag_settings, spec_flags
from orcu.planning.program import Program


def build_flags(
    command: str | None, params: Mapping[str, Any], backend: str, arch: str | None = None
) -> tuple[str, ...]:
    """Flags of the spec's build_command with @NAME@ and @CFLAGS substituted (the compiler dropped);
    orcu.execution.flags has checked them, or the user trusts the spec.

    The emulation keeps only -D, -I and -O flags: the others are nvcc's. For the GPU ``arch``
    (sm_90), flags that name only other GPUs are dropped: the device's own is compiled for
    (foreign_arch says so before the tune).
    """
    if not command:
        return ("-O3",) if backend_of(backend).on_gpu else ()
    words = spec_flags(command, params)
    if backend_of(backend).on_gpu:
        return tuple(words) if arch is None else _split_arch(words, arch)[0]
    return _only(words, ("-D", "-I", "-O"))


def spec_defines_and_includes(command: str | None, params: Mapping[str, Any]) -> tuple[str, ...]:
    """The -D and -I flags of the spec's build command: what a build of the tuned file needs
    beside the file itself (its headers, its macros)."""
    return _only(spec_flags(command, params), ("-D", "-I"))


def _only(words, options: tuple[str, ...]) -> tuple[str, ...]:
    """The flags among ``words`` that start with one of ``options``, with the value of -D or -I
    given as the next word (``-I inc``)."""
    out = []
    for k, word in enumerate(words):
        if word in ("-D", "-I") and word in options and k + 1 < len(words):
            out += [word, words[k + 1]]
        elif word.startswith(options) and word not in ("-D", "-I"):
            out.append(word)
    return tuple(out)


_ARCH_OPTIONS = ("-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code")


def _split_arch(words, arch: str) -> tuple[tuple[str, ...], list[str]]:
    """(the flags without those naming only GPUs other than ``arch``, those flags as written)."""
    number = arch.split("_")[1]
    kept, foreign = [], []
    k = 0
    while k < len(words):
        word = words[k]
        takes = word in _ARCH_OPTIONS and k + 1 < len(words)
        flag = [word, words[k + 1]] if takes else [word]
        k += len(flag)
        text = " ".join(flag)
        if word.split("=")[0] in _ARCH_OPTIONS and not re.search(
            rf"(?:sm|compute|lto)_{number}[af]?\b|=(?:native|all|all-major)$|^(?:native|all|all-major)$",
            text.split(" ")[-1],
        ):
            foreign.append(text)
        else:
            kept += flag
    return tuple(kept), foreign


def foreign_arch(program: Program, device: Device) -> list[str]:
    """A note for each build flag, of any configuration, that names only GPUs other than the
    ``device``'s (build_flags drops it)."""
    command = program.spec.build_command
    found: dict[str, None] = {}
    for setting in flag_settings(program.spec) if command else []:
        found.update(dict.fromkeys(_split_arch(spec_flags(command, setting), device.arch)[1]))
    return [
        f"orcu: note: build flag '{flag}' names only other GPUs than the {device.name} ({device.arch}): orcu compiles "
        f"for {device.arch} instead"
        for flag in found
    ]


def build_libs(program: Program) -> tuple[str, ...]:
    """The spec's ``libs`` (Orio's): what the harness links with (orcu.execution.flags has checked them,
    or the user trusts the spec)."""
    libs = program.spec.arg("build", "libs")
    return tuple(shlex.split(libs)) if libs else ()


def _names_arch(flags: Iterable[str]) -> bool:
    return any(f.startswith(("-arch", "--gpu-architecture", "-gencode", "--generate-code")) for f in flags)
