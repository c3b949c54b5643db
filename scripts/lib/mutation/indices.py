"""The C++ `index` operator: a value read from the wrong place of the same container.
`v[i]` -> `v[i + 1]`, `v[i - 1]`, and `v[j]` for another index variable the function
uses in a subscript (scope.py), or `v[0]` where it has none; `.front()` <-> `.back()`.
A literal subscript is left to `cst`, and a string one (`j["key"]`) is a key, not a place."""
import re

INT_LITERAL = re.compile(r"^\s*(?:0x[0-9A-Fa-f']+|\d[\d']*)\w*\s*$")
SIMPLE = re.compile(r"^[A-Za-z_][\w.]*(?:->\w+)*(?: [+-] (?:\d+|[A-Za-z_]\w*))?$")
OPENS = re.compile(r"(?<=[\w\])])\[")
ENDS = re.compile(r"(\.|->)(front|back)\(\)")


def closing_bracket(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        depth += code[k] in "([{"
        depth -= code[k] in ")]}"
        if depth == 0:
            return k
    return -1


def wrong_places(expr, indices):
    """The subscripts that stand for expr: one further, one before, and another index
    variable of the function (the latest taken up), or the first when there is none."""
    base = expr if SIMPLE.match(expr) else f"({expr})"
    other = [j for j in indices if j != expr][-1:] or ["0"]
    return [f"{base} + 1", f"{base} - 1"] + other


def index_mutants(line, code_at, scope):
    """(index, column, old, new) of one line."""
    code = "".join(c if code_at(i, 1) else " " for i, c in enumerate(line))
    out = []
    for m in OPENS.finditer(code):
        close = closing_bracket(code, m.start())
        expr = line[m.start() + 1:close] if close > m.start() + 1 else ""
        if not expr.strip() or INT_LITERAL.match(expr) or not code_at(m.start() + 1, 1):
            continue  # a literal subscript is cst's; a string one (`j["key"]`) is a key, not an index
        for new in wrong_places(expr, scope.indices if scope else ()):
            out.append(("index", m.start() + 1, expr, new))
    for m in ENDS.finditer(code):
        other = "back" if m.group(2) == "front" else "front"
        out.append(("index", m.start(2), m.group(2), other))
    return out
