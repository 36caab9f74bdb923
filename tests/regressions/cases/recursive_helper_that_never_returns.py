"""Found by son.fuzz (seed=20261123 index=166, the fixed campaign of tests/test_fuzz.py):
two bugs of recursive helpers compiled as graphs of their own.  Unshrunk, ``h0`` returns
-1 on its only path that returns, so its graph's result type was the constant -1: the
caller's Call was typed a constant and codegen wrote it as the literal, never calling
it (the kernel named a variable it never set; in another shape the call, and the
ValueError it raises, would have been lost).  Fixed: a callee's result is widened to its
kind (son/frontend/recursion.py), and codegen never writes a node that runs for its
effect as a constant (son/exec/codegen.py ``_constant``).  Shrunk, ``h0`` only calls
itself: numba cannot infer the type of a function none of whose returns is free of its
own call ("cannot type infer runaway recursion"); codegen now gives such a function a
return of its assumed kind behind ``if _depth < 0`` (``_from_own_call``)."""

# ruff: noqa  (a shrunk program)


def h0(q0, q1):
    return h0(0, 0)


def h1(q0):
    if q0 < 1 or q0 > 4:
        return -1
    w0 = int(float("nan"))
    return h1(q0 - 1) // w0


def f(p0: bool, n0: int, n1: int, n2: int):
    l0 = [h1(n0) for c1 in range(abs(n2) % 3)]
    if p0:
        l0 = [h0(0, 0) for c1 in range(1)]
    return len(l0)

ARGS = [(False, -9223372036854775808, 7, 0, ), (False, 1, -1, -9223372036854775807, ), (False, -9, 3, -9223372036854775808, ), (True, -6, 2, 0, ), (True, 2, 1, 1, ), (False, 7, 0, 2)]
