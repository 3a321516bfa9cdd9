"""pycparser behind one door: comment blanking, ``#line`` positions, error conversion; and what
the preprocessor and the typedefs mean for the trees it gives (the file's other names of
arithmetic types spelled as those types, expression macros expanded in a region's code), so
that every stage after it sees the C the compiler sees."""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pycparser import c_ast, c_parser

from orcu.errors import CSyntaxError
from orcu.frontend import generated
from orcu.frontend.ctext import blank_comments
from orcu.frontend.source import SourceFile
from orcu.frontend.types import canonical_type

# Common library typedefs, so files that include standard headers still parse
# (preprocessor lines are blanked, not expanded).
_PRELUDE = (
    "typedef unsigned long size_t; typedef long ptrdiff_t; typedef long ssize_t;"
    " typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;"
    " typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;"
    " typedef unsigned long uint64_t; typedef long intptr_t; typedef unsigned long uintptr_t;"
    " typedef _Bool bool; typedef struct _orcu_FILE FILE;"
)
PRELUDE_DECLARATIONS = _PRELUDE.count(";")  # the first items of a parse_file tree: the prelude's, not the file's
_DIRECTIVE = re.compile(r"^[ \t]*#.*?(?<!\\)$", re.MULTILINE | re.DOTALL)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*)$", re.MULTILINE)


def blank_directives(text: str) -> str:
    """Replace preprocessor lines (with their continuations) by spaces, keeping newlines."""

    def blank(m: re.Match) -> str:
        return "".join("\n" if c == "\n" else " " for c in m.group())

    return _DIRECTIVE.sub(blank, text)


def object_macros(text: str) -> dict[str, str]:
    """``#define NAME value`` lines without parameters: name -> value text."""
    return {m.group(1): m.group(2).strip() for m in _DEFINE.finditer(blank_comments(text))}


_FUNCTION_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*\([^)\n]*\))([^\n]*)$", re.MULTILINE)


def function_macros(text: str) -> dict[str, str]:
    """``#define MIN(a, b) ...`` lines (continued lines joined): ``MIN(a, b)`` -> its body."""
    joined = re.sub(r"\\\n", " ", blank_comments(text))
    return {m.group(1): m.group(2).strip() for m in _FUNCTION_DEFINE.finditer(joined)}


class _Parser(c_parser.CParser):
    """pycparser's words and columns differ between its versions (3.0 trips an internal
    assertion where 3.12 says "Invalid function definition" at the declarator), so orcu
    says where the parser stopped in its own words: before the token it could not take."""

    def stop(self) -> tuple[int, int, str] | None:
        """(line, column, text) of the token the parser stopped at, or of the one its lexer was
        reading when an internal check tripped; None at the end of the text, or with a
        pycparser whose internals differ."""
        try:  # what the parser has looked at and not taken, without lexing further
            tokens = self._tokens
            tok = tokens._buffer[tokens._index] if tokens._index < len(tokens._buffer) else None
        except AttributeError:
            return None
        if tok is not None:
            return (tok.lineno, tok.column, tok.value) if getattr(tok, "lineno", 0) > 0 else None
        lexer = self.clex
        try:  # the character the lexer took last
            line, pos, start, data = lexer._lineno, lexer._pos, lexer._line_start, lexer._lexdata
        except AttributeError:
            return None
        return (line, pos - start, data[pos - 1]) if start < pos <= len(data) and not data[pos - 1].isspace() else None


