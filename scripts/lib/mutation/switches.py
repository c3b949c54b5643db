"""Schemata (--since): every C++ mutant that has a one-line form is compiled into one
build, each behind a switch read at run time (NEFFBAR_MUTANT=N); the switched forms of
a line (schema_line) and the header that reads the switch."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.syntax import code_mask, matching_paren, split_top  # noqa: E402

# Schemata (--since): every C++ mutant that has a one-line form is compiled into one
# build, each behind a switch read at run time (NEFFBAR_MUTANT=N), so a mutant costs
# its tests, not a rebuild.  The same switches record which tests reach which line
# (NEFFBAR_MUTANT_TRACE=DIR: each process appends each switch it evaluates, once), so
# a mutant runs only the tests that execute its line, and one no test executes is a
# survivor with no run.  A mutant with no form (schema_statement, else schema_unit), or
# whose line does not compile switched (a constant expression), is left unswitched and
# built one by one as before.

SWITCH_HEADER = "core/neffbar/mutant_switch.h"  # written into the trees only
SWITCH_SLOTS = 1 << 16  # switch numbers 1 .. SWITCH_SLOTS - 1 can be traced
GUARD = "::neffbar_mutant::on({})".format  # the switched text's test of switch N
SWITCH_TEXT = """#pragma once
// scripts/mutate's run-time mutant switch: written into its trees, never into the checkout.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <type_traits>
#include <unistd.h>
namespace neffbar_mutant {
inline long active() {
  static const long id = [] { const char* s = std::getenv("NEFFBAR_MUTANT"); return s ? std::atol(s) : 0L; }();
  return id;
}
inline void trace(long id) {
  static const char* const dir = std::getenv("NEFFBAR_MUTANT_TRACE");
  static std::atomic<bool> seen[SLOTS];
  if (dir == nullptr || id <= 0 || id >= SLOTS || seen[id].load(std::memory_order_relaxed) || seen[id].exchange(true)) return;
  char path[4096], line[32];
  std::snprintf(path, sizeof path, "%s/%ld", dir, static_cast<long>(::getpid()));
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const int n = std::snprintf(line, sizeof line, "%ld\\n", id);
  if (::write(fd, line, static_cast<size_t>(n)) < 0) {}
  ::close(fd);
}
inline bool on(long id) { trace(id); return active() == id; }
}  // namespace neffbar_mutant
""".replace("SLOTS", str(SWITCH_SLOTS))


def strip_comment(line):
    """The line's code without a trailing // comment, right-stripped."""
    mask = code_mask(line)  # a comment's // is not code, and follows code (or starts the line)
    k = line.find("//")
    while k >= 0 and (mask[k] or (k > 0 and not mask[k - 1])):
        k = line.find("//", k + 1)
    return (line if k < 0 else line[:k]).rstrip()


