"""``RuleSet``: an ordered table of named peephole rules keyed by node class, as a value.

A rule is a function of one node that returns a replacement node, the node
itself after changing it in place, or None (see ``son/peephole/rules.py``).
A rule set maps each node class to the rules tried on it, in order; the
first that returns a node wins.  Rules are identified by their function's
``__name__``: registering a rule under a name already in the set *replaces*
the old one in place (same position, same classes unless new ones are
given), which is what re-running a notebook cell that redefines a rule
should do.  ``remove(name)`` takes a rule out.

    mine = DEFAULT_RULES.copy("mine")

    @mine.rule(Shl)
    def shl_to_mul(n): ...

    g = son.parse(f, rules=mine)             # only this parse sees shl_to_mul
    g = son.parse(f, rules=DEFAULT_RULES.without("commute"))

son's own rules form ``son.peephole.DEFAULT_RULES``; the module-level
``@rule`` registers into it (on purpose global: every later parse sees it).

Cost: the engine's dispatch is ``rules.table.get(type(n), ())``, a dict
lookup giving a list, as before; registering or removing a rule is
O(rules of its classes).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from ..errors import SonError

Rule = Callable[..., "object | None"]


class RuleSet:
    """Named peephole rules per node class, tried in registration order."""

    def __init__(self, name: str = "rules"):
        self.name = name
        #: node class -> the rules tried on it, in order (the engine's dispatch table;
        #: the lists are changed in place, so an engine holding the table sees changes)
        self.table: dict[type, list[Rule]] = {}
        #: rule name -> (the rule, the classes it is registered for), first registration first
        self._rules: dict[str, tuple[Rule, tuple[type, ...]]] = {}

    # ------------------------------------------------------------------ building
    def rule(self, *classes: type, first: bool = False) -> Callable[[Rule], Rule]:
        """Decorator: register the function as a rule for each of ``classes``.

        Appended after the rules already there (earlier rules win), or tried before
        them with ``first=True``.  A rule with the same name is replaced in place.
        """

        def register(fn: Rule) -> Rule:
            self.add(fn, *classes, first=first)
            return fn

        return register

    def add(self, fn: Rule, *classes: type, first: bool = False) -> RuleSet:
        """Register ``fn`` for ``classes`` (see ``rule``); returns the set."""
        name = getattr(fn, "__name__", None)
        if not name or name == "<lambda>" or not callable(fn):
            raise SonError(f"a rule is a named function (def), not {fn!r}: its name identifies it")
        if not classes or not all(isinstance(c, type) for c in classes):
            raise SonError(f"rule {name!r}: give the node classes it applies to, e.g. @rule(Add)")
        classes = tuple(dict.fromkeys(classes))
        old = self._rules.get(name)
        if old is not None and not first:
            old_fn, old_classes = old
            for cls in old_classes:
                rs = self.table[cls]
                if cls in classes:
                    rs[rs.index(old_fn)] = fn  # same position: a redefinition, not a new rule
                else:
                    self._drop(cls, old_fn)
            for cls in classes:
                if cls not in old_classes:
                    self.table.setdefault(cls, []).append(fn)
        else:
            if old is not None:
                self.remove(name)
            for cls in classes:
                rs = self.table.setdefault(cls, [])
                if first:
                    rs.insert(0, fn)
                else:
                    rs.append(fn)
        self._rules[name] = (fn, classes)
        return self

    def remove(self, name: str) -> RuleSet:
        """Take rule ``name`` out of the set; returns the set."""
        if name not in self._rules:
            raise SonError(f"no rule named {name!r} in rule set {self.name!r}; "
                           f"its rules: {', '.join(self._rules) or '(none)'}")
        fn, classes = self._rules.pop(name)
        for cls in classes:
            self._drop(cls, fn)
        return self

    def _drop(self, cls: type, fn: Rule) -> None:
        rs = self.table[cls]
        rs.remove(fn)
        if not rs:
            del self.table[cls]

    def extend(self, other: RuleSet | Iterable[tuple[Rule, tuple[type, ...]]]) -> RuleSet:
        """Add the rules of ``other`` (a RuleSet, or ``(rule, classes)`` pairs) in their order,
        replacing rules of the same name; returns the set."""
        for fn, classes in (other.items() if isinstance(other, RuleSet) else other):
            self.add(fn, *classes)
        return self

    # ------------------------------------------------------------------ new sets
    def copy(self, name: str | None = None) -> RuleSet:
        """An independent set with the same rules in the same order.  O(rules)."""
        new = RuleSet(self.name if name is None else name)
        new.table = {cls: list(rs) for cls, rs in self.table.items()}
        new._rules = dict(self._rules)
        return new

    def without(self, *names: str) -> RuleSet:
        """A copy without the rules ``names``."""
        new = self.copy()
        for name in names:
            new.remove(name)
        return new

    # ------------------------------------------------------------------ reading
    def items(self) -> Iterator[tuple[Rule, tuple[type, ...]]]:
        """``(rule, classes)`` for every rule, in first-registration order."""
        return iter(list(self._rules.values()))

    def names(self) -> list[str]:
        return list(self._rules)

    def for_class(self, cls: type) -> list[Rule]:
        """The rules tried on nodes of class ``cls``, in order (a copy)."""
        return list(self.table.get(cls, ()))

    def __iter__(self) -> Iterator[Rule]:
        """The rules, in first-registration order."""
        return iter([fn for fn, _ in self._rules.values()])

    def __len__(self) -> int:
        return len(self._rules)

    def __contains__(self, name: object) -> bool:
        return name in self._rules

    def __getitem__(self, name: str) -> Rule:
        try:
            return self._rules[name][0]
        except KeyError:
            raise KeyError(f"no rule named {name!r} in rule set {self.name!r}") from None

    def __repr__(self) -> str:
        return f"<RuleSet {self.name!r}: {len(self)} rules for {len(self.table)} node classes>"
