"""A function defined in a Jupyter cell parses like one defined in a file."""

import nbformat
from nbclient import NotebookClient


def test_parse_a_function_defined_in_a_notebook_cell():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import son\nson.debug = True"),
        nbformat.v4.new_code_cell(
            "def f(a: int, n: int):\n"
            "    s = 0\n"
            "    for i in range(n):\n"
            "        s += a * 2 - a\n"
            "    return s\n"),
        nbformat.v4.new_code_cell(
            "g = son.parse(f)\n"
            "assert son.interpret(g, 3, 4) == f(3, 4) == 12\n"
            "print(sum(ln.lstrip().startswith('return') for ln in son.nodes.ir(g).splitlines()))"),
        nbformat.v4.new_code_cell(
            "def bad(a):\n"
            "    return {a}\n"
            "try:\n"
            "    son.parse(bad)\n"
            "except son.SonSyntaxError as e:\n"
            "    print('line', e.lineno, 'col', e.col, e.construct)"),
    ]
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    out = [o["text"] for c in nb.cells for o in c.get("outputs", []) if o.get("name") == "stdout"]
    assert out[0].strip() == "1"  # one Return in the listing
    assert out[1].strip() == "line 2 col 11 set"
