import pytest
from conftest import EXAMPLES, write

from orcu.analysis.nest import analyze
from orcu.errors import AnalysisError, OrcuError
from orcu.frontend.host import Sync, Touch
from orcu.planning.program import load


def nest_of(
    in_tmp,
    body,
    decls="int n, double *a, double *b, int *idx",
    pre="  int i, j;\n  double s, t;\n  float f;\n  int m;\n",
):
    text = f"void g({decls}) {{\n{pre}  /*@ begin Loop(transform CUDA()\n{body}\n  ) @*/\n  /*@ end @*/\n}}\n"
    write(in_tmp / "t.c", text)
    program = load("t.c")
    return program, program.nests[0]


def analysis(in_tmp, body, **kw):
    program, nest = nest_of(in_tmp, body, **kw)
    return analyze(program.src, nest, program.spec)


def rejected(in_tmp, body):
    program, nest = nest_of(in_tmp, body)
    with pytest.raises(AnalysisError) as info:
        analyze(program.src, nest, program.spec)
    return info.value.render()


def test_dia_facts():
    program = load(EXAMPLES / "spmv_dia.c")
    a = analyze(program.src, program.nests[0], program.spec)
    facts = {x.name: (x.element, x.read, x.written, x.extent, x.extent_source, x.chunkable) for x in a.arrays}
    assert facts == {
        "offsets": ("int", True, False, "ndiags", "affine", False),
        "y": ("double", True, True, "nrows", "affine", True),
        "A": ("double", True, False, "ndiags*nrows", "affine", False),  # A[i + j*nrows]
        "x": ("double", True, False, "(m*n*dof)", "input_vars", False),  # x[col]: data-dependent
    }
    assert a.private == ("col", "j") and a.scalars_in == ("nrows", "ndiags") and a.reductions == ()


@pytest.mark.parametrize(
    "stmt, var, op",
    [
        ("s += a[i] * b[i];", "s", "+"),
        ("s = s + a[i];", "s", "+"),
        ("s = a[i] + s;", "s", "+"),
        ("s -= a[i];", "s", "+"),
        ("s = s - a[i];", "s", "+"),
        ("s *= a[i];", "s", "*"),
        ("s = a[i] * s;", "s", "*"),
        ("s = fmax(s, a[i]);", "s", "max"),
        ("s = fmin(a[i], s);", "s", "min"),
        ("if (a[i] > s) s = a[i];", "s", "max"),
        ("if (s > a[i]) { s = a[i]; }", "s", "min"),
        ("if (s <= a[i]) s = a[i];", "s", "max"),
        ("s = (a[i] > s) ? a[i] : s;", "s", "max"),
        ("s = (a[i] < s) ? a[i] : s;", "s", "min"),
        ("f += (float) a[i];", "f", "+"),
        ("m = max(m, idx[i]);", "m", "max"),
    ],
)
def test_reduction_forms(in_tmp, stmt, var, op):
    a = analysis(in_tmp, f"  for (i = 0; i < n; i++)\n    {stmt}")
    (r,) = a.reductions
    types = {"s": "double", "f": "float", "m": "int"}
    assert (r.var, r.op, r.ctype, r.loc.line) == (var, op, types[var], 8)


def test_reduction_inside_an_inner_loop(in_tmp):
    a = analysis(in_tmp, "  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n      s += a[i + j*n];")
    assert [(r.var, r.op) for r in a.reductions] == [("s", "+")]
    assert a.array("a").extent == "n*n"


def test_loop_carried_array_dependence_is_rejected(in_tmp):
    assert rejected(in_tmp, "  for (i = 1; i < n; i++)\n    a[i] = a[i-1] + b[i];") == (
        "t.c:8:12: error: loop-carried dependence on 'a': 'a[i]' (line 8) and 'a[i - 1]' (line 8) touch the same elements"
        " in different iterations of 'i'\n"
        "    a[i] = a[i-1] + b[i];\n"
        "           ^"
    )


