"""The C++ `loop` operator: a loop's first or last iteration skipped.  A counting for
(`<`, `<=`, `!=` up: start + 1, bound - 1; `>`, `>=` down: start - 1, bound + 1), a
range-for (a flag skips the first element, a count the last: any range, one line), and
a while loop's bound (`while (i < n)` -> `n - 1`; an operand of a top-level `&&` too)."""
import re

from lib.mutation.syntax import matching_paren, top_level

FOR_COUNT = re.compile(r"\bfor \((?:[\w:<>]+ )?(\w+) = ([^;]+); (\w+) (<|<=|!=|>|>=) ([^;]+);")
WHILE = re.compile(r"\bwhile \(")
BOUND = re.compile(r"^(?P<left>[^<>=!]+?) (?P<op><|<=|>|>=) (?P<right>[^<>=]+)$")
FIRST, LAST = "mutant_first_", "mutant_left_"


def bound_moved(expr, op):
    """The bound that ends the loop one iteration sooner: `n` -> `n - 1` up, `n + 1` down."""
    return f"{expr} - 1" if op in ("<", "<=", "!=") else f"{expr} + 1"


def for_count_mutants(line, fm):
    """The start moved one step on, the bound one step back; a bound that is a chain
    (`i < n && !done`) moves its comparison only."""
    up = fm.group(4) in ("<", "<=", "!=")
    out = [("loop", fm.start(2), fm.group(2), f"{fm.group(2)} {'+' if up else '-'} 1")]
    bound = fm.group(5)
    ands = top_level(bound, " && ") + top_level(bound, " || ")
    first = bound[:min(ands)] if ands else bound
    out.append(("loop", fm.start(5), first, bound_moved(first, fm.group(4))))
    return out


def range_for_mutants(line, code):
    """for (D x : xs) -> the first element skipped (a flag), or the last (a count down
    from std::size(xs)); the body braced when it was a one-line statement."""
    fm = re.search(r"\bfor \(", code)
    close = matching_paren(code, fm.end() - 1) if fm else -1
    colon = top_level(code[fm.end():close], " : ") if close > 0 else []
    if len(colon) != 1 or ";" in code[fm.end():close]:
        return []
    decl, rng = line[fm.end():fm.end() + colon[0]], line[fm.end() + colon[0] + 3:close]
    rest, after = code[close + 1:].strip(), line[close + 1:]
    if rest.startswith("{"):
        body, tail = None, after[after.index("{") + 1:]
    elif rest.endswith(";"):
        body, tail = after[:len(code[close + 1:].rstrip())].strip(), after[len(code[close + 1:].rstrip()):]
    else:
        return []  # the body is on the lines below, unbraced
    out = []
    for init, guard in ((f"bool {FIRST} = true", f"if ({FIRST}) {{ {FIRST} = false; continue; }}"),
                        (f"auto {LAST} = std::size({rng})", f"if (--{LAST} == 0) continue;")):
        head = f"for ({init}; {decl} : {rng}) {{ {guard}"
        out.append(("loop", fm.start(), line[fm.start():], head + (tail if body is None else f" {body} }}{tail}")))
    return out


def while_mutants(line, code):
    """while (i < n) -> n - 1 (down: + 1), and each such operand of a top-level && chain."""
    wm = WHILE.search(code)
    close = matching_paren(code, wm.end() - 1) if wm else -1
    if close < 0:
        return []
    cond, at = code[wm.end():close], wm.end()
    if top_level(cond, " || "):
        return []
    out, start = [], 0
    for end in top_level(cond, " && ") + [len(cond)]:
        bm = BOUND.match(cond[start:end])
        if bm and all(bm.group(g).count("(") == bm.group(g).count(")") for g in ("left", "right")):
            col = at + start + bm.start("right")
            out.append(("loop", col, line[col:at + end], bound_moved(line[col:at + end], bm.group("op"))))
        start = end + 4
    return out


def loop_mutants(line, code_at):
    """(loop, column, old, new) of one C++ line."""
    code = "".join(c if code_at(i, 1) else " " for i, c in enumerate(line))
    if (fm := FOR_COUNT.search(line)) and code_at(fm.start(), 3) and fm.group(1) == fm.group(3):
        return for_count_mutants(line, fm)
    return range_for_mutants(line, code) + while_mutants(line, code)
