"""C text of loop-nest IR inside a kernel: statements through pycparser's generator,
loops from their normalised bounds, with renamed identifiers and unroll pragmas.

Each call prints with a generator of its own: pycparser's keeps its indentation in the
instance, and variants are generated in several threads at once."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from pycparser import c_ast, c_generator

from orcu.frontend.cparse import copied, parse_expression
from orcu.frontend.ir import Loop, Node, Stmt, c_text

INDENT = "    "


class _Printer(c_generator.CGenerator):
    """pycparser's C generator with four-space indentation."""

    def __init__(self) -> None:
        super().__init__(reduce_parentheses=True)

    def _make_indent(self) -> str:
        return " " * (self.indent_level * 2)  # the generator steps by 2; we indent by 4

    def _generate_stmt(self, n: c_ast.Node, add_indent: bool = False) -> str:
        # pycparser indents a braceless body once, but prints what that body holds at the level
        # of its parent (`if (c) for (...) S` left S beside the for): keep the deeper level
        # while the body is printed
        if add_indent and not isinstance(n, c_ast.Compound):
            self.indent_level += 2
            try:
                return super()._generate_stmt(n)
            finally:
                self.indent_level -= 2
        return super()._generate_stmt(n, add_indent)

    def statement(self, node: c_ast.Node, depth: int) -> list[str]:
        self.indent_level = depth * 2
        text = self._generate_stmt(node)
        return text.rstrip("\n").split("\n")


def _renamed_text(text: str, renames: Mapping[str, str]) -> str:
    """An access's text with the body's renames applied (the text as is where there are none)."""
    if not renames:
        return text
    node = parse_expression(text)
    return expression(node, renames) if node is not None else text


def expression(node: c_ast.Node, renames: Mapping[str, str] | None = None) -> str:
    return _Printer().visit(renamed(node, renames) if renames else node)


_WIDENED = ("+", "-", "*", "<<")
_CAST_NAME = re.compile(r"\(\(long long\) (\w+)\)(?![\w\[(])|\(long long\) (\w+)(?![\w\[(])")


def widened(node: c_ast.Node) -> str:
    """C text of an integer expression evaluated in ``long long``: the first operand of each
    sum or product is cast, so ``m*n + k`` becomes ``(long long)m * n + k`` and cannot
    overflow where ``int`` would."""

    def widen(n: c_ast.Node) -> c_ast.Node:
        if isinstance(n, c_ast.BinaryOp) and n.op in _WIDENED:
            right = widen(n.right) if isinstance(n.right, c_ast.BinaryOp) else n.right
            return c_ast.BinaryOp(n.op, widen(n.left), right, n.coord)
        if isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+"):
            return c_ast.UnaryOp(n.op, widen(n.expr), n.coord)
        if isinstance(n, c_ast.Constant) and n.type == "int":
            return c_ast.Constant("int", n.value.rstrip("uUlL") + "LL", n.coord)
        cast = c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["long", "long"])))
        return c_ast.Cast(cast, n, n.coord)

    # pycparser parenthesises every cast operand: a cast of a name binds tighter than * and + anyway.
    return _CAST_NAME.sub(lambda m: f"(long long){m.group(1) or m.group(2)}", _Printer().visit(widen(node)))


def widened_text(text: str) -> str:
    """A C expression of the user's (an extent, a bound) evaluated in 64 bits."""
    node = parse_expression(text)
    return widened(node) if node is not None else f"(long long)({text})"


def renamed(node: c_ast.Node, renames: Mapping[str, str], refs: Mapping[str, str] | None = None) -> c_ast.Node:
    """A copy of ``node`` with the identifiers in ``renames`` replaced, and the array
    elements in ``refs`` (by their text, ``y[i]``) replaced by names."""
    node = copied(node)
    if refs:
        node = _replace_refs(node, refs)

    class Renamer(c_ast.NodeVisitor):
        def visit_ID(self, n: c_ast.ID) -> None:
            n.name = renames.get(n.name, n.name)

        def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
            if n.args is not None:  # a called function's name is not a variable
                self.visit(n.args)

        def visit_StructRef(self, n: c_ast.StructRef) -> None:
            self.visit(n.name)  # pos[x].x: the field keeps its name

    Renamer().visit(node)
    return node


