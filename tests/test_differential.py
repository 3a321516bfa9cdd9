"""The differential fuzzer (tests/differential.py) in the suite: random small C loops tuned in
emulation at a few configurations each and compared with gcc's program on both input sets;
a minute or two of it here, thousands of programs in bench/bench_fuzz_differential.py. Every finding
is kept in tests/differential_findings/ and checked here."""

from pathlib import Path

import pytest
from differential import check, draw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FINDINGS = sorted((Path(__file__).parent / "differential_findings").glob("*.c"))


@pytest.mark.parametrize("path", FINDINGS, ids=[p.stem for p in FINDINGS])
def test_each_finding_of_the_fuzzer_stays_mended(tmp_path, path):
    outcome, detail = check(path.read_text(), tmp_path)
    assert outcome in ("ok", "refused"), detail


@pytest.mark.slow
@settings(
    max_examples=100,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_loops_tune_to_what_gcc_computes_or_are_refused(tmp_path_factory, data):
    program = draw(lambda options: data.draw(st.sampled_from(list(options))))
    outcome, detail = check(program.text, tmp_path_factory.mktemp("fuzz"))
    assert outcome != "finding", f"{detail}\n{program.text}"
