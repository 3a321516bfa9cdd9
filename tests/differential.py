"""Random small C loops as people write them, tuned in orcu's emulation and compared with gcc's
program: the differential fuzzer of tests/test_differential.py (a short run in CI) and
bench/bench_fuzz_differential.py (thousands of programs).

A program is drawn through ``pick`` (a choice among options), so that hypothesis draws and
shrinks it in the tests and a seeded ``random.Random`` draws it in bench/. Its shapes: a scalar
reduced over a whole nest, a reduction per row (an accumulator declared in the nest), a row
scanned up to a stop its data decide (``break``), an element-wise map; with mixed types and
C's conversions (an int accumulator fed floats, float += double, short += int), conditional
updates, min and max in C's spellings, integer division and remainder, the small integer
types; sizes of 1 and sizes no block or tile divides; the Orio mapping and the TSG's.

Each program is checked as a tune checks it (every variant against the C code as written, on
the spec's inputs and the second input set); an outcome is one of: ``refused`` (orcu's own
located diagnostic: the loop is not one it may parallelise as written), ``inputs`` (the C code
itself fails on the inputs), ``ok`` (every variant passed), or a finding: anything else.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from orcu.device import profile
from orcu.driver.report import summary
from orcu.driver.tuning import region_space
from orcu.errors import OrcuError, ReferenceFailed
from orcu.execution.runners import Runner
from orcu.planning.program import load
from orcu.planning.space import input_space

INTEGERS = ["int", "short", "unsigned char", "long", "unsigned int"]
FLOATS = ["float", "double"]
TYPES = INTEGERS + FLOATS
Pick = Callable[[Sequence], object]


@dataclass(frozen=True)
class Program:
    text: str
    shape: str


def _term(pick: Pick, element: str, k: str) -> tuple[str, str]:
    """(C text, whether it is floating-point) of a term that reads a[k] and b[k]."""
    floating = element in FLOATS
    options = [
        f"a[{k}]",
        f"a[{k}] + b[{k}]",
        f"a[{k}] * 2.5f",
        f"a[{k}] * 0.5",
        f"(int)(a[{k}] * 0.75f)",
        f"a[{k}] - 2 * b[{k}]",
        f"(short)(a[{k}] * 3)",
        f"(double)a[{k}] * b[{k}]",
    ]
    if not floating:
        options += [f"a[{k}] / (b[{k}] + 3)", f"a[{k}] % 5", f"(a[{k}] & 7) - 3"]
    else:
        options += [f"a[{k}] / (fabs(b[{k}]) + 1)", f"fabs(a[{k}]) - 1"]  # no infinity to convert to an integer
    text = pick(options)
    return text, floating or any(s in text for s in ("2.5f", "0.5", "0.75f", "(double)", "fabs"))


def _defined(term: str, floating: bool, dest: str, element: str, k: str) -> str:
    """``term``, or an integer term in its place where C leaves its conversion to ``dest``
    undefined: a floating-point value out of the integer type's range (a term of an integer
    element near INT_MAX times 2.5f), a negative one to an unsigned type. The fuzzer looks for
    orcu's defects, not the program's undefined behaviour."""
    if dest in FLOATS or not floating or (element in FLOATS and not dest.startswith("unsigned")):
        return term
    return f"(int)a[{k}]" if element in FLOATS else f"a[{k}] - 2 * b[{k}]"


def _condition(pick: Pick, k: str) -> str:
    return pick([f"a[{k}] > 0", f"b[{k}] == 0", f"a[{k}] < b[{k}]", f"a[{k}] != 1", f"({k} & 1) == 0", f"a[{k}] >= 2"])


_UPDATES = {
    "add": "{acc} += {term};",
    "sub": "{acc} -= {term};",
    "if_add": "if ({cond}) {acc} += {term};",
    "count": "if ({cond}) {acc}++;",
    "max_if": "if ({term} > {acc}) {acc} = {term};",
    "min_ternary": "{acc} = ({term} < {acc}) ? {term} : {acc};",
    "assign_add": "{acc} = {acc} + {term};",
    "fmax": "{acc} = fmax({acc}, {term});",
    # factors in [1, 1.03], so that no product of up to 2800 of them overflows a float (a
    # product that overflows in one order and meets a zero first in another is NaN against 0)
    "mul": "{acc} *= 1.0 + 0.01 * (double)((int)a[{k}] & 3);",
}


def _update(pick: Pick, acc: str, acc_type: str, element: str, k: str) -> str:
    """One statement that updates ``acc`` with terms of a[k] and b[k]."""
    term = _defined(*_term(pick, element, k), acc_type, element, k)
    kinds = ["add", "sub", "if_add", "count", "max_if", "min_ternary", "assign_add"]
    if acc_type in FLOATS:
        kinds += ["fmax", "mul"]
    template = _UPDATES[pick(kinds)]
    condition = _condition(pick, k) if "{cond}" in template else ""
    return template.format(acc=acc, term=term, cond=condition, k=k)


def draw(pick: Pick) -> Program:
    """One random program."""
    element = pick(TYPES)
    acc_type = pick(TYPES)
    # a floating-point sum into an integer output could leave its range (undefined in C)
    out_type = pick(["double", "float"] if acc_type in FLOATS else ["double", "int", "long", "float"])
    n, m = pick([1, 3, 7, 13, 40]), pick([1, 5, 33, 70])
    mapping = pick(["threadCount=TC", "threadCount=TC, mapping='auto'"])
    shape = pick(["whole", "whole_1d", "rows", "rows_break", "rows_helper", "map"])
    first = pick(["0", "1", "a[0]"]) if shape.startswith("whole") else pick(["0", "1"])
    before, after, before_function = "", "", ""
    if shape == "whole":
        update = _update(pick, "acc", acc_type, element, "i*m + j")
        loop = f"for (i = 0; i < n; i++)\n        for (j = 0; j < m; j++)\n            {update}"
        before, after = f"    acc = {first};\n", "    z[0] = acc;\n"
    elif shape == "whole_1d":
        update = _update(pick, "acc", acc_type, element, "i")
        loop = f"for (i = 0; i < n*m; i++)\n        {update}"
        before, after = f"    acc = {first};\n", "    z[0] = acc;\n"
    elif shape == "rows":
        update = _update(pick, "s", acc_type, element, "i*m + j")
        loop = (
            f"for (i = 0; i < n; i++) {{\n        {acc_type} s = {first};\n        for (j = 0; j < m; j++)\n"
            f"            {update}\n        y[i] = s;\n    }}"
        )
    elif shape == "rows_break":
        update = _update(pick, "s", acc_type, element, "i*m + j")
        stop = f"if ({_condition(pick, 'i*m + j')}) break;"
        body = pick([f"{stop} {update}", f"{update} {stop}"])
        loop = (
            f"for (i = 0; i < n; i++) {{\n        {acc_type} s = {first};\n        for (j = 0; j < m; j++) {{\n"
            f"            {body}\n        }}\n        y[i] = s;\n    }}"
        )
    elif shape == "rows_helper":  # a helper of the file that returns at the first element its data stop at
        condition = _condition(pick, "j").replace("a[", "r[").replace("b[", "r[")
        add = _defined("r[j]", element in FLOATS, acc_type, element, "j").replace("a[", "r[").replace("b[", "r[")
        helper = (
            f"static {acc_type} scan(const {element} *r, int m)\n{{\n    {acc_type} s = {first};\n"
            f"    for (int j = 0; j < m; j++) {{\n        if ({condition}) return s;\n        s += {add};\n    }}\n"
            "    return s;\n}\n"
        )
        before_function = helper
        loop = "for (i = 0; i < n; i++)\n        y[i] = scan(a + i*m, m);"
    else:
        term, floating = _term(pick, element, "i*m + j")
        stored = _defined(term, floating, out_type, element, "i*m + j")
        cast = f"({acc_type})({_defined(term, floating, acc_type, element, 'i*m + j')})"
        value = pick(
            [
                stored,
                f"({_condition(pick, 'i*m + j')}) ? {stored} : -1",
                cast if acc_type not in FLOATS or out_type in FLOATS else stored,
            ]
        )
        loop = f"for (i = 0; i < n; i++)\n        for (j = 0; j < m; j++)\n            w[i*m + j] = {value};"
    text = f"""#include <math.h>
{before_function}void kernel(int n, int m, const {element} *a, const {element} *b, {out_type} *y, {out_type} *w, {acc_type} *z)
{{
    int i, j;
    {acc_type} acc;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{
        decl dynamic {element} a[n*m] = random;
        decl dynamic {element} b[n*m] = random;
        decl dynamic {out_type} y[n] = 0;
        decl dynamic {out_type} w[n*m] = 0;
        decl dynamic {acc_type} z[1] = 0;
    }}
    ) @*/
{before}    /*@ begin Loop(transform CUDA({mapping})
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
{after}    /*@ end @*/
}}
"""
    return Program(text, shape)


def seeded(seed: int) -> Program:
    rng = random.Random(seed)
    return draw(lambda options: rng.choice(list(options)))


CONFIGS = 4  # configurations of each program's space checked: its covering array's first ones


def check(text: str, workdir: Path) -> tuple[str, str]:
    """(outcome, detail) of one program's C text, at its spec's sizes: "refused", "inputs", "ok"
    or "finding"."""
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "kernel.c"
    path.write_text(text)
    try:
        loaded = load(path)
        summary(loaded)
    except OrcuError as e:
        return "refused", e.render().splitlines()[0]
    except Exception:  # an internal error: orcu's defect
        return "finding", traceback.format_exc()
    device = profile("H100")
    try:
        sizes = next(iter(input_space(loaded).configs()))
        space = region_space(loaded, 0, sizes, device)
        configs = [space.config(p) for p in space.covering()[:CONFIGS]]
        runner = Runner("emulate", device, workdir / "build", jobs=1, timeout_floor=120.0)
        results = list(runner.evaluate(loaded, 0, [(c, sizes) for c in configs]))
    except ReferenceFailed as e:
        return "inputs", str(e)
    except OrcuError as e:
        return "finding", e.render()
    except Exception:
        return "finding", traceback.format_exc()
    bad = [r for r in results if r.status != "ok"]
    if not results or bad:
        return "finding", "; ".join(f"{r.params}: {r.status}: {r.message}" for r in bad) or "no variant"
    return "ok", ""
