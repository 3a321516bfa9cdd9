"""What must hold before any variant of a file is built: checked alike by `orcu check` and
`orcu tune`, so that a file that checks clean gets past every check tune makes before it
builds, and a file that check refuses is refused by tune at once, with the same diagnostic.

For every region and input size: the configurations exist once the transform arguments'
own ranges and the device's limits are applied (a value that no configuration can satisfy
is a diagnostic at its argument; values that only some configurations have remove those,
with the reason), and the first configuration generates (dependences, array extents,
transform arguments) into a harness that can declare and fill every array. What depends
on one configuration alone and fails only for it is that variant's status during the tune.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from orcu.codegen.region import generate
from orcu.device import Device
from orcu.driver.writeback import MIXED_FRAGMENT
from orcu.errors import AnnotationError, OrcuError
from orcu.execution.harness import harness_source
from orcu.frontend.ir import LoopNest
from orcu.planning.program import Program
from orcu.planning.space import performance_space, sizes_of
from orcu.spec.expr import Expr, NotVectorizable
from orcu.spec.model import Constraint
from orcu.spec.schedule import Schedule, block_shape
from orcu.spec.transform import ARGUMENTS
from orcu.tsg.plan import PLACEMENT_ARGUMENTS
from orcu.tsg.problems import placement_problem


@dataclass(frozen=True)
class Limits:
    """The configurations of one region and input size that can never be built."""

    constraints: tuple[Constraint, ...]
    removed: int
    of: int

    @property
    def reasons(self) -> list[str]:
        return [c.name for c in self.constraints]


def region_limits(nest: LoopNest, device: Device | None) -> tuple[Constraint, ...]:
    """Constraints on the parameters a region's transform arguments read: each argument's own
    range (preferL1Size 0, 16, 32 or 48...) and the device's limits (threads per block, blocks),
    so that no search spends its budget on configurations that cannot be built. The same
    objects for a nest and device (performance_space keeps the spaces they make)."""
    key = ("limits", device)
    if key not in nest.memo:
        nest.memo[key] = _region_limits(nest, device)
    return nest.memo[key]


def _region_limits(nest: LoopNest, device: Device | None) -> tuple[Constraint, ...]:
    out = []
    for name, expr in nest.transform.args.items():
        if not expr.names:
            continue  # a constant: checked as the file loads
        check = ARGUMENTS[name].check
        valid = replace(
            expr, text=f"valid({expr.text.strip()})", _fn=lambda env, fn=expr._fn, check=check: _holds(check, fn, env)
        )
        out.append(Constraint(f"{name} is {ARGUMENTS[name].expects}", valid))
    if device is not None:
        for arg, limit, what in (
            ("threadCount", device.max_threads_per_block, "threads per block"),
            ("blockCount", device.max_grid_x, "blocks"),
        ):
            expr = nest.transform.args.get(arg)
            if expr is None or not expr.names:
                continue  # a literal: the runner marks it invalid, with its reason
            bound = replace(
                expr,
                text=f"({expr.text.strip()}) <= {limit}",
                _fn=lambda env, fn=expr._fn, check=ARGUMENTS[arg].check, limit=limit: _within(check, fn, env, limit),
            )
            out.append(Constraint(f"{arg} <= {limit} ({what} of {device.name})", bound))
    placing = [a for a in PLACING if a in nest.transform.args and nest.transform.args[a].names]
    if nest.recipe is not None and placing:
        names = frozenset().union(*(nest.transform.args[a].names for a in placing))
        fits = Expr(text="placed(...)", loc=nest.loc, names=names, _fn=lambda env: _placed(nest, env, device))
        out.append(
            Constraint(
                "the TSG's block shape and placements (registerTile, shared, sharedDepth, vectorize, tensorCores, "
                "doubleBuffer) fit the mapping" + (f" and the shared memory of {device.name}" if device else ""),
                fits,
            )
        )
    return tuple(out)


# The transform arguments the TSG's placements depend on (the others may be parameters too).
PLACING = ("mapping", "threadCount", "tile", *PLACEMENT_ARGUMENTS, "vectorize", "doubleBuffer", "tensorCores")


def _placed(nest: LoopNest, env, device: Device | None) -> bool:
    """Whether one configuration's block shape and Phase II's decisions can run its schedule
    (tsg/schedule.py, tsg/phase2.py)."""
    if any(isinstance(v, np.ndarray) for v in env.values()):
        raise NotVectorizable("placements are checked point by point")
    values = nest.transform.values(env, PLACING)  # env holds their parameters alone
    schedule = Schedule.parse(values["mapping"])
    if schedule is None:
        return True  # Orio's mapping
    shape = block_shape(schedule, values["threadCount"], values["tile"])
    if isinstance(shape, str):
        return False
    return placement_problem(nest, values, schedule, shape, device.shared_per_block if device else 1 << 62) is None


def _holds(check, fn, env):
    """Whether the argument's value is in its range: for one configuration, or elementwise for a
    block of them (the space passes arrays of values)."""
    try:
        value = fn(env)
    except NotVectorizable:
        raise
    except OrcuError:  # an expression that fails for these values (a division by zero): no value at all
        return False
    return _each(value, env, lambda v: bool(check(v)))


def _within(check, fn, env, limit):
    return _each(
        fn(env), env, lambda v: not check(v) or v is None or v <= limit
    )  # an invalid value is the range's business


def _each(value, env, test):
    """``test`` of a value, or of each value of an array of them (a dict or list holding arrays
    is evaluated point by point instead)."""
    if not isinstance(value, np.ndarray) and any(isinstance(v, np.ndarray) for v in env.values()):
        raise NotVectorizable("a value that is not an array")
    if isinstance(value, np.ndarray):  # a block holds few distinct values: each is tested once
        try:
            distinct, inverse = np.unique(value.ravel(), return_inverse=True)
        except TypeError:  # values NumPy cannot order (mixed types): each on its own
            distinct, inverse = value.ravel(), np.arange(value.size)
        tested = np.fromiter(
            (test(v.item() if isinstance(v, np.generic) else v) for v in distinct), dtype=bool, count=distinct.size
        )
        return tested[inverse.reshape(-1)]
    return test(value)


def limits(program: Program, region: int, inputs: Mapping[str, Any], device: Device | None) -> Limits:
    program = program.of_nest(region)
    constraints = region_limits(program.nests[region], device)
    if not constraints:
        size = performance_space(program, dict(inputs)).size
        return Limits((), 0, size)
    within = performance_space(program, dict(inputs), constraints)
    before = performance_space(program, dict(inputs))
    removing = tuple(c for c in constraints if performance_space(program, dict(inputs), (c,)).size < before.size)
    return Limits(removing, before.size - within.size, before.size)


def preflight(program: Program, device: Device | None) -> list[list[Limits]]:
    """The limits of each region at each input size; a located diagnostic for anything that
    would stop a tune before it builds."""
    for host, region in zip(program.hosts, program.regions):
        if program.nests[host.nests[0]].function is None and not program.fragment:
            raise program.src.error(region.start, MIXED_FRAGMENT, AnnotationError)
    out = []
    for k, nest in enumerate(program.nests):
        view = program.of_nest(k)  # nest k's spec
        per_input = []
        for inputs in sizes_of(program, k):
            found = limits(view, k, inputs, device)
            space = performance_space(view, dict(inputs), found.constraints)
            params = space.config(0)
            code = generate(view, nest, params, dict(inputs))
            harness_source(view, k, [code], dict(inputs))
            per_input.append(found)
        out.append(per_input)
    return out
