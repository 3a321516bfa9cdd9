"""The timing harness: one program that checks a variant against the original code and times it.

It runs the code of the PerfTuning region (statements around the Loop regions included,
as Orio does) twice: as written, for the reference, and with the tuned region calling its
GPU version. Input parameters become constants, ``input_vars`` are allocated and filled
from a seed, every written value is compared with a tolerance fit for its type, and one
JSON line reports the worst element and every timing sample.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pycparser import c_ast

from orcu.analysis.affine import poly_of
from orcu.analysis.nest import analyze
from orcu.codegen.region import RegionCode, prelude
from orcu.codegen.templates import render
from orcu.errors import AnalysisError, SpecError
from orcu.frontend.cparse import arithmetic_typedefs, file_macros, parse_expression, parse_statements
from orcu.frontend.ir import Stmt, loops_of
from orcu.frontend.ir import statements as nest_statements
from orcu.frontend.liveness import effects
from orcu.frontend.types import ELEMENT_BYTES, canonical_type, declarations_in, used_names
from orcu.planning.program import Program
from orcu.planning.space import settings_text
from orcu.tsg.sizes import trip_count
from orcu.tsg.sizes import value as poly_value

_FLOATS = {"float": "FLT_EPSILON", "double": "DBL_EPSILON"}
# A float result is also checked against the C code run in double (the accurate reference): the
# code as written sums in float in one order, and past about 2^24 terms of similar size its sum
# stops growing, so that a variant summing in a tree is right and far from it.
_WIDER = {"float": "double"}


MAX_EVENTS = 256  # kernel launches timed per call of the variant

_IDENT = re.compile(r"[A-Za-z_]\w*")


def _pointer(ctype: str, dims: tuple[int, ...]) -> str:
    return f"{ctype} (*)" + "".join(f"[{d}]" for d in dims) if dims else f"{ctype} *"


@dataclass(frozen=True)
class Value:
    """One name the harness declares: an input_vars array or scalar, or another scalar."""

    name: str
    ctype: str
    count: int | None  # elements of an array; None for a scalar
    dims: tuple[int, ...]  # trailing dimensions of a multi-dimensional array
    init: list[str] | None  # C literals (repeated if shorter than count); None: random
    compared: bool
    terms: int = 1  # the most terms one of its elements combines (its tolerance grows with their square root)
    # How many steps a recurrence through the array may chain (LU's rows: each step's results
    # feed the next), each rounding anew: the spread's widening grows with its square root.
    steps: int = 1
    # An array of structs: each field (name, type, whether random values are integers, epsilon),
    # filled and compared on its own.
    fields: tuple[tuple[str, str, bool, str], ...] = ()
    second: bool = False  # drawn again for the second input set (a random value that steers nothing)
    in_float: bool = False  # a double the region may compute in float: checked at float's precision

    @property
    def is_float(self) -> bool:
        return self.ctype in _FLOATS

    @property
    def pointer_type(self) -> str:
        return _pointer(self.ctype, self.dims)

    @property
    def accurate_type(self) -> str:
        """Its type in the accurate reference: float computed in double."""
        return _WIDER.get(self.ctype, self.ctype)

    @property
    def accurate_pointer_type(self) -> str:
        return _pointer(self.accurate_type, self.dims)

    @property
    def epsilon(self) -> str:
        return _FLOATS["float"] if self.in_float and self.ctype == "double" else _FLOATS.get(self.ctype, "0")


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "NAN"
    if isinstance(value, int):
        return str(value)
    raise TypeError(f"{value!r} is not a number")


def _spec_code_region(program: Program):
    """The PerfTuning region when its code is statements of a function (Orio's usual layout);
    None when there is none or it holds whole functions."""
    spec = program.spec_region
    if spec is None or any(spec.code_start <= at < spec.code_end for at in program.functions.values()):
        return None
    return spec


def _code(program: Program, k: int, call: str | None, whole: str | None = None) -> str:
    """The code the harness runs: the PerfTuning region's, with nest k calling ``call`` (the
    other loops of its region as written), or with nest k's region replaced by ``whole``, or
    the reference (both None)."""
    program = program.of_nest(k)
    src = program.src
    spec = _spec_code_region(program)
    mine = program.region_of(k)

    def region(r: int) -> str:
        host = program.hosts[r]
        if r == mine and whole is not None:
            return whole
        if r != mine or call is None:
            return host.reference
        return host.code({j: call if j == k else program.nests[j].reference for j in host.nests})

    if spec is None:
        return region(mine)
    pieces = [program.prologue]
    pos = spec.code_start
    for r, area in enumerate(program.regions):
        if not spec.code_start <= area.start < spec.code_end:
            continue
        pieces.append(src.text[pos : area.start])
        pieces.append("\n" + region(r) + "\n")
        pos = area.end
    pieces.append(src.text[pos : spec.code_end])
    return "".join(pieces)


@dataclass(frozen=True)
class HarnessSource:
    """A harness's two translation units: the CUDA C++ program, and the C file of its reference
    (the region's code as written, compiled by the C compiler and linked in: what C computes is
    what the variants must match, where C++ would read the same text otherwise)."""

    text: str
    reference: str


def harness_source(
    program: Program,
    region_index: int,
    codes: list[RegionCode],
    inputs: Mapping[str, Any],
    seed: int = 1,
    whole: str | None = None,
) -> HarnessSource:
    """One program for the variants ``codes`` of one region and input size (each generated
    with its own name suffix); its first argument picks the variant a run checks and times.
    ``whole``: instead, one variant that runs that region's code as given (all of its loops
    at once, calling ``codes``; writeback.composed_region)."""
    program = program.of_nest(region_index)
    spec = program.spec
    nest = program.nests[region_index]
    env = {**spec.lets, **inputs}
    region = _spec_code_region(program)
    if region is not None:
        statements = parse_statements(
            program.src, region.code_start, program.src.text[region.code_start : region.code_end]
        )
    else:
        statements = []
    used = list(used_names(statements))
    # what the declarations before the region read and set (int *src = buffer;): the harness runs them
    used += [n for line in program.prologue.splitlines() for n in _IDENT.findall(line.split("//")[0]) if n not in used]
    # input parameters the code assigns (`if (n > cap) n = cap;`): variables in the harness
    assigned = effects(statements).assigned | {name for host in program.hosts for name in host.writes}
    for host in program.hosts:
        used += [name for name in host.variables if name not in used]
    if spec.init_code:  # init_input_vars() fills every input, used here or not
        used += [d.name for d in spec.input_vars if d.name not in used]
    declared = set()
    for st in statements:
        declared |= set(declarations_in(st, "region"))
    # the file's macros and its headers' (MIN(a, b) too): the reference and the kernels use them
    macros = {k: v for k, v in file_macros(program.src, parameters=True).items() if k not in spec.input_names}
    # Scalars compared with the reference: sums the GPU computes, and what host statements in a region assign.
    compared = {
        r.var
        for n in program.nests
        for r in analyze(program.src, n, spec, mapped=n.deps is not None).reductions
        if observable(n, r.var)
    }
    compared |= {name for host in program.hosts for name in host.writes}

    values: list[Value] = []
    pointers: list[tuple[str, str]] = []  # (name, element type) of local pointers the code sets to the inputs
    for name in used:
        if name in declared or name in spec.input_names or name in macros:
            continue
        decl = spec.decl(name)
        if decl is not None:
            values.append(_spec_value(program, name, decl, env))
            continue
        var = _variable(program, name)
        if var is None or var.origin in ("macro", "input_params", "region", "private"):
            continue
        if any(name in host.aliases for host in program.hosts):  # src = buffer; in the code: a pointer, set there
            pointers.append((name, canonical_type(var.ctype.base)))
            continue
        values.append(_code_value(program, name, var, env, nest, compared))

    return _render(program, region_index, codes, inputs, values, pointers, macros, assigned, whole, env, seed)


def _spec_value(program: Program, name: str, decl, env: Mapping[str, Any]) -> Value:
    """The value of an input the spec declares (input_vars): its extent and how it is filled."""
    ctype = _element(decl)
    dims = [int(d.evaluate(dict(env))) for d in decl.dims]
    count = math.prod(dims)
    struct = program.structs.get(ctype)
    if struct is not None:
        zero = decl.init == "none" or (decl.init == "value" and decl.init_expr.evaluate(dict(env)) == 0)
        if not dims or not (decl.init == "random" or zero):
            raise program.src.error_at(
                decl.loc,
                f"'{name}' of the struct type '{ctype}': orcu takes arrays of "
                "structs of scalar fields, filled at random or with zeros",
                SpecError,
            )
        return Value(
            name, ctype, count, tuple(dims[1:]), None if decl.init == "random" else [], True, fields=_fields(struct)
        )
    if decl.init == "random":
        init = None
    elif decl.init in ("value", "list"):
        value = decl.init_expr.evaluate(dict(env))
        # [a, b, c] as well as Orio's {a, b, c}: the elements in order
        items = list(value) if isinstance(value, (list, tuple, range)) else [value]
        if not all(isinstance(v, (int, float)) for v in items) or (not dims and len(items) != 1):
            raise program.src.error_at(
                decl.loc,
                f"the initial value of '{name}' must be {'numbers' if dims else 'a number'}, got {value!r}",
                SpecError,
            )
        init = [_literal(v) for v in items]
    else:
        init = ["0"]
    return Value(name, ctype, count if dims else None, tuple(dims[1:]), init, True)


def _code_value(program: Program, name: str, var, env: Mapping[str, Any], nest, compared: set[str]) -> Value:
    """The value of a variable of the code that the spec does not declare: an array local to
    the function, or a scalar (compared where the code computes it)."""
    extents = [
        poly_value(poly_of(node) if (node := parse_expression(d)) is not None else None, env) for d in var.ctype.dims
    ]
    if var.origin == "local" and extents and None not in extents:
        # An array of the function (durbin's `double z[n];`): the harness makes it, zeroed; the
        # function's caller never sees it, so it is not compared.
        count = math.prod(extents)
        return Value(name, canonical_type(var.ctype.base), count, tuple(extents[1:]), ["0"], False)
    if var.ctype.is_array:
        loc = var.loc or nest.loc
        raise program.src.error_at(
            loc,
            f"'{name}' is an array the tuned code uses: declare it in input_vars so that orcu can allocate and fill it",
            AnalysisError,
        )
    ctype = canonical_type(var.ctype.base)
    struct = program.structs.get(ctype)
    return Value(
        name,
        ctype,
        None,
        (),
        ["0"],
        name in compared,  # a struct: its fields zero
        fields=_fields(struct) if struct is not None else (),
    )


def _render(
    program: Program,
    region_index: int,
    codes: list[RegionCode],
    inputs: Mapping[str, Any],
    values: list[Value],
    pointers: list[tuple[str, str]],
    macros: dict[str, str],
    assigned: set[str],
    whole: str | None,
    env: Mapping[str, Any],
    seed: int,
) -> HarnessSource:
    """The harness: its C++ text (the values' second set and bounds, the variants) and its C reference."""
    spec, code = program.spec, codes[0]
    rng = random.Random(seed)
    steering = _steering_names(program.nests)
    # a region that computes in float (a float sum written to a double array) rounds its doubles as floats
    in_float = any(canonical_type(var.ctype.base) == "float" for n in program.nests for var in n.variables.values())
    values = [
        dataclasses.replace(v, second=v.init is None and not v.fields and v.name not in steering, in_float=in_float)
        for v in values
    ]
    reference = _code(program, region_index, None)
    (counts, steps), largest = _terms(program, env), max([v.count for v in values if v.count] + [1])
    values = [dataclasses.replace(v, terms=counts.get(v.name, largest), steps=steps.get(v.name, 1)) for v in values]
    by_name = {v.name: v for v in values}
    before = {k: v for k, v in inputs.items() if k not in code.params}
    after = {k: v for k, v in inputs.items() if k in code.params}
    accurate = _widened(reference) if any(v.compared and v.accurate_type != v.ctype for v in values) else None
    typedefs = [(name, base, _WIDER.get(base, base)) for name, base in arithmetic_typedefs(program.src).items()]
    text = render(
        "harness.cu.j2",
        source=program.src.path,
        region=f"orcu_{program.nests[region_index].name}",
        inputs=settings_text(inputs),
        macros=macros,
        before={k: _literal(v) for k, v in before.items()},
        assigned={k: _literal(v) for k, v in inputs.items() if k in assigned},
        after={k: _literal(v) for k, v in after.items()},
        includes=sorted(set().union(*(c.includes for c in codes)) - {"math.h"}),  # the tuned file's headers
        init=_init_code(spec.init_code),
        prelude=prelude(codes),
        **program.c_meaning.template_args(),
        kernels="\n".join(c.text for c in codes),
        helpers=program.helpers,
        values=values,
        typedefs=typedefs,
        structs=[s.definition for s in program.structs.values()],
        pointers=[(name, ctype, _WIDER.get(ctype, ctype)) for name, ctype in pointers],
        random_values={v.name: _random_literals(v, rng) for v in values if v.init is None},
        accurate=accurate is not None,
        host_helpers=program.host_helpers,
        calls=(
            [_code(program, region_index, None, whole)]
            if whole is not None
            else [_code(program, region_index, _call(c, by_name)) for c in codes]
        ),
        on_device=[]
        if whole is not None
        else [
            v
            for v in values
            if v.count is not None and any(c.values["dataOnDevice"] and v.name in c.arrays for c in codes)
        ],
        # A captureless lambda is a function pointer: one variant, every loop's release.
        releases=["[]() { " + " ".join(f"{c.release}();" for c in codes) + " }"]
        if whole is not None
        else [c.release for c in codes],
        roundings=[repr(max(c.rounding for c in codes))] if whole is not None else [repr(c.rounding) for c in codes],
        repetitions=spec.repetitions,
        max_events=MAX_EVENTS,
        repeatable=repeatable(program.nests, {h.name for h in program.helpers}),
        # a second input set where some value is drawn at random and no init_file sets them
        second_set=not spec.init_code and any(v.second for v in values),
    )
    return HarnessSource(
        text, _reference_c(program, region_index, inputs, values, pointers, macros, typedefs, reference, accurate)
    )


def _reference_c(
    program: Program,
    region_index: int,
    inputs: Mapping[str, Any],
    values: list[Value],
    pointers: list[tuple[str, str]],
    macros: dict[str, str],
    typedefs: list[tuple[str, str, str]],
    reference: str,
    accurate: str | None,
) -> str:
    """The reference's C file (HarnessSource.reference). An input parameter the file defines as
    a macro is one here (a constant expression: an array's extent, a case label); any other is a
    variable of the function, as it is in the user's function, of its literal's type."""
    defined = set(file_macros(program.src))
    helpers = [*program.helpers, *program.host_helpers]
    # The accurate reference's functions: float made double, and renamed (orcu_accurate_f), as in
    # the code that calls them: the two references share the file. Its function declares the
    # file's float typedefs as double; the functions, at file scope, spell them so.
    renamed = {h.name: f"orcu_accurate_{h.name}" for h in helpers}
    wider = {name: wide for name, base, wide in typedefs if wide != base}

    def wide(code: str, names: dict[str, str]) -> str:
        code = _widened(code)
        if not names:
            return code
        return re.sub(r"\b(" + "|".join(map(re.escape, names)) + r")\b", lambda m: names[m.group(1)], code)

    return render(
        "reference.c.j2",
        source=program.src.path,
        region=f"orcu_{program.nests[region_index].name}",
        headers=program.c_meaning.c_headers,
        macros={**macros, **{k: _literal(v) for k, v in inputs.items() if k in defined}},
        inputs={k: _literal(v) for k, v in inputs.items() if k not in defined},
        typedefs=typedefs,
        structs=[s.definition for s in program.structs.values()],
        values=values,
        pointers=[(name, ctype, _WIDER.get(ctype, ctype)) for name, ctype in pointers],
        helpers=[(_internal(h.prototype), _internal(h.text)) for h in helpers],
        accurate_helpers=[
            (_internal(wide(h.prototype, renamed | wider)), _internal(wide(h.text, renamed | wider))) for h in helpers
        ],
        reference=reference,
        accurate=wide(accurate, renamed) if accurate is not None else None,
    )


def _internal(declaration: str) -> str:
    """A function's declaration or definition with internal linkage: the reference's copies of
    the file's functions are its own (an ``inline`` one has no external definition in C)."""
    head = declaration.split("(", 1)[0].split()
    return declaration if "static" in head else "static " + re.sub(r"^\s*extern\b", "", declaration)


def observable(nest, name: str) -> bool:
    """Whether a scalar the nest writes is seen after it: read by the code after the region, or
    no function's own variable (a global, an input_vars value). The harness compares only these:
    the generated code need bring back nothing else."""
    v = nest.variables.get(name)
    return name in nest.read_after or v is None or v.origin not in ("local", "parameter")


def unobserved(program: Program) -> list[str]:
    """``path:line:col: warning: ...`` for each Loop region whose results nothing observes: it
    writes no array, and no scalar it writes is read after it."""
    out = []
    for nest in program.nests:
        stmts = [st for st, _ in nest_statements(nest.body) if isinstance(st, Stmt)]
        writes = any(a.write for st in stmts for a in st.accesses)
        scalars = sorted({n for st in stmts for n in st.scalar_writes} - {lp.var for lp in loops_of(nest.body)})
        if writes or any(observable(nest, s) for s in scalars):
            continue
        names = ", ".join(f"'{s}'" for s in scalars)
        out.append(
            f"{nest.loc}: warning: the loop computes nothing observable: it writes no array, and "
            + (
                f"nothing reads {names} after it, so orcu does not compare {'it' if len(scalars) == 1 else 'them'}"
                if scalars
                else "no scalar"
            )
        )
    return out


def repeatable(nests, helpers: set[str]) -> bool:
    """Whether a kernel of these nests may run again on its own results (the harness's timed
    calls launch short kernels back to back): no array a nest writes is read where it steers,
    in a subscript, a loop's bound, a condition or the arguments of a call of ``helpers`` (the
    file's functions, which may index with them), so that a second launch reads and writes the
    elements the first did; the values it computes are not checked."""
    written, steering = set(), _steering_names(nests)
    for nest in nests:
        for st, _ in nest_statements(nest.body):
            if not isinstance(st, Stmt):  # a break or a continue
                continue
            written |= {a.array for a in st.accesses if a.write}
            steering |= set(used_names(_steering(st.node, helpers)))
    return not written & steering


def _steering_names(nests) -> set[str]:
    """The names that decide which elements the nests touch and how often: read in a subscript or
    a loop's bound. The second input set keeps their values (a negative index is no test of
    the code, and neither is a loop bound near INT_MAX); ``repeatable`` asks whether the nests
    write any of them."""
    found: set[str] = set()
    for nest in nests:
        for lp in loops_of(nest.body):
            found |= set(used_names([lp.lower, lp.upper]))
        for st, _ in nest_statements(nest.body):
            if isinstance(st, Stmt):
                found |= set(used_names([s for a in st.accesses for s in a.subscripts]))
    return found


def _steering(node: c_ast.Node, helpers: set[str]) -> list[c_ast.Node]:
    """The parts of a statement that decide what it runs or reads: conditions, and the arguments
    of calls of ``helpers``."""
    if isinstance(node, (c_ast.If, c_ast.TernaryOp, c_ast.While, c_ast.DoWhile)):
        found = [node.cond]
    elif isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name in helpers:
        return [node.args] if node.args is not None else []
    else:
        found = []
    return found + [part for _, child in node.children() for part in _steering(child, helpers)]


def _widened(code: str) -> str:
    """The C code with each float type (declarations, casts) made its wider type."""
    return re.sub(r"\b(" + "|".join(_WIDER) + r")\b", lambda m: _WIDER[m.group(1)], code)


def _terms(program: Program, env: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """For each value the loop nests write: the most terms one element combines, and the steps
    of a recurrence through it.

    Terms: the product of the trip counts, at these sizes, of the loops around a write that
    its subscripts do not walk (for a scalar, every loop around it), and at least the terms of
    the scalars it reads (`y[i] = s` after `s += ...`). Values whose loops' bounds are not
    numbers here are left out: they take the largest array's size. Steps: for an array that
    some statement reads other than as the element it updates (LU's ``A[i][k] * A[k][j]``,
    a stencil's neighbours), the longest loop around its writes, where one step's rounding
    reaches the next; 1 for any other value."""
    out: dict[str, int] = {}
    unknown: set[str] = set()
    longest: dict[str, int] = {}  # the longest loop around any write of each value
    recurrent: set[str] = set()
    for nest in (program.nests[k] for k in program.own_nests):
        for st, loops in nest_statements(nest.body):
            targets = {a.array: set(used_names(list(a.subscripts))) for a in st.accesses if a.write}
            own = {a.text for a in st.accesses if a.write}
            recurrent |= {a.array for a in st.accesses if not a.write and a.text not in own}
            for name in targets:
                longest[name] = max([longest.get(name, 1), *(trip_count(lp, env) or 1 for lp in loops)])
            targets.update({name: set() for name in st.scalar_writes})
            carried = [out.get(name, 1) for name in st.scalar_reads]
            for name, walked in targets.items():
                trips = [trip_count(lp, env) for lp in loops if lp.var not in walked]
                if any(t is None for t in trips) or any(r in unknown for r in st.scalar_reads):
                    unknown.add(name)
                else:
                    out[name] = max([out.get(name, 1), math.prod(trips), *carried])
    steps = {name: n for name, n in longest.items() if name in recurrent}
    return {name: count for name, count in out.items() if name not in unknown}, steps


def _variable(program: Program, name: str):
    """What ``name`` is where the first region that sees it stands: the enclosing function's
    variable, else the region's own."""
    for host in (h for h in program.hosts if h.nests[0] in program.own_nests):
        outside = program.nests[host.nests[0]].outside
        if name in outside or name in host.variables:
            return outside.get(name) or host.variables.get(name)
    return None


def _init_code(text: str) -> dict[str, list[str]] | None:
    """The init_file's code, its preprocessor includes apart: they go at the top of the
    harness, the rest inside its namespace, where it sees the inputs by their names."""
    if not text:
        return None
    lines = text.splitlines()
    include = [line for line in lines if re.match(r"\s*#\s*include\b", line)]
    return {"includes": include, "code": [line for line in lines if line not in include]}


def _element(decl) -> str:
    return canonical_type(" ".join(w for w in decl.ctype.split() if w != "const"))


# Copies of each input_vars array the harness keeps on the host: the working one, its start
# and the reference's result.
HOST_COPIES = 3


def memory_needs(program: Program, region: int, inputs: Mapping[str, Any]) -> tuple[int, int, list[tuple[str, int]]]:
    """(host bytes, device bytes, bytes of each array) a harness run of the region needs for
    these input sizes: the input_vars arrays on the host, and the device copies of those the
    region uses (an upper bound: the region may touch less)."""
    program = program.of_nest(region)
    env = {**program.spec.lets, **inputs}
    used = set(program.nests[region].variables)
    arrays, accurate = [], []
    for decl in program.spec.input_vars:
        if decl.dims:
            count = math.prod(int(d.evaluate(dict(env))) for d in decl.dims)
            element = _element(decl)
            arrays.append((decl.name, count * ELEMENT_BYTES.get(element, 8)))
            accurate.append((element, count * ELEMENT_BYTES.get(_WIDER.get(element, element), 8)))
    host = HOST_COPIES * sum(b for _, b in arrays)
    if any(element in _WIDER for element, _ in accurate):  # the accurate reference's copies (an upper bound)
        host += sum(b for _, b in accurate)
    device = sum(b for name, b in arrays if name in used)
    return host, device, arrays


def _call(code: RegionCode, values: Mapping[str, Value]) -> str:
    """The statement that runs a variant. With dataOnDevice its arrays are device memory: the
    harness copies them there and back around the call, which alone is timed as the total."""
    if not code.values["dataOnDevice"]:
        return code.call
    moved = [values[a] for a in code.arrays if a in values]
    moved_names = {v.name for v in moved}
    args = ", ".join(
        f"{passed[1]}orcu_device_{passed[0]}" if passed is not None and passed[0] in moved_names else arg
        for arg, passed in zip(code.args, code.passes)
    )
    lines = ["{  // dataOnDevice: the arrays are on the device before the call, and come back after it"]
    lines += [
        f"    ORCU_CHECK(cudaMemcpy(orcu_device_{v.name}, {v.name}, sizeof({v.ctype}) * {v.count}, cudaMemcpyHostToDevice));"
        for v in moved
    ]
    lines += [
        "    const double orcu_start = orcu_now_ms();",
        f"    {code.host}({args});",
        "    ORCU_CHECK(cudaDeviceSynchronize());",
        "    orcu_call_ms = orcu_now_ms() - orcu_start;",
    ]
    lines += [
        f"    ORCU_CHECK(cudaMemcpy({v.name}, orcu_device_{v.name}, sizeof({v.ctype}) * {v.count}, cudaMemcpyDeviceToHost));"
        for v in moved
    ]
    return "\n".join(lines + ["}"])


def _fields(struct) -> tuple[tuple[str, str, bool, str], ...]:
    """A struct's fields as a Value fills and compares them (Value.fields)."""
    return tuple((f, t, t not in _FLOATS, _FLOATS.get(t, "0")) for f, t in struct.fields)


def _random_literals(value: Value, rng: random.Random) -> dict[str, Any]:
    """How to fill a random value: a seed for the program's own generator (arrays can be large)."""
    return {"seed": rng.randrange(1, 2**31), "integer": not value.is_float}
