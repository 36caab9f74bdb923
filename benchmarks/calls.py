"""Calls: son.jit against numba.njit on the same Python source, side by side.

    python benchmarks/calls.py [--quick]

Kernels: a recursive ``fib(25)``, a recursive in-place quicksort of an array, and a
higher-order integrator (``integrate(f, a, b, n)`` with ``f`` a helper passed as a
value: son inlines it, numba calls a first-class function), the same integrator as
the compiled function with the helper passed in (``integrate_with(bump, a, b, n)``: son.jit
builds a kernel for that function, numba one for the dispatcher's type), and a function calling a
recursive helper (``sorted_sum``: son compiles the helper's graph into the kernel's
module, numba calls the helper's dispatcher).  Each source is compiled
twice from its text, once by son.jit and once by numba.njit under the same name (so
the recursive calls of numba's copy reach numba's dispatcher), and timed best-of-N
on the same inputs in one run.  Printed: the time per call of each and the ratio.
Target (issue 19): median son/numba <= 1.05.

Then the gradient through recursion: ``son.grad`` of a tree-recursive float function
(``wave``, forward mode: each call returns its value and tangent) against
``son.jit`` of the function itself.  Target (issue 19): grad/forward <= 3.

This is a script, not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

import son

#: a higher-order integrator and the helper it is given (integrate, integrate_with)
INTEGRATE = '''
import math


def bump(x):
    return math.exp(-x * x) * math.cos(3.0 * x)


def integrate_with(f, a, b, n):
    h = (b - a) / n
    s = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        s += f(a + i * h)
    return s * h
'''

SOURCES = {
    "fib": ('''
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
''', lambda quick: (20 if quick else 25,)),
    "quicksort": ('''
def quicksort(a, lo, hi):
    if lo >= hi:
        return 0
    p = a[(lo + hi) // 2]
    i, j = lo, hi
    while i <= j:
        while a[i] < p:
            i += 1
        while a[j] > p:
            j -= 1
        if i <= j:
            a[i], a[j] = a[j], a[i]
            i += 1
            j -= 1
    quicksort(a, lo, j)
    quicksort(a, i, hi)
    return 0
''', lambda quick: (np.random.default_rng(0).standard_normal(20_000 if quick else 200_000), 0,
                    (20_000 if quick else 200_000) - 1)),
    "integrate": (INTEGRATE + '''

def integrate(a, b, n):
    return integrate_with(bump, a, b, n)
''', lambda quick: (-3.0, 3.0, 100_000 if quick else 2_000_000)),
    "integrate_with": (INTEGRATE, lambda quick: ("@bump", -3.0, 3.0, 100_000 if quick else 2_000_000)),
    "sorted_sum": ('''
def partition_sort(a, lo, hi):
    if lo >= hi:
        return
    p = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < p:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    partition_sort(a, lo, i - 1)
    partition_sort(a, i + 1, hi)


def sorted_sum(a):
    b = a.copy()
    partition_sort(b, 0, len(b) - 1)
    s = 0.0
    for k in range(len(b)):
        s += b[k] * k
    return s
''', lambda quick: (np.random.default_rng(1).standard_normal(20_000 if quick else 200_000),)),
}

WAVE = '''
import math


def wave(x, n):
    if n <= 1:
        return math.sin(x)
    return 0.5 * wave(x * 0.9, n - 1) + 0.5 * wave(x + 0.1, n - 2)
'''


def _load(name: str, text: str, decorate: bool):
    """The module made from ``text`` (written to a file: son reads the source), its
    functions decorated with numba.njit when ``decorate``."""
    d = Path(tempfile.mkdtemp(prefix="son-bench-calls-"))
    body = text
    if decorate:
        body = "import numba\n" + text.replace("\ndef ", "\n@numba.njit\ndef ")
    path = d / f"bench_{name}_{'numba' if decorate else 'son'}.py"
    path.write_text(body)
    sys.path.insert(0, str(d))
    try:
        return __import__(path.stem)
    finally:
        sys.path.remove(str(d))


def best(fn, args, reps: int) -> float:
    out = float("inf")
    for _ in range(reps):
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        t = time.perf_counter()
        fn(*a)
        out = min(out, time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs, fewer repetitions")
    opts = ap.parse_args()
    reps = 5 if opts.quick else 15
    print(f"{'kernel':<12} {'son ms':>9} {'numba ms':>9} {'son/numba':>10}  same result")
    ratios = []
    for name, (text, inputs) in SOURCES.items():
        ms, mn = _load(name, text, False), _load(name, text, True)
        s, n = son.jit(getattr(ms, name), fallback="error"), getattr(mn, name)
        # "@f": the module's function f as the argument (numba's own copy for numba)
        args_s, args_n = ([getattr(m, x[1:]) if isinstance(x, str) else x for x in inputs(opts.quick)]
                          for m in (ms, mn))
        rs = s(*[x.copy() if isinstance(x, np.ndarray) else x for x in args_s])
        rn = n(*[x.copy() if isinstance(x, np.ndarray) else x for x in args_n])
        ts, tn = best(s, args_s, reps), best(n, args_n, reps)
        ratios.append(ts / tn)
        print(f"{name:<12} {ts * 1e3:9.3f} {tn * 1e3:9.3f} {ts / tn:10.3f}  {rs == rn}")
    print(f"son/numba: median {statistics.median(ratios):.3f}, max {max(ratios):.3f} "
          f"(numba {numba.__version__})")
    wave = _load("wave", WAVE, False).wave
    args = (0.7, 16 if opts.quick else 22)
    f, df = son.jit(wave, fallback="error"), son.grad(wave, argnums=0)
    f(*args), df(*args)
    tf, tg = best(f, args, reps), best(df, args, reps)
    print(f"grad of wave{args}: forward {tf * 1e3:.3f} ms, son.grad {tg * 1e3:.3f} ms, "
          f"grad/forward {tg / tf:.3f}")


if __name__ == "__main__":
    main()
