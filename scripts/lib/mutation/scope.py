"""What C++ names a line can see, for the `var` and `index` operators: a cheap reading of
the file's blocks, not a parse.  Each block (a function's body, a loop's, a class's)
holds the names declared in it with their declared types (a parameter, a local, a for
header's variable, a class's field), and a file's Scope at a line is the union of its
open blocks' names declared above it.  A class's fields are also kept by class name, so
an out-of-line member (`T Foo::bar(...) {`) sees Foo's fields and a member access
`x.f` finds f's siblings of the same type."""
import re
from dataclasses import dataclass, field

KEYWORDS = {"return", "else", "case", "delete", "new", "throw", "goto", "using", "typedef", "namespace", "struct",
            "class", "enum", "template", "public", "private", "protected", "friend", "operator", "default", "break",
            "continue", "if", "for", "while", "switch", "do", "co_return", "co_yield", "co_await", "static_assert",
            "sizeof", "catch", "try", "auto", "decltype", "requires", "concept", "union"}
QUALIFIERS = r"(?:(?:static|constexpr|const|inline|mutable|thread_local|extern)\s+)*"
TYPE = r"[A-Za-z_][\w:]*(?:<[^;{}]*>)?(?:\s+const)?\s*[&*]*"
DECL = re.compile(rf"^\s*{QUALIFIERS}(?P<type>{TYPE})\s+(?P<names>[A-Za-z_]\w*(?:, [A-Za-z_]\w*)*)\s*(?P<end>=|\{{|;|\(|\[)")
FOR_DECL = re.compile(rf"\bfor \({QUALIFIERS}(?P<type>{TYPE})\s+(?P<names>[A-Za-z_]\w*)\s*(?:=|:)")
CLASS = re.compile(r"\b(?:struct|class)\s+(?:\[\[\w+\]\]\s+)?(\w+)[^;(){}]*$")
FUNC = re.compile(r"(?:\b(\w+)::)?(~?[A-Za-z_]\w*)\s*\(|\]\s*\(")
CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "static_assert"}


def norm_type(t):
    """A declared type as compared: no const, static, constexpr, reference or spacing."""
    t = re.sub(r"\b(const|constexpr|static|inline|mutable|thread_local|extern)\b", "", t)
    return re.sub(r"\s+", "", t.replace("&", ""))


@dataclass
class Scope:
    """The names a line sees ({name: normalized type}), the index variables its function
    has used in a subscript so far (`v[k]`: k), the classes read, the file's member
    accesses, and the statement the line continues."""
    names: dict = field(default_factory=dict)
    indices: tuple = ()
    classes: dict = field(default_factory=dict)  # {class: {field: type}} of every class read: x.f's siblings
    members: dict = field(default_factory=dict)  # {object name: {fields}} accessed in the file (x.f, x->f)
    statement: str = ""  # the code of the statement the line goes on ("" where one starts)


def params(text):
    """{name: type} of a parameter list's `TYPE NAME[ = default]` entries."""
    out, depth, cur = {}, 0, ""
    for c in text + ",":
        depth += c in "(<[{"
        depth -= c in ")>]}"
        if c == "," and depth == 0:
            if (m := re.match(r"^\s*(.*[\w&*>])\s+(\w+)\s*(?:=.*)?$", cur)) and m.group(1).split()[-1] not in KEYWORDS:
                out[m.group(2)] = norm_type(m.group(1))
            cur = ""
        else:
            cur += c
    return out


def opened_names(sig, classes):
    """The names a block opened after `sig` (the code since the last statement) starts
    with: a function's or lambda's parameters (and an out-of-line member's class fields),
    a for header's variable; ("class", name) when it opens a class body."""
    if (cm := CLASS.search(sig)) and "(" not in sig[cm.start():]:
        return {}, cm.group(1)
    if (fm := FOR_DECL.search(sig)) and fm.group("type").strip() not in KEYWORDS:
        return {n: norm_type(fm.group("type")) for n in fm.group("names").split(", ")}, None
    m = FUNC.search(sig)
    if not m or m.group(2) in CONTROL:
        return {}, None
    open_at = m.end() - 1
    depth, k = 0, open_at
    for k in range(open_at, len(sig)):
        depth += sig[k] == "("
        depth -= sig[k] == ")"
        if depth == 0:
            break
    names = dict(classes.get(m.group(1), {})) if m.group(1) else {}
    names.update(params(sig[open_at + 1:k]))
    return names, None


