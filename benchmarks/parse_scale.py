"""Parse + parse-time peephole throughput on generated functions of growing size.

    python benchmarks/parse_scale.py                # the mixed workload, ~1e3, 1e4, 1e5 nodes
    python benchmarks/parse_scale.py --by-construct # the same sizes, one construct at a time
    python benchmarks/parse_scale.py --sizes 1000,10000 --repeat 3

For each size the generator repeats a unit of code (straight-line arithmetic,
an if/else, a for loop, a while loop) until the peepholed graph has about the
target number of nodes; the table gives the actual node count, the best wall
time of ``--repeat`` parses, nodes per second, and the time ratio to the
previous size scaled to a 10x growth in nodes (1.0x per 10x would be constant
time, 10x linear; the target is <= 12x).  No assertion is made: benchmarks
measure, tests check.
"""

from __future__ import annotations

import argparse
import gc
import linecache
import math
import sys
import time

import son

#: one unit of each kind of code; ``{k}`` makes constants differ between units
UNITS = {
    "straight": [
        "    x = (x * 3 + {k}) & 65535",
        "    y = (y ^ x) + a",
        "    z = z + x * 0.5 - y",
    ],
    "if": [
        "    if x > {k3}:",
        "        x = x - {k3}",
        "    else:",
        "        y = y + {k}",
    ],
    "for": [
        "    for i in range(b):",
        "        y = (y + x * i) & 1023",
    ],
    "while": [
        "    c = 0",
        "    while c < b:",
        "        x = (x + c) & 4095",
        "        c = c + 1",
    ],
}


def source(n_units: int, kinds: tuple[str, ...]) -> str:
    lines = ["def f(a, b):", "    x = a", "    y = b", "    z = 0.0", "    c = 0"]
    for k in range(n_units):
        for kind in kinds:
            for line in UNITS[kind]:
                lines.append(line.format(k=k, k3=k % 1000))
    lines.append("    return x + y + z + c")
    return "\n".join(lines) + "\n"


def parse_time(text: str, repeat: int) -> tuple[float, int]:
    """Best wall time of ``repeat`` parses (peephole on), and the graph's node count.

    The function is compiled by CPython once, outside the timing: CPython's own
    compile of a 30,000-line function is superlinear and is not son's work.
    What is timed is ``son.parse``: reading the source, ``ast.parse``, building
    and folding the graph, and the final dead-code sweep.
    """
    filename = f"<parse_scale {len(text)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace: dict = {}
    exec(compile(text, filename, "exec"), namespace)
    fn = namespace["f"]
    best, size, g = float("inf"), 0, None
    for _ in range(repeat):
        g = None  # the previous graph is garbage before the next parse starts
        son.frontend.source._CACHE.clear()  # read and ast.parse the source every time
        gc.collect()
        t0 = time.perf_counter()
        g = son.parse(fn, argtypes=[int, int])
        best = min(best, time.perf_counter() - t0)
        size = len(g)
    return best, size


def units_for(target: int, kinds: tuple[str, ...]) -> int:
    """How many units make a graph of about ``target`` nodes (calibrated on 50 units)."""
    base = len(son.parse_source(source(0, kinds), argtypes=[int, int]))
    per = (len(son.parse_source(source(50, kinds), argtypes=[int, int])) - base) / 50
    return max(1, round((target - base) / per))


def table(sizes: list[int], kinds: tuple[str, ...], repeat: int) -> list[float]:
    """Print one table; return the per-10x time ratios."""
    print(f"\nworkload: {'+'.join(kinds)}")
    print(f"{'target':>8} {'units':>7} {'lines':>8} {'nodes':>8} {'seconds':>9} "
          f"{'nodes/s':>9} {'x per 10x':>10}")
    prev = None
    ratios = []
    for target in sizes:
        n = units_for(target, kinds)
        text = source(n, kinds)
        secs, nodes = parse_time(text, repeat if target < 50_000 else 1)
        ratio = ""
        if prev is not None:
            p_secs, p_nodes = prev
            # normalise to an exact 10x growth in nodes: time ~ nodes**e, e from the two points
            e = math.log(secs / p_secs) / math.log(nodes / p_nodes)
            r = 10 ** e
            ratios.append(r)
            ratio = f"{r:.1f}x"
        print(f"{target:>8} {n:>7} {text.count(chr(10)):>8} {nodes:>8} {secs:>9.3f} "
              f"{nodes / secs:>9.0f} {ratio:>10}")
        sys.stdout.flush()
        prev = (secs, nodes)
    return ratios


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--by-construct", action="store_true")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    workloads = [tuple(UNITS)]
    if args.by_construct:
        workloads += [(k,) for k in UNITS]
    for kinds in workloads:
        ratios = table(sizes, kinds, args.repeat)
        worst = max(ratios, default=0.0)
        verdict = "near linear" if worst <= 12 else "SUPERLINEAR (target <= 12x per 10x)"
        print(f"worst growth: {worst:.1f}x per 10x nodes -> {verdict}")


if __name__ == "__main__":
    main()
