"""Sparse kernels: loops whose bounds are read from arrays (CSR's ``for (k = rowptr[i]; k <
rowptr[i+1]; k++)``). The arrays the bounds read are the kernel's arrays like any other; the
elements the other arrays reach are scanned on the host from those bounds, so the tuned file
needs no size the function does not have (a spec's ``nnz``)."""

import subprocess

import pytest
from conftest import write

from orcu.analysis.nest import analyze
from orcu.driver import api
from orcu.planning.program import load

# {rows} rows whose lengths cycle through 0..{cycle}-1, starting at element {start} (the ones
# before it are never read): short rows, empty rows, a first row that is not at 0.
INIT = """void init_input_vars()
{{
    int k = {start};
    for (int r = 0; r < {rows}; r++) {{
        {ptr}[r] = k;
        for (int e = 0; e < (r * 5) % {cycle} && k < {nnz}; e++)
            {idx}[k++] = (r * 11 + e * 17) % {rows};
    }}
    {ptr}[{rows}] = k;
}}
"""

CSR = """void spmv(int {rows}, const int *{ptr}, const int *{idx}, const {t} *val, const {t} *x, {t} *y)
{{
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param {rows}[] = [{n}]; param {nnz}[] = [{entries}]; }}
    def input_vars {{
        decl dynamic int {ptr}[{rows}+1] = 0;
        decl dynamic int {idx}[{nnz}] = 0;
        decl dynamic {t} val[{nnz}] = random;
        decl dynamic {t} x[{rows}] = random;
        decl dynamic {t} y[{rows}] = random;
        arg init_file = 'init.c';
    }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
{loop}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

# The row's sum in a local, or straight into y; the rows counted up or down.
LOOPS = {
    "local": """    for (int i = 0; i < {rows}; i++) {{
        {t} s = 0;
        for (int k = {ptr}[i]; k < {ptr}[i+1]; k++)
            s += val[k] * x[{idx}[k]];
        y[i] = s;
    }}""",
    "into_y_down": """    for (int i = {rows} - 1; i >= 0; i--)
        for (int k = {ptr}[i]; k < {ptr}[i + 1]; ++k)
            y[i] += val[k] * x[{idx}[k]];""",
}

MAPPINGS = {
    "orio": ("param TC[] = [32, 64]; param UIF[] = [1, 2];", "threadCount=TC, unrollInner=UIF"),
    "auto": ("", "mapping='auto'"),
}


def _csr(
    in_tmp,
    t="double",
    loop="local",
    mapping="orio",
    rows="n",
    ptr="rowptr",
    idx="col",
    nnz="nnz",
    n=77,
    entries=400,
    start=3,
):
    params, transform = MAPPINGS[mapping]
    names = dict(rows=rows, ptr=ptr, idx=idx, nnz=nnz, t=t)
    write(in_tmp / "init.c", INIT.format(start=start, cycle=7, rows=rows, ptr=ptr, idx=idx, nnz=nnz))
    write(
        in_tmp / "spmv.c",
        CSR.format(params=params, transform=transform, n=n, entries=entries, loop=LOOPS[loop].format(**names), **names),
    )


@pytest.mark.parametrize("t", ["double", "float"])
@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_csr_spmv_tunes_every_variant_right_and_writes_the_tuned_file(in_tmp, t, loop, mapping):
    _csr(in_tmp, t, loop, mapping)
    result = api.tune("spmv.c", backend="emulate", progress=False)
    statuses = [r.statuses for r in result.regions]
    assert all(set(s) == {"ok"} for s in statuses), statuses
    tuned = (in_tmp / "spmv.tuned.cu").read_text()
    assert "nnz" not in tuned.split("#ifdef ORCU_ORIGINAL")[0].split("// The elements each array")[-1].split("}")[0]


def test_the_extents_of_a_csr_loop_come_from_its_bounds(in_tmp):
    _csr(in_tmp, rows="m", ptr="p", idx="j", nnz="count")
    program = load("spmv.c")
    facts = {a.name: a for a in analyze(program.src, program.nests[0], program.spec).arrays}
    assert (facts["p"].read, facts["p"].extent_source, facts["p"].extent) == (True, "affine", "m + 1")
    for name in ("val", "j"):
        assert facts[name].extent_source == "runtime"
        assert "count" not in facts[name].extent and "p[i + 1]" in facts[name].extent
    assert facts["x"].extent == "m"  # read through j: its declared size


BSR = """void bsr(int nb, const int *bptr, const double *val, const double *x, double *y)
{
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32]; }
    def input_params { param nb[] = [40]; param nnzb[] = [90]; }
    def input_vars {
        decl dynamic int bptr[nb+1] = 0;
        decl dynamic double val[4*nnzb] = random;
        decl dynamic double x[4*nb] = random;
        decl dynamic double y[nb] = 0;
        arg init_file = 'init.c';
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (int i = 0; i < nb; i++) {
        double s = 0;
        for (int b = bptr[i]; b < bptr[i+1]; b++)
            for (int e = 4*b; e < 4*b + 4; e++)
                s += val[e] * x[4*i + e % 4];
        y[i] = s;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_a_blocked_loop_inside_a_loop_with_read_bounds_reaches_as_far_as_its_blocks(in_tmp):
    """val[e] for e in [4b, 4b + 4), b in [bptr[i], bptr[i+1]): the scan steps i and b."""
    write(
        in_tmp / "init.c",
        "void init_input_vars()\n{\n    int k = 0;\n    for (int i = 0; i < nb; i++) {\n"
        "        bptr[i] = k;\n        k += i % 4;\n        if (k > nnzb) k = nnzb;\n    }\n"
        "    bptr[nb] = k;\n}\n",
    )
    write(in_tmp / "bsr.c", BSR)
    result = api.tune("bsr.c", backend="emulate", progress=False)
    assert [r.statuses for r in result.regions] == [{"ok": 1}]
    assert "for (long long b = bptr[i]; b < bptr[i + 1]; b += 1)" in (in_tmp / "bsr.tuned.cu").read_text()


WRITES_BOUNDS = """void f(int n, int *rowptr, double *v, double *y)
{{
    /*@ begin Loop(transform CUDA({transform})
    for (int i = 0; i < n; i++)
        for (int k = rowptr[i]; k < rowptr[i+1]; k++)
            {stmt}
    ) @*/
    for (int i = 0; i < n; i++)
        for (int k = rowptr[i]; k < rowptr[i+1]; k++)
            {stmt}
    /*@ end @*/
}}
"""


def _check(in_tmp, text: str) -> str:
    write(in_tmp / "t.c", text)
    proc = subprocess.run(["orcu", "check", "t.c", "--input", "n=10"], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stdout
    return proc.stderr


@pytest.mark.parametrize("stmt", ["rowptr[i+1] = rowptr[i+1] - 1;", "rowptr[i] += 1;"])
def test_a_loop_that_writes_what_its_bounds_read_is_not_run_in_parallel(in_tmp, stmt):
    out = _check(in_tmp, WRITES_BOUNDS.format(transform="threadCount=32", stmt=stmt))
    assert (
        "t.c:6:13: error: loop-carried dependence:" in out and "writes what the bounds of the loop on 'k' read" in out
    )
    out = _check(in_tmp, WRITES_BOUNDS.format(transform="mapping='auto'", stmt=stmt))
    assert "no loop of this nest can run in parallel" in out and "writes what the bounds of the loop on 'k' read" in out


def test_a_file_without_a_spec_is_told_to_declare_what_read_bounds_reach(in_tmp):
    text = WRITES_BOUNDS.format(transform="threadCount=32", stmt="y[i] += v[k];")
    out = _check(in_tmp, text.replace("int *rowptr", "const int *rowptr"))
    assert (
        "t.c:1:41: error: cannot size 'v' from its subscripts (the bounds of its loops are read from arrays), and the "
        "file has no tuning spec: declare it in input_vars"
    ) in out


def test_data_on_device_is_a_status_where_the_host_cannot_scan_the_bounds(in_tmp):
    _csr(in_tmp)
    text = (in_tmp / "spmv.c").read_text().replace("threadCount=TC, unrollInner=UIF", "threadCount=32, dataOnDevice=D")
    write(in_tmp / "spmv.c", text.replace("param TC[] = [32, 64]; param UIF[] = [1, 2];", "param D[] = [False, True];"))
    result = api.tune("spmv.c", backend="emulate", progress=False)
    assert [r.statuses for r in result.regions] == [{"ok": 1, "invalid": 1}]
