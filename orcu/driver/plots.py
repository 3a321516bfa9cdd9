"""Pictures of tuning results (``orcu report --plot DIR``, ``Tuning.plot``), with matplotlib.

Five kinds, each a PNG per region and input size (``group``: file, region, sizes, backend, device),
where the evaluations allow it (``plot_all`` says why where they do not):
- convergence: the best time found against the evaluations made, in their order;
- parameters: each performance parameter's effect, every ranked variant's time against its value
  (the other parameters free);
- model: orcu's predicted GPU time against the measured one; under the emulation the measured
  times are CPU times of the emulated code, and the axis says so;
- roofline: the variants by their static traffic figures (operations per byte of global-memory
  sectors requested) and the performance their time gives, under the device's ceilings;
- achieved: each variant's fraction of the roofline bound of the loop's own work (orcu/execution/metrics.py),
  in the order evaluated, the closest to it marked with its GFLOP/s and GB/s.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from orcu.execution.backends import backend as backend_of
from orcu.execution.result import RANKED

SECTOR_BYTES = 32


def _label(e) -> str:
    """What a measure's times are, for an axis."""
    if e.measure == "model":
        return "predicted GPU kernel time (ms)"
    what = "kernel time" if e.measure == "kernel" else "whole host function's time"
    return f"CPU time of the emulated code's {what} (ms), not a GPU time" if e.emulated else f"{what} on the GPU (ms)"


def _groups(evaluations) -> dict[tuple, list]:
    """Evaluations by region and input size as measured, as orcu report groups its rows."""
    from orcu.driver.report import group_key

    groups: dict[tuple, list] = {}
    for e in evaluations:
        groups.setdefault(group_key(vars(e)), []).append(e)
    return groups


def _title(key: tuple) -> str:
    file, region, inputs, backend, device = key
    sizes = ", ".join(f"{k}={v}" for k, v in json.loads(inputs).items())
    adjective = backend_of(backend).adjective
    where = device.split(" (")[0] + (f", {adjective}" if adjective else "")
    return f"{region} of {Path(file).name}" + (f", {sizes}" if sizes else "") + f"\n{where}"


def _stem(key: tuple) -> str:
    file, region, inputs, backend, _ = key
    sizes = "_".join(f"{k}{v}" for k, v in json.loads(inputs).items())
    return re.sub(
        r"[^A-Za-z0-9_.-]+",
        "_",
        "_".join(x for x in (Path(file).stem, region.removeprefix("orcu_"), sizes, backend) if x),
    )


def _device(text: str, given=None):
    """The Device of a results row's device text (a profile of that name), or ``given``."""
    if given is not None:
        return given
    from orcu.device import PROFILES

    name = text.split(" (")[0]
    return next((d for d in PROFILES.values() if d.name == name), None)


KINDS = ("convergence", "parameters", "model", "roofline", "achieved")


def figures(evaluations: Iterable, device=None) -> Iterator[tuple[str, tuple, Any]]:
    """(kind, group, matplotlib figure) of every plot of every group of these evaluations, or in
    the figure's place why the evaluations do not allow it (a str); ``device``: whose ceilings
    the roofline draws (default: the profile of the device the results name)."""
    try:
        import matplotlib
    except ImportError:
        from orcu.errors import UsageError

        raise UsageError("plots need matplotlib: pip install 'orcu[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    draw = {
        "convergence": _convergence,
        "parameters": _parameters,
        "model": _model,
        "roofline": _roofline,
        "achieved": _achieved,
    }
    for key, group in _groups(evaluations).items():
        ranked = [e for e in group if e.status in RANKED and e.time_ms is not None]
        for kind in KINDS:
            if not ranked:
                yield kind, key, "no variant was ranked (none passed with a time)"
                continue
            figure = draw[kind](plt, key, group, ranked, _device(key[4], device))
            if not isinstance(figure, str):
                _fit(figure)
            yield kind, key, figure


