"""Global arrays read by the compiled function (son/frontend/names.py ``global_array``):
a parameter of the graph the caller never passes (son/nodes/control.py ``GlobalForm``),
filled at each call with the global's value then, as CPython reads the global at each
call; the array itself is passed, so writes reach it and a rebound global is seen.

CPython is the oracle (hypothesis inputs) in every stage; rebinding the global to an
array of another dtype or dimension is a ``SonError``, never a wrong answer."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_python, run_son
from hypothesis import strategies as st

import son
from son.errors import SonError, SonSyntaxError

TABLE = np.array([1.0, -2.5, 4.0, 0.125, np.inf])
GRID = np.arange(12, dtype=np.int64).reshape(3, 4)
FLAGS = np.array([True, False, True])
WEIGHTS = np.array([0.5, -1.0, 2.0])


def _scaled(x):  # an inlined helper reads the same global: one parameter for both
    return x * TABLE[1]


def reads(i: int, x: float):
    k = i % 5
    return TABLE[k] * x + GRID[i % 3, -1] + TABLE.sum() + len(TABLE) + FLAGS[i % 3] + _scaled(x), GRID.T[0]


def test_global_arrays_are_read_as_cpython_reads_them_in_every_stage():
    g = son.parse(reads)
    assert [n for n, _ in g.params][:2] == ["i", "x"] and len(g.params) == 2 + 1 + 3 + 1
    check_every_stage(reads, [int, float], st.tuples(st.integers(-20, 20), st.floats(-1e3, 1e3)),
                      max_examples=30)


def bump(i: int):
    WEIGHTS[i] += 1.0
    return WEIGHTS.sum()


def test_writes_reach_the_global_and_a_rebound_global_is_read_at_the_next_call():
    global WEIGHTS
    saved = WEIGHTS.copy()
    try:
        k = son.jit(bump, fallback="error")
        assert k(1) == 2.5 and WEIGHTS[1] == 0.0
        assert bump(1) == 3.5 and k(-1) == 4.5  # CPython and the kernel share the array
        WEIGHTS = np.array([10.0, 20.0])  # rebound, same dtype: read at the next call
        assert k(0) == 31.0 and WEIGHTS[0] == 11.0
        with pytest.raises(IndexError):
            k(2)
        WEIGHTS = np.array([1, 2, 3])  # another dtype: not what the kernel was built for
        with pytest.raises(SonError, match="global 'WEIGHTS' was a 1-D float64 array"):
            k(0)
    finally:
        WEIGHTS = saved


def walk(n: int, x: float):
    if n <= 0:
        return x + TABLE[0]
    return walk(n - 1, x * TABLE[n % 4]) + TABLE[3]


def _recursive_reader(n):
    return 0.0 if n <= 0 else TABLE[n % 4] + _recursive_reader(n - 1)


def reads_in_recursive_helper(n: int):
    return _recursive_reader(n)


def test_the_compiled_function_passes_its_globals_on_to_its_own_calls_and_a_helper_may_not():
    k = son.jit(walk, fallback="error")
    for n in (0, 1, 6, 40):
        assert k(n, 1.5) == walk(n, 1.5) == son.interpret(son.parse(walk), n, 1.5)
    with pytest.raises(SonSyntaxError, match="'TABLE' is a global array read in a helper"):
        son.parse(reads_in_recursive_helper)
    kept = son.parse(reads, inline=False)  # a kept call of a helper reading one: inlined
    assert not kept.callees() and run_son(kept, (3, 2.0)) == run_python(reads, (3, 2.0))


def loss(x, y: float):
    return np.sum((WEIGHTS * x - y) ** 2)


def test_gradients_take_a_global_as_a_constant():
    x, y, eps = np.array([1.0, 2.0, 3.0]), 0.5, 1e-6
    gx, gy = son.grad(loss, argnums=(0, 1))(x, y)
    assert np.allclose(gx, 2 * WEIGHTS * (WEIGHTS * x - y))
    assert gy == pytest.approx((loss(x, y + eps) - loss(x, y - eps)) / (2 * eps), rel=1e-6)


HALF = np.array([1.0, 2.0], dtype=np.float32)


def reads_float32(i: int):
    return HALF[i]


def test_a_global_array_of_a_dtype_son_lacks_is_a_located_error():
    with pytest.raises(SonSyntaxError, match=r"test_global_arrays.py:\d+:\d+: .*global 'HALF'.*float32"):
        son.parse(reads_float32)
