import os
import shutil
from pathlib import Path

import pytest

from orcu.errors import OrcuError
from orcu.program import load

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"


def has_gpu() -> bool:
    return shutil.which("nvidia-smi") is not None and os.path.exists("/dev/nvidiactl")


def pytest_collection_modifyitems(config, items):
    if has_gpu():
        return
    skip = pytest.mark.skip(reason="no NVIDIA GPU visible")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in a temporary directory so diagnostics name files by short relative paths."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def diagnose(in_tmp, text: str, name: str = "t.c", **files) -> str:
    """The rendered diagnostic of loading ``text`` (the test fails if it loads)."""
    for fname, content in files.items():
        write(in_tmp / fname.replace("__", "."), content)
    write(in_tmp / name, text)
    with pytest.raises(OrcuError) as info:
        load(name)
    return info.value.render()
