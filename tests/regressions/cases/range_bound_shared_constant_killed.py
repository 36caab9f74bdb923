"""Found by son.fuzz (seed=77 index=949): parsing failed the verifier ("killed node still
used").  ``for i in range(-4, 12 if 1 else -4)``: the frontend kept the range bounds only
after parsing all of them; folding the conditional expression killed its dead branch's
constant -4, the very node (value-numbered) that held the first bound.  Fixed in
son/frontend/loops.py ``FunctionParser.stmt_For``: each bound is kept as soon as it is
parsed."""


def f(n: int):
    s = 0
    for i in range(-4, 12 if 1 else -4):
        s += i * n
    for j in range(-4 if n else 3, -4, -1 if 1 else -4):
        s -= j
    return s


ARGS = [(1,), (0,), (-3,), (9223372036854775807,)]
