"""Found by probing son.jit with programs written by hand (not by son.fuzz): a variable
that a fallback region gives a value of a kind son cannot tell (``v = {1: x}[1]``)
lives in the region's frame as a Python object, but compiled code on another path
assigned it too (``v = 0.0``) without the frame seeing it, so the next region read the
frame's stale value: ``f(5.5, 4)`` was 22.0 where CPython gives 11.0 (a silent wrong
answer), and without an earlier value it raised UnboundLocalError.  Separately, a
variable first bound in a loop took its kind from the loop's placeholder guess (an
int), and a float from the region was refused at run time.  Fixed in
son/frontend/regions.py: every statement binding such a variable runs with CPython
too (``_compiled_bindings``), and a loop's placeholder kind is not taken for the
variable's (``_guessed_in_loop``); the fuzz generator's dict regions sometimes bind a
variable so on one arm of an ``if`` (son/fuzz/fallbackgen.py)."""

# ruff: noqa  (a hand-written program)

import math
import numpy as np

SON_FALLBACK = "region"


def f(x: float, n: int):
    t = 0.0
    for i in range(n):
        if i % 2:
            v = 0.0
        else:
            v = {1: x}[1]
        t += v
    if n > 2:
        w = 1.5
    else:
        w = {2: x}[2]
    t += w
    for i in range(n):
        u = {1: x * i}[1]
    return t

ARGS = [(5.5, 4), (5.5, 0), (2.5, 1), (-1.0, 3)]
