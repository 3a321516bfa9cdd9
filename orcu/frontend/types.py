"""The C type of every name a Loop region uses.

Names take their types from declarations inside the region, then from the enclosing
function (its parameters and declarations), the file's globals, ``input_vars`` and
object-like macros, in that order.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from pycparser import c_ast

from orcu.errors import AnalysisError
from orcu.frontend.ir import CType, Variable, c_text
from orcu.frontend.lower import loc_of
from orcu.frontend.source import SourceFile


def ctype_of(node: c_ast.Node) -> CType | None:
    """The CType of a declaration's type node, or None for types orcu does not handle."""
    pointers = 0
    dims: list[str] = []
    quals: list[str] = []
    while True:
        if isinstance(node, c_ast.PtrDecl) and isinstance(node.type, c_ast.ArrayDecl) and not dims and not pointers:
            dims.append("")  # a pointer to arrays, double (*A)[m], indexes as the array parameter double A[][m]
            node = node.type
        elif isinstance(node, c_ast.PtrDecl):
            pointers += 1
            node = node.type
        elif isinstance(node, c_ast.ArrayDecl):
            dims.append(c_text(node.dim) if node.dim is not None else "")
            node = node.type
        elif isinstance(node, c_ast.TypeDecl):
            quals = node.quals
            node = node.type
        elif isinstance(node, c_ast.IdentifierType):
            return CType(" ".join(node.names), pointers, tuple(dims), "const" in quals)
        elif isinstance(node, c_ast.Struct) and node.name:  # an array of the file's structs (frontend/structs.py)
            return CType(f"struct {node.name}", pointers, tuple(dims), "const" in quals)
        else:
            return None


def declarations_in(node: c_ast.Node, origin: str) -> dict[str, tuple[c_ast.Decl, str]]:
    found: dict[str, tuple[c_ast.Decl, str]] = {}

    class Finder(c_ast.NodeVisitor):
        looped = False  # inside a loop of the region

        def visit_Decl(self, d: c_ast.Decl) -> None:
            if d.name and not isinstance(d.type, c_ast.FuncDecl):
                # an array a region's loop declares is each iteration's own (a filter's weights)
                private = self.looped and isinstance(d.type, c_ast.ArrayDecl)
                found.setdefault(d.name, (d, "private" if private else origin))
            if d.init is not None:
                self.visit(d.init)

        def visit_For(self, node: c_ast.For) -> None:
            looped, self.looped = self.looped, origin == "region"
            self.generic_visit(node)
            self.looped = looped

        def visit_FuncDef(self, f: c_ast.FuncDef) -> None:
            pass  # functions are scanned on their own

    Finder().visit(node)
    return found


def used_names(items) -> dict[str, c_ast.Node]:
    """Identifiers (not called function names) in first-use order, with a node each."""
    names: dict[str, c_ast.Node] = {}

    class Finder(c_ast.NodeVisitor):
        def visit_ID(self, node: c_ast.ID) -> None:
            names.setdefault(node.name, node)

        def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
            if node.args is not None:
                self.visit(node.args)

        def visit_StructRef(self, node: c_ast.StructRef) -> None:
            self.visit(node.name)  # pos[i].x: the field is no variable

        def visit_Decl(self, node: c_ast.Decl) -> None:
            names.setdefault(node.name, node)
            if node.init is not None:
                self.visit(node.init)

    finder = Finder()
    for item in items:
        finder.visit(item)
    return names


def _outer_scopes(
    function: c_ast.FuncDef | None, file_ast: c_ast.FileAST | None
) -> list[dict[str, tuple[c_ast.Decl, str]]]:
    """Declarations visible in a region from outside it, innermost scope first."""
    scopes = []
    if function is not None:
        params = function.decl.type.args
        found = declarations_in(params, "parameter") if params is not None else {}
        for decl in function.param_decls or ():  # K&R: int f(n, x) int n; double *x; { ... }
            found.update(declarations_in(decl, "parameter"))
        scopes.append(found)
        scopes.append(declarations_in(function.body, "local"))
    if file_ast is not None:
        globals_ = {}
        for ext in file_ast.ext:
            if isinstance(ext, c_ast.Decl):
                globals_.update(declarations_in(ext, "global"))
        scopes.append(globals_)
    return scopes


def visible_variables(function: c_ast.FuncDef | None, file_ast: c_ast.FileAST | None) -> dict[str, Variable]:
    """Every variable of a handled type declared in the enclosing function or at file scope."""
    out: dict[str, Variable] = {}
    for scope in _outer_scopes(function, file_ast):
        for name, (decl, origin) in scope.items():
            ctype = ctype_of(decl.type)
            if ctype is not None and name not in out:
                out[name] = Variable(name, ctype, origin, loc_of(decl))
    return out


class Declarations(Protocol):
    """Where the types of a region's names come from besides C declarations: a tuning spec's
    ``decl`` statements and its input parameters (orcu.spec.model.TuningSpec is one)."""

    @property
    def input_names(self) -> Collection[str]: ...

    @property
    def input_params(self) -> Sequence[Any]: ...

    def decl(self, name: str) -> Any: ...


