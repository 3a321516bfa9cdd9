"""``transform CUDA(name=expr, ...)``: the arguments of a Loop region."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from orcu.errors import SpecError, did_you_mean
from orcu.frontend.ctext import blank_comments, matching_bracket
from orcu.frontend.source import SourceFile
from orcu.spec.expr import Expr, compile_node, parse_python


def _positive_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def _bool(v: Any) -> bool:
    return isinstance(v, (bool, int)) and v in (0, 1)


def _mapping(v: Any) -> bool:
    from orcu.spec.schedule import Schedule

    return isinstance(v, str) and (v in ("orio", "auto") or Schedule.parse(v) is not None)


def _loop_names(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and 0 < len(v) <= 2 and all(isinstance(n, str) and n.isidentifier() for n in v)


def _tiles(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and _positive_int(n) for k, n in v.items())


def _sizes(v: Any) -> bool:
    return isinstance(v, dict) and all(
        isinstance(k, str) and k.isidentifier() and isinstance(n, (str, int)) and not isinstance(n, bool)
        for k, n in v.items()
    )


@dataclass(frozen=True)
class Argument:
    """One argument of ``transform CUDA(...)``: the registry every stage reads (the spec's check,
    the spaces, code generation) and docs/reference.md is generated from."""

    name: str
    default: Any  # the value orcu uses when the annotation leaves the argument out
    check: Callable[[Any], bool]
    expects: str  # what check accepts, in words: "must be {expects}"
    doc: str  # what orcu generates for it (Markdown)
    default_doc: str  # the default as the reference shows it, where the value alone would not say it


# Orio's arguments (OrCuda, section III), with the defaults orcu uses when one is left out.
ARGUMENTS: dict[str, Argument] = {
    a.name: a
    for a in (
        Argument(
            "threadCount",
            256,
            _positive_int,
            "a positive integer",
            "threads per block",
            "256",
        ),
        Argument(
            "blockCount",
            None,
            lambda v: v is None or _positive_int(v),
            "a positive integer",
            "blocks; a grid-stride loop makes any positive count correct",
            "enough for one iteration per thread, at most 32 per SM",
        ),
        Argument(
            "minBlocks",
            None,
            lambda v: v is None or _positive_int(v),
            "a positive integer",
            "orcu's own: blocks each multiprocessor must hold at once, `__launch_bounds__(threads, minBlocks)`: ptxas keeps each thread's registers to what lets them fit (a tuning parameter like any other, `minBlocks=MB`; a variant ptxas then spills is not kept, with the reason)",
            "none",
        ),
        # No limit but the trip count: CUDA caps neither streams nor concurrent copies (Orio's tests use 30).
        Argument(
            "streamCount",
            1,
            _positive_int,
            "a positive integer",
            "the outer loop split in chunks over streams; arrays indexed by the outer iterator alone move chunk by chunk through pinned staging buffers (`cudaMemcpyAsync`), the others whole, before the chunks (an event orders the streams after those copies)",
            "1",
        ),
        Argument(
            "preferL1Size",
            0,
            lambda v: v in (0, 16, 32, 48),
            "0, 16, 32 or 48",
            "`cudaFuncSetCacheConfig` and the shared-memory carveout per kernel (16: shared, 32: even, 48: L1), restored after the call",
            "0",
        ),
        Argument(
            "unrollInner",
            1,
            _positive_int,
            "a positive integer",
            "`#pragma unroll N` on the innermost loops",
            "1",
        ),
        Argument(
            "cacheBlocks",
            False,
            _bool,
            "True or False",
            "arrays every thread of a block reads whole (e.g. `a[k]` in an inner loop) staged in `__shared__` memory; skipped with a note when nothing is reused",
            "False",
        ),
        Argument(
            "dataOnDevice",
            False,
            _bool,
            "True or False",
            "the pointers are device pointers: no transfers (the tuning harness puts the arrays on the device itself)",
            "False",
        ),
        Argument(
            "pinHostMem",
            False,
            _bool,
            "True or False",
            "host arrays page-locked during the call (left alone if pinned already, or on a page another array of the call pinned)",
            "False",
        ),
        Argument(
            "vectorize",
            False,
            _bool,
            "True or False",
            "orcu's own: when every array is indexed by the loop's iterator alone (step 1), iterations go 2 or 4 at a time with each array moved as one 8- or 16-byte vector; the unaligned iterations at the ends, and every iteration when the caller's arrays are not aligned, one at a time. A tuning parameter: keep it where the GPU says it pays. With the TSG, a thread's register tile along x moves as vectors (below)",
            "False (TSG: its parameter)",
        ),
        Argument(
            "mapping",
            "orio",
            _mapping,
            "'orio', 'auto' or a schedule such as 'x=j y=i'",
            "orcu's own: `'orio'` maps the outer loop as above; `'auto'` lets the TSG map the nest (below); a schedule such as `'x=j y=i'`, `'x=j(threads) y=i'` or `'x=j y=i(split)'` fixes one",
            "`'orio'`",
        ),
        Argument(
            "blockLoops",
            None,
            lambda v: v is None or _loop_names(v),
            "a list of one or two loop names (x first)",
            "those of `threadLoops` also spread over blocks; the others run over one block's threads, reduced across them",
            "`threadLoops`",
        ),
        Argument(
            "threadLoops",
            None,
            lambda v: v is None or _loop_names(v),
            "a list of one or two loop names (x first)",
            "the loops spread over a block's threads, x first, e.g. `['j', 'i']` (turns the TSG on)",
            "none",
        ),
        Argument(
            "tile",
            {},
            _tiles,
            "a dict of loop name to a positive integer",
            "threads along each mapped loop's axis, e.g. `{'i': TI, 'j': TJ}` (values may be tuning parameters); otherwise `threadCount` shaped into up to 32 along x and the rest along y",
            "`{}`",
        ),
        Argument(
            "registerTile",
            {},
            _tiles,
            "a dict of loop name to a positive integer",
            "iterations of each grid loop one thread computes, a block apart, e.g. `{'i': 4, 'j': 4}` (TSG phase II, below)",
            "TSG's parameters",
        ),
        Argument(
            "shared",
            [],
            lambda v: isinstance(v, (list, tuple)) and all(isinstance(n, str) and n.isidentifier() for n in v),
            "a list of array names",
            "arrays the block copies to shared memory tile by tile, e.g. `['A', 'B']`",
            "TSG's parameters",
        ),
        Argument(
            "sharedDepth",
            16,
            _positive_int,
            "a positive integer",
            "iterations of the sequential loop per shared tile",
            "TSG's parameter, 16",
        ),
        Argument(
            "doubleBuffer",
            True,
            _bool,
            "True or False",
            "a strip's shared tiles in two buffers, the next strip copied (`cp.async` on sm_80 and later) while this one is read, one barrier a strip (TSG phase II, below)",
            "True",
        ),
        Argument(
            "tensorCores",
            False,
            _bool,
            "True or False",
            "a double multiply-add nest's products on the FP64 tensor cores (`mma.sync`, sm_80 and later), warp by warp, its operands from shared tiles; a float nest's on the TF32 tensor cores with allowReducedPrecision (TSG phase II, below)",
            "TSG's parameter where a nest has such a product",
        ),
        Argument(
            "allowReducedPrecision",
            False,
            _bool,
            "True or False",
            "float multiply-add nests may run on the TF32 tensor cores (tensorCores): each product's operands rounded to 10 mantissa bits, the sums in float, each result checked to 2^-10 of its size; decided when the file loads",
            "False",
        ),
        Argument(
            "constant",
            [],
            lambda v: isinstance(v, (list, tuple)) and all(isinstance(n, str) and n.isidentifier() for n in v),
            "a list of array names",
            "arrays every thread reads alike, in constant memory when they fit, e.g. `['mask']`",
            "TSG's parameters",
        ),
        Argument(
            "arraySizes",
            {},
            _sizes,
            "a dict of array name to element count (a C expression)",
            "element counts, e.g. `{'v': 'n + 10'}`, for arrays whose size orcu cannot derive",
            "`{}`",
        ),
    )
}

_TRANSFORM = re.compile(r"\s*transform\s+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class CudaTransform:
    args: Mapping[str, Expr]  # only those written in the annotation

    def values(self, env: Mapping[str, Any], only: Collection[str] | None = None) -> dict[str, Any]:
        """Every argument's value for one configuration (defaults for those left out); ``only``:
        evaluate those arguments alone (``env`` may lack the parameters of the others)."""
        out = {name: a.default for name, a in ARGUMENTS.items()}
        for name, expr in self.args.items():
            if only is not None and name not in only:
                continue
            value = expr.evaluate(dict(env))
            if not ARGUMENTS[name].check(value):
                raise SpecError(
                    f"transform argument '{name}' must be {ARGUMENTS[name].expects}, got {value!r}",
                    expr.loc,
                    expr.source_line,
                )
            out[name] = bool(value) if isinstance(ARGUMENTS[name].default, bool) else value
        return out


def parse_loop_annotation(src: SourceFile, start: int, end: int) -> tuple[CudaTransform, int]:
    """Parse ``transform CUDA(...)`` at the head of a Loop region's annotation.

    Returns the transform and the offset where the C statements begin.
    """
    text = src.text
    m = _TRANSFORM.match(text, start, end)
    if m is None:
        i = start
        while i < end and text[i].isspace():
            i += 1
        raise src.error(i, "expected 'transform CUDA(...)' at the start of a Loop region", SpecError)
    name = _IDENT.match(text, m.end(), end)
    if name is None:
        raise src.error(m.end(), "expected a transformation name after 'transform'", SpecError)
    if name.group() != "CUDA":
        raise src.error(name.start(), f"unknown transformation '{name.group()}' (orcu provides 'CUDA')", SpecError)
    i = name.end()
    while i < end and text[i].isspace():
        i += 1
    if i >= end or text[i] != "(":
        raise src.error(i, "expected '(' after 'transform CUDA'", SpecError)
    close = _closing_paren(src, i, end)
    args_text = text[i + 1 : close]
    return _parse_args(src, i + 1, args_text), close + 1


_MARKER = re.compile(r"(?<![A-Za-z0-9_])transform\s+[A-Za-z_]")


def find_transforms(src: SourceFile, start: int, end: int) -> list[tuple[CudaTransform, int, int]]:
    """Every ``transform CUDA(...)`` in a Loop region's annotation, as Orio writes them: one
    before each loop it applies to, at the head of the region or among its statements
    (inside a host loop, say): (transform, where it starts, where it ends)."""
    blanked = blank_comments(src.text[start:end])
    found = []
    at = 0
    while True:
        m = _MARKER.search(blanked, at)
        if m is None:
            break
        transform, close = parse_loop_annotation(src, start + m.start(), end)
        found.append((transform, start + m.start(), close))
        at = close - start
    if not found:
        parse_loop_annotation(src, start, end)  # its diagnostic: the region names no transformation
    return found


def _closing_paren(src: SourceFile, open_at: int, end: int) -> int:
    close, unclosed = matching_bracket(src.text, open_at, end)
    if close < 0:
        raise src.error(unclosed, "unbalanced parentheses: this '(' is never closed", SpecError)
    return close


def _parse_args(src: SourceFile, start: int, text: str) -> CudaTransform:
    if not text.strip():
        return CudaTransform({})
    tree, position = parse_python(src, start, text, head="f(", tail=")")
    call = tree.body
    assert isinstance(call, ast.Call)  # f( + text + ) parses as a call, or not at all
    if call.args:
        first = call.args[0]
        raise src.error(
            position(first.lineno, first.col_offset), "transform arguments are written name=value", SpecError
        )
    args: dict[str, Expr] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise src.error(position(kw.lineno, kw.col_offset), "'**' is not allowed in transform arguments", SpecError)
        at = position(kw.lineno, kw.col_offset)
        if kw.arg not in ARGUMENTS:
            raise src.error(at, f"unknown transform argument '{kw.arg}'{did_you_mean(kw.arg, ARGUMENTS)}", SpecError)
        if kw.arg in args:
            raise src.error(at, f"transform argument '{kw.arg}' is given twice", SpecError)
        value_text = ast.get_source_segment("f(" + text + ")", kw.value) or ""
        args[kw.arg] = compile_node(src, kw.value, position, value_text)
    return CudaTransform(args)
