"""Spec diagnostics where the mistake is: a PerfTuning spec with every kind of statement,
damaged by deleting each of its characters in turn; every damage that stops the load is said
as orcu's own located error, on a line of the statement that was damaged (a section's braces
damage the section), or where a name that statement defined is used."""

import re

import pytest

from orcu.errors import OrcuError
from orcu.planning.program import load

SOURCE = """void f(int n, double a, double *x, double *y)
{
    int i;
    /*@ begin PerfTuning (
    let base = 32;
    def performance_params {
        param TC[] = range(base, 257, 32);
        param BC[] = [66, 132];
        let step = 32;
        param UNROLL = 1;
        constraint enough = TC * BC >= 4096;
    }
    def input_params { param n[] = [1000]; }
    def input_vars {
        decl dynamic double x[n] = random;
        decl dynamic double y[n] = random;
        decl double a = 2;
    }
    def performance_counter { arg repetitions = 3; }
    def search { arg algorithm = 'Random'; arg total_runs = 4; }
    def build { arg build_command = 'nvcc -O3 -DU=@UNROLL@'; }
    def cmdline_params { option "-n" = [1]; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""
START = SOURCE.index("PerfTuning (") + len("PerfTuning (")
END = SOURCE.index(") @*/")


def statements() -> list[tuple[int, int, set[str]]]:
    """(start, end, the names it defines) of each statement and section of the spec."""
    body = SOURCE[START:END]
    out = []
    for m in re.finditer(r"(let|param|constraint|arg|decl|option)\b[^;]*;", body):
        name = re.match(r"(?:let|param|constraint|arg)\s+(\w+)|decl\s+(?:\w+\s+)*?(\w+)\s*[\[=]", m.group())
        out.append((START + m.start(), START + m.end(), {g for g in name.groups() if g} if name else set()))
    for m in re.finditer(r"def\s+\w+\s*\{.*?\}", body, re.S):
        out.append((START + m.start(), START + m.end(), set()))
    return out


def line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@pytest.mark.parametrize("chunk", range(4))  # four workers' worth of deletions
def test_each_deletion_is_said_at_the_statement_it_damaged(in_tmp, chunk):
    (in_tmp / "t.c").write_text(SOURCE)
    load("t.c")  # undamaged, it loads
    spans = statements()
    wrong = []
    for at in range(START + chunk, END, 4):
        if SOURCE[at].isspace():
            continue
        damaged = SOURCE[:at] + SOURCE[at + 1 :]
        (in_tmp / "t.c").write_text(damaged)
        try:
            load("t.c")
            continue  # a harmless deletion (a digit of a value, say)
        except OrcuError as e:
            error = e
        holder = min((s for s in spans if s[0] <= at < s[1]), key=lambda s: s[1] - s[0])
        said = error.loc.line if error.loc else None
        where_used = said is not None and any(
            re.search(rf"\b{name}\b", damaged.splitlines()[said - 1]) for name in holder[2]
        )
        if said is None or not (line(SOURCE, holder[0]) <= said <= line(SOURCE, holder[1]) or where_used):
            wrong.append(f"deleting {SOURCE[at]!r} at line {line(SOURCE, at)}: {error.render().splitlines()[0]}")
    assert wrong == []
