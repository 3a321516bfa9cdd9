"""``orcu tune``: search each region's configurations for each input size, keep the fastest.

A region is tuned over the performance parameters it uses (those in its transform and
the build command); each input-size combination is tuned separately and the tuned file
dispatches on size. Every evaluation goes to the results database first, so a repeated
or resumed tune retraces its search without running anything it already has. The top
candidates are re-timed, interleaved, and the winner picked by the median.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from orcu.codegen.region import generate, transform_values
from orcu.device import Device, occupancy
from orcu.driver.database import Context, Database, _hash
from orcu.driver.preflight import region_limits
from orcu.driver.writeback import region_parameters
from orcu.errors import OrcuError
from orcu.execution.buildflags import build_flags
from orcu.execution.metrics import Ranking, work
from orcu.execution.model import of_variant
from orcu.execution.result import RANKED, STATUSES, Result
from orcu.execution.runners import Runner, build_identity, searched
from orcu.planning.program import Program
from orcu.planning.space import performance_space, sizes_of
from orcu.search import DEFAULT, SearchSpace, drive, make
from orcu.search.registry import canonical
from orcu.spec.objectives import MEASURED_ONCE, TIME, Objective
from orcu.tsg.figures import counted_traffic
from orcu.tsg.sizes import last_wave

RETIME_CANDIDATES = 3
RETIME_ROUNDS = 3
RETIME_BAND = 1.10  # candidates within 10% of the best are too close to call on one measurement
UNSTEADY = 0.25  # a winner whose samples' interquartile range passes this share of their median
EXTRA_ROUNDS = 6  # is re-timed this many more rounds, and then, if still unsteady, reported so


@dataclass
class RegionTuning:
    region: int
    name: str
    line: int
    inputs: dict[str, Any]
    parameters: tuple[str, ...]  # the performance parameters this region uses
    strategy: str = ""
    space: int = 0
    results: list[Result] = field(default_factory=list)
    new: int = 0
    cached: int = 0
    same_build: int = 0  # configurations that are the same build as one evaluated: its result, at no cost
    no_effect: tuple[str, ...] = ()  # parameters that change nothing in the winner's build
    notes: tuple[str, ...] = ()  # what code generation says of the winner and of no_effect's values (emit --explain)
    final: Result | None = None  # the winner after re-timing
    spread: float | None = None  # interquartile range / median of the winner's re-timed samples
    runs: int = 0  # how many samples the winner's time pools
    checked: bool | None = (
        None  # --backend model: whether its winner ran against the original code (None: not a prediction)
    )
    check_note: str = ""  # where and how the prediction was checked, when not at its own size
    ranking: Ranking = field(
        default_factory=Ranking, repr=False
    )  # its metrics and objective (orcu/execution/metrics.py)

    def record(self, result: Result, origin: str, progress=None) -> float:
        """Count one result: ``origin`` "" (evaluated now), "cached" or "same build"; its cost."""
        self.ranking.assess(result)
        self.results.append(result)
        if origin == "cached":
            self.cached += 1
        elif origin == "same build":
            self.same_build += 1
        else:
            self.new += 1
        if progress is not None:
            progress(self, result, origin)
        return self.ranking.cost(result)

    @property
    def unsteady(self) -> bool:
        return self.spread is not None and self.spread > UNSTEADY

    @property
    def best(self) -> Result | None:
        if self.final is not None:
            return self.final
        ok = [r for r in self.results if self.ranking.value(r) is not None]
        return min(ok, key=self.ranking.cost) if ok else None

    @property
    def statuses(self) -> dict[str, int]:
        counts = Counter(r.status for r in self.results)
        return {s: counts[s] for s in STATUSES if counts[s]}


def region_configs(
    program: Program, region: int, inputs: dict[str, Any], device: Device | None = None
) -> list[dict[str, Any]]:
    """The distinct settings of the region's parameters over the valid configurations (and
    within ``device``'s limits), each completed by the first valid configuration that has it."""
    program = program.of_nest(region)
    nest = program.nests[region]
    return performance_space(program, inputs, region_limits(nest, device)).distinct(region_parameters(program, nest))


