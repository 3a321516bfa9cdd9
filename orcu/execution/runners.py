"""Evaluating variants: build the harness, run it, turn what happened into a status.

Builds run in parallel (``jobs``); runs one at a time, each in a subprocess with a
timeout that adapts to the fastest run so far, so a hung or crashing variant costs one
status and tuning goes on.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import itertools
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from orcu.codegen.region import RegionCode, generate, transform_values
from orcu.device import REGISTER_UNIT, Device
from orcu.errors import OrcuError, ReferenceFailed
from orcu.execution.backends import EMULATE, Backend
from orcu.execution.backends import backend as backend_of
from orcu.execution.buildflags import (
    _names_arch,
    build_flags,
    build_libs,
)
from orcu.execution.executors import BuildJob, Built, Local, RunJob
from orcu.execution.harness import HOST_COPIES, HarnessSource, harness_source, memory_needs
from orcu.execution.result import NOT_RUN, Result
from orcu.execution.toolchain import EMULATION, NVCC, Build, KernelResources, gxx, kernel_instances
from orcu.frontend.ir import LoopNest
from orcu.frontend.source import ENCODING
from orcu.planning.program import Program
from orcu.planning.space import settings_text
from orcu.spec.schedule import Schedule, block_shape
from orcu.tsg.problems import placement_problem

# What the harness's second input set draws (templates/harness.cu.j2, orcu_adversarial).
SECOND_INPUTS = "signed values, zeros, ones, repeats, integer limits"
ENERGY_S = 1.0  # seconds of a variant's calls its energy is measured over (NVML's counter moves every few ms)
EMULATION_SEED = "1"  # blocks run in a shuffled order, to expose races between blocks
MAX_BATCH = 16  # variants built into one harness


def physical_memory() -> int:
    """This machine's memory in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def size_text(count: int) -> str:
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def memory_reason(program: Program, region: int, inputs: Mapping[str, Any], device: Device, backend: str) -> str | None:
    """Why these input sizes cannot fit, found before compiling: the harness's arrays against
    the device's memory and the host's (which holds the device's too under the emulation)."""
    program = program.of_nest(region)
    host, on_device, arrays = memory_needs(program, region, inputs)
    largest = ", ".join(f"{name} {size_text(b)}" for name, b in sorted(arrays, key=lambda a: -a[1])[:4])
    if on_device > device.memory_bytes:
        return f"the arrays ({largest}) need {size_text(on_device)} of device memory; {device.name} has {size_text(device.memory_bytes)}"
    if backend_of(backend).runs_on_cpu:
        host += on_device
    if host > physical_memory():
        return (
            f"the harness needs {size_text(host)} of host memory for its arrays ({largest}, {HOST_COPIES} copies each, "
            f"one more in double where float results are checked"
            f"{', and the emulated device memory' if backend_of(backend).runs_on_cpu else ''}); this machine has {size_text(physical_memory())}"
        )
    return None


def invalid_reason(values: Mapping[str, Any], device: Device, nest: LoopNest) -> str | None:
    """Why the device cannot run a configuration at all, found before compiling."""
    schedule = Schedule.parse(values["mapping"])
    if schedule is not None:  # a TSG schedule: the block's shape, and Phase II's placements on it
        shape = block_shape(schedule, values["threadCount"], values["tile"])
        if isinstance(shape, str):
            return shape
        if shape[0] * shape[1] > device.max_threads_per_block:
            return f"{shape[0]} x {shape[1]} threads per block is above the {device.max_threads_per_block} of {device.name}"
        return placement_problem(nest, values, schedule, shape, device.shared_per_block)
    if values["threadCount"] > device.max_threads_per_block:
        return f"threadCount={values['threadCount']} is above the {device.max_threads_per_block} threads per block of {device.name}"
    if values["blockCount"] is not None and values["blockCount"] > device.max_grid_x:
        return f"blockCount={values['blockCount']} is above the {device.max_grid_x} blocks of {device.name}"
    return None