def top_level_assign(code):
    """The column of the statement's top-level `=` (not ==, <=, +=, ...), or -1."""
    depth, mask = 0, code_mask(code)
    for k, c in enumerate(code):
        if not mask[k]:
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif (c == "=" and depth == 0 and code[k + 1:k + 2] != "=" and code[k - 1:k] not in
              ("=", "!", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^")):
            return k
    return -1


def starts_statement(prev):
    """Whether a line after prev (a code line, comment stripped) begins a statement."""
    p = prev.strip()
    return (not p or p.endswith((";", "{", "}")) or (p.endswith(":") and not p.endswith("::"))
            or p in ("else", "} else") or (p.endswith(")") and re.match(r"(\}\s*)?(else\s+)?(if|for|while)\b", p) is not None))


def switch_forms(text, mutants, first):
    """{line: (switched line, its mutants, {mutant id: switch number})} for one file's
    text and mutants, numbered from `first` in line order; lines with no form left out."""
    lines, by_line, out = text.split("\n"), {}, {}
    for m in mutants:
        by_line.setdefault(m["line"], []).append(m)
    for ln, ms in sorted(by_line.items()):
        prev = next((strip_comment(x) for x in reversed(lines[:ln - 1]) if strip_comment(x).strip()), "")
        ids = {m["id"]: first + k for k, m in enumerate(ms)}
        variant = {m["id"]: (ids[m["id"]], m["new"]) for m in ms}
        form = schema_line(lines[ln - 1], list(variant.values()), prev)
        if form is None and len(ms) > 1:  # the mutants that have a form switched, the rest built one by one
            ms = [m for m in ms if schema_line(lines[ln - 1], [variant[m["id"]]], prev) is not None]
            form = schema_line(lines[ln - 1], [variant[m["id"]] for m in ms], prev) if ms else None
        if form is not None:
            out[ln] = (form, ms, {m["id"]: ids[m["id"]] for m in ms})
            first += len(ids)
    return out


def switch_for(code, news, open_at):
    """A `for (init; cond; step)` header with each mutated part switched: the condition
    as a condition, the step (or an init that is an expression) as a (void) expression,
    a one-name declaration's initializer as an initializer; None for a range-for, or a
    mutant that changes more than one part or the text around them."""
    close = matching_paren(code, open_at)
    parts = split_top(code[open_at + 1:close], ";") if close > 0 else []
    if len(parts) != 3:
        return None
    pre, post = code[:open_at + 1], code[close:]
    chains = [[], [], []]
    for sid, n in news:
        nparts = split_top(n[len(pre):len(n) - len(post)], ";") if n.startswith(pre) and n.endswith(post) else []
        changed = [k for k in range(3) if len(nparts) == 3 and nparts[k] != parts[k]]
        if len(changed) != 1:
            return None
        chains[changed[0]].append((sid, nparts[changed[0]]))
    out, guard = list(parts), GUARD
    for k, chain in enumerate(chains):
        if not chain:
            continue
        part = parts[k]
        eq = top_level_assign(part)
        if k == 0 and eq >= 0 and re.fullmatch(r"\s*(?:[\w:<>,*&]+\s+)+[*&]*\w+\s*", part[:eq]):
            if len(split_top(part[eq + 1:], ",")) != 1 or not all(n.startswith(part[:eq + 1]) for _, n in chain):
                return None  # two names declared, or the declared part changed
            out[k] = part[:eq + 1] + " " + "".join(f"{guard(sid)} ? ({n[eq + 1:].strip()}) : " for sid, n in chain) + \
                f"({part[eq + 1:].strip()})"
        elif k == 1:
            out[k] = " " + "".join(f"{guard(sid)} ? static_cast<bool>({n.strip()}) : " for sid, n in chain) + \
                f"static_cast<bool>({part.strip()})"
        elif part.strip():
            out[k] = (" " if k else "") + "".join(f"{guard(sid)} ? (void)({n.strip()}) : " for sid, n in chain) + \
                f"(void)({part.strip()})"
        else:
            return None
    return pre + ";".join(out) + post


def switch_unit(code, start, end, prev):
    """(left, right): the shortest sub-expression of the code line `code` that holds
    columns start..end and is whole in the parse, by the tokens around it: a call's or
    group's argument, a `&&`/`||` operand, an initializer after `=` or a `return`'s
    value; None when no such unit lies on the line.  The line before (prev, a code line)
    ends in `(`, `,`, `&&`, `||` or `=` when the line continues its expression."""
    toks = unit_tokens(code, prev)
    lefts, rights = ("(", ",", "&&", "||", "=", "return"), (")", ",", "&&", "||", ";")
    best = None
    for i, (_, l_end, lk, lv) in enumerate(toks):
        if lk not in lefts or l_end > start:
            continue
        inner = set()
        for r_at, _, rk, rv in toks[i + 1:]:
            if rv < lv:
                break  # the left token's group closed
            if rv == lv and rk in rights and r_at >= end:
                ok = (";" not in inner and "," not in inner and not (lk == "(" and rk == ";") and  # a for header's part
                      ("?" in inner or ":" not in inner))  # a range-for's header, a label
                if "&&" in (lk, rk):
                    ok = ok and not inner & {"||", "?", ":", "="}
                if "||" in (lk, rk):
                    ok = ok and not inner & {"?", ":", "="}
                if ok and code[l_end:r_at].strip():
                    if best is None or r_at - l_end < best[1] - best[0]:
                        best = (l_end, r_at)
                    break  # a longer one from this left token is no better
            if rv == lv and rk in (")", "]"):
                break  # the group holding the left token closed
            if rv == lv:
                inner.add(rk)
    return best


def unit_tokens(code, prev):
    """switch_unit's tokens of a code line, (column, end column, kind, level): the
    brackets, `&&`, `||`, `,`, `;`, an assignment's `=`, `?`, `:` and `return`, and first
    the continued expression's token prev ends in, if any."""
    mask, depth, toks = code_mask(code), 0, []
    p = prev.rstrip()
    head = next((k for k in ("&&", "||", "(", ",", "=") if p.endswith(k) and not p.endswith(("==", "!=", "<=", ">="))), None)
    if head:
        toks.append((0, 0, head, 0))
    k = 0
    while k < len(code):
        c, two = code[k], code[k:k + 2]
        if not mask[k]:
            k += 1
            continue
        if c in "([{":
            depth += 1
            if c == "(":
                toks.append((k, k + 1, "(", depth))
        elif c in ")]}":
            toks.append((k, k + 1, ")" if c == ")" else "]", depth))
            depth -= 1
        elif two in ("&&", "||"):
            toks.append((k, k + 2, two, depth))
            k += 2
            continue
        elif c in ",;":
            toks.append((k, k + 1, c, depth))
        elif c == "=" and top_level_assign(code[k:]) == 0 and code[k - 1:k] not in (
                "=", "!", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^") and not code[:k].rstrip().endswith("operator"):
            toks.append((k, k + 1, "=", depth))
        elif c == "?" or (c == ":" and two != "::" and code[k - 1:k] != ":"):
            toks.append((k, k + 1, c, depth))
        elif re.match(r"return\b", code[k:]) and (k == 0 or not (code[k - 1].isalnum() or code[k - 1] == "_")):
            toks.append((k, k + 6, "return", depth))
            k += 6
            continue
        k += 1
    return toks


def schema_unit(code, news, prev):
    """The line with each mutant's changed sub-expression (switch_unit) switched, as
    `(on(N) ? (mutated) : (original))`; None when a mutant's change has no unit on the
    line, or two mutants' units overlap without being the same."""
    units = {}
    for sid, n in news:
        a = 0
        while a < min(len(code), len(n)) and code[a] == n[a]:
            a += 1
        b = 0
        while b < min(len(code), len(n)) - a and code[len(code) - 1 - b] == n[len(n) - 1 - b]:
            b += 1
        while True:  # a unit whole in the parse of both the line and the mutant: `a && b && c`'s
            span = switch_unit(code, a, len(code) - b, prev)  # `a && b` is one, `a || b && c`'s not
            mut = switch_unit(n, a, len(n) - b, prev)
            if span is None or mut is None:
                return None
            if (span[0], len(code) - span[1]) == (mut[0], len(n) - mut[1]):
                break
            a, b = min(span[0], mut[0]), min(len(code) - span[1], len(n) - mut[1])
        units.setdefault(span, []).append((sid, n[span[0]:len(n) - (len(code) - span[1])]))
    spans = sorted(units)
    if any(x[1] > y[0] for x, y in zip(spans, spans[1:])):
        return None
    out = code
    for lo, hi in reversed(spans):
        orig = code[lo:hi]
        lead = orig[:len(orig) - len(orig.lstrip())]
        chain = "".join(f"{GUARD(sid)} ? ({typed_empty(n.strip(), orig.strip())}) : " for sid, n in units[(lo, hi)])
        out = f"{out[:lo]}{lead}({chain}({orig.strip()})){' ' if orig != orig.rstrip() else ''}{out[hi:]}"
    return out


def typed_empty(new, orig):
    """A mutant's `{}` (an empty value) as an expression of orig's type, for `?:`."""
    return f"std::remove_cvref_t<decltype({orig})>{{}}" if new == "{}" else new


def schema_line(line, variants, prev):
    """One line that runs as `line` unless the switch names a variant's id, then as that
    variant (variants: [(id, mutated line)]); None when the line has no such form: a
    statement form (schema_statement), else each mutant's changed sub-expression
    switched in place (schema_unit)."""
    form = schema_statement(line, variants, prev)
    if form is None and (code := strip_comment(line)).strip():
        form = schema_unit(code, [(sid, strip_comment(v)) for sid, v in variants], prev)
    return form


def schema_statement(line, variants, prev):
    """One line that runs as `line` unless the switch names a variant's id, then as that
    variant (variants: [(id, mutated line)]); None when the line has no such form: a
    condition of if/while, a whole simple statement, or a declaration's initializer."""
    code, guard = strip_comment(line), GUARD
    news = [(sid, strip_comment(v)) for sid, v in variants]
    indent = code[:len(code) - len(code.lstrip())]
    m = re.match(r"\s*(?:\}\s*else\s+)?(?:if|while) \(", code)
    if m:
        open_at = m.end() - 1
        close = matching_paren(code, open_at)
        pre, post = code[:open_at + 1], code[close:]
        if close > 0 and all(n.startswith(pre) and n.endswith(post) and len(n) > len(pre) + len(post) for _, n in news):
            chain = "".join(f"{guard(sid)} ? static_cast<bool>({n[len(pre):len(n) - len(post)]}) : " for sid, n in news)
            return f"{pre}{chain}static_cast<bool>({code[open_at + 1:close]}){post}"
    m = re.match(r"\s*for \(", code)
    if m and (form := switch_for(code, news, m.end() - 1)):
        return form
    m = re.match(r"(\s*(?:case\s+[\w:]+|default)\s*:)(?!:)\s*(.*;)$", code)
    if m and all(n.startswith(m.group(1)) for _, n in news):  # case X: statements -> case X: if (...) ...
        rest = schema_line(" " + m.group(2), [(sid, " " + n[len(m.group(1)):].lstrip()) for sid, n in news], ";")
        return None if rest is None else m.group(1) + rest
    body = code.lstrip()
    if (not code.endswith(";") or not starts_statement(prev) or re.match(r"(case\b|default\b|[?:.,)\]}=<>|&/%+-])", body)
            and not body.startswith(("++", "--")) or re.match(r"(template|using|typedef|static_assert|friend|public|private)\b", body)):
        return None
    eq = top_level_assign(code)
    lhs = code[:eq].strip() if eq >= 0 else ""
    if eq >= 0 and re.fullmatch(r"(?:[\w:<>,*&]+\s+)+[*&]*\w+(?:\[\w*\])?", lhs) and not lhs.startswith("return "):
        pre = code[:eq + 1]  # a declaration of one name: only its initializer changes
        if split_top(code[eq + 1:-1], ",")[1:] or not all(n.startswith(pre) and n.endswith(";") for _, n in news):
            return None
        chain = "".join(f"{guard(sid)} ? ({n[len(pre):-1].strip()}) : " for sid, n in news)
        return f"{pre} {chain}({code[eq + 1:-1].strip()});"
    if eq < 0 and re.match(r"(?!(?:return|delete|throw|goto|co_return|co_yield|else|do|case)\b)"
                           r"(?:[\w:]+(?:<[^;]*>)?[*&]*\s+)+[*&]*\w+\s*[({;]", body):
        return None  # `Type name(args);`: the if would scope the name
    chain = " else ".join(f"if ({guard(sid)}) {{ {n.strip()} }}" for sid, n in news)
    return f"{indent}{chain} else {{ {body} }}"
