"""The ``son`` command line: ``python -m son COMMAND`` or the ``son`` console script.

Commands: ``tour`` (one function through every stage that exists).  Errors a
user causes (``SonError``) print one line ``son: error: ...`` and exit 2.
"""

from __future__ import annotations

import argparse
import sys

from .errors import SonError


def _tour(args: argparse.Namespace) -> int:
    from .tour import run

    return run(args.out)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="son", description="Sea-of-Nodes optimizer research toolkit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    tour = sub.add_parser("tour", help="parse, optimize, draw and run an example function",
                          description="Parse an example function raw and with the peephole, print "
                          "both graphs, draw the optimized one to DIR/tour.svg, and run both in the "
                          "interpreter against CPython.")
    tour.add_argument("--out", metavar="DIR", default="out", help="where tour.svg goes (default: out)")
    tour.set_defaults(run=_tour)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except SonError as e:
        print(f"son: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