def build_item(
    program: Program,
    region: int,
    k: int,
    params: Mapping[str, Any],
    inputs: Mapping[str, Any],
    backend: str,
    arch: str | None = None,
) -> tuple:
    """One variant to build: (its number, parameters, input sizes, build flags, generated code)."""
    program = program.of_nest(region)
    code = generate(program, program.nests[region], params, inputs, suffix=f"_v{k}")
    return k, params, inputs, build_flags(program.spec.build_command, params, backend, arch), code


def _variant_key(program: Program, region: int, item: tuple, edit) -> tuple:
    """A variant of a build item (build_item), the same whatever its number in a batch."""
    _, params, inputs, flags, _ = item
    return id(program), region, repr(sorted(params.items())), repr(sorted(inputs.items())), flags, id(edit)


def build_identity(
    program: Program,
    region: int,
    params: Mapping[str, Any],
    inputs: Mapping[str, Any],
    backend: str,
    arch: str | None = None,
) -> tuple[str, RegionCode] | None:
    """(what one build of this configuration is made of, as a digest: the generated code, the
    flags, the libraries and the input sizes; the code), or None when it cannot be generated.
    Configurations with one identity are one build, and one evaluation serves them all."""
    program = program.of_nest(region)
    try:
        _, _, _, flags, code = build_item(program, region, 0, params, inputs, backend, arch)
    except OrcuError:
        return None
    parts = [_uncommented(code.text), *flags, "--", *build_libs(program), repr(sorted(inputs.items()))]
    return hashlib.sha256("\0".join(parts).encode(**ENCODING)).hexdigest()[:32], code


_COMMENT_OR_STRING = re.compile(r'("(?:\\.|[^"\\\n])*")|//[^\n]*')


def _uncommented(text: str) -> str:
    """C++ text without its // comments (which name the settings that made it)."""
    return _COMMENT_OR_STRING.sub(lambda m: m.group(1) or "", text)


MOST_REGISTERS = 255  # a thread's, on every GPU since sm_35


