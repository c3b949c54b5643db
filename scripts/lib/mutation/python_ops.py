"""The Python scripts' mutants: which files (python_sources), which characters are code
(py_code_mask) and a line's mutants (py_line_mutants)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.budget import budget_mutants  # noqa: E402
from lib.mutation.operators import BINARY, INT, merge_budget, semantic_mutants  # noqa: E402
from lib.mutation.syntax import not_code  # noqa: E402

# A script's embedded self-test (`self_test`, `_test_*` and what they define): test
# code, left out like the *selftest* files.  Its mutants can only make the test check
# less (a survivor that says nothing of the script) or fail a correct script (a kill
# that says nothing either).
PY_SELF_TEST = re.compile(r"^(self_test|_?test_\w+|_test)$")


def lib_packages(scripts):
    """The modules of the scripts' package's own packages (scripts/lib/PKG/*.py), but
    mutate's (scripts/lib/mutation/): the harness is not mutated, nor followed."""
    lib = scripts / "lib"
    dirs = sorted(d for d in lib.iterdir() if d.is_dir() and d.name not in ("mutation", "__pycache__")) if lib.is_dir() else []
    return [p for d in dirs for p in sorted(d.glob("*.py"))]


def python_sources(root):
    """scripts/*.py, the extension-less scripts whose first line runs Python and the
    scripts' package (scripts/lib/*.py and its packages, lib_packages()), but mutate,
    its package scripts/lib/mutation/ and the tests (*selftest*, test*, *_test.py)."""
    out = []
    lib = root / "scripts" / "lib"
    for path in (sorted((root / "scripts").iterdir()) + (sorted(lib.iterdir()) if lib.is_dir() else [])
                 + lib_packages(root / "scripts")):
        if (not path.is_file() or path.name == "mutate" or "selftest" in path.name or path.name.startswith("test")
                or path.stem.endswith("_test")):
            continue  # mutate (and its package, a folder), and the self-tests and test drivers that judge the others
        head = path.read_text(errors="replace").split("\n", 1)[0]
        if path.suffix == ".py" or (not path.suffix and head.startswith("#!") and "python" in head):
            out.append(path.relative_to(root).as_posix())
    return out


def py_code_mask(text):
    """True for each character that is Python code (not a comment or a string)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if len(quote) == 1 and text[j] == "\n":
                    break
                j += 2 if text[j] == "\\" else 1
            j = min(j + len(quote), n)
        else:
            i += 1
            continue
        not_code(mask, text, i, j)
        i = j
    return mask


PY_BINARY = [(op, old, new) for op, old, new in BINARY if op != "lcr"] + [
    ("lcr", " and ", " or "), ("lcr", " or ", " and ")]
PY_BOOL = re.compile(r"\b(True|False)\b")
PY_COND = re.compile(r"^(\s*(?:if|elif|while) )(.+):\s*(?:#.*)?$")
PY_DELETABLE = re.compile(r"^\s*(?:[\w.\[\]]+\s*(?:=|\+=|-=|\|=)\s*[^=].*|[\w.]+\(.*\))\s*(?:#.*)?$")
PY_SKIP = re.compile(r"^\s*(#|import |from |def |class |@|return$|else:|try:|except|finally:|\"\"\"|\'\'\')")


def py_line_mutants(line, mask, ctx=None):
    """(operator, column, old, new) for one Python line; ctx as line_mutants'."""
    out = []
    if not line.strip() or line.lstrip().startswith("#"):
        return out
    def code_at(col, length):
        return all(mask[col:col + length])
    if PY_SKIP.match(line):  # a bare return may be a stop's early exit
        skip = re.match(r"^\s*(def |class |import |from |@)", line)
        return [] if skip else budget_mutants(line, code_at, ctx, cpp=False)
    for op, old, new in PY_BINARY:
        start = 0
        while (col := line.find(old, start)) >= 0:
            start = col + 1
            if code_at(col, len(old)) and not (op == "aor" and old.strip() in "*/" and "**" in line):
                out.append((op, col, old, new))
    for m in INT.finditer(line):
        if code_at(m.start(), len(m.group(0))) and not m.group(2):
            value = int(m.group(1).replace("'", ""), 0)
            for v in ([1] if value == 0 else [value + 1, value - 1]):
                out.append(("cst", m.start(), m.group(0), str(v)))
    for m in PY_BOOL.finditer(line):
        if code_at(m.start(), len(m.group(0))):
            out.append(("bool", m.start(), m.group(0), "False" if m.group(0) == "True" else "True"))
    if (m := PY_COND.match(line)) and code_at(m.start(2), 1):
        out.append(("neg", m.start(2), m.group(2), f"not ({m.group(2)})"))
    out += semantic_mutants(line, code_at)
    if PY_DELETABLE.match(line) and not line.rstrip().endswith((",", "(", "[", "{", "\\")):
        indent = len(line) - len(line.lstrip())
        if code_at(indent, 1):
            out.append(("del", indent, line.strip(), "pass  # deleted"))
    return merge_budget(out, budget_mutants(line, code_at, ctx, cpp=False), line, cpp=False)
