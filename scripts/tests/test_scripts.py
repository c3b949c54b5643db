"""The scripts themselves, tested (pytest; ctest scripts_self_test, and
campaign_page_self_test for the campaign's pages alone).

Every script of scripts/ (an executable file with a shebang, or a .py with a main) is
run in a scratch copy of scripts/, with a PATH whose apt-get, sudo, npm, git, cmake
(but `cmake -P`), ninja, compilers, valgrind and spin only record that they were
called, and with no PYTHONDONTWRITEBYTECODE:

- one shebang style: #!/usr/bin/env bash or #!/usr/bin/env python3;
- `--help` and `-h`: exit 0, the help on stdout (a bash script's is its whole header
  comment block, a Python script's names its docstring's first line), nothing on
  stderr, and no side effect: no file or folder made, changed or removed in the copy,
  in HOME or in TMPDIR, no recorded command run;
- an unknown option and bad option values: exit 2, one line on stderr naming the
  option, nothing on stdout, no side effect;
- scripts/lib/common.sh's run_logged: a failing command's output in out/logs/NAME.log,
  its end on stderr, its exit code returned; a passing one silent;
- scripts/run with a fake neffbar and fake steps: the hypothesis matrix run once, as
  JSON, its counts on the summary; nothing written outside out/;
- campaign.py on good and bad JSON; its page (out/report.html) on a fake campaign's
  files, missing and bad ones included; fuzz_speed.py on fake fuzzers;
- lib/common.sh's usage_error, die, opt_uint and run_logged's tail; ctest's exit-code
  wrapper (scripts/CMakeLists.txt) on a self-test that exits 1 after its pass line; a
  broken pipe on stdout;
- the bash entry points on fake tools (cmake, ctest, apt-get, the build outputs, the
  fuzz targets, the llvm tools): run's options and failures, bench, test, deps, props,
  make-corpus, spin-compare, coverage, fuzz (usage errors, --reproduce, a campaign that
  crashes, --merge, --speed), check-workflows' exits 77 and 1 and its .cjs usage errors;
- the checks have teeth: planted scripts that install, write, remove, change, write to
  HOME or TMPDIR, use another shebang, print a fixed line range as help, print it on
  stderr, exit 1 on --help, lack their docstring's first line, accept an unknown
  option, print a usage error on two lines, on stdout or without the option, leave a
  __pycache__ behind, or import the package lib/ without putting scripts/ on sys.path
  are each caught.
Each check prints a line, ok or FAIL (conftest.py's `check`).  ctest
campaign_page_self_test runs test_campaign, the test_campaign_page* tests, test_run and
test_run_failures alone: the campaign's pages in seconds, the first test scripts/mutate
runs on their mutants.
"""
import ast
import json
import os
import re
import shutil
import stat
import subprocess
import sys

import pytest

from fakes import campaign_out, fake_names, write

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/

SHEBANGS = ("#!/usr/bin/env bash", "#!/usr/bin/env python3")
# Commands a script's --help or a usage error must not run; each is replaced by a shim
# that records the call and fails.  `cmake -P` (reading fuzz/targets.cmake) only reads.
FORBIDDEN = ["apt-get", "apt", "sudo", "dpkg", "npm", "node", "git", "cmake", "ctest", "ninja", "make", "g++-12",
             "clang++-14", "cc", "valgrind", "spin", "chromium", "llvm-profdata-14", "llvm-cov-14"]
# Scripts other work owns that do not read their options through scripts/lib/common.sh
# yet: not given an unknown option (coverage would run; fuzz prints its usage after
# the error line; mutate prints argparse's usage line first).
UNKNOWN_OPTION_NOT_YET = {"coverage": "ignores its arguments", "fuzz": "prints its usage after the error",
                          "mutate": "prints argparse's usage line before the error"}
# Bad values per script: (arguments, the option the error line must name).
BAD_VALUES = {
    "run": [(["--seconds", "abc"], "--seconds"), (["--cases", "0"], "--cases"), (["--mutants", "-1"], "--mutants"),
            (["--seconds"], "--seconds")],
    "props": [(["--cases", "1e3"], "--cases"), (["--seed", "1x"], "--seed"), (["--filter"], "--filter")],
    "bench": [(["--repetitions", "8"], "--repetitions"), (["--repetitions"], "--repetitions")],
    "make-corpus": [(["corpus"], "corpus")],
    "bench-compare": [(["--threshold", "abc"], "--threshold"), (["--count-threshold", "1e3"], "--count-threshold"),
                      (["--memory-threshold", "0"], "--memory-threshold")],
    "bench-count": [(["--runs", "0"], "--runs"), (["--jobs", "x"], "--jobs")],
    "bench-export": [(["--format", "csv"], "--format"), (["--metric", "x"], "--metric")],
    "bench-track": [(["--threshold", "abc"], "--threshold"), (["--threshold", "0"], "--threshold")],
    "bench_pipeline_test.py": [(["--reps", "0"], "--reps")],
    "bench_build.py": [(["suite", "b", "x", "r", "o"], "repetitions")],
    "ci_rehearse.py": [(["x.yml", "--replace", "foo"], "--replace"), (["x.yml", "--sha", "xyz"], "--sha"),
                       (["x.yml", "--event", "schedule"], "--event")],
    "bench-history": [(["--commits", "0"], "--commits"), (["--repetitions", "1.5"], "--repetitions")],
    "campaign.py": [(["matrix"], "FILE"), (["nope"], "nope"), ([], "matrix|get|page")],
}



# ------------------------------------------------------------------ the scratch --
def scripts_of(folder):
    """(name, kind) of every script in `folder`: an executable file with a shebang
    ("bash", "python" or "other"), or a .py with a main ("module")."""
    out = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        with open(path, errors="replace") as f:
            text = f.read()
        first = text.split("\n", 1)[0]
        if os.access(path, os.X_OK) and first.startswith("#!"):
            out.append((name, "bash" if "bash" in first else "python" if "python" in first else "other"))
        elif name.endswith(".py") and 'if __name__ == "__main__":' in text:
            out.append((name, "module"))
    return out


def header_block(path):
    """What a bash script's --help must print: the comment lines after the shebang up to
    the first other line, '# ' (or '#') stripped."""
    lines = []
    with open(path) as f:
        for n, line in enumerate(f):
            if n == 0:
                continue
            if not line.startswith("#"):
                break
            lines.append(line[2:] if line.startswith("# ") else line[1:])
    return "".join(lines)


def snapshot(*roots):
    """Every file and folder under `roots`: path -> (type, size, mtime, mode)."""
    seen = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for n in dirs + files:
                p = os.path.join(folder, n)
                st = os.lstat(p)
                seen[p] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_mode)
    return seen


def changed(before, after):
    made = sorted(set(after) - set(before))
    gone = sorted(set(before) - set(after))
    touched = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    return [f"made {p}" for p in made] + [f"removed {p}" for p in gone] + [f"changed {p}" for p in touched]


class Scratch:
    """A copy of scripts/ (and the target list scripts/fuzz reads first: fuzz/targets.cmake,
    the props/properties.cmake it includes and the props/registry.h that reads) in a
    temporary folder, with the recording shims on the PATH."""

    def __init__(self, tmp, source=HERE):
        self.root = os.path.join(tmp, "repo")
        shutil.copytree(source, os.path.join(self.root, "scripts"), ignore=shutil.ignore_patterns("__pycache__"))
        for folder, name in (("fuzz", "targets.cmake"), ("props", "properties.cmake"), ("props", "registry.h")):
            listed = os.path.join(os.path.dirname(source), folder, name)
            if os.path.exists(listed):
                os.makedirs(os.path.join(self.root, folder), exist_ok=True)
                shutil.copy2(listed, os.path.join(self.root, folder))
        self.home, self.tmpdir, shims = (os.path.join(tmp, d) for d in ("home", "tmpdir", "shims"))
        for d in (self.home, self.tmpdir, shims):
            os.makedirs(d)
        self.calls = os.path.join(tmp, "calls.log")
        real_cmake = shutil.which("cmake") or "false"
        for cmd in FORBIDDEN:
            passthrough = f'[ "${{1:-}}" = -P ] && exec {real_cmake} "$@"\n' if cmd == "cmake" else ""
            write(os.path.join(shims, cmd), f'#!/bin/sh\n{passthrough}echo "{cmd} $*" >> {self.calls}\nexit 97\n', 0o755)
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "NEFFBAR_CI_TOOLS")}
        self.env.update(PATH=shims + os.pathsep + os.environ.get("PATH", ""), HOME=self.home, TMPDIR=self.tmpdir)

    def path(self, name):
        return os.path.join(self.root, "scripts", name)

    def run(self, name, kind, args, env=None):
        """(exit code, stdout, stderr, side effects) of one script run."""
        cmd = [sys.executable, self.path(name)] if kind == "module" else [self.path(name)]
        before = snapshot(self.root, self.home, self.tmpdir)
        open(self.calls, "w").close()
        try:
            p = subprocess.run(cmd + args, capture_output=True, text=True, cwd=self.tmpdir, env=env or self.env,
                               timeout=120, stdin=subprocess.DEVNULL)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = "timeout", "", ""
        with open(self.calls) as f:
            effects = [f"ran {c}" for c in f.read().split("\n") if c]
        effects += changed(before, snapshot(self.root, self.home, self.tmpdir))
        return rc, out, err, effects


# --------------------------------------------------------------- the checks --
def help_problems(scratch, name, kind):
    """What is wrong with `name`'s shebang, --help and -h (empty: nothing)."""
    problems = []
    if kind != "module":
        with open(scratch.path(name)) as f:
            first = f.readline().rstrip("\n")
        if first not in SHEBANGS:
            problems.append(f"shebang {first!r}, not one of {' or '.join(SHEBANGS)}")
    for flag in ("--help", "-h"):
        rc, out, err, effects = scratch.run(name, kind, [flag])
        if rc != 0:
            problems.append(f"{flag}: exit {rc}")
        if err:
            problems.append(f"{flag}: stderr {err.strip()[:80]!r}")
        problems += [f"{flag}: {e}" for e in effects]
        if kind == "bash":
            if out != header_block(scratch.path(name)) or not out.strip():
                problems.append(f"{flag}: not the header comment block ({len(out.splitlines())} lines printed, "
                                f"{len(header_block(scratch.path(name)).splitlines())} in the header)")
        else:
            with open(scratch.path(name)) as f:
                doc = ast.get_docstring(ast.parse(f.read())) or ""
            first = doc.strip().split("\n")[0]
            if not first or first not in out:
                problems.append(f"{flag}: the docstring's first line {first[:50]!r} is not in the help")
    return problems


