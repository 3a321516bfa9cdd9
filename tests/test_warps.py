"""tsg/warps.py: the (warp, register-tile iteration) pairs of a launch that issue requests,
against every lane of every block enumerated."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from orcu.tsg.figures import WARP
from orcu.tsg.warps import Axis, issuing


def enumerated(shape: tuple[int, int], axes: dict[str, Axis]) -> int:
    """Each block, warp and tile iteration with a lane inside every grid loop's end."""
    lanes = shape[0] * shape[1]
    pairs = 0
    for bx in range(axes["x"].blocks):
        for by in range(axes["y"].blocks):
            for first in range(0, lanes, WARP):
                for rx in range(axes["x"].tile):
                    for ry in range(axes["y"].tile):
                        pairs += any(
                            _inside(axes["x"], shape[0], bx, rx, lane % shape[0])
                            and _inside(axes["y"], shape[1], by, ry, lane // shape[0])
                            for lane in range(first, min(first + WARP, lanes))
                        )
    return pairs


def _inside(axis: Axis, threads: int, block: int, r: int, thread: int) -> bool:
    if axis.trip is None:
        return True
    w = axis.width  # groups of w consecutive iterations, the groups a block apart
    at = block * threads * axis.tile + r // w * threads * w + thread * w + r % w
    return at < axis.trip


@st.composite
def launches(draw):
    tx = draw(st.sampled_from([1, 4, 16, 32, 48, 64, 128]))
    ty = draw(st.sampled_from([1, 2, 3, 8])) if tx <= 64 else 1
    axes = {}
    for name, threads in (("x", tx), ("y", ty)):
        if draw(st.booleans()):  # every thread runs along it (no grid loop, or a split's rows)
            axes[name] = Axis(draw(st.integers(1, 3)), None)
            continue
        width = draw(st.sampled_from([1, 2, 4])) if name == "x" else 1
        tile = width * draw(st.sampled_from([1, 2]))
        trip = draw(st.integers(1, 3 * threads * tile))
        axes[name] = Axis(math.ceil(trip / (threads * tile)), trip, tile, width)
    return (tx, ty), axes


@settings(max_examples=300, deadline=None)
@given(launches())
def test_the_issuing_pairs_are_those_with_a_lane_inside(launch):
    shape, axes = launch
    assert issuing(shape, axes) == enumerated(shape, axes)


def test_a_block_the_ends_do_not_cut_issues_every_pair():
    axes = {"x": Axis(4, 4 * 32 * 2, 2), "y": Axis(3, 3 * 8, 1)}
    assert issuing((32, 8), axes) == 4 * 3 * 8 * 2


def test_the_last_blocks_warps_past_the_end_issue_nothing():
    """2000 iterations over blocks of 256 threads: 8 blocks of 8 warps, the last one's warp at
    2016 past the end, the one at 1984 half inside."""
    assert issuing((256, 1), {"x": Axis(8, 2000), "y": Axis(1, None)}) == 63
    # ... a register tile of 2, each thread's iterations a block apart: 4 blocks of 512, the last
    # one's first iteration at 1536 (8 warps inside), its second at 1792 (7: the eighth at 2016)
    assert issuing((256, 1), {"x": Axis(4, 2000, 2), "y": Axis(1, None)}) == 3 * 16 + 8 + 7
    # ... 2-D, 32 x 8 threads: along y 20 rows in blocks of 8, the third block's rows 16-19 inside
    assert issuing((32, 8), {"x": Axis(1, 32), "y": Axis(3, 20)}) == 2 * 8 + 4