# Transform arguments whose parameters choose a TSG recipe (the rest size it): the TSG strategy's phases.
DECISIONS = ("mapping", "registerTile", "shared", "constant", "vectorize", "tensorCores", "unrollInner")


def region_space(program: Program, region: int, inputs: dict[str, Any], device: Device | None = None) -> SearchSpace:
    """The region's search space: each parameter's axis holds the values some valid
    configuration has (the device's limits may remove most of a range)."""
    program = program.of_nest(region)
    nest = program.nests[region]
    names = region_parameters(program, nest)
    configs = region_configs(program, region, inputs, device)
    values = []
    for n in names:
        present = {repr(c[n]) for c in configs}
        values.append(
            [v for v in next(p.values for p in program.spec.performance_params if p.name == n) if repr(v) in present]
        )
    space = SearchSpace.from_configs(names, values, configs)
    if nest.recipe is not None:  # a TSG region: what its parameters decide, and how its grids fill the device
        for arg, expr in nest.transform.args.items():
            for n in expr.names & set(names):
                if space.roles.get(n) != "decision":
                    space.roles[n] = "decision" if arg in DECISIONS else "size"
        if device is not None:
            space.waves = lambda config: last_wave(
                nest, transform_values(program, nest, config, inputs), inputs, device.multiprocessors
            )
            space.predicted = lambda config: predicted_ms(program, region, config, inputs, device)
    return space


def predicted_ms(
    program: Program, region: int, config: Mapping[str, Any], inputs: dict[str, Any], device: Device
) -> float | None:
    """The time orcu's model predicts for one configuration of ``region`` from its code's static
    traffic, before any build (None where a bound or a subscript is not a number at ``inputs``)."""
    try:
        code = generate(program, program.nests[region], config, inputs)
    except OrcuError:  # a configuration the generator refuses is measured as a failure
        return None
    prediction = of_variant(program, region, code.traffic(device.multiprocessors), inputs, device)
    return None if prediction is None else prediction.ms


def strategy_name(program: Program, requested: str | None, budget: int | None, size: int) -> str:
    """--search, else the spec's algorithm, else Exhaustive when the budget covers the space,
    else orcu.search.DEFAULT."""
    if requested:
        return canonical(requested) or requested  # --search was checked
    if "algorithm" in program.spec.search:
        return program.spec.search_algorithm
    return "Exhaustive" if budget is None or budget >= size else DEFAULT


# A search of more variants than this, with neither a budget nor a time limit, is said before it starts.
LARGE = 300


def duration(seconds: float) -> str:
    return (
        f"{seconds:.0f} s"
        if seconds < 90
        else f"{seconds / 60:.0f} min"
        if seconds < 5400
        else f"{seconds / 3600:.1f} h"
    )


def _plan_notes(budget: int | None, time_limit: float | None, sizes: list[int]) -> list[str]:
    """What a tune's plan may hold that its user did not expect: each of its (region, input size)
    pairs evaluated once at least, past the budget; a large search with no cap, in all."""
    pairs = f"{len(sizes)} region and input size pair{'s' if len(sizes) != 1 else ''}"
    if budget is not None and budget < len(sizes):
        return [
            f"orcu: note: --budget {budget} is less than the tune's {pairs}: each gets one evaluation, "
            f"{len(sizes)} in all"
        ]
    if budget is None and time_limit is None and sum(sizes) > LARGE:
        total = sum(sizes)
        return [
            f"orcu: note: {total} variants to evaluate with no budget, over the tune's {pairs} (at a second a "
            f"variant, about {duration(total)}); --budget N or --time-limit SECONDS caps the search"
        ]
    return []


