"""The C++ `var` operator: a name read where another of the same declared type was meant
(`na` -> `nb`, `a.lo` -> `a.hi`, `r.cex` -> `r.global_finding`).  Candidates come from
the line's Scope (scope.py): for a plain name, the other names its blocks declare with
the same type; for a member access `x.f` / `x->f`, f's sibling fields of the same type
in a class that has f, which the file also reads on x.  The most alike name (the slip
people make), MAX_SUBSTITUTES a place; a mutant the compiler refuses is stillborn."""
import difflib
import re

from lib.mutation.scope import DECL, KEYWORDS

MAX_SUBSTITUTES = 1
IDENT = re.compile(r"(?P<access>\.|->)?\b(?P<name>[A-Za-z_]\w*)\b")


def alike(name, others):
    """others ordered from the most alike to name (then by name), at most MAX_SUBSTITUTES."""
    ranked = sorted(others, key=lambda o: (-difflib.SequenceMatcher(None, name, o).ratio(), o))
    return ranked[:MAX_SUBSTITUTES]


def siblings(scope, name, owner):
    """The names of name's type that could stand for it: in scope, or (owner: the object
    of `owner.name`) a field of the same type beside it in a class, accessed on owner in
    the same file."""
    if owner is None:
        t = scope.names.get(name)
        return [] if not t or t == "auto" else [o for o, u in scope.names.items() if u == t and o != name]
    out = set()
    for fields in scope.classes.values():
        if fields.get(name) not in (None, "auto"):
            out |= {g for g, u in fields.items() if u == fields[name] and g != name}
    return sorted(out & scope.members.get(owner, set()))


def left_alone(line, code):
    """Spans of the line no name is replaced in: a declaration's own names, a for header."""
    spans = []
    if (m := DECL.match(code)) and m.group("type").split("<")[0].strip() not in KEYWORDS:
        spans.append(m.span("names"))
    if (f := re.search(r"\bfor \(", code)):
        spans.append((f.start(), len(code)))  # the header and a one-line body: a changed bound loops
    return spans


def var_mutants(line, code_at, scope):
    """(var, column, old, new): each name read, replaced by each of its alike siblings."""
    if scope is None:
        return []
    code = "".join(c if code_at(i, 1) else " " for i, c in enumerate(line))
    alone = left_alone(line, code)
    out = []
    for m in IDENT.finditer(code):
        name, at = m.group("name"), m.start("name")
        before, after = code[:m.start()].rstrip(), code[m.end():].lstrip()
        if (name in KEYWORDS or before.endswith("::") or after.startswith(("(", "::", "<"))
                or any(a <= at < b for a, b in alone)):
            continue
        owner = re.search(r"(\w*)(?:\[[^\]]*\])?$", code[:m.start()]).group(1) if m.group("access") else None
        for other in alike(name, siblings(scope, name, owner)):
            out.append(("var", at, name, other))
    return out
