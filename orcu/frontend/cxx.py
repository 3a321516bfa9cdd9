"""C function signatures that CUDA C++ accepts: the tuned file is compiled by nvcc as C++, which
has no C99 array parameters with run-time extents (``void f(int n, int m, double A[n][m])``).

Each such parameter becomes one C++ takes, with the same calling convention (an array
parameter is a pointer in C too), and a definition's body gets back the C99 type as a local:

    void f(int n, int m, double A[n][m]) { ... A[i][j] ... }
    void f(int n, int m, void *orcu_A_flat) { double (*A)[m] = (double (*)[m])orcu_A_flat; ... }

nvcc and g++ accept pointers to arrays of run-time extent in a function body (a GNU extension
of C++), so the body stays as written. A parameter whose first extent alone is a variable
(``double x[n]``, ``double A[n][100]``) loses it (``double x[]``): that one C ignores anyway.
Callers in C pass what they passed before; the prototype orcu declares for them takes
``void *`` there, which any pointer converts to in C without a cast. A K&R definition
(``void f(n, x) int n; double *x; {``) gets the prototype C++ requires, its types in its list.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from orcu.frontend.ctext import matching_bracket
from orcu.frontend.ir import c_text
from orcu.frontend.types import used_names


@dataclass(frozen=True)
class Param:
    """One array parameter as C++ takes it."""

    text: str  # the parameter's declaration in a definition
    prototype: str  # ... and in a declaration
    local: str | None  # the body's first statement, which gives the name its C99 type back


def _runtime(dim, macros) -> bool:
    """Whether an extent names a variable (not only numbers and object macros)."""
    return dim is not None and any(name not in macros for name in used_names([dim]))


def _array_chain(node) -> tuple[list, c_ast.TypeDecl | None]:
    """The extents of an array type (``A[a][b]``: [a, b]) and the declaration of its element."""
    dims = []
    while isinstance(node, c_ast.ArrayDecl):
        dims.append(node.dim)
        node = node.type
    return dims, node if isinstance(node, c_ast.TypeDecl) else None


def cxx_param(param: c_ast.Node, macros) -> Param | None:
    """How C++ takes this parameter, where it is not C++ as written; None where it is."""
    if not isinstance(param, c_ast.Decl) or param.name is None:
        return None
    kind = param.type
    if isinstance(kind, c_ast.ArrayDecl):
        dims, element = _array_chain(kind)
        first, trailing = dims[0], dims[1:]
    elif isinstance(kind, c_ast.PtrDecl) and isinstance(kind.type, c_ast.ArrayDecl):  # double (*A)[m]
        trailing, element = _array_chain(kind.type)
        first = None
    else:
        return None
    if element is None or not isinstance(element.type, c_ast.IdentifierType):
        return None
    elem = " ".join([*element.quals, *element.type.names])
    constant = "const" in element.quals
    if any(_runtime(d, macros) for d in trailing):
        flat = f"orcu_{param.name}_flat"
        shape = "".join(f"[{c_text(d)}]" for d in trailing)
        pointer = f"{'const ' if constant else ''}void *"
        return Param(
            f"{pointer}{flat}", f"{pointer}{param.name}", f"{elem} (*{param.name}){shape} = ({elem} (*){shape}){flat};"
        )
    if isinstance(kind, c_ast.ArrayDecl) and _runtime(first, macros):
        fixed = copy.deepcopy(param)
        fixed.type.dim, fixed.type.dim_quals = None, []
        return Param(c_text(fixed), c_text(fixed), None)
    return None


def declared(f: c_ast.FuncDef) -> c_ast.Decl:
    """The function's declaration with its parameters typed: a K&R definition's
    (``int f(n, x) int n; double *x; {``) as the prototype C++ and C declarations need
    (a name without a declaration is an int, as in C89)."""
    if not f.param_decls:
        return f.decl
    typed = {d.name: d for d in f.param_decls}
    fixed = copy.deepcopy(f.decl)
    fixed.type.args.params = [
        typed.get(p.name)
        or c_ast.Decl(
            p.name, [], [], [], [], c_ast.TypeDecl(p.name, [], None, c_ast.IdentifierType(["int"])), None, None
        )
        for p in f.decl.type.args.params
    ]
    return fixed


def _params(decl: c_ast.Decl) -> list | None:
    kind = decl.type
    if not isinstance(kind, c_ast.FuncDecl) or kind.args is None:
        return None
    return list(kind.args.params)


def cxx_prototype(decl: c_ast.Decl, macros) -> str:
    """The declaration of a function as C++ takes it (c_text's form; ``decl`` typed, see declared)."""
    params = _params(decl)
    changed = [cxx_param(p, macros) for p in params or []]
    if not any(changed):
        return c_text(decl)
    fixed = copy.deepcopy(decl)
    # an ID prints its name as it is: here, a whole parameter declaration written as text
    fixed.type.args.params = [c_ast.ID(c.prototype) if c else p for p, c in zip(params, changed)]
    return c_text(fixed)


def cxx_edits(text: str, tree: c_ast.FileAST, offset, macros) -> list[tuple[int, int, str]]:
    """Edits of the file's text (start, end, replacement) that make every function definition
    and declaration of it C++: the parameter lists, and the locals at the top of the bodies.
    ``offset(coord)`` is where a node's coordinate is in ``text``, None outside the file."""
    edits = []
    for ext in tree.ext:
        definition = isinstance(ext, c_ast.FuncDef)
        decl = declared(ext) if definition else ext
        if not isinstance(decl, c_ast.Decl):
            continue
        params = _params(decl)
        changed = [cxx_param(p, macros) for p in params or []]
        at = offset(decl.coord)
        old_style = definition and bool(ext.param_decls)
        if not (any(changed) or old_style) or at is None:
            continue
        open_at = text.find("(", at)
        close, _ = matching_bracket(text, open_at, len(text))
        if open_at < 0 or close < 0:
            continue
        written = [(c.text if definition else c.prototype) if c else c_text(p) for p, c in zip(params, changed)]
        # a K&R definition's parameter declarations, up to its body, go with its list
        end = text.find("{", offset(ext.body.coord)) if old_style else close
        edits.append((open_at + 1, end, ", ".join(written) + (")\n" if old_style else "")))
        if definition:
            body = text.find("{", offset(ext.body.coord))
            locals_ = " ".join(c.local for c in changed if c and c.local)
            if locals_:
                edits.append((body + 1, body + 1, f"\n    {locals_}  /* orcu: the C99 array parameters, for C++ */"))
    return edits