def tune(
    program: Program,
    runner: Runner,
    db: Database,
    context: Callable[[int], Context],
    *,
    objective: Objective = TIME,
    search: str | None = None,
    budget: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    pipeline: bool = True,
    progress: Callable[[RegionTuning, Result, str], None] | None = None,
    started: Callable[[RegionTuning, int], None] | None = None,
    say: Callable[[str], None] | None = None,
) -> list[RegionTuning]:
    """Every (region, input size) pair gets an equal share of ``budget`` points and of
    ``time_limit`` seconds; ``objective`` ranks the variants. ``pipeline``: build the batches
    the strategy expects next while a batch runs (bench/bench_pipeline.py measures it against
    building nothing ahead). ``say``: the notes on the plan (a budget below one a pair, a large
    search with no cap)."""
    pairs = [(k, inputs) for k in range(len(program.nests)) for inputs in sizes_of(program, k)]
    share = None if budget is None else max(1, math.ceil(budget / len(pairs)))
    end = None if time_limit is None else time.monotonic() + time_limit
    spaces = [region_space(program, k, dict(inputs), runner.device) for k, inputs in pairs]
    if say is not None:
        for line in _plan_notes(budget, time_limit, [len(space) for space in spaces]):
            say(line)
    out = []
    for n, (k, inputs) in enumerate(pairs):
        nest = program.nests[k]
        spec = program.of_nest(k).spec  # the spec of the PerfTuning region that holds it
        space = spaces[n]
        name = strategy_name(program.of_nest(k), search, share, len(space))
        tuning = RegionTuning(
            k,
            f"orcu_{nest.name}",
            nest.loc.line,
            dict(inputs),
            space.names,
            name,
            len(space),
            ranking=Ranking(objective, spec, work(program, k, dict(inputs)), runner.device),
        )
        pair = _Pair(program, k, dict(inputs), space, runner, db, context(k), tuning, progress)
        strategy = make(name, space, seed, spec.search_options(name), share)
        if started is not None:
            started(tuning, min(share or len(space), len(space)))
        deadline = None if end is None else time.monotonic() + max(0.0, end - time.monotonic()) / (len(pairs) - n)
        drive(strategy, pair.evaluate, share, deadline, pair.recall, pair.alias, pair.prepare if pipeline else None)
        runner.drop_ahead()
        pair.finish(objective)
        out.append(tuning)
    return out


