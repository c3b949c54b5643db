"""./scripts/check-workflows --rehearse WORKFLOW [--job JOB] [--matrix KEY=VALUE]...
       [--event push|pull_request|workflow_dispatch] [--ref REF] [--sha SHA]
       [--secret NAME=VALUE]... [--replace STEP=COMMAND]... [--skip STEP]...
       [--state DIR] [--keep] [--verbose]
(python3 scripts/ci_rehearse.py takes the same arguments)

Rehearses one job of a GitHub workflow on this machine: its `run:` steps, in order, in
a fresh clone of the working tree as it is (a commit object of the tracked, changed and
untracked non-ignored files, made with a temporary index: no ref, no index of yours is
touched), with the variables a runner sets, and each `uses:` step replaced by a
simulation of what the action reads and writes.  Each rehearsal is a new run (a run
counter in the state folder) and a new commit object, so a tracker that compares with
"the last entry of another commit" sees a new push.

Per step: GITHUB_WORKSPACE (the clone), RUNNER_TEMP, RUNNER_OS=Linux, CI=true,
GITHUB_ACTIONS=true, GITHUB_SHA, GITHUB_REF (refs/heads/main), GITHUB_EVENT_NAME,
GITHUB_EVENT_PATH, GITHUB_RUN_ID/NUMBER/ATTEMPT, GITHUB_REPOSITORY (from the origin
remote), GITHUB_JOB, GITHUB_STEP_SUMMARY (the job's, kept), GITHUB_OUTPUT (a fresh file,
into steps.<id>.outputs, NAME=VALUE and NAME<<DELIMITER), GITHUB_ENV and GITHUB_PATH (for
the later steps); workflow, job and step `env:` in that order.  The shell is GitHub's:
`bash -e {0}` when none is named, `bash --noprofile --norc -eo pipefail {0}` for
`shell: bash`, `sh -e {0}`, `python {0}` or a template with {0}; `working-directory`,
`timeout-minutes` (step and job), `continue-on-error` and `if` (default success()) as
GitHub has them.  `container:` and `services:` are not simulated (said so): the steps
run on this machine, as you.

${{ }} expressions: literals, ! && || == != < <= > >=, ( ), a.b and a['b'], a.*.b; the
functions success() failure() always() cancelled() hashFiles() contains() startsWith()
endsWith() format() join() toJSON() fromJSON(); the contexts github, env, secrets,
matrix, steps, runner, job, strategy, inputs, vars.  An unknown function or context, or
a syntax error, is exit 2 naming it and where, before any step runs.

The actions, whatever their pinned ref:
  actions/checkout          nothing (the workspace is the clone); outputs ref, commit
  actions/cache/restore     from the state folder's cache: the key exactly (cache-hit
                            'true'), else the newest entry whose key starts with the key
                            or a restore key, in order (cache-hit 'false'), else nothing
                            (''); an entry only for the same path list, from this ref or
                            refs/heads/main; paths may be globs, relative or absolute
  actions/cache/save        a new entry; an existing key is kept (a warning, the step
                            passes: "Unable to reserve cache"); nothing found: a warning
  actions/cache             restore now, save in a post step when the job succeeded and
                            the key was not hit exactly
  actions/upload-artifact   into STATE/artifacts/run-<id>/<name>/; the same name twice
                            in a run fails (409 Conflict) unless overwrite: true;
                            if-no-files-found error|warn|ignore
  benchmark-action/github-action-benchmark  with external-data-json-path and a custom*
                            tool: its input checks, the data file (missing or invalid:
                            a warning and empty data), the previous suite (the last of
                            another commit), the appended entry, max-items-in-chart,
                            summary-always, and the alert only with comment-on-alert or
                            fail-on-alert (alert-threshold, fail-threshold)
  bencherdev/bencher        says it would install the bencher CLI (offline: it does not)
  github/codeql-action/upload-sarif, google/clusterfuzzlite/*, any other action, a
  docker:// or a local action: the step fails, saying it cannot be rehearsed.

Options:
  --job JOB             the job (default: the only one)
  --matrix KEY=VALUE    pick the matrix combination (default: the first)
  --event E             push (default), pull_request or workflow_dispatch
  --ref REF             GITHUB_REF (default refs/heads/main; refs/pull/1/merge for a
                        pull request)
  --sha SHA             GITHUB_SHA instead of the rehearsal's commit object
  --secret NAME=VALUE   secrets.NAME (every other secret is '')
  --replace STEP=CMD    run CMD (through the step's shell) instead of the step; STEP is
                        its id or its number
  --skip STEP           the step is skipped (outcome and conclusion 'skipped')
  --state DIR           the cache, artifacts, step summaries and logs, kept between
                        rehearsals (default out/rehearse)
  --keep                keep the clone (its path is printed)
  --verbose             print every step's output

One line per step, `[i/n] NAME: success|failure|skipped (S s)`, the annotations a step
printed, the end of a failed step's output; then the job's conclusion and where its
summary, logs and artifacts are.
Exit 0 the job succeeded (or its `if` skipped it); 1 it failed; 2 usage, or a workflow
that cannot be rehearsed (one line naming what); 77 not in a git checkout (skipped);
143 on SIGTERM; on SIGTERM or Ctrl-C the running step's processes are stopped too.
"""
import copy
import fcntl
import fnmatch
import hashlib
import itertools
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.cli import EXIT_BAD, EXIT_FAIL, EXIT_OK, Parser, run  # noqa: E402
from lib.strict_io import BadInput, shown  # noqa: E402

EXIT_SKIP = 77
PROG = "check-workflows --rehearse"
HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = ("push", "pull_request", "workflow_dispatch")
TAIL_LINES = 20


class Skip(Exception):
    """The rehearsal cannot run here (exit 77)."""


class ExprError(Exception):
    """An expression that cannot be parsed or evaluated."""


# =================================================================== expressions ==
def js_number(x):
    """A number as JavaScript and GitHub's expressions print it (3.0 -> '3')."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x.is_integer() and abs(x) < 1e21:
        return str(int(x))
    r = repr(x)
    if "e" in r:
        mant, exp = r.split("e")
        r = f"{mant}e{'-' if exp.startswith('-') else '+'}{exp.lstrip('+-').lstrip('0') or '0'}"
    return r


def to_str(v):
    """GitHub's conversion of a value to a string (interpolation, string functions)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, list):
        return "Array"
    if isinstance(v, dict):
        return "Object"
    return str(v)


def to_num(v):
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        s = v.strip()
        if not s:
            return 0.0
        try:
            return float(int(s, 16)) if s.lower().startswith("0x") else float(s)
        except ValueError:
            return math.nan
    return math.nan


def truthy(v):
    if v is None or v is False:
        return False
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return not (v == 0 or math.isnan(v))
    if isinstance(v, str):
        return v != ""
    return True


def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "num"
    if isinstance(v, str):
        return "str"
    return "obj"


def loose_eq(a, b):
    ka, kb = _kind(a), _kind(b)
    if ka == kb:
        if ka == "str":
            return a.lower() == b.lower()
        if ka == "num":
            return float(a) == float(b)
        if ka == "obj":
            return a is b
        return a == b
    if "obj" in (ka, kb):
        return False
    return to_num(a) == to_num(b)


def compare(op, a, b):
    if _kind(a) == "str" and _kind(b) == "str":
        x, y = a.lower(), b.lower()
    else:
        x, y = to_num(a), to_num(b)
        if math.isnan(x) or math.isnan(y):
            return False
    return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def get_ci(d, key):
    """d[key] with GitHub's case-insensitive property names; None when absent."""
    if key in d:
        return d[key]
    low = key.lower()
    for k, v in d.items():
        if isinstance(k, str) and k.lower() == low:
            return v
    return None


class Filtered(list):
    """The array an object filter (a.*) makes: a property of it maps over its items."""


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


# ========================================================================= globs ==
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


def merge_into(src, dst):
    """Copies the tree `src` over `dst`: files written, folders made, nothing deleted and
    no existing folder's mode or times changed."""
    for folder, dirs, files in os.walk(src):
        rel = os.path.relpath(folder, src)
        target = dst if rel == "." else os.path.join(dst, rel)
        os.makedirs(target, exist_ok=True)
        for name in dirs + files:
            s, d = os.path.join(folder, name), os.path.join(target, name)
            if os.path.islink(s):
                if os.path.lexists(d) and not os.path.isdir(d):
                    os.unlink(d)
                os.symlink(os.readlink(s), d)
            elif name in files:
                if os.path.exists(d) and os.path.samefile(s, d):
                    continue  # the file saved (hard-linked) is still there
                part = os.path.join(target, f".{name}.ci-rehearse-part")
                shutil.copy2(s, part)
                os.replace(part, d)  # never written through: `d` may be another entry's link


def copy_path(path, dest, link=False):
    """Copies a file, folder or symbolic link; link: a file is hard-linked when it can be
    (files outside the workspace, such as apt's downloaded packages, are replaced, not
    edited in place: the link keeps the content saved)."""
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if os.path.islink(path):
        os.symlink(os.readlink(path), dest)
    elif os.path.isdir(path):
        shutil.copytree(path, dest, symlinks=True, dirs_exist_ok=True,
                        copy_function=_link_or_copy if link else shutil.copy2)
    else:
        (_link_or_copy if link else shutil.copy2)(path, dest)


def _link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


# ================================================================ file commands ==
class FileCommandError(Exception):
    pass


