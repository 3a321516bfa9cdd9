"""Mutated annotated files: the front end succeeds or gives orcu's own diagnostic."""

import tempfile
from pathlib import Path

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orcu.driver.report import summary
from orcu.errors import OrcuError
from orcu.planning.program import load

SOURCES = {p.name: p.read_text() for p in sorted(EXAMPLES.glob("*.c"))}
SIGNIFICANT = list("()[]{};,=*/@#'\"<>+-%.\n ") + [
    "/*@",
    "@*/",
    "/*@ end @*/",
    "def ",
    "param ",
    "__",
    "for (",
    "1e999",
    "**",
    "lambda",
]


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 12)))
        action = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        if action == "delete":
            text = text[:i] + text[j:]
        elif action == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            piece = draw(st.sampled_from(SIGNIFICANT) | st.text(alphabet="abcxyzTCBN019_ ", max_size=4))
            text = text[:i] + piece + (text[j:] if action == "replace" else text[i:])
    return name, text


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_front_end_only_raises_its_own_diagnostics(case):
    name, text = case
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_text(text)
        if name == "vecscale.c":
            (Path(d) / "vecscale.c.orcu.yaml").write_text((EXAMPLES / "vecscale.c.orcu.yaml").read_text())
        try:
            summary(load(path))
        except OrcuError as e:
            rendered = e.render()
            assert rendered.startswith(f"{path}:") or rendered.startswith("orcu: error:"), rendered
            assert ": error: " in rendered


FLAG_PIECES = [
    "-O3",
    "-O",
    "-DX=1",
    "-D",
    "X",
    "-I",
    "inc",
    "-use_fast_math",
    "-ftz=true",
    "-Xptxas",
    "-v,-dlcm=cg",
    "-v",
    "-Xcompiler",
    "-fplugin=x.so",
    "-B/tmp",
    "-O2",
    "-ccbin",
    "/tmp",
    "--run",
    "-o",
    "out",
    "-odir",
    "-arch",
    "sm_90",
    "-arch=sm_90",
    "-gencode",
    "arch=compute_90,code=sm_90",
    "--keep-dir",
    "-Xlinker",
    "-rpath=/x",
    "-L/x",
    "-lcublas",
    "-maxrregcount",
    "32",
    "@CF@",
    "'",
    '"',
    "=",
    ",",
    "--",
    "-",
    "-lineinfo",
    "--options-file",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(FLAG_PIECES) | st.text(alphabet="-=,:/abcxyzDIOX019_ ", max_size=6), max_size=8),
    st.lists(st.sampled_from(FLAG_PIECES), max_size=3),
)
def test_build_flags_are_checked_or_located(words, cflags):
    """Any build command: orcu's allowlist accepts it or refuses it at a place in the file."""
    from orcu.execution.flags import check_build_flags

    command = "nvcc " + " ".join(words)
    values = [" ".join(cflags), ""]
    text = (
        f"/*@ begin PerfTuning (\n def performance_params {{ param CF[] = {values!r}; }}\n"
        f" def build {{ arg build_command = {command!r}; }}\n) @*/\n"
        "void f(int n, float *y) {\n    int i;\n    /*@ begin Loop(transform CUDA()\n"
        "    for (i = 0; i < n; i++) y[i] = 0;\n    ) @*/\n    /*@ end @*/\n}\n/*@ end @*/\n"
    )
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.c"
        path.write_text(text)
        try:
            program = load(path)
            check_build_flags(program.spec, program.src)
        except OrcuError as e:
            rendered = e.render()
            assert rendered.startswith(f"{path}:") and ": error: " in rendered, rendered
