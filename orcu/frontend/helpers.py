"""The file's own functions that a Loop region calls (``out[j] = squash(sum);``): they run on the
GPU as they are, declared ``__host__ __device__`` (the macro ORCU_HD) in the tuned file and in
the harness.

orcu copies a function there when what it does is plain from its text: a scalar result, scalar
parameters or pointers to scalars that it only reads through (``find_nearest_point(feature +
i*n, n, clusters, k)``: for the loop's dependences, a read of those arrays), no global variable
read or written, no static local, and the functions it calls are such functions of the file too
(or the C library's, which CUDA's math library provides). A call of any other function of the
file is refused where it stands, saying which rule it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from orcu.errors import AnalysisError
from orcu.frontend.cxx import declared
from orcu.frontend.ir import c_text
from orcu.frontend.lower import loc_of
from orcu.frontend.source import SourceFile
from orcu.frontend.types import used_names


@dataclass(frozen=True)
class Helper:
    """A function of the file that kernels call."""

    name: str
    starts: tuple[int, ...]  # where its definition and each of its prototypes start in the file
    text: str  # the definition, for the harness
    prototype: str  # its declaration
    exported: bool  # other files may call it: the tuned file gives it C linkage


def _calls(node: c_ast.Node) -> list[c_ast.FuncCall]:
    found = []

    class Finder(c_ast.NodeVisitor):
        def visit_FuncCall(self, call):
            found.append(call)
            self.generic_visit(call)

    Finder().visit(node)
    return found


def _scalar(kind: c_ast.Node) -> bool:
    return isinstance(kind, c_ast.TypeDecl) and isinstance(kind.type, c_ast.IdentifierType)


def _pointer(kind: c_ast.Node) -> bool:
    """A pointer to scalars, or a parameter written as a 1-D array (``const float *p``, ``float p[]``)."""
    return isinstance(kind, (c_ast.PtrDecl, c_ast.ArrayDecl)) and _scalar(kind.type)


def _why_not(f: c_ast.FuncDef, globals_: set[str]) -> str | None:
    """Why the function cannot be copied to the GPU as it is (None when it can)."""
    kind = declared(f).type  # a K&R definition's parameters with their types
    if not _scalar(kind.type):
        return "returns a pointer, an array or a struct"
    params = kind.args.params if kind.args is not None else []
    for p in params:
        if isinstance(p, c_ast.Decl) and not (_scalar(p.type) or _pointer(p.type)):
            return f"takes '{p.name}', which is neither a scalar nor a pointer to scalars"
        if not isinstance(p, (c_ast.Decl, c_ast.Typename)):
            return "has a variable argument list"
    local = {p.name for p in params if isinstance(p, c_ast.Decl)}
    # Pointers it may read through (its pointer parameters, and local pointers set from them):
    # a function that only reads its arrays leaves the loop's dependences as they are.
    pointers = {p.name for p in params if isinstance(p, c_ast.Decl) and _pointer(p.type)}
    problem: list[str] = []

    class Walker(c_ast.NodeVisitor):
        def visit_Decl(self, d):
            if "static" in d.storage:
                problem.append(f"keeps a static variable '{d.name}'")
            elif _pointer(d.type):
                pointers.add(d.name)
            elif not _scalar(d.type):
                problem.append(f"declares '{d.name}', which is neither a scalar nor a pointer")
            local.add(d.name)
            self.generic_visit(d)

        def visit_ID(self, node):
            if node.name in globals_ and node.name not in local:
                problem.append(f"uses the global variable '{node.name}'")

        def visit_FuncCall(self, call):
            if call.args is not None:
                self.visit(call.args)  # the called name is no variable

        def visit_Assignment(self, node):
            self._target(node.lvalue)
            self.generic_visit(node)

        def visit_UnaryOp(self, node):
            if node.op == "&":
                problem.append("takes an address ('&')")
            elif node.op in ("++", "--", "p++", "p--"):
                self._target(node.expr)
            elif node.op == "*":
                self._through(node.expr)
            self.generic_visit(node)

        def visit_ArrayRef(self, node):
            self._through(node.name)
            self.generic_visit(node)

        def _target(self, node):
            if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
                problem.append("writes through a pointer (a kernel's function may only read its arrays)")

        def _through(self, node):
            base = node.expr if isinstance(node, c_ast.UnaryOp) and node.op == "*" else node
            if not set(used_names([base])) & pointers:
                problem.append("indexes an array that is not one of its pointer parameters")

    Walker().visit(f.body)
    return problem[0] if problem else None


def _definition_start(text: str, name_at: int) -> int:
    """Where the definition whose name is at ``name_at`` starts: after the previous declaration,
    block or preprocessor line (``text`` has its comments blanked)."""
    i = name_at
    while i > 0 and text[i - 1] not in ";}":
        if text[i - 1] == "\n":
            line_start = text.rfind("\n", 0, i - 1) + 1
            if text[line_start : i - 1].lstrip().startswith("#"):
                break
        i -= 1
    while i < name_at and text[i].isspace():
        i += 1
    return i


def host_helpers(
    src: SourceFile, blanked: str, tree: c_ast.FileAST, spans, ranges, known: set[str]
) -> tuple[Helper, ...]:
    """The file's functions that the code of the PerfTuning regions (``ranges``: (start, end)
    offsets) calls on the host, between or around its Loop regions, and that are not in
    ``known`` (the kernels' helpers): the harness runs that code, so it needs them, as written
    (no check that a GPU could run them: only the host does)."""

    def inside(call: c_ast.FuncCall) -> bool:
        c = call.coord
        return (
            c is not None
            and c.file == src.path
            and any(lo <= src.offset(c.line, c.column or 1) < hi for lo, hi in ranges)
        )

    calls = [call for _, _, f in spans for call in _calls(f.body) if inside(call)]
    found = used_helpers(src, blanked, tree, spans, calls, set(), device=False)
    return tuple(h for h in found if h.name not in known)


def used_helpers(
    src: SourceFile, blanked: str, tree: c_ast.FileAST, spans, bodies, own: set[str], device: bool = True
) -> tuple[Helper, ...]:
    """The file's functions the loop bodies call, directly or through one another, callees
    first. ``spans``: (open, close, FuncDef) of the file's function bodies; ``own``: the
    functions holding the regions, which a kernel cannot call. ``device``: the kernels call them
    (each must be one a GPU can run)."""
    functions = {f.decl.name: (lo, hi, f) for lo, hi, f in spans}
    globals_ = {
        d.name for d in tree.ext if isinstance(d, c_ast.Decl) and d.name and not isinstance(d.type, c_ast.FuncDecl)
    }
    order: list[str] = []
    visiting: list[str] = []

    def visit(call: c_ast.FuncCall) -> None:
        name = call.name.name if isinstance(call.name, c_ast.ID) else None
        if name not in functions or name in order:
            return
        where = loc_of(call)
        if name in visiting and not device:
            return
        if name in own or name in visiting:
            raise src.error_at(where, f"'{name}' calls itself through this loop: a kernel cannot run it", AnalysisError)
        f = functions[name][2]
        why = _why_not(f, globals_) if device else None
        if why is not None:
            raise src.error_at(
                where,
                f"'{name}', a function of this file, {why}: orcu runs on the GPU only functions of "
                "scalar result and arguments (or pointers they only read) that use no global "
                "variable; write its work into the loop",
                AnalysisError,
            )
        visiting.append(name)
        for inner in _calls(f.body):
            visit(inner)
        visiting.pop()
        order.append(name)

    for body in bodies:
        for call in _calls(body):
            visit(call)
    out = []
    for name in order:
        lo, hi, f = functions[name]
        start = _definition_start(blanked, src.offset(f.decl.coord.line, f.decl.coord.column))
        prototypes = [
            _definition_start(blanked, src.offset(d.coord.line, d.coord.column)) for d in declarations(tree, src, name)
        ]
        exported = name != "main" and "static" not in f.decl.storage and "inline" not in f.decl.funcspec
        # the definition as C++ takes it: its declaration typed (a K&R one's too), its body as written
        out.append(
            Helper(
                name,
                (*prototypes, start),
                f"{c_text(declared(f))}\n{src.text[lo : hi + 1]}",
                c_text(declared(f)),
                exported,
            )
        )
    return tuple(out)


def declarations(tree: c_ast.FileAST, src: SourceFile, name: str) -> list[c_ast.Decl]:
    """The file's prototypes of the function ``name`` (its definition apart)."""
    return [
        d
        for d in tree.ext
        if isinstance(d, c_ast.Decl)
        and d.name == name
        and isinstance(d.type, c_ast.FuncDecl)
        and d.coord is not None
        and d.coord.file == src.path
    ]
