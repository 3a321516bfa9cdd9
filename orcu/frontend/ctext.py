"""Scanning C text without parsing it: string literals, comments and brackets, with every
offset kept true (blanked text keeps its length and its newlines)."""

from __future__ import annotations

import re

# A C identifier standing alone (not the tail of a number such as 1e5).
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


def skip_string(text: str, i: int) -> int:
    """Offset just past the string or char literal starting at ``text[i]``."""
    quote = text[i]
    i += 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == quote or c == "\n":
            return i + 1
        i += 1
    return i


def brace_depth(text: str, start: int, end: int) -> int:
    """How many more '{' than '}' text[start:end] holds, strings skipped (comments must be blank)."""
    depth, i = 0, start
    while i < end:
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
            continue
        depth += c == "{"
        depth -= c == "}"
        i += 1
    return depth


def matching_bracket(text: str, open_at: int, limit: int, hash_comments: bool = False) -> tuple[int, int]:
    """Find the bracket closing ``text[open_at]`` before ``limit``, skipping string literals
    (and ``#`` comments of the spec language, which may hold unbalanced brackets).

    Returns ``(close, unclosed)``: the closing offset, or -1 with the offset of the
    innermost bracket still open at ``limit``.
    """
    opener = text[open_at]
    closer = {"(": ")", "[": "]", "{": "}"}[opener]
    opened: list[int] = []
    i = open_at
    while i < limit:
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
            continue
        if hash_comments and c == "#":
            nl = text.find("\n", i, limit)
            i = limit if nl < 0 else nl
            continue
        if c == opener:
            opened.append(i)
        elif c == closer:
            opened.pop()
            if not opened:
                return i, -1
        i += 1
    return -1, opened[-1]


def blank(text: str, spans) -> str:
    """``text`` with each [start, end) of ``spans`` replaced by spaces (newlines kept: offsets
    stay true)."""
    chars = list(text)
    for start, end in spans:
        for k in range(start, end):
            if chars[k] != "\n":
                chars[k] = " "
    return "".join(chars)


def blank_comments(text: str) -> str:
    """Replace every comment with spaces (keeping newlines) so offsets stay true."""
    out = list(text)
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif c in "\"'":
            i = skip_string(text, i)
            continue
        else:
            i += 1
            continue
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        i = end
    return "".join(out)
