"""``orcu`` command line: check | emit | tune | apply | report | devices."""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from typing import Any

from .errors import OrcuError, UsageError, did_you_mean


def _cmd_check(args) -> int:
    from .program import load
    from .report import check_text, summary

    program = load(args.file, args.spec)
    s = summary(program)
    if args.json:
        print(json.dumps(s, indent=2, default=str))
    else:
        print(check_text(s, explain=args.explain))
    return 0


def _assignments(pairs: list[str], params, option: str, other: tuple[str, list[str]]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs -> values, each one of its parameter's listed values."""
    by_name = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        name, text = name.strip(), text.strip()
        if not eq or not name:
            raise UsageError(f"{option} expects NAME=VALUE, got '{pair}'")
        if name not in by_name:
            hint = f" (it is set with {other[0]})" if name in other[1] else did_you_mean(name, by_name)
            raise UsageError(f"{option}: '{name}' is not a parameter here{hint}")
        values = by_name[name].values
        matches = [v for v in values if text in (str(v), repr(v))]
        if not matches:
            shown = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values[:12])
            more = ", ..." if len(values) > 12 else ""
            raise UsageError(f"{option}: {text!r} is not one of the values of '{name}': {shown}{more}")
        out[name] = matches[0]
    return out


def _chosen(program, sets: list[str], inputs: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The configuration and input sizes ``emit`` writes: unset ones take the first valid value."""
    from .report import input_space, performance_space

    spec = program.spec
    fixed_inputs = _assignments(inputs, spec.input_params, "--input", ("--set", spec.performance_names))
    fixed = _assignments(sets, spec.performance_params, "--set", ("--input", spec.input_names))
    space = input_space(program)
    chosen_inputs = space.first_matching(fixed_inputs)
    if chosen_inputs is None:
        raise UsageError(f"no input combination with {_pairs(fixed_inputs)} satisfies the input constraints")
    perf = performance_space(program, chosen_inputs)
    params = perf.first_matching(fixed)
    if params is None:
        names = ", ".join(f"{c.name} ({c.expr.text.strip()})" for c in spec.performance_constraints)
        raise UsageError(f"no configuration with {_pairs(fixed)} satisfies the constraints: {names}")
    return params, chosen_inputs


def _pairs(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in values.items()) or "these values"


def _cmd_emit(args) -> int:
    from .program import load
    from .writeback import Choice, tuned_source, write_atomically

    program = load(args.file, args.spec)
    params, inputs = _chosen(program, args.set, args.input)
    text, codes = tuned_source(program, [Choice(params, inputs)] * len(program.nests), strip=args.strip)
    if args.explain:
        for code in codes:
            settings = ", ".join(f"{k}={v!r}" for k, v in code.values.items() if v not in (None, {}))
            print(f"{code.host}: {settings}", file=sys.stderr)
            for note in code.notes or ["every requested transformation applies"]:
                print(f"  note: {note}", file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        write_atomically(args.output, text, args.file)
        print(f"orcu: wrote {args.output}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="orcu", description="Annotation-based autotuner for CUDA (Orio-style).")
    parser.add_argument("--debug", action="store_true", help="show a traceback for internal errors")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="parse a file and report its tuning problem; nothing is compiled or run")
    check.add_argument("file")
    check.add_argument("--spec", help="YAML tuning spec (default: FILE.orcu.yaml if present)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument("--explain", action="store_true", help="print the loop-nest IR with reads and writes")
    check.set_defaults(run=_cmd_check)

    emit = sub.add_parser("emit", help="write the CUDA version of FILE for one configuration")
    emit.add_argument("file")
    emit.add_argument("--spec", help="YAML tuning spec (default: FILE.orcu.yaml if present)")
    emit.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                      help="a performance parameter's value (one of its listed values); "
                           "unset parameters take the first values that satisfy the constraints")
    emit.add_argument("--input", action="append", default=[], metavar="NAME=VALUE",
                      help="an input parameter's value (default: the first input combination)")
    emit.add_argument("-o", "--output", help="output file, written atomically (default: standard output)")
    emit.add_argument("--strip", action="store_true", help="drop the annotations (the file cannot be tuned again)")
    emit.add_argument("--explain", action="store_true", help="say on stderr how each transformation applied")
    emit.set_defaults(run=_cmd_emit)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except OrcuError as e:
        print(e.render(), file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")
        return 0
    except KeyboardInterrupt:
        print("orcu: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug in orcu, not in the user's input
        if args.debug:
            traceback.print_exc()
        else:
            print(f"orcu: internal error: {type(e).__name__}: {e} (run with --debug for a traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
