"""Reverse mode on the node graph: ``grad_graph(graph, argnums, with_value)``.

The result is one ordinary graph with the same parameters as the primal: a forward
sweep (the primal, cloned block by block, recording what the backward sweep needs)
followed by a backward sweep (the adjoint of every block, in reverse), returning
``g_1, ..., g_k`` or ``value, g_1, ..., g_k``.  Loops are reversed as loops, never
unrolled (Innes, "Don't Unroll Adjoint"; Tangent's stacks).

**Blocks.**  ``son.schedule`` of (a copy of) the primal gives the blocks in reverse
postorder, each block's ordered nodes, the loop tree and dominators.  Blocks that
cannot reach a Return (raises, their guards) take no part in the backward sweep.
Both sweeps are built with the SSA builder of ``son.grad.ssa`` (Braun et al.): the
memory state, the two tapes, adjoint accumulators, recorded values and selectors are
builder variables, so every merge and loop gets the Phis it needs and no more.

**Arrays.**  Arrays come in *families* (``_families``): an array, the array Phis that
choose it and the ``TapeGrow``s that grow it (the same array while it has room, else
a copy with more).  A family that an active value reaches gets one adjoint array of
zeros when it has one root, a float64 parameter or a float64 ``NewArray`` outside
loops in a block dominating every Return: allocated next to the root, of its length.
``y = a[i]`` adds ``ybar`` to ``abar[i]``; ``a[i] = v`` moves ``abar[i]`` into
``vbar`` and zeroes it, so arrays written and read again are handled.  The backward
sweep reads a primal array only to re-load a value no later Store into its family can
have changed (``_reloadable``; the family is the alias class).
Other active arrays (allocated in loops or branches, a Phi of two allocations) are
refused with a ``SonError`` naming the construct.

**Reverse over reverse** (``grad(grad(f))`` through loops).  The primal is then a
gradient whose loops push on and pop from tapes (``son.grad.tape``): a ``NewArray`` at
entry, threaded through loop Phis and ``TapeGrow``s, one family per tape.  A push is a
Store of a value at the count, a pop a Load at count - 1, so the rules above are their
adjoints: a push's is ``vbar += tbar[n]; tbar[n] = 0``, a pop's ``tbar[n-1] += ybar``
(the float tape's values are active; the int tape never is).  A ``TapeGrow`` that
copies is the identity on the elements that existed, and the tape discipline uses
versions linearly (once grown, the old version is never read or written again: the
tape is one builder variable, and only ``son.grad.tape`` and ``_reserve`` make
``TapeGrow``), so one adjoint array serves every version of a tape, indexed alike.
It must be as long as the largest version: the forward sweep keeps the family's
largest capacity in a builder variable (``$cap``: ``max($cap, len(grown))`` after each
``TapeGrow``, O(1)) and the backward sweep allocates the adjoint tape, zeroed, at its
start (``_build_J``).  Nothing else changes: the inner tape's Stores, Loads and counts
are recorded and replayed like any array access (an index that is an induction
variable is rebuilt, others are taped on the outer gradient's own tapes), and the
result can be differentiated again (third derivatives).  Cost: O(1) nodes per
``TapeGrow``; at run time one int ``max`` per grow, and an adjoint tape of 8 bytes per
slot of the largest inner tape, allocated and zeroed once (O(slots)).

Costs: forward sweep O(N), backward sweep O(N) nodes built (plus O(k) branches for a
k-way merge and O(exits) for a loop's dispatch), each variable read of the SSA builder
O(log) amortized (see ``son.grad.ssa``; blocks are built in a loop-contiguous
topological order for it); analyses O(N + E) (``_reloadable``: O(B + E) per array
alias class; ``_recomp_info`` memoized, ``_leaf`` O(_RECOMPUTE_LIMIT) per value;
``_fold_phi_webs`` O(phis); ``_families`` a union-find over array Phis and
``TapeGrow``s, O(N) near-linear).  At run time the gradient does a constant amount of work
per primal operation (at most ``_RECOMPUTE_LIMIT`` rebuilt nodes per recorded value
saved), and tape memory is 8 bytes per recorded value per iteration (recorded: the
partials and array indices of active nodes that are neither available nor
recomputable, one predecessor index per merge reached in a loop, and one trip count
per execution of a loop nested in another; a value is recorded once per block).
``tape_plan`` lists them per block: a dot product ``s += a[i]*b[i]`` records nothing
(``i`` is an induction variable, ``a[i]`` and ``b[i]`` are re-loaded, the trip count
stays in ``$trip``; it recorded 40 bytes per iteration before); ``h = tanh(w*h +
xs[i])`` records 16 (``h`` and ``1 - tanh^2``); ``if s > 3: s = s*x else: s = s +
sin(x)`` in a while loop records 16 bytes on the true side (the partial ``s``, the
merge index) and 8 on the false side (``cos(x)`` is computed once, outside the
loop); nested loops add 8 bytes per inner loop execution (its trip count).

**Lists.**  A float list made outside loops in a block dominating every Return, or a
``list[float]`` parameter, gets an adjoint list made at the start of the backward
sweep and every change of the list's length undone on it in reverse
(``list_adjoints.py``); a list parameter's gradient is that list.

Not yet differentiable (``SonError`` naming the construct): active arrays allocated
in loops or branches, or chosen by a Phi between two different arrays (two
allocations, two parameters, or one of each).  A value is active when it depends on a
differentiated parameter and can reach the result (through data, and from a Load to
the values stored into its array).

The transform is ``_Reverse``, one class made of a mixin per part, each in its own
module: ``activity.py`` (live blocks, active values, array families),
``forward_sweep.py`` (the primal cloned with its records), ``recording.py`` (what is
recorded, recomputed or reloaded, and the tape plan), ``backward_sweep.py`` (the
adjoint blocks and loops) and ``accumulate.py`` (adjoint sums).
"""

