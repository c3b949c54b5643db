"""The mutants of a tree: every candidate of the sources (catalogue), the lines added
since a revision or blamed on commits (--since, --commits), the hour-long catalogue
drawn from them (select) and mutate.equivalent's entries."""
import fnmatch
import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.operators import INT, line_mutants  # noqa: E402
from lib.mutation.python_ops import PY_SELF_TEST, py_code_mask, py_line_mutants, python_sources  # noqa: E402
from lib.mutation.scope import file_scopes, read_classes  # noqa: E402
from lib.mutation.settings import COMPILE_TARGET, EQUIVALENT, SINCE_SOURCES  # noqa: E402
from lib.mutation.syntax import code_mask  # noqa: E402


def tree_classes(root):
    """{class: {field: type}} of the tree's C++ headers (core/), read once a tree."""
    key = str(root)
    if key not in CLASSES:
        CLASSES[key] = read_classes(sorted(root.glob("core/**/*.h")), code_mask)
    return CLASSES[key]


CLASSES = {}


def catalogue(root, globs, python=False):
    mutants = []
    for pattern in globs:
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            text = path.read_text()
            mask = (py_code_mask if python else code_mask)(text)
            seen = {}
            offset = 0
            ctx = dict(file=rel, prev="", func="")
            funcs = []  # Python: (indent, name) of the enclosing defs
            scopes = None if python else file_scopes(text, mask, {k: dict(v) for k, v in tree_classes(root).items()})
            for lineno, line in enumerate(text.split("\n"), 1):
                lmask = mask[offset:offset + len(line)]
                offset += len(line) + 1
                occurrence = seen.get(line.strip(), 0)
                seen[line.strip()] = occurrence + 1
                if python and line.strip() and any(lmask):
                    indent = len(line) - len(line.lstrip())
                    while funcs and funcs[-1][0] >= indent:
                        funcs.pop()
                    ctx["func"] = funcs[-1][1] if funcs else ""
                    if (dm := re.match(r"^\s*(?:async )?def (\w+)", line)):
                        funcs.append((indent, dm.group(1)))
                    if any(PY_SELF_TEST.match(name) for _, name in funcs):
                        continue  # a script's own self-test judges it, as the *selftest* files do
                if scopes:
                    ctx["scope"] = scopes[lineno - 1]  # the names the line sees: var, index
                for op, col, old, new in (py_line_mutants if python else line_mutants)(line, lmask, ctx):
                    mutated = line[:col] + new + line[col + len(old):]
                    key = "\0".join([rel, op, line.strip(), mutated.strip(), str(occurrence), str(col)])
                    mid = hashlib.sha1(key.encode()).hexdigest()[:10]
                    mutants.append(dict(id=mid, file=rel, line=lineno, col=col, op=op,
                                        old=line, new=mutated, python=python))
                if line.strip() and any(lmask):  # a code line: the next line's `prev`
                    ctx["prev"] = line
    return mutants


def added_lines(root, rev, paths):
    """{path: set of line numbers} of the lines added since rev: `git diff -U0 rev` (the
    commits since rev and the uncommitted changes of the working tree), plus every line
    of an untracked file (not ignored); only the given paths.  A changed line counts as
    added (a diff shows it deleted and added); a deleted line is nowhere."""
    paths = set(paths)
    folders = sorted({p.split("/")[0] for p in paths})
    got = subprocess.run(["git", "-C", str(root), "diff", "-U0", "--no-color", "--no-ext-diff", "-M", rev, "--", *folders],
                         capture_output=True, text=True, errors="replace")
    if got.returncode != 0:
        raise ValueError(got.stderr.strip().splitlines()[-1] if got.stderr.strip() else f"git diff {rev} failed")
    out, current = {}, None
    for raw in got.stdout.splitlines():
        if raw.startswith("+++ "):
            name = raw[4:]
            current = name[2:] if name.startswith("b/") else None  # +++ /dev/null: deleted
        elif raw.startswith("@@") and current in paths:
            hm = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", raw)
            start, count = int(hm.group(1)), int(hm.group(2) if hm.group(2) is not None else 1)
            out.setdefault(current, set()).update(range(start, start + count))
    untracked = subprocess.run(["git", "-C", str(root), "ls-files", "-o", "--exclude-standard", "-z"],
                               capture_output=True, text=True, check=True).stdout.split("\0")
    for rel in filter(None, untracked):
        if rel in paths:
            out[rel] = set(range(1, len((root / rel).read_text(errors="replace").split("\n")) + 1))
    return out


