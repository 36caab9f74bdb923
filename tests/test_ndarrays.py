"""n-D arrays (son/frontend/ndarrays.py): 2-D and 3-D arrays as views of a 1-D base,
indexed per axis with numpy's semantics (negative indices, IndexError), rows, columns,
slices per axis and transposes as views (writes through them reach the base), shapes,
``np.zeros((n, m))``, iteration over rows, and n-D arrays and views returned to
Python as numpy's views.  CPython (with numpy) is the oracle in every stage."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, finite_differences
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonError, SonSyntaxError

FLOATS = st.floats(-100, 100) | st.sampled_from([0.0, -0.0, 1.5, -2.0])
SHAPES2 = hnp.array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=4)
SHAPES3 = hnp.array_shapes(min_dims=3, max_dims=3, min_side=0, max_side=3)
M2 = hnp.arrays(np.float64, SHAPES2, elements=FLOATS)
M3 = hnp.arrays(np.float64, SHAPES3, elements=FLOATS)
I2 = hnp.arrays(np.int64, SHAPES2, elements=st.integers(-9, 9))
F2, F3, I2T = "float64[:, :]", "float64[:, :, :]", "int64[:, :]"
IDX = st.integers(-5, 5)


def matmul(a, b):
    n, k = a.shape
    m = b.shape[1]
    c = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += a[i, p] * b[p, j]
            c[i, j] = s
    return c


def matmul_square(a):
    return matmul(a, a.T)


def element_access(a, i, j):
    a[i, j] = a[i, -1 - j] + 1.0  # IndexError as numpy, a negative index wraps once
    a[-1, 0] *= 2.0
    return a[i, j], a


def views(a, i):
    row = a[i]
    col = a[:, -1]
    row[0] = 9.5  # written through the view: the base sees it
    inner = a[1:, ::-1]
    return row, col, inner, a.T, a[::2, 1:3], a.shape, a.ndim, a.size, len(a)


def row_loop(a):
    total = 0.0
    for row in a:
        for x in row:
            total = total * 0.5 + x
        row[0] = total
    return total, a


def stencil(a):
    n, m = a.shape
    out = np.zeros((n, m))
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    return out


def cube(t, i):
    s = 0.0
    for p in range(t.shape[0]):
        for q in range(t.shape[1]):
            s += t[p, q, i] * (p + 1)
    plane = t[i]
    return s, plane, t[:, 0, :], t.shape


def int_counts(a):
    n, m = a.shape
    counts = np.zeros((2, m), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            counts[int(a[i, j] > 0), j] += 1
    return counts


def allocate(n, m):
    z = np.ones((n, m))
    e = np.zeros((m, n, 2), dtype=np.int64)
    return z, e, z.shape, e.size


def copies(a):
    b = a.copy()
    c = np.copy(a.T)
    z = np.zeros_like(a)
    o = np.ones_like(a, dtype=np.int64)
    if b.size:
        b[0, 0] = -1.0  # a copy: a is unchanged
    return a, b, c, z, o


def diagonal_sum(a):
    z = np.zeros_like(a)
    c = np.copy(a.T)
    for i in range(min(a.shape)):
        z[i, i] = a[i, i] + c[i, i]
    return z


def view_assignments(a, r, x):
    """n-D views assigned: a number, a row broadcast down, a column broadcast across,
    a view of the same array (numpy copies it first), a chain; ValueError where numpy's."""
    b = np.zeros((3, 4))
    b[1:, :] = 2.5
    b[...] = b + 1.0
    b[:2, 1:] = r[:3]  # a row broadcast over two rows
    b[:, :1] = b[:, 3:]  # a column of the same array
    a[1:, :] = a[:-1, :]  # overlapping: numpy reads it all first
    a[:, ::2] = x
    a[::-1, 1:] = a[:, 1:] * 2.0 - a[:, :-1]
    return a, b


def view_assignment_errors(a, r):
    a[:, :] = r  # ValueError unless len(r) is a's width or 1
    return a


def int_view_assignment(a, x):
    a[1:, ::2] = x  # a float stored in an int array: truncated, as numpy's assignment does
    t = np.zeros((2, 3, 2), dtype=np.int64)
    t[1] = 7
    if a.shape[0] >= 3 and a.shape[1] >= 2:
        t[1] = a[:3, :2]
    t[:, 1, :] = 5
    return a, t


