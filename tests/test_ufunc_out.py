"""ufuncs with an output array (son/frontend/ufuncs.py ``ufunc_into``): ``np.add(a, b,
out=c)``, ``np.sqrt(x, c)``, ``out=(c,)``: the result written into ``c`` as ``c[...] =``
writes it (inputs broadcast to ``c``'s shape, an input that overlaps ``c`` read as it
was), ``c`` the value; numpy's ``same_kind`` casting checked where written.  CPython is
the oracle in every stage (the raw parse, each pipeline, the kernel); gradients go
through the write."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, check_reverse_against_forward
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

FLOATS = st.sampled_from([0.0, -0.0, 1.5, -2.5, 4.0, 1e300, np.inf, np.nan])
INTS = st.integers(-2 ** 63, 2 ** 63 - 1) | st.integers(-3, 3)


def into_vectors(a, b, c, i):
    """Binary and unary ufuncs into ``c`` (keyword, positional, a 1-tuple), a view of
    ``c`` as the output, an int result into a float array, overlapping in-place writes."""
    r = np.add(a, b, out=c)
    total = r.sum()
    np.multiply(c, 2.0, c)
    np.sqrt(np.abs(a), out=(b,))
    np.subtract(i, 1, out=a)
    np.maximum(a[1:], a[:-1], out=a[:-1])
    np.subtract(c[::-1], 1.0, out=c)
    return total, a, b, c


def into_matrices(m, v, out):
    np.add(m, v, out=out)  # v broadcast along the rows
    np.exp(out[:, :1], out=out[:, :1])
    np.floor_divide(out, 2.0, out=out)
    fresh = np.multiply(v, 3.0, out=np.empty_like(v))  # out made once, the call's value
    return out, fresh


def same_length(n):
    return hnp.arrays(np.float64, n, elements=FLOATS)


CASES = [
    (into_vectors, ["float64[]", "float64[]", "float64[]", "int64[]"],
     st.integers(1, 5).flatmap(lambda n: st.tuples(same_length(n), same_length(n), same_length(n),
                                                    hnp.arrays(np.int64, n, elements=INTS)))),
    (into_matrices, ["float64[:, :]", "float64[]", "float64[:, :]"],
     st.tuples(st.integers(0, 3), st.integers(1, 3)).flatmap(lambda s: st.tuples(
         hnp.arrays(np.float64, s, elements=FLOATS), same_length(s[1]), hnp.arrays(np.float64, s)))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    with np.errstate(all="ignore"):
        check_every_stage(fn, argtypes, strategy, max_examples=30)


def written(a, w):
    c = np.empty_like(a)
    np.multiply(a, w, out=c)
    np.sin(c, c)
    return np.sum(c * a)


def test_gradients_go_through_the_output_array():
    check_reverse_against_forward(written, np.array([0.5, -1.25, 2.0]), 0.75)


@pytest.mark.parametrize("src, message", [
    ("def f(a: 'float64[]', c: 'int64[]'):\n    np.add(a, 1, out=c)\n    return c\n",
     "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64')"),
    ("def f(a: 'float64[]', c: 'float64[]'):\n    return np.add(a, a, c, out=c)\n", "one output array"),
    ("def f(a: 'float64[]', x: float):\n    return np.cos(a, out=x)\n", "return arrays must be of ArrayType"),
    ("def f(a: 'float64[]'):\n    return np.cos(a, out=(c := a))\n", "out= that is not an array's name"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source("import numpy as np\n" + src, name="f")
