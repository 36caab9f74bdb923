"""``son tour``: one small function through every stage.

It parses ``tour_example`` twice (raw, then with the parse-time peephole),
prints both graphs as text IR with their node counts and the rules that
fired, checks both with the verifier, compares the pessimistic and optimistic
pipelines (``son.compare``), draws the optimized graph to ``<out>/tour.svg``,
schedules it with Global Code Motion, compiles it with Numba (``son.jit``),
and runs the graphs in the reference interpreter and the kernel against
CPython on a few arguments.  Returns 0 when every run agrees with CPython.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import TextIO

from .driver import compare, jit
from .errors import SonError
from .exec.interp import interpret
from .frontend import parse
from .schedule import schedule
from .viz.dot import render

#: a global constant: reading it folds it
STEP = 1


def tour_example(n: int) -> int:
    scale = 2 * 3 - 4  # folds to 2 while parsing
    sign = 1  # stays 1 around the loop: only the optimistic passes prove it
    total = 0
    i = 0
    while i < n:
        if i % scale == 0:
            total += i * 4 // scale
        else:
            total -= STEP * sign
        sign = 2 - sign
        i += STEP
    return total + (10 - 2 * 5)


#: the arguments the tour runs ``tour_example`` on
TOUR_ARGS = (0, 1, 2, 7, 10, -3)


def _outcome(f, *args) -> str:
    """The value ``f(*args)`` returns, or the exception it raises, as text."""
    try:
        return repr(f(*args))
    except (ArithmeticError, ValueError, IndexError) as e:
        return f"{type(e).__name__}: {e}"


def run(out: str | Path = "out", stream: TextIO | None = None) -> int:
    """Run the tour, writing the drawing under ``out`` and the text to ``stream`` (default:
    ``sys.stdout`` at the time of the call); 0 if son agrees with CPython."""
    if stream is None:
        stream = sys.stdout
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SonError(f"cannot create output directory {str(out)!r}: {e.strerror}") from e

    def say(text: str = "") -> None:
        print(text, file=stream)

    say("son tour: one function through the frontend, the peephole, the optimistic passes, dot, "
        "Global Code Motion, Numba and the interpreter")
    say()
    say(inspect.getsource(tour_example).rstrip())
    say(f"# with the global STEP = {STEP}")

    raw = parse(tour_example, peephole=False)
    raw.verify()
    say()
    say(f"1. raw graph (son.parse(f, peephole=False)): {len(raw)} nodes")
    say(str(raw))

    g = parse(tour_example)
    g.verify()
    say()
    say(f"2. parse-time peephole (son.parse(f)): {len(g)} nodes, {len(raw) - len(g)} fewer")
    say(str(g))
    hits = ", ".join(f"{name} {k}" for name, k in g.rule_hits.most_common())
    say(f"rule hits: {hits}")

    say()
    say("3. pessimistic vs optimistic (son.compare(f)):")
    cmp = compare(tour_example)
    say(str(cmp))
    opt = cmp["combined"]

    svg_path = render(opt, out / "tour.svg", types=True, legend=True)
    say()
    say(f"4. dot: the optimized graph with types, drawn to {svg_path}")

    sched = schedule(opt)
    say()
    say(f"5. Global Code Motion (son.schedule): {len(sched.blocks)} blocks; "
        f"son.jit compiles them to this Numba kernel:")
    kernel = jit(tour_example)
    kernel(0)
    say(kernel.source.rstrip())

    say()
    say("6. son.interpret and the kernel against CPython")
    rows = [("n", "CPython", "raw graph", "peephole graph", "kernel", "agree")]
    agree = 0
    for a in TOUR_ARGS:
        want = _outcome(tour_example, a)
        got_raw = _outcome(lambda x: interpret(raw, x), a)
        got = _outcome(lambda x: interpret(g, x), a)
        got_kernel = _outcome(kernel, a)
        ok = want == got_raw == got == got_kernel
        agree += ok
        rows.append((repr(a), want, got_raw, got, got_kernel, "yes" if ok else "NO"))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    for r in rows:
        say("  " + "  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)))
    say(f"{agree}/{len(TOUR_ARGS)} agree with CPython")
    return 0 if agree == len(TOUR_ARGS) else 1
