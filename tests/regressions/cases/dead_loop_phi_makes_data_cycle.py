"""Found by son.fuzz (seed=10 index=345): SCCP's clean-up peephole did not terminate (the
rewrite bound stopped it: "peephole rules cycle on Phi: add_zero ...").  The code after
``n1 % 0`` is dead, so the while loop is never entered; ``phi_same`` still replaced its
loop phi by the only live input, the back-edge value ``phi + 0``, leaving ``x = x + 0``:
a data cycle with no phi, which ``add_zero`` / ``add_reassociate`` rewrote forever.
Fixed in son/peephole/rules.py ``phi_same``: a loop never entered keeps its phis (the
dead loop is removed with its Loop)."""


def f(n1: int, n0: int, p0: bool):
    fuel = 0
    v1 = n0
    v1 -= v1
    for _ in range(n1 % v1):
        fuel += 1
        if fuel > 40:
            break
    t4 = 0
    t5 = v1
    while 1:
        fuel += 1
        if fuel > 40:
            break
        if t4 != t5 + int(0.1):
            v1 = 1 * t3  # noqa: F821 - never reached (a NameError guard in the graph)


ARGS = [(-8, 2, True), (7, -9223372036854775808, False), (-9223372036854775808, -9223372036854775807, False)]
