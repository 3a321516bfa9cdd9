"""``orcu emit --explain``: how each transformation applied, the static traffic, ptxas's report
of each kernel's resources and the model's prediction, said on stderr."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from orcu.driver.target import (
    say,
)


def explain_variant(program, text: str, codes, inputs: list[Mapping[str, Any]], device) -> None:
    from orcu.execution.model import of_variant
    from orcu.planning.space import settings_text

    resources = _kernel_resources(program, text, device)
    for k, code in enumerate(codes):
        settings = settings_text({k: v for k, v in code.values.items() if v not in (None, {})})
        say(f"{code.host}: {settings}")
        for note in code.notes or ["every requested transformation applies"]:
            say(f"  note: {note}")
        traffic = code.traffic(device.multiprocessors)
        for line in traffic.lines() if traffic else []:
            say(f"  {line}")
        kernel = resources(code)
        say(f"  {_resources_line(code, kernel, device)}")
        prediction = of_variant(program, k, traffic, inputs[k], device, None if isinstance(kernel, str) else kernel)
        say(
            f"  {prediction.line()}"
            if prediction
            else "  model: no prediction (a loop bound or a subscript is not a number at these sizes)"
        )


def _kernel_resources(program, text: str, device):
    """A function of a region's code: what ptxas reports of its kernel (32-bit indices) compiled
    for ``device``, or the words that say there is no report."""
    from orcu.execution.toolchain import kernel_resources, ptxas_report
    from orcu.frontend.source import ENCODING

    found: dict | str  # each kernel's resources, or why there is no report
    if program.fragment:
        found = "a fragment's kernels are in a .cu of their own: compile it with -Xptxas -v"
    else:
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "tuned.cu"
            source.write_bytes(text.encode(**ENCODING))
            found = ptxas_report(source, device.arch)

    def lookup(code):
        if isinstance(found, str):
            return f"no report ({found})"
        kernel = kernel_resources(found, code.host)
        return "no report of this kernel" if kernel is None else kernel

    return lookup


def _resources_line(code, kernel, device) -> str:
    """What ptxas reports of a region's kernel, and the occupancy that allows."""
    from orcu.device import occupancy

    if isinstance(kernel, str):
        return f"ptxas: {kernel}"
    threads = code.threads
    blocks, busy, limit = occupancy(device, threads, kernel.registers, kernel.shared_bytes)
    local = (
        "no stack frame or spills"
        if not (kernel.stack_bytes or kernel.spill_bytes)
        else f"{kernel.stack_bytes} bytes of stack frame, {kernel.spill_bytes} bytes spilled"
    )
    return (
        f"ptxas ({device.arch}): {kernel.registers} registers a thread, {kernel.shared_bytes} bytes of shared memory a "
        f"block, {local}; {blocks} blocks of {threads} threads per multiprocessor ({limit} bound): occupancy "
        f"{busy:.0%}"
    )
