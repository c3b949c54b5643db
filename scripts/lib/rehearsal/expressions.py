"""The syntax of GitHub's ${{ }} expressions: the tokenizer, a Pratt parser into tuples,
the functions and contexts known (and each function's arguments), and the ${{ }} parts
of a workflow string."""
import math
import re


class ExprError(Exception):
    """An expression that cannot be parsed or evaluated."""


# name -> (min args, max args): actions/runner's ExpressionConstants and
# HashFilesFunction (format and hashFiles take at most Byte.MaxValue)
FUNCTIONS = {
    "success": (0, 0), "failure": (0, 0), "always": (0, 0), "cancelled": (0, 0),
    "contains": (2, 2), "startswith": (2, 2), "endswith": (2, 2), "format": (1, 255), "join": (1, 2),
    "tojson": (1, 1), "fromjson": (1, 1), "hashfiles": (1, 255),
}
STATUS_FUNCTIONS = {"success", "failure", "always", "cancelled"}
CONTEXTS = {"github", "env", "secrets", "matrix", "steps", "runner", "job", "strategy", "inputs", "vars"}
_PUNCT = ("&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "[", "]", ".", ",", "*")
_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_BINDING = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, ".": 7, "[": 7}


def tokenize(text):
    toks, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        value_before = bool(toks) and (toks[-1][0] in ("num", "str", "id") or toks[-1][1] in (")", "]"))
        if c == "'":
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise ExprError(f"unterminated string at column {i + 1}")
                if text[j] == "'":
                    if j + 1 < n and text[j + 1] == "'":
                        buf.append("'")
                        j += 2
                        continue
                    break
                buf.append(text[j])
                j += 1
            toks.append(("str", "".join(buf)))
            i = j + 1
            continue
        m = _NUMBER.match(text, i)
        if m and not (c == "." and value_before) and not (c == "-" and value_before):
            s = m.group(0)
            v = float(int(s, 16)) if "x" in s.lower() else float(s)
            toks.append(("num", int(v) if v.is_integer() and "." not in s and "e" not in s.lower() else v))
            i = m.end()
            continue
        m = _IDENT.match(text, i)
        if m:
            toks.append(("id", m.group(0)))
            i = m.end()
            continue
        for p in _PUNCT:
            if text.startswith(p, i):
                toks.append(("op", p))
                i += len(p)
                break
        else:
            raise ExprError(f"unexpected character {c!r} at column {i + 1}")
    toks.append(("end", None))
    return toks


class ExprParser:
    """A Pratt parser of GitHub's expression syntax into tuples."""

    def __init__(self, text):
        self.toks, self.pos = tokenize(text), 0

    def peek(self):
        return self.toks[self.pos]

    def next(self):
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def expect(self, op):
        t = self.next()
        if t != ("op", op):
            raise ExprError(f"expected {op!r}, found {t[1] if t[0] != 'end' else 'the end'}")

    def parse(self):
        e = self.expr(0)
        if self.peek()[0] != "end":
            raise ExprError(f"unexpected {self.peek()[1]!r}")
        return e

    def expr(self, bp):
        left = self.nud(self.next())
        while True:
            kind, val = self.peek()
            if kind != "op" or _BINDING.get(val, 0) <= bp:
                return left
            self.next()
            left = self.led(val, left)

    def nud(self, tok):
        kind, val = tok
        if kind in ("num", "str"):
            return ("lit", val)
        if kind == "id":
            low = val.lower()
            if low in ("true", "false"):
                return ("lit", low == "true")
            if low == "null":
                return ("lit", None)
            if val == "NaN":
                return ("lit", math.nan)
            if val == "Infinity":
                return ("lit", math.inf)
            if self.peek() == ("op", "("):
                self.next()
                args = []
                if self.peek() != ("op", ")"):
                    while True:
                        args.append(self.expr(0))
                        if self.peek() == ("op", ","):
                            self.next()
                            continue
                        break
                self.expect(")")
                return ("call", low, args)
            return ("ctx", low)
        if tok == ("op", "!"):
            return ("not", self.expr(6))
        if tok == ("op", "("):
            e = self.expr(0)
            self.expect(")")
            return e
        raise ExprError(f"unexpected {val!r}" if kind != "end" else "unexpected end of expression")

    def led(self, op, left):
        if op == ".":
            kind, val = self.next()
            if kind == "id":
                return ("prop", left, val)
            if (kind, val) == ("op", "*"):
                return ("star", left)
            raise ExprError(f"expected a property name after '.', found {val!r}")
        if op == "[":
            idx = self.expr(0)
            self.expect("]")
            return ("index", left, idx)
        return ("bin", op, left, self.expr(_BINDING[op]))


def parse_expression(text):
    return ExprParser(text).parse()


def names_in(node, out):
    """The ('call'|'ctx', name) of every function and context `node` uses."""
    kind = node[0]
    if kind in ("call", "ctx"):
        out.add((kind, node[1]))
    for part in node[1:]:
        if isinstance(part, tuple):
            names_in(part, out)
        elif isinstance(part, list):
            for a in part:
                names_in(a, out)
    return out


def check_names(node):
    for kind, name in sorted(names_in(node, set())):
        if kind == "call":
            if name not in FUNCTIONS:
                raise ExprError(f"unknown function {name}()")
        elif name not in CONTEXTS:
            raise ExprError(f"unknown context {name!r}" + (" (a rehearsal runs one job alone)" if name == "needs" else ""))
    _check_arity(node)


def _check_arity(node):
    if node[0] == "call":
        lo, hi = FUNCTIONS[node[1]]
        if not lo <= len(node[2]) <= hi:
            raise ExprError(f"{node[1]}() takes {lo}{'' if lo == hi else '..' + str(hi)} arguments, got {len(node[2])}")
    for part in node[1:]:
        if isinstance(part, tuple):
            _check_arity(part)
        elif isinstance(part, list):
            for a in part:
                _check_arity(a)


def expression_close(text, start):
    """The index of the '}}' that closes the expression starting at `start` (quotes
    respected), or -1."""
    in_str, i = False, start
    while i < len(text) - 1:
        c = text[i]
        if c == "'":
            in_str = not in_str
        elif not in_str and text.startswith("}}", i):
            return i
        i += 1
    return -1


def template_parts(text):
    """[(is_expression, text)] of a string with ${{ }} in it."""
    parts, i = [], 0
    while True:
        j = text.find("${{", i)
        if j < 0:
            parts.append((False, text[i:]))
            return parts
        parts.append((False, text[i:j]))
        k = expression_close(text, j + 3)
        if k < 0:
            raise ExprError("a '${{' without its '}}'")
        parts.append((True, text[j + 3:k]))
        i = k + 2