def blamed_lines(root, commits, paths):
    """{path: set of line numbers} of the lines of HEAD that `git blame` attributes to
    one of these commits (an issue's own commits, interleaved with others'); only the
    given paths the commits touched.  ValueError names a commit git does not know."""
    full = set()
    for c in commits:
        got = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{c}^{{commit}}"],
                             capture_output=True, text=True)
        if got.returncode != 0:
            raise ValueError(f"unknown commit {c}")
        full.add(got.stdout.strip())
    touched = set()
    for c in full:
        touched |= set(subprocess.run(["git", "-C", str(root), "show", "--format=", "--name-only", c],
                                      capture_output=True, text=True, check=True).stdout.split())
    out = {}
    for rel in sorted(set(paths) & touched):
        got = subprocess.run(["git", "-C", str(root), "blame", "--porcelain", "HEAD", "--", rel],
                             capture_output=True, text=True, errors="replace")
        for sha, final in re.findall(r"^([0-9a-f]{40}) \d+ (\d+)", got.stdout, re.M):
            if sha in full:
                out.setdefault(rel, set()).add(int(final))
    return out


def covered_files(root, globs):
    return sorted({p.relative_to(root).as_posix() for g in globs for p in root.glob(g) if p.is_file()})


def since_mutants(root, rev, commits=None):
    """Every candidate mutant (every operator, no catalogue) on the lines added since rev
    (or, given commits, on the lines blamed on them), C++ of SINCE_SOURCES and the
    Python scripts."""
    cpp_files, py_files = covered_files(root, SINCE_SOURCES), python_sources(root)
    added = (blamed_lines(root, commits, cpp_files + py_files) if commits else
             added_lines(root, rev, cpp_files + py_files))
    cpp = catalogue(root, [f for f in cpp_files if f in added])
    py = catalogue(root, [f for f in py_files if f in added], python=True)
    return [m for m in cpp + py if m["line"] in added[m["file"]]], added


def compile_target(m):
    return next(t for g, t in COMPILE_TARGET if fnmatch.fnmatch(m["file"], g))


def eligible(m):
    """Operators that make sense on this line: no arithmetic, constant, boolean or
    deletion mutants on lines that build text (they print differently or do not
    compile), and no constant mutants on data rows (the tables are compared whole
    with their specification by the unit tests)."""
    line = m["old"]
    if '"' in line and m["op"] in ("aor", "cst", "bool", "del"):
        return False
    if m["op"] == "cst" and len(INT.findall(line)) >= 3:
        return False
    return True


def rank(m):
    return hashlib.sha1(("rank" + m["id"]).encode()).hexdigest()


def select(mutants, size):
    """The catalogue: one mutant per line (picked by hash among the line's eligible
    ones), then `size` lines spread over the files in proportion to each file's
    mutable lines (at least one per file), again picked by hash.  Deterministic: the
    same tree gives the same catalogue, and ids do not depend on line numbers."""
    by_line = {}
    for m in filter(eligible, mutants):
        by_line.setdefault((m["file"], m["line"]), []).append(m)
    per_file = {}
    for (f, _), ms in by_line.items():
        per_file.setdefault(f, []).append(min(ms, key=rank))
    total = sum(len(v) for v in per_file.values())
    chosen = []
    for f, ms in sorted(per_file.items()):
        k = max(1, round(size * len(ms) / total))
        chosen += sorted(ms, key=rank)[:k]
    return sorted(chosen, key=lambda m: (m["file"], m["line"], m["col"]))


def load_equivalent():
    eq = {}
    if EQUIVALENT.exists():
        for raw in EQUIVALENT.read_text().splitlines():
            if raw.strip() and not raw.startswith("#"):
                mid, _, reason = raw.strip().partition(" ")
                if not reason.strip():
                    sys.exit(f"{EQUIVALENT}: mutant {mid} has no reason")
                eq[mid] = reason.strip()
    return eq
