"""A source file and the mapping between offsets and line:column positions."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from .errors import Location, OrcuError


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
    def read(cls, path: str | Path) -> "SourceFile":
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise OrcuError(f"no such file: {path}") from None
        except (UnicodeDecodeError, IsADirectoryError, PermissionError) as e:
            raise OrcuError(f"cannot read {path}: {e}") from None
        return cls(str(path), text)

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

    def error(self, offset: int, message: str, kind: type[OrcuError] = OrcuError) -> OrcuError:
        loc = self.location(offset)
        return kind(message, loc, self.line_text(loc.line))

    def error_at(self, loc: Location, message: str, kind: type[OrcuError] = OrcuError) -> OrcuError:
        return kind(message, loc, self.line_text(loc.line))
