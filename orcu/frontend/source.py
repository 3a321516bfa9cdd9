"""A source file and the mapping between offsets and line:column positions."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from orcu.errors import Location, OrcuError
from orcu.frontend.ctext import blank_comments, skip_string

E = TypeVar("E", bound=OrcuError)  # the kind of error a caller asks for is the kind it gets

ENCODING = {"encoding": "utf-8", "errors": "surrogateescape"}  # how orcu reads and writes C files


def _outside_text(text: str):
    """Offsets of bytes that were not UTF-8 (surrogate escapes) in code: outside comments and strings."""
    if not any("\udc80" <= c <= "\udcff" for c in text):
        return
    blanked = blank_comments(text)
    i = 0
    while i < len(blanked):
        c = blanked[i]
        if c in "\"'":
            i = skip_string(blanked, i)
            continue
        if "\udc80" <= c <= "\udcff":
            yield i
        i += 1


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str
    _line_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = [0]
        starts.extend(i + 1 for i, c in enumerate(self.text) if c == "\n")
        object.__setattr__(self, "_line_starts", tuple(starts))

    @classmethod
    def read(cls, path: str | Path) -> SourceFile:
        """The file as UTF-8. Other bytes (a Latin-1 comment, say) are kept as they are, as
        surrogate escapes that every write of orcu's turns back into the same bytes; outside
        comments and strings they are a diagnostic at their place."""
        p = Path(path)
        try:
            text = p.read_bytes().decode("utf-8", errors="surrogateescape")
        except FileNotFoundError:
            raise OrcuError(f"no such file: {path}") from None
        except OSError as e:
            raise OrcuError(f"cannot read {path}: {e.strerror}") from None
        src = cls(str(path), text)
        for at in _outside_text(text):
            raise src.error(
                at,
                f"byte 0x{ord(text[at]) - 0xDC00:02X} is not UTF-8: orcu reads C code as UTF-8 "
                "(other bytes may stand in comments and strings)",
            )
        return src

    def location(self, offset: int) -> Location:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return Location(self.path, line + 1, offset - self._line_starts[line] + 1)

    def offset(self, line: int, col: int) -> int:
        """Offset of a 1-based line and column (clamped to the file)."""
        line = max(1, min(line, len(self._line_starts)))
        return min(self._line_starts[line - 1] + col - 1, len(self.text))

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def error(self, offset: int, message: str, kind: type[E] = OrcuError) -> E:  # type: ignore[assignment]
        loc = self.location(offset)
        return kind(message, loc, self.line_text(loc.line))

    def error_at(self, loc: Location, message: str, kind: type[E] = OrcuError) -> E:  # type: ignore[assignment]
        return kind(message, loc, self.line_text(loc.line))
