"""The Orio PerfTuning spec language: ``def section { statement; ... }``.

Statements are split here (at top-level ``;``, respecting brackets, strings and ``#``
comments); every expression inside them goes to the safe evaluator with its true
offset, so diagnostics point into the user's C file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from orcu.errors import SpecError
from orcu.frontend.source import SourceFile
from orcu.spec.builder import SpecBuilder
from orcu.spec.expr import compile_expr
from orcu.spec.model import Decl, TuningSpec

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
# A line that starts a statement (or a section): where a statement missing its ';' runs into it.
_STATEMENT = re.compile(r"\n[ \t]*(param|constraint|arg|option|decl|let|def)[ \t]")


class _Cursor:
    def __init__(self, src: SourceFile, start: int, end: int):
        self.src, self.pos, self.end = src, start, end
        self.text = src.text

    def error(self, message: str, offset: int | None = None) -> SpecError:
        return self.src.error(self.pos if offset is None else offset, message, SpecError)

    def skip_ws(self) -> None:
        text = self.text
        while self.pos < self.end:
            c = text[self.pos]
            if c.isspace():
                self.pos += 1
            elif c == "#":
                nl = text.find("\n", self.pos, self.end)
                self.pos = self.end if nl < 0 else nl
            else:
                return

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= self.end

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < self.end else ""

    def ident(self, what: str) -> tuple[str, int]:
        self.skip_ws()
        m = _IDENT.match(self.text, self.pos, self.end)
        if m is None:
            raise self.error(f"expected {what}")
        self.pos = m.end()
        return m.group(), m.start()

    def expect(self, char: str, what: str) -> int:
        if self.peek() != char:
            raise self.error(f"expected '{char}' {what}")
        self.pos += 1
        return self.pos - 1

    def string(self, what: str) -> tuple[str, int]:
        self.skip_ws()
        start = self.pos
        quote = self.text[start : start + 1]
        if quote not in ("'", '"'):
            raise self.error(f"expected {what}")
        close = self._string_end(start)
        self.pos = close + 1
        return self.text[start + 1 : close], start

    def _string_end(self, start: int) -> int:
        """The closing quote of the string opened at ``start``, on its line (a spec's strings
        never span lines: a quote left open is said where it opens, not at the next one)."""
        line_end = self.text.find("\n", start, self.end)
        close = self.text.find(self.text[start], start + 1, self.end if line_end < 0 else line_end)
        if close < 0:
            raise self.error("unterminated string", start)
        return close

    def until_semicolon(self, what: str) -> tuple[str, int]:
        """The text up to the next top-level ';' (consumed) and its start offset."""
        self.skip_ws()
        start = self.pos
        text = self.text
        stack: list[tuple[str, int]] = []
        i = start
        while i < self.end:
            c = text[i]
            if c in "\"'":
                i = self._string_end(i) + 1
                continue
            if c == "#":
                nl = text.find("\n", i, self.end)
                i = self.end if nl < 0 else nl
                continue
            if c in _CLOSERS:
                stack.append((c, i))
            elif c in ")]}":
                if not stack:
                    if c == "}":
                        break  # the section ends: the ';' is missing
                    raise self.error(f"unbalanced parentheses: this '{c}' has no opening bracket", i)
                opener, at = stack.pop()
                if _CLOSERS[opener] != c:
                    if c == "}":  # the section's end: the bracket was never closed
                        raise self.error(f"unbalanced parentheses: this '{opener}' is never closed", at)
                    raise self.error(f"unbalanced parentheses: '{opener}' closed by '{c}'", i)
            elif c == ";" and not stack:
                self.pos = i + 1
                return text[start:i], start
            elif c == "\n" and _STATEMENT.match(text, i, self.end):
                if stack:  # another statement starts before the bracket closes
                    opener, at = stack[-1]
                    raise self.error(f"unbalanced parentheses: this '{opener}' is never closed", at)
                break  # the next line starts another statement: this one's ';' is missing
            i += 1
        if stack:
            opener, at = stack[-1]
            raise self.error(f"unbalanced parentheses: this '{opener}' is never closed", at)
        body = text[start:i].rstrip()
        raise self.error(f"expected ';' after {what}", start + len(body))


def parse_perftuning(src: SourceFile, start: int, end: int, predefined: Mapping[str, Any] | None = None) -> TuningSpec:
    """Parse the PerfTuning annotation body ``src.text[start:end]``; ``predefined``: names it may read."""
    builder = SpecBuilder(src, start, predefined)
    cur = _Cursor(src, start, end)
    while not cur.at_end():
        word, offset = cur.ident("'def' or 'let'")
        if word == "def":
            _section(cur, builder)
        elif word == "let":
            _let(cur, builder)
        elif word in ("param", "constraint", "arg", "option", "decl"):
            raise cur.error(f"'{word}' must be inside a 'def' section", offset)
        else:
            raise cur.error(f"expected 'def' or 'let', found '{word}'", offset)
    return builder.finish()


def _section(cur: _Cursor, builder: SpecBuilder) -> None:
    name, offset = cur.ident("a section name after 'def'")
    builder.check_section(name, offset)
    cur.expect("{", f"after 'def {name}'")
    while True:
        c = cur.peek()
        if c == "}":
            cur.pos += 1
            return
        if c == "":
            raise cur.error(f"section '{name}' is never closed: expected '}}'", offset)
        keyword, kw_offset = cur.ident("a statement ('param', 'constraint', 'arg', 'let', 'decl', 'option') or '}'")
        if keyword == "def":
            raise cur.error(f"section '{name}' is never closed: expected '}}' before the next 'def'", offset)
        builder.check_statement(name, keyword, kw_offset)
        if keyword == "let":
            _let(cur, builder, name)
        elif keyword == "param":
            pname, poffset = cur.ident("a parameter name after 'param'")
            axis = cur.peek() == "["
            if axis:
                cur.pos += 1
                cur.expect("]", f"after '{pname}['")
            cur.expect("=", f"after parameter '{pname}'")
            text, at = cur.until_semicolon(f"parameter '{pname}'")
            builder.param(name, pname, poffset, compile_expr(cur.src, at, text), axis)
        elif keyword == "constraint":
            cname, coffset = cur.ident("a constraint name after 'constraint'")
            cur.expect("=", f"after constraint '{cname}'")
            text, at = cur.until_semicolon(f"constraint '{cname}'")
            builder.constraint(name, cname, coffset, compile_expr(cur.src, at, text))
        elif keyword == "arg":
            aname, aoffset = cur.ident("an argument name after 'arg'")
            cur.expect("=", f"after argument '{aname}'")
            text, at = cur.until_semicolon(f"argument '{aname}'")
            builder.arg(name, aname, aoffset, compile_expr(cur.src, at, text))
        elif keyword == "option":
            flag, foffset = cur.string("a quoted option such as \"-n\" after 'option'")
            cur.expect("=", f"after option '{flag}'")
            text, at = cur.until_semicolon(f"option '{flag}'")
            builder.option(flag, foffset, compile_expr(cur.src, at, text))
        else:  # decl
            text, at = cur.until_semicolon("the declaration")
            builder.decl(parse_decl(cur.src, at, text), at)


def _let(cur: _Cursor, builder: SpecBuilder, section: str | None = None) -> None:
    name, offset = cur.ident("a name after 'let'")
    cur.expect("=", f"after 'let {name}'")
    text, at = cur.until_semicolon(f"'let {name}'")
    if section == "metrics":  # a metric: evaluated for each variant, not now
        builder.metric(name, offset, compile_expr(cur.src, at, text))
    else:
        builder.let(name, offset, compile_expr(cur.src, at, text))


def parse_decl(src: SourceFile, start: int, text: str) -> Decl:
    """``[static|dynamic] type... name[dim]... [= random | expr | {a, b, ...}]``."""
    cur = _Cursor(src, start, start + len(text))
    words: list[tuple[str, int]] = []
    while True:
        c = cur.peek()
        if c in ("[", "=", ""):
            break
        if c == "*":
            raise cur.error("pointers cannot be declared in input_vars: give the array its size, e.g. 'double x[n]'")
        words.append(cur.ident("a type and a name in the declaration"))
    if not words:
        raise cur.error("expected a type and a name in the declaration", start)
    storage = None
    if words[0][0] in ("static", "dynamic"):
        storage = words.pop(0)[0]
    if not words:
        raise cur.error("expected a type and a name in the declaration", start)
    name, name_offset = words.pop()
    if not words:
        raise cur.error(f"missing type in the declaration of '{name}'", name_offset)
    ctype = " ".join(w for w, _ in words)
    dims = []
    while cur.peek() == "[":
        open_at = cur.pos
        depth, i = 0, open_at
        while i < cur.end:
            if cur.text[i] == "[":
                depth += 1
            elif cur.text[i] == "]":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth:
            raise cur.error("unbalanced parentheses: this '[' is never closed", open_at)
        dims.append(compile_expr(src, open_at + 1, cur.text[open_at + 1 : i]))
        cur.pos = i + 1
    init, init_expr = "none", None
    if cur.peek() == "=":
        cur.pos += 1
        cur.skip_ws()
        rest_at, rest = cur.pos, cur.text[cur.pos : cur.end]
        if rest.strip() == "random":
            init = "random"
        elif rest.startswith("{"):
            if not rest.rstrip().endswith("}"):
                raise cur.error("unbalanced parentheses: this '{' is never closed", rest_at)
            stripped = rest.rstrip()
            # Same length as the braces, so columns inside stay exact.
            init, init_expr = "list", compile_expr(src, rest_at, "[" + stripped[1:-1] + "]")
        else:
            init, init_expr = "value", compile_expr(src, rest_at, rest)
    elif not cur.at_end():
        raise cur.error(f"unexpected text in the declaration of '{name}'")
    return Decl(name, ctype, storage, tuple(dims), init, init_expr, src.location(name_offset))