class _Pair:
    """One region at one input size under tuning: what the strategy's driver calls (evaluate a
    batch, recall what the database knows, alias the builds met, prepare the batches ahead), and
    what follows the search (the imported results run, the winner re-timed, the choice kept)."""

    def __init__(
        self,
        program: Program,
        k: int,
        inputs: dict[str, Any],
        space,
        runner: Runner,
        db: Database,
        ctx: Context,
        tuning: RegionTuning,
        progress: Callable[[RegionTuning, Result, str], None] | None,
    ):
        self.program, self.k, self.inputs, self.space = program, k, inputs, space
        self.runner, self.db, self.ctx, self.tuning, self.progress = runner, db, ctx, tuning, progress
        self.spec = program.of_nest(k).spec
        self.builds = _Builds(program, k, dict(inputs), runner)
        self.upcoming: list[list[tuple[dict, dict]]] = []  # what the strategy expects to ask next

    def config_key(self, params):
        build = build_flags(self.spec.build_command, params, self.runner.backend)
        return self.ctx.key(searched(self.program, self.k, params), self.inputs, build)

    def key(self, point):
        return self.config_key(self.space.config(point))

    def note(self, result, origin):
        return self.tuning.record(result, origin, self.progress)

    def recall(self, points):
        found = {}
        for p in points:
            result = _known(self.db, self.key(p), self.runner.measure)
            if result is not None:
                result = _against_runs(result, self.ctx, self.db)
                self.builds.know(self.space.config(p), result)
                found[p] = self.note(result, "cached")
        return found

    def alias(self, points):
        found = {}
        for p in points:
            result = self.builds.result(self.space.config(p))
            if result is not None:
                found[p] = self.note(result, "same build")
        return found

    def prepare(self, batches):
        """Keep the batches ahead that need a build: not in the database, not a build met."""
        self.upcoming.clear()
        for points in batches:
            configs = [self.space.config(p) for p in points]
            batch = [
                (c, dict(self.inputs))
                for c in configs
                if self.builds.result(c) is None and _known(self.db, self.config_key(c), self.runner.measure) is None
            ]
            if batch:
                self.upcoming.append(batch)

    def evaluate(self, points):
        program, k, builds, runner = self.program, self.k, self.builds, self.runner
        configs = [self.space.config(p) for p in points]
        firsts = {}  # one configuration per build not met yet
        for j, config in enumerate(configs):
            if builds.result(config) is None:
                firsts.setdefault(builds.identity(config) or f"unbuildable {j}", j)
        order = list(firsts.values())
        costs = {}
        # Each result is kept as it comes: a tune killed now loses only what is in flight.
        batch = [(configs[j], dict(self.inputs)) for j in order]
        for j, config, result in zip(order, batch, runner.evaluate(program, k, batch, ahead=self.upcoming)):
            code = builds.code(configs[j]) if builds.identity(configs[j]) else None
            if (
                result.status == "predicted"
                and code is not None
                and code.traffic(runner.device.multiprocessors) is None
            ):
                result = _counted(program, k, config, result, runner)
            _figures(program, k, code, result, runner)
            result = _against_runs(result, self.ctx, self.db)
            builds.know(configs[j], result)
            self.tuning.ranking.assess(result)  # its metrics, which the database keeps
            self.db.put(self.key(points[j]), self.ctx, result)
            costs[j] = self.note(result, "")
        for j, config in enumerate(configs):  # the same builds under other names
            if j not in costs:
                costs[j] = self.note(builds.result(config), "same build")
        return [costs[j] for j in range(len(points))]

    def finish(self, objective: Objective) -> None:
        program, runner, db, tuning, builds = self.program, self.runner, self.db, self.tuning, self.builds
        _run_imported(program, runner, db, tuning, self.config_key, builds, self.ctx)
        _retime(program, runner, db, tuning, self.config_key, builds)
        if tuning.best is not None:
            tuning.no_effect, tuning.notes = builds.no_effect(tuning.best.params, self.space)
            # what orcu apply writes; a prediction only once check_predictions ran it
            db.put_choice(
                self.ctx,
                self.inputs,
                tuning.best.params,
                tuning.best.time_ms,
                runner.measure,
                checked=runner.kind.runs,
                objective=objective_text(tuning),
            )


def _counted(program: Program, region: int, config: tuple[dict, dict], result: Result, runner: Runner) -> Result:
    """A --backend model variant whose traffic its code cannot tell, run once in the emulation:
    with the traffic it counted where it passed (the model's figures), else its status there."""
    counter = runner.counter()
    if counter is None:
        return result
    ran = next(iter(counter.evaluate(program, region, [config])))
    if ran.status != "ok":
        return dataclasses.replace(result, status=ran.status, message=f"in the emulation: {ran.message}")
    return dataclasses.replace(result, counted=ran.counted)


def _figures(program: Program, region: int, code, result: Result, runner: Runner) -> None:
    """A variant's traffic figures (static, else those its emulated run counted), ptxas's report
    of a GPU build with the occupancy it allows, and the model's prediction from them, kept with
    its result; under --backend model, a variant the model cannot predict is not ranked."""
    program = program.of_nest(region)
    traffic = code.traffic(runner.device.multiprocessors) if code is not None else None
    if traffic is None and result.counted:
        traffic = counted_traffic(result.counted)
    figures = traffic.as_dict() if traffic is not None else {}
    ptxas = result.resources
    if (
        ptxas is not None and code is not None
    ):  # a GPU build: what ptxas made of the kernel, and the occupancy it allows
        blocks, busy, limit = occupancy(runner.device, code.threads, ptxas.registers, ptxas.shared_bytes)
        figures["ptxas"] = {
            **dataclasses.asdict(ptxas),
            "blocks_per_sm": blocks,
            "occupancy": round(busy, 3),
            "limit": limit,
        }
    prediction = (
        of_variant(program, region, traffic, result.inputs, runner.device, ptxas) if result.status in RANKED else None
    )
    if prediction is not None:
        figures["model"] = prediction.as_dict()
    elif result.status == "predicted":
        result.status = "invalid"
        result.message = (
            "the model has no figures for this variant: a loop bound or a subscript is not a number at "
            "these sizes, and no C++ compiler runs the emulation that counts them"
        )
    result.figures = figures or None