def test_same_element_written_by_every_iteration(in_tmp):
    assert rejected(in_tmp, "  for (i = 0; i < n; i++)\n    a[0] = b[i];").startswith(
        "t.c:8:5: error: every iteration of 'i' writes the same elements of 'a' (the subscript does not depend on 'i')"
    )


def test_scatter_cannot_be_proven(in_tmp):
    assert rejected(in_tmp, "  for (i = 0; i < n; i++)\n    a[idx[i]] = b[i];").startswith(
        "t.c:8:5: error: cannot prove that iterations of 'i' touch different elements of 'a': 'a[idx[i]]' is not affine"
    )


def test_scalar_carried_between_iterations(in_tmp):
    assert rejected(in_tmp, "  for (i = 0; i < n; i++) {\n    t = t * 0.5 + b[i];\n    a[i] = t;\n  }") == (
        "t.c:8:5: error: 't' carries a value from one iteration of the outer loop to the next (loop-carried dependence)\n"
        "    t = t * 0.5 + b[i];\n"
        "    ^"
    )


def test_reduced_scalar_used_elsewhere(in_tmp):
    assert rejected(in_tmp, "  for (i = 0; i < n; i++) {\n    s += b[i];\n    a[i] = s;\n  }").startswith(
        "t.c:9:5: error: 's' is used here outside its reduction, so iterations of the outer loop depend on each other"
    )


def test_private_scalar_and_offset_extent(in_tmp):
    a = analysis(in_tmp, "  for (i = 0; i < n; i++) {\n    t = b[i+1] * 2.0;\n    a[i] = t + b[i];\n  }")
    assert a.private == ("t",)
    assert (a.array("b").extent, a.array("b").chunkable) == ("n + 1", False)
    assert (a.array("a").extent, a.array("a").chunkable) == ("n", True)


def test_unknown_extent(in_tmp):
    a = analysis(in_tmp, "  for (i = 0; i < n; i++)\n    a[i] = b[idx[i]];")
    assert (a.array("b").extent, a.array("b").extent_source) == (None, None)
    assert a.array("idx").extent == "n"


def test_a_loop_without_a_transform_runs_on_the_host(in_tmp):
    # Orio leaves a loop no transform names as it is: orcu runs it on the host, after the kernel
    program, nest = nest_of(in_tmp, "  for (i = 0; i < n; i++) a[i] = 0;\n  for (i = 0; i < n; i++) b[i] = 0;")
    assert len(program.nests) == 1 and program.hosts[0].left == (8,)
    host = program.hosts[0]
    assert host.code({0: "kernel();"}).splitlines() == ["kernel();", "for (i = 0; i < n; i++)", "  b[i] = 0;"]
    # the host loop writes part of b: where the arrays stay on the device, the whole of b comes
    # back before the loop (what it leaves alone must stay as the kernels left it) and goes to the
    # device after it
    assert host.text.splitlines() == [
        "orcu_loop_0();",
        "orcu_sync_0();",
        "for (i = 0; i < n; i++)",
        "  b[i] = 0;",
        "orcu_sync_1();",
    ]
    assert host.syncs == {0: Sync(False, (Touch("b", None),)), 1: Sync(True, (Touch("b", None),))}


@pytest.mark.parametrize("name", ["axpy.c", "dot.c", "multi_axpy.c", "norm2.c", "two_regions.c", "vecscale.c"])
def test_every_example_is_parallel_with_known_extents(name):
    program = load(EXAMPLES / name)
    for nest in program.nests:
        a = analyze(program.src, nest, program.spec)
        assert all(x.extent for x in a.arrays)