def _fit(figure) -> None:
    """Wraps each title and axis label to the room its figure gives it, so that none is cut at
    the figure's edge (tight_layout then makes room for the lines)."""
    width, height = figure.get_size_inches()
    texts = [(figure._suptitle, width)] if figure._suptitle is not None else []
    for ax in figure.axes:
        box = ax.get_position()
        texts += [
            (ax.title, width * max(box.width, 0.8)),
            (ax.xaxis.label, width * box.width),
            (ax.yaxis.label, height * box.height),
        ]
    for text, inches in texts:
        if not text.get_text():
            continue
        columns = max(20, int(inches * 72 / (text.get_fontsize() * 0.6)))
        text.set_text("\n".join(textwrap.fill(line, columns) for line in text.get_text().split("\n")))


def plot_all(evaluations: Iterable, directory: Path, device=None, skipped: list[str] | None = None) -> list[Path]:
    """Every plot these evaluations allow, written in ``directory`` as PNG: the paths. Each plot
    left out is said in ``skipped`` ("model plot of sdot_1 of dot.c, n=1000: why")."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, key, figure in figures(evaluations, device):
        if isinstance(figure, str):
            if skipped is not None:
                skipped.append(f"no {kind} plot of {_title(key).splitlines()[0]}: {figure}")
            continue
        import matplotlib.pyplot as plt  # there once figures() has made one

        path = directory / f"{kind}_{_stem(key)}.png"
        figure.tight_layout()
        figure.savefig(path, dpi=110)
        plt.close(figure)
        written.append(path)
    return written


def _convergence(plt, key, group, ranked, device):
    """The best time so far against the evaluations made (failed ones count: they cost time too)."""
    xs, ys, best = [], [], None
    for n, e in enumerate(group, 1):
        if e.status in RANKED and e.time_ms is not None:
            best = e.time_ms if best is None else min(best, e.time_ms)
        if best is not None:
            xs.append(n)
            ys.append(best)
    figure, ax = plt.subplots(figsize=(6, 4))
    ax.step(xs, ys, where="post", marker="o", markersize=3)
    ax.set(xlabel="evaluations", ylabel=f"best {_label(ranked[0])}", title=f"Search convergence: {_title(key)}")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlim(0, max(len(group), 1) + 0.5)
    return figure


def _parameters(plt, key, group, ranked, device):
    """Time against each parameter's values: one panel a parameter that takes several values."""
    names = [n for n in ranked[0].params if len({json.dumps(e.params.get(n)) for e in ranked}) > 1]
    if not names:
        return "no parameter takes more than one value among the ranked variants"
    columns = min(3, len(names))
    rows = (len(names) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(4 * columns, 3.2 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names):
        values = sorted({json.dumps(e.params.get(name)) for e in ranked}, key=_order)
        at = {v: k for k, v in enumerate(values)}
        ax.scatter([at[json.dumps(e.params.get(name))] for e in ranked], [e.time_ms for e in ranked], s=12, alpha=0.7)
        ax.set_xticks(
            range(len(values)), [v.strip('"') for v in values], rotation=45 if len(values) > 6 else 0, fontsize=7
        )
        ax.set(xlabel=name, ylabel=_label(ranked[0]))
    for ax in list(axes.flat)[len(names) :]:
        ax.set_visible(False)
    figure.suptitle(f"Each parameter's effect: {_title(key)}", fontsize=9)
    return figure


def _order(text: str):
    value = json.loads(text)
    return (0, value, "") if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, 0, str(value))


def _model(plt, key, group, ranked, device):
    """The model's prediction against the measured time, each variant that has both."""
    pairs = [(e.predicted_ms, _measured(e)) for e in group if e.status == "ok" and e.predicted_ms and _measured(e)]
    if not pairs:
        return "no variant has both a prediction and a measured kernel time"
    figure, ax = plt.subplots(figsize=(5, 4.5))
    ax.scatter([p for p, _ in pairs], [m for _, m in pairs], s=14)
    emulated = group[0].emulated
    ax.set(
        xscale=_scale([p for p, _ in pairs]),
        yscale=_scale([m for _, m in pairs]),
        xlabel="predicted GPU kernel time (ms)",
        ylabel="CPU time of the emulated kernels (ms), not a GPU time"
        if emulated
        else "measured kernel time on the GPU (ms)",
        title=f"Model against measured: {_title(key)}",
    )
    if not emulated:  # the same scale: the diagonal is a perfect prediction
        low, high = min(min(p) for p in pairs), max(max(p) for p in pairs)
        ax.plot([low, high], [low, high], color="grey", lw=0.8, label="predicted = measured")
        ax.legend(fontsize=7)
    return figure