def declared(code, in_function):
    """{name: type} declared by a statement that starts on this line (`T x(...)` is a
    variable in a function's body only: elsewhere, a function's or method's declaration)."""
    m = DECL.match(code)
    if not m or m.group("type").split("<")[0].strip() in KEYWORDS or (not in_function and m.group("end") == "("):
        return {}
    names = m.group("names").split(", ")
    if len(names) > 1 and m.group("end") != ";":
        return {}  # `int a = 0, b` is not read
    return {n: norm_type(m.group("type")) for n in names if n not in KEYWORDS}


MEMBER = re.compile(r"\b(\w+)(?:\[[^\]\n]*\])?(?:\.|->)([A-Za-z_]\w*)\b(?!\s*\()")  # x.f, x[i].f, x->f: not a call
SUBSCRIPT = re.compile(r"(?<=[\w\])])\[([A-Za-z_]\w*)\]")


@dataclass
class Block:
    names: dict
    cls: str = None  # the class whose body it is
    function: bool = False  # a function's or lambda's body: it collects the subscripts used
    indices: list = field(default_factory=list)


class Walker:
    """Reads a file's code line by line, keeping its open blocks; classes ({class: {field:
    type}}) gains each class body read."""

    def __init__(self, classes):
        self.classes, self.blocks, self.sig, self.parens = classes, [Block({})], "", 0

    def scope(self, code, members):
        """The Scope of a line about to be read; members: the file's accesses."""
        names = {}
        for b in self.blocks:
            names.update(b.names)
        if (fm := FOR_DECL.search(code)) and fm.group("type").strip() not in KEYWORDS:
            names.update({n: norm_type(fm.group("type")) for n in fm.group("names").split(", ")})
        fn = next((b for b in reversed(self.blocks) if b.function), None)
        used = (fn.indices if fn else []) + SUBSCRIPT.findall(code)
        return Scope(names, tuple(dict.fromkeys(k for k in used if k in names)), self.classes, members, self.sig.strip())

    def read(self, code):
        """Takes in one line's code (not-code characters blanked)."""
        home = self.blocks[-1]
        fn = next((b for b in reversed(self.blocks) if b.function), None)
        decl = declared(code, fn is not None and home.cls is None) if not self.sig.strip() else {}
        if fn:
            fn.indices += [k for k in SUBSCRIPT.findall(code) if k not in fn.indices]
        for c in code:
            if c == "{":
                names, cls = opened_names(self.sig, self.classes)
                func = bool(names) or bool(re.search(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?$", self.sig))
                self.blocks.append(Block(names, cls, func and cls is None))
                self.sig = ""
            elif c == "}":
                if len(self.blocks) > 1:
                    done = self.blocks.pop()
                    if done.cls:
                        self.classes.setdefault(done.cls, {}).update(done.names)
                self.sig = ""
            elif c == ";" and self.parens == 0:
                self.sig = ""
            else:
                self.parens += (c == "(") - (c == ")")
                self.sig += c
        home.names.update(decl)
        s = self.sig.strip()
        self.sig = "" if s.endswith(":") and not s.endswith("::") else self.sig + " "  # a label ends a statement


def blanked(text, mask):
    """The text with every character that is not code blanked to a space."""
    return "".join(c if m or c == "\n" else " " for c, m in zip(text, mask))


def file_scopes(text, mask, classes):
    """[Scope of each line] of one file's text; classes gains its class bodies."""
    walker, out, code = Walker(classes), [], blanked(text, mask)
    members = {}
    for m in MEMBER.finditer(code):
        members.setdefault(m.group(1), set()).add(m.group(2))
    for code in code.split("\n"):
        out.append(walker.scope(code, members))
        walker.read(code)
    return out


def read_classes(paths, mask_of):
    """{class: {field: type}} of the class bodies of these files (the headers of a tree)."""
    classes = {}
    for path in paths:
        text = path.read_text(errors="replace")
        file_scopes(text, mask_of(text), classes)
    return classes
