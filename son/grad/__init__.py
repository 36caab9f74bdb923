"""Derivatives as graph transforms: ``son.grad``, ``son.value_and_grad``, ``son.jvp``.

    rules.py     the derivative rule table PARTIALS (one rule per node class)
    forward.py   jvp_graph: forward mode (tangents next to the primal)
    reverse.py   grad_graph: reverse mode (tapes, loops replayed backwards)
                 (its parts: activity.py, forward_sweep.py, recording.py,
                 backward_sweep.py, accumulate.py)
    api.py       the user-facing decorators, specialized per argument types like son.jit

``son.grad`` is the *function* (``son/__init__.py`` imports it eagerly, so it shadows
this package's name, as ``son.schedule`` does); the function object forwards attribute
reads to this package, so ``son.grad.forward.jvp_graph`` still works after
``import son.grad.forward``.
"""

from .api import grad, jvp, value_and_grad

__all__ = ["grad", "jvp", "value_and_grad"]