def _scale(values: list[float]) -> str:
    """Log where the values span more than a decade; within one, a log axis has only minor
    ticks, whose labels run into each other."""
    return "log" if max(values) > 10 * min(values) else "linear"


def _measured(e) -> float | None:
    samples = e.kernel_ms
    return sorted(samples)[len(samples) // 2] if samples else None


def _roofline(plt, key, group, ranked, device):
    """Each variant with static figures at (operations / byte of global sectors, operations / s
    its time gives), under the device's peak rates (a multiply-add counted as two)."""
    points = []
    for e in ranked:
        f = e.figures or {}
        sectors = sum(a["sectors"] * a["requests"] for a in f.get("global", []))
        time_ms = e.predicted_ms if e.emulated else e.time_ms if e.measure != "total" else None
        if f.get("operations") and sectors and time_ms:
            points.append((f["operations"] / (sectors * SECTOR_BYTES), f["operations"] / (time_ms * 1e-3) / 1e9))
    if not points:
        return "no ranked variant has both counted figures (operations and global sectors) and a kernel time" + (
            " (the tune measured total times)" if ranked[0].measure == "total" else ""
        )
    figure, ax = plt.subplots(figsize=(6, 4.5))
    ax.scatter(
        [p[0] for p in points],
        [p[1] for p in points],
        s=14,
        zorder=3,
        label="variants (predicted time)" if ranked[0].emulated else "variants (measured time)",
    )
    if device is not None:
        from orcu.execution.model import peak_rates

        low = min(p[0] for p in points) / 4
        high = max(max(p[0] for p in points) * 4, 64)
        xs = [low * (high / low) ** (k / 63) for k in range(64)]
        for name, element, style in (("FP32", 4, "-"), ("FP64", 8, "--")):
            peak = peak_rates(device, element)[1] / 1e9
            ax.plot(
                xs,
                [min(peak, x * device.bandwidth_gbs) for x in xs],
                style,
                color="black",
                lw=0.9,
                label=f"{name} peak {peak / 1e3:.1f} TFLOP/s, memory {device.bandwidth_gbs / 1e3:.2f} TB/s",
            )
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="arithmetic intensity (operations / byte of global sectors)",
        ylabel="performance (GFLOP/s)",
        title=f"Roofline: {_title(key)}",
    )
    ax.legend(fontsize=7)
    return figure


def _achieved(plt, key, group, ranked, device):
    """Each ranked variant's fraction of the roofline bound, in the order evaluated (the one
    closest to the bound marked, with its GFLOP/s and GB/s)."""
    points = [(k, e) for k, e in enumerate(group, 1) if e in ranked and e.bound_fraction is not None]
    if not points:
        return "no ranked variant has a roofline bound (its compulsory bytes and operations at a known time)"
    figure, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(
        [k for k, _ in points],
        [100 * e.bound_fraction for _, e in points],
        s=14,
        zorder=3,
        label="variants" + (" (predicted time)" if ranked[0].measure == "model" else ""),
    )
    best = max(points, key=lambda p: p[1].bound_fraction)
    ax.scatter(
        [best[0]],
        [100 * best[1].bound_fraction],
        s=60,
        facecolors="none",
        edgecolors="red",
        zorder=4,
        label=f"closest to the bound: {best[1].gflop_s or 0:.4g} GFLOP/s, {best[1].gb_s or 0:.4g} GB/s",
    )
    ax.axhline(100, color="black", lw=0.8)
    ax.set(
        xlabel="evaluation",
        ylabel="% of the roofline bound (the loop's compulsory bytes and operations)",
        title=f"Achieved: {_title(key)}",
    )
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=7)
    return figure
