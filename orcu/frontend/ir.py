"""The loop-nest IR shared by analysis, TSG and code generation.

Small frozen dataclasses over pycparser nodes: loops are normalised (``lower <= var <
upper`` with a positive constant step), statements keep their pycparser node (printed
with ``CGenerator`` after index rewriting) and the array accesses found in them. Every
node carries its location in the user's file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pycparser import c_ast, c_generator

from orcu.errors import Location


def c_text(node: c_ast.Node) -> str:
    """C source of an expression or statement (no trailing newline).

    A generator per call: CGenerator keeps its indentation in the instance, and variants
    are generated in several threads at once."""
    return c_generator.CGenerator().visit(node).strip()


@dataclass(frozen=True)
class CType:
    base: str  # e.g. "double", "unsigned int"
    pointers: int = 0
    dims: tuple[str, ...] = ()  # declared array dimensions, as C text
    const: bool = False

    @property
    def is_array(self) -> bool:
        return self.pointers > 0 or bool(self.dims)

    def __str__(self) -> str:
        text = ("const " if self.const else "") + self.base + "*" * self.pointers
        return text + "".join(f"[{d}]" for d in self.dims)


@dataclass(frozen=True)
class Variable:
    name: str
    ctype: CType
    # "parameter", "local", "global", "region", "private" (an array a region's loop declares),
    # "input_vars", "input_params" or "macro"
    origin: str
    loc: Location | None

    @property
    def kind(self) -> str:
        if self.origin in ("macro", "input_params"):
            return "constant"
        if self.origin == "private":
            return "private"  # each iteration's own: in no kernel's arguments, no transfer
        return "array" if self.ctype.is_array else "scalar"


@dataclass(frozen=True)
class Access:
    array: str
    subscripts: tuple[c_ast.Node, ...] = field(compare=False)  # outermost [] first
    write: bool
    loc: Location
    member: str | None = None  # a field of a struct element (pos[i].x): other fields are other data

    @property
    def text(self) -> str:
        return (
            self.array + "".join(f"[{c_text(s)}]" for s in self.subscripts) + (f".{self.member}" if self.member else "")
        )


@dataclass(frozen=True)
class Stmt:
    node: c_ast.Node = field(compare=False)
    loc: Location
    accesses: tuple[Access, ...]
    scalar_reads: frozenset[str]
    scalar_writes: frozenset[str]

    @property
    def text(self) -> str:
        return " ".join(c_text(self.node).split())


@dataclass(frozen=True)
class Jump:
    """A ``break`` or ``continue`` of the loop that holds it."""

    kind: str  # "break" or "continue"
    loc: Location


@dataclass(frozen=True)
class Loop:
    var: str
    lower: c_ast.Node = field(compare=False)
    upper: c_ast.Node = field(compare=False)  # exclusive
    step: int
    body: tuple[Node, ...]
    loc: Location
    node: c_ast.For = field(compare=False, repr=False)
    jumps: tuple[Jump, ...] = ()  # the breaks and continues that leave or restart this loop
    # Written counting down (for (i = n - 1; i >= 0; i--)): the same values, run from upper - 1
    # down to lower. Mapped to threads the order is moot; run in sequence it is kept.
    descending: bool = False
    # The array elements its bounds read (CSR's ``for (k = rowptr[i]; k < rowptr[i+1]; k++)``):
    # read by whoever runs the loop, so they move and are analysed as the body's reads are.
    bound_reads: tuple[Access, ...] = field(default=(), compare=False)

    def jumps_of(self, kind: str) -> tuple[Jump, ...]:
        return tuple(j for j in self.jumps if j.kind == kind)

    @property
    def header(self) -> str:
        step = "" if self.step == 1 else f" step {self.step}"
        return (
            f"for {self.var} in [{c_text(self.lower)}, {c_text(self.upper)}){step}{' down' if self.descending else ''}"
        )


Node = Loop | Stmt


def statements(nodes, loops: tuple[Loop, ...] = ()):
    """(statement, enclosing loops outermost first) of IR nodes, in program order."""
    for n in nodes:
        if isinstance(n, Loop):
            yield from statements(n.body, loops + (n,))
        else:
            yield n, loops


def bound_reads(nodes, loops: tuple[Loop, ...] = ()):
    """(access, the loops around its loop, outermost first) of the array reads in the bounds
    of the loops among IR nodes."""
    for n in nodes:
        if isinstance(n, Loop):
            for access in n.bound_reads:
                yield access, loops
            yield from bound_reads(n.body, loops + (n,))


def loops_of(nodes) -> list[Loop]:
    """The loops among IR nodes, each before the loops inside it."""
    found = []
    for n in nodes:
        if isinstance(n, Loop):
            found.append(n)
            found.extend(loops_of(n.body))
    return found


@dataclass(frozen=True)
class LoopNest:
    """One Loop region: its statements, the names it uses and how to transform it."""

    index: int  # 1-based among the file's Loop regions
    loc: Location
    body: tuple[Node, ...]
    variables: Mapping[str, Variable]  # in order of first use
    function: str | None  # the enclosing C function, None at file scope
    # The region's orcu.spec.transform.CudaTransform: the spec rides along with the nest it tunes;
    # the front end builds the IR without reading it (and so without importing the spec).
    transform: Any
    reference: str  # the loop as written (the region's code, when the loop is all of it)
    code: str  # the C code the transformation starts from
    outside: Mapping[str, Variable] = field(default_factory=dict, repr=False)  # visible from outside the region
    # The host loops of the region around this one whose headers alone step their iterators,
    # outermost first: the bounds of values fixed for a launch (lu's k in A[k*n + j]).
    context: tuple[Loop, ...] = field(default=(), repr=False)
    # The arrays each local pointer of the region may point at (``src = buffer;``): their extent is its.
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    # The struct types of the file and its headers (frontend/structs.py): arrays of them are no
    # arrays of scalars (no tile, vector or constant copy takes them).
    structs: frozenset[str] = field(default=frozenset(), repr=False)
    # Scalars the region writes (iterators included) that the code after it reads, with where.
    read_after: Mapping[str, Location] = field(default_factory=dict, repr=False)
    # Where the TSG maps the nest (tsg/plan.py): its dependences and Phase I's recipe.
    deps: Any = field(default=None, repr=False, compare=False)
    recipe: Any = field(default=None, repr=False, compare=False)
    # What the analyses of this nest found, kept by them (analysis/poly.py's dependences): each
    # variant's code generation asks again.
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def name(self) -> str:
        return f"{self.function or 'file'}_{self.index}"

    def loops(self) -> list[Loop]:
        return loops_of(self.body)

    def explain(self) -> str:
        lines: list[str] = []

        def walk(nodes, depth):
            pad = "  " * depth
            for n in nodes:
                if isinstance(n, Loop):
                    lines.append(f"{pad}{n.header}    # line {n.loc.line}")
                    walk(n.body, depth + 1)
                else:
                    reads = sorted({a.text for a in n.accesses if not a.write} | n.scalar_reads)
                    writes = sorted({a.text for a in n.accesses if a.write} | n.scalar_writes)
                    lines.append(
                        f"{pad}{n.text}    # line {n.loc.line}; reads {', '.join(reads) or '-'}; writes {', '.join(writes) or '-'}"
                    )

        walk(self.body, 0)
        return "\n".join(lines)
