"""Finding a function's AST, its source location and the names it can see."""

from __future__ import annotations

import ast
import builtins
import inspect
import linecache
from dataclasses import dataclass, field

from .._util import deep_syntax_trees
from ..errors import SonSyntaxError


@dataclass
class FunctionSource:
    """One function's syntax tree with everything needed to resolve its names."""

    tree: ast.FunctionDef
    filename: str
    line0: int  # add to a tree line number to get the file line number
    col0: int  # add to a tree column to get the file column
    globals: dict
    closure: dict = field(default_factory=dict)
    defaults: tuple = ()
    pyfunc: object = None
    #: the defaults of the keyword-only parameters, by name
    kwdefaults: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.tree.name

    def lookup(self, name: str):
        """The object a free name denotes: closure cell, global, then builtin."""
        return lookup(self.closure, self.globals, name)


def parameter_names(tree: ast.FunctionDef) -> list[str]:
    """A function's parameters in the order son's graph takes them: the positional ones
    (positional-only first), then the keyword-only ones; ``*args`` and ``**kwargs`` are
    not among them."""
    a = tree.args
    return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]


def parameters_bound(a: ast.arguments) -> set[str]:
    """Every name a function's parameters bind: positional-only, ordinary, keyword-only,
    ``*args`` and ``**kwargs``."""
    names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    return names | {x.arg for x in (a.vararg, a.kwarg) if x is not None}


def lookup(closure: dict, globals: dict, name: str):
    """The object free name ``name`` denotes in a function with these cells and globals:
    closure cell, global, then builtin; ``KeyError`` if none.  O(1)."""
    if name in closure:
        return closure[name]
    if name in globals:
        return globals[name]
    if hasattr(builtins, name):
        return getattr(builtins, name)
    raise KeyError(name)


def closure_of(fn) -> dict:
    """Free variable name -> value of ``fn``'s filled closure cells.  O(free variables)."""
    closure = {}
    if fn.__closure__:
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
            try:
                closure[name] = cell.cell_contents
            except ValueError:
                pass
    return closure


_CACHE: dict[object, FunctionSource] = {}


