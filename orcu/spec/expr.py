"""A safe evaluator for the Python-syntax expressions of the tuning language.

Expressions are parsed with :mod:`ast` and never given to ``eval``: each node kind that
the tuning language allows (a ``c_`` method of ``_Compiler``) is compiled, once, into a closure. Anything else (attribute access,
lambdas, dunder names, calls of functions outside a fixed set) is a diagnostic at its
exact line and column in the C file.

The same closures also evaluate with NumPy arrays bound to the names, which is how a
constraint is checked for a whole block of a parameter space in one call; the few
operations that cannot work elementwise raise :class:`NotVectorizable` and the caller
falls back to one point at a time.
"""

from __future__ import annotations

import ast
import itertools
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from orcu.errors import Location, SpecError, did_you_mean
from orcu.frontend.source import SourceFile

MAX_ITEMS = 10_000_000  # guards against specs that would exhaust memory
# Integers stay under Python's limit for printing them (4300 digits, about 14,000 bits): a size
# orcu shows in a diagnostic, a setting or a tuned file must print.
MAX_BITS = 10_000


class NotVectorizable(Exception):
    """An operation that only makes sense one point at a time."""


def _checked_len(n: int) -> int:
    if n > MAX_ITEMS:
        raise ValueError(f"result would have {n} items (at most {MAX_ITEMS} allowed)")
    return n


def _materialise(it) -> list:
    out = []
    for x in it:
        out.append(x)
        if len(out) > MAX_ITEMS:
            raise ValueError(f"result would have more than {MAX_ITEMS} items")
    return out


def _range(*args):
    r = range(*args)
    _checked_len(len(r))
    return r


def _product(*seqs, repeat=1):
    seqs = [list(s) for s in seqs] * repeat
    total = 1
    for s in seqs:
        total *= len(s)
    _checked_len(total)
    return list(itertools.product(*seqs))


def _join(seq) -> str:
    return " ".join(str(s) for s in seq)


def _vector_aware(fn_scalar, fn_vector):
    def call(*args, **kwargs):
        if any(isinstance(a, np.ndarray) for a in args):
            return fn_vector(*args)
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and any(isinstance(a, np.ndarray) for a in args[0]):
            return fn_vector(*args[0])
        return fn_scalar(*args, **kwargs)

    return call


def _np_reduce(ufunc):
    def reduce(*arrays):
        result = arrays[0]
        for a in arrays[1:]:
            result = ufunc(result, a)
        return result

    return reduce


FUNCTIONS: dict[str, Callable] = {
    "range": _range,
    "map": lambda f, *seqs: _materialise(map(f, *seqs)),
    "join": _join,
    "product": _product,
    "list": lambda *a: _materialise(list(*a)) if a else [],
    "tuple": lambda *a: tuple(_materialise(*a)) if a else (),
    "len": len,
    "min": _vector_aware(min, _np_reduce(np.minimum)),
    "max": _vector_aware(max, _np_reduce(np.maximum)),
    "sum": sum,
    "abs": abs,
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "zip": lambda *s: _materialise(zip(*s)),
    "sorted": sorted,
    "reversed": lambda s: list(reversed(list(s))),
    "enumerate": lambda s, start=0: _materialise(enumerate(s, start)),
    "any": any,
    "all": all,
}
# Functions that are correct when handed NumPy arrays.
_VECTOR_SAFE = {"min", "max", "abs"}


def _sized(value):
    """An operator's result, refused where it is an integer past MAX_BITS (products chain up)."""
    if type(value) is int and value.bit_length() > MAX_BITS:
        raise ValueError("number too large")
    return value


def _pow(a, b):
    if isinstance(a, int) and isinstance(b, int) and abs(a) > 1 and b > 0 and a.bit_length() * b > MAX_BITS:
        raise ValueError("number too large")
    return operator.pow(a, b)


def _mul(a, b):
    for seq, k in ((a, b), (b, a)):
        if isinstance(seq, (str, list, tuple)) and isinstance(k, int):
            _checked_len(len(seq) * k)
    return operator.mul(a, b)


def _lshift(a, b):
    if isinstance(b, int) and b > MAX_BITS:
        raise ValueError("shift count too large")
    return operator.lshift(a, b)


_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: _mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: _pow,
    ast.LShift: _lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Invert: operator.invert}


