"""Found by son.fuzz (seed=6 index=244): ``range(n)`` and ``np.zeros(n)`` ran when ``n``, a
value of unknown kind ('number': an unannotated parameter, or a local that is an int on
one path and a float on another), was a float at run time; CPython raises TypeError.
Fixed in son/frontend/expressions.py ``FunctionParser.int_value``: an ``IsFloat`` guard
raising TypeError, as the int-only operators already had."""

import numpy as np


def f(n, p: bool):
    k = 0.0
    if p:
        k = 2
    s = 0
    for i in range(k, 3):
        s += i
    for j in range(n):
        s += j
    return s + len(np.zeros(n))


ARGS = [(2, True), (2, False), (2.0, True), (0, True), (-1, True), (3.5, True)]
