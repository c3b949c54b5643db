"""The CI rehearsal's tests (pytest; ctest ci_rehearse_units, ci_rehearse_actions and
ci_rehearse, each a -k selection of this file).

.github/workflows/bench.yml's tracking path rehearsed for real
(./scripts/check-workflows --rehearse, scripts/ci_rehearse.py) on the working tree, in
a fresh state folder, with the benchmark step (30 minutes) replaced by one that plants
a run (bench/baselines/baseline.json, every instruction count scaled) and the package
steps (apt-get update, ./scripts/deps) skipped:

  run 1  counts x0.99: the first point, the series seeded, the gate passes, the job
         passes; the cache holds the series;
  run 2  counts x1.015: +2.53 % over run 1 and the committed baseline within 2 % of
         run 1 (so not an accepted change): bench-track alerts, the job fails in its
         last step, and the series is saved all the same with run 2's point (the cache
         entry's instructions.json: 2 entries, the last run 2's values and commit); the
         step summary shows the alert;
  run 3  x1.015 again, a new commit: compared with run 2 (the run that alerted), no
         alert, the job passes.

Each rehearsal is a new run and a new commit object (bench-track and
github-action-benchmark compare with the last entry of another commit).  The teeth: a
copy of bench.yml that restores with the combined actions/cache (it saves in a post
step, only when the job succeeded) and has no save step, rehearsed from run 1's state,
loses run 2's point: its run 3 alerts again, against run 1.  Before those, the
expression evaluator, the file commands and the usage errors in-process or without a
clone, and the github-action-benchmark simulation on a workflow of its own: with both
alert flags off it compares nothing (as the action's handleAlert returns first), with
fail-on-alert it warns and fails the step, summary-always writes the comparison,
max-items-in-chart trims the series; a data file that is not JSON starts it empty and
the previous suite is the last of another commit.  A planted workflow whose steps each
fail unless their feature works (GITHUB_ENV, GITHUB_PATH, the shells, working-directory,
timeout-minutes, --job, --matrix, --ref, --sha, --secret, --keep, upload-artifact, the
actions that cannot be rehearsed), the caches (exact key, absolute paths, another path
list or ref, a key saved twice, the combined action's post step), exit 77 outside a
checkout, and bench.yml's other decisions (times only warn, the gate alone fails, a
re-recorded baseline accepted, a benchmark step that fails).

ctest runs them in three parts, so that scripts/mutate runs the part that reaches a
line: ci_rehearse_units in-process in a second, ci_rehearse_actions on planted
workflows, ci_rehearse on bench.yml; scripts_pytest leaves this file to them.  Skipped,
not failed, outside a git checkout or without PyYAML.
"""
import importlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

from lib.rehearsal.actions import ACTIONS
from lib.rehearsal.benchmark import gab_normalize, gab_percent
from lib.rehearsal.cache import CACHE_DEFAULTS, act_cache_restore, cache_version
from lib.rehearsal.evaluator import Evaluator
from lib.rehearsal.expressions import ExprError, check_names, parse_expression
from lib.rehearsal.file_commands import FileCommandError, parse_file_command
from lib.rehearsal.globs import glob_paths, hash_files, pattern_lines
from lib.rehearsal.job import Rehearsal
from lib.rehearsal.repository import Skip, git, repo_root, snapshot
from lib.rehearsal.simulation import ActionContext
from lib.rehearsal.state import State
from lib.rehearsal.steps import Step
from lib.rehearsal.workflow import load_yaml

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/
ROOT = os.path.dirname(HERE)
WORKFLOW = os.path.join(ROOT, ".github", "workflows", "bench.yml")
SERIES = "neffbar instructions per operation"


@pytest.fixture(autouse=True, scope="module")
def rehearsable():
    """Skips the module outside a git checkout or without PyYAML (what ci_rehearse needs)."""
    try:
        repo_root()
        importlib.import_module("yaml")
    except (Skip, ImportError) as e:
        pytest.skip(f"rehearsal: {e}")


def rehearse(workflow, state, args, env=None):
    """(exit code, output) of ./scripts/check-workflows --rehearse."""
    cmd = [os.path.join(HERE, "check-workflows"), "--rehearse", workflow, "--state", state, *args]
    p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600,
                       env=None if env is None else dict(os.environ, **env))
    return p.returncode, p.stdout + p.stderr


def header_sha(out):
    """The commit a rehearsal ran on (its first line names it)."""
    for line in out.split("\n"):
        if line.startswith("rehearsal: ") and ", commit " in line:
            return line.split(", commit ")[1].split(",")[0]
    return None


def step_line(out, name):
    return next((x for x in out.split("\n") if x.startswith("[") and f"] {name}" in x), "")


def entries(state):
    """The cache entries of a state folder, oldest first: [(meta, folder)]."""
    d = os.path.join(state, "cache")
    out = []
    for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if os.path.exists(os.path.join(d, n, "meta.json")):
            with open(os.path.join(d, n, "meta.json")) as f:
                out.append((json.load(f), os.path.join(d, n)))
    return out


