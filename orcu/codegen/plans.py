"""What the template of a Loop region's CUDA reads: each array's and reduction's plan, and the
region's whole context (RegionContext), typed, instead of a dictionary of names; the arrays
one region hands the next (Link) and the elements a loop keeps in registers (Register)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from orcu.tsg.figures import Traffic


@dataclass(frozen=True)
class ArrayPlan:
    name: str
    element: str
    device: str  # the kernel argument: a device copy, or the pointer itself with dataOnDevice
    first: str  # C expression (long long) of the lowest element touched
    end: str  # ... and of one past the highest
    copy_in: bool
    copy_out: bool
    chunked: bool  # moved chunk by chunk with the streams, through a pinned staging buffer
    pinned: bool  # pinHostMem: page-locked for the duration of the call
    written: bool
    dense: bool  # every element of its range is assigned and none read first
    shared: str | None  # name of the shared-memory copy when cacheBlocks stages it
    extent: str  # C expression (in the kernel's types) of the element count, for shared staging
    kernel_param: str
    host_param: str
    device_type: str  # the type of the device copy (a pointer)
    device_decl: str  # the declaration of the device copy's constant pointer
    flat: str  # the array as a pointer to its elements (first and end count elements, not rows)
    device_flat: str
    buffer: int | None  # index of the device copy among the host function's kept buffers
    staging: int | None  # index of its pinned staging buffer (streams)
    sent: int | None = None  # its slot in the table of arrays left on the device for the next region
    deferred: bool = False  # its copy back to the host is left to the next region
    received: int | None = None  # its slot in the table the previous region filled
    # A C99 array parameter whose extents after the first are known at run time (double A[n][m]):
    # no C++ type says that, so the functions take it flat, as `host_name`, and the kernel declares
    # a view of it under its own name that indexes A[i][j] through explicit strides.
    view: str | None = None  # the kernel's declaration of that view
    host_name: str = ""  # the parameter's name in the host function and the kernel
    cast: str = ""  # what the caller casts the array to (a C99 array parameter is taken flat)

    @property
    def argument(self) -> str:
        """What the caller passes."""
        return self.cast + self.name

    @property
    def transferred(self) -> bool:
        return self.copy_in or self.copy_out

    @property
    def first_var(self) -> str:
        return f"orcu_{self.name}_first"

    @property
    def end_var(self) -> str:
        return f"orcu_{self.name}_end"


@dataclass(frozen=True)
class ReductionPlan:
    var: str
    op: str
    ctype: str  # what its partial results are kept in (conversions.accumulator_type)
    identity: str
    functor: str
    partials: int  # kept buffers: the blocks' partial results (device), the result (pinned, mapped)
    result: int
    host_type: str  # the scalar's own type, where the host's copy lives


@dataclass(frozen=True)
class RegionContext:
    """Everything templates/region.cu.j2 writes one region's kernel and host function from."""

    # names, and where the loop came from (the comments of the generated code)
    name: str
    kernel: str
    host: str
    release: str
    where: str
    function: str | None
    loop_comment: list[str]
    settings: str  # the transform's arguments as written, for the comment
    # the loop Orio's mapping spreads over the grid, and its iterator's types
    var: str
    step: int
    lower: str
    upper: str
    narrow: str
    wide: str
    limit: str | None  # where 32 bits could overflow: the bound past which a call switches to `wide`
    itype: str
    locals: list[str]
    # what the kernel computes and moves
    reductions: list[ReductionPlan]
    arrays: list[ArrayPlan]
    staged: list[ArrayPlan]  # copied to shared memory (cacheBlocks), widest first
    device_arrays: list[ArrayPlan]  # those that move between host and device
    body: list[str]
    lanes: int | None  # iterations a vector holds (vectorize), else None
    vector_body: list[str]
    vector_bytes: int | None
    live: list[tuple[str, str, int]]  # (type, name, kept buffer) of privates read after the loop
    iterator_live: bool
    constants: list[dict]
    # the launch
    values: Mapping[str, Any]  # the configuration: settings the template writes as they are given
    threads: int
    mapped: dict | None  # the TSG's kernel (orcu/codegen/mapped.py), else Orio's 1-D mapping
    schedule: str | None
    blocks: int | None
    streams: int
    prefer: tuple[str, str, str] | None  # preferL1Size: cache configuration, carveout, in words
    prefer_kb: int
    on_device: bool
    # the region keeps the arrays on the device across its launches (codegen/resident.py): the
    # next launch in the stream, or the copy back after the region, waits for this kernel
    resident: bool
    buffers: int  # pinned buffers the host function keeps
    counter: int | None  # the kept buffer counting the blocks that finished (single-pass reductions)
    # arrays that may overlap, and the host fallback that runs the loop as written where they do
    overlaps: list[tuple[ArrayPlan, ArrayPlan]]
    fallback: bool
    original: list[str] | None
    # the functions' signatures and calls
    kernel_signature: str
    host_signature: str
    fallback_signature: str
    host_args: str
    kernel_args: Callable[[str, str, str, str, str], str]  # (lo, hi, first block, vector lo, vector hi)
    receive: Link | None
    send: Link | None


@dataclass(frozen=True)
class Link:
    """Arrays one region leaves on the device for the next (their device copies and ranges,
    in a table of the file's), when the whole file runs on the GPU (program.Handoff)."""

    table: str  # the table's name
    arrays: tuple[str, ...]  # its slots
    deferred: frozenset[str]  # arrays whose copy back to the host the next region makes


def figures_once(figures: Callable[[int], Traffic | None]) -> Callable[[int], Traffic | None]:
    """The figures computed once per device size (the database and --explain may both ask)."""
    return functools.lru_cache(maxsize=2)(figures)


@dataclass(frozen=True)
class Register:
    """An array element a loop keeps in a register: loaded before it, stored after it."""

    name: str
    ctype: str
    ref: str  # the element, as written: y[i]
    loop: str  # the loop's iterator, for the comment
