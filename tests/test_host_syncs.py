"""What each host statement between a region's kernels copies when the arrays stay on the device
(frontend/host_syncs.py): the elements one assignment or declaration names, the whole arrays
anything else names, and the host code that cannot keep them there."""

import pytest
from pycparser import c_parser

from orcu.frontend.host import Sync, Touch, statement_text
from orcu.frontend.host_syncs import marked
from orcu.frontend.ir import CType, Variable

VARIABLES = {
    name: Variable(name, ctype, "parameter", None)
    for name, ctype in {
        "a": CType("double", 1),
        "b": CType("float", 1),
        "idx": CType("int", 1),
        "L": CType("double", 0, ("n", "n")),
        "M": CType("double", 2),
        "p": CType("point", 1),
        "i": CType("int"),
        "j": CType("int"),
        "n": CType("int"),
        "w": CType("double"),
    }.items()
}


def _items(code: str):
    tree = c_parser.CParser().parse("void f(void) {\n" + code + "\n}")
    return tree.ext[0].body.block_items


def _syncs(code: str, kernel_writes=frozenset()):
    found = marked(_items(code), VARIABLES, set(kernel_writes))
    assert not isinstance(found, str), found
    return found


def element(array, text):
    return Touch(array, text)


def whole(array):
    return Touch(array, None)


@pytest.mark.parametrize(
    "statement, reads, writes",
    [
        ("a[i] = b[j] + w;", [element("b", "b[j]")], [element("a", "a[i]")]),
        ("a[i + 1] += 2.0;", [element("a", "a[i + 1]")], [element("a", "a[i + 1]")]),
        (
            "b[idx[i]] = a[idx[j]];",
            [element("idx", "idx[i]"), element("idx", "idx[j]"), element("a", "a[idx[j]]")],
            [element("b", "b[idx[i]]")],
        ),
        ("double v = L[i][i] * M[j][i];", [element("L", "L[i][i]"), element("M", "M[j][i]")], []),
        ("L[j][i]--;", [element("L", "L[j][i]")], [element("L", "L[j][i]")]),
        # a member written: the element comes back first, so the other members it sends are current
        ("p[i].x = 1.0f;", [element("p", "p[i]")], [element("p", "p[i]")]),
        # a subscript the statement changes: the element it names after is another one
        ("a[i++] = w;", [whole("a")], [whole("a")]),
        # a loop left to the host, and a call given an array: whole arrays
        ("for (j = 0; j < n; j++) a[j] = b[j];", [whole("a"), whole("b")], [whole("a")]),
        ("memset(a, 0, n * sizeof(double));", [whole("a")], [whole("a")]),
        ("w = sqrt(a[i]) + sizeof(b);", [element("a", "a[i]")], []),
    ],
)
def test_each_statement_moves_what_it_touches(statement, reads, writes):
    items, syncs = _syncs("orcu_loop_0();\n" + statement + "\norcu_loop_1();")
    expected = ([Sync(False, tuple(reads))] if reads else []) + ([Sync(True, tuple(writes))] if writes else [])
    assert list(syncs.values()) == expected
    texts = [statement_text(item) for item in items]
    assert texts[0] == "orcu_loop_0();" and texts[-1] == "orcu_loop_1();"
    assert texts[1:-1] == (["orcu_sync_0();"] if reads else []) + [statement_text(_items(statement)[0])] + (
        [f"orcu_sync_{len(syncs) - 1}();"] if writes else []
    )


def test_statements_inside_the_host_loops_around_kernels_are_marked_where_they_stand():
    items, syncs = _syncs(
        "for (i = 0; i < n; i++) {\n  w = b[i];\n  orcu_loop_0();\n  if (i > 0)\n    a[i] = w / L[i][i];\n}"
    )
    assert [statement_text(item) for item in items] == [
        "for (i = 0; i < n; i++)\n{\n  orcu_sync_0();\n  w = b[i];\n  orcu_loop_0();\n"
        "  orcu_sync_1();\n  if (i > 0)\n    a[i] = w / L[i][i];\n  orcu_sync_2();\n}"
    ]
    assert syncs == {
        0: Sync(False, (element("b", "b[i]"),)),
        1: Sync(False, (whole("L"), whole("a"))),  # an `if` without a kernel: whole arrays
        2: Sync(True, (whole("a"),)),
    }


@pytest.mark.parametrize(
    "code, why",
    [
        ("orcu_loop_0();\n*a = 1.0;", "the host code uses the array 'a' as a pointer"),
        ("orcu_loop_0();\nM = 0;", "the host code assigns the array pointer 'M'"),
        ("orcu_loop_0();\nw = a == b;", "the host code uses the array 'a' as a pointer"),
        ("while (a[0] > w) {\n  orcu_loop_0();\n}", "the host code's loop or test around a kernel reads 'a'"),
        (
            "switch (n) {\n  case 1: orcu_loop_0(); a[0] = 1;\n}",
            "the host code runs a kernel inside a 'switch' statement",
        ),
    ],
)
def test_host_code_that_keeps_the_arrays_moving(code, why):
    assert marked(_items(code), VARIABLES, set()) == why


def test_host_code_that_touches_no_array_gets_no_marker():
    items, syncs = _syncs("for (i = 0; i < n; i++) {\n  w = w * 0.5;\n  orcu_loop_0();\n}")
    assert syncs == {} and [statement_text(item) for item in items] == [
        "for (i = 0; i < n; i++)\n{\n  w = w * 0.5;\n  orcu_loop_0();\n}"
    ]


@pytest.mark.parametrize(
    "code, kernel_writes, moved",
    [
        # written twice with no kernel between: the second copy carries it (a triangular solve's row)
        ("orcu_loop_0();\na[i] = w;\na[i] = a[i] * 2.0;\norcu_loop_1();", set(), False),
        # ... unless a kernel may have written the array: the copy back before the second statement
        # would fetch the device's stale element
        ("orcu_loop_0();\na[i] = w;\na[i] = a[i] * 2.0;\norcu_loop_1();", {"a"}, True),
        # a kernel between reads the device's copy
        ("a[i] = w;\norcu_loop_0();\na[i] = 2.0;", set(), True),
        # the subscript changes: the second statement writes another element
        ("orcu_loop_0();\na[i] = w;\ni = i + 1;\na[i] = 2.0;", set(), True),
        # another array's copy back between: no matter
        ("orcu_loop_0();\na[i] = w;\nw = b[j];\na[i] = a[i] + w;", {"b"}, False),
        # inside the host loop around a kernel
        (
            "for (i = 0; i < n; i++) {\n  L[i][j] = w;\n  w = w + 1.0;\n  L[i][j] = w;\n  orcu_loop_0();\n}",
            set(),
            False,
        ),
        # a statement that is not one assignment (anything may happen in it): kept
        ("orcu_loop_0();\na[i] = w;\nfor (j = 0; j < n; j++) w += 1.0;\na[i] = 2.0;", set(), True),
    ],
)
def test_an_element_written_again_before_any_kernel_reads_it_moves_once(code, kernel_writes, moved):
    _, syncs = _syncs(code, kernel_writes)
    to_device = [sync for sync in syncs.values() if sync.to_device]
    first, last = to_device[0], to_device[-1]
    assert last.touches and len(last.touches) == 1
    assert first.touches == (last.touches if moved else ())
