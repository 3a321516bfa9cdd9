"""``orcu`` command line: check | emit | tune | apply | report | devices."""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from .errors import OrcuError


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
