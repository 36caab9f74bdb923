"""Gradients: son.grad kernels against son.jit forward kernels, autograd and JAX.

    python benchmarks/grad.py [--quick] [--only NAME ...]

Per loop-heavy function, in one process:

* ``fwd`` / ``grad``: best-of-N time per call of the forward kernel (``son.jit``) and
  of the gradient kernel (``son.grad``, same arguments, first-call compile excluded);
  ``ratio`` = grad / fwd, target <= 3 (the cheap-gradient bound);
* ``alloc ms``: the floor no gradient kernel avoids, allocating its zeroed gradient
  arrays (``np.zeros`` of each differentiated array's length in a Numba function, same
  arguments); ``ratio-a`` = (grad - alloc) / fwd, the ratio without it.  With glibc two
  8 MB arrays freed per call are returned to the system and page-faulted in again at
  every call (about 8 ms here), one is reused from the heap (0.2 ms): that is why dot
  sits far above sum of squares;
* ``tape B/it``: bytes the forward sweep pushes on tapes per iteration of the
  function's innermost loop (counted statically on the scheduled gradient graph: each
  push inside a loop stores one 8-byte element per iteration);
* ``fd err``: the largest relative difference between son's gradient and central
  differences on a few entries (small input);
* ``autograd``: autograd's time per call of ``autograd.grad`` on the same Python
  source (``math`` re-bound to ``autograd.numpy``) on a smaller input, and son's
  speed-up over it on that input;
* ``jax``: ``jax.jit(jax.grad(f))`` on CPU with the loop written as
  ``lax.fori_loop`` (what JAX needs), or why JAX cannot do it (reverse-mode
  differentiation of ``lax.while_loop`` is not supported); the stencil, whose
  ``fori_loop`` carries an array that reverse mode saves every iteration (quadratic),
  runs on the small input.  JAX is optional: without
  it the column says "jax not installed".

Every gradient is first checked against autograd or central differences (a wrong
fast gradient is worse than none).  This is a script, not a test: timings depend on
the machine and its load.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


# ====================================================================== functions
def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def sum_squares(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * a[i]
    return s


def log_sum_exp(a):
    m = a[0]
    for i in range(1, len(a)):
        m = max(m, a[i])
    s = 0.0
    for i in range(len(a)):
        s += math.exp(a[i] - m)
    return m + math.log(s)


def softmax_xent(a, k):
    m = a[0]
    for i in range(1, len(a)):
        m = max(m, a[i])
    s = 0.0
    for i in range(len(a)):
        s += math.exp(a[i] - m)
    return m + math.log(s) - a[k]


def rnn(xs, w, u):
    h = 0.0
    for i in range(len(xs)):
        h = math.tanh(w * h + u * xs[i] + 0.1)
    return h * h


def horner(c, x):
    acc = 0.0
    for i in range(len(c)):
        acc = acc * x + c[i]
    return acc


def newton_sqrt_sum(a):
    total = 0.0
    for i in range(len(a)):
        v = a[i]
        x = v
        while abs(x * x - v) > 1e-12 * v:
            x = 0.5 * (x + v / x)
        total += x
    return total


def smooth(a):
    y = np.zeros(len(a))
    for i in range(1, len(a) - 1):
        y[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0
    s = 0.0
    for i in range(len(y)):
        s += y[i] * y[i]
    return s


def decay(x, rate):
    s = x
    t = 0.0
    while s > 1e-3:
        s = s * rate
        t += s
    return t


# ====================================================================== JAX versions
def _jax_versions():
    """name -> (function of the same arguments, argnums) or a reason string."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    def j_dot(a, b):
        return lax.fori_loop(0, a.shape[0], lambda i, s: s + a[i] * b[i], 0.0)

    def j_sum_squares(a):
        return lax.fori_loop(0, a.shape[0], lambda i, s: s + a[i] * a[i], 0.0)

    def j_lse(a):
        m = lax.fori_loop(1, a.shape[0], lambda i, m: jnp.maximum(m, a[i]), a[0])
        s = lax.fori_loop(0, a.shape[0], lambda i, s: s + jnp.exp(a[i] - m), 0.0)
        return m + jnp.log(s)

    def j_xent(a, k):
        return j_lse(a) - a[k]

    def j_rnn(xs, w, u):
        h = lax.fori_loop(0, xs.shape[0], lambda i, h: jnp.tanh(w * h + u * xs[i] + 0.1), 0.0)
        return h * h

    def j_horner(c, x):
        return lax.fori_loop(0, c.shape[0], lambda i, acc: acc * x + c[i], 0.0)

    def j_smooth(a):
        def body(i, y):
            return y.at[i].set((a[i - 1] + a[i] + a[i + 1]) / 3.0)

        y = lax.fori_loop(1, a.shape[0] - 1, body, jnp.zeros_like(a))
        return lax.fori_loop(0, y.shape[0], lambda i, s: s + y[i] * y[i], 0.0)

    return {
        "dot": (j_dot, (0, 1)),
        "sum_squares": (j_sum_squares, (0,)),
        "log_sum_exp": (j_lse, (0,)),
        "softmax_xent": (j_xent, (0,)),
        "rnn": (j_rnn, (0, 1, 2)),
        "horner": (j_horner, (0, 1)),
        # reverse mode of a fori_loop saves its whole carry (the array y) every iteration:
        # O(n^2) time and memory, so it runs on the small input only
        "smooth": (j_smooth, (0,), "small"),
        "newton_sqrt_sum": "lax.while_loop: JAX cannot reverse-differentiate it",
        "decay": "lax.while_loop: JAX cannot reverse-differentiate it",
    }


