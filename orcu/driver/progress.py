"""What `orcu tune` shows while it works: a rich progress bar on a terminal, one line per
evaluation otherwise (logs, CI), and a final table per region and input size."""

from __future__ import annotations

import io
import os
import sys
import time
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress
from rich.table import Table

from orcu.driver.tuning import duration
from orcu.execution.result import RANKED
from orcu.planning.space import settings_text


def fitted_width(stream: TextIO, default: int) -> int | None:
    """The width a table printed to ``stream`` may take: the terminal's (None: rich measures it),
    else $COLUMNS, else ``default`` (a pipe or a file has no width of its own)."""
    if stream.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else default


def print_fitted(table: Table, stream: TextIO, default: int, title, first: int) -> None:
    """``table`` at the width of ``stream`` (fitted_width); narrower than the table needs, each
    row as a table of its own, titled ``title(row)``, a column a line from column ``first``."""
    console = Console(file=stream, width=fitted_width(stream, default))
    natural = Console(file=io.StringIO(), width=100_000).measure(table).maximum  # unwrapped, as wide as it gets
    if natural <= console.width:
        console.print(table)
        return
    names = [str(column.header) for column in table.columns]
    for row in zip(*(column.cells for column in table.columns)):
        each = Table(title=title(row), show_header=False)
        each.add_column(no_wrap=True)
        each.add_column()
        for name, cell in zip(names[first:], row[first:]):
            each.add_row(name, cell)
        console.print(each)


class Progress:
    def __init__(self, stream: TextIO, executor=None):
        """``executor``: where several variants run at once (orcu/execution/executors.py), whose busy and
        idle workers and pace are shown; None where one runs at a time."""
        self.executor = executor
        self.console = Console(file=stream)
        self.live = self.console.is_terminal
        self.bar = (
            RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[best]}"),
                console=self.console,
                transient=False,
            )
            if self.live
            else None
        )
        self.task: TaskID | None = None
        self.done, self.total, self.began = 0, 0, time.monotonic()
        self.tune_began, self.evaluated = self.began, 0  # over the whole tune: the pace of new evaluations

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()

    def start(self, tuning, total: int) -> None:
        """A region and input size begins: ``total`` evaluations at most."""
        label = f"{tuning.name} {settings_text(tuning.inputs)}".strip()
        self.done, self.total, self.began = 0, total, time.monotonic()
        if self.bar is not None:
            self.task = self.bar.add_task(label, total=total, best="")
        else:
            plural = "s" if tuning.space != 1 else ""
            print(
                f"orcu: {label}: {tuning.strategy} search over {tuning.space} configuration{plural}, {total} at most",
                file=self.console.file,
            )

    def update(self, tuning, result, origin: str = "") -> None:
        """``origin``: "" for a new evaluation, "cached" (the results database) or "same build".
        A same build costs nothing and counts nothing against the budget: it is said, uncounted."""
        same = origin == "same build"
        self.done += not same
        if not origin:
            self.evaluated += 1
        best = tuning.best
        failures = {s: n for s, n in tuning.statuses.items() if s not in RANKED}
        if self.bar is not None:
            shown = (
                f"best {best.time_ms:.4g} ms{_predicted(best)} [{settings_text(best.params)}]"
                if best
                else "no valid variant yet"
            )
            if failures:
                shown += "  " + " ".join(f"{s}:{n}" for s, n in failures.items())
            self.bar.update(self.task, advance=0 if same else 1, best=shown + self._workers())
            return
        what = (
            f"{result.time_ms:.4g} ms{_predicted(result)}"
            if result.time_ms is not None
            else result.message.split("\n")[0][:120]
        )
        elapsed = time.monotonic() - self.began
        left = (self.total - self.done) * elapsed / self.done if self.done < self.total else 0.0
        when = f"{duration(elapsed)}" + (f", about {duration(left)} left" if self.done < self.total else "")
        if same:
            print(
                f"orcu:   = [{settings_text(result.params)}]: {result.status} {what} (the same build as one evaluated: "
                "its result, at no cost)",
                file=self.console.file,
            )
            return
        print(
            f"orcu:   {self.done}/{self.total} [{settings_text(result.params)}]: {result.status} {what}"
            f"{f' ({origin})' if origin else ''} [{when}{self._workers()}]",
            file=self.console.file,
        )

    def _workers(self) -> str:
        """With several workers: how many are busy, and the new evaluations a minute so far."""
        if self.executor is None:
            return ""
        busy, every = self.executor.workers()
        minutes = (time.monotonic() - self.tune_began) / 60
        return f"; {busy}/{every} workers busy, {self.evaluated / minutes if minutes > 0 else 0:.1f} evaluations/min"

    @staticmethod
    def table(tuning, stream: TextIO | None = None) -> None:
        """The table of a tune (an orcu.driver.api.Tuning): per region and input size, the winner."""
        table = Table(title=f"orcu tune {tuning.file}")
        predicted = any(r.best is not None and r.best.measure == "model" for r in tuning.regions)
        goal = tuning.objective
        ranked = goal is not None and not goal.is_time  # the objective's value beside the time
        for column in (
            "region",
            "input",
            "strategy",
            "evaluated",
            "best parameters",
            *([goal.text()] if ranked else []),
            "predicted GPU time (ms)" if predicted else "time (ms)",
            "spread",
            "statuses",
        ):
            table.add_column(column)
        for r in tuning.regions:
            best = r.best
            value = (best.metrics or {}).get(goal.name) if ranked and best else None
            table.add_row(
                f"{r.region} (line {r.line})",
                settings_text(r.inputs) or "-",
                r.strategy,
                f"{r.new} new, {r.cached} cached" + (f", {r.same_build} same build" if r.same_build else ""),
                settings_text({k: best.params[k] for k in r.parameters if k not in r.no_effect}) if best else "none",
                *([f"{value:.4g}" if value is not None else "-"] if ranked else []),
                f"{best.time_ms:.4g}" if best else "-",
                f"{100 * r.spread:.1f}%" if r.spread is not None else "-",
                ", ".join(f"{n} {s}" for s, n in r.statuses.items()),
            )
        print_fitted(table, stream or sys.stdout, 100, lambda row: f"{row[0]}, {row[1]}", 2)


def _predicted(result) -> str:
    """Says that a time is the performance model's prediction, not a measurement."""
    return " predicted on the GPU" if result.measure == "model" else ""
