"""The functions the README's command-line examples name (``son ir docs/examples.py:twins``).

They are the README's own examples, written once more as a file the ``son`` command can
load; ``tests/test_docs.py`` runs every command of the README against them.
"""

import math


def clamp_sum(n: int) -> int:
    s = 0
    for i in range(n):
        if i > 2 * 5:          # folds to 10 while parsing
            s += 10
        else:
            s += i
    return s


def twins(a: int, n: int):
    x = y = a
    while n > 0:
        if x != y:
            x = x + 7
        x += 1
        y += 1
        n -= 1
    return x - y


def saxpy(a: float, x, y):     # x and y unannotated: give their types with --argtypes
    for i in range(len(x)):
        y[i] = a * x[i] + y[i]
    return y


def escape(x: float, c: float):
    s = 0.0
    while x < 10.0:            # the trip count depends on x and c
        x = x * 1.5 + math.sin(c)
        s += x * c
    return s