def min_blocks_to_try(reports: Iterable[KernelResources], threads: int, device: Device) -> tuple[int, ...]:
    """The minBlocks to build a kernel with, in turn, that ptxas spilled under its own register
    target (its instances' ``reports``; blocks of ``threads``): first one that gives each thread
    a budget one allocation step above the most registers ptxas took, then 1 (no budget but the
    multiprocessor's); none where every instance it spilled had all a thread may have (another
    instance at that many, unspilled, does not stop the tries: they may end the spills of the
    one that had fewer). Of the 105 variants of sgemm's space at n = 256 that ptxas (sm_90)
    spilled (two buffers a strip), the first kept 55, minBlocks 1 then 28 more; minBlocks 1
    first let ptxas take 128-254 registers for tiles that fit in 40-80 (occupancy lost for
    nothing)."""
    unit = REGISTER_UNIT // 32  # a warp's 32 threads: a thread's registers are allocated in steps of this many
    reports = list(reports)
    took = max(r.registers for r in reports)
    # registers_per_block: the multiprocessor's registers too, on every GPU orcu knows
    most = min(MOST_REGISTERS, device.registers_per_block // threads // unit * unit)
    if all(r.registers >= most for r in reports if r.local_bytes):
        return ()  # ptxas had all the registers a block of this size may have: no minBlocks gives more
    budget = -(-took // unit) * unit + unit
    first = max(1, device.registers_per_block // (threads * budget))
    if device.registers_per_block // (threads * first) // unit * unit >= most:
        return (first,)  # it gives a thread all it may have already: minBlocks 1 would build the same
    return (first, 1)


def searched(program: Program, region: int, params: Mapping[str, Any]) -> dict[str, Any]:
    """The configuration a result's settings come from: without the minBlocks the runner added
    where ptxas spilled its register tile (Runner._build_variants). The results database keeps a
    result under it, so that a search finds the result of the configuration it asks for."""
    recipe = program.of_nest(region).nests[region].recipe
    return {k: v for k, v in params.items() if recipe is None or k != recipe.min_blocks}


def _spilled_tile(program: Program, region: int, params: dict, inputs: dict, build: Build) -> str | None:
    """Why a register-tiled TSG variant is not kept: ptxas put some of its kernel in local
    memory (a stack frame or spills) where the tile claims registers; None otherwise."""
    program = program.of_nest(region)
    worst = max(build.resources.values(), key=lambda r: r.local_bytes, default=None)
    if worst is None or not worst.local_bytes:
        return None
    values = transform_values(program, program.nests[region], params, inputs)
    if Schedule.parse(values.get("mapping") or "orio") is None or all(n == 1 for n in values["registerTile"].values()):
        return None
    return (
        f"ptxas keeps part of the register tile in local memory ({worst.stack_bytes} bytes of stack frame, "
        f"{worst.spill_bytes} bytes of spill stores and loads, {worst.registers} registers"
        + (f", minBlocks {values['minBlocks']}" if values["minBlocks"] else "")
        + "): not kept"
    )


class Runner:
    def __init__(
        self,
        backend: str,
        device: Device,
        workdir: Path,
        jobs: int | None = None,
        timeout_floor: float = 60.0,
        measure: str = "kernel",
        address_limit: int | None = None,
        count_memory: bool = False,
        reference_limit: float = 3600.0,
        energy: bool = False,
        executor=None,
    ):
        """``timeout_floor``: the seconds a variant's run may take until runs have been measured
        (then ten times the fastest); the clock starts once the harness has run the original C
        code, which may take up to ``reference_limit`` at the spec's sizes (the CPU's SGEMM of
        2048 took longer than a minute). ``address_limit``: bytes of address space an emulated run may take (default: the
        machine's memory), so that a run allocating without bound fails in its own process
        instead of waking the kernel's OOM killer. GPU runs get none: the CUDA driver reserves
        far more address space than it uses. ``count_memory``: emulated builds count the global
        sectors and shared-memory wavefronts of the call the harness checks (Result.counted;
        instrumented builds at -O0, several times slower). ``energy``: each run measures the energy of
        a call through NVML as well (ENERGY_S seconds of calls; GPU runs). ``executor``: where builds
        and runs happen (orcu/execution/executors.py; default: this machine, one run at a time); the runner's
        own threads (``jobs``) prepare the builds and wait for them."""
        self.backend = backend  # its name, as build keys and the results database record it
        self.energy = energy
        # --backend model runs nothing but compiles every variant it ranks, for the GPU where nvcc is
        # installed (ptxas's registers and spills then reach the model), else as the emulation does.
        self.compiler = self.kind.compiler()
        self.measure = measure
        self.address_limit = (address_limit or physical_memory()) if self.kind.runs_on_cpu else None
        self.device = device
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.jobs = jobs or os.cpu_count() or 1
        self.timeout_floor, self.reference_limit = timeout_floor, reference_limit
        self._pool = ThreadPoolExecutor(max_workers=self.jobs)  # builds, this call's and those ahead
        self._lock = threading.Lock()
        self._variants: dict[tuple, tuple] = {}  # every variant built or building: its harness and number in it
        self._speculative: list[tuple[Future, list]] = []  # harnesses of the batches ahead, not waited for
        self.best_run_s: float | None = None
        self._counter: Runner | None = None  # counter()
        self.executor = executor if executor is not None else Local(self.workdir)
        # The emulation takes the device's limits from macros, so it prunes and fails as the GPU would.
        self.count_memory = count_memory
        self.defines = (
            None
            if self.compiler != EMULATION
            else {
                "ORCU_EMULATION_SMS": str(device.multiprocessors),
                "ORCU_EMULATION_MAX_THREADS": str(device.max_threads_per_block),
                "ORCU_EMULATION_SHARED_PER_BLOCK": str(device.shared_per_block),
                "ORCU_EMULATION_SHARED_OPTIN": str(device.shared_per_block_optin),
                "ORCU_EMULATION_CC": device.compute_capability,
            }
        )

    @property
    def kind(self) -> Backend:
        """What its backend does (orcu/execution/backends.py)."""
        return backend_of(self.backend)

    def close(self) -> None:
        """Let the build threads go: the builds not started (those ahead of a search that has
        ended or was interrupted) are dropped, those running end on their own."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.executor.close()
        if self._counter is not None:
            self._counter.close()

    def counter(self) -> Runner | None:
        """Where --backend model's variants that the static figures cannot tell (a bound or a
        subscript read from memory) run once: the emulation, which counts their traffic for the
        model (``_counts``) and checks them; None without a C++ compiler."""
        if self._counter is None and gxx() is not None:
            self._counter = Runner(EMULATE.name, self.device, self.workdir / "counted", self.jobs, measure="model")
        return self._counter

    def _counts(self, code: RegionCode) -> bool:
        """Whether the variant's run counts its memory traffic: with count_memory, or where the
        model ranks and the static figures cannot tell (orcu/execution/model.py's fallback)."""
        if not self.kind.runs_on_cpu:
            return False
        return self.count_memory or (self.measure == "model" and code.traffic(self.device.multiprocessors) is None)

    def timeout(self) -> float:
        return self.timeout_floor if self.best_run_s is None else max(self.timeout_floor, 10 * self.best_run_s)

    def evaluate(
        self,
        program: Program,
        region: int,
        configs: list[tuple[dict[str, Any], dict[str, Any]]],
        edit: Callable[[RegionCode], RegionCode] | None = None,
        ahead: Iterable[list[tuple[dict[str, Any], dict[str, Any]]]] = (),
    ) -> Iterator[Result]:
        """Results in the order of ``configs``; builds overlap the runs. ``edit`` may change the
        generated code before it is built (tests plant bugs with it).

        Variants that share input sizes and flags are built as one harness: nvcc spends most
        of a build on fixed costs (bench/README.md). A batch that fails to build is rebuilt
        variant by variant, so one broken variant costs one status.

        ``ahead``: the batches likely to be evaluated next. Their variants are built together
        (harnesses of several variants, as above), after this call's own builds, while this
        call's variants run; a variant built before, ahead or not, runs from the harness it
        was built in. Harnesses ahead that have not started when the next call comes are
        dropped: the strategy has moved on."""
        invalid, valid = self._plan(program, region, configs, edit)
        ahead = list(ahead)
        planned = {
            item[0]: item for item in self._plan(program, region, [c for batch in ahead for c in batch], edit)[1]
        }
        ends = list(
            itertools.accumulate(len(batch) for batch in ahead)
        )  # numbered across the batches: one kernel name each
        later = [[planned[k] for k in range(end - len(batch), end) if k in planned] for batch, end in zip(ahead, ends)]
        with self._lock:
            wanted = {
                _variant_key(program, region, item, edit)
                for item in valid + [item for batch in later for item in batch]
            }
            self._drop_ahead(keep=wanted)
            built = self._submit(program, region, [valid], edit)
            self._speculative += self._submit(program, region, later, edit, ahead=True)
        # Runs go to the executor as their builds finish, as many at once as it has slots (one
        # on this machine: each run then has the machine to itself); results come in order.
        waiting: collections.deque = collections.deque()  # Results, and (pending run, params, inputs, build)

        todo = iter(enumerate(configs))
        while True:
            slots = self.executor.slots
            while sum(1 for w in waiting if isinstance(w, tuple)) < slots:
                k, (params, inputs) = next(todo, (None, (None, None)))
                if k is None:
                    break
                waiting.append(self._start(program, region, built, invalid, k, params, inputs))
            if not waiting:
                return
            head = waiting.popleft()
            if isinstance(head, tuple):
                pending, params, inputs, build = head
                head = self._finish(self._result(pending.result(), params, inputs), build)
            yield head

    def _start(
        self, program: Program, region: int, built, invalid, k: int, params: dict, inputs: dict
    ) -> Result | tuple:
        """Variant ``k`` once its build is done: its status where it cannot run, else its run
        started on the executor, (pending run, params, inputs, build)."""
        if k in invalid:
            return Result("invalid", params, inputs, message=invalid[k], measure=self.measure)
        future, j = built[k]
        exe, which, build, params = future.result()[j]  # the settings it was built with
        if not build.ok:
            return Result(
                "compile_error",
                params,
                inputs,
                message=build.message,
                compile_s=build.seconds,
                measure=self.measure,
            )
        spilled = _spilled_tile(program, region, params, inputs, build)
        if spilled:
            return Result(
                "invalid",
                params,
                inputs,
                message=spilled,
                compile_s=build.seconds,
                measure=self.measure,
                resources=next(iter(build.resources.values())),
            )
        if not self.kind.runs:  # compiled, then its time predicted (the tune adds it from its figures)
            return self._finish(Result("predicted", params, inputs, message=NOT_RUN), build)
        return self._submit_run(exe, which), params, inputs, build

    def _finish(self, result: Result, build: Build) -> Result:
        result.compile_s = build.seconds
        result.resources = next(iter(build.resources.values()), None)
        result.measure = self.measure
        return result

    def drop_ahead(self) -> None:
        """Forget the builds ahead that have not started (the search is over)."""
        with self._lock:
            self._drop_ahead()

    def _drop_ahead(self, keep: AbstractSet = frozenset()) -> None:
        """Cancel the harnesses ahead that have not started, unless they hold a variant of ``keep``."""
        waiting = []
        for future, keys in self._speculative:
            if future.done():
                continue
            if keep.isdisjoint(keys) and future.cancel():
                for key in keys:
                    del self._variants[key]
            else:
                waiting.append((future, keys))
        self._speculative = waiting

    def _submit(self, program: Program, region: int, groups: list[list], edit, ahead: bool = False):
        """Build the variants of ``groups`` (the strategy's batches, in order) not built or
        building yet, up to MAX_BATCH to a harness and each batch's harnesses spread over the
        builders; (future, variant number) of every item by its number, or with ``ahead``, the
        (future, variant keys) of each new harness."""

        def key(item):
            return _variant_key(program, region, item, edit)

        fresh: dict[tuple, tuple] = {}  # each variant not built yet: its item, and its batch's harness size
        for items in groups:
            new = [
                item
                for item in dict((key(item), item) for item in items).values()
                if key(item) not in self._variants and key(item) not in fresh
            ]
            fresh.update((key(item), (item, max(1, min(MAX_BATCH, -(-len(new) // self.jobs))))) for item in new)
        batches: list[list] = []
        open_batches: dict[tuple, list] = {}  # by what a harness's variants share: the last batch of each
        for item, size in fresh.values():
            if ahead:  # the first guesses matter most: small harnesses first, built soonest, then larger
                # ones; a batch that will be asked for whole (Exhaustive's next 16) is split as if asked now
                size = max(size, min(MAX_BATCH, 2 ** ((len(batches) - 1) // self.jobs))) if batches else 1
            # one harness holds variants of the same input sizes and flags, a counting build apart;
            # a covering array's flags alternate from one configuration to the next
            shared = (repr(sorted(item[2].items())), item[3], self._counts(item[4]))
            last = open_batches.get(shared)
            if last is not None and len(last) < size:
                last.append(item)
            else:
                batches.append([item])
                open_batches[shared] = batches[-1]
        started = []
        for batch in batches:
            future = self._pool.submit(self._build_variants, program, region, batch, edit)
            # the program and the edit are kept with their ids, so that no other object takes them
            self._variants.update({key(item): (future, j, program, edit) for j, item in enumerate(batch)})
            started.append((future, [key(item) for item in batch]))
        if ahead:
            return started
        return {item[0]: self._variants[key(item)][:2] for items in groups for item in items}

    def _plan(
        self, program: Program, region: int, configs: list[tuple[dict[str, Any], dict[str, Any]]], edit
    ) -> tuple[dict[int, str], list]:
        """(why each invalid configuration is, by position; the build items of the others, without
        their code where the variant is built or building already: generating it is most of
        orcu's own time per variant)."""
        program = program.of_nest(region)
        nest = program.nests[region]
        valid, invalid = [], {}
        too_large: dict[str, str | None] = {}  # by input sizes
        for k, (params, inputs) in enumerate(configs):
            sizes = repr(sorted(inputs.items()))
            if sizes not in too_large:
                too_large[sizes] = memory_reason(program, region, inputs, self.device, self.backend)
            try:  # a value out of its range, or a nest this configuration cannot generate: this variant's status
                reason = too_large[sizes] or invalid_reason(
                    transform_values(program, nest, params, inputs), self.device, nest
                )
                item = None
                if not reason:
                    flags = build_flags(program.spec.build_command, params, self.compiler, self.device.arch)
                    known = _variant_key(program, region, (k, params, inputs, flags, None), edit) in self._variants
                    item = (
                        (k, params, inputs, flags, None)
                        if known
                        else build_item(program, region, k, params, inputs, self.compiler, self.device.arch)
                    )
            except OrcuError as e:
                reason = f"{e.loc}: {e.message}" if e.loc else e.message
            if reason is not None:
                invalid[k] = reason
            else:
                valid.append(item)
        return invalid, valid

    def whole_region(
        self,
        program: Program,
        r: int,
        params: Mapping[str, Any],
        inputs: Mapping[str, Any],
        whole: str,
        codes: list[RegionCode],
    ) -> Result:
        """Region ``r`` run as ``whole`` (its host code calling ``codes``, built with the flags of
        ``params``), checked against the region as written (tune.run_together)."""
        program = program.of_nest(program.hosts[r].nests[0])
        flags = build_flags(program.spec.build_command, params, self.compiler, self.device.arch)
        exe, build = self._build(
            harness_source(program, program.hosts[r].nests[0], codes, inputs, whole=whole), flags, build_libs(program)
        )
        if not build.ok:
            return Result("compile_error", {}, dict(inputs), message=build.message)
        return self._run(exe, 0, {}, dict(inputs))

    def _build_variants(self, program: Program, region: int, batch: list, edit) -> list[tuple[Built, int, Build, dict]]:
        """(executable, variant number in it, build, the settings it was built with) for each item
        of ``batch``: the item's own; or, where ptxas, left to its own register target, spilled the
        variant's register tile, the first of min_blocks_to_try that ends the spills, as
        __launch_bounds__'s minBlocks (the setting the TSG's recipe names; the last where none
        does). Every try of the batch's spilled variants is built in one more harness: a harness's
        fixed costs are most of a build."""
        program = program.of_nest(region)
        recipe = program.nests[region].recipe
        out = [(*built, item[1]) for item, built in zip(batch, self._build_batch(program, region, batch, edit))]
        if recipe is None or recipe.min_blocks is None:
            return out

        def spilled(j: int) -> bool:
            _, _, build, params = out[j]
            return build.ok and _spilled_tile(program, region, params, batch[j][2], build) is not None

        tries = [
            (j, {**item[1], recipe.min_blocks: blocks})
            for j, item in enumerate(batch)
            if recipe.min_blocks not in item[1] and spilled(j)
            for blocks in min_blocks_to_try(out[j][2].resources.values(), item[4].threads, self.device)
        ]
        items = [
            (
                batch[j][0],
                params,
                batch[j][2],
                batch[j][3],
                generate(
                    program,
                    program.nests[region],
                    params,
                    batch[j][2],
                    suffix=f"_v{batch[j][0]}_{params[recipe.min_blocks]}",
                ),
            )
            for j, params in tries
        ]
        done = set()  # the variants a try has ended the spills of: their later tries are not taken
        for (j, params), (exe, which, build) in zip(
            tries, self._build_batch(program, region, items, edit) if items else []
        ):
            if j not in done:
                out[j] = (exe, which, dataclasses.replace(build, seconds=out[j][2].seconds + build.seconds), params)
                if not spilled(j):
                    done.add(j)
        return out

    def _build_batch(self, program: Program, region: int, batch: list, edit) -> list[tuple[Built, int, Build]]:
        """(executable, variant number in it, build) for each item of ``batch``."""
        program = program.of_nest(region)
        inputs, flags = batch[0][2], batch[0][3]
        codes = [item[4] for item in batch]
        count = self._counts(codes[0])
        if edit is not None:
            codes = [edit(c) for c in codes]
        libs = build_libs(program)
        exe, build = self._build(harness_source(program, region, codes, inputs), flags, libs, count)
        if build.ok or len(batch) == 1:
            return [
                (
                    exe,
                    j,
                    Build(
                        build.ok,
                        build.seconds / len(batch),
                        build.message,
                        kernel_instances(build.resources, code.host),
                    ),
                )
                for j, code in enumerate(codes)
            ]
        out = []
        for code in codes:
            exe, alone = self._build(harness_source(program, region, [code], inputs), flags, libs, count)
            out.append((exe, 0, dataclasses.replace(alone, resources=kernel_instances(alone.resources, code.host))))
        return out

    def _build(
        self, source: HarnessSource, flags: tuple[str, ...], libs: tuple[str, ...] = (), count: bool = False
    ) -> tuple[Built, Build]:
        defines = {**self.defines, "ORCU_EMULATION_SECTORS": "1"} if count else self.defines
        arch = None if self.compiler != NVCC or _names_arch(flags) else self.device.arch
        return self.executor.compile(
            BuildJob(
                source.text,
                self.compiler,
                self.backend,
                self.device.arch,
                tuple(flags),
                tuple(libs),
                tuple(defines.items()) if defines is not None else None,
                arch,
                source.reference,
            )
        )

    def _timed_calls(self) -> list[str]:
        """The harness's argument after the variant's number: no timed calls where the model ranks
        emulated variants (their CPU times say nothing of the GPU), else the spec's repetitions."""
        return ["0"] if self.kind.runs_on_cpu and self.measure == "model" else []

    def _submit_run(self, exe: Built, which: int):
        """Start one run of variant ``which`` of ``exe`` on the executor: what ``_result`` reads."""
        env = [("ORCU_EMULATION_SEED", EMULATION_SEED)] + ([("ORCU_ENERGY_S", str(ENERGY_S))] if self.energy else [])
        if self.measure == "kernel":  # each timed pair from a cold L2, its launch latency outside its events
            env.append(("ORCU_TIMER", "kernel"))
        job = RunJob(
            which, tuple(self._timed_calls()), tuple(env), self.timeout(), self.reference_limit, self.address_limit
        )
        return self.executor.run(exe, job)

    def _run(self, exe: Built, which: int, params: dict, inputs: dict) -> Result:
        return self._result(self._submit_run(exe, which).result(), params, inputs)

    def _result(self, outcome: dict[str, Any], params: dict, inputs: dict) -> Result:
        """The Result of an executor's outcome of a run (orcu/execution/executors.py run_harness)."""
        status, run_s = outcome["status"], outcome.get("run_s", 0.0)
        err = outcome.get("stderr", "")
        # where it ran, beside several; the kernel launches each timed pair of events held, and
        # the launches of one call (a time loop's steps: what the model's prediction sums)
        extra: dict[str, Any] = {
            k: outcome[k] for k in ("gpu", "worker", "launches", "launches_a_call") if k in outcome
        }
        if outcome.get("reference_failed"):
            raise ReferenceFailed(
                f"the C code as written was killed by {outcome['signal']} at {settings_text(inputs)}, before any "
                "variant ran: these inputs make the original code fail (a division by zero, a subscript out of "
                "range), so no variant can be checked; change the input_vars or the sizes" + (f": {err}" if err else "")
            )
        if "kernel_ms" not in outcome:  # it printed no report: a timeout, a crash, a launch error
            message = outcome.get("message", "")
            if "signal" in outcome:
                limited = (
                    f" (runs may take {size_text(self.address_limit)} of address space)" if self.address_limit else ""
                )
                message = f"killed by {outcome['signal']}" + (f": {err}" if err else "") + limited
            return Result(status, params, inputs, message=message, run_s=run_s, measured=extra or None)
        measured: dict[str, Any] = {
            k: outcome[k] for k in ("energy_j", "power_w", "energy_method", "energy_error") if k in outcome
        }
        result = Result(
            status,
            params,
            inputs,
            outcome["kernel_ms"],
            outcome["total_ms"],
            err,
            outcome["worst"],
            run_s=run_s,
            counted=outcome.get("counted"),
            measured={**measured, **extra} or None,
        )
        if result.status == "ok":
            result.message = outcome.get("second_inputs", "")  # its second input set unchecked, and why
            variant_s = outcome["variant_s"]
            self.best_run_s = variant_s if self.best_run_s is None else min(self.best_run_s, variant_s)
        elif result.status == "wrong_result" and result.worst:
            w = result.worst
            where = w["name"] if w["index"] < 0 else f"{w['name']}[{w['index']}]"
            result.message = (
                f"{where} is {w['got']:.17g}, expected {w['want']:.17g} ({w['error']:.3g} times the tolerance)"
            )
            if w.get("inputs") == 2:
                result.message += f" on the second input set ({SECOND_INPUTS})"
        return result
