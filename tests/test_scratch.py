"""Scratch arrays (son/exec/scratch.py): a kernel's temporaries that never leave a call
are carved from buffers kept between calls.  Which arrays qualify is decided on the
graph; the kernel must give what CPython gives whatever the buffer held before, for
any sizes in any order, from several threads at once and when re-entered."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.exec.scratch import hoisted_slots, scratch_slots
from son.nodes import NewArray
from son.schedule import schedule


def two_temporaries(x: np.ndarray, k: int) -> float:
    a = np.empty(len(x))  # scratch: written, then read
    b = np.zeros(len(x) + k)  # scratch, zeroed at every call
    for i in range(len(x)):
        a[i] = x[i] * 2.0
    for i in range(len(x)):
        b[i + k] += a[i] + b[i]
    s = 0.0
    for i in range(len(b)):
        s += b[i] * (i + 1)
    return s


def returns_its_array(n: int) -> np.ndarray:
    out = np.zeros(n)  # leaves the call: not scratch
    for i in range(n):
        out[i] = i * 0.5
    return out


def allocates_in_a_loop(n: int) -> float:
    prev = np.zeros(1)
    s = 0.0
    for j in range(3):
        cur = np.ones(n)  # one per iteration, and the previous one is still read: not scratch
        cur[0] = j + prev[0]
        s += cur[0] + prev[0]
        prev = cur
    return s


def negative_length(n: int) -> float:
    a = np.zeros(n)
    return float(len(a))


def scratch_arrays_of(fn, **argtypes) -> list[str]:
    g, _ = son.optimize(son.parse(fn, argtypes=argtypes), "combined")
    return sorted(n.fill for n in scratch_slots(schedule(g)) if type(n) is NewArray)


def test_only_arrays_that_never_leave_a_call_and_are_made_once_are_scratch():
    assert scratch_arrays_of(two_temporaries, x="float64[]", k="int") == ["empty", "zeros"]
    assert scratch_arrays_of(returns_its_array, n="int") == []
    assert "ones" not in scratch_arrays_of(allocates_in_a_loop, n="int")
    f = son.jit(two_temporaries)
    f(np.ones(3), 1)
    assert "_son_scratch_float64" in f.source and "_son_buf" in f.source
    r = son.jit(returns_its_array)
    r(3)
    assert "_son_scratch" not in r.source


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 5)), min_size=1, max_size=6))
def test_any_sizes_in_any_order_give_cpythons_result(calls):
    f = son.jit(two_temporaries)
    for n, k in calls:  # the buffer grows, and later calls get less than it holds
        x = np.arange(n, dtype=np.float64) * 0.25 - 3.0
        assert f(x, k) == two_temporaries(x, k)


def test_arrays_made_in_a_loop_and_a_negative_length_behave_as_in_cpython():
    f = son.jit(allocates_in_a_loop)
    for n in (1, 4, 2):
        assert f(n) == allocates_in_a_loop(n)
    g = son.jit(negative_length)
    assert g(3) == 3.0
    with pytest.raises(ValueError, match="negative dimensions"):
        g(-1)
    assert g(2) == 2.0  # the buffer is still good after the error


def small_arrays_in_a_loop(x: np.ndarray, n: int) -> float:
    s = 0.0
    last = np.zeros(2)
    for i in range(n):
        w = np.zeros(3)  # a round's own: made once, filled again each round
        w[i % 3] += x[i % len(x)]
        t = np.empty(2)  # a round's own, its contents written before they are read
        t[0] = w[0] + w[1]
        t[1] = w[2]
        s += t[0] * 2.0 + t[1] + np.sum(w)
        last = np.ones(2)  # carried out of the loop by a Phi: made each round
        last[0] = s
    return s + last[0] + last[1]


def test_small_arrays_made_in_a_loop_are_made_once_unless_a_phi_carries_them():
    g, _ = son.optimize(son.parse(small_arrays_in_a_loop, argtypes={"x": "float64[]", "n": "int"}),
                        "combined")
    assert sorted(n.fill for n in hoisted_slots(schedule(g))) == ["empty", "zeros"]
    assert sorted(n.fill for n in hoisted_slots(schedule(son.optimize(
        son.parse(allocates_in_a_loop, argtypes={"n": "int"}), "combined")[0]))) == []
    f = son.jit(small_arrays_in_a_loop)
    x = np.array([0.5, -1.25, 3.0, 2.0])
    for n in (0, 1, 5, 17):
        assert f(x, n) == small_arrays_in_a_loop(x, n)
    assert "_hoisted0 = np.empty(" in f.source and "_son_fill(" in f.source


def test_threads_never_share_a_buffer():
    f = son.jit(two_temporaries)
    f(np.ones(2), 0)
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        for _ in range(30):
            x = rng.standard_normal(int(rng.integers(1, 2000)))
            k = int(rng.integers(0, 4))
            if f(x, k) != two_temporaries(x, k):
                errors.append((seed, len(x), k))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


INNER = []


def reenters(x: np.ndarray, depth: int) -> float:
    a = np.zeros(len(x))
    for i in range(len(x)):
        a[i] = x[i] + depth
    if depth > 0:
        inner: float = INNER[0](x[1:], depth - 1)  # a fallback region calling this very kernel
    else:
        inner = 0.0
    s = 0.0
    for i in range(len(x)):
        s += a[i] * 3.0
    return s + inner


def test_a_call_that_reenters_the_kernel_gets_its_own_buffer():
    f = son.jit(reenters)
    INNER[:] = [f]
    try:
        x = np.arange(50.0)
        INNER[:] = [reenters]
        want = reenters(x, 3)
        INNER[:] = [f]
        with pytest.warns(son.FallbackWarning):
            assert f(x, 3) == want
        assert "_son_scratch" in f.source
    finally:
        INNER[:] = []


def test_gradients_keep_their_residuals_in_scratch_arrays():
    def loss(w, xs, ys):
        r = w[0] + w[1] * xs - ys
        return np.sum(r * r) / len(xs)

    g = son.grad(loss, argnums=(0,))
    xs = np.linspace(-1.0, 1.0, 1000)
    ys = 2.0 * xs + 1.0
    w = np.array([0.5, 1.5])
    first = g(w, xs, ys)
    assert "_son_scratch_float64" in g.source
    again = g(w, xs, ys)  # from the kept buffers: the same gradient
    np.testing.assert_array_equal(first, again)
    np.testing.assert_allclose(first, son.grad(loss, argnums=(0,), interpret=True)(w, xs, ys), rtol=1e-12)


def test_kernels_share_one_compiled_copy_of_each_helper():
    """A helper (here the scratch allocator) is a dispatcher of the one helpers module all
    kernels import, so numba compiles it once per process, not once per kernel, and the
    kernel's text names that module's hash (a changed helper is a new kernel file)."""
    import sys

    from son.exec.kernel import forget_kernels

    def f(n: int):
        a = np.zeros(n)
        for i in range(n):
            a[i] = i * 0.5
        return a.sum()

    def g(n: int):
        b = np.zeros(n)
        for i in range(n):
            b[i] = i * 2.0
        return b.sum() + 1.0

    kf, kg = son.compile(son.parse(f)), son.compile(son.parse(g))
    assert kf(5) == f(5) and kg(7) == g(7)
    assert "def _son_scratch_float64" not in kf.source and "shared_helpers('" in kf.source
    mf, mg = (sys.modules[f"son_kernels.{k.path.stem}"] for k in (kf, kg))
    assert mf._son_scratch_float64 is mg._son_scratch_float64
    assert len(mf._son_scratch_float64.overloads) == 1  # one signature, whatever literals they pass
    forget_kernels()  # numba's disk cache of the kernel finds the helpers' module again
    k = son.compile(son.parse(f))
    assert k.stats["cache"] == "disk" and k(5) == f(5)
