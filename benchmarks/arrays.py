"""Whole-array numpy code: son.jit against numba.njit (the same source) and numpy.

    python benchmarks/arrays.py [--quick]

(a) a fused chain ``np.sum(np.sqrt(x * x + y * y) * w)`` and its elementwise part, at
10**6 elements: son.jit / numba.njit (target <= 1.0) and numpy / son.jit (target >= 2),
with the arrays each one allocates per call: son fuses the chain into one loop (the
elementwise version allocates only its result, the reduction nothing), numpy makes a
temporary per operator (its peak is measured with tracemalloc, which numpy reports
to); numba's array expressions allocate per operator too (counted with its runtime's
allocation statistics).  Whether each result is numpy's, bit for bit, is printed:
son sums floats as numpy does (pairwise), numba left to right.
(b) 2-D kernels written with whole-array expressions and loops: a 5-point stencil on
interior views, a row-normalisation, a least-squares residual; son.jit / numba.njit
(target <= 1.05).
(c) son.grad of a least-squares loss written as a chain (``np.sum(r * r)``), and of the
2-D one ``np.sum((A @ x - b) ** 2)``: the time of the gradient over the forward's
(target <= 3), and against ``jax.jit(jax.grad)`` in float64 on the CPU where jax is
installed (it is not one of son's dependencies: ``pip install jax``).

son's allocation counts include the pairwise sum's five small stacks (64 and 128
elements) per reduction; none is of the input's size.

A script, not a test: timings depend on the machine and its load.  Each ratio is
measured side by side in one run.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc

import numpy as np


# ====================================================================== kernels
def fused_sum(x, y, w):
    return np.sum(np.sqrt(x * x + y * y) * w)


def fused_map(x, y, w):
    return np.sqrt(x * x + y * y) * w


def stencil2d(a):
    out = np.zeros_like(a)
    out[1:-1, 1:-1] += a[1:-1, 1:-1] * -4.0
    out[1:-1, 1:-1] += a[:-2, 1:-1]
    out[1:-1, 1:-1] += a[2:, 1:-1]
    out[1:-1, 1:-1] += a[1:-1, :-2]
    out[1:-1, 1:-1] += a[1:-1, 2:]
    return out


def normalize_rows(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        row = a[i]
        out[i] = (row - row.mean()) / (np.sqrt(np.mean(row * row)) + 1.0)
    return out


def linear_loss(w, xs, ys):
    r = w[0] + w[1] * xs - ys
    return np.sum(r * r) / len(xs)


def least_squares(A, x, b):
    return np.sum((A @ x - b) ** 2)


def residual(A, x, b):
    n = A.shape[0]
    r = np.empty(n)
    for i in range(n):
        r[i] = np.sum(A[i] * x) - b[i]
    return np.sum(r * r)


# ====================================================================== harness
def best_time(fn, args, reps: int, budget_s: float = 3.0) -> float:
    best = float("inf")
    start = time.perf_counter()
    for _ in range(reps):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
        if time.perf_counter() - start > budget_s:
            break
    return best


def numpy_peak(fn, args) -> int:
    """Peak bytes numpy allocated during one call (numpy reports to tracemalloc)."""
    tracemalloc.start()
    fn(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def nrt_allocations(fn, args) -> int:
    """Arrays a compiled kernel allocated in one call (numba's runtime statistics)."""
    from numba.core.runtime import rtsys

    before = rtsys.get_allocation_stats().alloc
    fn(*args)
    return rtsys.get_allocation_stats().alloc - before


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs, fewer repetitions")
    opts = ap.parse_args()
    os.environ.setdefault("NUMBA_NRT_STATS", "1")  # before numba is imported: allocation counts
    import numba

    import son

    n = 10**5 if opts.quick else 10**6
    reps = 5 if opts.quick else 30
    rng = np.random.default_rng(0)
    x, y, w = rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n)

    print(f"(a) fused chains, {n:,} elements (best of {reps}; times in ms)")
    print(f"{'kernel':<12}{'son':>9}{'numba':>9}{'numpy':>9}{'son/numba':>11}{'numpy/son':>11}"
          f"{'son arrays':>12}{'numba arrays':>14}{'numpy peak':>12}{'exact son/numba':>17}")
    for fn in (fused_sum, fused_map):
        js, jn = son.jit(fn, fallback="error"), numba.njit(fn)
        args = (x, y, w)
        want = fn(*args)
        got_s, got_n = js(*args), jn(*args)
        ts, tn, tp = (best_time(f, args, reps) for f in (js, jn, fn))
        peak = numpy_peak(fn, args)
        exact = f"{same_bits(got_s, want)}/{same_bits(got_n, want)}"
        print(f"{fn.__name__:<12}{ts * 1e3:>9.3f}{tn * 1e3:>9.3f}{tp * 1e3:>9.3f}{ts / tn:>11.2f}"
              f"{tp / ts:>11.2f}{nrt_allocations(js, args):>12}{nrt_allocations(jn, args):>14}"
              f"{peak / 8 / n:>10.1f}xn{exact:>17}")

    side = 128 if opts.quick else 512
    a = rng.standard_normal((side, side))
    b = rng.standard_normal(side)
    xs = rng.standard_normal(side)
    print(f"\n(b) 2-D kernels, {side}x{side} (best of {reps}; times in ms)")
    print(f"{'kernel':<16}{'son':>9}{'numba':>9}{'son/numba':>11}{'exact son/numba':>17}")
    cases = [(stencil2d, (a,)), (normalize_rows, (a,)), (residual, (a, xs, b))]
    for fn, args in cases:
        js, jn = son.jit(fn, fallback="error"), numba.njit(fn)
        want = fn(*args)
        ok = f"{same_bits(js(*args), want)}/{same_bits(jn(*args), want)}"
        ts, tn = best_time(js, args, reps), best_time(jn, args, reps)
        print(f"{fn.__name__:<16}{ts * 1e3:>9.3f}{tn * 1e3:>9.3f}{ts / tn:>11.2f}{ok:>17}")

    print(f"\n(c) son.grad of a least-squares loss over {n:,} points, with respect to its 2 weights")
    fwd = son.jit(linear_loss, fallback="error")
    grad = son.grad(linear_loss, argnums=(0,))
    args = (np.array([0.5, -1.5]), x, y)
    fwd(*args)
    grad(*args)
    tf, tg = best_time(fwd, args, reps), best_time(grad, args, reps)
    print(f"forward {tf * 1e3:.3f} ms  gradient {tg * 1e3:.3f} ms  gradient/forward {tg / tf:.2f}")

    rows, cols = (400, 250) if opts.quick else (2000, 500)
    A, xw, bw = rng.standard_normal((rows, cols)), rng.standard_normal(cols), rng.standard_normal(rows)
    print(f"\n(c) son.grad of np.sum((A @ x - b) ** 2), A {rows}x{cols}, with respect to x")
    fwd = son.jit(least_squares, fallback="error")
    grad = son.grad(least_squares, argnums=1)
    args = (A, xw, bw)
    fwd(*args)
    g = grad(*args)
    tf, tg = best_time(fwd, args, reps), best_time(grad, args, reps)
    line = f"forward {tf * 1e3:.3f} ms  gradient {tg * 1e3:.3f} ms  gradient/forward {tg / tf:.2f}"
    jax_grad = _jax_gradient()
    if jax_grad is None:
        print(line + "  (jax not installed: no jax.jit(jax.grad) to compare)")
    else:
        jg = jax_grad(*args)
        tj = best_time(lambda *a: jax_grad(*a).block_until_ready(), args, reps)
        same = np.allclose(np.asarray(jg), g, rtol=1e-9, atol=1e-9)
        print(line + f"  jax.jit(jax.grad) {tj * 1e3:.3f} ms  son/jax {tg / tj:.2f}  (same gradient: {same})")


def _jax_gradient():
    """``jax.jit(jax.grad)`` of the least-squares loss in float64, or None without jax."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    return jax.jit(jax.grad(lambda A, x, b: jnp.sum((A @ x - b) ** 2), argnums=1))


if __name__ == "__main__":
    main()