def series_of(entry_dir):
    path = os.path.join(entry_dir, "ws", "out", "tracker", "instructions.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)["entries"].get(SERIES, [])


def summary_of(state, out):
    for line in out.split("\n"):
        if line.strip().startswith("step summary: "):
            path = line.split("step summary: ", 1)[1].split(" (empty)")[0]
            with open(path) as f:
                return f.read()
    return ""


def values(points):
    return {b["name"]: float(b["value"]) for b in points}


def same_values(a, b):
    return bool(a) and a.keys() == b.keys() and all(abs(a[k] - b[k]) <= 1e-9 * max(1.0, abs(b[k])) for k in a)


def plant(tmp, factor):
    """A run: the baseline with every instruction count x factor; and its export (what
    the series must hold)."""
    with open(os.path.join(ROOT, "bench", "baselines", "baseline.json")) as f:
        run = json.load(f)
    for b in run["benchmarks"]:
        if "instructions" in b:
            b["instructions"] = b["instructions"] * factor
    path = os.path.join(tmp, f"run-x{factor}.json")
    with open(path, "w") as f:
        json.dump(run, f)
    export = os.path.join(tmp, f"export-x{factor}.json")
    subprocess.run([os.path.join(HERE, "bench-export"), "--format", "gab", "--metric", "instructions", "-o", export, path],
                   check=True, capture_output=True)
    with open(export) as f:
        return path, values(json.load(f))


def package_steps(workflow):
    """The numbers of the steps that install packages (apt-get, ./scripts/deps)."""
    with open(workflow) as f:
        steps = next(iter(load_yaml(f.read())["jobs"].values()))["steps"]
    return [str(i) for i, s in enumerate(steps, 1)
            if "apt-get" in str(s.get("run", "")) or "./scripts/deps" in str(s.get("run", ""))]


# -------------------------------------------------------------- in-process checks --
def stub_rehearsal(root, event="push"):
    """A Rehearsal with empty contexts and no clone, for the in-process checks."""
    import types
    args = types.SimpleNamespace(secret_pairs=[], event=event, ref=None)
    r = Rehearsal(args, os.path.join(root, "wf.yml"), {}, "j", {}, State(os.path.join(root, "state")), root)
    r.github_ctx, r.secrets_ctx, r.matrix, r.runner_ctx, r.strategy_ctx, r.inputs_ctx = {}, {}, {}, {}, {}, {}
    r.workspace, r.run_id, r.repository, r.sha = root, 1, "o/neffbar", "c" * 40
    return r


def workspace(tmp):
    """A workspace of files for hashFiles, the globs and the actions: d/x.txt, d/e/y.txt,
    d/.h (hidden) and z.txt."""
    ws = os.path.join(tmp, "ws")
    os.makedirs(os.path.join(ws, "d", "e"))
    for name, text in (("d/x.txt", "x"), ("d/e/y.txt", "y"), ("d/.h", "h"), ("z.txt", "z")):
        with open(os.path.join(ws, name), "w") as f:
            f.write(text)
    return ws


def expression_evaluator():
    """An Evaluator over small contexts: a push to main, a failed step s with outputs, a
    matrix suite; hashFiles() is "H"."""
    ctx = {"github": {"sha": "abc", "event_name": "push", "event": {"pull_request": None}, "ref": "refs/heads/main"},
           "env": {"A": "x"}, "steps": {"s": {"outcome": "failure", "outputs": {"cache-hit": "true", "n": "3"}}},
           "matrix": {"suite": "quick"}, "secrets": {}, "runner": {}, "job": {}, "strategy": {}, "inputs": {}, "vars": {}}
    return Evaluator(ctx, lambda: "success", lambda pats: "H")


def test_units_expressions(check):
    """The expression evaluator's values: operators, functions, contexts."""
    ev = expression_evaluator()
    cases = [
        ("1 == 1.0", True), ("'ABC' == 'abc'", True), ("null == 0", True), ("'' == 0", True), ("'1' == 1", True),
        ("true && 'x'", "x"), ("0 || 'y'", "y"), ("!steps.none.outcome", True), ("steps.s.outputs['cache-hit']", "true"),
        ("steps.s.outputs.cache-hit != 'true'", False), ("github.event.pull_request.number || github.ref", "refs/heads/main"),
        ("3 < 10", True), ("'b' > 'A'", True), ("contains(fromJSON('[\"a\",\"b\"]'), 'B')", True),
        ("startsWith(github.ref, 'refs/heads/')", True), ("endsWith('x.yml', '.YML')", True),
        ("format('{0}-{1}{{}}', matrix.suite, 2)", "quick-2{}"), ("toJSON(matrix)", '{\n  "suite": "quick"\n}'),
        ("fromJSON('1.5') > 1", True), ("hashFiles('a', 'b')", "H"), ("success() && !cancelled()", True),
        ("GitHub.SHA", "abc"), ("steps.*.outcome", ["failure"]), ("(1 == 2) || (2 == 2) && 'z'", "z"),
        ("'0x10' == 16", True), ("endsWith('x.yml', '.txt')", False), ("format('{0}', 1e21)", "1e+21"),
        ("toJSON(1e21)", "1e+21"), ("format('{0}, {1}', 1e20, 2.0)", "100000000000000000000, 2"),
        ("format('{0}'" + ", 7" * 254 + ")", "7"),  # 255 arguments, the most the runner takes
    ]
    for text, want in cases:
        try:
            got = ev.eval(parse_expression(text))
        except ExprError as e:
            got = f"error: {e}"
        check(got == want, f"${{{{ {text} }}}} = {got!r}" + ("" if got == want else f", not {want!r}"))


def test_units_expression_errors(check):
    """Unknown names, functions given too few or too many arguments, a format place with
    no argument, syntax errors: each an error."""
    for text, name in (("foo.bar", "foo"), ("needs.build.result", "needs"), ("frobnicate(1)", "frobnicate"),
                       ("contains('a')", "contains")):
        try:
            check_names(parse_expression(text))
            check(False, f"${{{{ {text} }}}}: accepted")
        except ExprError as e:
            check(name in str(e), f"${{{{ {text} }}}}: an error naming {name}: {e}")
    # Each function's arguments, fewest and most, as actions/runner declares them
    # (ExpressionConstants, HashFilesFunction and the status functions: Byte.MaxValue is 255)
    arity = {"success": (0, 0), "failure": (0, 0), "always": (0, 0), "cancelled": (0, 0), "contains": (2, 2),
             "startsWith": (2, 2), "endsWith": (2, 2), "format": (1, 255), "join": (1, 2), "toJSON": (1, 1),
             "fromJSON": (1, 1), "hashFiles": (1, 255)}
    wrong = []
    for fn, (lo, hi) in arity.items():
        for n in sorted({max(lo - 1, 0), lo, hi, hi + 1}):
            try:
                check_names(parse_expression(f"{fn}({', '.join(['1'] * n)})"))
                took = True
            except ExprError:
                took = False
            if took != (lo <= n <= hi):
                wrong.append((fn, n, took))
    check(not wrong, f"each function takes from its fewest to its most arguments, as the runner's: {wrong[:4]}")
    for text, name in (("format('{0}{1}', 'a')", "format"),):
        try:  # a place with no argument; 256 arguments
            node = parse_expression(text)
            check_names(node)
            expression_evaluator().eval(node)
            check(False, f"${{{{ {text[:40]} }}}}: accepted")
        except ExprError as e:
            check(name in str(e), f"${{{{ {text[:40]} }}}}: an error naming {name}: {str(e)[:80]}")
    for text in ("a ==", "'open", "a.(b)", "1 2"):
        try:
            parse_expression(text)
            check(False, f"${{{{ {text} }}}}: parsed")
        except ExprError as e:
            check(True, f"${{{{ {text} }}}}: a syntax error ({e})")


def test_units_file_commands(check, tmp):
    """GITHUB_OUTPUT's two forms, and its errors."""
    out = os.path.join(tmp, "output")
    with open(out, "w") as f:
        f.write("a=1\nb<<EOF\nline 1\nline=2\nEOF\n\nc=x<<y\n")
    got = parse_file_command(out)
    check(got == [("a", "1"), ("b", "line 1\nline=2"), ("c", "x<<y")], f"GITHUB_OUTPUT: NAME=VALUE and NAME<<DELIMITER: {got}")
    for text, said, what in (("b<<EOF\nno end\n", "delimiter", "without its delimiter"),
                             ("=x\n", "name must not be empty", "'=x': the name must not be empty")):
        with open(out, "w") as f:
            f.write(text)
        try:
            parse_file_command(out)
            check(False, f"GITHUB_OUTPUT {what}: accepted")
        except FileCommandError as e:
            check(said in str(e), f"GITHUB_OUTPUT {what}: an error ({e})")


def test_units_hash_files(check, tmp):
    """hashFiles and the globs of @actions/glob."""
    ws = workspace(tmp)
    import hashlib
    # @actions/glob walks depth first, each folder's names sorted (libuv's scandir):
    # d/e/y.txt before d/x.txt.
    want = hashlib.sha256(b"".join(hashlib.sha256(t).digest() for t in (b"y", b"x"))).hexdigest()
    got = hash_files(ws, ["d/**/*.txt"])
    check(got == want, "hashFiles('d/**/*.txt'): each file's SHA-256, depth first and sorted, into one SHA-256")
    check(hash_files(ws, ["nothing*"]) == "", "hashFiles of nothing: ''")
    os.symlink(os.path.join(ws, "d"), os.path.join(ws, "link"))
    with open(os.path.join(ws, "--follow-symbolic-links"), "w") as f:  # the option is no pattern, even of a file so named
        f.write("not hashed")
    check(hash_files(ws, ["link/**/*.txt"]) == "" and hash_files(ws, ["--follow-symbolic-links", "link/**/*.txt"]) == want,
          "hashFiles: a symbolic link to a folder is followed only after --follow-symbolic-links")
    os.unlink(os.path.join(ws, "--follow-symbolic-links"))
    check(hash_files(ws, ["d/e"]) == hashlib.sha256(hashlib.sha256(b"y").digest()).hexdigest(),
          "hashFiles('d/e'): a folder stands for the files below it")
    try:
        hash_files(ws, ["--follow", "d/**"])
        check(False, "hashFiles('--follow', ...): accepted")
    except ExprError as e:
        check("--follow" in str(e), f"hashFiles: an unknown --option is an error naming it ({e})")
    os.unlink(os.path.join(ws, "link"))
    found = [os.path.relpath(p, ws) for p in glob_paths(pattern_lines("d\n!d/e/**", ws), descendants=True)]
    check(found == ["d/.h", "d/x.txt"], f"a folder with its files, hidden ones too, a negated glob left out: {found}")


def test_units_snapshot(check, tmp):
    """The snapshot a rehearsal clones, where git knows an identity and where it knows none."""
    # the snapshot: tracked files (one that .gitignore matches too), changed and untracked
    # ones, not the ignored untracked ones; the real index and HEAD untouched
    repo = os.path.join(tmp, "repo")
    os.makedirs(repo)
    for name, text in ((".gitignore", "*.log\n"), ("kept.log", "tracked, ignored\n"), ("a.txt", "a\n")):
        with open(os.path.join(repo, name), "w") as f:
            f.write(text)
    ident = ["-c", "user.name=t", "-c", "user.email=t@t"]
    for cmd in (["init", "-q"], ["add", "-f", ".gitignore", "kept.log", "a.txt"], [*ident, "commit", "-qm", "one"]):
        subprocess.run(["git", "-C", repo, *cmd], check=True, capture_output=True)
    for name in ("new.txt", "new.log"):
        with open(os.path.join(repo, name), "w") as f:
            f.write("x\n")
    head = git(repo, "rev-parse", "HEAD")
    sha, parent = snapshot(repo, 1)
    files = sorted(git(repo, "ls-tree", "-r", "--name-only", sha).split("\n"))
    check(files == [".gitignore", "a.txt", "kept.log", "new.txt"] and parent == head
          and git(repo, "status", "--porcelain") == "?? new.txt" and git(repo, "rev-parse", "HEAD") == head,
          f"the snapshot: tracked files (an ignored one too) and untracked ones not ignored; index and HEAD untouched: {files}")
    saved = dict(os.environ)  # a machine where git knows no identity (a fresh CI container)
    try:
        for k in [k for k in os.environ if k.startswith("GIT_") or k == "EMAIL"]:
            del os.environ[k]
        os.environ.update(HOME=os.path.join(tmp, "no-home"), GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
        try:
            sha, _ = snapshot(repo, 2)
            who = git(repo, "show", "-s", "--format=%an <%ae>", sha)
        except RuntimeError as e:
            who = f"error: {e}"
    finally:
        os.environ.clear()
        os.environ.update(saved)
    check(who == "neffbar rehearsal <rehearsal@localhost>", f"the snapshot where git knows no identity: made as {who!r}")


def test_units_actions(check, tmp):
    """The actions a rehearsal simulates: upload-artifact, cache/restore, github-action-benchmark."""
    ws = workspace(tmp)
    r = stub_rehearsal(ws)

    def act(fn, inputs, defaults=None):
        ctx = ActionContext(r, Step(1, {}), inputs, defaults)
        fn(ctx)
        return ctx
    # upload-artifact keeps the paths below the search paths' common folder (d/), not from /
    act(ACTIONS["actions/upload-artifact"][0], {"name": "two", "path": "d/x.txt\nd/e/y.txt"}, ACTIONS["actions/upload-artifact"][1])
    art = os.path.join(r.state.root, "artifacts", "run-1", "two")
    got = sorted(os.path.relpath(os.path.join(d, f), art) for d, _, fs in os.walk(art) for f in fs)
    check(got == ["e/y.txt", "x.txt"], f"upload-artifact of two paths: relative to their common folder: {got}")
    # cache/restore takes the first restore key with a hit, even when a later one's entry is newer
    for created, key in ((1, "a-1"), (2, "b-1")):
        os.makedirs(os.path.join(r.state.cache_dir(), key))
        with open(os.path.join(r.state.cache_dir(), key, "meta.json"), "w") as f:
            json.dump({"key": key, "version": cache_version(["p"]), "ref": r.ref, "created": created}, f)
    r.env_for_actions["GITHUB_REF"] = r.ref
    ctx = act(act_cache_restore, {"key": "x", "path": "p", "restore-keys": "a-\nb-", "lookup-only": "true"}, CACHE_DEFAULTS)
    check(ctx.outputs.get("cache-matched-key") == "a-1",
          f"cache/restore: the first restore key that matches wins over a newer entry of a later one: {ctx.outputs}")
    ctx = act(act_cache_restore, {"key": "x", "path": "p", "restore-keys": "zz-"}, CACHE_DEFAULTS)
    check(ctx.lines == ["Cache not found for input keys: x, zz-"] and ctx.outputs.get("cache-hit", "") == "",
          f"cache/restore, a miss: 'Cache not found for input keys: x, zz-' in the log, no hit: {ctx.lines} {ctx.outputs}")
    got = gab_percent(ActionContext(r, Step(1, {}), {"alert-threshold": "-50%"}, None), "alert-threshold")
    check(got == -0.5, f"github-action-benchmark: '-50%' is parseFloat('-50') / 100, its sign kept: {got}")
    cur = {"name": "x", "unit": "ops/s", "value": 5}
    got = gab_normalize({"name": "x", "unit": "ns", "value": 1}, cur)
    check(got == cur, f"github-action-benchmark: a value is converted only between units of one family (ns, ops/s: kept): {got}")


def test_expressions(check, tmp):
    """<= and >=, join(), the status functions of a passing and a failed job, and the
    contexts env, secrets, runner, job, strategy, inputs and vars."""
    ctx = {"github": {}, "env": {"A": "x"}, "steps": {}, "matrix": {}, "secrets": {"S": "v"}, "runner": {"os": "Linux"},
           "job": {"status": "success"}, "strategy": {"job-index": 0}, "inputs": {"i": "1"}, "vars": {"V": "w"}}
    ev = Evaluator(ctx, lambda: "success", lambda pats: "H")
    for text, want in (("2 <= 2", True), ("3 <= 2", False), ("2 >= 3", False), ("3 >= 3", True), ("always()", True),
                       ("failure()", False), ("join(fromJSON('[\"a\",\"b\"]'), '-')", "a-b"), ("join(fromJSON('[1,2]'))", "1,2"),
                       ("env.A", "x"), ("secrets.S", "v"), ("runner.os", "Linux"), ("job.status", "success"),
                       ("strategy.job-index", 0), ("inputs.i", "1"), ("vars.V", "w")):
        try:
            got = ev.eval(parse_expression(text))
        except ExprError as e:
            got = f"error: {e}"
        check(got == want, f"${{{{ {text} }}}} = {got!r}" + ("" if got == want else f", not {want!r}"))
    failed = Evaluator(ctx, lambda: "failure", lambda pats: "H")
    got = [failed.eval(parse_expression(t)) for t in ("failure()", "success()", "always()", "cancelled()")]
    check(got == [True, False, True, False], f"a failed job: failure() true, success() false, always() true: {got}")
    try:
        check_names(parse_expression("env.A && secrets.S && runner.os && job.status && strategy.job-index && inputs.i "
                                           "&& vars.V && always() && failure() && join('a')"))
        check(True, "the contexts env, secrets, runner, job, strategy, inputs, vars and always(), failure(), join() are known")
    except ExprError as e:
        check(False, f"a known context or function refused: {e}")
    r = stub_rehearsal(tmp)
    r.status = "failure"
    got = [r.condition(c, {}, "if") for c in ("contains('ab', 'a')", "failure() && contains('ab', 'a')")]
    check(got == [False, True], f"after a failure, an `if` without a status function is success() && (...): {got}")
    r.status = "success"
    got = r.condition("${{ false }} ${{ false }}", {}, "if")
    check(got is True, f"an `if` of two ${{{{ }}}} is the string 'false false', true: {got}")
    r = stub_rehearsal(tmp, "pull_request")
    r.commit_info = dict.fromkeys(("tree", "message", "timestamp", "author_name", "author_email", "committer_name",
                                   "committer_email", "parent"), "x")
    event = r.make_payload()
    n = event["number"]
    check(n == event["pull_request"]["number"] and r.ref == f"refs/pull/{n}/merge",
          f"pull_request: the event's number is its pull request's and GITHUB_REF's: {n} {event['pull_request']['number']} {r.ref}")


def test_refusals(check, tmp):
    """Workflows a rehearsal must refuse before it runs anything (exit 2, naming why)."""
    state = os.path.join(tmp, "state")
    bad = {
        "unknown context": ("      - run: echo ${{ foo.bar }}\n", "foo"),
        "unknown function": ("      - if: frob()\n        run: true\n", "frob"),
        "needs": ("      - run: echo ${{ needs.a.outputs.b }}\n", "needs"),
    }
    for what, (steps, name) in bad.items():
        wf = os.path.join(tmp, "bad.yml")
        with open(wf, "w") as f:
            f.write("on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n" + steps)
        rc, out = rehearse(wf, state, [])
        check(rc == 2 and name in out and len(out.strip().split("\n")) == 1,
              f"{what}: exit 2, one line naming {name}: {rc} {out.strip()[:160]!r}")
    whole = {  # whole workflows: (text, what the one line names)
        "no jobs": ("on: push\njobs: {}\n", "no jobs"),
        "a step that is not a mapping": ("on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - just text\n",
                                         "jobs.j.steps[1]"),
        "hashFiles() in a matrix": ("on: push\njobs:\n  j:\n    runs-on: x\n    strategy:\n      matrix:\n"
                                    "        h: ${{ fromJSON(hashFiles('x')) }}\n    steps:\n      - run: true\n", "hashFiles"),
    }
    for what, (text, name) in whole.items():
        wf = os.path.join(tmp, "bad.yml")
        with open(wf, "w") as f:
            f.write(text)
        rc, out = rehearse(wf, state, [])
        check(rc == 2 and name in out and len(out.strip().split("\n")) == 1,
              f"{what}: exit 2, one line naming {name}: {rc} {out.strip()[:160]!r}")
    # On a workflow of one cheap step: a slip that lets one of these run costs seconds,
    # not bench.yml's benchmarks.
    tiny = os.path.join(tmp, "tiny.yml")
    with open(tiny, "w") as f:
        f.write("on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: 'true'\n")
    rc, out = rehearse(tiny, state, ["--secret", "TOK"])
    check(rc == 2 and "expected NAME=VALUE" in out, f"--secret without '=': exit 2, NAME=VALUE expected: {rc} {out.strip()[:100]!r}")
    rc, out = rehearse(tiny, state, ["--skip", "no-such-step"])
    check(rc == 2 and "no-such-step" in out, f"--skip of a step that is not there: exit 2 naming it: {rc}")
    rc, out = rehearse(tiny, state, ["--event", "pull_request"])
    check(rc == 2 and "pull_request" in out, f"an event the workflow does not run on: exit 2: {rc}")
    check(not os.path.exists(os.path.join(state, "run-counter")), "none of them started a run")
    temp = os.path.join(tmp, "temp")  # where the clone goes (TMPDIR): nothing left without --keep
    os.makedirs(temp)
    rc, out = rehearse(tiny, os.path.join(tmp, "state-ok"), [], env={"TMPDIR": temp})
    check(rc == 0 and os.listdir(temp) == [], f"a rehearsal without --keep leaves no clone behind: {rc} {os.listdir(temp)}")


# ------------------------------------------------------------------- the rehearsal --
def rehearsed(workflow, state, args):
    """One rehearsal and what its checks read right after it: exit code, output, commit,
    the cache entries, each entry's series, the step summary."""
    rc, out = rehearse(workflow, state, args)
    e = entries(state)
    return {"rc": rc, "out": out, "sha": header_sha(out), "entries": e, "series": [series_of(d) for _, d in e],
            "summary": summary_of(state, out)}


@pytest.fixture(scope="module")
def tracking(tmp_path_factory):
    """bench.yml's tracking path rehearsed three times in one state folder (runs 1, 2, 3:
    counts x0.99, x1.015, x1.015 again, the package steps skipped), then the teeth (a copy
    restoring with the combined actions/cache, no save step) twice from run 1's state;
    the test_tracking_* tests each check one part of it."""
    tmp = str(tmp_path_factory.mktemp("tracking"))
    skips = package_steps(WORKFLOW)
    x099, v099 = plant(tmp, 0.99)
    x1015, v1015 = plant(tmp, 1.015)
    common = [a for s in skips for a in ("--skip", s)]

    def args(run):
        cmd = f"mkdir -p out && cp {shlex.quote(run)} out/bench.json && echo planted > out/bench.txt"
        return common + ["--replace", f"bench={cmd}"]

    state, teeth_state = os.path.join(tmp, "state"), os.path.join(tmp, "teeth-state")
    t = {"skips": skips, "v099": v099, "v1015": v1015}
    t[1] = rehearsed(WORKFLOW, state, args(x099))
    shutil.copytree(state, teeth_state, symlinks=True)
    t[2] = rehearsed(WORKFLOW, state, args(x1015))
    t[3] = rehearsed(WORKFLOW, state, args(x1015))
    teeth = combined_cache_copy(tmp)
    t["teeth 2"] = rehearsed(teeth, teeth_state, args(x1015))
    t["teeth 3"] = rehearsed(teeth, teeth_state, args(x1015))
    return t


def combined_cache_copy(tmp):
    """A copy of bench.yml that restores with the combined actions/cache (it saves in a
    post step, only when the job succeeded) and has no save step; its path."""
    import yaml
    with open(WORKFLOW) as f:
        wf = load_yaml(f.read())
    steps = next(iter(wf["jobs"].values()))["steps"]
    restore = next(st for st in steps if st.get("id") == "restore")
    restore["uses"] = "actions/cache@" + restore["uses"].split("@", 1)[1]
    steps[:] = [st for st in steps if not str(st.get("uses", "")).startswith("actions/cache/save@")]
    teeth = os.path.join(tmp, "bench-combined-cache.yml")
    with open(teeth, "w") as f:
        yaml.safe_dump(wf, f, sort_keys=False)
    return teeth


def test_tracking_first_run(check, tracking):
    """Run 1 (x0.99): the first point, the series seeded, the gate and the job pass."""
    skips, r1 = tracking["skips"], tracking[1]
    check(len(skips) == 2, f"bench.yml's package steps found (apt-get, ./scripts/deps): {skips}")
    rc, out1, e, s = r1["rc"], r1["out"], r1["entries"], (r1["series"] or [[]])[0]
    check(rc == 0 and "job bench: success" in out1, f"run 1 (x0.99): the job passes: exit {rc}" + ("" if rc == 0 else "\n" + out1))
    check("success" in step_line(out1, "Gate against"), "run 1: the gate against the committed baseline passes")
    check(len(e) == 1 and e[0][0]["key"].startswith("bench-tracker-"), f"run 1: one cache entry, the series: {[m['key'] for m, _ in e]}")
    check(len(s) == 1 and s[0]["commit"]["id"] == r1["sha"] and same_values(values(s[0]["benches"]), tracking["v099"]),
          f"run 1: the series seeded with run 1's point ({len(s)} entries)")
    check("the first point of the series" in r1["summary"], "run 1: the step summary says the series starts")


def test_tracking_alert_saved(check, tracking):
    """Run 2 (x1.015, +2.53 % over run 1, the baseline within 2 % of it): bench-track
    alerts, the job fails in its last step, and the series is saved all the same."""
    r2, sha1 = tracking[2], tracking[1]["sha"]
    rc, out2, e, s = r2["rc"], r2["out"], r2["entries"], (r2["series"] or [[]])[-1]
    check(rc == 1 and "job bench: failure" in out2, f"run 2 (x1.015): the job fails: exit {rc}" + ("" if rc == 1 else "\n" + out2))
    check("success" in step_line(out2, "Gate against"), "run 2: the gate passes (within 2 % of the baseline)")
    check("failure" in step_line(out2, "Instruction counts against the previous push") and "continue-on-error"
          in step_line(out2, "Instruction counts against the previous push"), "run 2: bench-track alerts (continue-on-error)")
    check("success" in step_line(out2, "Save the tracked series"), "run 2: the series is saved all the same")
    check("failure" in step_line(out2, "Decide") and "::error title=Benchmarks::" in out2, "run 2: the last step fails the job")
    check(len(e) == 2 and len(s) == 2 and s[0]["commit"]["id"] == sha1 and s[1]["commit"]["id"] == r2["sha"]
          and same_values(values(s[1]["benches"]), tracking["v1015"]),
          f"run 2: the saved series has 2 entries, the last run 2's values ({len(e)} cache entries, {len(s)} points)")
    summary = r2["summary"]
    check(f"against {(sha1 or '')[:12]}" in summary and "**ERROR**" in summary, "run 2: the step summary shows the alert")


def test_tracking_after_alert(check, tracking):
    """Run 3 (x1.015 again, a new commit): compared with run 2, the run that alerted."""
    r3, shas = tracking[3], [tracking[i]["sha"] for i in (1, 2, 3)]
    rc, out3, e, summary = r3["rc"], r3["out"], r3["entries"], r3["summary"]
    check(rc == 0 and "job bench: success" in out3, f"run 3 (x1.015 again): the job passes: exit {rc}" + ("" if rc == 0 else "\n" + out3))
    check(f"against {(shas[1] or '')[:12]}" in summary and "**ERROR**" not in summary,
          "run 3: compared with run 2 (the run that alerted), no alert")
    check(len(e) == 3 and len(r3["series"][-1]) == 3, f"run 3: the series has 3 points ({len(e)} cache entries)")
    check(len(set(shas)) == 3 and None not in shas, "three runs, three commits")


def test_tracking_teeth(check, tracking):
    """The teeth: the combined actions/cache saves only when the job succeeded, so from
    run 1's state run 2's point is lost and run 3 alerts again, against run 1."""
    t2, t3, sha1 = tracking["teeth 2"], tracking["teeth 3"], tracking[1]["sha"]
    rc = t2["rc"]
    check(rc == 1 and "Post Restore the tracked series: skipped" in t2["out"],
          f"teeth, run 2: the job fails and the combined cache's post step is skipped: exit {rc}" + ("" if rc == 1 else "\n" + t2["out"]))
    check(len(t2["entries"]) == 1, f"teeth, run 2: nothing saved ({len(t2['entries'])} cache entries)")
    rc, summary = t3["rc"], t3["summary"]
    check(rc == 1 and f"against {(sha1 or '')[:12]}" in summary and "**ERROR**" in summary,
          f"teeth, run 3: run 2's point lost, it alerts again against run 1: exit {rc}")


GAB_WORKFLOW = """on: push
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - id: plant
        run: |
          echo '[{{"name": "BM_X", "unit": "ns", "value": 100}}]' > out.json
      - name: both alert flags off
        uses: benchmark-action/github-action-benchmark@a60cea5bc7b49e15c1f58f411161f99e0df48372 # v1.22.0
        with:
          tool: customSmallerIsBetter
          output-file-path: out.json
          external-data-json-path: {series}/off.json
          alert-threshold: '150%'
          summary-always: true
      - name: fail-on-alert
        uses: benchmark-action/github-action-benchmark@a60cea5bc7b49e15c1f58f411161f99e0df48372 # v1.22.0
        with:
          tool: customSmallerIsBetter
          output-file-path: out.json
          external-data-json-path: {series}/fail.json
          alert-threshold: '150%'
          fail-on-alert: true
          max-items-in-chart: 1
"""


def test_gab(check, tmp):
    """The github-action-benchmark simulation's alerts, on a workflow of its own (its data
    files outside the clone, as a cache would keep them): with both alert flags off it
    compares nothing (the old bench.yml's time alert, which never fired), with
    fail-on-alert it warns and fails the step, summary-always writes the comparison, and
    max-items-in-chart trims the series."""
    series = os.path.join(tmp, "series")
    wf = os.path.join(tmp, "gab.yml")
    with open(wf, "w") as f:
        f.write(GAB_WORKFLOW.format(series=series))
    state = os.path.join(tmp, "state")

    def run(value):
        return rehearse(wf, state, ["--replace", f"plant=echo '[{{\"name\": \"BM_X\", \"unit\": \"ns\", "
                                                 f"\"value\": {value}}}]' > out.json"])
    rc, out1 = run(100)
    check(rc == 0 and "Performance alert!" not in out1 and os.path.exists(os.path.join(series, "off.json")),
          f"gab, run 1: the first point, nothing compared, the data files written: exit {rc}" + ("" if rc == 0 else "\n" + out1))
    rc, out2 = run(160)
    off, fail = step_line(out2, "both alert flags off"), step_line(out2, "fail-on-alert")
    check("success" in off and "failure" in fail and rc == 1,
          f"gab, run 2 (+60 %): flags off passes, fail-on-alert fails the step: {off!r} {fail!r}")
    alerts = out2.count("Performance alert! Previous value was 100 and current value is 160")
    check(alerts == 1, f"gab, run 2: one 'Performance alert!' (fail-on-alert's), none with both flags off: {alerts}")
    logs = os.path.join(state, "runs", f"run-{run_id_of(out2)}", "j")
    logged = "".join(open(os.path.join(logs, x)).read() for x in sorted(os.listdir(logs)) if x.endswith(".log"))
    check("Performance alert!" in logged and "would post the alert" not in logged,
          "gab, run 2: the alert logged, and no commit comment without comment-on-alert")
    summary = summary_of(state, out2)
    check("| `BM_X` |" in summary and "1.60" in summary, f"gab, run 2: summary-always writes the comparison: {summary[-300:]!r}")
    with open(os.path.join(series, "fail.json")) as f:
        kept = json.load(f)["entries"]["Benchmark"]
    with open(os.path.join(series, "off.json")) as f:
        both = json.load(f)["entries"]["Benchmark"]
    check(len(kept) == 1 and kept[0]["benches"][0]["value"] == 160 and len(both) == 2,
          f"gab: max-items-in-chart 1 keeps the last point only ({len(kept)}), the other series both ({len(both)})")


# -------------------------------------------------------- the runner's features --
FEATURES_WORKFLOW = """on: push
jobs:
  other:
    runs-on: ubuntu-latest
    steps:
      - run: exit 1
  features:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        suite: [a, b]
    defaults:
      run:
        shell: env JOB_DEFAULT=1 bash -e {0}
    steps:
      - name: the job's defaults.run.shell
        run: test "$JOB_DEFAULT" = 1
      - name: file commands
        run: |
          echo "FOO=bar" >> "$GITHUB_ENV"
          mkdir -p "$RUNNER_TEMP/bin"
          printf '#!/bin/sh\\necho tool-ran\\n' > "$RUNNER_TEMP/bin/mytool"
          printf '#!/bin/sh\\nFAKE_PYTHON=1 exec python3 "$@"\\n' > "$RUNNER_TEMP/bin/python"
          chmod +x "$RUNNER_TEMP/bin/mytool" "$RUNNER_TEMP/bin/python"
          echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
      - name: GITHUB_ENV and GITHUB_PATH reach a later step
        run: test "$FOO" = bar && mytool | grep -q tool-ran
      - name: shell sh
        shell: sh
        run: test -z "${BASH_VERSION:-}"
      - name: shell python
        shell: python
        run: |
          import os, sys
          sys.exit(0 if sys.version_info[0] == 3 and os.environ.get("FAKE_PYTHON") == "1" else 1)
      - name: shell template
        shell: env TEMPLATE_OK=1 bash -e {0}
        run: test "$TEMPLATE_OK" = 1
      - name: working-directory
        working-directory: scripts
        run: test "$(basename "$PWD")" = scripts && test -f lib/common.sh
      - name: timeout-minutes
        id: slow
        timeout-minutes: 0.03
        continue-on-error: true
        run: sleep 30
      - name: matrix, ref, sha and secret
        env:
          TOK: ${{ secrets.TOK }}
        run: |
          test "${{ matrix.suite }}" = b
          test "${{ strategy.job-index }}/${{ strategy.job-total }}/${{ strategy.max-parallel }}/${{ strategy.fail-fast }}" = 1/2/2/true
          test -n "${{ hashFiles('scripts/run') }}"
          test "$GITHUB_REF" = refs/heads/feature
          test "$GITHUB_SHA" = abcdef1234567 && test "${{ github.sha }}" = abcdef1234567
          test "$TOK" = s3cret-value && echo "the secret: $TOK"
      - name: upload
        uses: actions/upload-artifact@v4
        with:
          name: art
          path: scripts/campaign.py
      - name: upload again
        continue-on-error: true
        uses: actions/upload-artifact@v4
        with:
          name: art
          path: scripts/campaign.py
      - name: upload again, overwrite
        uses: actions/upload-artifact@v4
        with:
          name: art
          path: scripts/campaign.py
          overwrite: true
      - name: upload nothing
        continue-on-error: true
        uses: actions/upload-artifact@v4
        with:
          name: none
          path: no-such-file
          if-no-files-found: error
      - name: codeql
        continue-on-error: true
        uses: github/codeql-action/upload-sarif@v3
      - name: clusterfuzzlite
        continue-on-error: true
        uses: google/clusterfuzzlite/actions/build_fuzzers@v1
      - name: docker
        continue-on-error: true
        uses: docker://alpine:3
      - name: local
        continue-on-error: true
        uses: ./.github/actions/none
      - name: unknown
        continue-on-error: true
        uses: actions/setup-node@v4
      - name: bencher
        uses: bencherdev/bencher@v0.6.12
"""


def run_id_of(out):
    for line in out.split("\n"):
        if line.startswith("rehearsal: ") and "(run " in line:
            return line.split("(run ", 1)[1].split(",")[0]
    return None


def test_features(check, tmp):
    """One rehearsal of a planted workflow whose steps each fail unless the feature they
    use works: GITHUB_ENV and GITHUB_PATH, the shells, working-directory,
    timeout-minutes, --job, --matrix, --ref, --sha, --secret (masked), --keep; the
    upload-artifact rules; the actions that cannot be rehearsed; Bencher's step."""
    wf = os.path.join(tmp, "features.yml")
    with open(wf, "w") as f:
        f.write(FEATURES_WORKFLOW)
    state = os.path.join(tmp, "state")
    rc, out = rehearse(wf, state, ["--job", "features", "--matrix", "suite=b", "--ref", "refs/heads/feature",
                                   "--sha", "abcdef1234567", "--secret", "TOK=s3cret-value", "--keep", "--verbose",
                                   "--replace", "slow=sleep 30"])
    want = {"the job's defaults.run.shell": "success", "GITHUB_ENV and GITHUB_PATH reach a later step": "success", "shell sh": "success", "shell python": "success",
            "shell template": "success", "working-directory": "success", "matrix, ref, sha and secret": "success",
            "upload": "success", "upload again, overwrite": "success", "upload again": "failure",
            "upload nothing": "failure", "codeql": "failure", "clusterfuzzlite": "failure", "docker": "failure",
            "local": "failure", "unknown": "failure", "bencher": "success"}
    for name, outcome in want.items():
        line = step_line(out, f"{name}: ")
        check(f"] {name}: {outcome} (" in line, f"features, step '{name}': {outcome}: {line!r}" + ("" if line else "\n" + out))
    check("--replace slow, timed out, continue-on-error" in step_line(out, "timeout-minutes: "),
          f"features: timeout-minutes stops a step (a --replace one too): {step_line(out, 'timeout-minutes: ')!r}")
    check(rc == 0 and "job features (b): success" in out,
          f"features: --job picks the job, --matrix its combination (strategy.job-index 1 of job-total 2): exit {rc}")
    check("s3cret-value" not in out and "the secret: ***" in out, "features: --secret reaches secrets.TOK, masked in the output")
    check("(409) Conflict" in out and "No files were found with the provided path: no-such-file" in out,
          "upload-artifact: the same name twice is 409 Conflict, if-no-files-found: error fails")
    art = os.path.join(state, "artifacts", f"run-{run_id_of(out)}", "art", "campaign.py")
    check(os.path.isfile(art), f"upload-artifact: the file in STATE/artifacts/run-<id>/<name>/: {art}")
    check(all(x in out for x in ("github/codeql-action/upload-sarif uploads to GitHub code scanning: not rehearsable",
                                 "google/clusterfuzzlite/actions/build_fuzzers runs ClusterFuzzLite's containers: not rehearsable",
                                 "docker://alpine:3: a container action is not rehearsable",
                                 "./.github/actions/none: a local action is not rehearsable",
                                 "actions/setup-node: no simulation of this action")),
          "codeql, clusterfuzzlite, docker:// and local actions fail saying they are not rehearsable, another action too")
    check("would install the bencher CLI" in out, "bencherdev/bencher says it would install the CLI")
    clone = next((x.split("the clone: ", 1)[1] for x in out.split("\n") if "the clone: " in x), None)
    check(clone is not None and os.path.isdir(os.path.join(clone, "scripts")), f"--keep keeps the clone: {clone}")
    if clone and os.path.isdir(clone):
        shutil.rmtree(os.path.dirname(os.path.dirname(os.path.dirname(clone))), ignore_errors=True)


CACHE_WORKFLOW = """on: push
jobs:
  c:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        phase: [save, restore]
    steps:
      - if: matrix.phase == 'save'
        run: mkdir -p cdir {abs} && echo one > cdir/f.txt && echo abs > {abs}/f.txt
      - name: save
        if: matrix.phase == 'save'
        uses: actions/cache/save@v4
        with:
          key: k-1
          path: |
            cdir
            {abs}/f.txt
      - name: save the same key again
        if: matrix.phase == 'save'
        uses: actions/cache/save@v4
        with:
          key: k-1
          path: |
            cdir
            {abs}/f.txt
      - name: combined
        if: matrix.phase == 'save'
        uses: actions/cache@v4
        with:
          key: k-2
          path: cdir
      - id: exact
        if: matrix.phase == 'restore'
        uses: actions/cache/restore@v4
        with:
          key: k-1
          path: |
            cdir
            {abs}/f.txt
      - name: exact hit
        if: matrix.phase == 'restore'
        run: test "${{{{ steps.exact.outputs.cache-hit }}}}" = true && grep -q one cdir/f.txt && grep -q abs {abs}/f.txt
      - id: other
        if: matrix.phase == 'restore'
        uses: actions/cache/restore@v4
        with:
          key: k-1
          path: other-dir
      - name: another path list restores nothing
        if: matrix.phase == 'restore'
        run: test -z "${{{{ steps.other.outputs.cache-hit }}}}" && test ! -e other-dir
"""


def test_cache(check, tmp):
    """actions/cache: save (an absolute path too), the same key again (a warning, the
    step passes), the combined action's post step saving on success; restore by the
    exact key (cache-hit 'true', the absolute path back), nothing for another path list,
    nothing from another ref."""
    absdir = os.path.join(tmp, "absolute")
    wf = os.path.join(tmp, "cache.yml")
    with open(wf, "w") as f:
        f.write(CACHE_WORKFLOW.format(abs=absdir))
    state = os.path.join(tmp, "state")
    rc, out = rehearse(wf, state, ["--matrix", "phase=save", "--ref", "refs/heads/feature"])
    keys = sorted(m["key"] for m, _ in entries(state))
    check(rc == 0 and keys == ["k-1", "k-2"], f"cache, saving: k-1 saved, and k-2 by the combined action's post step: {rc} {keys}"
          + ("" if rc == 0 else "\n" + out))
    check("success" in step_line(out, "save the same key again: ") and "Cache save failed." in out,
          "cache/save of a key that exists: a warning, the step passes")
    check("success" in step_line(out, "Post combined: "), f"the combined cache's post step runs on success: {step_line(out, 'Post combined')!r}")
    os.unlink(os.path.join(absdir, "f.txt"))
    rc, out = rehearse(wf, state, ["--matrix", "phase=restore", "--ref", "refs/heads/other"])
    check(rc == 1 and "failure" in step_line(out, "exact hit: ") and not os.path.exists(os.path.join(absdir, "f.txt")),
          f"cache/restore from another ref (not main): nothing restored: {rc} {step_line(out, 'exact hit: ')!r}")
    rc, out = rehearse(wf, state, ["--matrix", "phase=restore", "--ref", "refs/heads/feature"])
    check(rc == 0 and "success" in step_line(out, "exact hit: ") and os.path.exists(os.path.join(absdir, "f.txt")),
          f"cache/restore by the exact key: cache-hit 'true', the files and the absolute path restored: {rc}" + ("" if rc == 0 else "\n" + out))
    check("success" in step_line(out, "another path list restores nothing: "), "cache/restore of the key with another path list: no hit")


GAB_PREVIOUS_WORKFLOW = """on: push
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - id: plant
        run: echo planted
      - name: track
        uses: benchmark-action/github-action-benchmark@a60cea5bc7b49e15c1f58f411161f99e0df48372 # v1.22.0
        with:
          tool: customSmallerIsBetter
          output-file-path: out.json
          external-data-json-path: {data}
          alert-threshold: '150%'
          fail-on-alert: true
"""


def test_gab_previous(check, tmp):
    """github-action-benchmark: a data file that is not JSON warns and starts empty; the
    previous suite is the last of another commit (run 3 of the same commit as run 2 is
    compared with run 1: no alert; against run 2 it would alert)."""
    data = os.path.join(tmp, "data.json")
    with open(data, "w") as f:
        f.write("not json")
    wf = os.path.join(tmp, "gab-previous.yml")
    with open(wf, "w") as f:
        f.write(GAB_PREVIOUS_WORKFLOW.format(data=data))
    state = os.path.join(tmp, "state")

    def run(value, *args):
        return rehearse(wf, state, ["--replace", f"plant=echo '[{{\"name\": \"BM_X\", \"unit\": \"ns\", \"value\": {value}}}]' > out.json",
                                    *args])
    rc, out = run(160)
    with open(data) as f:
        n = len(json.load(f)["entries"]["Benchmark"])
    check(rc == 0 and "Could not find external JSON file" in out and n == 1,
          f"gab: a data file that is not JSON: a warning, the series starts empty ({n} entry): exit {rc}")
    same = "b" * 40
    rc2, _ = run(100, "--sha", same)
    rc3, out3 = run(200, "--sha", same)
    check(rc2 == 0 and rc3 == 0 and "Performance alert!" not in out3,
          f"gab: the previous suite is the last of another commit (200 against 160, not 100 of the same commit): {rc2} {rc3}")


def test_skip(check, tmp):
    """Outside a git checkout a rehearsal is skipped: exit 77."""
    copy = os.path.join(tmp, "scripts")
    shutil.copytree(os.path.join(HERE, "lib"), os.path.join(copy, "lib"), ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(HERE, "ci_rehearse.py"), copy)
    wf = os.path.join(tmp, "wf.yml")
    with open(wf, "w") as f:
        f.write("on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: 'true'\n")
    p = subprocess.run([sys.executable, os.path.join(copy, "ci_rehearse.py"), wf], capture_output=True, text=True, cwd=tmp)
    check(p.returncode == 77 and "SKIPPED" in p.stdout and "not in a git checkout" in p.stdout,
          f"a copy of the scripts outside a git checkout: exit 77, skipped: {p.returncode} {p.stdout.strip()!r}")


def test_interrupt(check, tmp):
    """A rehearsal ended by SIGTERM stops the step it was running (in a session of its
    own, it would outlive the rehearsal) and exits 143."""
    wf = os.path.join(tmp, "long.yml")
    mark = os.path.join(tmp, "step.pid")
    with open(wf, "w") as f:
        f.write("on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n"
                f"      - run: echo $$ > {mark} && exec sleep 120\n")
    cmd = [os.path.join(HERE, "check-workflows"), "--rehearse", wf, "--state", os.path.join(tmp, "state")]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (os.path.exists(mark) and os.path.getsize(mark)) and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.1)
    step = int(open(mark).read()) if os.path.exists(mark) and os.path.getsize(mark) else None
    p.terminate()
    rc = p.wait(timeout=30)

    def alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return not open(f"/proc/{pid}/stat").read().split(")")[-1].split()[0] == "Z"
    end = time.monotonic() + 5
    while step is not None and alive(step) and time.monotonic() < end:
        time.sleep(0.1)
    gone = step is not None and not alive(step)
    if step is not None and not gone:
        os.kill(step, signal.SIGKILL)
    check(step is not None and gone and rc == 143, f"SIGTERM: the running step stopped too, exit 143: step {step}, exit {rc}")


# ------------------------------------------------------------ bench.yml's decisions --
def plant_run(tmp, name, counts=1.0, times=1.0, memory=1.0):
    """A run: the baseline with every instruction count x counts, every time x times,
    every memory figure x memory."""
    with open(os.path.join(ROOT, "bench", "baselines", "baseline.json")) as f:
        run = json.load(f)
    for b in run["benchmarks"]:
        if "instructions" in b:
            b["instructions"] = b["instructions"] * counts
        for k in ("max_bytes_used", "allocs_per_iter"):
            if k in b:
                b[k] = b[k] * memory
        for k in ("cpu_time", "real_time"):
            if isinstance(b.get(k), (int, float)) and b.get("aggregate_name") not in ("cv", "stddev"):
                b[k] = b[k] * times
    path = os.path.join(tmp, f"{name}.json")
    with open(path, "w") as f:
        json.dump(run, f)
    return path


def test_decisions(check, tmp):
    """bench.yml's other decisions: times +60 % over the previous push warn (the job
    passes); a count 3 % over the committed baseline fails the job by the gate alone; a
    count over the previous push accepted when the baseline was re-recorded to it; the
    memory 3 % over the baseline and over the previous push fails the job twice over,
    and is accepted as a count is; a benchmark step that fails fails the job ("did not
    run")."""
    skips = package_steps(WORKFLOW)
    common = [a for s in skips for a in ("--skip", s)]

    def args(run, rerecord=False):
        cmd = f"mkdir -p out && cp {shlex.quote(run)} out/bench.json && echo planted > out/bench.txt"
        if rerecord:
            cmd += f" && cp {shlex.quote(run)} bench/baselines/baseline.json"
        return common + ["--replace", f"bench={cmd}"]
    state = os.path.join(tmp, "state")
    rc, out = rehearse(WORKFLOW, state, args(plant_run(tmp, "seed")))
    check(rc == 0, f"decisions, run 1: the series seeded: exit {rc}" + ("" if rc == 0 else "\n" + out))
    rc, out = rehearse(WORKFLOW, state, args(plant_run(tmp, "slower", counts=1.015, times=1.6)))
    check(rc == 0 and "::warning title=neffbar median cpu time%3A +50 %25::" in out,
          f"decisions, run 2 (times x1.6, counts +1.5 %): a warning, the job passes: exit {rc}" + ("" if rc == 0 else "\n" + out))
    rc, out = rehearse(WORKFLOW, state, args(plant_run(tmp, "over", counts=1.03)))
    decided = [x.strip() for x in out.split("\n") if x.strip().startswith("::error title=Benchmarks::")]
    check(rc == 1 and decided == ["::error title=Benchmarks::the gate against bench/baselines/baseline.json: failure;"],
          f"decisions, run 3 (counts +3 % over the baseline, +1.5 % over run 2): the gate alone fails the job: exit {rc}")
    rc, out = rehearse(WORKFLOW, state, args(plant_run(tmp, "accepted", counts=1.06), rerecord=True))
    check(rc == 0 and "::notice title=neffbar instructions per operation%3A +2 %25 accepted::" in out,
          f"decisions, run 4 (+2.9 % over run 3, the baseline re-recorded to it): accepted, the job passes: exit {rc}"
          + ("" if rc == 0 else "\n" + out))
    rc, out = rehearse(WORKFLOW, state, args(plant_run(tmp, "memory", memory=1.03)))
    decided = [x.strip() for x in out.split("\n") if x.strip().startswith("::error title=Benchmarks::")]
    check(rc == 1 and decided == ["::error title=Benchmarks::the gate against bench/baselines/baseline.json: failure; "
                                  "a memory figure over the previous push: failure;"]
          and "::error title=neffbar peak memory per operation%3A +2 %25::" in out,
          f"decisions, run 5 (memory +3 % over the baseline and over run 4): the gate and the memory series fail the job: "
          f"exit {rc} {decided}" + ("" if rc == 1 else "\n" + out))
    rc, out = rehearse(WORKFLOW, state, args(plant_run(tmp, "memory-accepted", memory=1.06), rerecord=True))
    check(rc == 0 and "::notice title=neffbar peak memory per operation%3A +2 %25 accepted::" in out,
          f"decisions, run 6 (memory +2.9 % over run 5, the baseline re-recorded to it): accepted, the job passes: exit {rc}"
          + ("" if rc == 0 else "\n" + out))
    rc, out = rehearse(WORKFLOW, state, common + ["--replace", "bench=false"])
    check(rc == 1 and "the benchmarks did not run (failure)" in out,
          f"decisions, run 7 (the benchmark step fails): the job fails, 'the benchmarks did not run': exit {rc}")


def test_units_github_context_refs(tmp):
    """github.head_ref and base_ref (and GITHUB_HEAD_REF, GITHUB_BASE_REF) are set for a
    pull_request only, as on GitHub: empty on a push."""
    for event, refs in (("push", ("", "")), ("pull_request", ("rehearsal", "main"))):
        r = stub_rehearsal(tmp, event)
        r.ref, r.payload, r.event_path, r.workflow_name = "refs/heads/main", {}, "", "w"
        r.server_url, r.summary_path = "https://github.com", ""
        g = r.make_github_ctx()
        assert (g["head_ref"], g["base_ref"]) == refs, event