from __future__ import annotations

from .. import config
from ..errors import SonError
from ..nodes import ArrayType, Graph, ListType, Return, without_refinements
from ..peephole import Peephole
from .accumulate import Accumulation
from .activity import Activity
from .backward_sweep import BackwardSweep
from .calls import grad_by_tangents, has_calls
from .forward_sweep import ForwardSweep, clone_node
from .list_adjoints import ListAdjoints
from .recording import Recording
from .ssa import Builder
from .tape import Tapes

__all__ = ["clone_node", "grad_graph", "tape_plan"]


def grad_graph(graph: Graph, argnums: tuple[int, ...] = (0,), with_value: bool = False) -> Graph:
    """The reverse-mode gradient of ``graph`` with respect to parameters ``argnums``
    as a new graph (``graph`` is untouched); see the module docstring.  The primal is
    differentiated without its branch refinements (``without_refinements``): the
    transform recognizes induction variables and counted loops by their shape."""
    if has_calls(graph):  # forward mode carries tangents through calls (son/grad/calls.py)
        return grad_by_tangents(graph, tuple(argnums), with_value)
    return _Reverse(without_refinements(graph), tuple(argnums), with_value).run()


def tape_plan(graph: Graph, argnums: tuple[int, ...] = (0,)) -> dict[int, int]:
    """Bytes each block of ``son.schedule(graph)`` pushes on the tapes per execution
    in ``grad_graph(graph, argnums)`` (blocks that push nothing are left out): for a
    loop, the bytes per iteration are the sum over the blocks an iteration runs."""
    r = _Reverse(without_refinements(graph), tuple(argnums), False)
    r.run()
    return {pb.id: 8 * k for pb, k in r.pushed.items() if k}


class _Reverse(Activity, ForwardSweep, Recording, BackwardSweep, ListAdjoints, Accumulation):
    """One reverse-mode transform (see the module docstring)."""

    def __init__(self, graph: Graph, argnums: tuple[int, ...], with_value: bool):
        self.src = graph
        self.argnums = argnums
        self.with_value = with_value

    def run(self) -> Graph:
        from ..schedule import schedule

        self.P = P = self.src.copy()
        self.S = schedule(P)
        self._check_signature()
        self._analyse()
        g = self.g = Graph(f"{P.name}_grad", P.params)
        g.source, g.arg_forms = P.source, P.arg_forms
        self.b = Builder(g)
        self.tapes = Tapes(self.b)
        self._forward()
        self._reserve()
        self.sums: list[tuple] = []
        self._backward()
        self._drop_zero_sums()
        self.b.finish()
        Peephole(g).iterate(g.nodes())
        g.dce()
        if g.drop_unread_stores():  # e.g. the array a float sum's dropped value was read from
            g.dce()
        if config.debug:
            g.verify()
        return g

    def _check_signature(self) -> None:
        P = self.P
        for i in self.argnums:
            if not 0 <= i < len(P.params):
                raise SonError(f"grad of {P.name}: argnum {i} out of range ({len(P.params)} parameters)")
            name, t = P.params[i]
            if not (t.kind == "float" or (isinstance(t, (ArrayType, ListType)) and t.dtype == "float64")):
                raise SonError(f"grad of {P.name}: cannot differentiate with respect to parameter "
                               f"{name!r} of type {t}; only float, float64-array and list[float] "
                               "parameters carry derivatives")
        self.rets = [b for b in self.S.blocks if type(b.term) is Return]
        if not self.rets:
            raise SonError(f"grad of {P.name}: the function never returns")
        for b in self.rets:
            vals = b.term.inputs[2:]
            if len(vals) != 1 or vals[0].type.kind not in ("float", "number"):
                what = f"{len(vals)} values" if len(vals) != 1 else f"a {vals[0].type}"
                raise SonError(f"grad of {P.name}: the function returns {what}; a gradient needs "
                               "a float result")

    def _loops_of(self, x) -> list:
        out, h = [], x.loop
        while h is not None:
            out.append(h)
            h = h.outer
        return out
