"""The one error tree of orcu.

Every user-facing error carries a source location so the command line can print it
the way gcc does: ``path:line:col: error: message`` followed by the source line and
a caret under the column.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    path: str
    line: int  # 1-based
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class OrcuError(Exception):
    """A problem the user can fix: bad input, bad usage, an impossible request."""

    def __init__(self, message: str, loc: Location | None = None, source_line: str | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.source_line = source_line
        self.notes: list[OrcuError] = []  # more places the error concerns, each said as a note with its caret

    def render(self) -> str:
        if self.loc is None:
            return f"orcu: error: {self.message}"
        return "\n".join([self._at("error"), *(note._at("note") for note in self.notes)])

    def _at(self, kind: str) -> str:
        out = f"{self.loc}: {kind}: {self.message}"
        if self.source_line is not None and self.loc is not None:
            # A byte that is not UTF-8 (kept as a surrogate escape) shows as '?': one column, as the caret expects.
            line = "".join("?" if "\udc80" <= c <= "\udcff" else c for c in self.source_line.rstrip("\n"))
            # Keep tabs in the caret prefix so the caret lines up in any terminal.
            prefix = "".join(c if c == "\t" else " " for c in line[: self.loc.col - 1])
            out += f"\n{line}\n{prefix}^"
        return out

    def __str__(self) -> str:
        return self.render()


class SpecError(OrcuError):
    """The tuning spec (PerfTuning language or YAML) is malformed."""


class AnnotationError(OrcuError):
    """The structured-comment regions are malformed."""


class CSyntaxError(OrcuError):
    """C code inside or around a region does not parse."""


class AnalysisError(OrcuError):
    """The code parses but cannot be transformed as asked (types, dependences, sizes)."""


class UsageError(OrcuError):
    """A bad command line: unknown parameter, value outside its list, missing file."""


class ReferenceFailed(OrcuError):
    """The C code as written failed on the inputs before any variant ran: no variant can be judged."""


class NotWritten(OrcuError):
    """Nothing was written, for reasons said one per line (results missing or never checked):
    the command line prints them and exits 1."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines

    def render(self) -> str:
        return "\n".join(self.lines)


def did_you_mean(word: str, choices) -> str:
    """A gcc-style hint naming the closest known word, or nothing."""
    choices = list(choices)
    by_lower = {c.lower(): c for c in choices}
    if word.lower() in by_lower:  # only the case differs
        return f" (did you mean '{by_lower[word.lower()]}'?)"
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""
