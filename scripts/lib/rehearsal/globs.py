"""The path lists of the actions and hashFiles(), as @actions/glob reads and walks them,
and hashFiles()'s digest as actions/runner computes it."""
import fnmatch
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.expressions import ExprError  # noqa: E402


_GLOB_CHARS = re.compile(r"[*?\[]")


class Pattern:
    """One line of an action's path list, as @actions/glob reads it: `!` negates, `~`
    is home, relative to `base`; `**` any number of folders, `*` `?` `[...]` in one."""

    def __init__(self, line, base):
        self.negate = line.startswith("!")
        p = line[1:].strip() if self.negate else line
        if p.startswith("~"):
            p = os.path.expanduser("~") + p[1:]
        self.path = os.path.normpath(os.path.join(base, p))
        self.parts = [c for c in self.path.split("/") if c]
        literal = []
        for c in self.parts:
            if _GLOB_CHARS.search(c):
                break
            literal.append(c)
        self.root = "/" + "/".join(literal)
        self.is_glob = len(literal) < len(self.parts)

    def matches(self, path):
        return _match(self.parts, [c for c in path.split("/") if c])


def _match(pat, parts):
    if not pat:
        return not parts
    if pat[0] == "**":
        return any(_match(pat[1:], parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], pat[0]) and _match(pat[1:], parts[1:])


def pattern_lines(text, base):
    return [Pattern(line, base) for line in (x.strip() for x in str(text).split("\n"))
            if line and not line.startswith("#")]


def glob_paths(patterns, descendants, hidden=True, follow=False):
    """Paths the patterns match, in @actions/glob's order (depth first, names sorted).
    descendants: a matched folder stands for every file under it (files only are
    returned); else a matched folder is returned itself and not entered."""
    positives = [p for p in patterns if not p.negate]
    roots = sorted({p.root for p in positives})
    roots = [r for r in roots if not any(r != o and r.startswith(o.rstrip("/") + "/") for o in roots)]
    found, seen = [], set()

    def decide(path, inherited):
        verdict = inherited
        for p in patterns:
            if p.matches(path):
                verdict = not p.negate
        return verdict

    def visit(path, inherited):
        name = os.path.basename(path)
        if not hidden and name.startswith(".") and path not in roots:
            return
        is_dir = os.path.isdir(path) if follow else (os.path.isdir(path) and not os.path.islink(path))
        matched = decide(path, inherited if descendants else False)
        if matched and not descendants:
            if path not in seen:
                seen.add(path)
                found.append(path)
            return
        if is_dir:
            try:
                children = sorted(os.listdir(path))
            except OSError:
                return
            for c in children:
                visit(os.path.join(path, c), matched)
        elif matched and path not in seen and os.path.lexists(path):
            seen.add(path)
            found.append(path)

    for r in roots:
        if os.path.lexists(r):
            visit(r, False)
    return found


def hash_files(workspace, patterns):
    """hashFiles() as the runner computes it: the SHA-256 of each matched file of the
    workspace, in order, fed into one SHA-256; '' when none matches.  Symbolic links to
    folders are not followed unless the first argument is --follow-symbolic-links (any
    other --option there is an error), as actions/runner's HashFilesFunction has it."""
    follow = False
    if patterns and patterns[0].startswith("--"):
        if patterns[0].lower() != "--follow-symbolic-links":
            raise ExprError(f"hashFiles(): invalid glob option {patterns[0]}, available option: '--follow-symbolic-links'")
        follow, patterns = True, patterns[1:]
    pats = [Pattern(p, workspace) for p in patterns if p.strip()]
    total, count = hashlib.sha256(), 0
    for f in glob_paths(pats, descendants=True, follow=follow):
        if not f.startswith(workspace.rstrip("/") + "/") or not os.path.isfile(f):
            continue
        h = hashlib.sha256()
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        total.update(h.digest())
        count += 1
    return total.hexdigest() if count else ""
