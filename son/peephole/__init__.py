"""Local rewriting: rule sets, value numbering and the worklist engine."""

from .engine import MAX_REWRITES, Peephole, current_tracer, rewrite_context
from .rules import DEFAULT_RULES, rule
from .ruleset import RuleSet

__all__ = ["DEFAULT_RULES", "MAX_REWRITES", "Peephole", "RuleSet", "current_tracer", "rewrite_context",
           "rule"]
