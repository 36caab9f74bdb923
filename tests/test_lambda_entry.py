"""A lambda as the function son compiles (``son.jit(lambda x: ...)``, ``son.parse``,
``son.grad``): son/frontend/source.py finds it in its file's syntax tree and parses it as
the ``def`` it stands for; two lambdas of the same parameters on one line are told apart
by the code's source positions.  CPython is the oracle."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import run_both
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

SQUARE_PLUS = lambda x, y: x * x + y  # noqa: E731 - the construct under test
PAIR = (lambda a: np.sum(a * 2.0), lambda a: np.sum(a * 3.0))  # two on one line, same parameters
SCALE = 2.5
SCALED = lambda x: SCALE * math.sin(x) if x > 0 else -x  # noqa: E731


@settings(max_examples=40, deadline=None)
@given(x=st.floats(-1e6, 1e6), y=st.integers(-5, 5))
def test_a_lambda_compiles_and_agrees_with_cpython(x, y):
    want, got = run_both(SQUARE_PLUS, (x, y), graph=son.parse(SQUARE_PLUS, argtypes=[float, int]))
    assert want == got
    assert son.jit(SQUARE_PLUS, fallback="error")(x, y) == SQUARE_PLUS(x, y)
    assert son.jit(SCALED, fallback="error")(x) == SCALED(x)


def test_lambdas_on_one_line_are_told_apart():
    a = np.arange(4.0)
    assert son.jit(PAIR[0], fallback="error")(a) == 12.0 and son.jit(PAIR[1], fallback="error")(a) == 18.0


def test_a_lambda_differentiates():
    assert son.grad(SQUARE_PLUS)(1.5, 2.0) == pytest.approx(3.0)


def test_a_lambda_whose_source_is_unreadable_is_a_located_error():
    f = eval("lambda x: x + 1")  # noqa: S307 - no file to read it from
    with pytest.raises(SonSyntaxError, match="cannot read the source of this lambda"):
        son.parse(f, argtypes=[float])
