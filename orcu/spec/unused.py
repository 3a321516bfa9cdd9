"""Spec arguments from Orio that orcu accepts but does not act on, each said once, at its place.

Orio's specs carry them; refusing them would refuse Orio's own files, and ignoring them in
silence would let a user believe they did something.
"""

from __future__ import annotations

import re

from orcu.spec.model import TuningSpec

# (section, argument) -> (kind, why)
UNUSED = {
    ("performance_counter", "method"): (
        "warning",
        "'method' is not used: orcu times each variant with CUDA events around its kernels, or with a "
        "monotonic clock around the whole host function; choose between them with arg measure = 'kernel' or 'total'",
    ),
    ("validation", "validation_file"): (
        "warning",
        "'validation_file' is not used: orcu checks every variant against the original code, run by the "
        "harness on the same inputs, element by element with a tolerance fit for each type",
    ),
    ("search", "resume"): (
        "note",
        "'resume' is what orcu always does: every evaluation stays in the results database "
        "($ORCU_HOME/results.sqlite), and a tune that meets a configuration again takes its result from there",
    ),
}


def unused_notes(spec: TuningSpec) -> list[str]:
    """``path:line:col: warning: ...`` for each such argument the spec gives."""
    given = [
        (getattr(spec, section)[name], kind, why)
        for (section, name), (kind, why) in UNUSED.items()
        if name in getattr(spec, section)
    ]
    if spec.cmdline:
        given.append(
            (
                spec.cmdline[0],
                "warning",
                "'cmdline_params' is not used: orcu times its own harness around the "
                "Loop regions, not the program, so there is no command line to give options to",
            )
        )
    given.sort(key=lambda g: (g[0].loc.line, g[0].loc.col) if g[0].loc else (0, 0))
    return [f"{arg.loc}: {kind}: {why}" if arg.loc else f"orcu: {kind}: {why}" for arg, kind, why in given]


def unused_decls(spec: TuningSpec, code: str) -> list[str]:
    """``path:line:col: note: ...`` for each input_vars decl that ``code`` (what the spec tunes:
    its PerfTuning region's code, the Loop regions' included) never names: made, filled and
    checked for nothing, and most likely a misspelt name."""
    named = set(re.findall(r"[A-Za-z_]\w*", code))
    return [
        f"{d.loc}: note: decl '{d.name}' is named by no code this spec tunes: orcu makes and fills it for nothing"
        for d in spec.input_vars
        if d.name not in named
    ]
