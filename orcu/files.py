"""Replacing a file so that no reader, and no other orcu process, ever sees it half written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def replace_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``.

    Raises OSError when the directory cannot be written."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:  # bytes of the source kept
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)  # mkstemp makes the file 0600; give it what open() would have
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
