"""The file's structs of scalar fields: the elements of arrays of structs (``pos[i].x``).

Particle, molecular-dynamics and CFD codes keep their data as arrays of small structs
(``typedef struct { float x, y, z, w; } float4_t;``). orcu takes such an array as any other:
its elements move whole, each field access is analysed on its own (``pos[i].x`` and
``pos[i].y`` never overlap), the harness fills every field and compares every field, and the
kernels read and write them as the C does. A struct with a field that is not a scalar
(an array, a pointer, a nested struct) is no element orcu takes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pycparser import c_ast

from orcu.frontend.ctext import blank_comments
from orcu.frontend.ir import c_text
from orcu.frontend.types import canonical_type

_TYPEDEF = re.compile(r"\btypedef\s+struct\s*\w*\s*\{[^{}]*\}\s*(\w+)\s*;")
_TAGGED = re.compile(r"\bstruct\s+(\w+)\s*\{")


@dataclass(frozen=True)
class Struct:
    name: str  # as a declaration names it: "float4_t", "struct particle"
    fields: tuple[tuple[str, str], ...]  # (field, scalar type), in order
    definition: str  # C text that defines it, for the harness


def struct_names(text: str) -> set[str]:
    """The struct types ``text`` defines, as declarations name them (before it is parsed: the
    spec's ``decl`` may name them)."""
    blanked = blank_comments(text)
    return {m.group(1) for m in _TYPEDEF.finditer(blanked)} | {
        f"struct {m.group(1)}" for m in _TAGGED.finditer(blanked)
    }


def structs(tree: c_ast.FileAST, paths: set[str]) -> dict[str, Struct]:
    """The structs of the file and its headers (``paths``) whose fields are all scalars, by
    the name declarations use."""
    out: dict[str, Struct] = {}
    for node in tree.ext:
        if node.coord is None or node.coord.file not in paths:
            continue  # orcu's own prelude of standard typedefs
        if (
            isinstance(node, c_ast.Typedef)
            and isinstance(node.type, c_ast.TypeDecl)
            and isinstance(node.type.type, c_ast.Struct)
        ):
            found = _struct(node.name, node.type.type, c_text(node) + ";")
        elif (
            isinstance(node, c_ast.Decl)
            and isinstance(node.type, c_ast.Struct)
            and node.type.decls is not None
            and node.name is None
        ):
            found = _struct(f"struct {node.type.name}", node.type, c_text(node) + ";")
        else:
            continue
        if found is not None:
            out[found.name] = found
    return out


def _struct(name: str, struct: c_ast.Struct, definition: str) -> Struct | None:
    fields = []
    for d in struct.decls or ():
        if not (isinstance(d.type, c_ast.TypeDecl) and isinstance(d.type.type, c_ast.IdentifierType)):
            return None
        fields.append((d.name, canonical_type(" ".join(d.type.type.names))))
    return Struct(name, tuple(fields), definition) if fields else None
