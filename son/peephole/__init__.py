"""Local rewriting: the rule table, value numbering and the worklist engine."""

from .engine import MAX_REWRITES, Peephole
from .rules import RULES, rule

__all__ = ["MAX_REWRITES", "Peephole", "RULES", "rule"]
