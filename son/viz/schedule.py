"""A Schedule drawn as a control-flow graph of basic blocks.

Each block is one box that lists, left-justified, its title (``B3 Loop %13
depth 1``), its Phis, its instructions in execution order (the schedule's own
listing format, ``son.schedule.blocks.instruction``) and its terminator.
Edges run from a block to its successors: a two-way ``If``'s are labelled
``T`` and ``F``, loop back edges (to a block that dominates the source) are
drawn bold purple and labelled ``back``, and the phi moves of an edge
(``%15 <- %36``) are written on it.  Loop headers are tinted by depth.

O(N + E) over the scheduled nodes.
"""

from __future__ import annotations

from typing import Any

from ..nodes import Constant, CProj, If, Node, Proj, Raise, Return, Start
from .dot import quote

_LOOP_FILL = ('"#ffffff"', '"#eef3fd"', '"#dde7fb"', '"#ccdbf9"', '"#bbcff7"')


def _atom(n: Node | None) -> str:
    if n is None:
        return "_"
    if type(n) is Constant:
        return n.label
    if type(n) is Proj and type(n.inputs[0]) is Start:
        return n.name
    return f"%{n.nid}"


def _left(lines: list[str]) -> str:
    """A dot label whose lines are left-justified (``\\l`` ends each line)."""
    body = "".join(quote(line)[1:-1] + "\\l" for line in lines)
    return f'"{body}"'


def block_lines(schedule: Any, b: Any) -> list[str]:
    """The text of block ``b``: title, phis, instructions and terminator."""
    from ..schedule.blocks import instruction

    head = b.head
    what = f"{head.label} %{head.nid}"
    if type(head) is CProj and type(head.inputs[0]) is If:
        what += f" of %{head.inputs[0].nid}"
    lines = [f"B{b.id}  {what}  depth {b.depth}"]
    lines += [f"%{p.nid} = phi({', '.join(_atom(v) for v in p.inputs[1:])})" for p in b.phis]
    lines += [instruction(n) for n in b.nodes]
    t = b.term
    if type(t) is If:
        lines.append(f"if {_atom(t.pred)}")
    elif type(t) is Return:
        lines.append(f"return {', '.join(_atom(v) for v in t.values)}")
    elif type(t) is Raise:
        lines.append(f"raise {t.exc.__name__}({t.message!r})")
    return lines


def is_back_edge(schedule: Any, pred: Any, succ: Any) -> bool:
    """``pred -> succ`` returns to a block that dominates ``pred`` (a loop's back edge)."""
    return succ.id <= pred.id and schedule.dominates(succ, pred)


def schedule_dot(schedule: Any) -> str:
    """The dot source of ``schedule``'s block CFG (see the module docstring)."""
    out = [f"digraph {quote(schedule.graph.name + ' schedule')} {{",
           '  node [shape=box, fontname="Courier", fontsize=10];',
           '  edge [fontname="Helvetica", fontsize=9];']
    for b in schedule.blocks:
        attrs = f"label={_left(block_lines(schedule, b))}"
        if b.is_loop_header:
            attrs += f", style=\"bold,filled\", fillcolor={_LOOP_FILL[min(b.depth, len(_LOOP_FILL) - 1)]}"
        out.append(f"  B{b.id} [{attrs}];")
    for b in schedule.blocks:
        two_way = type(b.term) is If and len(b.succs) == 2
        for k, s in enumerate(b.succs):
            label = []
            if two_way:
                label.append("T" if k == 0 else "F")
            back = is_back_edge(schedule, b, s)
            if back:
                label.append("back")
            label += [f"%{p.nid} <- {_atom(v)}" for p, v in schedule.moves(b, s)]
            attrs = [f"label={quote(chr(10).join(label))}"] if label else []
            if back:
                attrs.append('style=bold, color="#7b1fa2", fontcolor="#7b1fa2"')
            out.append(f"  B{b.id} -> B{s.id}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"
