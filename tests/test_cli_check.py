"""``orcu check`` on every example: exact space sizes, and diagnostics through the CLI."""

import itertools
import json
import subprocess
import sys

import pytest
from conftest import EXAMPLES, ROOT, write

from orcu.driver.cli import main

# file -> (performance raw, performance constrained, input raw, input constrained, total variants)
# The TSG's examples: Phase II's register tiles, shared and constant copies, strip depth and vectors multiply the
# mapping's candidates (2mm.c: two regions' parameters, each region tuned over its own); a product of doubles
# the tensor cores may run doubles them again (tensorCores_k: dgemm.c, each of 2mm.c's two; sgemm_tf32.c's
# float product, allowReducedPrecision).
SIZES = {
    "2mm.c": (524288, 524288, 2, 2, 1048576),
    "atax.c": (128, 128, 2, 2, 256),
    "bicg.c": (128, 128, 2, 2, 256),
    "conv2d.c": (1536, 1536, 2, 2, 3072),
    "dgemm.c": (2048, 2048, 2, 2, 4096),
    "gemv.c": (3, 3, 2, 2, 6),
    "gemv_t.c": (384, 384, 2, 2, 768),
    "gesummv.c": (2, 2, 2, 2, 4),
    "jacobi2d.c": (192, 192, 2, 2, 384),
    "mvt.c": (256, 256, 2, 2, 512),
    "sgemm.c": (768, 768, 2, 2, 1536),
    "sgemm_tf32.c": (1536, 1536, 2, 2, 3072),  # sgemm.c's, the float product on the TF32 tensor cores too
    "syr2k.c": (512, 512, 2, 2, 1024),  # register tiles over its triangle, A and B in two shared tiles each
    "axpy.c": (768, 756, 2, 2, 1512),
    "dot.c": (96, 96, 3, 3, 288),
    "multi_axpy.c": (48, 36, 2, 2, 72),
    "norm2.c": (160, 109, 2, 2, 218),
    "spmv_dia.c": (10240, 10240, 25, 5, 51200),
    "two_regions.c": (24, 20, 1, 1, 20),
    "vecscale.c": (96, 80, 2, 2, 160),
}