def usage_problems(scratch, name, kind, args, option):
    """What is wrong with `name args` as a usage error naming `option` (empty: nothing)."""
    rc, out, err, effects = scratch.run(name, kind, args)
    problems = [f"exit {rc}, not 2"] if rc != 2 else []
    lines = err.strip().split("\n") if err.strip() else []
    if len(lines) != 1 or option not in lines[0] or "Traceback" in err:
        problems.append(f"stderr {err.strip()[:120]!r} is not one line naming {option}")
    if out:
        problems.append(f"stdout {out.strip()[:60]!r}")
    return problems + effects


def modules_of(folder):
    """The .py files of `folder` and of its package lib/, as paths relative to `folder`."""
    return sorted(n for n in os.listdir(folder) if n.endswith(".py")) + \
        sorted(f"lib/{n}" for n in os.listdir(os.path.join(folder, "lib")) if n.endswith(".py"))


def load_problem(path, cwd):
    """None when the module at `path` loads by its path alone, from `cwd`, with nothing of
    scripts/ on sys.path (-I); else the last line of its error."""
    p = subprocess.run([sys.executable, "-I", "-B", "-c", "import importlib.util as u, sys\n"
                        "s = u.spec_from_file_location('m', sys.argv[1]); s.loader.exec_module(u.module_from_spec(s))", path],
                       cwd=cwd, capture_output=True, text=True)
    return (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1] if p.returncode else None


def test_scripts(check, tmp):
    scratch = Scratch(tmp)
    found = scripts_of(os.path.join(scratch.root, "scripts"))
    names = [n for n, _ in found]
    check(len(found) >= 15 and {"run", "test", "deps", "bench-history", "campaign.py", "mutate"} <= set(names),
          f"{len(found)} scripts found: {' '.join(names)}")
    for name, kind in found:
        problems = help_problems(scratch, name, kind)
        check(not problems, f"{name} --help, -h: the help, exit 0, no side effect" + (f": {'; '.join(problems)}" if problems else ""))
    for name, kind in found:
        if name in UNKNOWN_OPTION_NOT_YET:
            print(f"  skip {name} --no-such-option: {UNKNOWN_OPTION_NOT_YET[name]} (not scripts/lib/common.sh yet)")
            continue
        problems = usage_problems(scratch, name, kind, ["--no-such-option"], "--no-such-option")
        check(not problems, f"{name} --no-such-option: exit 2, one line naming it, no side effect"
              + (f": {'; '.join(problems)}" if problems else ""))
        for args, option in BAD_VALUES.get(name, []):
            problems = usage_problems(scratch, name, kind, args, option)
            check(not problems, f"{name} {' '.join(args)}: exit 2, one line naming {option}, no side effect"
                  + (f": {'; '.join(problems)}" if problems else ""))
    # Every module, of scripts/ and of its package lib/, loads by its path alone, from
    # another folder, with nothing of scripts/ on sys.path (-I): each puts scripts/ there
    # before it imports the package.
    for name in modules_of(os.path.join(scratch.root, "scripts")):
        problem = load_problem(os.path.join(scratch.root, "scripts", name), tmp)
        check(problem is None, f"{name} loads by its path from another folder" + (f": {problem}" if problem else ""))
    missing = set(BAD_VALUES) - set(names)
    check(not missing, "every script with bad values listed exists" + (f": not {sorted(missing)}" if missing else ""))


def test_run_logged(check, tmp):
    scratch = Scratch(tmp)
    write(scratch.path("logged"), '#!/usr/bin/env bash\n# A script of the test.\n. "$(dirname "$0")/lib/common.sh"\n'
          'run_logged ok sh -c "echo fine" || exit 9\nrun_logged step sh -c "echo out-line; echo err-line >&2; exit 3"\n'
          'echo not-reached\n', 0o755)
    rc, out, err, _ = scratch.run("logged", "bash", [])
    log = os.path.join(scratch.root, "out", "logs", "step.log")
    text = open(log).read() if os.path.exists(log) else ""
    check(rc == 3 and not out and "logged: step failed (exit 3); the last lines of out/logs/step.log:" in err
          and "err-line" in err and "out-line" in err and "fine" not in err,
          f"run_logged: a failure's end on stderr, its exit code (3) kept under set -e: exit {rc}, {err.strip()[:80]!r}")
    check(text == "out-line\nerr-line\n" and open(os.path.join(scratch.root, "out", "logs", "ok.log")).read() == "fine\n",
          "run_logged: each command's output in out/logs/NAME.log, a passing one silent")


def test_run(check, tmp):
    """scripts/run end to end on fakes: the matrix once, as JSON; nothing outside out/."""
    scratch = Scratch(tmp)
    env, steps, calls = run_fakes(scratch, tmp)
    outside = {p: v for p, v in snapshot(scratch.root).items() if not p.startswith(os.path.join(scratch.root, "out"))}
    rc, out, err, _ = scratch.run("run", "bash", ["--seconds", "10", "--cases", "1", "--mutants", "1"], env=env)
    report = os.path.join(scratch.root, "out", "report.md")
    text = open(report).read() if os.path.exists(report) else ""
    made = changed(outside, {p: v for p, v in snapshot(scratch.root).items()
                             if not p.startswith(os.path.join(scratch.root, "out"))})
    with open(calls) as f:
        matrix = [c for c in f.read().split("\n") if c.startswith("hypotheses") and "--full" not in c]
    check(matrix == ["hypotheses --json -o out/hypotheses.json --html out/hypotheses.html"],
          f"run: the matrix run once, as JSON and its grid: {matrix}")
    check("| hypotheses | ok | 3 scenarios: DEADLOCK 1, OK 2 (out/hypotheses.json; the grid out/hypotheses.html) |" in text
          and "- hierarchical DEADLOCK: 1\n- table OK: 2\n" in text,
          "run: the matrix's counts on the summary, read from the JSON")
    check("| 64x4 exact | ok | hierarchical host-CC: 1 round(s): OK exact=true" in text,
          "run: the 64x4 verdicts read from check --json")
    ran = read(steps) if os.path.exists(steps) else ""
    builds = [c for c in ran.split("\n") if c.startswith("cmake --build")]
    check(len(builds) == 1 and builds[0].startswith("cmake --build --preset gcc") and builds[0].endswith("--target neffbar"),
          f"run: the campaign builds the CLI alone (the unit tests are ./scripts/test's): {builds}")
    check(not [c for c in ran.split("\n") if c.startswith("test ")] and "| slow tests |" not in text
          and "Not in the campaign: the OSS-Fuzz and AFL++ replica builds (`./scripts/test --slow`" in text,
          f"run: the replica builds are left to ./scripts/test --slow, and the summary says how to run them: {ran!r}")
    page = read(os.path.join(scratch.root, "out", "report.html"))
    check("The campaign as one page (the matrix grid, coverage, fuzzing, mutation score, benchmark charts): out/report.html." in text
          and "<tr class='step'><td>codec</td><td class='ok'>ok</td>" in page and "3 scenarios: DEADLOCK 1, OK 2" in page
          and "history.jsonl: line 1" in page and read(os.path.join(scratch.root, "out", "steps.tsv")).startswith("step\tresult\tdetail\nbuild\tok\t"),
          "run: out/report.html from the same files as the summary (steps.tsv, the matrix's JSON, the fake's bad history named)")
    check(not made, "run: nothing written outside out/" + (f": {made[:3]}" if made else ""))
    check(rc == 0 and "| codec | ok |" in text, f"run: exit {rc} with every fake step passing" + ("" if rc == 0 else f": {err[-300:]}"))