def masks(a, x):
    """A bool mask of the array's shape: the elements in C order, set, updated, summed."""
    b = a.copy()
    b[b > 0.0] = x
    c = a[a < 1.0]
    a[a > 5.0] *= 2.0
    a[a < 0.0] = a[a < 0.0] * 0.5  # the value is a new array
    return a, b, c, np.sum(a[a != 0.0])


def mask_of_another_array(a, b, x):
    a[b > 0.0] = x  # IndexError unless b has a's shape, or no elements (numpy selects none)
    return a[b < 0.0]


def reshaped(a, k, m):
    """numpy: any negative dimension is the unknown one (Pythran's np_reshape7: -10)."""
    return a.reshape(k, m), a.reshape(-10), a.reshape(k, -5, 1)


CASES = [
    (reshaped, ["float64[]", int, int], st.tuples(hnp.arrays(np.float64, st.integers(0, 12), elements=FLOATS),
                                                  st.integers(-3, 6), st.integers(-3, 6))),
    (masks, [F2, float], st.tuples(M2, FLOATS)),
    (masks, [F3, float], st.tuples(M3, FLOATS)),
    (mask_of_another_array, [F2, F2, float], st.tuples(M2, M2, FLOATS)),
    (mask_of_another_array, [F3, F3, float], st.tuples(M3, M3, FLOATS)),
    (view_assignments, [F2, "float64[:]", float], st.tuples(M2, hnp.arrays(np.float64, 3, elements=FLOATS),
                                                            FLOATS)),
    (view_assignment_errors, [F2, "float64[:]"], st.tuples(M2, hnp.arrays(np.float64, st.integers(0, 4),
                                                                         elements=FLOATS))),
    (int_view_assignment, [I2T, float], st.tuples(I2, st.floats(-50, 50))),
    (matmul_square, [F2], st.tuples(M2)),
    (element_access, [F2, int, int], st.tuples(M2, IDX, IDX)),
    (views, [F2, int], st.tuples(M2, IDX)),
    (row_loop, [F2], st.tuples(M2)),
    (stencil, [F2], st.tuples(M2)),
    (cube, [F3, int], st.tuples(M3, IDX)),
    (int_counts, [I2T], st.tuples(I2)),
    (allocate, [int, int], st.tuples(st.integers(-1, 3), st.integers(-1, 3))),
    (copies, [F2], st.tuples(M2)),
    (copies, [F3], st.tuples(M3)),
    (diagonal_sum, [F2], st.tuples(M2)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_nd_arrays_match_numpy_in_every_stage(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=40)


def test_a_returned_view_is_a_view_of_the_argument():
    a = np.arange(6.0).reshape(2, 3)
    t = son.jit(views, fallback="error")(a, 0)[3]  # a.T
    assert t.shape == (3, 2) and np.shares_memory(t, a)
    a[0, 1] = -4.0
    assert t[1, 0] == -4.0  # numpy's aliasing, kept


def test_a_non_contiguous_argument_is_refused_by_a_c_order_graph_and_compiled_for_its_strides_by_jit():
    """A graph parsed for a C-order parameter takes no other layout; son.jit compiles a
    kernel for an argument of any strides (tests/test_strided_nd_args.py)."""
    a = np.arange(12.0).reshape(3, 4)[:, ::2]
    g = son.parse(stencil, argtypes=[F2])
    with pytest.raises(SonError, match="C-contiguous"):
        son.interpret(g, a)
    np.testing.assert_array_equal(son.jit(stencil, fallback="error")(a), stencil(a))


def test_matmul_kernel_is_exact_and_has_no_bounds_checks_left_in_the_inner_loop():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 7)), rng.standard_normal((7, 3))
    k = son.jit(matmul, fallback="error")
    np.testing.assert_array_equal(k(a, b), matmul(a, b))