def _contains(container, item):
    if isinstance(container, np.ndarray):
        raise NotVectorizable("'in' over an array")
    if isinstance(item, np.ndarray):
        return np.isin(item, list(container))
    return item in container


_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: _contains(b, a),
    ast.NotIn: lambda a, b: np.logical_not(r) if isinstance(r := _contains(b, a), np.ndarray) else not r,
}

Env = dict[str, Any]
Closure = Callable[[Env], Any]


@dataclass(frozen=True)
class Expr:
    """A compiled expression: its text, where it starts, the free names it reads."""

    text: str
    loc: Location
    names: frozenset[str]
    source_line: str = field(repr=False, compare=False, default="")
    _fn: Closure = field(repr=False, compare=False, default=None)
    name_offsets: tuple[tuple[str, int], ...] = field(repr=False, compare=False, default=())

    def check_names(self, src: SourceFile, defined, what: str) -> None:
        """Every free name must be defined (or be one of the tuning functions)."""
        for name, offset in self.name_offsets:
            if name not in defined and name not in FUNCTIONS:
                raise src.error(offset, f"undefined name '{name}' in {what}{did_you_mean(name, defined)}", SpecError)

    def evaluate(self, env: Env) -> Any:
        try:
            return self._fn(env)
        except SpecError:
            raise
        except NotVectorizable:
            raise
        except (ArithmeticError, TypeError, ValueError, IndexError, KeyError, RecursionError) as e:
            raise SpecError(f"cannot evaluate '{self.text.strip()}': {e}", self.loc, self.source_line) from None


