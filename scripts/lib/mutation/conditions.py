"""The C++ `cond` operator: one operand of a `&&` / `||` chain dropped, wherever the
chain sits: an if/while/for condition, a return, an assignment or initializer
(`bool x = a && b;`), a lambda's return, a ternary's condition, a call's argument, a
parenthesized group inside another condition, and a chain that goes on over lines."""
import re

from lib.mutation.syntax import top_level

RETURN = re.compile(r"\breturn ")


def code_text(line, code_at):
    """The line with every character that is not code (a string, a comment) blanked to
    `_`, so that no bracket or connective inside one is read."""
    return "".join(c if code_at(i, 1) else "_" for i, c in enumerate(line))


def is_delimiter(code, i):
    """Whether code[i] ends an expression a chain could fill: `,` `;` `?`, a ternary's
    `:` (not `::`), an assignment's `=` (not `==`, `<=`, `>=`, `!=`)."""
    c = code[i]
    if c in ",;?":
        return True
    if c == ":":
        return code[i - 1:i] != ":" and code[i + 1:i + 2] != ":"
    return c == "=" and code[i + 1:i + 2] != "=" and code[i - 1:i] not in ("=", "!", "<", ">")


def regions(code):
    """(start, end, closer) of each expression of the line that a chain could fill, one
    level of brackets at a time (a nested group is its own region, opaque to the one
    around it); closer: the character that ends it ("" at the line's end)."""
    out, starts, i = [], [0], 0
    while i < len(code):
        c, step = code[i], 1
        if c in "([{":
            starts.append(i + 1)
        elif c in ")]}":
            out.append((starts.pop() if len(starts) > 1 else starts[0], i, c))
            if len(starts) == 1 and out[-1][0] == starts[0]:
                starts[0] = i + 1  # an unbalanced closer: the line ends a statement begun above
        elif is_delimiter(code, i):
            out.append((starts[-1], i, c))
            starts[-1] = i + 1
        elif (m := RETURN.match(code, i)) and not (code[i - 1:i].isalnum() or code[i - 1:i] == "_"):
            starts[-1], step = m.end(), m.end() - i
        i += step
    return out + [(s, len(code), "") for s in starts]


def cuts(core, closer):
    """(from, to) spans of core (a region's code, stripped) each of whose removal drops one
    operand of its outermost connective with that connective.  A line's open end (`a &&`
    going on below) is a connective too: the line's one operand is then dropped whole."""
    lead = 3 if core[:3] in ("&& ", "|| ") else 0
    trail = 3 if core[-3:] in (" &&", " ||") and len(core) - 3 in top_level(core + " ", core[-3:] + " ") else 0
    if (lead and trail) or (trail and closer == "{"):  # `T value() && {`: a ref-qualifier
        return []
    body = core[lead:len(core) - trail]
    if re.search(r"(&&|\|\|) \{", body):  # `T f() && { ... }`: a ref-qualifier before a body
        return []
    for sep in (" || ", " && "):  # || binds loosest: its operands are the outermost
        seps = top_level(body, sep)
        if seps:
            break
    if not seps:
        return [(0, len(core))] if (lead or trail) and body.strip() else []
    starts = [0] + [k + 4 for k in seps]
    ends = seps + [len(body)]
    spans = [(starts[k], starts[k + 1]) for k in range(len(seps))] + [(seps[-1], len(body))]
    return [(lead + a, lead + b) for k, (a, b) in enumerate(spans) if body[starts[k]:ends[k]].strip()]


def cond_mutants(line, code_at):
    """(cond, column, old, new): each region's operands dropped one at a time; old is the
    region, new the region without the operand."""
    out, code = [], code_text(line, code_at)
    for start, end, closer in regions(code):
        s = start + len(code[start:end]) - len(code[start:end].lstrip())
        e = s + len(code[s:end].rstrip())
        if e > s and ("&&" in code[s:e] or "||" in code[s:e]):
            old = line[s:e]
            out += [("cond", s, old, old[:a] + old[b:]) for a, b in cuts(code[s:e], closer)]
    return out