class _Builds:
    """The builds one region and input size have met: configurations with the same generated
    code, flags and libraries are one build (runners.build_identity), evaluated once."""

    def __init__(self, program: Program, region: int, inputs: dict[str, Any], runner: Runner):
        program = program.of_nest(region)
        self.program, self.region, self.inputs, self.runner = program, region, inputs, runner
        self._identity: dict[str, tuple | None] = {}
        self._results: dict[str, Result] = {}

    def _of(self, config: dict[str, Any]) -> tuple | None:
        key = repr(sorted(config.items()))
        if key not in self._identity:
            self._identity[key] = build_identity(
                self.program, self.region, config, self.inputs, self.runner.backend, self.runner.device.arch
            )
        return self._identity[key]

    def identity(self, config: dict[str, Any]) -> str | None:
        found = self._of(config)
        return found[0] if found else None

    def code(self, config: dict[str, Any]):
        return self._of(config)[1]

    def know(self, config: dict[str, Any], result: Result, again: bool = False) -> None:
        """``result`` is this build's (``again``: in place of the one known, which it ran anew)."""
        identity = self.identity(config)
        if identity is not None:
            if again:
                self._results[identity] = result
            self._results.setdefault(identity, result)

    def result(self, config: dict[str, Any]) -> Result | None:
        """The result of the build this configuration is, under this configuration's name (with
        the runner's settings of the build: minBlocks where ptxas spilled it)."""
        found = self._results.get(self.identity(config) or "")
        return None if found is None else dataclasses.replace(found, params={**found.params, **config})

    def no_effect(
        self, config: dict[str, Any], space: SearchSpace, tries: int = 8
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(parameters whose other values, up to ``tries`` of them spread over the axis, make the
        same build as ``config``: they did not matter; what code generation said of ``config``
        and of those other values, as orcu emit --explain does)."""
        mine = self.identity(config)
        names, notes = [], list(self.code(config).notes)
        for name, values in zip(space.names, space.values):
            # the space's own configurations only: another value may break a constraint (a register
            # tile along a loop another mapping does not put on the grid) and make no build at all
            others = [
                other for v in values if repr(v) != repr(config[name]) and space.holds(other := {**config, name: v})
            ]
            others = others[:: max(1, len(others) // tries)][:tries]
            if others and all(self.identity(other) == mine for other in others):
                names.append(name)
                notes += [note for other in others for note in self.code(other).notes]
        return tuple(names), tuple(dict.fromkeys(notes))


def _known(db: Database, key: str, measure: str) -> Result | None:
    """The database's result for ``key``, ranked by ``measure``; None where there is none, or
    where it was imported with no samples of that measure (T4 runtimes are kernel times: a tune
    ranked by the model or the total time evaluates that configuration itself)."""
    found = db.get(key, measure)
    if found is not None and found.origin and found.status in RANKED and not found.samples:
        return None
    return found


def _against_runs(result: Result, context: Context, db: Database) -> Result:
    """A prediction of a variant that a run (another tune, any backend) found wrong takes that
    run's status: the model cannot see a wrong result."""
    if result.status != "predicted":
        return result
    wrong = db.found_wrong(context, result.params, result.inputs)
    if wrong is None:
        return result
    status, backend, message = wrong
    return dataclasses.replace(result, status=status, message=f"a tune with --backend {backend} found it so: {message}")


def objective_text(t: RegionTuning) -> str:
    """What chose the winner, where not the time: the objective and the winner's value of it."""
    best, goal = t.best, t.ranking.goal
    if goal.is_time or best is None:
        return ""
    return f"{goal.text()} = {t.ranking.value(best):.6g}"


def _contenders(tuning: RegionTuning, builds: _Builds) -> list[Result]:
    """The ok results close enough to the best to be re-timed for the win, one of each build."""
    ranking = tuning.ranking
    ok = sorted((r for r in tuning.results if r.status == "ok" and ranking.value(r) is not None), key=ranking.cost)
    top: list[Result] = []
    for r in ok:
        if not ranking.close(r, ok[0], RETIME_BAND):
            break
        if all(builds.identity(r.params) != builds.identity(t.params) for t in top):
            top.append(r)
        if len(top) == RETIME_CANDIDATES:
            break
    return top


def _run_imported(
    program: Program, runner: Runner, db: Database, tuning: RegionTuning, key, builds: _Builds, ctx: Context
) -> None:
    """An imported result (orcu import --format t4) guides the search but never wins unchecked:
    each one among the contenders runs in orcu's harness, against the original code, and its
    run replaces it, until the contenders are all orcu's own runs."""
    if runner.measure == "model":  # imported rows carry no prediction: they never rank here
        return
    while imported := [r for r in _contenders(tuning, builds) if r.origin]:
        for r in imported:
            fresh = next(runner.evaluate(program, tuning.region, [(r.params, r.inputs)]))
            _figures(
                program, tuning.region, builds.code(r.params) if builds.identity(r.params) else None, fresh, runner
            )
            builds.know(r.params, fresh, again=True)
            same = builds.identity(r.params)
            tuning.results = [
                x
                for x in tuning.results
                if x.params != r.params and not (same and x.origin and builds.identity(x.params) == same)
            ]
            tuning.record(fresh, "")
            db.put(key(r.params), ctx, fresh)


def _retime(program: Program, runner: Runner, db: Database, tuning: RegionTuning, key, builds: _Builds) -> None:
    """Run the candidates close to the best again, round-robin, and keep the lowest median.

    Timings drift (clocks, caches, other load): interleaving spreads the drift over all
    candidates instead of favouring whichever ran in a quiet moment."""
    ranking = tuning.ranking
    if runner.measure == "model" or ranking.goal.name in MEASURED_ONCE:  # a prediction is the same every time, and
        return  # energy is measured once: nothing to re-time
    top = _contenders(tuning, builds)
    if not top:
        return
    keys = [key(r.params) for r in top]
    retime_key = _hash("retime", keys, runner.measure)
    samples = db.get_retiming(retime_key)

    def rounds(count: int) -> None:
        for _ in range(count):
            for k, r in zip(keys, top):
                again = next(runner.evaluate(program, tuning.region, [(r.params, r.inputs)]))
                if again.status == "ok":
                    samples[k] += again.samples

    def winner() -> int:
        return min(range(len(top)), key=lambda j: ranking.cost(ranking.with_samples(top[j], samples[keys[j]])))

    if samples is None:
        samples = {k: list(r.samples) for k, r in zip(keys, top)}
        rounds(RETIME_ROUNDS if len(top) > 1 else 0)
        if spread(samples[keys[winner()]]) > UNSTEADY:  # too noisy to trust: measure more
            rounds(EXTRA_ROUNDS)
        db.put_retiming(retime_key, samples)
    pooled = samples[keys[winner()]]
    tuning.final = ranking.with_samples(top[winner()], pooled)
    tuning.spread = spread(pooled)
    tuning.runs = len(pooled)


def spread(samples: list[float]) -> float:
    """The interquartile range of timing samples as a share of their median (one outlier does
    not move it)."""
    if len(samples) < 2:
        return 0.0
    q1, median, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return (q3 - q1) / median if median > 0 else 0.0