def parse_file_command(path):
    """[(name, value)] of a GITHUB_OUTPUT / GITHUB_ENV file: NAME=VALUE lines and
    NAME<<DELIMITER ... DELIMITER blocks, as the runner reads them."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [x[:-1] if x.endswith("\r") else x for x in f.read().split("\n")]
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        eq, hd = line.find("="), line.find("<<")
        if eq >= 0 and (hd < 0 or eq < hd):
            key, value = line[:eq], line[eq + 1:]
        elif hd >= 0:
            key, delim = line[:hd], line[hd + 2:]
            if not delim:
                raise FileCommandError(f"Invalid format {line!r}: no delimiter")
            block = []
            while True:
                if i >= len(lines):
                    raise FileCommandError(f"Invalid value. Matching delimiter not found {delim!r}")
                i += 1
                if lines[i - 1] == delim:
                    break
                block.append(lines[i - 1])
            value = "\n".join(block)
        else:
            raise FileCommandError(f"Invalid format {line!r}")
        if not key:
            raise FileCommandError(f"Invalid format {line!r}: the name must not be empty")
        out.append((key, value))
    return out


def escape_data(s):
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


# ====================================================================== the state ==
class State:
    """The folder kept between rehearsals: the run counter, the cache, the artifacts,
    and each run's step summaries and logs."""

    def __init__(self, root):
        self.root = os.path.abspath(root)
        os.makedirs(self.root, exist_ok=True)

    def next_run(self):
        path = os.path.join(self.root, "run-counter")
        with open(path, "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.seek(0)
            text = f.read().strip()
            n = int(text) + 1 if text.isdigit() else 1
            f.seek(0)
            f.truncate()
            f.write(f"{n}\n")
        return n

    def cache_dir(self):
        return os.path.join(self.root, "cache")

    def cache_entries(self):
        out = []
        d = self.cache_dir()
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            meta = os.path.join(d, name, "meta.json")
            try:
                with open(meta) as f:
                    m = json.load(f)
            except (OSError, ValueError):
                continue
            m["dir"] = os.path.join(d, name)
            out.append(m)
        return out


def cache_version(paths):
    return hashlib.sha256(("\n".join(paths) + "|zstd-without-long|1.0").encode()).hexdigest()


# ============================================================= the simulations ==
class StepFailed(Exception):
    """An action's failure (core.setFailed): the message becomes an ::error."""


class ActionContext:
    """What a simulated action sees: its inputs (defaults applied, trimmed as
    core.getInput does), the log, its outputs, the job summary, the post steps."""

    def __init__(self, rehearsal, step, inputs, defaults):
        self.r, self.step = rehearsal, step
        self.inputs = {k.lower(): to_str(v) for k, v in (defaults or {}).items()}
        self.inputs.update({k.lower(): v for k, v in inputs.items()})
        self.outputs, self.lines, self.summary = {}, [], ""

    def input(self, name, required=False):
        v = self.inputs.get(name, "").strip()
        if required and not v:
            raise StepFailed(f"Input required and not supplied: {name}")
        return v

    def bool_input(self, name):
        """core.getBooleanInput: YAML 1.2 true/false spellings, else an error."""
        v = self.input(name)
        if v in ("true", "True", "TRUE"):
            return True
        if v in ("false", "False", "FALSE"):
            return False
        raise StepFailed(f"Input does not meet YAML 1.2 \"Core Schema\" specification: {name}\n"
                         "Support boolean input list: `true | True | TRUE | false | False | FALSE`")

    def info(self, text):
        self.lines.append(text)

    def warning(self, text):
        self.lines.append("::warning::" + escape_data(text))

    def notice(self, text):
        self.lines.append("::notice::" + escape_data(text))

    def path(self, p):
        return os.path.normpath(os.path.join(self.r.workspace, os.path.expanduser(p)))


CACHE_DEFAULTS = {"enableCrossOsArchive": "false", "fail-on-cache-miss": "false", "lookup-only": "false"}


def cache_restore(ctx, combined):
    key = ctx.input("key", required=True)
    paths_text = ctx.input("path", required=True)
    restore_keys = [k.strip() for k in ctx.input("restore-keys").split("\n") if k.strip()]
    if len(key) > 512 or "," in key:
        raise StepFailed(f"Key Validation Error: {key} cannot be larger than 512 characters." if len(key) > 512
                         else f"Key Validation Error: {key} cannot contain commas.")
    if not ctx.r.env_for_actions.get("GITHUB_REF"):
        ctx.warning("Event Validation Error: The event type push is not supported because it's not tied to a branch or tag ref.")
        return
    lines = [x.strip() for x in paths_text.split("\n") if x.strip()]
    version = cache_version(lines)
    ctx.r.cache_state[ctx.step.index] = {"primary": key, "matched": None, "paths": paths_text}
    if not combined:
        ctx.outputs["cache-primary-key"] = key
    visible = [e for e in ctx.r.state.cache_entries()
               if e.get("version") == version and e.get("ref") in (ctx.r.ref, "refs/heads/main")]
    hit = None
    exact = [e for e in visible if e["key"] == key]
    if exact:
        hit = exact[-1]
    else:
        for prefix in [key] + restore_keys:
            cands = [e for e in visible if e["key"].startswith(prefix)]
            if cands:
                hit = max(cands, key=lambda e: e["created"])
                break
    if hit is None:
        if ctx.bool_input("fail-on-cache-miss"):
            raise StepFailed(f"Failed to restore cache entry. Exiting as fail-on-cache-miss is set. Input key: {key}")
        ctx.info(f"Cache not found for input keys: {', '.join([key] + restore_keys)}")
        return
    ctx.r.cache_state[ctx.step.index]["matched"] = hit["key"]
    if not combined:
        ctx.outputs["cache-matched-key"] = hit["key"]
    ctx.outputs["cache-hit"] = "true" if hit["key"] == key else "false"
    if ctx.bool_input("lookup-only"):
        ctx.info(f"Cache found and can be restored from key: {hit['key']}")
        return
    ws, ab = os.path.join(hit["dir"], "ws"), os.path.join(hit["dir"], "abs")
    if os.path.isdir(ws):
        merge_into(ws, ctx.r.workspace)
    if os.path.isdir(ab):
        try:
            merge_into(ab, "/")
        except OSError as e:
            ctx.warning(f"Failed to restore {e.filename}: {(e.strerror or str(e)).lower()}")
    ctx.info(f"Cache restored from key: {hit['key']}")


def cache_save(ctx, key, paths_text):
    lines = [x.strip() for x in paths_text.split("\n") if x.strip()]
    version = cache_version(lines)
    if any(e["key"] == key and e.get("version") == version for e in ctx.r.state.cache_entries()):
        ctx.info(f"Failed to save: Unable to reserve cache with key {key}, another job may be creating this cache. "
                 "More details: Cache already exists.")
        ctx.warning("Cache save failed.")
        return
    matched = glob_paths(pattern_lines(paths_text, ctx.r.workspace), descendants=False)
    if not matched:
        ctx.warning("Path Validation Error: Path(s) specified in the action for caching do(es) not exist, "
                    "hence no cache is being saved.")
        return
    entries = ctx.r.state.cache_dir()
    os.makedirs(entries, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=entries, prefix=".new-")
    ws_prefix = ctx.r.workspace.rstrip("/") + "/"
    for p in matched:
        if p == ctx.r.workspace or p.startswith(ws_prefix):
            rel = os.path.relpath(p, ctx.r.workspace)
            dest = os.path.join(tmp, "ws") if rel == "." else os.path.join(tmp, "ws", rel)
            copy_path(p, dest)
        else:
            copy_path(p, os.path.join(tmp, "abs", p.lstrip("/")), link=True)
    meta = {"key": key, "version": version, "paths": lines, "ref": ctx.r.ref, "created": time.time_ns(),
            "run": ctx.r.run_id}
    with open(os.path.join(tmp, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
    name = f"{meta['created']}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"
    os.rename(tmp, os.path.join(entries, name))
    ctx.info(f"Cache saved with key: {key}")


def act_checkout(ctx):
    for bad in ("path", "ref", "repository", "sparse-checkout"):
        if ctx.input(bad):
            raise StepFailed(f"actions/checkout with '{bad}': not simulated (the workspace is the rehearsal's clone)")
    ctx.info(f"the workspace is the rehearsal's clone of {ctx.r.sha} (actions/checkout is not run)")
    ctx.outputs.update(ref=ctx.r.ref, commit=ctx.r.sha)


def act_cache_restore(ctx):
    cache_restore(ctx, combined=False)


def act_cache_save(ctx):
    cache_save(ctx, ctx.input("key", required=True), ctx.input("path", required=True))


def act_cache(ctx):
    cache_restore(ctx, combined=True)
    st = ctx.r.cache_state.get(ctx.step.index)

    def post(pctx):
        if st is None:
            return
        if st["matched"] and st["matched"].lower() == st["primary"].lower():
            pctx.info(f"Cache hit occurred on the primary key {st['primary']}, not saving cache.")
            return
        cache_save(pctx, st["primary"], st["paths"])
    ctx.r.add_post(ctx.step, post, "success()")


ARTIFACT_BAD = set('":<>|*?\r\n\\/')


def act_upload_artifact(ctx):
    name = ctx.input("name") or "artifact"
    if set(name) & ARTIFACT_BAD:
        raise StepFailed(f"The artifact name is not valid: {name}. Contains the following character: "
                         + " ".join(sorted(repr(c) for c in set(name) & ARTIFACT_BAD)))
    if_none = ctx.input("if-no-files-found") or "warn"
    if if_none not in ("warn", "error", "ignore"):
        raise StepFailed(f"Unrecognized if-no-files-found input. Provided: {if_none}. Available options: warn, error, ignore")
    hidden = ctx.bool_input("include-hidden-files")
    overwrite = ctx.bool_input("overwrite")
    text = ctx.input("path", required=True)
    pats = pattern_lines(text, ctx.r.workspace)
    files = [f for f in glob_paths(pats, descendants=True, hidden=hidden) if not os.path.isdir(f)]
    if not files:
        msg = f"No files were found with the provided path: {text}. No artifacts will be uploaded."
        if if_none == "error":
            raise StepFailed(msg)
        (ctx.warning if if_none == "warn" else ctx.info)(msg)
        return
    searches = [p.root if p.is_glob else p.path for p in pats if not p.negate]
    if len(searches) == 1:
        root = searches[0] if os.path.isdir(searches[0]) else os.path.dirname(searches[0])
    else:
        split = [s.split("/") for s in searches]
        common = []
        for comps in zip(*split):
            if len(set(comps)) != 1:
                break
            common.append(comps[0])
        root = "/".join(common) or "/"
    dest = os.path.join(ctx.r.state.root, "artifacts", f"run-{ctx.r.run_id}", name)
    if os.path.exists(dest):
        if not overwrite:
            raise StepFailed("Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: "
                             "an artifact with this name already exists on the workflow run")
        shutil.rmtree(dest)
        ctx.info(f"Deleted the artifact {name} of this run (overwrite: true)")
    digest = hashlib.sha256()
    for f in files:
        rel = os.path.relpath(f, root)
        copy_path(f, os.path.join(dest, rel))
        digest.update(rel.encode() + b"\0")
        with open(f, "rb") as fh:
            digest.update(hashlib.sha256(fh.read()).digest())
    ctx.r.artifacts.append(name)
    ctx.info(f"Uploaded {len(files)} file(s) to {dest}")
    ctx.outputs.update({"artifact-id": str(len(ctx.r.artifacts)), "artifact-digest": digest.hexdigest(),
                        "artifact-url": f"{ctx.r.server_url}/{ctx.r.repository}/actions/runs/{ctx.r.run_id}/artifacts/{len(ctx.r.artifacts)}"})


GAB_DEFAULTS = {"name": "Benchmark", "gh-pages-branch": "gh-pages", "benchmark-data-dir-path": "dev/bench",
                "auto-push": "false", "skip-fetch-gh-pages": "false", "comment-always": "false",
                "summary-always": "false", "save-data-file": "true", "comment-on-alert": "false",
                "alert-threshold": "200%", "fail-on-alert": "false", "go-force-package-suffix": "false"}
GAB_TOOLS = ("cargo", "go", "benchmarkjs", "benchmarkluau", "pytest", "googlecpp", "catch2", "julia", "jmh",
             "benchmarkdotnet", "customBiggerIsBetter", "customSmallerIsBetter")
TIME_UNITS = [["s", "ms", "us", "ns"], ["s/iter", "ms/iter", "us/iter", "ns/iter"], ["ops/ns", "ops/us", "ops/ms", "ops/s"]]


def gab_bool(ctx, name):
    v = ctx.input(name)
    if not v:
        return False
    if v not in ("true", "false"):
        raise StepFailed(f"'{name}' input must be boolean value 'true' or 'false' but got '{v}'")
    return v == "true"


def gab_percent(ctx, name):
    v = ctx.input(name)
    if not v:
        return None
    if not v.endswith("%"):
        raise StepFailed(f"'{name}' input must ends with '%' for percentage value (e.g. '200%')")
    m = re.match(r"\s*[+-]?(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Infinity)", v[:-1])
    if not m:
        raise StepFailed(f"Specified value '{v[:-1]}' in '{name}' input cannot be parsed as float number")
    return float(m.group(0)) / 100


def js_string(v):
    """String(v) as JavaScript spells it (zod's coerce.string)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, list):
        return ",".join("" if x is None else js_string(x) for x in v)
    if isinstance(v, dict):
        return "[object Object]"
    return v


def js_to_number(v):
    """Number(v) (zod's coerce.number)."""
    if isinstance(v, list):
        return to_num(js_string(v)) if len(v) <= 1 else math.nan
    if isinstance(v, dict):
        return math.nan
    if isinstance(v, str):
        s = v.strip()
        if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?Infinity|0[xX][0-9a-fA-F]+|", s):
            return to_num(s.replace("Infinity", "inf")) if "Infinity" in s else to_num(s)
        return math.nan
    return to_num(v)


def gab_results(path, text):
    """customSmallerIsBetter/customBiggerIsBetter's file: zod's BenchmarkResults."""
    def fail(what):
        raise StepFailed("Output file for 'custom-(bigger|smaller)-is-better' must be JSON file containing an array "
                         f"of entries in BenchmarkResult format: {what}")
    try:
        doc = json.loads(text)
    except ValueError as e:
        fail(f"Unexpected token in JSON: {e}")
    if not isinstance(doc, list):
        fail("Expected array, received " + ("null" if doc is None else type(doc).__name__))
    out = []
    for i, e in enumerate(doc):
        if not isinstance(e, dict):
            fail(f"[{i}]: Expected object")
        value = js_to_number(e.get("value")) if "value" in e else math.nan
        if isinstance(value, float) and math.isnan(value):
            fail(f"[{i}].value: Expected number, received nan")
        r = {"name": js_string(e.get("name")) if "name" in e else "undefined", "value": value}
        if "range" in e:
            r["range"] = js_string(e.get("range"))
        r["unit"] = js_string(e.get("unit")) if "unit" in e else "undefined"
        if "extra" in e:
            r["extra"] = js_string(e.get("extra"))
        out.append(r)
    return out


def gab_normalize(prev, cur):
    """normalizeBenchmarkResult: the current value in the previous unit (time units)."""
    if prev is None:
        return cur
    def canon(u):
        return u.strip().lower().replace("µs", "us").replace("μs", "us")
    value = cur["value"]
    for units in TIME_UNITS:
        p, c = canon(prev["unit"]), canon(cur["unit"])
        if p in units and c in units:
            value = cur["value"] * 1000 ** (units.index(p) - units.index(c))
            break
    out = dict(cur)
    out["value"] = value
    out["unit"] = prev["unit"] if value != cur["value"] else cur["unit"]
    return out


def gab_ratio(tool, prev, cur):
    if prev["value"] == 0 and cur["value"] == 0:
        return 1
    try:
        return prev["value"] / cur["value"] if tool == "customBiggerIsBetter" else cur["value"] / prev["value"]
    except ZeroDivisionError:
        return math.inf


def gab_float(n):
    if math.isinf(n):
        return ("+" if n > 0 else "-") + "\u221e"
    if float(n).is_integer():
        return str(int(n))
    return f"{n:.2f}" if n > 0.1 else js_number(n)


def gab_val(b):
    s = f"`{js_number(b['value'])}` {b['unit']}"
    return s + (f" (`{b['range']}`)" if b.get("range") else "")


def gab_table(header, cur, prev, rows):
    lines = header + [f"| Benchmark suite | Current: {cur['commit']['id']} | Previous: {prev['commit']['id']} | Ratio |",
                      "|-|-|-|-|"]
    return lines + rows


def gab_output_file(ctx):
    """The 'output-file-path' input's path, which must be a file."""
    out_path = ctx.path(ctx.input("output-file-path"))
    if not os.path.exists(out_path):
        raise StepFailed(f"Invalid value for 'output-file-path' input: Error: Cannot stat '{out_path}': "
                         f"Error: ENOENT: no such file or directory, stat '{out_path}'")
    if not os.path.isfile(out_path):
        raise StepFailed(f"Invalid value for 'output-file-path' input: Error: Specified path '{out_path}' is not a file")
    return out_path


def gab_config(ctx):
    """github-action-benchmark's inputs, validated as its src/config.ts does (the same
    messages); a dict of what the run needs."""
    tool = ctx.input("tool")
    bools = {n: gab_bool(ctx, n) for n in ("auto-push", "skip-fetch-gh-pages", "comment-always", "summary-always",
                                           "save-data-file", "comment-on-alert", "fail-on-alert")}
    alert_t = gab_percent(ctx, "alert-threshold")
    gab_bool(ctx, "go-force-package-suffix")
    fail_t = gab_percent(ctx, "fail-threshold")
    max_items = ctx.input("max-items-in-chart")
    if max_items and not re.fullmatch(r"\d+", max_items):
        raise StepFailed(f"'max-items-in-chart' input must be unsigned integer but got '{max_items}'")
    if tool not in GAB_TOOLS:
        raise StepFailed(f"Invalid value '{tool}' for 'tool' input. It must be one of {','.join(GAB_TOOLS)}")
    out_path = gab_output_file(ctx)
    name = ctx.input("name")
    if not ctx.input("gh-pages-branch"):
        raise StepFailed("Branch value must not be empty for 'gh-pages-branch' input")
    if not name:
        raise StepFailed("Name must not be empty")
    token = ctx.input("github-token")
    for flag, todo in (("auto-push", "to push GitHub pages branch to remote"),
                       ("comment-always", "to send commit comment"),
                       ("comment-on-alert", "to send commit comment on alert")):
        if bools[flag] and not token:
            raise StepFailed(f"'{flag}' is enabled but 'github-token' is not set. Please give API token {todo}")
    if alert_t is None:
        raise StepFailed("'alert-threshold' input must not be empty")
    if fail_t and alert_t > fail_t:
        raise StepFailed(f"'alert-threshold' value must be smaller than 'fail-threshold' value but got "
                         f"{js_number(alert_t)} > {js_number(fail_t)}")
    cc = [x.strip() for x in ctx.input("alert-comment-cc-users").split(",") if x.strip()]
    for u in cc:
        if not u.startswith("@"):
            raise StepFailed(f"User name in 'alert-comment-cc-users' input must start with '@' but got '{u}'")
    ext = ctx.input("external-data-json-path")
    if ext and bools["auto-push"]:
        raise StepFailed("auto-push must be false when external-data-json-path is set since this action reads/writes "
                         "the given JSON file and never pushes to remote")
    ext_path = ctx.path(ext) if ext else None
    if ext_path and os.path.isdir(ext_path):
        raise StepFailed(f"Invalid value for 'external-data-json-path' input: Error: Specified path '{ext_path}' "
                         "must be file but it is actually directory")
    if max_items and int(max_items) <= 0:
        raise StepFailed(f"'max-items-in-chart' input value must be one or more but got {int(max_items)}")
    if not ext_path:
        raise StepFailed("github-action-benchmark without external-data-json-path writes to the gh-pages branch of the "
                         "remote: not rehearsable")
    if tool not in ("customSmallerIsBetter", "customBiggerIsBetter"):
        raise StepFailed(f"github-action-benchmark's tool '{tool}': its output parser is not simulated "
                         "(customSmallerIsBetter and customBiggerIsBetter are)")
    return {"tool": tool, "bools": bools, "alert_t": alert_t, "fail_t": alert_t if fail_t is None else fail_t,
            "max_items": int(max_items) if max_items else None, "out_path": out_path, "name": name, "token": token,
            "cc": cc, "ext_path": ext_path}


def gab_append(ctx, c, bench):
    """The action's writeBenchmarkToExternalJson: the data file loaded (missing or not JSON:
    a warning and empty data), this run appended under its name, trimmed to
    max-items-in-chart, written back.  Returns (previous suite or None, the suite appended)."""
    r, ext_path, name = ctx.r, c["ext_path"], c["name"]
    try:
        with open(ext_path, encoding="utf-8") as f:
            data = json.loads(f.read())
    except (OSError, ValueError) as e:
        why = f"Error: ENOENT: no such file or directory, open '{ext_path}'" if isinstance(e, FileNotFoundError) \
            else f"SyntaxError: {e}"
        ctx.warning(f"Could not find external JSON file for benchmark data at {ext_path}. Using empty default: {why}")
        data = {"lastUpdate": 0, "repoUrl": "", "entries": {}}
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        raise StepFailed(f"TypeError: the data file {ext_path} has no 'entries' object")
    data["lastUpdate"] = int(time.time() * 1000)
    data["repoUrl"] = f"{r.server_url}/{r.repository}"
    prev, cur = None, bench
    if name not in data["entries"]:
        data["entries"][name] = [bench]
    else:
        suites = data["entries"][name]
        for e in reversed(suites):
            if (e.get("commit") or {}).get("id") != bench["commit"]["id"]:
                prev = e
                break
        if prev is not None:
            cur = dict(bench, benches=[gab_normalize(next((p for p in prev["benches"] if p.get("name") == b["name"]), None), b)
                                       for b in bench["benches"]])
        suites.append(cur)
        if c["max_items"] and len(suites) > c["max_items"]:
            del suites[:len(suites) - c["max_items"]]
    if c["bools"]["save-data-file"]:
        os.makedirs(os.path.dirname(ext_path), exist_ok=True)
        with open(ext_path, "w", encoding="utf-8") as f:
            f.write(pretty_json(data))
    return prev, cur


def gab_report(ctx, c, prev, cur):
    """The action's handleComment, handleSummary and handleAlert, in its order: the
    comparison table into the step summary (summary-always), and only with
    comment-on-alert or fail-on-alert a comparison: a warning per alert, the step
    failed above fail-threshold (fail-on-alert)."""
    r, tool, name, bools = ctx.r, c["tool"], c["name"], c["bools"]
    alert_t, fail_t, commit = c["alert_t"], c["fail_t"], cur["commit"]
    footer = (f"This comment was automatically generated by [workflow]({r.server_url}/{r.repository}/actions?query="
              f"workflow%3A{_uri(r.workflow_name)}) using [github-action-benchmark]"
              "(https://github.com/marketplace/actions/continuous-benchmark).")

    def previous(b):
        return next((x for x in prev["benches"] if x.get("name") == b["name"]), None)

    def row(b, p, ratio):
        return f"| `{b['name']}` | {gab_val(b)} | {gab_val(p)} | `{gab_float(ratio)}` |"

    if bools["comment-always"]:
        ctx.info(f"would post the comparison as a commit comment on {commit['id']} (comment-always; offline: not posted)")
    if bools["summary-always"]:
        rows = [row(b, previous(b), gab_ratio(tool, previous(b), b)) if previous(b) else f"| `{b['name']}` | {gab_val(b)} | | |"
                for b in cur["benches"]]
        ctx.summary += "\n".join(gab_table([f"# {name}", "", "", ""], cur, prev, rows) + ["", "", "", footer])
    if not (bools["comment-on-alert"] or bools["fail-on-alert"]):
        return
    alerts = []
    for b in cur["benches"]:
        p = previous(b)
        ratio = gab_ratio(tool, p, b) if p else None
        if p and ratio > alert_t:
            ctx.warning(f"Performance alert! Previous value was {js_number(p['value'])} and current value is "
                        f"{js_number(b['value'])}. It is {js_number(ratio)}x worse than previous exceeding a "
                        f"ratio threshold {js_number(alert_t)}")
            alerts.append((b, p, ratio))
    if not alerts:
        return
    bench_text = "" if name == "Benchmark" else f" **'{name}'**"
    body = gab_table(["# :warning: **Performance Alert** :warning:" if alert_t else "# Performance Report", "",
                      f"Possible performance regression was detected for benchmark{bench_text}.",
                      "Benchmark result of this commit is worse than the previous benchmark result exceeding "
                      f"threshold `{gab_float(alert_t)}`.", ""], cur, prev, [row(b, p, x) for b, p, x in alerts])
    body += ["", footer] + (["", f"CC: {' '.join(c['cc'])}"] if c["cc"] else [])
    message = "\n".join(body)
    if bools["comment-on-alert"]:
        ctx.info(f"would post the alert as a commit comment on {commit['id']} (comment-on-alert; offline: not posted)")
    failures = [a for a in alerts if a[2] > fail_t]
    if bools["fail-on-alert"] and failures:
        if fail_t != alert_t:
            message = (f"{len(failures)} of {len(alerts)} alerts exceeded the failure threshold "
                       f"`{gab_float(fail_t)}` specified by fail-threshold input:\n\n{message}")
        raise StepFailed(message)


def act_benchmark(ctx):
    """benchmark-action/github-action-benchmark with external-data-json-path (v1.22.0,
    src/write.ts writeBenchmark): read the output file, append to the data file, then
    summary and alerts only when there is a previous suite of another commit."""
    c = gab_config(ctx)
    with open(c["out_path"], encoding="utf-8", errors="replace") as f:
        text = f.read()
    benches = gab_results(c["out_path"], text)
    if not benches:
        raise StepFailed(f"No benchmark result was found in {c['out_path']}. Benchmark output was '{text}'")
    bench = {"commit": ctx.r.payload_commit(c["token"]), "date": int(time.time() * 1000), "tool": c["tool"],
             "benches": benches}
    prev, cur = gab_append(ctx, c, bench)
    if prev is None:
        ctx.info("no previous benchmark result: no comparison, summary or alert (the first entry of the series)")
    else:
        gab_report(ctx, c, prev, cur)
    ctx.info("github-action-benchmark was run successfully!")


def _uri(s):
    from urllib.parse import quote
    return quote(s, safe="-_.!~*'()")


def act_bencher(ctx):
    ctx.info("would install the bencher CLI (bencherdev/bencher's pinned version) and put it on the PATH; "
             "offline, a rehearsal installs nothing: a later `bencher` command fails unless one is installed")


def not_rehearsable(why):
    def act(ctx):
        raise StepFailed(why)
    return act


ACTIONS = {  # name -> (simulation, input defaults)
    "actions/checkout": (act_checkout, {}),
    "actions/cache": (act_cache, CACHE_DEFAULTS),
    "actions/cache/restore": (act_cache_restore, CACHE_DEFAULTS),
    "actions/cache/save": (act_cache_save, {}),
    "actions/upload-artifact": (act_upload_artifact, {"name": "artifact", "if-no-files-found": "warn",
                                                      "overwrite": "false", "include-hidden-files": "false"}),
    "benchmark-action/github-action-benchmark": (act_benchmark, GAB_DEFAULTS),
    "bencherdev/bencher": (act_bencher, {"version": "latest"}),
    "github/codeql-action/upload-sarif": (not_rehearsable(
        "github/codeql-action/upload-sarif uploads to GitHub code scanning: not rehearsable"), {}),
}


def action_for(uses):
    if uses.startswith("docker://"):
        return not_rehearsable(f"{uses}: a container action is not rehearsable"), {}
    if uses.startswith("./") or uses.startswith("../"):
        return not_rehearsable(f"{uses}: a local action is not rehearsable"), {}
    name = uses.split("@", 1)[0].strip().rstrip("/").lower()
    if name.startswith("google/clusterfuzzlite/"):
        return not_rehearsable(f"{name} runs ClusterFuzzLite's containers: not rehearsable"), {}
    if name in ACTIONS:
        return ACTIONS[name]
    return not_rehearsable(f"{name}: no simulation of this action"), {}


# ==================================================================== the workflow ==
class Step:
    def __init__(self, index, raw):
        self.index, self.raw = index, raw
        self.id = raw.get("id")
        self.post = False


class Rehearsal:
    def __init__(self, args, workflow_path, wf, job_id, job, state, root):
        self.args, self.workflow_path, self.wf, self.job_id, self.job = args, workflow_path, wf, job_id, job
        self.state, self.root = state, root
        self.secrets = dict(args.secret_pairs)
        self.cache_state, self.posts, self.artifacts = {}, [], []
        self.steps_ctx, self.status, self.cancelled = {}, "success", False
        self.server_url = "https://github.com"
        self.workflow_name = to_str(wf.get("name")) or self.workflow_file()
        self.event = args.event
        self.ref = args.ref or ("refs/pull/1/merge" if self.event == "pull_request" else "refs/heads/main")
        self.github_env = {}
        self.github_path = []
        self.env_for_actions = {}

    def workflow_file(self):
        """The workflow's path in the repository (a file from elsewhere: as if it were in
        .github/workflows/)."""
        rel = os.path.relpath(self.workflow_path, self.root)
        return rel if not rel.startswith("..") else f".github/workflows/{os.path.basename(self.workflow_path)}"

    # ---------------------------------------------------------------- expressions --
    def contexts(self, env):
        return {"github": self.github_ctx, "env": env, "secrets": self.secrets_ctx, "matrix": self.matrix,
                "steps": self.steps_ctx, "runner": self.runner_ctx, "job": {"status": self.job_status()},
                "strategy": self.strategy_ctx, "inputs": self.inputs_ctx, "vars": {}}

    def job_status(self):
        return "cancelled" if self.cancelled else self.status

    def evaluator(self, env):
        return Evaluator(self.contexts(env), self.job_status, self.hash_files)

    def hash_files(self, patterns):
        if self.workspace is None:  # before the clone: the job's strategy, where GitHub has no hashFiles()
            raise ExprError("hashFiles() is not available here (GitHub has it in a job's steps, not its strategy)")
        return hash_files(self.workspace, patterns)

    def value(self, v, env, where):
        """A workflow value: a string with ${{ }} evaluated (alone: the value itself)."""
        if not isinstance(v, str) or "${{" not in v:
            return v
        try:
            parts = template_parts(v)
            ev = self.evaluator(env)
            if len(parts) == 3 and not parts[0][1].strip() and not parts[2][1].strip() and parts[1][0]:
                return ev.eval(parse_expression(parts[1][1]))
            return "".join(to_str(ev.eval(parse_expression(t))) if is_expr else t for is_expr, t in parts)
        except ExprError as e:
            raise BadInput(where, str(e)) from None

    def text(self, v, env, where):
        return to_str(self.value(v, env, where)) if v is not None else ""

    def condition(self, cond, env, where, default="success()"):
        """An `if`: its ${{ }} optional; success() && (...) unless it names a status function."""
        if cond is None:
            cond = default
        if isinstance(cond, bool):
            return cond
        if isinstance(cond, (int, float)):
            return truthy(cond)
        text = str(cond).strip()
        try:
            parts = template_parts(text) if "${{" in text else [(True, text)]
            if len(parts) == 3 and not parts[0][1].strip() and not parts[2][1].strip() and parts[1][0]:
                parts = [(True, parts[1][1])]
            if len(parts) != 1:
                return truthy(self.value(text, env, where))
            node = parse_expression(parts[0][1])
            if not any(k == "call" and n in STATUS_FUNCTIONS for k, n in names_in(node, set())):
                node = ("bin", "&&", ("call", "success", []), node)
            return truthy(self.evaluator(env).eval(node))
        except ExprError as e:
            raise BadInput(where, str(e)) from None

    # ------------------------------------------------------------------ set-up --
    def setup(self, workspace, temp, sha, run_id, matrix, job_of, commit_info):
        self.workspace, self.temp, self.sha, self.run_id, self.matrix = workspace, temp, sha, run_id, matrix
        self.commit_info = commit_info
        self.repository = repository_of(self.root)
        self.run_dir = os.path.join(self.state.root, "runs", f"run-{run_id}", self.job_id)
        os.makedirs(self.run_dir, exist_ok=True)
        self.summary_path = os.path.join(self.run_dir, "summary.md")
        open(self.summary_path, "w").close()
        on = self.wf.get("on", self.wf.get(True))
        dispatch = (on.get("workflow_dispatch") or {}) if isinstance(on, dict) else {}
        inputs = (dispatch.get("inputs") or {}) if self.event == "workflow_dispatch" else {}
        self.inputs_ctx = {str(k): to_str((v or {}).get("default", "")) for k, v in inputs.items()}
        self.payload = self.make_payload()
        self.event_path = os.path.join(temp, "_github_workflow", "event.json")
        os.makedirs(os.path.dirname(self.event_path), exist_ok=True)
        with open(self.event_path, "w") as f:
            json.dump(self.payload, f, indent=2)
        self.github_ctx = self.make_github_ctx()
        self.secrets_ctx = {"GITHUB_TOKEN": self.github_ctx["token"], **self.secrets}
        self.runner_ctx = {"os": "Linux", "arch": "X64", "name": "rehearsal", "temp": temp,
                           "tool_cache": os.path.join(os.path.dirname(temp), "_tool"), "debug": "",
                           "environment": "github-hosted"}
        # job_of: the combination's 0-based index among the matrix's and their number;
        # max-parallel is that number unless set (docs.github.com, contexts#strategy-context:
        # the last job of four is job-index 3, job-total 4, max-parallel 4); a job without a
        # matrix: 0, 1, 1.
        strategy = self.job.get("strategy") or {}
        job_index, job_total = job_of
        self.strategy_ctx = {"fail-fast": strategy.get("fail-fast", True), "job-index": job_index,
                             "job-total": job_total, "max-parallel": strategy.get("max-parallel", job_total)}
        home = os.path.join(os.path.dirname(temp), "home")
        os.makedirs(home, exist_ok=True)
        self.base_env = self.make_base_env(home)
        self.env_for_actions = self.base_env
        self.workflow_env = {}
        for k, v in (self.wf.get("env") or {}).items():
            self.workflow_env[str(k)] = self.text(v, dict(self.workflow_env), f"env.{k}")
        self.job_env = {}
        for k, v in (self.job.get("env") or {}).items():
            self.job_env[str(k)] = self.text(v, {**self.workflow_env, **self.job_env}, f"jobs.{self.job_id}.env.{k}")

    def make_github_ctx(self):
        """The github context of the job's expressions (after setup's payload and paths)."""
        ref_name = re.sub(r"^refs/(heads|tags)/", "", self.ref)
        return {
            "sha": self.sha, "ref": self.ref, "ref_name": ref_name,
            "ref_type": "tag" if self.ref.startswith("refs/tags/") else "branch",
            "run_id": str(self.run_id), "run_number": str(self.run_id), "run_attempt": "1", "event_name": self.event,
            "event": self.payload, "event_path": self.event_path, "workspace": self.workspace,
            "token": "ghs_rehearsalDummyToken000000000000000", "repository": self.repository,
            "repository_owner": self.repository.split("/")[0], "job": self.job_id, "workflow": self.workflow_name,
            "actor": "rehearsal", "triggering_actor": "rehearsal", "server_url": self.server_url,
            "api_url": "https://api.github.com", "graphql_url": "https://api.github.com/graphql",
            "head_ref": "rehearsal" if self.event == "pull_request" else "",
            "base_ref": "main" if self.event == "pull_request" else "", "action": "", "retention_days": "90",
            "workflow_ref": f"{self.repository}/{self.workflow_file()}@{self.ref}",
            "path": "", "env": "", "output": "", "step_summary": self.summary_path,
        }

    def make_base_env(self, home):
        """The environment every step starts from: this process's without its GITHUB_*,
        RUNNER_*, ACTIONS_* and CI, then the runner's variables of this job."""
        g, temp = self.github_ctx, self.temp
        base = {k: v for k, v in os.environ.items()
                if not (k.startswith("GITHUB_") or k.startswith("RUNNER_") or k.startswith("ACTIONS_") or k == "CI")}
        base.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": self.workspace, "GITHUB_SHA": self.sha,
            "GITHUB_REF": self.ref, "GITHUB_REF_NAME": g["ref_name"], "GITHUB_REF_TYPE": g["ref_type"],
            "GITHUB_EVENT_NAME": self.event, "GITHUB_EVENT_PATH": self.event_path, "GITHUB_RUN_ID": str(self.run_id),
            "GITHUB_RUN_NUMBER": str(self.run_id), "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REPOSITORY": self.repository,
            "GITHUB_REPOSITORY_OWNER": g["repository_owner"], "GITHUB_JOB": self.job_id,
            "GITHUB_WORKFLOW": self.workflow_name,
            "GITHUB_WORKFLOW_REF": g["workflow_ref"], "GITHUB_ACTOR": "rehearsal",
            "GITHUB_TRIGGERING_ACTOR": "rehearsal", "GITHUB_SERVER_URL": self.server_url,
            "GITHUB_API_URL": "https://api.github.com", "GITHUB_GRAPHQL_URL": "https://api.github.com/graphql",
            "GITHUB_HEAD_REF": g["head_ref"], "GITHUB_BASE_REF": g["base_ref"],
            "GITHUB_RETENTION_DAYS": "90", "GITHUB_STEP_SUMMARY": self.summary_path,
            "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_NAME": "rehearsal", "RUNNER_TEMP": temp,
            "RUNNER_TOOL_CACHE": self.runner_ctx["tool_cache"], "RUNNER_ENVIRONMENT": "github-hosted",
            # The job's own HOME (a container job's is /github/home): a step's `git config
            # --global` or cache under ~ stays in the rehearsal, never in the user's home.
            "HOME": home,
        })
        return base

    def make_payload(self):
        c = self.commit_info
        repo = {"full_name": self.repository, "name": self.repository.split("/")[-1],
                "html_url": f"{self.server_url}/{self.repository}", "owner": {"login": self.repository.split("/")[0]},
                "private": False, "default_branch": "main"}
        head = {"id": self.sha, "tree_id": c["tree"], "distinct": True, "message": c["message"],
                "timestamp": c["timestamp"], "url": f"{self.server_url}/{self.repository}/commit/{self.sha}",
                "author": {"name": c["author_name"], "email": c["author_email"]},
                "committer": {"name": c["committer_name"], "email": c["committer_email"]},
                "added": [], "removed": [], "modified": []}
        if self.event == "push":
            return {"ref": self.ref, "before": c["parent"], "after": self.sha, "created": False, "deleted": False,
                    "forced": False, "compare": f"{self.server_url}/{self.repository}/compare", "commits": [head],
                    "head_commit": head, "repository": repo, "pusher": {"name": "rehearsal"}, "sender": {"login": "rehearsal"}}
        if self.event == "pull_request":
            pr = {"number": 1, "title": c["message"].split("\n")[0], "html_url": f"{self.server_url}/{self.repository}/pull/1",
                  "head": {"sha": self.sha, "ref": "rehearsal", "user": {"login": "rehearsal"},
                           "repo": {**repo, "updated_at": c["timestamp"]}},
                  "base": {"sha": c["parent"], "ref": "main", "repo": repo}}
            return {"action": "synchronize", "number": 1, "pull_request": pr, "repository": repo, "sender": {"login": "rehearsal"}}
        return {"ref": self.ref, "inputs": self.inputs_ctx, "repository": repo,
                "workflow": self.workflow_file(), "sender": {"login": "rehearsal"}}

    def payload_commit(self, token):
        """github-action-benchmark's commit: the push's head_commit, a pull request's head,
        or (with a token) the API's commit of the ref."""
        if self.payload.get("head_commit"):
            return copy.deepcopy(self.payload["head_commit"])
        pr = self.payload.get("pull_request")
        if pr:
            user = {"name": pr["head"]["user"]["login"], "username": pr["head"]["user"]["login"]}
            return {"author": user, "committer": user, "id": pr["head"]["sha"], "message": pr["title"],
                    "timestamp": pr["head"]["repo"]["updated_at"], "url": f"{pr['html_url']}/commits/{pr['head']['sha']}"}
        if not token:
            raise StepFailed(f"No commit information is found in payload: {json.dumps(self.payload, indent=2)}. Also, no "
                             "'github-token' provided, could not fallback to GitHub API Request.")
        c = self.commit_info
        return {"author": {"name": c["author_name"], "email": c["author_email"]},
                "committer": {"name": c["committer_name"], "email": c["committer_email"]},
                "id": self.sha, "message": c["message"], "timestamp": c["timestamp"],
                "url": f"{self.server_url}/{self.repository}/commit/{self.sha}"}

    def add_post(self, step, fn, post_if):
        self.posts.append((step, fn, post_if))

    # ---------------------------------------------------------------- the steps --
    def step_name(self, step, env):
        raw = step.raw
        if raw.get("name") is not None:
            return self.text(raw["name"], env, f"step {step.index} name")
        if raw.get("run") is not None:
            return "Run " + str(raw["run"]).strip().split("\n")[0]
        return "Run " + str(raw.get("uses"))

    def step_env(self, step):
        env = {**self.workflow_env, **self.job_env, **self.github_env}
        for k, v in (step.raw.get("env") or {}).items():
            env[str(k)] = self.text(v, dict(env), f"step {step.index} env.{k}")
        return env

    def run_job(self):
        steps = [Step(i + 1, s) for i, s in enumerate(self.job.get("steps") or [])]
        n = len(steps)
        job_env = {**self.workflow_env, **self.job_env}
        job_timeout = self.value(self.job.get("timeout-minutes", 360), job_env, f"jobs.{self.job_id}.timeout-minutes")
        deadline = time.monotonic() + to_num(job_timeout) * 60
        for step in steps:
            self.run_step(step, n, deadline)
        for step, fn, post_if in reversed(self.posts):
            self.run_post(step, fn, post_if)
        return self.job_status()

    def replaced(self, step, table):
        for key in (None if step.id is None else str(step.id), str(step.index)):
            if key is not None and key in table:
                return key
        return None

    def run_step(self, step, n, deadline):
        raw = step.raw
        env = self.step_env(step)
        name = self.step_name(step, env)
        label = f"[{step.index}/{n}] {name}"
        key = self.replaced(step, self.args.skip_set)
        if key is not None:
            self.finish(step, label, "skipped", "skipped", 0.0, why="--skip")
            return
        where = f"step {step.index} ({name}) if"
        if time.monotonic() > deadline and not self.cancelled:
            self.cancelled = True
            print("  the job's timeout-minutes passed: cancelled", flush=True)
        if not self.condition(raw.get("if"), env, where):
            self.finish(step, label, "skipped", "skipped", 0.0)
            return
        coe = truthy(self.value(raw.get("continue-on-error", False), env, f"step {step.index} continue-on-error"))
        timeout = self.value(raw.get("timeout-minutes"), env, f"step {step.index} timeout-minutes")
        limit = deadline - time.monotonic()
        if timeout is not None:
            limit = min(limit, to_num(timeout) * 60)
        log = os.path.join(self.run_dir, f"step-{step.index:02d}.log")
        t0 = time.monotonic()
        rkey = self.replaced(step, self.args.replace_map)
        outputs = {}
        if rkey is not None or raw.get("run") is not None:
            script = self.args.replace_map[rkey] if rkey is not None else self.text(raw["run"], env, f"step {step.index} run")
            ok, outputs, timed_out = self.run_script(step, script, env, log, limit)
            how = f"--replace {rkey}" if rkey is not None else ""
        else:
            ok, outputs = self.run_action(step, env, log)
            how, timed_out = "", False
        if timed_out:
            how = (how + ", " if how else "") + "timed out"
        if time.monotonic() >= deadline:
            self.cancelled = True  # the job's timeout-minutes: what is left runs as if cancelled
        outcome = "success" if ok else "failure"
        conclusion = "success" if ok or coe else "failure"
        if not ok and coe:
            how = (how + ", " if how else "") + "continue-on-error"
        self.finish(step, label, outcome, conclusion, time.monotonic() - t0, why=how, log=log, outputs=outputs)

    def finish(self, step, label, outcome, conclusion, seconds, why="", log=None, outputs=None):
        if step.id is not None and not step.post:
            self.steps_ctx[str(step.id)] = {"outcome": outcome, "conclusion": conclusion, "outputs": outputs or {}}
        if conclusion == "failure":
            self.status = "failure"
        extra = f", {why}" if why else ""
        print(f"{label}: {outcome} ({seconds:.1f} s{extra})", flush=True)
        if log and os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                lines = f.read().rstrip("\n").split("\n")
            if self.args.verbose:
                for line in lines:
                    print("    | " + self.mask(line))
            notes = [x for x in lines if re.match(r"::(error|warning|notice)( |::)", x)]
            for x in notes[:8]:
                print("    " + self.mask(x)[:300])
            if len(notes) > 8:
                print(f"    ({len(notes) - 8} more annotations in {log})")
            if outcome == "failure" and not self.args.verbose:
                tail = [x for x in lines if x.strip()][-TAIL_LINES:]
                for x in tail:
                    if x not in notes:
                        print("    | " + self.mask(x)[:300])
        sys.stdout.flush()

    def mask(self, text):
        for v in self.secrets.values():
            if v:
                text = text.replace(v, "***")
        return text

    def step_files(self, step):
        d = os.path.join(self.temp, "_runner_file_commands")
        os.makedirs(d, exist_ok=True)
        files = {}
        for k in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"):
            files[k] = os.path.join(d, f"{k.lower()}_{step.index}{'_post' if step.post else ''}")
            open(files[k], "w").close()
        return files

    def process_env(self, step, env, files):
        e = dict(self.base_env)
        e.update(env)
        e.update(files)
        e["GITHUB_ACTION"] = str(step.id) if step.id else f"__run_{step.index}"
        if self.github_path:
            e["PATH"] = os.pathsep.join(reversed(self.github_path)) + os.pathsep + e.get("PATH", "")
        return e

    def shell_command(self, step, script_path, path=None):
        """The step's command line; its programs found on `path`, the step's PATH
        (GITHUB_PATH's folders first), as the runner finds them."""
        shell = step.raw.get("shell")
        if shell is None:
            shell = ((self.job.get("defaults") or {}).get("run") or {}).get("shell")
        if shell is None:
            shell = ((self.wf.get("defaults") or {}).get("run") or {}).get("shell")
        if shell is None:
            return ["bash", "-e", script_path] if shutil.which("bash", path=path) else ["sh", "-e", script_path]
        shell = str(shell)
        builtin = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", "{0}"], "sh": ["sh", "-e", "{0}"],
                   "python": ["python" if shutil.which("python", path=path) else "python3", "{0}"]}
        if shell in builtin:
            argv = builtin[shell]
        elif shell in ("pwsh", "powershell", "cmd"):
            raise BadInput(f"step {step.index} shell", f"{shell}: not on this machine (a Linux rehearsal)")
        else:
            argv = shlex.split(shell)
            if "{0}" not in shell:
                argv.append("{0}")
        return [a.replace("{0}", script_path) for a in argv]

    def working_directory(self, step, env):
        wd = step.raw.get("working-directory")
        if wd is None:
            wd = ((self.job.get("defaults") or {}).get("run") or {}).get("working-directory")
        if wd is None:
            wd = ((self.wf.get("defaults") or {}).get("run") or {}).get("working-directory")
        return os.path.join(self.workspace, self.text(wd, env, f"step {step.index} working-directory")) if wd else self.workspace

    def run_script(self, step, script, env, log, limit):
        files = self.step_files(step)
        ext = ".py" if str(step.raw.get("shell")) == "python" else ".sh"
        script_path = os.path.join(self.temp, f"step-{step.index}{ext}")
        with open(script_path, "w") as f:
            f.write(script)
        cwd = self.working_directory(step, env)
        timed_out = False
        with open(log, "w") as out:
            if not os.path.isdir(cwd):
                out.write(f"Error: An error occurred trying to start process: working directory '{cwd}' does not exist\n")
                return False, {}, False
            penv = self.process_env(step, env, files)
            p = subprocess.Popen(self.shell_command(step, script_path, penv.get("PATH")), cwd=cwd, env=penv,
                                 stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                rc = p.wait(timeout=max(limit, 0.01))
            except subprocess.TimeoutExpired:
                timed_out = True
                stop_group(p)
                rc = -1
                out.write("\n##[error]The action has timed out.\n")
            except BaseException:
                stop_group(p)
                raise
        ok = rc == 0
        if not ok and not timed_out:
            with open(log, "a") as out:
                out.write(f"##[error]Process completed with exit code {rc}.\n")
        outputs, problem = self.apply_files(step, files)
        if problem:
            with open(log, "a") as out:
                out.write(f"::error::{escape_data(problem)}\n")
            ok = False
        return ok, outputs, timed_out

    def apply_files(self, step, files):
        """The step's GITHUB_OUTPUT (its outputs), GITHUB_ENV and GITHUB_PATH (for the
        later steps) and its summary (appended to the job's)."""
        outputs, problem = {}, None
        try:
            for k, v in parse_file_command(files["GITHUB_OUTPUT"]):
                outputs[k] = v
            for k, v in parse_file_command(files["GITHUB_ENV"]):
                self.github_env[k] = v
        except FileCommandError as e:
            problem = f"Unable to process file command successfully: {e}"
        with open(files["GITHUB_PATH"], encoding="utf-8", errors="replace") as f:
            for line in f.read().split("\n"):
                if line.strip():
                    if line in self.github_path:
                        self.github_path.remove(line)
                    self.github_path.append(line)
        with open(files["GITHUB_STEP_SUMMARY"], encoding="utf-8", errors="replace") as f:
            self.append_summary(f.read())
        return outputs, problem

    def append_summary(self, text):
        if text:
            with open(self.summary_path, "a", encoding="utf-8") as f:
                f.write(text)

    def run_action(self, step, env, log):
        uses = str(step.raw["uses"]).strip()
        fn, defaults = action_for(uses)
        inputs = {str(k): self.text(v, env, f"step {step.index} with.{k}") for k, v in (step.raw.get("with") or {}).items()}
        ctx = ActionContext(self, step, inputs, defaults)
        self.env_for_actions = {**self.base_env, **env}
        return self.call_action(ctx, fn, log)

    def call_action(self, ctx, fn, log):
        ok = True
        try:
            fn(ctx)
        except StepFailed as e:
            ctx.lines.append("::error::" + escape_data(str(e)))
            ok = False
        except OSError as e:
            ctx.lines.append("::error::" + escape_data(f"{e.filename or ''}: {(e.strerror or str(e)).lower()}"))
            ok = False
        self.append_summary(ctx.summary)
        with open(log, "w") as f:
            f.write("\n".join(ctx.lines) + "\n")
        return ok, dict(ctx.outputs)

    def run_post(self, step, fn, post_if):
        env = self.step_env(step)
        name = "Post " + self.step_name(step, env)
        label = f"[post {step.index}] {name}"
        post = Step(step.index, step.raw)
        post.post = True
        if not self.condition(post_if, env, f"step {step.index} post-if"):
            self.finish(post, label, "skipped", "skipped", 0.0, why="post-if: " + post_if)
            return
        t0 = time.monotonic()
        ctx = ActionContext(self, post, {}, {})
        self.env_for_actions = {**self.base_env, **env}
        log = os.path.join(self.run_dir, f"step-{step.index:02d}-post.log")
        ok, _ = self.call_action(ctx, fn, log)
        self.finish(post, label, "success" if ok else "failure", "success" if ok else "failure",
                    time.monotonic() - t0, log=log)


def stop_group(p):
    """Ends the process group this rehearsal started for a step (TERM, then KILL)."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


# ======================================================================= git ==
def git(root, *args, env=None, check=True):
    p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if check and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:2])}: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'exit ' + str(p.returncode)}")
    return p.stdout.strip()


def repo_root():
    """The checkout this script is in, or Skip."""
    if not shutil.which("git"):
        raise Skip("git is not installed")
    p = subprocess.run(["git", "-C", os.path.dirname(HERE), "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        raise Skip(f"{os.path.dirname(HERE)} is not in a git checkout")
    return p.stdout.strip()


def repository_of(root):
    url = git(root, "remote", "get-url", "origin", check=False)
    m = re.search(r"github\.com[:/]+([^/]+)/([^/]+?)(?:\.git)?/?$", url)
    return f"{m.group(1)}/{m.group(2)}" if m else f"local/{os.path.basename(root)}"


def identity_env():
    env = dict(os.environ)
    for who in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{who}_NAME", "neffbar rehearsal")
        env.setdefault(f"GIT_{who}_EMAIL", "rehearsal@localhost")
    return env


def snapshot(root, run_id):
    """A commit object of the working tree as it is (tracked, changed, untracked and not
    ignored), its parent HEAD; made with a temporary index, no ref changed."""
    with tempfile.TemporaryDirectory(prefix="ci-rehearse-index-") as t:
        index = os.path.join(t, "index")
        real = git(root, "rev-parse", "--path-format=absolute", "--git-path", "index")
        if os.path.exists(real):
            shutil.copyfile(real, index)
        env = dict(os.environ, GIT_INDEX_FILE=index)
        git(root, "add", "-A", "--", ".", env=env)
        tree = git(root, "write-tree", env=env)
    head = git(root, "rev-parse", "--verify", "-q", "HEAD^{commit}", check=False)
    parents = ["-p", head] if head else []
    env = identity_env()
    if git(root, "var", "GIT_COMMITTER_IDENT", check=False):
        env = dict(os.environ)
    sha = git(root, "commit-tree", tree, *parents, "-m",
              f"rehearsal run {run_id} of the working tree\n\n(scripts/ci_rehearse.py: a commit object no ref points to)",
              env=env)
    return sha, head or "0" * 40


def clone(root, sha, workspace):
    """The checkout of `sha` in `workspace`: a local clone of the repository whose objects
    are shared (the alternates `git clone --shared` writes: the commit no ref points to is
    there too, from a worktree as well)."""
    os.makedirs(os.path.dirname(workspace), exist_ok=True)
    subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", root, workspace],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    common = git(root, "rev-parse", "--path-format=absolute", "--git-common-dir")
    shallow = os.path.join(common, "shallow")
    if os.path.exists(shallow):
        shutil.copyfile(shallow, os.path.join(workspace, ".git", "shallow"))
    git(workspace, "checkout", "--quiet", "--detach", sha)


def commit_info(root, sha, parent):
    fmt = "%T%x00%an%x00%ae%x00%cn%x00%ce%x00%aI%x00%B"
    tree, an, ae, cn, ce, date, msg = git(root, "show", "-s", f"--format={fmt}", sha).split("\x00", 6)
    return {"tree": tree, "author_name": an, "author_email": ae, "committer_name": cn, "committer_email": ce,
            "timestamp": date, "message": msg.strip(), "parent": parent}


# ================================================================== the checks ==
def walk_strings(node, where, out):
    if isinstance(node, str):
        out.append((where, node))
    elif isinstance(node, dict):
        for k, v in node.items():
            walk_strings(v, f"{where}.{k}", out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk_strings(v, f"{where}[{i}]", out)
    return out


def check_expressions(wf, job_id, job, path):
    """Every ${{ }} of the workflow's env and the job, and every `if`, parsed, and its
    functions and contexts known: a rehearsal that would meet an unknown one stops here."""
    strings = walk_strings({k: wf.get(k) for k in ("env", "concurrency", "run-name") if wf.get(k) is not None}, "", [])
    strings += walk_strings({k: v for k, v in job.items() if k != "steps"}, f"jobs.{job_id}", [])
    ifs = []
    for i, s in enumerate(job.get("steps") or [], 1):
        label = f"jobs.{job_id}.steps[{i}]" + (f" ({s['id']})" if isinstance(s, dict) and s.get("id") else "")
        if not isinstance(s, dict):
            raise BadInput(path, f"{label}: not a mapping")
        if ("run" in s) == ("uses" in s):
            raise BadInput(path, f"{label}: a step needs exactly one of run and uses")
        strings += walk_strings({k: v for k, v in s.items() if k != "if"}, label, [])
        if isinstance(s.get("if"), str):
            ifs.append((f"{label}.if", s["if"]))
    if isinstance(job.get("if"), str):
        ifs.append((f"jobs.{job_id}.if", job["if"]))
    for where, text in strings + ifs:
        try:
            exprs = [t for is_expr, t in template_parts(text) if is_expr] if "${{" in text else []
            if (where, text) in ifs and "${{" not in text:
                exprs = [text]
            for e in exprs:
                check_names(parse_expression(e))
        except ExprError as e:
            raise BadInput(path, f"{where}: {e}") from None


def matrix_combinations(rehearsal_value, matrix):
    if not matrix:
        return [{}]
    if isinstance(matrix, str):
        matrix = rehearsal_value(matrix)
    if not isinstance(matrix, dict):
        raise ExprError("strategy.matrix is not a mapping")
    base = {k: rehearsal_value(v) for k, v in matrix.items() if k not in ("include", "exclude")}
    for k, v in base.items():
        if not isinstance(v, list):
            raise ExprError(f"strategy.matrix.{k} is not a list")
    combos = [dict(zip(base, vals)) for vals in itertools.product(*base.values())] if base else []
    for ex in rehearsal_value(matrix.get("exclude")) or []:
        combos = [c for c in combos if not all(loose_eq(c.get(k), v) for k, v in ex.items())]
    originals = [dict(c) for c in combos]
    for inc in rehearsal_value(matrix.get("include")) or []:
        fits = [i for i, o in enumerate(originals) if all(k not in o or loose_eq(o[k], v) for k, v in inc.items())]
        if fits:
            for i in fits:
                combos[i].update(inc)
        else:
            combos.append(dict(inc))
    return combos


def pick_job(wf, job_name, path):
    jobs = wf.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        raise BadInput(path, "no jobs")
    if job_name is None:
        if len(jobs) != 1:
            raise BadInput(path, f"{len(jobs)} jobs, pick one with --job: {', '.join(map(str, jobs))}")
        job_name = next(iter(jobs))
    if job_name not in jobs:
        raise BadInput(path, f"no job {job_name!r} (--job): {', '.join(map(str, jobs))}")
    job = jobs[job_name]
    if not isinstance(job, dict):
        raise BadInput(path, f"jobs.{job_name}: not a mapping")
    if "uses" in job:
        raise BadInput(path, f"jobs.{job_name} calls a reusable workflow ({job['uses']}): not rehearsable")
    if not isinstance(job.get("steps"), list) or not job["steps"]:
        raise BadInput(path, f"jobs.{job_name}: no steps")
    return job_name, job


def load_yaml(text):
    """The workflow as GitHub reads it (YAML 1.2's core schema): only true/false (any
    case of those) are booleans, so `on`, `yes`, `no`, `off` stay strings (PyYAML's
    YAML 1.1 would make `on` the key True and `fail-on-alert: yes` a boolean)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass
    Loader.yaml_implicit_resolvers = {
        k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))
    return yaml.load(text, Loader=Loader)


def triggers(wf):
    on = wf.get("on", wf.get(True))
    if isinstance(on, str):
        return [on]
    if isinstance(on, list):
        return [str(x) for x in on]
    if isinstance(on, dict):
        return [str(x) for x in on]
    return []


def pairs(values, option, parser):
    out = []
    for v in values or []:
        k, sep, rest = v.partition("=")
        if not sep or not k:
            parser.error(f"{option} {v!r}: expected NAME=VALUE")
        out.append((k, rest))
    return out


def parse_args(argv):
    p = Parser(PROG, __doc__)
    p.add_argument("workflow", metavar="WORKFLOW")
    p.add_argument("--job")
    p.add_argument("--matrix", action="append", metavar="KEY=VALUE")
    p.add_argument("--event", choices=EVENTS, default="push")
    p.add_argument("--ref")
    p.add_argument("--sha", metavar="SHA")
    p.add_argument("--secret", action="append", metavar="NAME=VALUE")
    p.add_argument("--replace", action="append", metavar="STEP=COMMAND")
    p.add_argument("--skip", action="append", metavar="STEP")
    p.add_argument("--state", metavar="DIR")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args(argv[1:])
    a.secret_pairs = pairs(a.secret, "--secret", p)
    a.replace_map = dict(pairs(a.replace, "--replace", p))
    a.matrix_pairs = pairs(a.matrix, "--matrix", p)
    a.skip_set = set(a.skip or [])
    if a.ref is not None and not a.ref.startswith("refs/"):
        p.error(f"--ref {a.ref!r}: expected refs/heads/..., refs/tags/... or refs/pull/...")
    if a.sha is not None and not re.fullmatch(r"[0-9a-f]{7,64}", a.sha):
        p.error(f"--sha {a.sha!r}: expected a hexadecimal commit id")
    return a


def read_workflow(a):
    """The workflow file, its --event checked, --job picked, its expressions, --replace
    and --skip checked: (its absolute path, the workflow, the job's id, the job)."""
    try:
        import yaml
    except ImportError:
        raise Skip("PyYAML is not installed (python3-yaml)") from None
    path = os.path.abspath(a.workflow)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        wf = load_yaml(text)
    except yaml.YAMLError as e:
        raise BadInput(path, f"not YAML: {str(e).splitlines()[0]}") from None
    if not isinstance(wf, dict):
        raise BadInput(path, "not a workflow (no mapping)")
    on = triggers(wf)
    if a.event not in on:
        raise BadInput(path, f"does not run on {a.event} (--event; on: {', '.join(on) or 'nothing'})")
    job_id, job = pick_job(wf, a.job, path)
    check_expressions(wf, job_id, job, path)
    steps = job["steps"]
    known = {str(s.get("id")) for s in steps if s.get("id") is not None} | {str(i) for i in range(1, len(steps) + 1)}
    for option, keys in (("--replace", a.replace_map), ("--skip", a.skip_set)):
        for k in keys:
            if k not in known:
                ids = sorted(x for x in known if not x.isdigit())
                raise BadInput(option, f"no step {k!r} in jobs.{job_id} (ids: {', '.join(ids) or 'none'}; or 1..{len(steps)})")
    return path, wf, job_id, job


def choose_combination(r):
    """The --matrix combination of the job's matrix (its expressions evaluated with the
    contexts empty, as before the job's set-up): (the combination, (its index, how many))."""
    a, job_id, job = r.args, r.job_id, r.job
    r.secrets_ctx, r.github_ctx, r.runner_ctx, r.strategy_ctx, r.inputs_ctx = {}, {}, {}, {}, {}
    r.matrix = {}
    r.workspace = None
    pre_env = {}
    combos = matrix_combinations(lambda v: r.value(v, pre_env, f"jobs.{job_id}.strategy.matrix"),
                                 (job.get("strategy") or {}).get("matrix"))
    chosen = [i for i, c in enumerate(combos) if all(k in c and to_str(c[k]) == v for k, v in a.matrix_pairs)]
    if not chosen:
        shown_combos = "; ".join(", ".join(f"{k}={to_str(v)}" for k, v in c.items()) for c in combos)
        raise BadInput("--matrix", f"no combination of jobs.{job_id}'s matrix has {' '.join(a.matrix)}: {shown_combos}")
    return combos[chosen[0]], (chosen[0], len(combos))


def announce(r):
    """Print what is rehearsed (and what of the job is not simulated); the job's name."""
    job, job_id, path, root = r.job, r.job_id, r.workflow_path, r.root
    job_name = r.text(job.get("name"), {**r.workflow_env, **r.job_env}, f"jobs.{job_id}.name") or \
        (job_id + (f" ({', '.join(to_str(v) for v in r.matrix.values())})" if r.matrix else ""))
    print(f"rehearsal: {os.path.relpath(path, root) if path.startswith(root + '/') else path} job {job_name} "
          f"(run {r.run_id}, commit {r.sha}, {r.event} to {r.ref})", flush=True)
    for key in ("container", "services"):
        if job.get(key):
            what = job[key] if isinstance(job[key], str) else (job[key].get("image") if key == "container" and isinstance(job[key], dict) else ", ".join(job[key]))
            print(f"  note: {key} {what} is not simulated: the steps run on this machine", flush=True)
    return job_name


def conclude(r, job_name, status, workspace):
    """Print the job's conclusion and where its records are; the exit status."""
    conclusion = "success" if status == "success" else "failure" if status == "failure" else "cancelled"
    print(f"job {job_name}: {conclusion}")
    print(f"  step summary: {r.summary_path}" + ("" if os.path.getsize(r.summary_path) else " (empty)"))
    print(f"  step logs: {r.run_dir}")
    if r.artifacts:
        print(f"  artifacts: {os.path.join(r.state.root, 'artifacts', f'run-{r.run_id}')} ({', '.join(r.artifacts)})")
    if r.args.keep:
        print(f"  the clone: {workspace}")
    return EXIT_OK if conclusion == "success" else EXIT_FAIL


def main(argv):
    a = parse_args(argv)
    path, wf, job_id, job = read_workflow(a)
    root = repo_root()
    state = State(a.state or os.path.join(root, "out", "rehearse"))
    r = Rehearsal(a, path, wf, job_id, job, state, root)
    matrix, job_of = choose_combination(r)

    run_id = state.next_run()
    sha, parent = snapshot(root, run_id)
    tmp = tempfile.mkdtemp(prefix="ci-rehearse-")
    name = os.path.basename(root)
    workspace = os.path.join(tmp, "work", name, name)
    temp = os.path.join(tmp, "work", "_temp")
    os.makedirs(temp)
    try:
        clone(root, sha, workspace)
        info = commit_info(root, sha, parent)
        r.setup(workspace, temp, a.sha or sha, run_id, matrix, job_of, info)
        job_name = announce(r)
        if not r.condition(job.get("if"), {**r.workflow_env, **r.job_env}, f"jobs.{job_id}.if"):
            print(f"job {job_name}: skipped (its if)")
            return EXIT_OK
        return conclude(r, job_name, r.run_job(), workspace)
    finally:
        if not a.keep:
            shutil.rmtree(tmp, onerror=_force_remove)


def _force_remove(func, path, _exc):
    try:
        os.chmod(os.path.dirname(path), 0o700)
        os.chmod(path, 0o700)
        func(path)
    except OSError:
        pass


def _terminated(signum, _frame):
    """SIGTERM (a CI cancel, `timeout`, `kill`): unwind as Ctrl-C does, so that the step
    running in its own session is stopped too (run_step's handler), not left behind."""
    raise SystemExit(128 + signum)


def entry(argv):
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return run(PROG, main, argv)
    except Skip as e:
        print(f"{PROG}: SKIPPED: {shown(e)}")
        return EXIT_SKIP
    except RuntimeError as e:
        print(f"{PROG}: {shown(e)}", file=sys.stderr)
        return EXIT_BAD
    except subprocess.CalledProcessError as e:
        err = (e.stderr or b"").decode(errors="replace").strip().splitlines()
        print(f"{PROG}: {' '.join(map(str, e.cmd[:2]))}: {shown(err[-1] if err else 'exit ' + str(e.returncode))}",
              file=sys.stderr)
        return EXIT_BAD


if __name__ == "__main__":
    sys.exit(entry(sys.argv))