def check_json(path, capsys):
    assert main(["check", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES.glob("*.c")) == sorted(SIZES)


@pytest.mark.parametrize("name", sorted(SIZES))
def test_example_space_sizes(name, capsys):
    s = check_json(EXAMPLES / name, capsys)
    got = (
        s["space"]["raw"],
        s["space"]["constrained"],
        s["input_space"]["raw"],
        s["input_space"]["constrained"],
        s["total_variants"],
    )
    assert got == SIZES[name]


def test_sizes_agree_with_brute_force(capsys):
    """The constrained counts above, recomputed independently of orcu's Space."""
    tc, bc, sc, pl = range(64, 1025, 64), [66, 132, 264, 528], range(1, 5), [16, 32, 48]
    assert sum(1 for t, b, _, _ in itertools.product(tc, bc, sc, pl) if t * b >= 8192) == 756
    assert (
        sum(1 for t, b in itertools.product(range(32, 1025, 32), [132, 264, 396, 528, 1056]) if t * b <= 1024 * 132 * 2)
        == 109
    )
    assert sum(1 for nv in (4, 6) for u in range(1, 5) if nv % u == 0 or u == 1) * 3 * 4 == 72
    assert (
        sum(
            1
            for t1, b1, t2, b2 in itertools.product([128, 256, 512], [132, 264], [256, 1024], [66, 132])
            if t2 * b2 <= 2 * t1 * b1
        )
        == 20
    )
    assert (
        sum(
            1
            for t, b, p in itertools.product(range(64, 1025, 64), [132, 264, 528], [16, 48])
            if t * b <= 1024 * 2 * 132
        )
        == 80
    )


def test_dia_report_contents(capsys):
    s = check_json(EXAMPLES / "spmv_dia.c", capsys)
    assert [p["name"] for p in s["performance_params"]] == ["TC", "BC", "UIF", "PL", "CFLAGS"]
    assert s["performance_params"][1]["values"] == [132, 264, 528, 1056]  # device_sms * k on the default profile (H100)
    assert s["input_space"]["combinations"][0] == {"m": 32, "n": 32, "nos": 5, "dof": 1}
    (region,) = s["regions"]
    assert region["name"] == "orcu_MatMult_SeqDia_1" and region["line"] == 37 and region["function"] == "MatMult_SeqDia"
    assert region["loops"] == [
        {"depth": 0, "var": "i", "lower": "0", "upper": "nrows", "step": 1, "line": 39},
        {"depth": 1, "var": "j", "lower": "0", "upper": "ndiags", "step": 1, "line": 40},
    ]
    kinds = {v["name"]: (v["type"], v["kind"]) for v in region["variables"]}
    assert kinds["x"] == ("double*", "array") and kinds["col"] == ("int", "scalar")


def test_two_regions_have_their_own_arguments(capsys):
    s = check_json(EXAMPLES / "two_regions.c", capsys)
    assert [r["transform"] for r in s["regions"]] == [
        {"threadCount": "TC1", "blockCount": "BC1"},
        {"threadCount": "TC2", "blockCount": "BC2"},
    ]


def test_text_report(capsys):
    assert main(["check", str(EXAMPLES / "axpy.c")]) == 0
    out = capsys.readouterr().out
    assert "  space: 756 point(s), 768 before constraints" in out
    assert "  constraint enough_threads: TC * BC >= 8192" in out
    assert "    for i in [0, n)" in out
    assert main(["check", str(EXAMPLES / "axpy.c"), "--explain"]) == 0
    assert "y[i] = (a * x[i]) + y[i]    # line 27; reads a, i, x[i], y[i]; writes y[i]" in capsys.readouterr().out


def test_console_script_reports_bad_input_with_exit_code_2(tmp_path):
    bad = write(
        tmp_path / "bad.c",
        "void f(int n, double *a) {\n  int i;\n  /*@ begin Loop(transform CUDA(threadCont=64)\n  for (i = 0; i < n; i++) a[i] = 0;\n  ) @*/\n  /*@ end @*/\n}\n",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "check", str(bad)], capture_output=True, text=True, cwd=tmp_path
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (
        f"{bad}:3:33: error: unknown transform argument 'threadCont' (did you mean 'threadCount'?)\n"
        "  /*@ begin Loop(transform CUDA(threadCont=64)\n"
        "                                ^\n"
    )
    assert "Traceback" not in proc.stderr


def test_missing_file_and_bad_usage(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nope.c")]) == 2
    assert capsys.readouterr().err == f"orcu: error: no such file: {tmp_path / 'nope.c'}\n"
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2


def test_explicit_yaml_spec(tmp_path, capsys):
    spec = write(tmp_path / "other.yaml", (EXAMPLES / "vecscale.c.orcu.yaml").read_text().replace("[16, 48]", "[16]"))
    s = check_json_args(["check", str(EXAMPLES / "vecscale.c"), "--spec", str(spec), "--json"], capsys)
    assert (s["space"]["raw"], s["space"]["constrained"], s["spec"]) == (48, 40, "yaml")


def check_json_args(argv, capsys):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_readme_commands_are_the_ci_commands():
    readme = (ROOT / "README.md").read_text().splitlines()
    assert "python3 -m pip install -e '.[test]' && python3 -m pytest -q" in readme
    assert "python3 -m pip install -e . && orcu tune annotated_examples/spmv_dia.c --budget 10" in readme


def test_variants_to_evaluate_leave_out_what_cannot_be_built(capsys):
    # jacobi2d's space at two sizes: 384 configurations, 32 at each size whose tiles do not fit, and 32 whose
    # vectors would read the shared tile with bank conflicts (the same without vectors reads it free of them)
    s = check_json(EXAMPLES / "jacobi2d.c", capsys)
    assert (s["total_variants"], s["buildable_variants"]) == (384, [256])
    assert main(["check", str(EXAMPLES / "jacobi2d.c")]) == 0
    assert (
        "variants to evaluate: 256 of 384, the rest cannot be built (search: Exhaustive)\n" in capsys.readouterr().out
    )
    assert main(["check", str(EXAMPLES / "two_regions.c")]) == 0
    assert "variants to evaluate: 20 per region (search: Exhaustive)\n" in capsys.readouterr().out