@pytest.mark.parametrize("text, argtypes, message", [
    ("def f(a):\n    return a[0, 0, 0]\n", [F2], "too many indices"),
    ("def f(a):\n    return a[None, None]\n", [F2], "4 dimensions"),
    ("def f(n):\n    return np.zeros((n, n, n, n))\n", [int], "4-D"),
])
def test_refusals_are_located(text, argtypes, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source("import numpy as np\n" + text, argtypes=argtypes)


def _least_squares(A: np.ndarray, x: np.ndarray, b: np.ndarray) -> float:
    s = 0.0
    for i in range(A.shape[0]):
        r = -b[i]
        for j in range(A.shape[1]):
            r += A[i, j] * x[j]
        s += r * r
    return s


def _whole_array(A: np.ndarray, w: float) -> float:
    return np.sum((A * w + 1.0) ** 2) + A[1:].sum() * w + np.mean(A * A) * A[0, 1] + A.T[-1, 0] * w


def _cube(T: np.ndarray, s: float) -> float:
    acc = 0.0
    for i in range(T.shape[0]):
        for j in range(T.shape[1]):
            for k in range(T.shape[2]):
                acc += (T[i, j, k] * s) ** 3 * T[k % 2, j, i % 2]
    return acc


def _assigned_views(A: np.ndarray, w: float) -> float:
    B = np.zeros((3, 3))
    B[1:, :] = A[:2, :] * w
    B[0] = w
    B[:, :1] = A[:, 2:]  # a column broadcast across
    B[B > 1.0] *= w  # a mask of its shape
    return np.sum(B * B) + np.sum(A[A < 0.5])


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("fn, shapes", [(_least_squares, [(4, 3), (3,), (4,)]),
                                        (_whole_array, [(3, 4), None]), (_cube, [(2, 3, 2), None]),
                                        (_assigned_views, [(3, 3), None])])
def test_gradients_of_n_d_arrays_have_their_shape(fn, shapes, interpret):
    """An n-D array argument is its flat base and its dimensions in the graph; its
    gradient is the base's adjoint, given the argument's shape.  Reverse mode,
    value_and_grad, forward mode (an n-D tangent) and finite differences agree."""
    rng = np.random.default_rng(7)
    args = tuple(rng.standard_normal(s) if s else 0.7 for s in shapes)
    ks = tuple(range(len(args)))
    grads = son.grad(fn, argnums=ks, interpret=interpret)(*args)
    for k, g in zip(ks, grads):
        want = finite_differences(fn, args, k)
        assert np.shape(g) == np.shape(args[k])
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)
    v, again = son.value_and_grad(fn, argnums=ks, interpret=interpret)(*args)
    assert v == fn(*args)
    for g, h in zip(grads, again):
        np.testing.assert_array_equal(g, h)
    tangents = tuple(rng.standard_normal(np.shape(a)) if isinstance(a, np.ndarray) else 0.5 for a in args)
    primal, t = son.jvp(fn, interpret=interpret)(args, tangents)
    assert primal == v
    assert t == pytest.approx(sum(float(np.sum(g * d)) for g, d in zip(grads, tangents)), rel=1e-9)
    assert son.grad(fn, argnums=0, interpret=interpret)(*args).shape == args[0].shape


def test_gradients_refuse_a_tuple_argnum_and_a_tangent_of_another_shape():
    def f(a, p):
        return a[0, 0] * a[1, 1] * p[0]

    a = np.ones((2, 2))
    np.testing.assert_array_equal(son.grad(f)(a, (2.0, 3)), [[2.0, 0.0], [0.0, 2.0]])
    with pytest.raises(SonError, match="argnum 1 is a tuple"):
        son.grad(f, argnums=1)(a, (2.0, 3))
    with pytest.raises(SonError, match="tangent of a"):
        son.jvp(f, argnums=(0,))((a, (2.0, 3)), (np.ones(4),))


def allocated(n: int, m: int):
    return np.zeros((n, m)).shape, np.ones((m, n, 2), dtype=bool).size, np.full((n, 2, m), 1.5).size


def test_new_arrays_check_their_size_as_numpy():
    """numpy's ValueErrors axis by axis: a negative dimension, and bytes past int64 for the
    non-zero dimensions so far (a wrapped element count allocated too little before)."""
    dims = st.sampled_from([0, 1, 3, -1, 2**31, 2**33, 2**61, 2**63 // 3])
    check_every_stage(allocated, ["int", "int"], st.tuples(dims, dims).filter(
        lambda d: max(d) < 2**20 or min(d) <= 0 or d[0] * d[1] * 16 >= 2**63), max_examples=40)