def _replace_refs(node: c_ast.Node, refs: Mapping[str, str]) -> c_ast.Node:
    if isinstance(node, c_ast.ArrayRef) and c_text(node) in refs:
        return c_ast.ID(refs[c_text(node)], node.coord)
    for name, child in node.children():
        replaced = _replace_refs(child, refs)
        if replaced is child:
            continue
        if "[" in name:  # a list member: block_items[2]
            attr, index = name[:-1].split("[")
            getattr(node, attr)[int(index)] = replaced
        else:
            setattr(node, name, replaced)
    return node


def innermost(loop: Loop) -> bool:
    return not any(isinstance(n, Loop) for n in loop.body)


def loop_header(loop: Loop, renames: Mapping[str, str]) -> str:
    lower, upper = expression(loop.lower, renames), expression(loop.upper, renames)
    if loop.descending:  # in its own order: a loop run in sequence may depend on it
        start = upper[:-4] if upper.endswith(" + 1") else f"{upper} - 1"
        down = f"{loop.var}--" if loop.step == 1 else f"{loop.var} -= {loop.step}"
        return f"for ({loop.var} = {start}; {loop.var} >= {lower}; {down})"
    step = f"{loop.var}++" if loop.step == 1 else f"{loop.var} += {loop.step}"
    return f"for ({loop.var} = {lower}; {loop.var} < {upper}; {step})"


def nodes(
    body: tuple[Node, ...],
    depth: int,
    renames: Mapping[str, str],
    unroll: int = 1,
    registers: Mapping[int, list] | None = None,
    refs: Mapping[str, str] | None = None,
    special: Callable[[Node, int, Mapping[str, str]], list[str] | None] | None = None,
    atomics: Mapping[Stmt, c_ast.Node] | None = None,
) -> list[str]:
    """Kernel lines for IR nodes; ``unroll`` > 1 puts ``#pragma unroll`` on innermost loops.
    ``registers`` (by the id of a loop: objects with ``name``, ``ctype``, ``ref`` and
    ``loop``) are array elements the loop keeps in a register: loaded before it, stored
    after it, and read and written as the register inside it. ``refs``: array elements (by
    their text) printed as these names throughout. ``special(node, depth, refs)`` may print a node
    its own way (it returns None for the others). ``atomics``: statements a kernel prints in
    another form (codegen/atomics.py), renamed as the others."""
    printer = _Printer()
    lines: list[str] = []

    def walk(body: tuple[Node, ...], depth: int, refs: Mapping[str, str]) -> None:
        pad = INDENT * depth
        for n in body:
            own = special(n, depth, refs) if special is not None else None
            if own is not None:
                lines.extend(own)
            elif isinstance(n, Loop):
                kept = (registers or {}).get(id(n), [])
                # the element as this copy of the body names it (a register tile's i_1 for i)
                at = {r.ref: _renamed_text(r.ref, renames) for r in kept}
                for r in kept:
                    lines.append(
                        f"{pad}{r.ctype} {r.name} = {at[r.ref]};  // {at[r.ref]} stays in a register over the loop on "
                        f"{r.loop}"
                    )
                if unroll > 1 and innermost(n):
                    lines.append(f"{pad}#pragma unroll {unroll}")
                lines.append(f"{pad}{loop_header(n, renames)} {{")
                walk(n.body, depth + 1, {**refs, **{r.ref: r.name for r in kept}})
                lines.append(f"{pad}}}")
                lines.extend(f"{pad}{at[r.ref]} = {r.name};" for r in kept)
            else:
                node = atomics.get(n, n.node) if atomics else n.node
                node = renamed(node, renames, refs) if renames or refs else node
                lines.extend(printer.statement(node, depth))

    walk(body, depth, dict(refs or {}))
    return lines
