"""Recursion (son/frontend/recursion.py, ``Call`` in son/nodes/memory.py): a function that
calls itself, directly or through helpers inlined into it, compiles to a graph with
``Call`` nodes; the interpreter runs the graph again, a kernel calls itself, both raise
RecursionError past ``son.config.recursion_limit`` calls deep.  CPython is the oracle in
every stage (hypothesis inputs); the result kind is assumed and checked (a float
function is parsed again); what is not supported is refused with a located error, and
gradients go through recursion in forward mode (tests/test_grad_calls.py).  Recursive
helpers, and a call of the function with other kinds of arguments, are graphs of their
own: tests/test_module_calls.py."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_both, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError
from son.nodes import ir


def fib(n: int):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def factorial(n: int):
    return 1 if n <= 1 else n * factorial(n - 1)


def gcd(a: int, b: int):
    if b == 0:
        return abs(a)
    return gcd(b, a % b)


def ackermann(m: int, n: int):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def _odd(n):  # a helper inlined into is_even: its call of is_even is recursion of is_even
    return False if n == 0 else is_even(n - 1)


def is_even(n: int):
    return True if n == 0 else _odd(n - 1)


def power(x: float, n: int):  # a float result: the int assumption is parsed again
    if n == 0:
        return 1.0
    h = power(x, n // 2)
    return h * h * (x if n % 2 else 1.0)


def array_sum(a, i: int):
    if i >= len(a):
        return 0.0
    return a[i] + array_sum(a, i + 1)


def binary_search(a, x: float, lo: int, hi: int):
    if lo >= hi:
        return -1
    mid = (lo + hi) // 2
    if a[mid] == x:
        return mid
    if a[mid] < x:
        return binary_search(a, x, mid + 1, hi)
    return binary_search(a, x, lo, mid)


def quicksort(a, lo: int, hi: int):
    """In place: the calls write the array they are given (a Call is a memory effect)."""
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


def quicksort_procedure(a, lo: int, hi: int):
    """Returns None: the calls are there for what they write."""
    if lo >= hi:
        return
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
    quicksort_procedure(a, lo, j)
    quicksort_procedure(a, i, hi)


def depth(n: int):
    if n == 0:
        return 0
    return depth(n - 1) + 1


FARR = st.lists(st.floats(-50, 50), max_size=12).map(lambda xs: np.array(xs, dtype=np.float64))
CASES = [
    (fib, [int], st.tuples(st.integers(-2, 16))),
    (factorial, [int], st.tuples(st.integers(-3, 20))),
    (gcd, [int, int], st.tuples(st.integers(-10 ** 6, 10 ** 6), st.integers(-10 ** 6, 10 ** 6))),
    (ackermann, [int, int], st.tuples(st.integers(0, 2), st.integers(0, 3))),
    (is_even, [int], st.tuples(st.integers(0, 40))),
    (power, [float, int], st.tuples(st.floats(-3, 3), st.integers(0, 20))),
    (array_sum, ["float64[]", int], st.tuples(FARR, st.integers(-2, 3))),
    (binary_search, ["float64[]", float, int, int],
     st.tuples(FARR.map(np.sort), st.floats(-50, 50), st.just(0), st.integers(0, 12))),
    (quicksort, ["float64[]", int, int], FARR.map(lambda a: (a, 0, len(a) - 1))),
    # its calls give None, a constant: folding one away lost its writes (a wrong answer)
    (quicksort_procedure, ["float64[]", int, int], FARR.map(lambda a: (a, 0, len(a) - 1))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=40)


def test_the_graph_holds_calls_and_a_float_result_is_parsed_again():
    g = son.parse(power)
    calls = [n for n in g.nodes() if type(n).__name__ == "Call"]
    assert calls and all(str(c.type) == "float" for c in calls)
    assert "call power" in ir(g)


def test_runaway_recursion_raises_recursion_error_in_every_stage():
    deep = 10 * son.config.recursion_limit
    g, k = son.parse(depth), son.jit(depth)
    for n in (300, deep):
        want, got = run_both(depth, (n,), graph=g)
        assert want == got and (want[0] == "ok") == (n == 300)
        assert (k(n) == n) if n == 300 else pytest.raises(RecursionError, k, n)


@pytest.mark.parametrize("text, message", [
    ("def f(t: tuple[int, int]):\n    return 0 if t[0] <= 0 else f((t[0] - 1, t[1]))\n", "tuples"),
    ("def f(n: int):\n    if n <= 0:\n        return None\n    f(n - 1)\n    return n\n", "returns None"),
])
def test_refusals_of_what_a_call_cannot_pass(text, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source(text)


def test_gradients_go_through_recursion_in_forward_mode():  # tests/test_grad_calls.py for more
    assert son.grad(power)(1.5, 3) == pytest.approx(3 * 1.5 ** 2)
    assert son.jvp(power, argnums=0)((1.5, 3), (2.0,)) == pytest.approx((1.5 ** 3, 6 * 1.5 ** 2))


def test_a_recursive_kernel_runs_in_a_second_process(tmp_path):
    # numba 0.68 crashed (SIGSEGV) loading a cached self-recursive function in a second
    # process: recursive kernels are compiled without numba's disk cache
    import os
    import subprocess
    import sys

    (tmp_path / "rec_mod.py").write_text("def fib(n: int):\n"
                                         "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n")
    code = "import son, rec_mod; print(son.jit(rec_mod.fib)(20))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]),
               SON_CACHE_DIR=str(tmp_path / "cache"))
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and r.stdout.strip() == "6765", (r.returncode, r.stderr[-2000:])


def _countdown(n: int, step: int):  # one call per path: the depth, not a tree, is n / 3
    if n <= 2:
        return step
    if n % 2:
        return 1 + _countdown(n - 3, step)
    return 2 + _countdown(n - 7, step)


def _climb(n: int):  # n grows: no measure, every call counts its depth
    if n >= 10 ** 6 or n < 0:
        return 0
    return 1 + _climb(n + 1)


def test_a_recursion_bounded_by_a_decreasing_parameter_runs_a_copy_that_counts_no_depth():
    """``recursion_bound``: every call passes ``n`` 3 or 7 smaller, only where ``n >= 3``,
    so the kernel calls a copy without the depth count below ``limit + 3 - 2``; above it
    the counting copy raises RecursionError exactly where the interpreter does."""
    from son.exec.codegen import recursion_bound

    g = son.Pipeline.of("sccp").build(_countdown, argtypes=[int, int])
    limit = son.config.recursion_limit
    assert recursion_bound(g) == (0, limit + 3 - 2)
    k = son.jit(_countdown)
    assert k(10, 1) == _countdown(10, 1)
    assert "_countdown_fast" in k.source
    ns = [-5, 0, 2, 3, 100, limit - 2, limit - 1, limit, limit + 1, 3 * limit, 5 * limit - 50, 5 * limit + 50]
    for n in ns:
        try:
            want = son.interpret(g, n, 1)
        except RecursionError:
            with pytest.raises(RecursionError):
                k(n, 1)
            continue
        assert k(n, 1) == want, n
    assert recursion_bound(son.Pipeline.of("sccp").build(_climb, argtypes=[int])) is None
    climb = son.jit(_climb)
    with pytest.raises(RecursionError):
        climb(5)
    assert "_climb_fast" not in climb.source


def _walk(n: int, acc: int):  # tail calls: its own result is what it returns
    if n <= 0:
        return acc
    if n % 3 == 0:
        return _walk(n - 2, acc + n)
    return _walk(n - 1, acc ^ n)


def _sweep(a, lo: int, hi: int):  # the last call is a tail call: every return gives 0
    if lo >= hi:
        return 0
    a[lo] += a[hi]
    _sweep(a, lo + 1, hi)
    _sweep(a, lo + 1, hi - 1)
    return 0


def test_tail_calls_run_as_the_next_round_of_a_loop_and_still_count_their_depth():
    """``_find_tail_calls``: the kernel's own call as its last act reassigns the
    parameters and loops instead of calling, so numba's status check after a call (any
    raise in the function adds it) no longer keeps LLVM from the same rewrite; the depth
    still grows by one per call, so RecursionError comes where CPython raises it."""
    limit = son.config.recursion_limit
    k = son.jit(_walk)
    for n in (0, 1, 7, 100, limit - 10):
        want, got = run_python(_walk, (n, 5)), run_python(k, (n, 5))
        assert want == got, n
    assert "continue" in k.source and "_depth = " in k.source
    # past son's limit (CPython's own may have been raised by whatever ran before)
    with pytest.raises(RecursionError):
        k(3 * limit, 5)
    with pytest.raises(RecursionError):
        son.interpret(son.parse(_walk), 3 * limit, 5)
    s = son.jit(_sweep)
    for n in (0, 1, 2, 5, 9):
        a = np.arange(n, dtype=np.float64)
        b = a.copy()
        assert s(a, 0, n - 1) == _sweep(b, 0, n - 1) and np.array_equal(a, b)
    assert s.source.count("_sweep_calls(") == 3  # its definition, the first call, the kernel's
    f = son.jit(fib)
    assert f(10) == fib(10)
    assert "continue" not in f.source  # fib(n - 1) + fib(n - 2): no tail call
