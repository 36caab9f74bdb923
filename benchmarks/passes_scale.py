"""SCCP and the combined analysis (each with its cleanup peephole) on generated
graphs of growing size.

    python benchmarks/passes_scale.py                       # ~1e3, 1e4, 1e5 nodes
    python benchmarks/passes_scale.py --sizes 1000,10000 --repeat 3

The generator repeats a unit of code with loops and branches and with work
for the optimistic passes (a constant that only survives through a loop Phi,
two congruent induction variables, a dead branch behind them) until the
parse-time-peepholed graph has about the target number of nodes.  Each pass
runs on a fresh copy of that graph (the copy is not timed); the table gives
the best wall time of ``--repeat`` runs, nodes per second, and the time ratio
to the previous size scaled to a 10x growth in nodes (10x is linear; the
target for SCCP is <= 12x per 10x).  No assertion is made: benchmarks
measure, tests check.
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
import time

import son

#: one unit; ``{k}`` makes constants differ between units so nothing is shared
UNIT = [
    "    x = 1",
    "    u = v = a",
    "    c = 0",
    "    while c < n:",
    "        x = 2 - x",
    "        if u != v:",
    "            u = u + {k}",
    "        u += 1",
    "        v += 1",
    "        c += 1",
    "    if x != 1:",
    "        s = s * {k} + 3",
    "    else:",
    "        s = (s + u - v + {k}) & 65535",
    "    for i in range(n):",
    "        t = (t ^ (s + i)) & 1023",
]


def source(n_units: int) -> str:
    lines = ["def f(a: int, n: int):", "    s = 0", "    t = 0"]
    for k in range(n_units):
        lines.extend(line.format(k=k + 3) for line in UNIT)
    lines.append("    return s + t")
    return "\n".join(lines) + "\n"


def graph_of(n_units: int) -> son.Graph:
    return son.parse_source(source(n_units), name="f")


def time_pass(g: son.Graph, name: str, repeat: int) -> tuple[float, int]:
    best, left = float("inf"), 0
    for _ in range(repeat):
        h = g.copy()
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            son.optimize(h, name, inplace=True)
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
        left = len(h)
    return best, left


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000", help="target node counts")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--passes", default="sccp,combined")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(10_000)  # nothing may need more: every walk is iterative
    unit_nodes = len(graph_of(4)) / 4
    print(f"{'pass':<10} {'nodes':>8} {'left':>8} {'seconds':>9} {'nodes/s':>10} {'per 10x':>8}")
    for name in args.passes.split(","):
        prev = None
        for target in (int(s) for s in args.sizes.split(",")):
            g = graph_of(max(1, round(target / unit_nodes)))
            n = len(g)
            secs, left = time_pass(g, name, args.repeat)
            growth = ""
            if prev is not None:
                pn, ps = prev
                growth = f"{(secs / ps) ** (1 / math.log10(n / pn)):.1f}x"
            print(f"{name:<10} {n:>8} {left:>8} {secs:>9.3f} {n / secs:>10.0f} {growth:>8}")
            prev = (n, secs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