class _Compiler:
    """Turns a checked AST into closures; reports disallowed syntax at its position."""

    def __init__(self, src: SourceFile, position: Callable[[int, int], int]):
        self.src = src
        self.position = position  # (lineno, col_offset) of the AST -> offset in src
        self.bound: set[str] = set()
        self.free: dict[str, int] = {}  # free name -> offset of its first use

    def fail(self, node: ast.expr, message: str) -> SpecError:
        if isinstance(node, ast.Attribute):  # point at the attribute, not the object
            return self.src.error(
                self.position(node.end_lineno, node.end_col_offset - len(node.attr)), message, SpecError
            )
        return self.src.error(self.position(node.lineno, node.col_offset), message, SpecError)

    def compile(self, node: ast.expr) -> Closure:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node, f"{_describe(node)} is not allowed in a tuning expression")
        return method(node)

    # -- leaves -------------------------------------------------------------
    def c_Constant(self, node):
        value = node.value
        if value is Ellipsis or isinstance(value, bytes):
            raise self.fail(node, f"{_describe(node)} is not allowed in a tuning expression")
        return lambda env: value

    def c_Name(self, node):
        name = node.id
        self._check_name(node, name)
        if name not in self.bound and name not in self.free:
            self.free[name] = self.position(node.lineno, node.col_offset)
        builtin = FUNCTIONS.get(name)

        def lookup(env):
            try:
                return env[name]
            except KeyError:
                if builtin is not None:
                    return builtin
                raise NameError(name) from None

        return lookup

    def _check_name(self, node, name):
        if name.startswith("__"):
            raise self.fail(node, f"name '{name}' is not allowed: names starting with '__' are reserved")

    # -- operators ----------------------------------------------------------
    def c_BinOp(self, node):
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise self.fail(node, "this operator is not allowed in a tuning expression")
        left, right = self.compile(node.left), self.compile(node.right)
        return lambda env: _sized(op(left(env), right(env)))

    def c_UnaryOp(self, node):
        operand = self.compile(node.operand)
        if isinstance(node.op, ast.Not):

            def not_(env):
                v = operand(env)
                return np.logical_not(v) if isinstance(v, np.ndarray) else not v

            return not_
        op = _UNARY[type(node.op)]
        return lambda env: op(operand(env))

    def c_BoolOp(self, node):
        values = [self.compile(v) for v in node.values]
        is_and = isinstance(node.op, ast.And)
        combine = np.logical_and if is_and else np.logical_or

        def boolop(env):
            result = values[0](env)
            for value in values[1:]:
                if isinstance(result, np.ndarray):
                    result = combine(result, value(env))
                elif bool(result) != is_and:  # Python short-circuit
                    return result
                else:
                    result = value(env)
                    if isinstance(result, np.ndarray):
                        result = np.asarray(result, dtype=bool)
            return result

        return boolop

    def c_Compare(self, node):
        left = self.compile(node.left)
        ops = []
        for op, comparator in zip(node.ops, node.comparators):
            fn = _COMPARE.get(type(op))
            if fn is None:
                raise self.fail(node, "'is' comparisons are not allowed in a tuning expression")
            ops.append((fn, self.compile(comparator)))

        def compare(env):
            a = left(env)
            result = True
            for fn, right in ops:
                b = right(env)
                r = fn(a, b)
                if isinstance(r, np.ndarray) or isinstance(result, np.ndarray):
                    result = np.logical_and(result, r)
                elif not r:
                    return False
                a = b
            return result

        return compare

    def c_IfExp(self, node):
        test, body, orelse = self.compile(node.test), self.compile(node.body), self.compile(node.orelse)

        def ifexp(env):
            t = test(env)
            if isinstance(t, np.ndarray):
                return np.where(t, body(env), orelse(env))
            return body(env) if t else orelse(env)

        return ifexp

    # -- containers ---------------------------------------------------------
    def _elements(self, elts):
        for e in elts:
            if isinstance(e, ast.Starred):
                raise self.fail(e, "'*' unpacking is not allowed in a tuning expression")
        return [self.compile(e) for e in elts]

    def c_List(self, node):
        elts = self._elements(node.elts)
        return lambda env: [e(env) for e in elts]

    def c_Tuple(self, node):
        elts = self._elements(node.elts)
        return lambda env: tuple(e(env) for e in elts)

    def c_Set(self, node):
        elts = self._elements(node.elts)
        return lambda env: {e(env) for e in elts}

    def c_Dict(self, node):
        if any(k is None for k in node.keys):
            raise self.fail(node, "'**' unpacking is not allowed in a tuning expression")
        keys = [self.compile(k) for k in node.keys]
        values = [self.compile(v) for v in node.values]
        return lambda env: {k(env): v(env) for k, v in zip(keys, values)}

    def c_Subscript(self, node):
        value, index = self.compile(node.value), self.compile(node.slice)

        def subscript(env):
            v, i = value(env), index(env)
            if isinstance(v, np.ndarray) or isinstance(i, np.ndarray):
                raise NotVectorizable("subscript")
            return v[i]

        return subscript

    def c_Slice(self, node):
        parts = [self.compile(p) if p is not None else (lambda env: None) for p in (node.lower, node.upper, node.step)]
        return lambda env: slice(*(p(env) for p in parts))

    # -- calls --------------------------------------------------------------
    def c_Call(self, node):
        if not isinstance(node.func, ast.Name):
            if isinstance(node.func, ast.Attribute):
                raise self.fail(
                    node.func, f"attribute access ('.{node.func.attr}') is not allowed in a tuning expression"
                )
            raise self.fail(node.func, "only the built-in tuning functions can be called")
        name = node.func.id
        self._check_name(node.func, name)
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise self.fail(
                node.func,
                f"function '{name}' is not available in tuning expressions (allowed: {', '.join(sorted(FUNCTIONS))})",
            )
        args = self._elements(node.args)
        if any(k.arg is None for k in node.keywords):
            raise self.fail(node, "'**' unpacking is not allowed in a tuning expression")
        kwargs = [(k.arg, self.compile(k.value)) for k in node.keywords]
        vector_safe = name in _VECTOR_SAFE

        def call(env):
            a = [x(env) for x in args]
            if not vector_safe and any(isinstance(x, np.ndarray) for x in a):
                raise NotVectorizable(name)
            return fn(*a, **{k: v(env) for k, v in kwargs})

        return call

    # -- comprehensions -----------------------------------------------------
    def _targets(self, target) -> list[str]:
        if isinstance(target, ast.Name):
            self._check_name(target, target.id)
            return [target.id]
        if isinstance(target, (ast.Tuple, ast.List)):
            return [n for t in target.elts for n in self._targets(t)]
        raise self.fail(target, "only names can be bound in a comprehension")

    def _generators(self, generators):
        compiled = []
        for gen in generators:
            if gen.is_async:
                raise self.fail(gen.iter, "async comprehensions are not allowed")
            iterable = self.compile(gen.iter)  # evaluated before its own target is bound
            self.bound.update(self._targets(gen.target))
            conditions = [self.compile(c) for c in gen.ifs]
            compiled.append((gen.target, iterable, conditions))

        def assign(env, target, value):
            if isinstance(target, ast.Name):
                env[target.id] = value
                return
            items = list(value)
            if len(items) != len(target.elts):
                raise ValueError("cannot unpack: wrong number of values")
            for t, v in zip(target.elts, items):
                assign(env, t, v)

        def run(env, k=0):
            if k == len(compiled):
                yield env
                return
            target, iterable, conditions = compiled[k]
            source = iterable(env)
            if isinstance(source, np.ndarray):
                raise NotVectorizable("comprehension")
            for item in source:
                inner = dict(env)
                assign(inner, target, item)
                if all(c(inner) for c in conditions):
                    yield from run(inner, k + 1)

        return run

    def _comprehension(self, node, build):
        saved = set(self.bound)
        run = self._generators(node.generators)
        if isinstance(node, ast.DictComp):
            key, value = self.compile(node.key), self.compile(node.value)
            element = lambda env: (key(env), value(env))  # noqa: E731
        else:
            element = self.compile(node.elt)
        self.bound = saved
        return lambda env: build(_materialise(element(e) for e in run(env)))

    def c_ListComp(self, node):
        return self._comprehension(node, list)

    def c_GeneratorExp(self, node):
        return self._comprehension(node, list)

    def c_SetComp(self, node):
        return self._comprehension(node, set)

    def c_DictComp(self, node):
        return self._comprehension(node, dict)


