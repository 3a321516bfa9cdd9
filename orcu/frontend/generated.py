"""The marks orcu leaves in a tuned file, and how to find them again.

A tuned file is itself a valid input: ``orcu tune`` can tune it again. For that, every
block orcu inserts sits between two marker lines (removed and regenerated on the next
writeback, blanked when the file is parsed), and each Loop region's code keeps the
original loop under ``#ifdef ORCU_ORIGINAL`` (the reference for the next validation).
"""

from __future__ import annotations

import re

from orcu.frontend.ctext import blank

BEGIN = "// >>> orcu generated code: begin"
END = "// <<< orcu generated code: end"
ORIGINAL = "ORCU_ORIGINAL"

_SPAN = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"[^\n]*\n?", re.DOTALL)
# A region's code in a tuned file: the original loop, else the call of its host function.
_REGION_CODE = re.compile(
    r"\A[ \t]*\n#ifdef " + ORIGINAL + r"\n(?P<original>.*?\n)#else\n[ \t]*orcu_\w+\([^;]*\);[^\n]*\n"
    r"(?:[ \t]*\(void\)[^\n]*\n)?#endif\n[ \t]*\Z",  # and the (void) of locals only the original uses
    re.DOTALL,
)


def spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each generated block, its final newline included."""
    return [(m.start(), m.end()) for m in _SPAN.finditer(text)]


def blank_spans(text: str) -> str:
    """``text`` with the generated blocks replaced by spaces (newlines kept: offsets stay true)."""
    return blank(text, spans(text))


def original_code(code: str) -> tuple[int, str] | None:
    """(offset in ``code``, text) of the original loop kept in a tuned region, else None."""
    m = _REGION_CODE.match(code)
    return (m.start("original"), m.group("original")) if m else None


def region_code(code: str, replacement: str, lead: bool = True, trail: bool = True) -> str:
    """A region's new code: its original loop kept for ``-DORCU_ORIGINAL``, else ``replacement``
    (the calls of the generated code, in the region's host code).

    ``code`` is what stood between the annotations. ``lead``: end the line of the opening
    annotation first; ``trail``: indent the closing annotation as before.
    """
    lines = code.split("\n")
    body = [line for line in lines if line.strip()]
    indent = re.match(r"[ \t]*", body[0]).group() if body else ""
    closing_indent = lines[-1] if len(lines) > 1 and not lines[-1].strip() else indent
    original = "\n".join(lines[_first(lines) : _last(lines) + 1]) if body else ""
    return (
        ("\n" if lead else "")
        + "#ifdef "
        + ORIGINAL
        + "\n"
        + original
        + "\n#else\n"
        + "".join(f"{indent}{line}\n" for line in replacement.splitlines() if line)
        + "#endif\n"
        + (closing_indent if trail else "")
    )


def _first(lines: list[str]) -> int:
    return next(k for k, line in enumerate(lines) if line.strip())


def _last(lines: list[str]) -> int:
    return max(k for k, line in enumerate(lines) if line.strip())
