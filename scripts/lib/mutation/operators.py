"""The catalogue's operators and the C++ line mutants.  A mutant is (file, line,
column, old text, new text, operator); line_mutants gives a line's (operator, column,
old, new), semantic_mutants the slips one-token flips do not imitate (C++ and Python)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.arguments import swap_mutants  # noqa: E402
from lib.mutation.budget import budget_mutants  # noqa: E402
from lib.mutation.conditions import cond_mutants  # noqa: E402
from lib.mutation.indices import index_mutants  # noqa: E402
from lib.mutation.loops import loop_mutants  # noqa: E402
from lib.mutation.substitute import var_mutants  # noqa: E402
from lib.mutation.syntax import matching_paren, split_top  # noqa: E402

OPERATORS = {
    "ror": "relational operator: < <= > >= == != each to its neighbour (a < b -> a <= b, == -> !=)",
    "aor": "arithmetic/bitwise operator: + <-> -, * <-> /, & <-> |, += <-> -=",
    "lcr": "logical connective: && <-> ||",
    "cst": "integer constant n -> n+1 and n-1 (0 -> 1)",
    "neg": "negated condition: if (c) / while (c) -> if (!(c)) / while (!(c))",
    "del": "deleted statement: an assignment, call, break, continue, push/emplace",
    "bool": "boolean constant: true <-> false",
    # Semantic slips: the mistakes people make, which one-token flips do not imitate.
    "swap": "swapped arguments of a kind: f(a, b) -> f(b, a), T{x.lo, x.hi} -> T{x.hi, x.lo}, two names, members or "
            "literals of a call or braced initializer (not min/max; stillborn when their types differ)",
    "cond": "dropped operand of a && / || chain: A && B -> A and -> B, wherever it sits (a condition, return, "
            "initializer, argument, lambda, ternary's condition, nested group, a chain over lines)",
    "loop": "first or last iteration skipped: for (i = s; i < n; ...) -> s + 1 / n - 1 (down: s - 1 / n + 1), "
            "range-for via a flag / a count, while (i < n) -> n - 1 (Python: range)",
    "tern": "swapped branches of a ternary: c ? a : b -> c ? b : a (Python: a if c else b -> b if c else a)",
    "var": "another name of the same declared type in scope: na -> nb, a.lo -> a.hi (a function's names, "
           "a class's sibling fields read on the same object; the most alike)",
    "index": "wrong index of the same container: v[i] -> v[i + 1], v[i - 1], v[j] (another index variable "
             "of the function, else v[0]); .front() <-> .back()",
    # Budget and exit-code slips (issue 31).  A stop-like name: stop, deadline, budget,
    # expired, cut, cancel, limit, timeout, timed_out, max_states/memory/seconds/instructions.
    "stop": "deleted early exit of a stop-flag test: if (deadline.expired()) return r; -> if (...) {} (Python: -> pass)",
    "stopneg": "inverted stop-flag test: x.expired() <-> !x.expired(), one operand of && / || (Python: not)",
    "handoff": "dropped budget hand-off: a clock handed on -> {} (a fresh one), max_seconds -> 1e300, &deadline -> nullptr "
               "(Python: timeout=EXPR -> None)",
    "exitcode": "changed error exit code: 1 <-> 2, 3 and 4 -> 1 (Exit::Usage <-> Exit::Invalid ...; C++ return N in "
                "core/cli, exit(N); Python sys.exit(N), return N in main/run/entry)",
}
NEW_OPS = ("stop", "stopneg", "handoff", "exitcode")
# `del` is also the operator for a call whose result is unused: `f(x);` -> deleted.

# Spaced binary operators only: the code is clang-formatted, so `a < b` is a
# comparison and `vector<int>` a template argument.
BINARY = [
    ("ror", " <= ", " < "), ("ror", " < ", " <= "), ("ror", " >= ", " > "), ("ror", " > ", " >= "),
    ("ror", " == ", " != "), ("ror", " != ", " == "),
    ("aor", " + ", " - "), ("aor", " - ", " + "), ("aor", " * ", " / "), ("aor", " / ", " * "),
    ("aor", " & ", " | "), ("aor", " | ", " & "), ("aor", " += ", " -= "), ("aor", " -= ", " += "),
    ("lcr", " && ", " || "), ("lcr", " || ", " && "),
]
INT = re.compile(r"(?<![\w.'])(0x[0-9A-Fa-f']+|\d[\d']*)(u|ull|ul|ll|U|ULL|UL|LL)?(?![\w.'])")
BOOL = re.compile(r"\b(true|false)\b")
COND = re.compile(r"\b(if|while) \(")
# Statements whose deletion still compiles, usually: assignments, calls, control transfers.
DELETABLE = re.compile(
    r"^\s*(?:(?:[\w.\[\]]|->|::)+\s*(?:=|\+=|-=|\|=|&=|\^=|<<=|>>=)\s*[^=].*;"
    r"|(?:[\w.\[\]]|->|::)+\(.*\);"
    r"|(?:\+\+|--)[\w.\[\]>-]+;|[\w.\[\]>-]+(?:\+\+|--);|break;|continue;)\s*(?://.*)?$")
SKIP_LINE = re.compile(r"^\s*(#|static_assert|using |namespace |template|//|\}\s*//|case .*:\s*$|default:)")


def line_mutants(line, mask, ctx=None):
    """(operator, column, old, new) for one line; mask says which columns are code; ctx
    (budget_mutants) the previous code line and the file."""
    out = []
    scope = (ctx or {}).get("scope")
    if SKIP_LINE.match(line) or not line.strip() or (scope and scope.statement.startswith("static_assert")):
        return out  # a static_assert's lines too: a weaker compile-time check builds the same
    def code_at(col, length):
        return all(mask[col:col + length])
    for op, old, new in BINARY:
        start = 0
        while (col := line.find(old, start)) >= 0:
            start = col + 1
            if not code_at(col, len(old)):
                continue
            # `a < b > c` never occurs; `x << y`, `a <=> b` and `->` are not spaced this way.
            out.append((op, col, old, new))
    for m in INT.finditer(line):
        if not code_at(m.start(), len(m.group(0))):
            continue
        digits, suffix = m.group(1), m.group(2) or ""
        if re.match(r"0[0-7']+$", digits):  # octal (a file mode: 07777)
            value, fmt = int(digits.replace("'", ""), 8), (lambda v: "0" + format(v, "o"))
        else:
            value = int(digits.replace("'", ""), 0)
            fmt = (lambda v: hex(v)) if digits.lower().startswith("0x") else str
        for v in ([1] if value == 0 else [value + 1, value - 1]):
            out.append(("cst", m.start(), m.group(0), fmt(v) + suffix))
    for m in BOOL.finditer(line):
        if code_at(m.start(), len(m.group(0))):
            out.append(("bool", m.start(), m.group(0), "false" if m.group(0) == "true" else "true"))
    for m in COND.finditer(line):
        open_at = m.end() - 1
        close = matching_paren(line, open_at)
        if close < 0 or not code_at(m.start(), 2) or "constexpr" in line[m.start():open_at]:
            continue
        cond = line[open_at + 1:close]
        if ";" in cond or cond.startswith("const ") or cond.startswith("auto"):  # if (init; cond) / declarations
            continue
        out.append(("neg", open_at, line[open_at:close + 1], "(!(" + cond + "))"))
    out += (swap_mutants(line, code_at, scope) + cond_mutants(line, code_at) + loop_mutants(line, code_at)
            + ternary_chain_mutants(line, code_at) + var_mutants(line, code_at, scope) + index_mutants(line, code_at, scope))
    if DELETABLE.match(line) and not re.match(r"^\s*(return|const|auto|std::|unsigned|int|bool|char|for|if|while)\b", line):
        body = line.strip()
        if code_at(len(line) - len(line.lstrip()), 1):
            out.append(("del", len(line) - len(line.lstrip()), body, ";  // deleted"))
    return merge_budget(out, budget_mutants(line, code_at, ctx, cpp=True), line, cpp=True)


def merge_budget(out, budget, line, cpp):
    """The line's mutants and its budget ones, each change once: a neg of a condition that
    is one stop-flag test is that test's stopneg; a cst that makes an exit code's change
    is that exitcode."""
    whole = {(s, line[s:s + len(old)]) for op, s, old, _ in budget if op == "stopneg"}
    kept, seen = [], set()
    for op, col, old, new in budget + out:
        mutated = line[:col] + new + line[col + len(old):]
        if op == "neg":
            inner = old[1:-1] if cpp else old  # C++ neg's old is `(cond)`, Python's `cond`
            if (col + (1 if cpp else 0), inner) in whole:
                continue
        if mutated in seen:
            continue
        seen.add(mutated)
        kept.append((op, col, old, new))
    return [k for k in kept if k[0] not in NEW_OPS] + [k for k in kept if k[0] in NEW_OPS]


NAME = r"[A-Za-z_][\w.]*(?:->\w+)*"
CALL2 = re.compile(r"\b(\w+)\((" + NAME + r"), (" + NAME + r")\)")
RANGE_PY = re.compile(r"\brange\(([^(),]+)(?:, ([^(),]+))?\)")
TERN_PY = re.compile(r"(?:(?<=[=(,] )|(?<=return ))([\w.]+(?:\([^()]*\))?) if ([^:]+?) else ([\w.]+(?:\([^()]*\))?)(?=[),\]]|$|\s)")


def ternary_chain_mutants(line, code_at):
    """c1 ? r0 : c2 ? r1 : r2 -> each two neighbouring results swapped (c ? a : b -> c ? b : a)."""
    flat = line.replace("::", "##")  # a scope is not a ternary's colon
    marks = [(i, ch) for i, ch in enumerate(flat) if flat[i - 1:i + 2] in (" ? ", " : ") and ch in "?:" and code_at(i, 1)]
    if not marks or len(marks) % 2 or any(ch != "?:"[k % 2] for k, (_, ch) in enumerate(marks)):
        return []
    end, depth = marks[-1][0] + 2, 0  # the last result runs to the end of the expression
    while end < len(line):
        c = line[end]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c in ";," and depth == 0:
            break
        end += 1
    spans = [(marks[k][0] + 2, marks[k + 1][0] - 1) for k in range(0, len(marks), 2)] + [(marks[-1][0] + 2, end)]
    out = []
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        a, b = line[a0:a1], line[b0:b1]
        if a.strip() != b.strip():
            old = line[a0:b1]
            out.append(("tern", a0, old, b + line[a1:b0] + a))
    return out


def semantic_mutants(line, code_at, and_op="and", or_op="or"):
    """swap, cond, loop and tern mutants of one Python line (C++'s: line_mutants)."""
    out = []
    for m in CALL2.finditer(line):
        if code_at(m.start(), len(m.group(0))) and m.group(2) != m.group(3) and m.group(1) not in ("if", "while", "for"):
            out.append(("swap", m.start(2), f"{m.group(2)}, {m.group(3)}", f"{m.group(3)}, {m.group(2)}"))
    pm = re.match(r"^(\s*(?:if|elif|while|return) )(.*?)(:?)\s*(?:#.*)?$", line)  # a condition, or what a return returns
    span = (pm.end(1), pm.end(2)) if pm and pm.group(2) else None
    if span and code_at(span[0], max(1, span[1] - span[0])):
        expr = line[span[0]:span[1]]
        for sep in (f" {and_op} ", f" {or_op} "):
            parts = split_top(expr, sep)
            if len(parts) < 2:
                continue
            for k in range(len(parts)):
                kept = sep.join(parts[:k] + parts[k + 1:])
                out.append(("cond", span[0], expr, kept))
            break  # the outermost connective only: dropping inside it is the next slip's
    for rm in RANGE_PY.finditer(line):
        if not code_at(rm.start(), 6):
            continue
        if rm.group(2) is None:
            out.append(("loop", rm.start(1), rm.group(1), f"1, {rm.group(1)}"))
            out.append(("loop", rm.start(1), rm.group(1), f"{rm.group(1)} - 1"))
        else:
            out.append(("loop", rm.start(1), rm.group(1), f"{rm.group(1)} + 1"))
            out.append(("loop", rm.start(2), rm.group(2), f"{rm.group(2)} - 1"))
    for tm in TERN_PY.finditer(line):
        if code_at(tm.start(), len(tm.group(0))) and tm.group(1) != tm.group(3):
            out.append(("tern", tm.start(), tm.group(0), f"{tm.group(3)} if {tm.group(2)} else {tm.group(1)}"))
    return out