def _describe(node: ast.AST) -> str:
    return {
        "Attribute": "attribute access",
        "Lambda": "a lambda",
        "NamedExpr": "':=' assignment",
        "Await": "'await'",
        "Yield": "'yield'",
        "YieldFrom": "'yield'",
        "JoinedStr": "an f-string",
        "Starred": "'*' unpacking",
    }.get(type(node).__name__, f"'{type(node).__name__}' syntax")


def _position_map(text: str, start: int, first_line_shift: int):
    """Map the AST's (lineno, UTF-8 col_offset) inside ``text`` to an offset in the file."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def position(lineno: int, col: int) -> int:
        k = max(0, min(lineno - 1, len(lines) - 1))
        if k == 0:
            col -= first_line_shift
        col = len(lines[k].encode("utf-8")[: max(col, 0)].decode("utf-8", "ignore"))
        return start + starts[k] + col

    return position


def parse_python(
    src: SourceFile, start: int, text: str, head: str = "", tail: str = ""
) -> tuple[ast.Expression, Callable]:
    """Parse ``head + text + tail`` where ``text`` was found at ``start`` in ``src``.

    Syntax errors become diagnostics at their position in the file. An expression that
    spans lines outside any bracket is retried inside parentheses, as Orio accepts it.
    """
    if not text.strip():
        raise src.error(start, "expected an expression", SpecError)
    try:
        return ast.parse(head + text + tail, mode="eval"), _position_map(text, start, len(head))
    except SyntaxError as first:
        error = first
    if "\n" in text:
        try:
            tree = ast.parse("(" + head + text + tail + ")", mode="eval")
            return tree, _position_map(text, start, len(head) + 1)
        except SyntaxError:
            pass
    position = _position_map(text, start, len(head))
    offset = min(position(error.lineno or 1, (error.offset or 1) - 1), start + len(text))
    msg = (error.msg or "invalid syntax").replace("'(' was never closed", "unbalanced parentheses: '(' is never closed")
    raise src.error(max(offset, start), f"bad expression: {msg}", SpecError) from None


def compile_node(src: SourceFile, node: ast.expr, position: Callable, text: str) -> Expr:
    compiler = _Compiler(src, position)
    fn = compiler.compile(node)
    loc = src.location(position(node.lineno, node.col_offset))
    names = tuple(sorted(compiler.free.items(), key=lambda kv: kv[1]))
    return Expr(text, loc, frozenset(compiler.free), src.line_text(loc.line), fn, names)


def compile_expr(src: SourceFile, start: int, text: str) -> Expr:
    """Compile the expression ``text`` that appears at offset ``start`` of ``src``."""
    tree, position = parse_python(src, start, text)
    lead = len(text) - len(text.lstrip())
    expr = compile_node(src, tree.body, position, text)
    loc = src.location(start + lead)
    return Expr(text, loc, expr.names, src.line_text(loc.line), expr._fn, expr.name_offsets)
