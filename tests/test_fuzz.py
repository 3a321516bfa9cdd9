"""Mutated annotated files: the front end succeeds or gives orcu's own diagnostic."""
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from orcu.errors import OrcuError
from orcu.program import load
from orcu.report import summary

from conftest import EXAMPLES

SOURCES = {p.name: p.read_text() for p in sorted(EXAMPLES.glob("*.c"))}
SIGNIFICANT = list("()[]{};,=*/@#'\"<>+-%.\n ") + ["/*@", "@*/", "/*@ end @*/", "def ", "param ", "__", "for (", "1e999", "**", "lambda"]


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
