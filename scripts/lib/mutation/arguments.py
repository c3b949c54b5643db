"""The C++ `swap` operator: two neighbouring arguments of the same kind swapped in a call
or a braced initializer (`f(a, b)` -> `f(b, a)`, `Fact{p, d, q}` -> `Fact{d, p, q}`).  The same kind:
both names or member accesses (`a.lo`, `x->y`, `A::B`), or both number, string or
boolean literals.  A call whose arguments commute (`std::min`) is left alone."""
import re

from lib.mutation.syntax import top_level

KINDS = [re.compile(r"^[A-Za-z_]\w*(?:(?:\.|->|::)[A-Za-z_]\w*)*$"),   # a name, a member, a scoped name
         re.compile(r"^-?(?:0x[0-9A-Fa-f']+|\d[\d']*\.?\d*)\w*$"),       # a number
         re.compile(r'^"[^"]*"$'), re.compile(r"^(?:true|false)$")]
CALL = re.compile(r"\b(\w+)\s?[({]")
COMMUTE = {"min", "max", "swap", "gcd", "lcm", "hypot", "if", "while", "for", "switch", "return", "sizeof", "catch"}


def kind(arg):
    return next((k for k, pat in enumerate(KINDS) if pat.match(arg)), None)


def arguments(code, open_at):
    """[(start, end)] of the complete arguments after the bracket at open_at: to its
    match, or to the line's end when the call goes on below (the last one if a `,` ends it)."""
    depth, end = 0, len(code.rstrip(" #"))  # a trailing comment is blanked too
    for k in range(open_at, len(code)):
        depth += code[k] in "([{"
        depth -= code[k] in ")]}"
        if depth == 0:
            end = k
            break
    inner = code[open_at + 1:end]
    cuts = top_level(inner, ", ")
    starts = [0] + [c + 2 for c in cuts]
    spans = [(open_at + 1 + s, open_at + 1 + e) for s, e in zip(starts, cuts + [len(inner)])]
    if depth != 0 and not inner.rstrip().endswith(","):
        spans = spans[:-1]  # the last argument goes on below
    return [(s, e - (len(code[s:e]) - len(code[s:e].rstrip(", ")))) for s, e in spans]


def same_type(a, b, scope):
    """False when the line's scope declares both names with different types (the swap
    would be stillborn, a build for nothing); True otherwise."""
    names = scope.names if scope else {}
    return a not in names or b not in names or names[a] == names[b]


def swap_mutants(line, code_at, scope=None):
    """(swap, column, old, new): each two neighbouring arguments of a kind swapped, in every
    call; scope (scope.py), when given, leaves out two names it knows differ in type."""
    code = "".join(c if code_at(i, 1) else "#" for i, c in enumerate(line))  # no bracket read in a string
    out = []
    for m in CALL.finditer(code):
        if m.group(1) in COMMUTE or not code_at(m.start(), 1):
            continue
        args = [(s, e, line[s:e]) for s, e in arguments(code, m.end() - 1)]
        for (s1, e1, a), (s2, e2, b) in zip(args, args[1:]):  # neighbours: the slip of an order
            if a != b and kind(a) is not None and kind(a) == kind(b) and same_type(a, b, scope):
                out.append(("swap", s1, line[s1:e2], b + line[e1:s2] + a))
    return out
