"""Scheduling: basic blocks, dominators, the loop tree and Global Code Motion.

    s = son.schedule(graph)     # a Schedule: ordered blocks, phi moves, check()
    print(s)                    # one section per block

The package is callable: ``son.schedule(graph)`` is ``son.schedule.schedule(graph)``
(``son._util.callable_package``), so the entry point does not shadow the package.
``Schedule`` and ``Block`` are the contract with the code generator (see
``blocks.py``); ``gcm.py`` places the nodes, ``dom.py`` builds the blocks,
the dominator tree and the loop tree.  Nothing here imports Numba.

The first steps of placement are public for analyses that need to know where
a value is first available (the combined analysis's congruence does):

    live = graph.live()
    blocks, block_of = build_blocks(graph, live)               # CFG nodes -> blocks
    floating = pin_nodes(graph, live, blocks[0], block_of)     # pinned nodes placed
    early = schedule_early(floating, blocks[0], block_of)      # floating -> earliest block
"""

from .._util import callable_package
from .blocks import Block, Schedule
from .dom import build_blocks, dominator_lca
from .gcm import pin_nodes, schedule, schedule_early

__all__ = ["Block", "Schedule", "build_blocks", "dominator_lca", "pin_nodes", "schedule", "schedule_early"]

callable_package(__name__, schedule)