def resolve_types(
    src: SourceFile,
    items: list[c_ast.Node],
    function: c_ast.FuncDef | None,
    file_ast: c_ast.FileAST | None,
    spec: Declarations | None,
    macros: dict[str, str],
) -> dict[str, Variable]:
    local = {}
    for item in items:
        local.update(declarations_in(item, "region"))
    scopes = [local] + _outer_scopes(function, file_ast)
    iterators = _loop_iterators(items)
    variables: dict[str, Variable] = {}
    for name, use in used_names(items).items():
        variables[name] = _lookup(src, name, use, scopes, spec, macros, iterators)
    return variables


def _loop_iterators(items) -> set[str]:
    """Names a for loop's init assigns (``for (i = 0; ...)``)."""

    class Finder(c_ast.NodeVisitor):
        found: set[str] = set()

        def visit_For(self, node: c_ast.For) -> None:
            init = node.init
            assignments = init.exprs if isinstance(init, c_ast.ExprList) else [init]
            for a in assignments:
                if isinstance(a, c_ast.Assignment) and isinstance(a.lvalue, c_ast.ID):
                    self.found = self.found | {a.lvalue.name}
            self.generic_visit(node)

    finder = Finder()
    for item in items:
        finder.visit(item)
    return finder.found


def _lookup(src, name, use, scopes, spec, macros, iterators=frozenset()) -> Variable:
    for scope in scopes:
        if name in scope:
            decl, origin = scope[name]
            ctype = ctype_of(decl.type)
            if ctype is None:
                raise src.error_at(
                    loc_of(use), f"'{name}' has a type orcu cannot handle in a Loop region", AnalysisError
                )
            return Variable(name, ctype, origin, loc_of(decl))
    if spec is not None:
        decl = spec.decl(name)
        if decl is not None:
            words = decl.ctype.split()
            const = "const" in words
            base = " ".join(w for w in words if w != "const")
            dims = tuple(d.text.strip() for d in decl.dims)
            return Variable(name, CType(base, 0, dims, const), "input_vars", decl.loc)
    if spec is not None and name in spec.input_names:  # becomes a #define in the harness
        values = next(p.values for p in spec.input_params if p.name == name)
        base = "double" if any(isinstance(v, float) for v in values) else "int"
        return Variable(name, CType(base, const=True), "input_params", None)
    if name in macros:
        value = macros[name]
        base = "double" if any(c in value for c in ".eE") and not value.startswith("0x") else "int"
        return Variable(name, CType(base, const=True), "macro", None)
    if name in iterators:  # as in Orio: a loop iterator declared nowhere is an int
        return Variable(name, CType("int"), "local", None)
    raise src.error_at(
        loc_of(use),
        f"'{name}' is not declared: declare it in the enclosing function or in input_vars",
        AnalysisError,
    )


# CUDA's vector types: (element, lanes) -> type; 16 bytes is the widest load.
VECTORS = {
    ("float", 4): "float4",
    ("float", 2): "float2",
    ("double", 2): "double2",
    ("int", 4): "int4",
    ("int", 2): "int2",
    ("unsigned int", 4): "uint4",
    ("unsigned int", 2): "uint2",
    ("long long", 2): "longlong2",
    ("unsigned long long", 2): "ulonglong2",
    ("long", 2): "long2",
    ("unsigned long", 2): "ulong2",
}

# The element types atomicAdd adds (CUDA has no 'long long' or 'long' one): the sums that blocks
# add their shares with, and a kernel's updates through subscripts that are not affine.
ATOMIC_SUMS = ("float", "double", "int", "unsigned int", "unsigned long long")
# The 64-bit integers it adds as unsigned long long: a two's complement sum has the same bits.
ATOMIC_AS_UNSIGNED = ("long", "long long", "unsigned long")

# Bytes of an element of each type (canonical names).
ELEMENT_BYTES = {
    "double": 8,
    "long": 8,
    "long long": 8,
    "unsigned long": 8,
    "unsigned long long": 8,
    "size_t": 8,
    "float": 4,
    "int": 4,
    "unsigned int": 4,
    "short": 2,
    "unsigned short": 2,
    "char": 1,
    "signed char": 1,
    "unsigned char": 1,
    "bool": 1,
}


# C's words that C++ spells otherwise: (C's, C++'s), each made a macro where the file uses it.
_CXX_SPELLINGS = (("_Bool", "bool"), ("restrict", "__restrict__"))


def cxx_spellings(text: str) -> list[tuple[str, str]]:
    """The words of C code that the generated C++ must spell otherwise (``_Bool``, ``restrict``:
    ``float *restrict x`` is C99's commonest pointer parameter, no C++ keyword)."""
    return [(c, cxx) for c, cxx in _CXX_SPELLINGS if re.search(rf"\b{c}\b", text)]


def canonical_type(base: str) -> str:
    """``long int`` -> ``long``, ``unsigned`` -> ``unsigned int``, ``signed int`` -> ``int``; C's
    ``_Bool`` -> ``bool``, its name in the generated C++."""
    if base == "_Bool":
        return "bool"
    words = [w for w in base.split() if w != "signed" or base.split() == ["signed", "char"]]
    if "int" in words and len(words) > 1:
        words.remove("int")
    if words == ["unsigned"]:
        words = ["unsigned", "int"]
    return " ".join(words) or "int"
