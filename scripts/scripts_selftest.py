"""Self-test of the scripts themselves (ctest scripts_self_test):
  python3 scripts/scripts_selftest.py

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
- campaign.py on good and bad JSON;
- the checks have teeth: planted scripts that install, write, use another shebang,
  print a fixed line range as help, accept an unknown option, or leave a __pycache__
  behind are each caught.
Prints ok/FAIL per check and "scripts self-test: passed" at the end; exit 1 on a FAIL.
"""
import ast
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_io import Parser  # noqa: E402

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
    "bench-compare": [(["--threshold", "abc"], "--threshold"), (["--count-threshold", "1e3"], "--count-threshold")],
    "bench-count": [(["--runs", "0"], "--runs"), (["--jobs", "x"], "--jobs")],
    "bench-export": [(["--format", "csv"], "--format"), (["--metric", "x"], "--metric")],
    "bench-track": [(["--threshold", "abc"], "--threshold"), (["--threshold", "0"], "--threshold")],
    "bench_pipeline.py": [(["--reps", "0"], "--reps")],
    "bench_build.py": [(["suite", "b", "x", "r", "o"], "repetitions")],
    "ci_rehearse.py": [(["x.yml", "--replace", "foo"], "--replace"), (["x.yml", "--sha", "xyz"], "--sha"),
                       (["x.yml", "--event", "schedule"], "--event")],
    "bench-history": [(["--commits", "0"], "--commits"), (["--repetitions", "1.5"], "--repetitions")],
    "campaign.py": [(["matrix"], "FILE"), (["nope"], "nope")],
}


from selftest_checks import Checks  # noqa: E402


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


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


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
    # Every module loads by its path alone, from another folder, with nothing of scripts/
    # on sys.path (-I): each puts its own folder there before it imports its siblings.
    for name in sorted(n for n in os.listdir(os.path.join(scratch.root, "scripts")) if n.endswith(".py")):
        path = os.path.join(scratch.root, "scripts", name)
        p = subprocess.run([sys.executable, "-I", "-B", "-c", "import importlib.util as u, sys\n"
                            "s = u.spec_from_file_location('m', sys.argv[1]); s.loader.exec_module(u.module_from_spec(s))", path],
                           cwd=tmp, capture_output=True, text=True)
        check(p.returncode == 0, f"{name} loads by its path from another folder"
              + (f": {p.stderr.strip().splitlines()[-1]}" if p.returncode else ""))
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
    bin_dir = os.path.join(tmp, "fakebin")
    os.makedirs(bin_dir)
    calls = os.path.join(tmp, "neffbar.calls")
    write(os.path.join(bin_dir, "cmake"), '#!/bin/sh\n[ "$1" = -P ] && echo "decode json"\nexit 0\n', 0o755)
    for name, body in (("deps", ""), ("props", 'echo "[       OK ] Props.A"'),
                       ("fuzz", 'mkdir -p out/fuzz; printf "target\\texecs\\n" > out/fuzz/summary.tsv'),
                       ("coverage", 'echo "coverage: lines 96.1%, branches 80%"'),
                       ("mutate", 'echo "mutation score: 1/1 -- fake"'),
                       ("test", '[ "$1" = --slow ] || exit 3; echo "1/2 Test #1: oss_fuzz_build ...   Passed"; '
                                'echo "2/2 Test #2: afl_build_and_run ...   Passed"'),
                       ("bench-history", 'mkdir -p out/bench-history; echo "{}" > out/bench-history/history.jsonl; '
                                         'echo "change points: 0"')):
        write(scratch.path(name), f'#!/usr/bin/env bash\ncd "$(dirname "$0")/.."\n{body}\n', 0o755)
    rows = [{"verdict": "OK", "lowering": "table"}, {"verdict": "OK", "lowering": "table"},
            {"verdict": "DEADLOCK", "lowering": "hierarchical"}]
    nb = os.path.join(scratch.root, "build", "gcc", "core", "neffbar")
    os.makedirs(os.path.dirname(nb))
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
    os.makedirs(os.path.join(scratch.root, "corpus", "examples"))
    write(os.path.join(scratch.root, "corpus", "examples", "a.json"), "{}\n")
    env = dict(scratch.env, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    outside = {p: v for p, v in snapshot(scratch.root).items() if not p.startswith(os.path.join(scratch.root, "out"))}
    rc, out, err, _ = scratch.run("run", "bash", ["--seconds", "10", "--cases", "1", "--mutants", "1"], env=env)
    report = os.path.join(scratch.root, "out", "report.md")
    text = open(report).read() if os.path.exists(report) else ""
    made = changed(outside, {p: v for p, v in snapshot(scratch.root).items()
                             if not p.startswith(os.path.join(scratch.root, "out"))})
    with open(calls) as f:
        matrix = [c for c in f.read().split("\n") if c.startswith("hypotheses") and "--full" not in c]
    check(matrix == ["hypotheses --json -o out/hypotheses.json"], f"run: the matrix run once, as JSON: {matrix}")
    check("| hypotheses | ok | 3 scenarios: DEADLOCK 1, OK 2 (out/hypotheses.json) |" in text
          and "- hierarchical DEADLOCK: 1\n- table OK: 2\n" in text,
          "run: the matrix's counts on the summary, read from the JSON")
    check("| 64x4 exact | ok | hierarchical host-CC: 1 round(s): OK exact=true" in text,
          "run: the 64x4 verdicts read from check --json")
    check("| slow tests | ok | 2 passed: the OSS-Fuzz build" in text, "run: the slow tests (./scripts/test --slow) on the summary")
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
            ("a missing file", ["get", os.path.join(tmp, "absent.json"), "x"], "absent.json: no such file")):
        rc, out, err = get(*args)
        check(rc == 2 and not out and err.count("\n") == 1 and expect in err, f"campaign.py, {what}: exit {rc}, {err.strip()!r}")


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
                    'sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\nimport bench_io  # noqa\n'
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


def main():
    check = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        for name, test in (("scripts", test_scripts), ("logged", test_run_logged), ("run", test_run),
                           ("campaign", test_campaign), ("teeth", test_teeth), ("fuzz_speed", test_fuzz_speed)):
            os.makedirs(os.path.join(tmp, name))
            test(check, os.path.join(tmp, name))
    print("scripts self-test: " + ("FAILED: " + "; ".join(check.failures) if check.failures else "passed"))
    return 1 if check.failures else 0


if __name__ == "__main__":
    Parser("scripts_selftest.py", __doc__).parse_args()
    sys.exit(main())
