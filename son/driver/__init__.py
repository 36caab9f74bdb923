"""The driver: son's user-facing API, on top of the core.

    pipeline.py   Pipeline (parse options, passes, rules, kernel semantics), son.optimize
    passes.py     the pass registry, the built-in passes, statistics of a run
    comparison.py son.compare: pipelines side by side
    tracing.py    son.trace: every rewrite, step by step
    explorer.py   son.explore: every phase of a compilation as an interactive page
    kernels.py    son.jit and son.compile: functions and graphs to kernels
    index.py      the kernels' disk index (a second process skips the parse)
    derivatives.py son.grad, son.value_and_grad, son.jvp
    specialize.py what son.jit and son.grad functions share: specialization per types

No module here is named like a function it defines, so none is shadowed.
Importing the driver makes the ``son.grad`` package callable (``son.grad(f)``), as
``son.viz`` installs the drawing hooks: the layer above completes the one below.
"""

from .._util import callable_package
from .comparison import compare
from .derivatives import grad, jvp, value_and_grad
from .explorer import Explorer, explore
from .kernels import compile, jit  # noqa: A004 - son.compile is the public name
from .passes import register_pass
from .pipeline import DEFAULT_PIPELINE, PIPELINES, Pipeline, optimize
from .tracing import trace

callable_package("son.grad", grad)

__all__ = ["DEFAULT_PIPELINE", "PIPELINES", "Explorer", "Pipeline", "compare", "compile", "explore", "grad",
           "jit", "jvp", "optimize", "register_pass", "trace", "value_and_grad"]
