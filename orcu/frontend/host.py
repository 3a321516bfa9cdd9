"""What of a Loop region runs on the host: the statements around its transformed loops.

Orio's Loop region is C code in which ``transform CUDA(...)`` marks each loop that becomes a
kernel: one loop alone, several one after another, or loops inside a sequential loop (time
steps). Everything else in the region (a norm's square root after its sum, the time-step loop
around the kernels) runs on the host as written, around the calls of the generated code. The
region's host code is kept as C text in which each transformed loop stands as the statement
``orcu_loop_K();`` (K: the nest's index in the program), for the harness and the tuned file to
put a call, or the loop as written, in its place.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pycparser import c_ast

from orcu.errors import AnalysisError
from orcu.frontend.ir import Variable, c_text
from orcu.frontend.liveness import block_items, offset_of
from orcu.frontend.lower import Lowering
from orcu.frontend.source import SourceFile

_PLACEHOLDER = re.compile(r"orcu_loop_(\d+)\(\);")
MARKER = re.compile(r"orcu_sync_(\d+)\(\);")  # where a host statement's copies go (frontend/host_syncs.py)
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def placeholder(k: int) -> str:
    return f"orcu_loop_{k}();"


@dataclass(frozen=True)
class Sync:
    """One marker's copies: before a statement, what it reads comes back from the device; after
    it, what it wrote goes to the device."""

    to_device: bool
    touches: tuple[Touch, ...]


@dataclass(frozen=True)
class Touch:
    """What one host statement moves of one array, before it (reads) or after it (writes)."""

    array: str
    element: str | None  # the element's C text (``x[i]``): it alone; None: the whole array


@dataclass(frozen=True)
class Host:
    """One Loop region's host side."""

    text: str  # the host code, each transformed loop as placeholder(k)
    nests: tuple[int, ...]  # the program's nests the region holds, in order
    writes: frozenset[str]  # the scalars its statements assign, the transformed loops' iterators aside
    reference: str  # the region as written: what its generated code must match
    variables: Mapping[str, Variable]  # every name the region uses, typed
    changed: frozenset[str]  # names the host code assigns, its loops' iterators included
    touches_arrays: bool  # its statements read or write array elements, or name the arrays
    repeated: bool  # the region runs kernels more than once (several loops, or one inside a host loop)
    left: tuple[int, ...] = ()  # lines of the loops without a transformed loop inside: they run on the host
    # The arrays each local pointer it uses may point at (``src = buffer;``): program._aliases.
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Where the arrays are named only to swap them (``T *temp = a; a = b; b = temp;``, double
    # buffering): each such copy, (to, from); None where the host code does anything else with
    # them (reads or writes elements, passes them on).
    swaps: tuple[tuple[str, str], ...] | None = None
    # Where one transform took the whole region: the schedule that chose its kernels (tsg/scop.py).
    schedule: Any = None
    unscheduled: str = ""  # where one transform stands before the region but no schedule was taken: why
    # Where its statements touch array elements: what each marker in ``text`` moves to keep the
    # arrays on the device around them (frontend/host_syncs.py); a string: why they cannot stay.
    syncs: Mapping[int, Sync] | str = field(default_factory=dict)

    @property
    def trivial(self) -> bool:
        """The region is one transformed loop and nothing else."""
        return self.text.strip() == placeholder(self.nests[0])

    def code(self, parts: Mapping[int, str], markers: bool = False) -> str:
        """The host code with each transformed loop replaced by ``parts[k]`` (lines indented as
        the statement they replace); its sync markers kept where ``markers``, else dropped."""
        lines = []
        for line in self.text.splitlines():
            if not markers and MARKER.fullmatch(line.strip()):
                continue
            m = _PLACEHOLDER.fullmatch(line.strip())
            if m is None:
                lines.append(line)
                continue
            pad = line[: len(line) - len(line.lstrip())]
            lines += [pad + part for part in parts[int(m.group(1))].splitlines()]
        return "\n".join(lines)


def targets(src: SourceFile, items: list[c_ast.Node], markers: Sequence[tuple[object, int, int]]) -> list[c_ast.For]:
    """The loop each ``transform CUDA(...)`` applies to: the statement right after it, or the
    first loop after the plain statements that follow it."""
    found: list[c_ast.For] = []
    nodes = [(n, offset_of(src, n)) for n in _statements(items)]
    for _, start, end in markers:
        after = [(at, n) for n, at in nodes if at is not None and at >= end]
        first = min(after, key=lambda p: p[0])[1] if after else None
        if first is not None and not isinstance(first, c_ast.For):
            # Statements first (a sum's reset): the transform is the next loop's in their block,
            # and they run on the host before it.
            block, index, _ = _path(items, first, None)[-1]
            first = next((n for n in block[index:] if isinstance(n, c_ast.For)), first)
        if not isinstance(first, c_ast.For):
            if first is not None:
                Lowering(src).block([first])  # a 'while' loop, say: its own diagnostic
            raise src.error(
                start,
                "'transform CUDA(...)' applies to the statement after it, which must be a 'for' loop",
                AnalysisError,
            )
        if any(first is f for f in found):
            raise src.error(start, "two 'transform CUDA(...)' for one loop", AnalysisError)
        found.append(first)
    return found


def split(src: SourceFile, items: list[c_ast.Node], loops: list[c_ast.For], first: int) -> tuple[str, list[c_ast.Node]]:
    """(the host code, with loop j as placeholder(first + j); its statements, the placeholders
    as calls). Host code may hold anything C allows (loops left to the host, declarations,
    pointer swaps): it runs as written between the kernels, and where it touches the arrays
    each kernel moves its own (codegen/resident.py)."""
    memo: dict[int, object] = {}
    copied = copy.deepcopy(items, memo)
    stand_in = {
        id(memo[id(lp)]): c_ast.FuncCall(c_ast.ID(f"orcu_loop_{first + j}"), None) for j, lp in enumerate(loops)
    }
    host = rewritten(copied, lambda node: [stand_in[id(node)]] if id(node) in stand_in else None)
    return "\n".join(statement_text(item) for item in host), host


def in_host_loop(items: list[c_ast.Node], target: c_ast.Node) -> bool:
    return any(isinstance(owner, _LOOPS) for _, _, owner in _path(items, target, None) or [])


def enclosing_loops(items: list[c_ast.Node], target: c_ast.Node) -> list[c_ast.For]:
    """The host 'for' loops around ``target`` in the region, outermost first."""
    return [owner for _, _, owner in _path(items, target, None) or [] if isinstance(owner, c_ast.For)]


def following(items: list[c_ast.Node], target: c_ast.Node) -> list[c_ast.Node]:
    """The host statements (and loop headers) that may run after ``target`` in one run of the
    region, in program order: the rest of each enclosing block, and for an enclosing loop its
    next iteration."""
    path = _path(items, target, None)
    out: list[c_ast.Node] = []
    for block, index, owner in reversed(path or []):
        out += block[index + 1 :]
        if isinstance(owner, c_ast.For):
            out += [n for n in (owner.next, owner.cond) if n is not None] + block[:index]
        elif isinstance(owner, (c_ast.While, c_ast.DoWhile)):
            out += [owner.cond] + block[:index]
    return out


def _path(block: list[c_ast.Node], target, owner):
    for index, node in enumerate(block):
        if node is target:
            return [(block, index, owner)]
        for child in _blocks(node):
            inner = _path(child, target, node)
            if inner is not None:
                return [(block, index, owner)] + inner
    return None


def _blocks(node: c_ast.Node) -> list[list[c_ast.Node]]:
    """The statement lists directly inside a statement."""
    if isinstance(node, _LOOPS):
        return [block_items(node.stmt)] if node.stmt is not None else []
    if isinstance(node, c_ast.If):
        return [block_items(n) for n in (node.iftrue, node.iffalse) if n is not None]
    if isinstance(node, c_ast.Compound):
        return [block_items(node)]
    return []


def _statements(items: list[c_ast.Node]):
    for node in items:
        yield node
        for block in _blocks(node):
            yield from _statements(block)


def rewritten(block: list[c_ast.Node], each) -> list[c_ast.Node]:
    """``block`` with each statement for which ``each`` gives a list replaced by that list; into
    the loops, tests and blocks for which it gives None, the same throughout (in place)."""
    out = []
    for node in block:
        replacement = each(node)
        if replacement is not None:
            out += replacement
            continue
        if isinstance(node, _LOOPS) and node.stmt is not None:
            node.stmt = _one(rewritten(block_items(node.stmt), each), node.stmt)
        elif isinstance(node, c_ast.If):
            node.iftrue = _one(rewritten(block_items(node.iftrue), each), node.iftrue)
            if node.iffalse is not None:
                node.iffalse = _one(rewritten(block_items(node.iffalse), each), node.iffalse)
        elif isinstance(node, c_ast.Compound):
            node.block_items = rewritten(list(node.block_items or []), each)
        out.append(node)
    return out


def _one(block: list[c_ast.Node], was: c_ast.Node) -> c_ast.Node:
    """``block`` in the place of the statement ``was``: a block where several statements are."""
    if isinstance(was, c_ast.Compound):
        was.block_items = block
        return was
    return block[0] if len(block) == 1 else c_ast.Compound(block)


def holds_placeholder(node: c_ast.Node) -> bool:
    """Whether a transformed loop stands anywhere inside ``node`` (or is it): under a 'switch' or
    a label too, where _statements does not look."""
    found = False

    class Finder(c_ast.NodeVisitor):
        def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
            nonlocal found
            found = found or stands_in(n)

    Finder().visit(node)
    return found


def left_to_host(host: list[c_ast.Node]) -> tuple[int, ...]:
    """The lines of the outermost loops of host code (split's statements) that hold no
    transformed loop: they run on the host as written (Orio leaves them so too)."""
    found = []

    def walk(nodes):
        for node in nodes:
            if isinstance(node, _LOOPS) and not any(stands_in(n) for n in _statements([node])):
                found.append(node.coord.line)
            else:
                for block in _blocks(node):
                    walk(block)

    walk(host)
    return tuple(found)


def stands_in(node: c_ast.Node) -> bool:
    """Whether ``node`` is the placeholder statement of a transformed loop."""
    return (
        isinstance(node, c_ast.FuncCall)
        and isinstance(node.name, c_ast.ID)
        and _PLACEHOLDER.fullmatch(node.name.name + "();") is not None
    )


def statement_text(node: c_ast.Node) -> str:
    text = c_text(node)
    return text if text.endswith(("}", ";")) else text + ";"
