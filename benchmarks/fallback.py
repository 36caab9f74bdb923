"""JIT fallback per region: what a region costs in a compiled loop.

    python benchmarks/fallback.py [--quick]

(a) a numeric loop that prints its progress every 10**5 iterations, compiled by son.jit
with the ``print`` as a fallback region (run through ``numba.objmode``), against the
same loop without the print (target: region / without >= 0.9 in speed, i.e. a time
ratio <= 1.11), and against ``fallback="function"`` (the whole function in CPython).
(b) a dict-based table built and read outside the hot loop (two regions), against the
same function with the value written as a constant.

Printed output goes to a buffer during the timings.  A script, not a test: timings
depend on the machine and its load; each ratio is measured side by side in one run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import time
import warnings

import numpy as np

import son


def with_print(a: np.ndarray, n: int) -> float:
    s = 0.0
    m = len(a)
    for i in range(n):
        s += math.sqrt(a[i % m] * i + 1.0)
        if i % 100000 == 0:
            print("progress", i, s)
    return s


def without_print(a: np.ndarray, n: int) -> float:
    s = 0.0
    m = len(a)
    for i in range(n):
        s += math.sqrt(a[i % m] * i + 1.0)
    return s


def with_table(a: np.ndarray) -> float:
    table = {}
    for k in range(10):
        table[k] = k * 0.5
    scale: float = table[3]
    s = 0.0
    for i in range(len(a)):
        s += a[i] * scale + math.sqrt(a[i])
    return s


def with_constant(a: np.ndarray) -> float:
    scale = 1.5
    s = 0.0
    for i in range(len(a)):
        s += a[i] * scale + math.sqrt(a[i])
    return s


def best(fn, args, repeat: int) -> float:
    out = io.StringIO()
    times = []
    with contextlib.redirect_stdout(out):
        fn(*args)  # compile, warm
        for _ in range(repeat):
            t = time.perf_counter()
            fn(*args)
            times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = ap.parse_args()
    n, size, repeat = (200_000, 10_000, 3) if args.quick else (5_000_000, 1_000_000, 5)
    a = np.random.default_rng(0).random(size) + 0.5
    warnings.simplefilter("ignore", son.FallbackWarning)

    region, plain = son.jit(with_print), son.jit(without_print)
    whole = son.jit(with_print, fallback="function")
    with contextlib.redirect_stdout(io.StringIO()):
        assert region(a, n) == with_print(a, n) == plain(a, n)
    assert region.stats["fallback_regions"], "the print must be a region"
    t_region, t_plain = best(region, (a, n), repeat), best(plain, (a, n), repeat)
    t_whole = best(whole, (a, n), 1)
    print(f"(a) loop of {n:,} iterations printing every 100,000:")
    print(f"    son.jit with the print as a region   {t_region * 1e3:9.2f} ms")
    print(f"    son.jit of the loop without print    {t_plain * 1e3:9.2f} ms")
    print(f"    fallback='function' (all in CPython) {t_whole * 1e3:9.2f} ms")
    print(f"    speed of the region version / without: {t_plain / t_region:.3f}  (target >= 0.9)")
    print(f"    whole-function fallback / region: {t_whole / t_region:.1f}x slower")

    table, constant = son.jit(with_table), son.jit(with_constant)
    assert table(a) == with_table(a) and constant(a) == with_constant(a)
    t_table, t_constant = best(table, (a,), repeat), best(constant, (a,), repeat)
    print(f"(b) dict table outside a loop over {size:,} elements (2 regions):")
    print(f"    son.jit with the regions {t_table * 1e3:9.2f} ms, with a constant {t_constant * 1e3:9.2f} ms")
    print(f"    speed with regions / constant: {t_constant / t_table:.3f}  (target >= 0.9)")


if __name__ == "__main__":
    main()
