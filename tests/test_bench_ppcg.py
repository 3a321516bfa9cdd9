"""bench/bench_ppcg.py's reading of PPCG's CUDA (bench/ppcg/, PPCG's output kept for a GPU
machine) and its pairing of orcu's kernels with PPCG's."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEPT = ROOT / "bench" / "ppcg"
spec = importlib.util.spec_from_file_location("bench_ppcg", ROOT / "bench" / "bench_ppcg.py")
bench_ppcg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_ppcg)
MANIFEST = json.loads((KEPT / "manifest.json").read_text())


def kept(option: str, stem: str) -> list[dict]:
    folder = KEPT / option
    return bench_ppcg.kernels_of(
        (folder / f"{stem}_host.cu").read_text(),
        (folder / f"{stem}_kernel.cu").read_text(),
        (folder / f"{stem}.sizes").read_text(),
    )


def test_covariances_product_is_paired_with_ppcgs_product_not_its_zeroing():
    """Both of PPCG's last kernels write cov; the pairing took the first (cov[i][j] = 0.0)."""
    kernels = kept("default", "covariance")
    zeroing, product = (j for j, k in enumerate(kernels) if k["writes"] == ["cov"])
    assert kernels[zeroing]["arrays"] == ["cov"] and "data" in kernels[product]["arrays"]
    assert bench_ppcg._match(kernels, set(), ["cov"], {"cov", "data"}) == product
    assert bench_ppcg._match(kernels, set(), ["cov"], {"cov"}) == zeroing
    assert bench_ppcg._match(kernels, {product}, ["cov"], {"cov", "data"}) == zeroing  # the other, once taken
    assert bench_ppcg._match(kernels, set(), ["nothing"], {"cov"}) is None


@pytest.mark.parametrize("option", ["default", "tile16"])
def test_fdtds_fused_sweeps_are_paired_with_ppcgs_two_kernels(option):
    """orcu's kernel over the hull of fdtd-2d's ey and ex sweeps writes both: PPCG's kernel of
    each, not its kernel of hz (which writes ey's row 0 too)."""
    kernels = kept(option, "fdtd-2d")
    ey, ex, hz = (next(j for j, k in enumerate(kernels) if k["writes"] == w) for w in (["ey"], ["ex"], ["ey", "hz"]))
    assert bench_ppcg._match(kernels, set(), ["ex", "ey"], {"ex", "ey", "hz"}) is None
    assert sorted(bench_ppcg._fused_match(kernels, set(), ["ex", "ey"])) == sorted([ey, ex])
    assert bench_ppcg._fused_match(kernels, {ex}, ["ex", "ey"]) == []  # one left: they no longer add up
    assert bench_ppcg._fused_match(kernels, set(), ["ey", "hz"]) == []  # one kernel of PPCG's writes both
    assert bench_ppcg._match(kernels, set(), ["ey", "hz"], {"ey", "hz", "ex", "_fict_"}) == hz


@pytest.mark.parametrize("option, tile", [("default", 32), ("tile16", 16), ("tile32", 32)])
def test_each_kernels_tile_is_read_from_its_own_group_of_sizes(option, tile):
    """--dump-sizes lists one union of tiles per number of dimensions: covariance's 3-D product
    tile and the 1-D and 2-D tiles of its other kernels each come from their own."""
    kernels = kept(option, "covariance")
    assert [len(k["tile"]) for k in kernels] == [2, 1, 2, 2, 3]
    assert all(size == tile for k in kernels for size in k["tile"])


@pytest.mark.parametrize("name", sorted(bench_ppcg.KERNELS))
def test_ppcgs_kept_cuda_is_every_kernel_under_every_option(name):
    """What a GPU machine builds: PPCG's files for each of the 23 PolyBench kernels under each
    option, as many kernels as the manifest recorded when PPCG wrote them."""
    stem = Path(bench_ppcg.KERNELS[name]).stem
    assert set(MANIFEST["options"]) == set(bench_ppcg.OPTIONS) == set(MANIFEST["runs"][name])
    for option, run in MANIFEST["runs"][name].items():
        assert run["kernels"] > 0, run
        assert len(kept(option, stem)) == run["kernels"]
        assert (KEPT / option / f"{stem}_kernel.hu").is_file()


def test_ppcgs_recorded_side_covers_every_kernel_with_its_version():
    """--ppcg-recorded (no PPCG here): each kernel's PPCG side from the newest record holding it,
    the same as that record's row, and the PPCG version it ran."""
    found, version = bench_ppcg._recorded()
    assert set(found) == set(bench_ppcg.KERNELS)
    history = json.loads((ROOT / "bench" / "results" / "ppcg.json").read_text())
    newest = next(r for r in reversed(history) if any("ppcg" in row for row in r["rows"]))
    assert version and version == newest["ppcg"]
    # a record may hold some kernels only (--kernels): fdtd-2d's side is the newest that holds it
    holding = next(
        r for r in reversed(history) if any(row["kernel"] == "fdtd2d.c" and "ppcg" in row for row in r["rows"])
    )
    row = next(row for row in holding["rows"] if row["kernel"] == "fdtd2d.c")
    assert found["fdtd2d.c"] == row["ppcg"] and len(found["fdtd2d.c"]["kernels"]) == 3
