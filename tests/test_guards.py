"""Which statements of a register tile run under their iteration's guard (codegen/tiled.py): a
statement that reads shared tiles, registers and global elements no grid loop moves runs for
every iteration of the tile, its value kept only where the iteration is one the loops run; a
statement that reads or writes what the grid loops move, or that branches, keeps its guard."""

import re
import subprocess

import pytest
from conftest import EXAMPLES, H100, write

from orcu.codegen.region import generate
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.runners import Runner
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import performance_space

CONV = {
    "TC": 64,
    "mapping_1": "x=j y=i",
    "registers_i_1": 4,
    "registers_j_1": 2,
    "shared_in_1": True,
    "shared_mask_1": False,
    "constant_mask_1": False,
}


def conv2d(text: str | None = None, in_tmp=None):
    if text is None:
        return load(EXAMPLES / "conv2d.c", device=H100)
    write(in_tmp / "conv2d.c", text)
    return load(in_tmp / "conv2d.c", device=H100)


def kernel_statements(text: str) -> list[str]:
    """The multiply-adds of the kernel, each with the line before it."""
    lines = text.splitlines()
    return [lines[k - 1].strip() + " " + line.strip() for k, line in enumerate(lines) if "+= in_shared" in line]


def test_the_mask_read_by_every_iteration_of_the_tile_is_read_without_a_guard(in_tmp):
    """conv2d's mask[p * k + q] is the same element for the 8 iterations of a 4 x 2 tile: no guard
    keeps nvcc from loading it once for them all (one global load a tap, not one a multiply-add)."""
    program = conv2d()
    inputs = {"n": 64, "m": 45, "k": 5}
    config = performance_space(program, inputs).first_matching(CONV)
    code = generate(program, program.nests[0], config, inputs)
    found = kernel_statements(code.text)
    assert len(found) == 2 * 8  # the unrolled strip's and the remainder's
    assert not [s for s in found if "if (" in s]
    assert "if (i_3 < n && j_1 < m) {\n" in code.text  # the stores keep theirs
    (in_tmp / "t.cu").write_text(tuned_source(program, [Choice(config, inputs)])[0])
    subprocess.run(
        [nvcc(), "-ptx", "-arch=sm_90", "-O3", "t.cu", "-o", "t.ptx"], cwd=in_tmp, check=True, capture_output=True
    )
    ptx = (in_tmp / "t.ptx").read_text()
    fmas, loads = len(re.findall(r"\bfma\.rn\.f32\b", ptx)), len(re.findall(r"\bld\.global\.", ptx))
    assert loads * 4 <= fmas, (loads, fmas)  # with a guard a statement: more loads than multiply-adds


@pytest.mark.parametrize(
    "statement, guarded",
    [
        # a weight no grid loop moves: read by the block's first iteration too
        ("acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];", False),
        # what the grid loop i moves: past the arrays' end for an iteration past the loop's
        ("acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q] * w[i];", True),
        # read only where a condition holds: not every iteration reads it
        ("acc += in[(i + p)*(m + k - 1) + j + q] * (i > 0 ? mask[p*k + q] : 1.0f);", True),
    ],
)
def test_a_statement_keeps_its_guard_where_it_reads_what_the_grid_moves_or_branches(in_tmp, statement, guarded):
    """Each variant right at edge sizes too, where a block's iterations run past the loops' ends."""
    original = "acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];"
    text = (
        (EXAMPLES / "conv2d.c")
        .read_text()
        .replace(original, statement)
        .replace("const float *mask,", "const float *mask, const float *w,")
        .replace(
            "decl dynamic float mask[k*k] = random;",
            "decl dynamic float mask[k*k] = random;\n        decl dynamic float w[n] = random;",
        )
    )
    program = conv2d(text, in_tmp)
    inputs = {"n": 33, "m": 45, "k": 5}
    space = performance_space(program, inputs)
    config = space.first_matching(
        {k: v for k, v in CONV.items() if k in space.names}
    )  # a mask read under a condition: not shared
    assert config["registers_i_1"] * config["registers_j_1"] == 8
    code = generate(program, program.nests[0], config, inputs)
    assert all(("if (" in s) == guarded for s in kernel_statements(code.text))
    (result,) = Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, [(config, inputs)])
    assert (result.status, result.message) == ("ok", "")