@pytest.mark.parametrize(
    "body, diagnostic",
    [
        (
            "  for (i = 0; i < n; i++) {\n    if (a[i] < 0) break;\n    b[i] = a[i];\n  }",
            "t.c:8:19: error: 'break' out of the parallel loop 'i': its iterations run at once on many threads, so none can stop the others",
        ),
        (
            "  for (i = 0; i < n; i++) {\n    if (a[i] < 0) return;\n    b[i] = a[i];\n  }",
            "t.c:8:19: error: 'return' is not supported in a Loop region",
        ),
        (
            "  for (i = 0; i < n; i++) {\n    if (a[i] < 0) goto out;\n    b[i] = a[i];\n  }",
            "t.c:8:19: error: 'goto' is not supported in a Loop region",
        ),
        (
            "  for (i = 0; i < n; i++) {\n    if (a[i] < 0) { switch (n) { default: b[i] = 0; } }\n  }",
            "t.c:8:21: error: 'switch' is not supported in a Loop region",
        ),
    ],
)
def test_jumps_out_of_the_parallel_loop_are_refused(in_tmp, body, diagnostic):
    with pytest.raises(OrcuError) as info:  # from the lowering or from the analysis
        program, nest = nest_of(in_tmp, body)
        analyze(program.src, nest, program.spec)
    assert info.value.render().split("\n")[0] == diagnostic


@pytest.mark.parametrize(
    "body, where",
    [
        ("  for (i = 0; i < n; i++) {\n    static int calls = 0;\n    calls++;\n    b[i] = a[i] + calls;\n  }", "8:16"),
        (
            "  for (i = 0; i < n; i++)\n    for (int j = 0; j < 2; j++) {\n      static float last;\n"
            "      b[i] = last;\n      last = a[i];\n    }",
            "9:20",
        ),
    ],
)
def test_a_static_variable_in_the_loop_is_refused(in_tmp, body, where):
    """Each iteration would see what the one before left (fibers in the emulation run the
    iterations in order and agreed), where threads on a GPU run them at once."""
    with pytest.raises(OrcuError) as info:
        program, nest = nest_of(in_tmp, body)
        analyze(program.src, nest, program.spec)
    assert info.value.render().split("\n")[0].startswith(f"t.c:{where}: error: the static variable ")


@pytest.mark.parametrize(
    "body, where",
    [
        ("  for (i = 0; i < n; i++) {\n    b[i] = a[i];\n    if (a[i] > 0.5f) i++;\n  }", "t.c:9:5"),
        (
            "  for (i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) {\n      b[j] += a[i];\n      j += 1;\n    }",
            "t.c:10:7",
        ),
    ],
)
def test_an_iterator_the_body_assigns_is_refused(in_tmp, body, where):
    """Its variants ran other iterations than the loop's (a compile error, a wrong result)."""
    with pytest.raises(OrcuError) as info:
        program, nest = nest_of(in_tmp, body)
        analyze(program.src, nest, program.spec)
    assert info.value.render().split("\n")[0].startswith(f"{where}: error: the body assigns ")


def test_a_write_a_continue_may_skip_is_not_a_full_overwrite(in_tmp):
    a = analysis(in_tmp, "  for (i = 0; i < n; i++) {\n    if (a[i] < 0) continue;\n    b[i] = a[i];\n  }")
    assert a.array("b").dense_write is False and a.array("b").written
    a = analysis(in_tmp, "  for (i = 0; i < n; i++) {\n    b[i] = a[i];\n  }")
    assert a.array("b").dense_write is True


def test_jumps_of_inner_loops_stay_with_them(in_tmp):
    program, nest = nest_of(
        in_tmp,
        "  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++) {\n      if (a[j] > b[i]) break;\n"
        "      if (a[j] < 0) continue;\n      b[i] += a[j];\n    }",
    )
    outer, inner = nest.loops()
    assert outer.jumps == () and [(j.kind, j.loc.line) for j in inner.jumps] == [("break", 9), ("continue", 10)]
    a = analyze(program.src, nest, program.spec)
    # the inner loop may stop anywhere, so its bounds give no size for 'a'; 'b' is outside it
    assert (a.array("a").extent, a.array("b").extent) == (None, "n")
