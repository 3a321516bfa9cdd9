"""bench/bench_ppcg.py's reading of PPCG's CUDA (bench/ppcg/, PPCG's output kept for a GPU
machine) and its pairing of orcu's kernels with PPCG's."""

import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace

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


@pytest.mark.parametrize(
    "option, tile, stem, shared",
    [
        ("default", 32, "covariance", True),
        ("tile16", 16, "covariance", True),
        ("default", 32, "correlation", False),
        ("tile16", 16, "correlation", True),
        ("tile32", 32, "correlation", False),
    ],
)
def test_ppcgs_strip_is_written_in_orcus_space_only_under_a_shared_tile(option, tile, stem, shared):
    """PPCG's product tiles its k loop either way; orcu's space has a strip depth only where a
    shared tile is on (correlation's PPCG copies corr, not data, at 32: its choices are then at
    the default depth), else PPCG's choices are a configuration the space does not hold."""
    kernels = kept(option, stem)
    theirs = next(k for k in kernels if len(k["tile"]) == 3)
    params = [
        SimpleNamespace(name="mapping_2", values=("x=j y=i", "x=i y=j")),
        SimpleNamespace(name="registers_i_2", values=(1, 2, 4, 8)),
        SimpleNamespace(name="registers_j_2", values=(1, 2, 4, 8)),
        SimpleNamespace(name="shared_data_2", values=(False, True)),
        SimpleNamespace(name="sharedDepth_2", values=(16, 32)),
    ]
    assert ("data" in theirs["shared"]) is shared
    x, y = theirs["block_dims"]  # x along j
    registers = {"registers_j_2": tile // x, "registers_i_2": tile // y}
    depth = {"sharedDepth_2": tile} if shared else {}
    assert bench_ppcg._as_orcu(theirs, params) == {
        "mapping_2": "x=j y=i",
        **registers,
        "shared_data_2": shared,
        **depth,
    }


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


def test_the_table_takes_each_scops_newest_record_and_means_the_models_ratios():
    """gemm's later record replaces its earlier one; mvt's transposed product, orcu's pick on
    more bytes, is named; a kernel PPCG's choices cannot be written for has no ratio."""

    def row(kernel, *traffic):
        figures = [
            {"kernel": k, "orcu_bytes": ob, "orcu_predicted_ms": oms}
            | ({"ppcg_bytes": pb, "ppcg_predicted_ms": pms} if pb else {})
            for k, ob, oms, pb, pms in traffic
        ]
        return {
            "kernel": kernel,
            "orcu": {"kernels": [{}] * len(traffic)},
            "ppcg": {"kernels": [{}]},
            "traffic": figures,
        }

    history = [
        {"date": "2026-12-01", "rows": [row("gemm.c", ("kernel_gemm_1", 9e8, 0.5, 9e9, 2.0))]},
        {
            "date": "2026-12-02",
            "commit": "abc1234",
            "rows": [
                row("gemm.c", ("kernel_gemm_1", 4e8, 0.1, 1e10, 1.6)),
                row("mvt.c", ("kernel_mvt_1", 3.3e7, 0.02, 3.2e7, 0.16), ("kernel_mvt_2", 6e7, 0.02, None, None)),
            ],
        },
    ]
    lines = bench_ppcg.table(history).splitlines()
    assert lines[2:5] == [
        "| mvt | 2 / 1 | kernel_mvt_1 | 33.00; 0.02 | 32.00; 0.16 | 2026-12-02, abc1234 |",
        "| mvt | 2 / 1 | kernel_mvt_2 | 60.00; 0.02 | not in orcu's space | 2026-12-02, abc1234 |",
        "| gemm | 1 / 1 | kernel_gemm_1 | 400.00; 0.1 | 10000.00; 1.6 | 2026-12-02, abc1234 |",
    ]
    assert lines[-1] == (
        "2 kernels with both sides: PPCG's choices predicted at a geometric mean of 11.31x orcu's pick's time"
        " (least 8.00x); picks requesting more bytes than PPCG's choices: kernel_mvt_1."
    )


def test_ppcgs_choices_are_counted_with_its_blocks_threads(tmp_path):
    """mvt's transposed product at PolyBench LARGE: PPCG runs blocks of 32 threads, each filling
    all of y_2 in shared memory strip by strip. At orcu's 256 threads a block the same choices
    fill it 8 times less often and request fewer bytes than orcu's pick (its split's atomic
    adds); counted at PPCG's own block, they request more."""
    theirs = next(k for k in kept("default", "mvt") if k["writes"] == ["x2"])
    assert theirs["block_dims"] == [32] and theirs["shared"] == ["y_2"]
    sizes = {"n": 2000}
    row = next(r for r in bench_ppcg.traffic_side("mvt.c", sizes, [theirs]) if r["kernel"] == "kernel_mvt_1")
    wanted = {"mapping_1": "x=i", "registers_i_1": 1, "sharedDepth_1": 32, "shared_y_2_1": True}
    assert row["ppcg_in_orcu"] == {"threadCount": 32, **wanted}
    assert row["orcu_pick"]["mapping_1"] == "x=i y=j(split)"
    at_orcus = bench_ppcg._scored(bench_ppcg._program("mvt.c", sizes, tmp_path), 0, sizes, wanted)[0]
    assert min(b for _, b, _ in at_orcus) < row["orcu_bytes"] < row["ppcg_bytes"]
    assert row["orcu_predicted_ms"] < row["ppcg_predicted_ms"]