def _parse(src: SourceFile, text: str, fallback_offset: int, end_offset: int | None = None) -> c_ast.FileAST:
    parser = _Parser()
    try:
        return parser.parse(text, filename=src.path)
    except (c_parser.ParseError, AssertionError, IndexError, RecursionError):
        # AssertionError and the like: pycparser's own consistency checks trip on some malformed
        # input (a function header without its body, for one): still the user's syntax error.
        stop = parser.stop()
        offset = src.offset(stop[0], stop[1]) if stop is not None else len(text)
        if end_offset is not None and offset >= end_offset:  # at the closing brace orcu added
            code = src.text[fallback_offset:end_offset].rstrip()
            raise src.error(
                fallback_offset + len(code),
                "C syntax error at the end of the region's code (missing ';'?)",
                CSyntaxError,
            ) from None
        if stop is None:
            raise src.error(
                len(src.text.rstrip()), "C syntax error at the end of the file (missing '}'?)", CSyntaxError
            ) from None
        raise src.error(offset, f"C syntax error before '{stop[2]}'", CSyntaxError) from None


_LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)


def local_headers(path: str, text: str, seen: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(path, text) of the headers ``text`` includes with quotes (``#include "particles.h"``)
    that exist beside ``path``, and of those they include, each once, innermost first: their
    typedefs, structs and macros are the file's too. A header that cannot be read is left to the
    compiler."""
    out: list[tuple[str, str]] = []
    for name in _LOCAL_INCLUDE.findall(blank_comments(text)):
        header = str(Path(path).parent / name)
        if header in seen or any(header == h for h, _ in out):
            continue
        try:
            found = Path(header).read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            continue
        out += local_headers(header, found, seen | {header, path}) + [(header, found)]
    return list(dict(out).items())


def file_macros(src: SourceFile, parameters: bool = False) -> dict[str, str]:
    """The object-like macros of the file and of the headers it includes with quotes, the file's
    last (with ``parameters``, those with parameters too: ``MIN(a, b)`` -> its body)."""
    out: dict[str, str] = {}
    # a tuned file's own blocks define orcu's macros (ORCU_CHECK...): the harness has its own
    for _, text in [*local_headers(src.path, src.text), (src.path, generated.blank_spans(src.text))]:
        out.update(object_macros(text))
        if parameters:
            out.update(function_macros(text))
    return out


def parse_file(src: SourceFile, text: str) -> c_ast.FileAST:
    """Parse the whole file (already blanked of comments) with true line numbers, after the
    headers it includes with quotes (their types are its types); without them where they do
    not parse on their own terms (a header of another dialect: the file's own errors are then
    reported as they are)."""
    file = f'\n#line 1 "{src.path}"\n' + blank_directives(text)
    headers = "".join(
        f'\n#line 1 "{h}"\n' + blank_directives(blank_comments(t)) for h, t in local_headers(src.path, src.text)
    )
    aliases = arithmetic_typedefs(src)
    if headers:
        try:
            return _resolved(_parse(src, _PRELUDE + headers + file, 0), aliases)
        except CSyntaxError:
            pass
    return _resolved(_parse(src, _PRELUDE + file, 0), aliases)


_TYPEDEF_NAME = re.compile(r"\btypedef\b[^;{}]*(?:\{[^{}]*\})?[^;{}]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*;")


def typedef_names(src: SourceFile) -> list[str]:
    """The names the file and its quoted headers define with ``typedef``: a region's statements
    may declare variables of those types (``float4_t p = pos[i];``)."""
    texts = [t for _, t in local_headers(src.path, src.text)] + [src.text]
    found = [m.group(1) for text in texts for m in _TYPEDEF_NAME.finditer(blank_comments(text))]
    return [n for n in dict.fromkeys(found) if not re.search(rf"\b{n};", _PRELUDE)]


_Tree = TypeVar("_Tree", bound=c_ast.Node)
_ARITHMETIC_TYPEDEF = re.compile(r"\btypedef\s+((?:[A-Za-z_]\w*\s+)*?[A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*;")
_ARITHMETIC_WORDS = frozenset(("char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool"))
_STANDARD = frozenset(re.findall(r"(\w+);", _PRELUDE)) - {"FILE"}  # size_t, int32_t...: orcu's own names


def arithmetic_typedefs(src: SourceFile) -> dict[str, str]:
    """The file's (and its quoted headers') other names of C's arithmetic types, with the type
    each stands for as orcu names it (``typedef double real;``: real -> double; through other
    such names too). orcu reads, reduces and generates the type itself, as the C compiler does."""
    return _typedefs(src)[0]


def ambiguous_typedefs(src: SourceFile) -> set[str]:
    """The names the file defines as different arithmetic types (``#ifdef`` alternatives, which
    orcu does not evaluate): they stand for none."""
    return _typedefs(src)[1]


def _typedefs(src: SourceFile) -> tuple[dict[str, str], set[str]]:
    found: dict[str, str] = {}
    through: dict[str, str] = {}  # typedef real vec; vec -> real
    twice: set[str] = set()
    texts = [t for _, t in local_headers(src.path, src.text)] + [src.text]
    for m in (m for text in texts for m in _ARITHMETIC_TYPEDEF.finditer(blank_comments(text))):
        words, name = m.group(1).split(), m.group(2)
        if len(words) == 1 and words[0] in found:
            base = found[words[0]]
            through[name] = words[0]
        elif all(w in _ARITHMETIC_WORDS for w in words) or words[0] in _STANDARD and len(words) == 1:
            base = canonical_type(" ".join(words))
        else:
            continue
        if found.setdefault(name, base) != base:
            twice.add(name)
    while more := {name for name, other in through.items() if other in twice} - twice:
        twice |= more
    return {name: base for name, base in found.items() if name not in twice}, twice


def _resolved(tree: _Tree, aliases: dict[str, str]) -> _Tree:
    """The tree with each use of a name in ``aliases`` as a type (a declaration, a cast, a
    sizeof) spelled as the type it stands for; the typedefs themselves keep their names."""
    if aliases:

        class Resolver(c_ast.NodeVisitor):
            def visit_IdentifierType(self, node: c_ast.IdentifierType) -> None:
                if len(node.names) == 1 and node.names[0] in aliases:
                    node.names = aliases[node.names[0]].split()

        Resolver().visit(tree)
    return tree


_MACRO_HEAD = re.compile(r"([A-Za-z_]\w*)\(([^()]*)\)")


def _expression_macros(src: SourceFile) -> dict[str, tuple[tuple[str, ...], c_ast.Node]]:
    """The file's macros with parameters whose body is one C expression (``IDX(i, j)``,
    ``MIN(a, b)``): name -> (parameters, the body parsed). Others (statements, ``#`` and
    ``##``, ``...``) are left to the compiler."""
    out = {}
    for head, body in file_macros(src, parameters=True).items():
        m = _MACRO_HEAD.fullmatch(head)
        if m is None or "#" in body:
            continue
        params = tuple(p.strip() for p in m.group(2).split(",")) if m.group(2).strip() else ()
        node = parse_expression(body) if all(p.isidentifier() for p in params) else None
        if node is not None:
            out[m.group(1)] = (params, node)
    return out


def _expanded(node: c_ast.Node, macros: dict[str, tuple[tuple[str, ...], c_ast.Node]], active=frozenset()):
    """``node`` with each call of an expression macro replaced by its body, as the preprocessor
    does: the arguments expanded first, the result again without the macro itself; the body's
    nodes located at the call."""

    def each(call: c_ast.Node) -> c_ast.Node | None:
        if not (isinstance(call, c_ast.FuncCall) and isinstance(call.name, c_ast.ID)):
            return None
        name = call.name.name
        args = list(call.args.exprs) if call.args is not None else []
        if name not in macros or name in active or len(args) != len(macros[name][0]):
            return None
        params, body = macros[name]
        bound = dict(zip(params, (_expanded(a, macros, active) for a in args)))

        def substituted(n: c_ast.Node) -> c_ast.Node | None:
            if isinstance(n, c_ast.ID) and n.name in bound:
                return copied(bound[n.name])
            if isinstance(n, c_ast.StructRef):  # p.x: the field is no parameter
                return c_ast.StructRef(replaced(n.name, substituted), n.type, copied(n.field), call.coord)
            return None

        expansion = replaced(body, substituted)
        for part in walk(expansion):  # the body's own nodes (copies) at the call, the arguments where they are
            if part.coord is None or part.coord.file == "<expression>":
                part.coord = call.coord
        return _expanded(expansion, macros, active | {name})

    return replaced(node, each)


def walk(node: c_ast.Node):
    """``node`` and every node under it, parents first."""
    yield node
    for _, child in node.children():
        yield from walk(child)


def parse_statements(src: SourceFile, start: int, text: str) -> list[c_ast.Node]:
    """Parse C statements found at ``start`` in ``src``; their coords are the file's. The
    file's type names are known as such (only that they name types matters to the parser),
    and its expression macros are expanded (``v[IDX(i, j)]`` is an access orcu can analyse)."""
    loc = src.location(start)
    body = blank_directives(blank_comments(text))
    code = (
        _PRELUDE
        + "".join(f" typedef int {name};" for name in typedef_names(src))
        + "\nvoid __orcu_region(void) {\n"
        + f'#line {loc.line} "{src.path}"\n'
        + " " * (loc.col - 1)
        + body
        + "\n}\n"
    )
    tree = _parse(src, code, start, start + len(text))
    items = _resolved(tree.ext[-1].body, arithmetic_typedefs(src)).block_items or []
    macros = _expression_macros(src)
    return [_expanded(item, macros) for item in items] if macros else list(items)


@functools.lru_cache(maxsize=4096)
def parse_expression(text: str) -> c_ast.Node | None:
    """A C expression orcu wrote or derived (an array extent, say); None if it does not parse.
    The same few expressions come back for every variant of a nest and a parse costs
    milliseconds (the prelude's typedefs with it), so each text is parsed once and its tree
    shared: callers read it (codegen/printer.py copies before it renames), never change it."""
    try:
        tree = _Parser().parse(
            _PRELUDE + f"\nvoid __orcu_expression(void) {{ (void)({text}); }}\n", filename="<expression>"
        )
    except (c_parser.ParseError, AssertionError, IndexError, RecursionError):
        return None
    return tree.ext[-1].body.block_items[0].expr


def copied(node: c_ast.Node) -> c_ast.Node:
    """A copy of a tree that orcu may change (renaming, replacing subtrees), as copy.deepcopy
    makes it but several times faster: copy.deepcopy goes through each node's __reduce_ex__,
    and code generation copies the loop bodies of every variant. Nodes and lists are new; the
    leaves (strings, coordinates) are shared, and nothing in orcu changes one in place."""
    cls = type(node)
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = tuple(
            f for klass in cls.__mro__ for f in getattr(klass, "__slots__", ()) if f != "__weakref__"
        )
    new = object.__new__(cls)
    for field in fields:
        setattr(new, field, _copied_value(getattr(node, field)))
    return new


_FIELDS: dict[type, tuple[str, ...]] = {}


def replaced(node: c_ast.Node, each: Callable[[c_ast.Node], c_ast.Node | None]) -> c_ast.Node:
    """A copy of a tree in which each subtree that ``each`` gives a node for is that node (not
    looked into), the rest copied as ``copied`` copies it."""
    new = each(node)
    if new is not None:
        return new
    out = copy.copy(node)
    for attr in node.__slots__:
        child = getattr(node, attr, None)
        if isinstance(child, c_ast.Node):
            setattr(out, attr, replaced(child, each))
        elif isinstance(child, list):
            setattr(out, attr, [replaced(c, each) if isinstance(c, c_ast.Node) else c for c in child])
    return out


def _copied_value(value):
    if isinstance(value, c_ast.Node):
        return copied(value)
    if isinstance(value, list):
        return [_copied_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copied_value(v) for v in value)
    return value
