"""Budget and exit-code operators (issue 31): stop, stopneg, handoff and exitcode, the
slips a stop flag, a time budget and an exit code invite, in C++ and in Python."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.syntax import matching_paren, split_top  # noqa: E402

# A stop-like name is one of STOP_WORDS as a whole word or a part of
# a snake_case name (`deadline_`, `out_of_budget`, `f.stop`, `timed_out`), never inside a
# longer word (`executed` holds no `cut`, `numeric_limits` no `limit`).
STOP_WORDS = re.compile(
    r"(?<![A-Za-z])(?:stop|stopped|deadline|budget|expired|cut|cancel|cancelled|canceled|limit|timeout|timed_out"
    r"|out_of_time|max_states|max_memory|max_seconds|max_instructions)(?![a-z])", re.I)
EXIT_SWAP = {1: 2, 2: 1, 3: 1, 4: 1}  # the codes of README's table: 1 <-> 2, lint/failing -> 1
EXIT_ENUM = {"Invalid": "Usage", "Usage": "Invalid", "LintFound": "Invalid", "Failing": "Invalid"}
PY_MAIN = re.compile(r"^_?(main|run|entry|cli)(_\w+)?$")
COMPARISON = (" < ", " > ", " <= ", " >= ", " == ", " != ", " = ", " is ", " in ")


def atoms(expr, base, seps):
    """(start, end) of expr's operands at the top level of its connectives (&&/||, and/or),
    columns shifted by base; outer parentheses around the whole are not looked into."""
    out, depth, start, i = [], 0, 0, 0
    while i <= len(expr):
        if i == len(expr):
            out.append((start, i))
            break
        c = expr[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and (sep := next((s for s in seps if expr.startswith(s, i)), None)):
            out.append((start, i))
            i += len(sep)
            start = i
            continue
        i += 1
    spans = []
    for a, b in out:
        while a < b and expr[a] == " ":
            a += 1
        while b > a and expr[b - 1] == " ":
            b -= 1
        if a < b:
            spans.append((base + a, base + b))
    return spans


def top_level_has(expr, needles):
    """True when one of needles occurs in expr outside every parenthesis."""
    depth = 0
    for i, c in enumerate(expr):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and any(expr.startswith(n, i) for n in needles):
            return True
    return False


def condition_spans(line, cpp):
    """(start, end, keyword) of the conditions on a line: if/while/for and return (C++),
    if/elif/while and return (Python)."""
    spans = []
    if cpp:
        for m in re.finditer(r"\b(if|while|for) \(", line):
            close = matching_paren(line, m.end() - 1)
            if close < 0 or "constexpr" in line[m.start():m.end()]:
                continue
            inner = line[m.end():close]
            if m.group(1) == "for":
                parts = split_top(inner, "; ")
                if len(parts) == 3 and parts[1]:
                    a = m.end() + len(parts[0]) + 2
                    spans.append((a, a + len(parts[1]), "for"))
            elif ";" not in inner and not inner.startswith(("const ", "auto")):
                spans.append((m.end(), close, m.group(1)))
        if (rm := re.match(r"^(\s*return )(.*);\s*(?://.*)?$", line)):
            spans.append((rm.end(1), rm.end(2), "return"))
    else:
        if (pm := re.match(r"^(\s*(?:if|elif|while) )(.+?):\s*(?:#.*)?$", line)) or \
                (pm := re.match(r"^(\s*(?:if|elif|while) )(.+?):\s*(?:return\b.*|break|continue|pass)\s*(?:#.*)?$", line)):
            spans.append((pm.end(1), pm.end(2), "if"))
        elif (rm := re.match(r"^(\s*return )(.+?)\s*(?:#.*)?$", line)):
            spans.append((rm.end(1), rm.end(2), "return"))
    return spans


def stop_atoms(line, code_at, cpp):
    """The operands of a condition that test a stop flag or budget (a stop-like name, no
    comparison): (start, end, whole) where whole says the atom is the whole condition."""
    out = []
    for a, b, kw in condition_spans(line, cpp):
        expr = line[a:b]
        spans = atoms(expr, a, (" && ", " || ") if cpp else (" and ", " or "))
        for s, e in spans:
            atom = line[s:e]
            if not code_at(s, e - s) or not STOP_WORDS.search(atom) or top_level_has(atom, COMPARISON + (" ? ", " if ")):
                continue
            if kw == "return" and len(spans) == 1:
                continue  # `return stop;` is a value, not a test
            out.append((s, e, len(spans) == 1))
    return out


def budget_mutants(line, code_at, ctx, cpp):
    """stop, stopneg, handoff and exitcode mutants of one line.  ctx: prev (the previous
    code line), file (the path), func (Python: the enclosing def)."""
    ctx = ctx or {}
    return (stop_mutants(line, code_at, ctx.get("prev", ""), cpp) + stopneg_mutants(line, code_at, cpp)
            + handoff_mutants(line, code_at, cpp) + exitcode_mutants(line, code_at, ctx, cpp))


def stop_mutants(line, code_at, prev, cpp):
    """stop: the early exit a stop-flag test guards is deleted (the test itself stays: it
    may read the clock).  On one line (`if (c) return x;`, `if c: break`) or as the first
    statement of the guarded block (`if (c) {` / `if c:` on the line before, prev)."""
    out = []
    stripped = line.strip()
    if cpp:
        for m in re.finditer(r"\b(if) \(", line):
            close = matching_paren(line, m.end() - 1)
            if close < 0 or not code_at(m.start(), 2) or not STOP_WORDS.search(line[m.end():close]):
                continue
            if (em := re.match(r"\s*((?:return\b[^;]*|break|continue);)", line[close + 1:])):
                col = close + 1 + em.start(1)
                if code_at(col, 5) and code_at(col + len(em.group(1)) - 1, 1):
                    out.append(("stop", col, em.group(1), "{}"))
        pm = re.match(r"^\s*(?:\} else )?if \((.*)\) \{\s*(?://.*)?$", prev)
        if pm and STOP_WORDS.search(pm.group(1)) and re.match(r"^return\b[^;]*;\s*(?://.*)?$", stripped):
            col = len(line) - len(line.lstrip())
            if code_at(col, 6):
                out.append(("stop", col, line[col:], ";  // exit deleted"))
    else:
        if (m := re.match(r"^(\s*(?:if|elif|while) )(.+?):\s*(return\b.*?|break|continue)\s*(?:#.*)?$", line)) \
                and STOP_WORDS.search(m.group(2)) and code_at(m.start(3), len(m.group(3))):
            out.append(("stop", m.start(3), m.group(3), "pass"))
        pm = re.match(r"^(\s*)(?:if|elif) (.+):\s*(?:#.*)?$", prev)
        indent = len(line) - len(line.lstrip())
        if pm and STOP_WORDS.search(pm.group(2)) and indent > len(pm.group(1)) \
                and re.match(r"^(return\b.*|break|continue)\s*(?:#.*)?$", stripped) and code_at(indent, 1):
            out.append(("stop", indent, line[indent:], "pass  # exit deleted"))
    return out


def stopneg_mutants(line, code_at, cpp):
    """stopneg: one stop-flag operand of a condition inverted (`!x.expired()` <-> `x.expired()`)."""
    out = []
    for s, e, _whole in stop_atoms(line, code_at, cpp):
        atom = line[s:e]
        if cpp:
            if atom.startswith("!") and not top_level_has(atom[1:], (" ",)):
                new = atom[1:]
            else:
                new = "!" + atom if not top_level_has(atom, (" ",)) else f"!({atom})"
        else:
            if atom.startswith("not ") and not top_level_has(atom[4:], (" ",)):
                new = atom[4:]
            else:
                new = "not " + atom if not top_level_has(atom, (" ",)) else f"not ({atom})"
        out.append(("stopneg", s, atom, new))
    return out


def handoff_mutants(line, code_at, cpp):
    """handoff: the budget a call is handed is dropped: the clock (what was spent before)
    becomes a fresh one, the seconds left become unbounded, a Deadline* becomes none."""
    out = []
    if cpp:
        for m in re.finditer(r"(?<![\w.>&])((?:\w+(?:\.|->))*(?:clock|max_seconds)|(?:\w+(?:\.|->))*remaining\(\)"
                             r"|&?\w*(?:deadline|budget)\w*)(?=[,)}])", line):
            arg, before = m.group(1), line[:m.start()].rstrip()
            if not before.endswith(("(", ",", "{")) or not code_at(m.start(), len(arg)):
                continue  # not an argument
            if re.search(r"(\b(if|while|for|return|move)\s*|\w_)\($", before):
                continue  # a test, std::move or a member's initializer, not an argument handed on
            new = "{}" if arg.endswith("clock") else "1e300" if arg.endswith(("max_seconds", "remaining()")) else "nullptr"
            out.append(("handoff", m.start(), arg, new))
        if (am := re.match(r"^(\s*(?:if \(.*\) )?(?:\w+(?:\.|->))*clock = )(.+);\s*(?://.*)?$", line)) and am.group(2) != "{}":
            out.append(("handoff", am.end(1), am.group(2), "{}"))
    else:
        for m in re.finditer(r"\btimeout=([^,()]*(?:\([^()]*\))?[^,()]*)(?=[,)])", line):
            val = m.group(1).strip()
            if code_at(m.start(), 8) and val != "None" and not re.fullmatch(r"[\d.]+", val):
                out.append(("handoff", m.start(1), m.group(1), "None"))
    return out


def exitcode_mutants(line, code_at, ctx, cpp):
    """exitcode: an error exit's code changed (1 <-> 2, 3 and 4 -> 1); 0 is left alone."""
    out = []
    if cpp:
        in_cli = ctx.get("file", "").startswith("core/cli/")
        for m in re.finditer(r"\bExit::(Invalid|Usage|LintFound|Failing)\b", line):
            if code_at(m.start(), len(m.group(0))) and re.search(r"\breturn\b|exit_code =|\bexit\(", line):
                out.append(("exitcode", m.start(1), m.group(1), EXIT_ENUM[m.group(1)]))
        pat = r"\b(?:std::)?_?exit\(([1-9])\)" + (r"|\breturn ([1-9]);" if in_cli else "")
    else:
        pat = r"\b(?:sys\.|os\._)?exit\(([1-9])\)" + (r"|^\s*return ([1-9])\s*(?:#.*)?$" if PY_MAIN.match(ctx.get("func", "")) else "")
    for m in re.finditer(pat, line):
        g = 1 if m.group(1) else 2
        if code_at(m.start(g), 1):
            n = int(m.group(g))
            out.append(("exitcode", m.start(g), m.group(g), str(EXIT_SWAP.get(n, 1))))
    return out
