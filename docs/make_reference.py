"""docs/reference.md, made from the code: the command line from its argparse parser, the
transform arguments, search strategies and backends from their registries, the Python API from
its docstrings. ``python3 docs/make_reference.py > docs/reference.md`` writes it anew, and a
test (tests/test_docs.py) fails when the file and the code disagree, so the reference never
drifts. A script beside the docs, not a module of orcu: it reads the package face, which no
module inside the package may import."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import sys

import orcu
from orcu.driver.cli import build_parser
from orcu.execution.backends import AUTO, BACKENDS
from orcu.search.registry import DEFAULT, STRATEGIES, summary
from orcu.spec.transform import ARGUMENTS

HEADER = """# Reference

Made from orcu's code by `python3 docs/make_reference.py > docs/reference.md`; the tests fail
when the two disagree. The tutorial (docs/tutorial.md) shows these in use.
"""


def reference() -> str:
    return "\n".join([HEADER, _commands(), _transform_arguments(), _strategies(), _backends(), _python_api()])


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _commands() -> str:
    parser = build_parser()
    out = ["## Commands", "", f"`orcu COMMAND ...`: {parser.description}", "", _options(parser), ""]
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in sub._choices_actions}
    for name, command in sub.choices.items():
        out += [f"### orcu {name}", "", _cell(helps.get(name) or ""), "", _options(command), ""]
    return "\n".join(out)


def _options(parser: argparse.ArgumentParser) -> str:
    rows = ["| argument | what it does |", "| --- | --- |"]
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if action.option_strings:
            value = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
            if action.choices is not None and action.metavar is None:
                value = " {" + ",".join(map(str, action.choices)) + "}"
            name = ", ".join(f"`{o}{value}`" for o in action.option_strings)
        else:
            name = f"`{action.metavar or action.dest}`"
        rows.append(f"| {name} | {_cell(action.help or '')} |")
    return "\n".join(rows)


def _transform_arguments() -> str:
    rows = [
        "## Transform arguments",
        "",
        "`transform CUDA(...)` takes Orio's arguments and orcu's own; each is visible in the generated code.",
        "",
        "| argument | default | accepts | what orcu generates |",
        "| --- | --- | --- | --- |",
    ]
    for a in ARGUMENTS.values():
        default = a.default_doc or f"`{a.default!r}`"
        rows.append(f"| `{a.name}` | {_cell(default)} | {_cell(a.expects)} | {_cell(a.doc)} |")
    return "\n".join(rows) + "\n"


def _strategies() -> str:
    rows = [
        "## Search strategies",
        "",
        f"`--search NAME` or the spec's `arg algorithm = 'NAME';` (any case). Without either: Exhaustive when the "
        f"budget covers the space, else {DEFAULT}. A strategy's options are the spec's `arg NAME_OPTION = value;` "
        "(e.g. `arg simplex_reflection_coef = 1.5;`).",
        "",
        "| strategy | also spelled | what it does | options (default) |",
        "| --- | --- | --- | --- |",
    ]
    for name, cls in STRATEGIES.items():
        options = "; ".join(f"`{k}`: {v}" for k, v in cls.options_doc.items()) or "none"
        aliases = ", ".join(f"`{a}`" for a in cls.aliases) or ""
        rows.append(f"| `{name}` | {aliases} | {_cell(summary(name))} | {_cell(options)} |")
    return "\n".join(rows) + "\n"


def _backends() -> str:
    rows = [
        "## Backends",
        "",
        f"`--backend NAME`; `{AUTO}` (the default): cuda where a GPU is visible, else emulate.",
        "",
    ]
    rows += [f"- `{b.name}`: {b.summary}" for b in BACKENDS.values()]
    return "\n".join(rows) + "\n"


def _python_api() -> str:
    out = ["## Python API", "", _cell((orcu.__doc__ or "").strip()), ""]
    for name in sorted(
        orcu.__all__, key=lambda n: (not callable(getattr(orcu, n)) or inspect.isclass(getattr(orcu, n)), n)
    ):
        obj = getattr(orcu, name)
        if name.startswith("__"):
            continue
        if inspect.isclass(obj):
            out += [f"### `orcu.{name}`", "", inspect.cleandoc(obj.__doc__ or ""), ""]
            if dataclasses.is_dataclass(obj):
                out += ["Fields: " + ", ".join(f"`{f.name}`" for f in dataclasses.fields(obj)) + ".", ""]
            for member in sorted(dir(obj)):
                value = inspect.getattr_static(obj, member)
                if member.startswith("_") or not (inspect.isfunction(value) or isinstance(value, property)):
                    continue
                doc = (inspect.getdoc(value) or "").split("\n\n")[0]
                out.append(f"- `{member}`" + (f": {_cell(doc)}" if doc else ""))
            out.append("")
        else:
            out += [f"### `orcu.{name}{inspect.signature(obj)}`", "", inspect.cleandoc(obj.__doc__ or ""), ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(reference())