# ====================================================================== the table
@dataclass
class Bench:
    fn: Callable
    args: Callable[[int, np.random.Generator], tuple]
    argnums: tuple[int, ...]
    ag: bool = True   # False: autograd cannot differentiate in-place array writes

    @property
    def name(self) -> str:
        return self.fn.__name__


BENCHES = [
    Bench(dot, lambda n, r: (r.standard_normal(n), r.standard_normal(n)), (0, 1)),
    Bench(sum_squares, lambda n, r: (r.standard_normal(n),), (0,)),
    Bench(log_sum_exp, lambda n, r: (r.standard_normal(n),), (0,)),
    Bench(softmax_xent, lambda n, r: (r.standard_normal(n), n // 3), (0,)),
    Bench(rnn, lambda n, r: (r.standard_normal(n), 0.5, 0.3), (0, 1, 2)),
    Bench(horner, lambda n, r: (r.standard_normal(n) / n, 0.999), (0, 1)),
    Bench(newton_sqrt_sum, lambda n, r: (r.uniform(0.5, 4.0, n // 4),), (0,)),
    Bench(smooth, lambda n, r: (r.standard_normal(n),), (0,), ag=False),
    Bench(decay, lambda n, r: (1.0, 1.0 - 6.9 / n), (0, 1)),
]


def best(f: Callable, args: tuple, repeat: int) -> float:
    """Best time per call in seconds (after one warm-up call)."""
    f(*args)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - t0)
    return min(times)


def autograd_fn(fn: Callable) -> Callable:
    """``fn`` with ``math`` and ``np`` re-bound to autograd.numpy."""
    import types

    import autograd.numpy as anp

    ns = dict(fn.__globals__)
    ns["math"] = types.SimpleNamespace(exp=anp.exp, log=anp.log, tanh=anp.tanh, sqrt=anp.sqrt)
    ns["np"] = anp
    return types.FunctionType(fn.__code__, ns, fn.__name__)


def autograd_grad(fn: Callable, argnums: tuple[int, ...]) -> Callable:
    import autograd

    f = autograd_fn(fn)
    return lambda *a: tuple(autograd.grad(f, i)(*a) for i in argnums)


def fd_check(b: Bench, grads: tuple, args: tuple) -> float:
    """Largest relative error of ``grads`` against central differences on a few entries."""
    worst = 0.0
    for pos, i in enumerate(b.argnums):
        x = args[i]
        g = grads[pos]
        idx = range(min(3, len(x))) if isinstance(x, np.ndarray) else [None]
        for j in idx:
            def at(d, j=j):
                a = [v.copy() if isinstance(v, np.ndarray) else v for v in args]
                if j is None:
                    a[i] = a[i] + d
                else:
                    a[i][j] += d
                return b.fn(*a)

            h = 1e-5 * max(1.0, abs(float(x if j is None else x[j])))
            fd = (at(h) - at(-h)) / (2 * h)
            got = float(g if j is None else g[j])
            worst = max(worst, abs(got - fd) / max(1e-6, abs(fd)))
    return worst


def tape_bytes_per_iteration(graph) -> int | None:
    """Bytes pushed on tapes per iteration of the innermost loop of the forward sweep,
    counted on the scheduled gradient graph: a push is a ``TapeGrow`` + ``Store`` of one
    8-byte element (son/grad/tape.py), so 8 bytes per ``Store`` into a ``TapeGrow``
    scheduled at the deepest loop depth that has any (0: nothing recorded inside loops;
    None: the pushes could not be placed; a ``TapeGrow`` that reserves room before a
    counted loop stores nothing).  Growth by doubling keeps at most twice that live."""
    from son.schedule import schedule

    pushes = [n for n in graph.nodes() if type(n).__name__ == "Store"
              and type(n.inputs[2]).__name__ == "TapeGrow"]
    if not pushes:
        return 0
    s = schedule(graph)
    per_depth: dict[int, int] = {}
    for n in pushes:
        blk = s.block_of.get(n)
        if blk is None:
            return None
        per_depth[blk.depth] = per_depth.get(blk.depth, 0) + 1
    deepest = max(per_depth)
    return 8 * per_depth[deepest] if deepest > 0 else 0


def alloc_floor(b: Bench, args: tuple, repeat: int) -> float:
    """Best time of allocating ``b``'s zeroed gradient arrays alone (0.0 if none)."""
    from numba import njit

    lengths = [len(args[i]) for i in b.argnums if isinstance(args[i], np.ndarray)]
    if not lengths:
        return 0.0

    @njit
    def zeros(lengths):
        out = []
        for n in lengths:
            out.append(np.zeros(n))
        return out

    return best(zeros, (np.array(lengths, dtype=np.int64),), repeat)


def run(quick: bool, only: list[str]) -> None:
    import son

    n = 20_000 if quick else 1_000_000
    n_small = 200 if quick else 2_000
    repeat = 3 if quick else 7
    try:
        jax_fns = _jax_versions()
        import jax
    except ImportError:
        jax_fns = None
    rng = np.random.default_rng(0)
    print(f"n = {n} (autograd on n = {n_small}); best of {repeat}; times per call")
    head = (f"{'function':16s} {'fwd ms':>9s} {'grad ms':>9s} {'ratio':>6s} {'alloc ms':>9s} "
            f"{'ratio-a':>7s} {'tape B/it':>9s} "
            f"{'fd err':>8s} {'autograd ms':>12s} {'son ms':>9s} {'speed-up':>9s} {'jax ms':>9s}  note")
    print(head)
    print("-" * len(head))
    ratios = []
    for b in BENCHES:
        if only and b.name not in only:
            continue
        args = b.args(n, rng)
        fwd = son.jit(b.fn, fallback="error")
        grad = son.grad(b.fn, argnums=b.argnums)
        t_fwd = best(fwd, args, repeat)
        t_grad = best(grad, args, repeat)
        t_alloc = alloc_floor(b, args, repeat)
        tape = tape_bytes_per_iteration(grad.graph)
        small = b.args(n_small, np.random.default_rng(1))
        err = fd_check(b, grad(*small), small)   # on the small input: difference quotients stay accurate
        t_son_small = best(grad, small, repeat)
        if b.ag:
            ag = autograd_grad(b.fn, b.argnums)
            t_ag = best(ag, small, 1)
            ag_err = max(float(np.max(np.abs(np.asarray(x) - np.asarray(y)) / (1e-9 + np.max(np.abs(y)))))
                         for x, y in zip(grad(*small), ag(*small)))
            note = "" if ag_err < 1e-8 else f"autograd differs by {ag_err:.1e}"
            ag_cols = f"{t_ag * 1e3:12.2f} {t_son_small * 1e3:9.4f} {t_ag / t_son_small:9.0f}"
        else:
            note = "autograd: in-place array writes"
            ag_cols = f"{'-':>12s} {t_son_small * 1e3:9.4f} {'-':>9s}"
        if jax_fns is None:
            t_jax, jnote = "", "jax not installed"
        elif isinstance(jax_fns[b.name], str):
            t_jax, jnote = "", "jax: " + jax_fns[b.name]
        else:
            jf, jargnums, *size = jax_fns[b.name]
            jg = jax.jit(jax.grad(jf, argnums=jargnums))
            on = small if size else args
            jargs = tuple(jax.numpy.asarray(a) if isinstance(a, np.ndarray) else a for a in on)

            def jcall(*a, jg=jg):
                return jax.block_until_ready(jg(*a))

            t_jax = f"{best(jcall, jargs, repeat) * 1e3:9.3f}"
            jnote = (f"jax on n = {n_small} (the loop's carry is saved per iteration: O(n^2)); "
                     f"son there: {t_son_small * 1e3:.4f} ms") if size else ""
        ratio = t_grad / t_fwd
        ratios.append(ratio)
        tape_s = "?" if tape is None else str(tape)
        print(f"{b.name:16s} {t_fwd * 1e3:9.3f} {t_grad * 1e3:9.3f} {ratio:6.2f} {t_alloc * 1e3:9.3f} "
              f"{(t_grad - t_alloc) / t_fwd:7.2f} {tape_s:>9s} {err:8.1e} "
              f"{ag_cols} {t_jax:>9s}  "
              f"{'; '.join(x for x in (note, jnote) if x)}", flush=True)
    if ratios:
        print(f"\ngrad/fwd: median {np.median(ratios):.2f}, max {max(ratios):.2f} (target <= 3)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small inputs, few repeats")
    p.add_argument("--only", nargs="*", default=[], help="run only these functions")
    a = p.parse_args(argv)
    run(a.quick, a.only)


if __name__ == "__main__":
    sys.exit(main())
