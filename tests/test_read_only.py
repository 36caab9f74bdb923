"""numpy's read-only views (son/frontend/readonly.py): a function that may write through
``np.diagonal``, ``a.diagonal()``, ``np.diag`` of a 2-D array or ``np.broadcast_to`` (CPython's
ValueError) is refused where the view is made, never run writing the array; one that only
reads them compiles; a read-only argument of a kernel that writes its arguments runs in
CPython (son.jit), which raises as numpy does."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import run_both, run_python

import son
from son.errors import FallbackWarning, SonSyntaxError


def through_diagonal(a):
    d = np.diagonal(a)
    d[0] = 5.0
    return a


def through_a_method(a):
    d = a.diagonal()
    d += 1.0
    return a


def through_diag(a):
    np.diag(a)[1:] = 2.0
    return a


def through_broadcast(v):
    b = np.broadcast_to(v, (2, 3))
    b[0, 0] = 1.0
    return v


def in_a_later_round(a):
    d = a[0]
    for _ in range(2):
        d[0] = 1.0  # the second round writes through the diagonal
        d = np.diagonal(a)
    return a


def through_a_helper(a):
    d = np.diagonal(a)
    d.fill(3.0)
    return a


@pytest.mark.parametrize("fn, line, name", [
    (through_diagonal, 1, "np.diagonal"), (through_a_method, 1, "diagonal"), (through_diag, 1, "np.diag"),
    (through_broadcast, 1, "np.broadcast_to"), (in_a_later_round, 4, "np.diagonal"),
    (through_a_helper, 1, "np.diagonal"),
])
def test_a_write_through_a_read_only_view_is_refused_where_the_view_is_made(fn, line, name):
    with pytest.raises(ValueError, match="read-only"):  # what CPython does
        fn(np.zeros((3, 3)) if fn is not through_broadcast else np.zeros(3))
    spec = "float64[]" if fn is through_broadcast else "float64[:, :]"
    with pytest.raises(SonSyntaxError, match=rf"write through the read-only view {name}\(\) gives") as e:
        son.parse(fn, argtypes=[spec])
    assert e.value.lineno == fn.__code__.co_firstlineno + line


def reads_only(m, v):
    d = np.diagonal(m)
    m[0, 0] += 1.0  # through the array itself: the views see it
    b = np.broadcast_to(v, m.shape)
    p = m @ m  # a new array, written before its diagonal is taken
    return np.diag(p).sum() + np.trace(m) + d.sum() + b[1].sum() + np.diagonal(np.eye(3))[1]


def writes_the_array_after(m):
    d = np.diagonal(m)
    m[0, 0] = 1.0  # the array stays writable: the view sees the write
    return d, m


def test_reading_read_only_views_compiles_and_agrees():
    args = (np.arange(9.0).reshape(3, 3),)
    g = son.parse(writes_the_array_after, argtypes=["float64[:, :]"])
    assert run_both(writes_the_array_after, args, graph=g)[1] == run_python(writes_the_array_after, args)
    args = (np.arange(9.0).reshape(3, 3), np.array([1.0, -2.0, 0.5]))
    g = son.parse(reads_only, argtypes=["float64[:, :]", "float64[]"])
    assert run_both(reads_only, args, graph=g)[1] == run_python(reads_only, args)
    assert run_python(son.jit(reads_only, fallback="error"), args) == run_python(reads_only, args)


def writes(a):
    a[0] = 1.0
    return a.sum()


def test_a_read_only_argument_runs_in_cpython_where_the_kernel_writes():
    x = np.broadcast_to(np.arange(3.0), (3,))
    f = son.jit(writes)
    with pytest.warns(FallbackWarning, match="read-only"), pytest.raises(ValueError, match="read-only"):
        f(x)
    g = son.jit(lambda a: a.sum() * 2.0)  # writes nothing: the kernel takes it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert g(x) == 6.0
