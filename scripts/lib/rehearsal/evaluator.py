"""The evaluation of parsed ${{ }} expressions against the contexts: the operators, the
object filter (a.*), and the functions (format(), toJSON(), the status functions ...)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.expressions import STATUS_FUNCTIONS, ExprError  # noqa: E402
from lib.rehearsal.values import _kind, compare, get_ci, loose_eq, to_num, to_str, truthy  # noqa: E402


class Filtered(list):
    """The array an object filter (a.*) makes: a property of it maps over its items."""


def format_string(fmt, args):
    out, i = [], 0
    while i < len(fmt):
        c = fmt[i]
        if c == "{" and fmt.startswith("{{", i):
            out.append("{")
            i += 2
        elif c == "}" and fmt.startswith("}}", i):
            out.append("}")
            i += 2
        elif c == "{":
            j = fmt.find("}", i)
            idx = fmt[i + 1:j] if j > 0 else ""
            if not idx.isdigit() or int(idx) >= len(args):
                raise ExprError(f"format(): the format string {fmt!r} is invalid at column {i + 1}")
            out.append(to_str(args[int(idx)]))
            i = j + 1
        elif c == "}":
            raise ExprError(f"format(): an unmatched '}}' in {fmt!r}")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def pretty_json(v):
    def plain(x):
        if isinstance(x, float) and x.is_integer() and abs(x) < 1e21:
            return int(x)
        if isinstance(x, dict):
            return {k: plain(y) for k, y in x.items()}
        if isinstance(x, list):
            return [plain(y) for y in x]
        return x
    return json.dumps(plain(v), indent=2, ensure_ascii=False)


class Evaluator:
    """Evaluates parsed expressions against the contexts; status() gives the job's state
    for success() and failure(), hash_files() hashFiles()."""

    def __init__(self, contexts, status, hash_files):
        self.contexts, self.status, self.hash_files = contexts, status, hash_files

    def eval(self, node):
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "ctx":
            if node[1] not in self.contexts:
                raise ExprError(f"unknown context {node[1]!r}")
            return self.contexts[node[1]]
        if kind == "not":
            return not truthy(self.eval(node[1]))
        if kind == "prop":
            return self.member(self.eval(node[1]), node[2])
        if kind == "index":
            base, idx = self.eval(node[1]), self.eval(node[2])
            if isinstance(base, list) and _kind(idx) == "num" and not isinstance(base, Filtered):
                i = to_num(idx)
                return base[int(i)] if i.is_integer() and 0 <= i < len(base) else None
            return self.member(base, to_str(idx)) if isinstance(idx, str) or isinstance(base, dict) else None
        if kind == "star":
            base = self.eval(node[1])
            if isinstance(base, dict):
                return Filtered(base.values())
            return Filtered(base) if isinstance(base, list) else Filtered()
        if kind == "bin":
            op = node[1]
            if op == "&&":
                left = self.eval(node[2])
                return self.eval(node[3]) if truthy(left) else left
            if op == "||":
                left = self.eval(node[2])
                return left if truthy(left) else self.eval(node[3])
            a, b = self.eval(node[2]), self.eval(node[3])
            if op == "==":
                return loose_eq(a, b)
            if op == "!=":
                return not loose_eq(a, b)
            return compare(op, a, b)
        if kind == "call":
            return self.call(node[1], [self.eval(a) for a in node[2]])
        raise ExprError(f"cannot evaluate {kind}")

    @staticmethod
    def member(base, name):
        if isinstance(base, Filtered):
            return Filtered(v for v in (Evaluator.member(x, name) for x in base) if v is not None)
        if isinstance(base, dict):
            return get_ci(base, name)
        return None

    def call(self, name, args):
        if name in STATUS_FUNCTIONS:
            st = self.status()
            return {"success": st == "success", "failure": st == "failure", "always": True,
                    "cancelled": st == "cancelled"}[name]
        if name == "contains":
            hay, needle = args
            if isinstance(hay, list):
                return any(loose_eq(x, needle) for x in hay)
            return to_str(needle).lower() in to_str(hay).lower()
        if name == "startswith":
            return to_str(args[0]).lower().startswith(to_str(args[1]).lower())
        if name == "endswith":
            return to_str(args[0]).lower().endswith(to_str(args[1]).lower())
        if name == "format":
            return format_string(to_str(args[0]), args[1:])
        if name == "join":
            sep = to_str(args[1]) if len(args) > 1 else ","
            return sep.join(to_str(x) for x in args[0]) if isinstance(args[0], list) else to_str(args[0])
        if name == "tojson":
            return pretty_json(args[0])
        if name == "fromjson":
            try:
                return json.loads(to_str(args[0]))
            except ValueError as e:
                raise ExprError(f"fromJSON(): not JSON: {to_str(args[0])[:60]!r}: {e}") from None
        if name == "hashfiles":
            return self.hash_files([to_str(a) for a in args])
        raise ExprError(f"unknown function {name}()")
