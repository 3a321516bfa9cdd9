"""pycparser behind one door: comment blanking, ``#line`` positions, error conversion."""
from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from ..annotations import blank_comments
from ..errors import CSyntaxError
from ..source import SourceFile

# Common library typedefs, so files that include standard headers still parse
# (preprocessor lines are blanked, not expanded).
_PRELUDE = (
    "typedef unsigned long size_t; typedef long ptrdiff_t; typedef long ssize_t;"
    " typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;"
    " typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;"
    " typedef unsigned long uint64_t; typedef long intptr_t; typedef unsigned long uintptr_t;"
    " typedef _Bool bool; typedef struct _orcu_FILE FILE;"
)
_DIRECTIVE = re.compile(r"^[ \t]*#.*?(?<!\\)$", re.MULTILINE | re.DOTALL)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*)$", re.MULTILINE)
_ERROR_AT = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$")


def blank_directives(text: str) -> str:
    """Replace preprocessor lines (with their continuations) by spaces, keeping newlines."""

    def blank(m: re.Match) -> str:
        return "".join("\n" if c == "\n" else " " for c in m.group())

    return _DIRECTIVE.sub(blank, text)


def object_macros(text: str) -> dict[str, str]:
    """``#define NAME value`` lines without parameters: name -> value text."""
    return {m.group(1): m.group(2).strip() for m in _DEFINE.finditer(blank_comments(text))}


class _Parser(c_parser.CParser):
    """pycparser 3 reports some errors ("Invalid expression") with only a file name;
    give them the position of the token the parser stopped at."""

    def _parse_error(self, msg, coord):
        if not hasattr(coord, "line"):
            try:
                tok = self._peek()
                if tok is not None:
                    coord, msg = self._tok_coord(tok), f"before: {tok.value}"
            except AttributeError:  # a pycparser without these internals: keep its message
                pass
        super()._parse_error(msg, coord)


def _parse(src: SourceFile, text: str, fallback_offset: int, end_offset: int | None = None) -> c_ast.FileAST:
    try:
        return _Parser().parse(text, filename=src.path)
    except c_parser.ParseError as e:
        message = str(e.args[0]) if e.args else str(e)
        m = _ERROR_AT.match(message)
        if m and m.group("file") == src.path:
            line, col = int(m.group("line")), int(m.group("col"))
            detail = m.group("msg")
            near = detail[len("before: "):] if detail.startswith("before: ") else None
            text = f"C syntax error before '{near}'" if near else f"C syntax error: {detail}"
            offset = src.offset(line, col)
            if end_offset is not None and offset >= end_offset:
                # Stopped at the closing brace orcu added: the code ends too early.
                code = src.text[fallback_offset:end_offset].rstrip()
                offset = fallback_offset + len(code)
                text = "C syntax error at the end of the region's code (missing ';'?)"
            raise src.error(offset, text, CSyntaxError) from None
        detail = message.split(": ", 1)[-1]
        raise src.error(fallback_offset, f"C syntax error: {detail}", CSyntaxError) from None
    except (AssertionError, IndexError, RecursionError):
        # pycparser's own consistency checks trip on some malformed input (a function
        # header without its body, for one): still the user's syntax error.
        raise src.error(fallback_offset, "C syntax error: this code cannot be parsed as C", CSyntaxError) from None


def parse_file(src: SourceFile, text: str) -> c_ast.FileAST:
    """Parse the whole file (already blanked of comments) with true line numbers."""
    code = _PRELUDE + f'\n#line 1 "{src.path}"\n' + blank_directives(text)
    return _parse(src, code, 0)


def parse_statements(src: SourceFile, start: int, text: str) -> list[c_ast.Node]:
    """Parse C statements found at ``start`` in ``src``; their coords are the file's."""
    loc = src.location(start)
    body = blank_directives(blank_comments(text))
    code = (
        _PRELUDE
        + "\nvoid __orcu_region(void) {\n"
        + f'#line {loc.line} "{src.path}"\n'
        + " " * (loc.col - 1)
        + body
        + "\n}\n"
    )
    tree = _parse(src, code, start, start + len(text))
    return list(tree.ext[-1].body.block_items or [])


def parse_expression(text: str) -> c_ast.Node | None:
    """A C expression orcu wrote or derived (an array extent, say); None if it does not parse."""
    try:
        tree = _Parser().parse(_PRELUDE + f"\nvoid __orcu_expression(void) {{ (void)({text}); }}\n", filename="<expression>")
    except (c_parser.ParseError, AssertionError, IndexError, RecursionError):
        return None
    return tree.ext[-1].body.block_items[0].expr