def source_of(fn) -> FunctionSource:
    """The ``FunctionSource`` of a Python function (defined in a file or a notebook cell)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        name = getattr(fn, "__qualname__", None) or repr(fn)
        module = getattr(fn, "__module__", None)
        if module and module != "builtins" and not name.startswith("<"):
            name = f"{module}.{name}"
        if not callable(fn):
            kind = type(fn).__name__
            raise SonSyntaxError(f"son parses a Python function, not {name} "
                                 f"({'an' if kind[0] in 'aeiou' else 'a'} {kind})",
                                 "<unknown>", 0, 0, "call")
        raise SonSyntaxError(f"{name} is not a Python function: it is built into Python or a C "
                             f"extension and has no Python source for son to read (son parses functions "
                             f"written with 'def'; call it from one: def f(x): return {name}(x))",
                             "<unknown>", 0, 0, "call")
    cached = _CACHE.get(fn)
    if cached is not None and cached.pyfunc is fn:
        return cached
    if fn.__name__ == "<lambda>":
        src = FunctionSource(_lambda_tree(code), code.co_filename, 0, 0, fn.__globals__, closure_of(fn),
                             fn.__defaults__ or (), fn, dict(fn.__kwdefaults__ or {}))
        _CACHE[fn] = src
        return src
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise SonSyntaxError(f"cannot read the source of {fn.__qualname__}: {e}",
                             code.co_filename, code.co_firstlineno, 0, "function") from None
    indent = lines[0][: len(lines[0]) - len(lines[0].lstrip())]
    # Strip the definition's own indentation; a line without it can only be inside a
    # string literal (a docstring written flush left), where it does not matter.
    text = "".join(ln[len(indent):] if ln.startswith(indent) else ln for ln in lines)
    col0 = len(indent)
    try:
        with deep_syntax_trees():  # CPython's parser counts its depth against the limit
            tree = ast.parse(text)
    except SyntaxError as e:
        raise SonSyntaxError(f"Python syntax error: {e.msg}", code.co_filename,
                             first + (e.lineno or 1) - 1, col0 + (e.offset or 1) - 1, "syntax") from None
    fdef = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if fdef is None or isinstance(fdef, ast.AsyncFunctionDef):
        what = "async function" if fdef is not None else "function definition"
        raise SonSyntaxError(f"unsupported construct: {what} (son parses plain 'def' functions)",
                             code.co_filename, first, col0, what)
    src = FunctionSource(fdef, code.co_filename, first - 1, col0, fn.__globals__, closure_of(fn),
                         fn.__defaults__ or (), fn, dict(getattr(fn, "__kwdefaults__", None) or {}))
    _CACHE[fn] = src
    return src


def source_from_text(text: str, name: str | None, namespace: dict, filename: str) -> FunctionSource:
    """The ``FunctionSource`` of function ``name`` (default: the last one) in ``text``."""
    try:
        with deep_syntax_trees():
            tree = ast.parse(text, filename)
    except SyntaxError as e:
        raise SonSyntaxError(f"Python syntax error: {e.msg}", filename, e.lineno or 0,
                             (e.offset or 1) - 1, "syntax") from None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if name is not None:
        defs = [d for d in defs if d.name == name]
    if not defs:
        what = f"no function named {name!r}" if name else "no function definition"
        raise SonSyntaxError(f"{what} in the source", filename, 1, 0, "function")
    fdef = defs[-1]
    fn = namespace.get(fdef.name)
    defaults = getattr(fn, "__defaults__", None) or ()
    return FunctionSource(fdef, filename, 0, 0, namespace, {}, defaults, fn,
                          dict(getattr(fn, "__kwdefaults__", None) or {}))


def _lambda_tree(code) -> ast.FunctionDef:
    """A lambda as the ``def`` it stands for (``def <lambda>(x): return body``), found in
    its file's syntax tree (line numbers are the file's): the lambda on its first line
    whose parameters are the code's, and, where several are, the one whose span holds
    the code's first position.  A located error where the source cannot be read or the
    lambda cannot be told apart.  O(size of the file)."""
    where, line = code.co_filename, code.co_firstlineno
    text = "".join(linecache.getlines(where))
    col = max(linecache.getline(where, line).find("lambda"), 0)
    try:
        with deep_syntax_trees():
            tree = ast.parse(text)
    except SyntaxError:
        tree = None
    if tree is None or not text:
        raise SonSyntaxError("cannot read the source of this lambda (son parses functions whose source it "
                             "can read: define it in a file or a notebook cell)", where, line, col, "lambda")
    params = list(code.co_varnames[:code.co_argcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == line
             and [a.arg for a in n.args.posonlyargs + n.args.args] == params]
    if len(found) > 1:
        first = next((p for p in code.co_positions() if p[0] == line and p[2] is not None and p[2] != p[3]),
                     None)
        if first is not None:
            found = [n for n in found if (n.lineno, n.col_offset) <= (first[0], first[2])
                     and (first[1], first[3]) <= (n.end_lineno, n.end_col_offset)]
            found = found[-1:]  # the innermost
    if len(found) != 1:
        raise SonSyntaxError("cannot tell this lambda apart from the others on its line (son parses it "
                             "from its source): give it a line of its own, or write it with 'def'",
                             where, line, col, "lambda")
    lam = found[0]
    fdef = ast.FunctionDef(name="<lambda>", args=lam.args, body=[ast.Return(lam.body)], decorator_list=[],
                           returns=None, type_comment=None, type_params=[])
    ast.copy_location(fdef, lam)
    ast.copy_location(fdef.body[0], lam.body)
    fdef.end_lineno, fdef.end_col_offset = lam.end_lineno, lam.end_col_offset
    fdef.body[0].end_lineno, fdef.body[0].end_col_offset = lam.body.end_lineno, lam.body.end_col_offset
    return fdef
