"""C text of loop-nest IR inside a kernel: statements through pycparser's generator,
loops from their normalised bounds, with renamed identifiers and unroll pragmas.

Each call prints with a generator of its own: pycparser's keeps its indentation in the
instance, and variants are generated in several threads at once."""
from __future__ import annotations

import copy
from typing import Mapping

from pycparser import c_ast, c_generator

from ..frontend.ir import Loop, Node

INDENT = "    "


class _Printer(c_generator.CGenerator):
    """pycparser's C generator with four-space indentation."""

    def __init__(self) -> None:
        super().__init__(reduce_parentheses=True)

    def _make_indent(self) -> str:
        return " " * (self.indent_level * 2)  # the generator steps by 2; we indent by 4

    def statement(self, node: c_ast.Node, depth: int) -> list[str]:
        self.indent_level = depth * 2
        text = self._generate_stmt(node)
        return text.rstrip("\n").split("\n")


def expression(node: c_ast.Node, renames: Mapping[str, str] | None = None) -> str:
    return _Printer().visit(renamed(node, renames) if renames else node)


def renamed(node: c_ast.Node, renames: Mapping[str, str]) -> c_ast.Node:
    """A copy of ``node`` with the identifiers in ``renames`` replaced."""
    node = copy.deepcopy(node)

    class Renamer(c_ast.NodeVisitor):
        def visit_ID(self, n: c_ast.ID) -> None:
            n.name = renames.get(n.name, n.name)

        def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
            if n.args is not None:  # a called function's name is not a variable
                self.visit(n.args)

    Renamer().visit(node)
    return node


def innermost(loop: Loop) -> bool:
    return not any(isinstance(n, Loop) for n in loop.body)


def loop_header(loop: Loop, renames: Mapping[str, str]) -> str:
    step = f"{loop.var}++" if loop.step == 1 else f"{loop.var} += {loop.step}"
    lower, upper = expression(loop.lower, renames), expression(loop.upper, renames)
    return f"for ({loop.var} = {lower}; {loop.var} < {upper}; {step})"


def nodes(body: tuple[Node, ...], depth: int, renames: Mapping[str, str], unroll: int = 1) -> list[str]:
    """Kernel lines for IR nodes; ``unroll`` > 1 puts ``#pragma unroll`` on innermost loops."""
    printer = _Printer()
    lines: list[str] = []

    def walk(body: tuple[Node, ...], depth: int) -> None:
        pad = INDENT * depth
        for n in body:
            if isinstance(n, Loop):
                if unroll > 1 and innermost(n):
                    lines.append(f"{pad}#pragma unroll {unroll}")
                lines.append(f"{pad}{loop_header(n, renames)} {{")
                walk(n.body, depth + 1)
                lines.append(f"{pad}}}")
            else:
                node = renamed(n.node, renames) if renames else n.node
                lines.extend(printer.statement(node, depth))

    walk(body, depth)
    return lines
