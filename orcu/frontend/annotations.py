"""Find Orio-style ``/*@ begin Name ( ... ) @*/ ... /*@ end @*/`` regions in raw C text.

pycparser rejects comments, so annotations are found here, on the raw text, with exact
offsets for everything; later stages parse the pieces with their true positions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from orcu.errors import AnnotationError, did_you_mean
from orcu.frontend.ctext import matching_bracket, skip_string
from orcu.frontend.source import SourceFile

REGION_NAMES = ("PerfTuning", "Loop")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Region:
    """One annotated region; every field is an offset into the source text."""

    name: str
    start: int  # the '/*@' of the opening annotation
    name_offset: int
    args_start: int  # just after '('
    args_end: int  # the matching ')'
    code_start: int  # just after the opening '@*/'
    code_end: int  # the '/*@' of the end marker
    end: int  # just after the end marker's '@*/'
    children: tuple[Region, ...] = ()

    def args(self, src: SourceFile) -> str:
        return src.text[self.args_start : self.args_end]

    def code(self, src: SourceFile) -> str:
        """The original code between the annotation and its end marker."""
        return src.text[self.code_start : self.code_end]


def _comment_end(src: SourceFile, start: int) -> int:
    end = src.text.find("*/", start + 2)
    if end < 0:
        raise src.error(start, "unterminated comment", AnnotationError)
    return end + 2


@dataclass
class _Marker:
    kind: str  # "open" or "end"
    start: int
    end: int
    name: str = ""
    name_offset: int = 0
    args_start: int = 0
    args_end: int = 0


def _matching_paren(src: SourceFile, open_at: int, limit: int) -> int:
    close, unclosed = matching_bracket(src.text, open_at, limit, hash_comments=True)
    if close < 0:
        # The annotation ends with its ')' before '@*/': the '(' left open is one inside it,
        # the innermost still open there, not the region's own.
        last = src.text[:limit].rstrip()
        if last.endswith(")") and len(last) - 1 > open_at:
            inner = matching_bracket(src.text, open_at, len(last) - 1, hash_comments=True)[1]
            if inner != open_at:
                unclosed = inner
        raise src.error(unclosed, "unbalanced parentheses: this '(' is never closed", AnnotationError)
    return close


def _parse_marker(src: SourceFile, start: int) -> _Marker:
    text = src.text
    close = text.find("*/", start + 3)
    if close < 0:
        raise src.error(start, "unterminated annotation: no '@*/' closes this '/*@'", AnnotationError)
    if text[close - 1] != "@" or close - 1 < start + 3:
        raise src.error(
            close,
            "'*/' inside an annotation ends the C comment before its '@*/'",
            AnnotationError,
        )
    body_end = close - 1  # the '@' of '@*/'
    end = close + 2
    i = start + 3
    while i < body_end and text[i].isspace():
        i += 1
    word = _IDENT.match(text, i, body_end)
    if word is None:
        if i == body_end:
            return _Marker("end", start, end)
        raise src.error(i, "expected a region name, 'begin' or 'end' in annotation", AnnotationError)
    if word.group() == "end":
        j = word.end()
        while j < body_end and text[j].isspace():
            j += 1
        if j != body_end:
            raise src.error(j, "unexpected text after 'end' in annotation", AnnotationError)
        return _Marker("end", start, end)
    if word.group() == "begin":
        i = word.end()
        while i < body_end and text[i].isspace():
            i += 1
        word = _IDENT.match(text, i, body_end)
        if word is None:
            raise src.error(i, "expected a region name after 'begin'", AnnotationError)
    name = word.group()
    if name not in REGION_NAMES:
        raise src.error(word.start(), f"unknown region '{name}'{did_you_mean(name, REGION_NAMES)}", AnnotationError)
    i = word.end()
    while i < body_end and text[i].isspace():
        i += 1
    if i >= body_end or text[i] != "(":
        raise src.error(i, f"expected '(' after region name '{name}'", AnnotationError)
    close_paren = _matching_paren(src, i, body_end)
    j = close_paren + 1
    while j < body_end and text[j].isspace():
        j += 1
    if j != body_end:
        if text[j] == ")":
            raise src.error(j, "unbalanced parentheses: this ')' has no '('", AnnotationError)
        raise src.error(j, "unexpected text after ')' in annotation", AnnotationError)
    return _Marker("open", start, end, name, word.start(), i + 1, close_paren)


def _markers(src: SourceFile):
    text = src.text
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*@", i):
            marker = _parse_marker(src, i)
            yield marker
            i = marker.end
        elif c == "/" and text.startswith("/*", i):
            i = _comment_end(src, i)
        elif c == "/" and text.startswith("//", i):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
        elif c in "\"'":
            i = skip_string(text, i)
        else:
            i += 1


def scan_regions(src: SourceFile) -> tuple[Region, ...]:
    """All top-level regions of the file, children nested inside them."""
    stack: list[tuple[_Marker, list[Region]]] = []
    top: list[Region] = []
    for m in _markers(src):
        if m.kind == "open":
            stack.append((m, []))
            continue
        if not stack:
            raise src.error(m.start, "'end' annotation without an open region", AnnotationError)
        opened, children = stack.pop()
        region = Region(
            opened.name,
            opened.start,
            opened.name_offset,
            opened.args_start,
            opened.args_end,
            opened.end,
            m.start,
            m.end,
            tuple(children),
        )
        (stack[-1][1] if stack else top).append(region)
    if stack:
        opened = stack[-1][0]
        raise src.error(
            opened.start,
            f"unterminated region '{opened.name}': no '/*@ end @*/' closes it",
            AnnotationError,
        )
    return tuple(top)
