"""The package as users install it: the wheel holds every module and data file of the source
tree, and the version has one source. (.ci/wheel installs that wheel into a fresh virtual
environment and runs orcu from it.)"""

import shutil
import subprocess
import sys
import zipfile

import pytest
from conftest import ROOT

import orcu


def source_files() -> set[str]:
    """What the wheel must hold, as paths inside it: every module under orcu/ and every file
    under templates/ (shipped as orcu/templates/)."""
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "orcu").rglob("*.py")}
    data = {
        "orcu/" + p.relative_to(ROOT).as_posix()
        for p in (ROOT / "templates").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    return modules | data


def test_the_wheel_holds_every_module_and_template(tmp_path):
    # From a copy without build products: an editable install leaves orcu.egg-info in the
    # checkout, and its stale list of sources would put a module the discovery misses back
    # into the sdist. Without isolation: offline, with the setuptools the test extras install.
    # The wheel is built from the sdist, so the sdist is checked too.
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", "*.egg-info", "build", "dist", "__pycache__", ".orcu", ".pytest_cache", ".hypothesis"
        ),
    )
    out = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    wheels = list(out.glob("*.whl"))
    assert [w.name for w in wheels] == [f"orcu-{orcu.__version__}-py3-none-any.whl"]
    assert len(list(out.glob(f"orcu-{orcu.__version__}.tar.gz"))) == 1
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        entry_points = wheel.read(f"orcu-{orcu.__version__}.dist-info/entry_points.txt").decode()
    expected = source_files()
    assert {
        "orcu/codegen/region.py",
        "orcu/search/strategies.py",
        "orcu/templates/emulation/cuda_runtime.h",
    } <= expected
    assert sorted(expected - names) == []
    assert sorted(n for n in names - expected if not n.startswith(f"orcu-{orcu.__version__}.dist-info/")) == []
    assert "orcu = orcu.driver.cli:entry" in entry_points


def test_version_has_one_source(capsys):
    from orcu.driver.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"orcu {orcu.__version__}\n"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "orcu.version.__version__"}' in pyproject
