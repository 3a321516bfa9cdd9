"""The kernel body of a TSG schedule: mapped loops as launch dimensions, the rest in the thread.

The grid loops come first, in their source order (so a loop whose bounds use another's
iterator sits inside it): each one runs over its axis's threads and blocks a whole grid
apart. The loops of the perfect nest that the schedule leaves sequential follow, in their
order, around the body of the innermost grid loop. A loop on threads only runs over the
block's threads along x; its reductions go to one accumulator per target in each thread,
the row of threads folds them (warp shuffles), and the row's first thread combines the
result with the target. Around such a loop, statements that write memory run once per row
(in its first thread), so that the row's threads do not repeat them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from orcu.analysis.conversions import accumulator_type
from orcu.analysis.poly import array_update
from orcu.analysis.scalars import calls_c_minmax, match_reduction
from orcu.analysis.subscripts import varies_along
from orcu.codegen import printer
from orcu.frontend.cparse import parse_expression
from orcu.frontend.ir import Loop, LoopNest, loops_of, statements


@dataclass(frozen=True)
class Target:
    """What a loop on threads reduces: its text in the body, its accumulator, how to combine."""

    ref: str  # y[i] or t
    name: str  # the thread's accumulator
    ctype: str
    identity: str
    functor: str
    scalar: bool
    widened: bool  # ctype is wider than the target's own type (conversions.accumulator_type)


def grid_header(loop: Loop, axis: str, renames: Mapping[str, str], where: str) -> list[str]:
    step = f" * {loop.step}" if loop.step != 1 else ""
    lower, upper = printer.expression(loop.lower, renames), printer.expression(loop.upper, renames)
    var = loop.var
    start = "" if lower == "0" else f"(orcu_index)({lower}) + "
    return [
        f"// '{var}' (the loop at {where}:{loop.loc.line}): over threadIdx.{axis} and blockIdx.{axis}, a whole grid apart",
        f"for ({var} = {start}((orcu_index)blockIdx.{axis} * blockDim.{axis} + threadIdx.{axis}){step}; "
        f"{var} < {upper}; {var} += (orcu_index)gridDim.{axis} * blockDim.{axis}{step}) {{",
    ]


def targets(
    nest: LoopNest, loop: Loop, types: Mapping[str, str], identities: Callable[[str, str, bool], tuple[str, str]], fresh
) -> list[Target]:
    """The reductions a loop on threads combines across them: array elements it updates with
    one operator, and scalars reduced along it."""
    out: dict[str, Target] = {}
    scalars = nest.deps.scalar_reductions(loop.var)
    inner = {lp.var for lp in loops_of([loop])}
    for st, _ in statements(loop.body):
        update = array_update(st.node, nest.variables)
        if update is not None and varies_along(nest, next(a for a in st.accesses if a.write), inner):
            continue  # a parallel loop's update of its own elements (J[k], k = i*cols + j): each thread runs it
        if update is not None:
            ref, op = update
            array = next(a.array for a in st.accesses if a.write)
            ctype = accumulator_type(types[array])
            out.setdefault(
                ref,
                Target(ref, fresh(f"{array}_sum"), ctype, *identities(ctype, op, False), False, ctype != types[array]),
            )
            continue
        m = match_reduction(st.node, nest.variables)
        if m is not None and m[0] in scalars and m[0] not in out:
            ctype = accumulator_type(types[m[0]])
            out[m[0]] = Target(
                m[0],
                fresh(f"{m[0]}_sum"),
                ctype,
                *identities(ctype, m[1], calls_c_minmax(st.node)),
                True,
                ctype != types[m[0]],
            )
    return list(out.values())


def threads_loop(
    loop: Loop,
    depth: int,
    found: list[Target],
    width: int,
    renames: Mapping[str, str],
    unroll: int,
    registers,
    where: str,
) -> list[str]:
    """A loop over the block's threads along x, with its reductions folded across the row."""
    pad = printer.INDENT * depth
    step = f" * {loop.step}" if loop.step != 1 else ""
    lower, upper = printer.expression(loop.lower, renames), printer.expression(loop.upper, renames)
    names = {t.ref: t.name for t in found}
    scalar = {t.ref: t.name for t in found if t.scalar}
    lines = [
        f"{pad}// '{loop.var}' (the loop at {where}:{loop.loc.line}): over threadIdx.x"
        + (", each thread a share; the row of threads then folds the shares" if found else ""),
        f"{pad}{{",
    ]
    lines += [f"{pad}    {t.ctype} {t.name} = {t.identity};" for t in found]
    start = "" if lower == "0" else f"(orcu_index)({lower}) + "
    lines.append(
        f"{pad}    for ({loop.var} = {start}(orcu_index)threadIdx.x{step}; {loop.var} < {upper}; "
        f"{loop.var} += (orcu_index)blockDim.x{step}) {{"
    )
    inner_renames = {**renames, **scalar}
    lines += printer.nodes(
        loop.body,
        depth + 2,
        inner_renames,
        unroll,
        registers,
        {ref: name for ref, name in names.items() if ref not in scalar},
    )
    lines.append(f"{pad}    }}")
    lines += [f"{pad}    {t.name} = orcu_row_reduce<{t.ctype}, {t.functor}, {width}>({t.name});" for t in found]
    if found:
        lines.append(f"{pad}    if (threadIdx.x == 0) {{")
        for t in found:
            ref = t.ref if t.scalar else printer.expression(parse_expression(t.ref), renames)
            # a share kept wider than its target (a short's in int) is folded in the share's type
            combine = f"combine<{t.ctype}>" if t.widened else "combine"
            lines.append(f"{pad}        {ref} = {t.functor}::{combine}({ref}, {t.name});")
        lines.append(f"{pad}    }}")
    lines.append(f"{pad}}}")
    return lines


def writes_memory(node) -> bool:
    return any(a.write for st, _ in statements((node,)) for a in st.accesses)


def once_per_row(lines: list[str], depth: int) -> list[str]:
    """``lines`` (printed one level deeper than ``depth``) run by the first thread of each row."""
    pad = printer.INDENT * depth
    return [f"{pad}if (threadIdx.x == 0) {{  // once per row of threads"] + lines + [f"{pad}}}"]