def test_campaign(check, tmp):
    def get(*args):
        p = subprocess.run([sys.executable, os.path.join(HERE, "campaign.py"), *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def put(name, text):
        path = os.path.join(tmp, name)
        write(path, text)
        return path
    rows = [{"verdict": v, "lowering": low} for v, low in (("OK", "table"), ("UNSAFE", "table"), ("OK", "arrive_wait"),
                                                            ("OK", "table"))]
    rc, out, _ = get("matrix", put("m.json", json.dumps(rows)))
    check(rc == 0 and out == "4 scenarios: OK 3, UNSAFE 1\n- arrive_wait OK: 1\n- table OK: 2\n- table UNSAFE: 1\n",
          "campaign.py matrix: the verdict counts, then per lowering and verdict")
    rc, out, _ = get("get", put("c.json", '{"verdict": "OK", "exact": false, "states": 12}'), "exact", "verdict", "states")
    check(rc == 0 and out == "false\nOK\n12\n", "campaign.py get: the values, booleans as JSON spells them")
    for what, args, expect in (
            ("an empty list", ["matrix", put("e.json", "[]")], "e.json: expected a non-empty list"),
            ("a row without a verdict", ["matrix", put("v.json", '[{"lowering": "table"}]')], "v.json: [0].verdict"),
            ("duplicate keys", ["matrix", put("d.json", '[{"verdict": "OK", "verdict": "OK", "lowering": "t"}]')],
             "d.json: not JSON: duplicate key"),
            ("not JSON", ["get", put("n.json", "{"), "verdict"], "n.json: not JSON"),
            ("a missing key", ["get", put("k.json", "{}"), "verdict"], "k.json: no key 'verdict'"),
            ("a missing file", ["get", os.path.join(tmp, "absent.json"), "x"], "absent.json: no such file"),
            ("a row without a lowering", ["matrix", put("l.json", '[{"verdict": "OK"}]')], "l.json: [0].lowering"),
            ("get on a list", ["get", put("g.json", '[{"verdict": "OK"}]'), "verdict"], "g.json: expected a JSON object")):
        rc, out, err = get(*args)
        check(rc == 2 and not out and err.count("\n") == 1 and expect in err, f"campaign.py, {what}: exit {rc}, {err.strip()!r}")


def fractions(text, target):
    """The bars' filled fractions in the fuzzing row of one target."""
    row = re.search(f"<tr class='target' data-target='{target}'>(.*?)</tr>", text)
    return re.findall(r"data-fraction='([0-9.]+)'", row.group(1)) if row else None


def campaign_page(out, *args):
    """(exit code, stdout, stderr, out/report.html's text) of campaign.py page OUT."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "campaign.py"), "page", out, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr, read(os.path.join(out, "report.html"))


def test_campaign_page(check, tmp):
    """campaign.py page: each section drawn from its file (values found where they
    belong, escaped), links into the llvm-cov report only where its page exists."""
    out = campaign_out(tmp)
    rc, said, err, text = campaign_page(out)
    check(rc == 0 and said == os.path.join(out, "report.html") + "\n" and not err, f"campaign.py page: exit {rc}, {said!r} {err!r}")
    check("<td>g++ &lt;b&gt;&amp;</td>" in text and "<td class='FAIL'>FAIL</td>" in text and "<b>&" not in text,
          "page: the step table from steps.tsv, escaped")
    check("3 scenarios: DEADLOCK 2, OK 1" in text and "<tr class='lowering'><td>table</td><td>1</td><td>1</td></tr>" in text
          and "<iframe id='matrix-grid' src='hypotheses.html'" in text, "page: the matrix counts per lowering, the grid embedded")
    check("data-folder='core/cli'" in text and "97.50 %" in text and "<a href='coverage/index.html'>" in text
          and "<a href='coverage/coverage/abs/repo/core/cli/b.cpp.html'>core/cli/b.cpp</a>" in text
          and "<li class='file'>" in text and ">core/cli/a.cpp</a>" not in text and "core/cli/a.cpp (30 of 30)" in text
          and "90.0 %" in text,
          "page: coverage per folder, each file linked to its llvm-cov page where there is one")
    order = re.findall(r"<li class='file'>.*?(core/cli/\w+\.cpp)", text)
    check(order == ["core/cli/d.cpp", "core/cli/b.cpp", "core/cli/z.cpp", "core/cli/a.cpp"],
          f"page: a folder's files lowest coverage first, a file of no lines as a full one: {order}")
    check("data-target='decode'" in text and "4,000" in text and "10 -&gt; 25 (+15)" in text
          and "<td class='FAIL'>2</td></tr>" in text, "page: fuzzing's exec/s, corpus growth and crashes per target")
    check(fractions(text, "decode") == ["1.0000", "1.0000"] and fractions(text, "scenario") == ["0.0075", "0.1600"],
          f"page: exec/s bars against the fastest target, corpus bars against the largest corpus after: "
          f"{fractions(text, 'decode')} {fractions(text, 'scenario')}")
    check("data-operator='del' data-killed='1' data-counted='3'" in text and "5 of 9 killed" in text
          and "data-operator='cst' data-killed='0' data-counted='2'" in text and "0 of 2" in text,
          "page: the mutation score per operator from score.json")
    check(text.count("class=\"chart\"") == len(fake_names()) and "time +" in text,
          "page: a benchmark chart per benchmark of the history, its change point marked")


def test_campaign_page_scales(check, tmp):
    """Rates below one and corpora that stay empty: bars against the largest value, never
    against a floor that is not in the data (and no division by zero)."""
    out = campaign_out(tmp)
    summary = os.path.join(out, "fuzz", "summary.tsv")
    head = "target\texecs\texec_per_s_all_jobs\tcorpus_before\tcorpus_after\tnew_inputs\tcrashes\n"
    for rows, want in ((("a\t1\t0.5\t0\t0\t0\t0", "b\t1\t0.25\t0\t1\t1\t0"), {"a": ["0.5000", "0.0000"], "b": ["0.2500", "1.0000"]}),
                       (("a\t1\t0.5\t0\t0\t0\t0",), {"a": ["0.5000", "0.0000"]})):
        write(summary, head + "\n".join(rows) + "\n")
        rc, _, err, text = campaign_page(out)
        got = {t: fractions(text, t) for t in want}
        check(rc == 0 and got == want, f"page: small rates and empty corpora drawn to scale: exit {rc} {got} {err[-300:]!r}")


def test_campaign_page_bad_files(check, tmp):
    """A missing file and a bad one each leave their section saying which and why, the
    rest drawn (a bad line by its number); a DIR that is not a folder is exit 2."""
    out = campaign_out(tmp)
    folders = os.path.join(out, "coverage", "folders.txt")
    kept = read(folders)
    for bad in ("  50 % of 2 lines core/x", "  50.00 X 1 of 2 lines core/x", "  50.00 % 1 in 2 lines core/x",
                "  50.00 % 1 of 2 rows core/x"):
        write(folders, kept + bad + "\n")
        rc, _, err, text = campaign_page(out)
        check(rc == 0 and "folders.txt: line 3: expected &#x27;P % C of T lines FOLDER&#x27;" in text,
              f"page: a bad line of folders.txt ({bad.strip()!r}) named by its number: exit {rc} {err!r}")
    write(folders, kept)
    check(text.rstrip().endswith("</body></html>"), f"page: a whole HTML document: ...{text[-40:]!r}")
    write(os.path.join(out, "mutate-campaign", "score.json"), '{"killed": 1, "counted": 2, "per_operator": [1, 2]}')
    rc, _, err, text = campaign_page(out)
    check(rc == 0 and "score.json: per_operator: expected {operator: {killed, counted}}" in text,
          f"page: per_operator that is not an object is named: exit {rc} {err[-300:]!r}")
    os.remove(os.path.join(out, "fuzz", "summary.tsv"))
    write(os.path.join(out, "mutate-campaign", "score.json"), '{"killed": 1, "counted": 2, "per_operator": {"ror": {"killed": 5, "counted": 4}}}')
    write(os.path.join(out, "coverage", "files.tsv"), "core/cli/a.cpp\t30\n")
    rc, _, err, text = campaign_page(out)
    check(rc == 0 and "fuzz/summary.tsv is missing" in text and "score.json: per_operator: expected" in text
          and "files.tsv: line 1: expected 3 tab-separated fields, got 2" in text and "data-section='coverage'" in text
          and "<td class='FAIL'>FAIL</td>" in text and text.count("class=\"chart\"") > 0,
          f"page: a missing file and bad ones named in their sections, the others drawn: exit {rc} {err!r}")
    p = subprocess.run([sys.executable, os.path.join(HERE, "campaign.py"), "page", os.path.join(out, "steps.tsv")],
                       capture_output=True, text=True)
    check(p.returncode == 2 and "steps.tsv: not a folder" in p.stderr and p.stderr.count("\n") == 1,
          f"page: a DIR that is not a folder is exit 2: {p.returncode} {p.stderr!r}")


def test_campaign_page_hostile(check, tmp):
    """Hostile values: a tab in a step's detail is kept; nan, inf, signs and exponents are
    not numbers here; booleans are not counts; a loop is not "missing"; a dead link and a
    folder where a page should be are not linked; a title that is not UTF-8 is escaped; a
    report.html that cannot be replaced is exit 2."""
    out = campaign_out(tmp)
    write(os.path.join(out, "steps.tsv"), "step\tresult\tdetail\nmutation\tFAIL\tmake: *** [x]\tError 2\n")
    write(os.path.join(out, "fuzz", "summary.tsv"), "target\texecs\texec_per_s_all_jobs\tcorpus_before\tcorpus_after\t"
                                                   "new_inputs\tcrashes\na\t1\tnan\t1\t2\t1\t0\n")
    write(os.path.join(out, "coverage", "files.tsv"), "core/cli/a.cpp\t3e1\t30\n")
    write(os.path.join(out, "mutate-campaign", "score.json"), '{"killed": true, "counted": true, "per_operator": {}}')
    os.remove(os.path.join(out, "hypotheses.html"))
    os.makedirs(os.path.join(out, "hypotheses.html"))
    os.remove(os.path.join(out, "bench-history", "history.jsonl"))
    os.symlink("history.jsonl", os.path.join(out, "bench-history", "history.jsonl"))
    rc, _, err, text = campaign_page(out)
    check(rc == 0 and "<td>make: *** [x]\tError 2</td>" in text and "line 2: expected a rate (digits, a decimal point), got &#x27;nan&#x27;" in text
          and "files.tsv: line 1: expected a count, got &#x27;3e1&#x27;" in text and "score.json: expected {killed, counted" in text
          and "history.jsonl: too many levels of symbolic links" in text and "<iframe" not in text
          and "hypotheses.html: not a file" in text
          and "href='hypotheses.html'" not in text, f"page: hostile values each named, nothing drawn from them: exit {rc} {err!r}")
    p = subprocess.run([sys.executable, os.path.join(HERE, "campaign.py"), "page", out, "--title", b"run \xff"],
                       capture_output=True, text=True)
    check(p.returncode == 0 and "<h1>run \\udcff</h1>" in read(os.path.join(out, "report.html")),
          f"page: a title (or path) that is not UTF-8 is shown escaped, the page written: {p.returncode} {p.stderr[-200:]!r}")
    os.remove(os.path.join(out, "report.html"))
    os.makedirs(os.path.join(out, "report.html"))
    p = subprocess.run([sys.executable, os.path.join(HERE, "campaign.py"), "page", out], capture_output=True, text=True)
    rc, err = p.returncode, p.stderr
    check(rc == 2 and err.endswith("report.html: is a directory\n") and ".tmp" not in err,
          f"page: a report.html that cannot be replaced is exit 2, named (not its temporary): {rc} {err!r}")


def test_teeth(check, tmp):
    """The checks above catch a script that breaks them each way."""
    scratch = Scratch(tmp)
    header = "# A planted script.\n#   ./scripts/x [--help]\n# Exit 0.\n"
    planted = {
        "installs": ("#!/usr/bin/env bash\n" + header + "apt-get install -y foo\necho help\n", "ran apt-get"),
        "writes": ('#!/usr/bin/env bash\n' + header + 'cd "$(dirname "$0")/.."; mkdir -p out; echo x > out/x\n'
                   'sed -n "2,4p" "scripts/writes" | sed "s/^# //"\n', "made "),
        "old-shebang": ("#!/usr/bin/python3\n" + '"""A planted script."""\nimport sys\nprint("A planted script.")\n',
                        "shebang '#!/usr/bin/python3'"),
        "line-range": ('#!/usr/bin/env bash\n' + header + '# A line added later.\nsed -n "2,4p" "$0" | sed "s/^# //"\n',
                       "not the header comment block"),
        "pycache": ('#!/usr/bin/env python3\n"""A planted script."""\nimport os\nimport sys\n'
                    'sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\nfrom lib import strict_io  # noqa\n'
                    'print("A planted script.")\n', "made "),
    }
    for name, (text, expect) in planted.items():
        write(scratch.path(name), text, 0o755)
        problems = help_problems(scratch, name, "python" if "python" in text.split("\n")[0] else "bash")
        check(any(expect in p for p in problems), f"teeth: a script that {name.replace('-', ' ')} is caught: {problems[:2]}")
    write(scratch.path("lax"), "#!/usr/bin/env bash\n" + header + 'case "${1:-}" in -h|--help) exit 0 ;; esac\necho ran\n', 0o755)
    problems = usage_problems(scratch, "lax", "bash", ["--no-such-option"], "--no-such-option")
    check(any("exit 0" in p for p in problems), f"teeth: a script that takes an unknown option is caught: {problems[:2]}")
    problems = usage_problems(scratch, "lax", "bash", ["--help"], "--help")
    check(problems != [], "teeth: ... and a usage check of a run that exits 0 with no error line fails")


FAKE_FUZZER = """import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with SIGINT ignored
sys.stderr.write("INFO: Seed: 1\\n#2\\tINITED cov: 3 ft: 3 corp: 2/2b exec/s: 0 rss: 30Mb\\n")
sys.stderr.flush()
give_up = time.time() + 30
try:
    while time.time() < give_up:  # burns CPU until fuzz_speed.py's SIGINT, as libFuzzer's loop does
        pass
    sys.exit(3)
except KeyboardInterrupt:
    sys.stderr.write("==1== libFuzzer: run interrupted; exiting\\nstat::number_of_executed_units: 1002\\n")
"""


def test_fuzz_speed(check, tmp):
    """fuzz_speed.py on a fake libFuzzer: the INITED pass and the steady state apart,
    SIGINT after SECONDS of the steady state's CPU (a fraction of a second allowed)."""
    fake = os.path.join(tmp, "fake_fuzzer.py")
    write(fake, FAKE_FUZZER)
    log = os.path.join(tmp, "fuzz.log")

    def speed(seconds):
        try:
            return subprocess.run([sys.executable, os.path.join(HERE, "fuzz_speed.py"), seconds, log, sys.executable, fake],
                                  capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess([], "timeout", "", "no SIGINT within 60 s")
    p = speed("0.3")
    fields = p.stdout.strip().split("\t")
    try:
        inited_cpu, steady_cpu = float(fields[2]), float(fields[4])
    except (IndexError, ValueError):
        inited_cpu = steady_cpu = -1.0
    # the rate is of the unrounded CPU time: within 3 % of 1000 / the printed 2 decimals
    check(p.returncode == 0 and len(fields) == 6 and fields[0] == "1002" and fields[1] == "2" and fields[3] == "1000"
          and inited_cpu >= 0 and 0.3 <= steady_cpu < 5 and fields[5].isdigit() and abs(int(fields[5]) * steady_cpu - 1000) <= 30
          and "stat::number_of_executed_units: 1002" in open(log).read(),
          f"fuzz_speed.py 0.3 s on a fake fuzzer: 1002 execs, 2 at INITED, 1000 in >= 0.3 CPU s, their rate: {p.stdout.strip()!r} {p.stderr.strip()[-120:]!r}")
    p = speed("0")
    check(p.returncode == 2 and "not a positive number" in p.stderr, f"fuzz_speed.py 0 seconds: exit 2: {p.returncode}")
    write(fake, "import sys\nsys.stderr.write('INFO: Seed: 1\\n==1== ERROR: deadly signal\\n')\nsys.exit(1)\n")
    p = speed("0.3")
    check(p.returncode == 0 and p.stdout == "\t".join(["?"] * 6) + "\n",
          f"fuzz_speed.py on a target that dies before INITED: '?' in every field, exit 0: {p.returncode} {p.stdout!r}")


# ----------------------------------------------------------- fakes for the bash scripts --
FAKE_CMAKE = """#!/bin/sh
echo "cmake $*" >> "$FAKE_LOG"
[ "$1" = -P ] && { echo "decode json"; exit 0; }
[ "$1" = --build ] && exit "${FAKE_BUILD_RC:-0}"
exit "${FAKE_CMAKE_RC:-0}"
"""


def fake_tools(scratch, tmp, tools):
    """A folder of fake commands (name -> sh body after the shebang) ahead of the shims
    on the PATH; each may log to $FAKE_LOG.  Returns (env, the log's path)."""
    bin_dir = os.path.join(tmp, "fakebin")
    os.makedirs(bin_dir, exist_ok=True)
    for name, body in tools.items():
        write(os.path.join(bin_dir, name), body if body.startswith("#!") else "#!/bin/sh\n" + body, 0o755)
    log = os.path.join(tmp, "fake.log")
    open(log, "w").close()
    env = dict(scratch.env, PATH=bin_dir + os.pathsep + scratch.env["PATH"], FAKE_LOG=log)
    return env, log


def logged(log, prefix):
    """The lines of the fake log that start with `prefix`, then empties the log."""
    with open(log) as f:
        lines = [x for x in f.read().split("\n") if x.startswith(prefix)]
    open(log, "w").close()
    return lines


def no_deps(scratch):
    """scripts/deps replaced by a no-op (every build script runs it first)."""
    write(scratch.path("deps"), "#!/usr/bin/env bash\nexit 0\n", 0o755)


def put_file(scratch, rel, text, mode=0o644):
    path = os.path.join(scratch.root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write(path, text, mode)
    return path


def read(path):
    if not os.path.exists(path):
        return ""
    with open(path, errors="replace") as f:
        return f.read()


# ------------------------------------------------------------------ scripts/test --
FAKE_CTEST = 'echo "ctest $*" >> "$FAKE_LOG"\nexit "${FAKE_CTEST_RC:-0}"\n'


def test_test_script(check, tmp):
    """scripts/test on a fake cmake and ctest: the label sets of each mode, the JUnit
    XML, exit 1 when a test or a build failed, the ::error annotation of a property."""
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, log = fake_tools(scratch, tmp, {"cmake": FAKE_CMAKE, "ctest": FAKE_CTEST})
    want = {"--quick": [("gcc", "-L", "^(unit|e2e|props)$")], "--slow": [("gcc", "-L", "^slow$")],
            "": [("gcc", "-LE", "^slow$"), ("fuzz", "-LE", "^(bench-smoke|props|spin|oss-fuzz|slow|scripts|py-selftest)$")]}
    for mode, runs_wanted in want.items():
        rc, out, err, _ = scratch.run("test", "bash", [mode] if mode else [], env=env)
        runs = logged(log, "ctest ")
        ok = rc == 0 and len(runs) == len(runs_wanted) and all(
            r.startswith(f"ctest --preset {preset} -j ") and r.endswith(f" {flag} {labels}")
            for (preset, flag, labels), r in zip(runs_wanted, runs))
        check(ok, f"test {mode or '(all)'}: ctest {' then '.join(f'--preset {p} {f} {lab}' for p, f, lab in runs_wanted)}: {rc} {runs}")
    junit = os.path.join(tmp, "junit")
    rc, *_ = scratch.run("test", "bash", ["--quick"], env=dict(env, NEFFBAR_JUNIT_DIR=junit))
    runs = logged(log, "ctest ")
    check(rc == 0 and runs and f"--output-junit {junit}/ctest-gcc-quick.xml" in runs[0],
          f"test: NEFFBAR_JUNIT_DIR=DIR gives ctest --output-junit DIR/ctest-<name>.xml: {runs}")
    last = put_file(scratch, "build/gcc/Testing/Temporary/LastTest.log",
                    f'Command: "{scratch.root}/build/gcc/props/props_tests" "--gtest_also_run_disabled_tests"\n'
                    'Falsifiable after 3 tests\nRC_PARAMS="reproduce=BchVQ"\n')
    rc, out, err, _ = scratch.run("test", "bash", ["--quick"], env=dict(env, FAKE_CTEST_RC="8", GITHUB_ACTIONS="true"))
    check(rc == 1 and '::error title=property failed::RC_PARAMS="reproduce=BchVQ" build/gcc/props/props_tests' in out,
          f"test: a failing test is exit 1, and a property's reproduce line an ::error annotation: {rc} {out.strip()[-160:]!r}")
    os.unlink(last)
    logged(log, "")
    rc, out, err, _ = scratch.run("test", "bash", ["--quick"], env=dict(env, FAKE_BUILD_RC="5"))
    check(rc == 1 and not logged(log, "ctest ") and "build-gcc failed (exit 5)" in err,
          f"test: a build that failed is exit 1, the log's end shown, no test run: {rc} {err.strip()[-120:]!r}")


# ------------------------------------------------------------------ scripts/deps --
FAKE_DEPS_TOOLS = {
    "dpkg-query": 'for p; do :; done\ncase " $FAKE_MISSING " in *" $p "*) exit 1 ;; esac\nprintf "install ok installed"\n',
    "apt-get": 'echo "apt-get $*" >> "$FAKE_LOG"\nexit "${FAKE_APT_RC:-0}"\n',
    "sudo": 'echo "sudo $*" >> "$FAKE_LOG"\nexec "$@"\n',
    "id": 'echo "${FAKE_UID:-0}"\n',
    "npm": 'echo "npm $*" >> "$FAKE_LOG"\nexit "${FAKE_NPM_RC:-0}"\n',
    "node": "exit 1\n",
}


def test_deps(check, tmp):
    """scripts/deps on a fake dpkg-query, apt-get, sudo, id and npm: only the missing
    packages installed, through sudo when not root; exit 1 when apt-get fails; an npm
    failure only warns."""
    scratch = Scratch(tmp)
    env, log = fake_tools(scratch, tmp, FAKE_DEPS_TOOLS)
    rc, out, err, _ = scratch.run("deps", "bash", [], env=dict(env, FAKE_MISSING="spin valgrind", FAKE_UID="1000"))
    calls = logged(log, "")
    check(rc == 0 and "sudo apt-get install -y -qq --no-install-recommends spin valgrind" in calls
          and "apt-get install -y -qq --no-install-recommends spin valgrind" in calls,
          f"deps: only the missing packages, through sudo when not root: {rc} {[c for c in calls if 'install' in c]}")
    rc, out, err, _ = scratch.run("deps", "bash", [], env=dict(env, FAKE_MISSING="spin", FAKE_UID="0"))
    calls = logged(log, "")
    check(rc == 0 and "apt-get install -y -qq --no-install-recommends spin" in calls and not [c for c in calls if c.startswith("sudo")],
          f"deps: as root, apt-get itself: {calls}")
    rc, out, err, _ = scratch.run("deps", "bash", [], env=dict(env, FAKE_MISSING=""))
    check(rc == 0 and not [c for c in logged(log, "") if "apt-get" in c], "deps: nothing missing, nothing installed")
    rc, out, err, _ = scratch.run("deps", "bash", [], env=dict(env, FAKE_MISSING="spin", FAKE_APT_RC="100"))
    check(rc == 1 and "deps-apt-update failed (exit 100)" in err, f"deps: apt-get failing is exit 1: {rc} {err.strip()[-100:]!r}")
    logged(log, "")
    rc, out, err, _ = scratch.run("deps", "bash", [], env=dict(env, FAKE_MISSING="", FAKE_NPM_RC="1"))
    check(rc == 0 and [c for c in logged(log, "npm install") if "yaml@" in c] and "the npm install failed" in err,
          f"deps: an npm install that fails only warns (exit 0): {rc} {err.strip()[-100:]!r}")


# ------------------------------------------------------------------ scripts/props --
def test_props(check, tmp):
    """scripts/props: --cases, --seed and --filter reach the property binary (RC_PARAMS,
    --gtest_filter); exit 1 when a property fails."""
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, log = fake_tools(scratch, tmp, {"cmake": FAKE_CMAKE})
    put_file(scratch, "build/gcc/props/props_tests", '#!/bin/sh\necho "RC_PARAMS=$RC_PARAMS $*"\nexit "${FAKE_PROPS_RC:-0}"\n', 0o755)
    rc, out, err, _ = scratch.run("props", "bash", ["--cases", "7", "--seed", "42", "--filter", "Props.P1*"], env=env)
    check(rc == 0 and "RC_PARAMS=max_success=7 seed=42 --gtest_filter=Props.P1*" in out,
          f"props: --cases and --seed reach rapidcheck, --filter gtest: {rc} {out.strip()[-100:]!r}")
    rc, out, err, _ = scratch.run("props", "bash", ["--cases", "7"], env=dict(env, FAKE_PROPS_RC="1"))
    check(rc == 1, f"props: a property that fails is exit 1: {rc}")
    rc, out, err, _ = scratch.run("props", "bash", [], env=dict(env, FAKE_BUILD_RC="1"))
    check(rc == 1 and "build-props_tests failed" in err, f"props: a build that fails stops it, its log's end shown: {rc} {err.strip()[-80:]!r}")


# ----------------------------------------------------------- scripts/make-corpus --
FAKE_MAKE_CORPUS = """#!/bin/sh
mkdir -p "$1/corpus/decode" "$1/corpus/regressions/decode" "$1/fuzz"
printf 'seed-one' > "$1/corpus/decode/a.seed"
printf 'kw="x"\\n' > "$1/fuzz/decode.dict"
"""


def test_make_corpus(check, tmp):
    """scripts/make-corpus on a fake make_corpus: out/make-corpus/ made afresh, a .seed
    under its sha1, nothing of the checkout touched; --merge keeps the seeds there;
    every file whole or not at all, and a write that fails is exit 1."""
    import hashlib
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, log = fake_tools(scratch, tmp, {"cmake": FAKE_CMAKE})
    put_file(scratch, "build/gcc/fuzz/make_corpus", FAKE_MAKE_CORPUS, 0o755)
    sha = hashlib.sha1(b"seed-one").hexdigest()
    stale = put_file(scratch, "out/make-corpus/corpus/decode/stale", "old")
    old = put_file(scratch, "corpus/decode/old-seed", "old")
    outside = {p: v for p, v in snapshot(scratch.root).items() if "/out/" not in p + "/"}
    rc, out, err, _ = scratch.run("make-corpus", "bash", [], env=env)
    made = os.path.join(scratch.root, "out", "make-corpus")
    check(rc == 0 and read(os.path.join(made, "corpus", "decode", sha)) == "seed-one"
          and read(os.path.join(made, "fuzz", "decode.dict")) == 'kw="x"\n' and not os.path.exists(stale)
          and "out/make-corpus/corpus/decode: 1 seeds" in out,
          f"make-corpus: out/make-corpus/ made afresh, a .seed named by its sha1: {rc} {err.strip()[-100:]!r}")
    after = {p: v for p, v in snapshot(scratch.root).items() if "/out/" not in p + "/"}
    check(not changed(outside, after), f"make-corpus: nothing outside out/ written: {changed(outside, after)[:3]}")
    rc, out, err, _ = scratch.run("make-corpus", "bash", ["--merge"], env=env)
    check(rc == 0 and read(old) == "old" and read(os.path.join(scratch.root, "corpus", "decode", sha)) == "seed-one"
          and read(os.path.join(scratch.root, "fuzz", "decode.dict")) == 'kw="x"\n',
          f"make-corpus --merge: into corpus/ and fuzz/, the existing seeds kept: {rc} {err.strip()[-100:]!r}")
    mv_dir = os.path.join(tmp, "failing-mv")
    os.makedirs(mv_dir)
    write(os.path.join(mv_dir, "mv"), "#!/bin/sh\nexit 1\n", 0o755)
    target = os.path.join(made, "corpus", "decode", sha)
    rc, out, err, _ = scratch.run("make-corpus", "bash", [], env=dict(env, PATH=mv_dir + os.pathsep + env["PATH"]))
    temps = [f for f in os.listdir(os.path.dirname(target))] if os.path.isdir(os.path.dirname(target)) else []
    check(rc == 1 and not os.path.exists(target) and not temps,
          f"make-corpus: a write that fails (mv) is exit 1 and leaves no file, whole or half: {rc} {temps}")


# ---------------------------------------------------------- scripts/spin-compare --
FAKE_SPIN_TOOLS = {
    "cmake": FAKE_CMAKE,
    "spin": "touch pan.c\n",
    "cc": ("for a; do [ \"${prev:-}\" = -o ] && out=$a; prev=$a; done\n"
           "printf '#!/bin/sh\\necho \"      123 states, stored\"\\necho \"pan: elapsed time 0.5 seconds\"\\n' > \"$out\"\n"
           "chmod +x \"$out\"\n"),
}
FAKE_NEFFBAR_CHECK = """#!/bin/sh
case "$1" in
  promela) echo "active proctype p() { skip }" ;;
  check) echo '{"verdict": "OK", "states": 10, "states_per_second": 20}' ;;
esac
"""


def test_spin_compare(check, tmp):
    """scripts/spin-compare on fakes: a table on stdout, a row per model; a build that
    fails is exit 1."""
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, log = fake_tools(scratch, tmp, FAKE_SPIN_TOOLS)
    put_file(scratch, "build/gcc/core/neffbar", FAKE_NEFFBAR_CHECK, 0o755)
    rc, out, err, _ = scratch.run("spin-compare", "bash", [], env=env)
    lines = out.strip().split("\n")
    rows = [x.split() for x in lines[1:]]
    check(rc == 0 and lines[0].split()[:3] == ["model", "pan_states", "pan_st/s"] and len(rows) == 5
          and all(r[1:] == ["123", "246", "10", "20", "10", "20"] for r in rows),
          f"spin-compare: a table on stdout, pan's and neffbar's states and rates per model: {rc} {out.strip()[-200:]!r} {err.strip()[-100:]!r}")
    rc, out, err, _ = scratch.run("spin-compare", "bash", [], env=dict(env, FAKE_BUILD_RC="1"))
    check(rc == 1 and "build-neffbar failed" in err and not out.strip(), f"spin-compare: a build that fails is exit 1: {rc}")


# -------------------------------------------------------------- scripts/coverage --
FAKE_LLVM_COV = r"""#!/bin/sh
# export: FAKE_A and FAKE_B are "covered lines" of a.cpp and b.cpp (the covered first).
da() { i=1; while [ "$i" -le "$2" ]; do printf 'DA:%d,%d\n' "$i" "$([ "$i" -le "$1" ] && echo 1 || echo 0)"; i=$((i + 1)); done; }
case "$1" in
  report) for f in $FAKE_REPORTED; do echo "$f  10  5  50.00%"; done
          echo "TOTAL  100  10  90.00%  20  2  90.00%  300  30  90.00%  40  4  90.00%" ;;
  export) printf 'SF:%s/core/neffbar/a.cpp\n' "$PWD"; da ${FAKE_A:-1 3}; echo end_of_record
          printf 'SF:%s/core/cli/b.cpp\n' "$PWD"; da ${FAKE_B:-1 1}; echo end_of_record ;;
esac
exit 0
"""


def coverage_scratch(tmp):
    """A scratch copy of scripts/ with a fake build and llvm tools for scripts/coverage:
    (scratch, env); the report names what FAKE_REPORTED lists, the lines are FAKE_A's
    and FAKE_B's."""
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, _ = fake_tools(scratch, tmp, {"cmake": FAKE_CMAKE, "llvm-profdata-14": "exit 0\n", "llvm-cov-14": FAKE_LLVM_COV})
    for t in ("decode", "json"):
        put_file(scratch, f"build/coverage/fuzz/fuzz_{t}", "#!/bin/sh\nexit 0\n", 0o755)
    for f in ("core/neffbar/a.cpp", "core/cli/b.cpp", "core/cli/main.cpp", "core/neffbar/not_built.cpp"):
        put_file(scratch, f, "int x;\n")
    # What the build compiles (the files expected in the report): not_built.cpp, on disk
    # but not in this configuration (as without_nauty.cpp where nauty is found), is not.
    build = os.path.join(scratch.root, "build", "coverage")
    commands = [{"directory": build, "file": os.path.join(scratch.root, "core/neffbar/a.cpp")},
                {"directory": build, "file": "../../core/cli/b.cpp"},
                {"directory": build, "file": "../../core/cli/main.cpp"},
                {"directory": build, "file": "../../fuzz/fuzz_decode.cpp"}]
    put_file(scratch, "build/coverage/compile_commands.json", json.dumps(commands))
    return scratch, dict(env, FAKE_REPORTED="neffbar/a.cpp cli/b.cpp"), commands


def test_coverage(check, tmp):
    """scripts/coverage on fake builds and llvm tools: the report, uncovered.txt and the
    per-folder lines (written when under the gate too); a core .cpp missing from the
    report, or a build that fails, is exit 1."""
    scratch, env, commands = coverage_scratch(tmp)
    rc, out, err, _ = scratch.run("coverage", "bash", [], env=env)
    uncovered = read(os.path.join(scratch.root, "out", "coverage", "uncovered.txt"))
    check(rc == 3 and "lines 50.00% (2 of 4)" in out and "core/neffbar/a.cpp (33.33 %, 2 of 3 lines missed): 2-3" in uncovered
          and "  33.33 %      1 of     3 lines  core/neffbar" in out,
          f"coverage: out/coverage/uncovered.txt, the lines per folder and in all: {rc} {out.strip()[-200:]!r} {err.strip()[-100:]!r}")
    files = read(os.path.join(scratch.root, "out", "coverage", "files.tsv"))
    check(files.startswith("core/cli/b.cpp\t1\t1\ncore/neffbar/a.cpp\t1\t3\n"),
          f"coverage: out/coverage/files.tsv, each file's covered and total lines, every file (covered ones too): {files[:120]!r}")
    rc, out, err, _ = scratch.run("coverage", "bash", [], env=dict(env, FAKE_REPORTED="neffbar/a.cpp"))
    check(rc == 1 and "coverage: core/cli/b.cpp is missing from the report" in err,
          f"coverage: a core .cpp missing from the report is exit 1, named: {rc} {err.strip()[-100:]!r}")
    rc, out, err, _ = scratch.run("coverage", "bash", [], env=dict(env, FAKE_BUILD_RC="1"))
    check(rc == 1, f"coverage: a build that fails is exit 1: {rc}")
    put_file(scratch, "build/coverage/compile_commands.json", json.dumps(commands[3:]))
    rc, out, err, _ = scratch.run("coverage", "bash", [], env=env)
    check(rc == 1 and "compile_commands.json names no file of core/neffbar core/cli" in err,
          f"coverage: a build that compiles none of the library's files is exit 1, not an empty pass: {rc} {err.strip()[-100:]!r}")


@pytest.mark.parametrize("a, b, gate", [
    ("3 3", "1 1", None),
    ("18 20", "20 20", None),  # 95.00 % in all: at the gate
    ("100 100", "4 5", None),  # b at 80.00 %: at the file gate
    ("100 100", "3 4", "lines 99.04 % (gate: >= 95 %); 1 files under 80 %: core/cli/b.cpp 75.00 %"),
    ("16 20", "1 1", "lines 80.95 % (gate: >= 95 %)"),
    ("1 3", "0 1", "lines 25.00 % (gate: >= 95 %); 2 files under 80 %: core/cli/b.cpp 0.00 %, core/neffbar/a.cpp 33.33 %"),
], ids=["all covered", "total at 95 %", "a file at 80 %", "a file under 80 %", "the total under 95 %", "both, lowest first"])
def test_coverage_gate(tmp, a, b, gate):
    """scripts/coverage's gate: exit 3 and one line naming the total and each file under
    80 % when the total is under 95 % or a file under 80 %; exit 0 at the thresholds."""
    scratch, env, _ = coverage_scratch(tmp)
    rc, out, err, _ = scratch.run("coverage", "bash", [], env=dict(env, FAKE_A=a, FAKE_B=b))
    assert "coverage of core/neffbar + core/cli from the corpora: lines" in out
    assert os.path.isfile(os.path.join(scratch.root, "out", "coverage", "files.tsv"))
    if gate is None:
        assert (rc, err) == (0, "")
    else:
        assert (rc, err) == (3, f"coverage: below the gate: {gate}\n")


# ------------------------------------------------------------------ scripts/fuzz --
def fuzz_scratch(tmp):
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, log = fake_tools(scratch, tmp, {"cmake": FAKE_CMAKE})
    for t in ("decode", "json"):
        put_file(scratch, f"fuzz/{t}.options", "[libfuzzer]\nmax_len = 100\n")
        put_file(scratch, f"fuzz/{t}.dict", 'kw="x"\n')
        put_file(scratch, f"corpus/{t}/.keep", "")
        put_file(scratch, f"corpus/{t}/seed1", "s")
    return scratch, env, log


def test_fuzz_usage(check, tmp):
    """scripts/fuzz's usage errors: exit 2, the first line naming what is wrong, nothing
    built or written."""
    scratch, env, log = fuzz_scratch(tmp)
    named = put_file(scratch, "fuzz_decode-address-x", "x")
    unnamed = put_file(scratch, "crash-1", "x")
    for args, expect in ((["--no-such-option"], "unknown option --no-such-option"), (["nope"], "unknown target 'nope'"),
                         (["--seconds", "0"], "--seconds 0"), (["--seconds", "abc"], "--seconds abc"), (["--seconds"], "--seconds needs a value"),
                         (["--reproduce", "absent"], "--reproduce absent: no such file"),
                         (["--reproduce", unnamed], "the name does not say the target"),
                         (["--reproduce", named, "decode", "json"], "--reproduce takes one TARGET"),
                         (["--reproduce", named, "--max-seconds", "x"], "--max-seconds x: not a number"),
                         (["--reproduce", named, "--binary", os.path.join(tmp, "absent")], "not an executable")):
        rc, out, err, effects = scratch.run("fuzz", "bash", args, env=env)
        built = [c for c in logged(log, "cmake ") if " -P " not in c]
        check(rc == 2 and err.strip() and expect in err.strip().split("\n")[0] and not built and not effects,
              f"fuzz {' '.join(os.path.basename(a) for a in args)}: exit 2, naming it, nothing built or written: "
              f"{rc} {err.strip()[:100]!r} {built} {effects[:2]}")


FAKE_REPRODUCER = """#!/bin/sh
# A libFuzzer binary as scripts/fuzz sees it (it has the flag -minimize_crash in it):
# every input fails, and the minimisation finds nothing.
for a; do case "$a" in -minimize_crash=1) exit 0 ;; esac; done
exit 1
"""


def test_fuzz_reproduce(check, tmp):
    """scripts/fuzz --reproduce: with no minimised result that still fails, the input is
    kept as it is (under its sha1); a second time it is already kept."""
    import hashlib
    scratch, env, log = fuzz_scratch(tmp)
    binary = put_file(scratch, "fake_fuzz_decode", FAKE_REPRODUCER, 0o755)
    finding = put_file(scratch, "fuzz_decode-address-finding", "the bytes that fail")
    regressions = os.path.join(tmp, "regressions")
    kept = os.path.join(regressions, "decode", hashlib.sha1(b"the bytes that fail").hexdigest())
    args = ["--reproduce", finding, "--binary", binary, "--regressions", regressions]
    rc, out, err, _ = scratch.run("fuzz", "bash", args, env=env)
    check(rc == 0 and "keeping the input as it is" in out and read(kept) == "the bytes that fail"
          and os.listdir(os.path.dirname(kept)) == [os.path.basename(kept)],
          f"fuzz --reproduce: no minimised result that fails: the input kept as it is, by its sha1: {rc} {out.strip()[-120:]!r}")
    rc, out, err, _ = scratch.run("fuzz", "bash", args, env=env)
    check(rc == 0 and f"already kept: {kept}" in out and len(os.listdir(os.path.dirname(kept))) == 1,
          f"fuzz --reproduce of a kept input: 'already kept', nothing more written: {rc} {out.strip()[-120:]!r}")


FAKE_CAMPAIGN_FUZZER = """#!/bin/sh
# A fake libFuzzer target: -fork finds one crash; -merge=1 adds one input; -minimize_crash
# writes the minimised crash.
prefix= merge= minimize= exact= first=
for a; do
  case "$a" in
    -artifact_prefix=*) prefix=${a#*=} ;;
    -merge=1) merge=1 ;;
    -minimize_crash=1) minimize=1 ;;
    -exact_artifact_path=*) exact=${a#*=} ;;
    -*) ;;
    *) [ -n "$first" ] || first=$a ;;
  esac
done
if [ -n "$minimize" ]; then printf 'min' > "$exact"; exit 0; fi
if [ -n "$merge" ]; then printf 'new' > "$first/new-input"; exit 0; fi
printf 'boom' > "${prefix}crash-1"
echo "#4096: cov: 10 ft: 10 corp: 2 exec/s 2048 oom/timeout/crash: 0/0/1"
exit 1
"""


def test_fuzz_campaign(check, tmp):
    """scripts/fuzz TARGET on a fake fuzzer that crashes: exit 1, the summary row (the
    .keep dot-file not counted), corpus/ untouched; with --merge the new input and the
    minimised crash (by sha1) go into corpus/."""
    import hashlib
    scratch, env, log = fuzz_scratch(tmp)
    put_file(scratch, "build/fuzz/fuzz/fuzz_decode", FAKE_CAMPAIGN_FUZZER, 0o755)
    corpus = os.path.join(scratch.root, "corpus")
    before = snapshot(corpus)
    rc, out, err, _ = scratch.run("fuzz", "bash", ["decode", "--seconds", "1"], env=env)
    rows = read(os.path.join(scratch.root, "out", "fuzz", "summary.tsv")).strip().split("\n")
    check(rc == 1 and rows[1:] == ["decode\t4096\t2048\t1\t2\t1\t1"] and "CRASH: reproduce with" in out,
          f"fuzz decode: a crash is exit 1; summary.tsv: target, execs, exec/s, corpus 1 (not .keep) -> 2, 1 crash: {rc} {rows}")
    check(not changed(before, snapshot(corpus)), f"fuzz without --merge: corpus/ untouched: {changed(before, snapshot(corpus))[:2]}")
    rc, out, err, _ = scratch.run("fuzz", "bash", ["decode", "--seconds", "1", "--merge"], env=env)
    crash = os.path.join(corpus, "regressions", "decode", hashlib.sha1(b"min").hexdigest())
    check(rc == 1 and read(os.path.join(corpus, "decode", "new-input")) == "new" and read(crash) == "min",
          f"fuzz --merge: the new input into corpus/decode/, the minimised crash into corpus/regressions/ by sha1: {rc}")


FAKE_SLOW_FUZZER = """#!/usr/bin/env python3
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.stderr.write("#2\\tINITED cov: 3 ft: 3 corp: 2/2b exec/s: 0 rss: 30Mb\\n")
sys.stderr.flush()
try:
    end = time.time() + 30
    while time.time() < end:
        pass
except KeyboardInterrupt:
    sys.stderr.write("stat::number_of_executed_units: 502\\n")
"""


def test_fuzz_speed_mode(check, tmp):
    """scripts/fuzz --speed: out/fuzz/speed.tsv; a target under 1,000 executions per CPU
    second is SLOW, one whose run gave no figures FAILED, and either is exit 1."""
    scratch, env, log = fuzz_scratch(tmp)
    put_file(scratch, "build/fuzz/fuzz/fuzz_decode", FAKE_SLOW_FUZZER, 0o755)
    put_file(scratch, "build/fuzz/fuzz/fuzz_json", "#!/bin/sh\nexit 0\n", 0o755)
    rc, out, err, _ = scratch.run("fuzz", "bash", ["decode", "json", "--speed", "--seconds", "1"], env=env)
    rows = {r.split("\t")[0]: r.split("\t") for r in read(os.path.join(scratch.root, "out", "fuzz", "speed.tsv")).strip().split("\n")}
    check(rc == 1 and rows.get("decode", [""])[-1] == "SLOW" and rows["decode"][1] == "502" and rows.get("json", [""])[-1] == "FAILED",
          f"fuzz --speed: speed.tsv, under 1,000 exec/s SLOW, no figures FAILED, exit 1: {rc} {list(rows.values())}")


# ------------------------------------------------------------------ scripts/bench --
FAKE_SUITE = """#!/usr/bin/env python3
# scripts/bench_build.py replaced: records its arguments, writes a run to OUT.json.
import json, os, sys
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
if os.environ.get("FAKE_SUITE_RC"):
    sys.exit(int(os.environ["FAKE_SUITE_RC"]))
with open(sys.argv[5], "w") as f:
    json.dump({"benchmarks": [{"name": "BM_Arith_Floor", "cpu_time": 1.0, "time_unit": "ns"}]}, f)
print("BM_Arith_Floor 1 ns")
"""


def test_bench_script(check, tmp):
    """scripts/bench on a fake build, suite, bench-count and bench-compare: --repetitions,
    --filter and --no-count reach them, --no-gate skips the gate, the gate's exit 1 is
    the script's, a failed suite leaves out/bench.json as it was, a failed build is
    exit 1 with its log's end."""
    scratch = Scratch(tmp)
    no_deps(scratch)
    env, log = fake_tools(scratch, tmp, {"cmake": FAKE_CMAKE})
    write(scratch.path("bench_build.py"), FAKE_SUITE, 0o755)
    for name in ("bench-count", "bench-compare"):
        rc_var = "FAKE_" + name.upper().replace("-", "_") + "_RC"
        write(scratch.path(name), f'#!/bin/sh\necho "{name} $*" >> "$FAKE_LOG"\nexit "${{{rc_var}:-0}}"\n', 0o755)
    put_file(scratch, "bench/baselines/baseline.json", "{}")
    rc, out, err, _ = scratch.run("bench", "bash", ["--repetitions", "12", "--filter", "-Checker"], env=env)
    calls = logged(log, "")
    check(rc == 0 and "suite build/release/bench/neffbar_bench 12 -Checker out/bench.json.tmp" in calls
          and "bench-count --filter=-Checker --into out/bench.json" in calls
          and "bench-compare --filter=-Checker bench/baselines/baseline.json out/bench.json" in calls
          and json.loads(read(os.path.join(scratch.root, "out", "bench.json")))["benchmarks"],
          f"bench --repetitions 12 --filter -Checker: the suite, bench-count and the gate get them: {rc} {calls} {err.strip()[-100:]!r}")
    rc, out, err, _ = scratch.run("bench", "bash", ["--no-count"], env=env)
    calls = logged(log, "")
    check(rc == 0 and not [c for c in calls if c.startswith("bench-count")]
          and "bench-compare --filter=. --no-count bench/baselines/baseline.json out/bench.json" in calls,
          f"bench --no-count: nothing counted, the gate on time: {calls}")
    rc, out, err, _ = scratch.run("bench", "bash", ["--no-gate"], env=env)
    check(rc == 0 and not [c for c in logged(log, "") if c.startswith("bench-compare")], "bench --no-gate: no bench-compare")
    rc, out, err, _ = scratch.run("bench", "bash", [], env=dict(env, FAKE_BENCH_COMPARE_RC="1"))
    check(rc == 1 and logged(log, "bench-compare "), f"bench: a regression (bench-compare exit 1) is exit 1: {rc}")
    bench_json = put_file(scratch, "out/bench.json", "the old run\n")
    rc, out, err, _ = scratch.run("bench", "bash", [], env=dict(env, FAKE_SUITE_RC="1"))
    check(rc == 1 and read(bench_json) == "the old run\n" and not [c for c in logged(log, "") if c.startswith("bench-c")],
          f"bench: a suite that fails is exit 1, out/bench.json left as it was, nothing counted or gated: {rc}")
    rc, out, err, _ = scratch.run("bench", "bash", [], env=dict(env, FAKE_BUILD_RC="1"))
    check(rc == 1 and "bench: build-release failed (exit 1); the last lines of out/logs/build-release.log" in err,
          f"bench: a build that fails is exit 1, its log's end on stderr: {rc} {err.strip()[-120:]!r}")


# -------------------------------------------------------------------- scripts/run --
RUN_STEPS = (("props", 'echo "[       OK ] Props.A"'),
             ("fuzz", 'mkdir -p out/fuzz; printf "target\\texecs\\n" > out/fuzz/summary.tsv'),
             ("coverage", 'echo "coverage: lines 96.1%, branches 80%"; [ -z "${FAKE_COVERAGE_GATE:-}" ] || '
                          '{ echo "coverage: below the gate: $FAKE_COVERAGE_GATE" >&2; exit 3; }'),
             ("mutate", 'echo "mutation score: 1/1 -- fake"'),
             ("test", '[ "$1" = --slow ] || exit 3; echo "1/2 Test #1: oss_fuzz_build ...   Passed"; '
                      'echo "2/2 Test #2: afl_build_and_run ...   Passed"'),
             ("bench-history", 'mkdir -p out/bench-history; echo "{}" > out/bench-history/history.jsonl; '
                               'echo "change points: 0"'))


def run_fakes(scratch, tmp, failing=None):
    """scripts/run's steps replaced by fakes that record their arguments (`failing`: that
    step exits 1), a fake neffbar, a fake cmake and a corpus; returns (env, the log of
    the steps' arguments, the log of neffbar's)."""
    bin_dir = os.path.join(tmp, "fakebin")
    os.makedirs(bin_dir, exist_ok=True)
    calls, steps = os.path.join(tmp, "neffbar.calls"), os.path.join(tmp, "steps.calls")
    write(os.path.join(bin_dir, "cmake"), f'#!/bin/sh\necho "cmake $*" >> {steps}\n[ "$1" = -P ] && echo "decode json"\nexit "${{FAKE_BUILD_RC:-0}}"\n', 0o755)
    no_deps(scratch)
    for name, body in RUN_STEPS:
        fail = "exit 1\n" if name == failing else ""
        write(scratch.path(name), f'#!/usr/bin/env bash\ncd "$(dirname "$0")/.."\necho "{name} $*" >> {steps}\n{body}\n{fail}', 0o755)
    rows = [{"verdict": "OK", "lowering": "table"}, {"verdict": "OK", "lowering": "table"},
            {"verdict": "DEADLOCK", "lowering": "hierarchical"}]
    nb = os.path.join(scratch.root, "build", "gcc", "core", "neffbar")
    os.makedirs(os.path.dirname(nb), exist_ok=True)
    write(nb, f"""#!/usr/bin/env bash
echo "$*" >> {calls}
out=
for a in "$@"; do [ "${{prev:-}}" = -o ] && out=$a; prev=$a; done
case "$1" in
  encode) if [ "$2" = - ]; then cat; else cp "$2" "$out"; fi ;;
  decode) cat "$3" ;;
  hypotheses)
    if [[ " $* " == *" --full "* ]]; then printf '| lowering | fabric |\\n|---|---|\\n\\n| 1x1 | on |\\n' > "$out"
    elif [[ " $* " == *" --json "* ]]; then echo '{json.dumps(rows)}' > "${{out:-/dev/stdout}}"
    else echo '| 1x1 | on | 1 | ge | one | per_peer | table | code | ctx | OK | holds |'; fi ;;
  check) echo '{{"verdict": "OK", "exact": true}}' > "$out" ;;
esac
""", 0o755)
    os.makedirs(os.path.join(scratch.root, "corpus", "examples"), exist_ok=True)
    write(os.path.join(scratch.root, "corpus", "examples", "a.json"), "{}\n")
    return dict(scratch.env, PATH=bin_dir + os.pathsep + os.environ.get("PATH", "")), steps, calls


def test_run_failures(check, tmp):
    """scripts/run: its options reach the steps (fuzz seconds split over the targets, at
    least 5 each, no --merge; props --cases; mutate --sample); a failed step is exit 1 and
    FAIL on the summary; a failed build is exit 1."""
    scratch = Scratch(tmp)
    env, steps, _ = run_fakes(scratch, tmp, failing="props")
    rc, out, err, _ = scratch.run("run", "bash", ["--seconds", "30", "--cases", "7", "--mutants", "3"], env=env)
    text = read(os.path.join(scratch.root, "out", "report.md"))
    said = read(steps).split("\n")
    check(rc == 1 and "| properties | FAIL |" in text, f"run: a step that fails (props) is exit 1, FAIL on the summary: {rc}")
    fuzz = [c for c in said if c.startswith("fuzz ")]
    check(fuzz == ["fuzz --seconds 15"] and any(c.startswith("props --cases 7 --seed ") for c in said)
          and any(c.startswith("mutate --sample 3 ") for c in said),
          f"run: --seconds 30 is 15 s for each of 2 fuzz targets (no --merge), --cases to props, --mutants to mutate: {said}")
    open(steps, "w").close()
    rc, *_ = scratch.run("run", "bash", ["--seconds", "4"], env=env)
    check([c for c in read(steps).split("\n") if c.startswith("fuzz ")] == ["fuzz --seconds 5"],
          f"run: --seconds 4 over 2 targets is still 5 s each: {read(steps).split(chr(10))}")
    os.remove(os.path.join(scratch.root, "out", "report.html"))
    os.makedirs(os.path.join(scratch.root, "out", "report.html", "x"))  # cannot be replaced by a file
    rc, *_ = scratch.run("run", "bash", ["--seconds", "4"], env=env)
    text = read(os.path.join(scratch.root, "out", "report.md"))
    check(rc == 1 and "out/report.html FAILED: campaign.py: " in text and "| codec | ok |" in text,
          f"run: a page that cannot be written is exit 1, said on the Markdown summary: {rc}")
    shutil.rmtree(os.path.join(scratch.root, "out", "report.html"))
    rc, out, err, _ = scratch.run("run", "bash", [], env=dict(env, FAKE_BUILD_RC="1"))
    check(rc == 1 and "build failed" in out, f"run: a build that fails is exit 1: {rc} {out.strip()[-80:]!r}")


@pytest.mark.parametrize("gate, result", [
    (None, "| coverage | ok | coverage: lines 96.1%, branches 80% (gate: lines >= 95 %, every file >= 80 %) |"),
    ("lines 96.10 % (gate: >= 95 %); 1 files under 80 %: core/cli/x.cpp 43.00 %",
     "| coverage | FAIL | coverage: below the gate: lines 96.10 % (gate: >= 95 %); 1 files under 80 %: core/cli/x.cpp 43.00 % "
     "(coverage: lines 96.1%, branches 80%) |"),
], ids=["over the gate", "a file under it"])
def test_run_coverage_gate(tmp, gate, result):
    """scripts/run: coverage under its gate (scripts/coverage's exit 3) FAILs the step with
    the gate's line on the summary and the campaign is exit 1; over it, ok."""
    scratch = Scratch(tmp)
    env, _, _ = run_fakes(scratch, tmp)
    rc, _, _, _ = scratch.run("run", "bash", ["--seconds", "4"], env=env if gate is None else dict(env, FAKE_COVERAGE_GATE=gate))
    assert result in read(os.path.join(scratch.root, "out", "report.md"))
    assert rc == (0 if gate is None else 1)


# ---------------------------------------------------- lib/common.sh and conventions --
def test_common_sh(check, tmp):
    """usage_error and die: one line, control characters shown as '?', exit 2 and 1;
    opt_uint: at most 18 digits; run_logged: the last 40 lines (NEFFBAR_LOG_TAIL)."""
    scratch = Scratch(tmp)
    head = '#!/usr/bin/env bash\n# A script of the test.\n. "$(dirname "$0")/lib/common.sh"\n'
    write(scratch.path("ctl"), head + "usage_error $'--x\\x1b[2Jfake\\nsecond line'\n", 0o755)
    rc, out, err, _ = scratch.run("ctl", "bash", [])
    check(rc == 2 and err == "ctl: --x?[2Jfake?second line (--help)\n" and not out,
          f"usage_error: one line, control characters shown as '?', exit 2: {rc} {err!r}")
    write(scratch.path("dies"), head + "die $'it broke\\nhere'\necho not-reached\n", 0o755)
    rc, out, err, _ = scratch.run("dies", "bash", [])
    check(rc == 1 and err == "dies: it broke?here\n" and not out, f"die: exit 1, one line: {rc} {err!r}")
    write(scratch.path("uint"), head + 'opt_uint n --n "$1" 1\necho "n=$n"\n', 0o755)
    rc18, out18, _, _ = scratch.run("uint", "bash", ["9" * 18])
    rc, out, err, _ = scratch.run("uint", "bash", ["1" + "0" * 18])
    check(rc18 == 0 and out18 == f"n={'9' * 18}\n" and rc == 2 and "--n: expected an integer >= 1" in err and not out,
          f"opt_uint: 18 digits taken, 19 digits exit 2: {rc18} {rc} {err.strip()!r}")
    write(scratch.path("tail50"), head + "run_logged many sh -c 'seq 1 50; exit 3'\n", 0o755)
    for env_tail, first in ((None, 11), ("5", 46)):
        env = dict(scratch.env, NEFFBAR_LOG_TAIL=env_tail) if env_tail else None
        rc, out, err, _ = scratch.run("tail50", "bash", [], env=env)
        lines = err.strip().split("\n")
        check(rc == 3 and lines[1:] == [str(i) for i in range(first, 51)],
              f"run_logged: the last {51 - first} lines of 50 on stderr (NEFFBAR_LOG_TAIL={env_tail or 'unset'}): {len(lines) - 1}")


CONVENTION_PLANTS = {
    # name: (text, kind, what a check must say)
    "prints-it-on-stderr": ("#!/usr/bin/env bash\n# A planted script.\nsed -n 2p \"$0\" | sed 's/^# //' >&2\n", "bash", "stderr"),
    "exits-1": ("#!/usr/bin/env bash\n# A planted script.\necho 'A planted script.'\nexit 1\n", "bash", "exit 1"),
    "lacks-its-docstring-first-line": ('#!/usr/bin/env python3\n"""A planted script."""\nprint("something else")\n', "python",
                                "the docstring's first line"),
    "removes-a-file": ("#!/usr/bin/env bash\n# A planted script.\nrm -f \"$(dirname \"$0\")/victim\"\necho 'A planted script.'\n", "bash",
                "removed "),
    "changes-a-file": ("#!/usr/bin/env bash\n# A planted script.\necho x >> \"$(dirname \"$0\")/victim2\"\necho 'A planted script.'\n",
                "bash", "changed "),
    "writes-to-HOME": ("#!/usr/bin/env bash\n# A planted script.\necho x > \"$HOME/x\"\necho 'A planted script.'\n", "bash", "HOME"),
    "writes-to-TMPDIR": ("#!/usr/bin/env bash\n# A planted script.\necho x > \"$TMPDIR/y\"\necho 'A planted script.'\n", "bash", "TMPDIR"),
}
USAGE_PLANTS = {
    "two-lines": ('echo "x: unknown option: $1" >&2; echo "usage: x" >&2; exit 2', "is not one line naming"),
    "on-stdout": ('echo "x: unknown option: $1"; exit 2', "stdout "),
    "not-naming": ('echo "x: a bad option" >&2; exit 2', "is not one line naming"),
}


def test_convention_teeth(check, tmp):
    """Each way of breaking --help, a usage error or the no-side-effect rule is caught by
    its check; a module (of scripts/ or lib/) that imports the package without putting
    scripts/ on sys.path does not load."""
    scratch = Scratch(tmp)
    write(scratch.path("victim"), "v\n")
    write(scratch.path("victim2"), "v\n")
    for name, (text, kind, expect) in CONVENTION_PLANTS.items():
        write(scratch.path(name), text, 0o755)
        problems = help_problems(scratch, name, kind)
        want = {"HOME": f"made {scratch.home}", "TMPDIR": f"made {scratch.tmpdir}"}.get(expect, expect)
        check(any(want in p for p in problems), f"teeth: a script whose --help {name.replace('-', ' ')} is caught: {problems[:2]}")
        os.unlink(scratch.path(name))
    for name, (body, expect) in USAGE_PLANTS.items():
        write(scratch.path(name), "#!/usr/bin/env bash\n# A planted script.\n"
              f'case "${{1:-}}" in -h|--help) echo "A planted script." ;; *) {body} ;; esac\n', 0o755)
        problems = usage_problems(scratch, name, "bash", ["--no-such-option"], "--no-such-option")
        check(any(expect in p for p in problems), f"teeth: a usage error {name.replace('-', ' ')} is caught: {problems[:2]}")
        os.unlink(scratch.path(name))
    own_folder = "sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
    for name, line, what in (("no_syspath.py", "", "without its sys.path line"),
                             ("lib/no_syspath.py", "", "without its sys.path line"),
                             ("lib/own_folder.py", own_folder, "with its own folder on sys.path, not scripts/")):
        planted = scratch.path(name)
        write(planted, f'"""A planted module."""\nimport os\nimport sys\n\n{line}from lib import strict_io  # noqa\n')
        check(load_problem(planted, tmp) is not None, f"teeth: {name}, importing the package {what}, does not load")
        os.unlink(planted)


def test_exit_wrapper(check, tmp):
    """scripts/CMakeLists.txt's neffbar_script_test: the wrapper and pass pattern it gives
    ctest fail a self-test that prints its pass line and then exits 1, and pass one that
    exits 0."""
    import re
    with open(os.path.join(HERE, "CMakeLists.txt")) as f:
        text = f.read()
    cmd = re.search(r'COMMAND sh -c "((?:[^"\\]|\\.)*)" sh', text)
    pattern = re.search(r'PASS_REGULAR_EXPRESSION "((?:[^"\\]|\\.)*)"', text)
    if not cmd or not pattern:
        check(False, "scripts/CMakeLists.txt: neffbar_script_test's sh -c wrapper and pass pattern found")
        return
    shell = re.sub(r'\\(.)', r'\1', cmd.group(1))
    regex = re.sub(r'\\(.)', r'\1', pattern.group(1)).replace("${pass}", "x self-test: passed")
    verdicts = []
    for rc in (1, 0):
        planted = os.path.join(tmp, f"selftest-exit-{rc}")
        write(planted, f"#!/bin/sh\necho 'x self-test: passed'\nexit {rc}\n", 0o755)
        p = subprocess.run(["sh", "-c", shell, "sh", planted], capture_output=True, text=True)
        verdicts.append((p.returncode, bool(re.search(regex, p.stdout + p.stderr, re.S))))
    check(verdicts == [(1, False), (0, True)],
          f"ctest's wrapper: a self-test that prints its pass line and exits 1 fails, one that exits 0 passes: {verdicts}")


def test_check_workflows_exits(check, tmp):
    """check-workflows: exit 77 without npm or node, and outside a git checkout; exit 1
    when the validators are missing; check_workflows.cjs: a FILE that is not there, or
    --any-path with a FILE, is exit 2."""
    scratch = Scratch(tmp)
    bare = os.path.join(tmp, "bare-path")
    os.makedirs(bare)
    for tool in ("bash", "dirname"):
        os.symlink(shutil.which(tool), os.path.join(bare, tool))
    rc, out, err, effects = scratch.run("check-workflows", "bash", [], env=dict(scratch.env, PATH=bare))
    check(rc == 77 and "SKIPPED: npm/node are not installed" in out and not effects,
          f"check-workflows without npm and node: exit 77: {rc} {out.strip()!r} {err.strip()[-80:]!r}")
    rc, out, err, effects = scratch.run("check-workflows", "bash", [])
    check(rc == 77 and "is not a git checkout" in out and not effects, f"check-workflows outside a git checkout: exit 77: {rc} {out.strip()!r}")
    os.makedirs(os.path.join(scratch.root, ".git"))
    empty = os.path.join(tmp, "no-tools")
    os.makedirs(empty)
    rc, out, err, effects = scratch.run("check-workflows", "bash", [], env=dict(scratch.env, NEFFBAR_CI_TOOLS=empty))
    check(rc == 1 and "missing: run ./scripts/deps" in out and not effects,
          f"check-workflows with the validators missing: exit 1: {rc} {out.strip()!r}")
    node = shutil.which("node")
    if not node:
        print("  skip check_workflows.cjs usage: no node on this machine")
        return
    wf = os.path.join(tmp, "x.yml")
    write(wf, "on: push\n")
    for args, expect in ((["tools", os.path.join(tmp, "absent.yml")], "absent.yml: no such workflow file"),
                         (["tools", "--any-path", wf], "--any-path checks the repository's own workflows: name no FILE"),
                         (["tools", "--bogus"], "unknown option: --bogus"), ([], "usage: node scripts/check_workflows.cjs")):
        p = subprocess.run([node, scratch.path("check_workflows.cjs"), *args], capture_output=True, text=True, cwd=tmp)
        lines = p.stderr.strip().split("\n")
        check(p.returncode == 2 and len(lines) == 1 and expect in lines[0] and not p.stdout,
              f"check_workflows.cjs {' '.join(os.path.basename(a) for a in args)}: exit 2, one line: {p.returncode} {p.stderr.strip()[:100]!r}")


def test_broken_pipe(check, tmp):
    """lib/cli.py's run: a broken pipe on stdout is one line naming stdout, exit 2."""
    run_path = os.path.join(tmp, "run.json")
    write(run_path, json.dumps({"benchmarks": [{"name": "BM_A", "cpu_time": 1.0, "time_unit": "ns"}] * 1}))
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, os.path.join(HERE, "bench-export"), "--format", "bmf", run_path],
                           stdout=w, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(w)
    check(p.returncode == 2 and p.stderr == "bench-export: stdout: broken pipe\n",
          f"a broken pipe on stdout: one line naming stdout, exit 2: {p.returncode} {p.stderr.strip()[-100:]!r}")
