"""Scheduling: basic blocks, dominators, the loop tree and Global Code Motion.

    s = son.schedule(graph)     # a Schedule: ordered blocks, phi moves, check()
    print(s)                    # one section per block

``Schedule`` and ``Block`` are the contract with the code generator (see
``schedule.py``); ``gcm.py`` places the nodes, ``dom.py`` builds the blocks,
the dominator tree and the loop tree.  Nothing here imports Numba.
"""

from .dom import dominator_lca
from .gcm import schedule
from .schedule import Block, Schedule

__all__ = ["Block", "Schedule", "dominator_lca", "schedule"]
