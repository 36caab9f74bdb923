"""Derivatives as graph transforms.

    rules.py     the derivative rule table PARTIALS (one rule per node class)
    forward.py   jvp_graph: forward mode (tangents next to the primal)
    reverse.py   grad_graph: reverse mode (tapes, loops replayed backwards)
                 (its parts: activity.py, forward_sweep.py, recording.py,
                 backward_sweep.py, accumulate.py)
    ssa.py       the SSA builder both sweeps build blocks with
    tape.py      the tapes reverse mode pushes on and pops from

The user's entry points (``son.grad``, ``son.value_and_grad``, ``son.jvp``, which
specialize per argument types like ``son.jit``) are in the driver layer,
``son.driver.derivatives``.  The package is callable: the driver makes ``son.grad(f)``
call ``son.driver.derivatives.grad`` (``son._util.callable_package``), so ``son.grad`` is both
this package (``son.grad.reverse.grad_graph``) and the entry point.
"""

from .forward import jvp_graph
from .reverse import grad_graph

__all__ = ["grad_graph", "jvp_graph"]
