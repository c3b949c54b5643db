"""Runner's trees, builds and test runs (Trees), and ctest's -R pattern of test names."""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.settings import HARNESS_TESTS, ROOT  # noqa: E402

READONLY_DEV = ROOT / "scripts" / "lib" / "readonly-dev"


def ctest_pattern(names):
    """A ctest -R pattern matching exactly these test names."""
    return "^(" + "|".join(re.sub(r"([][^$.*+?(){}|\\])", r"\\\1", n) for n in names) + ")$"


class Trees:
    """Runner's trees, builds and test runs: the copies of the checkout a run mutates, their
    g++ and ASan builds, the groups and selected tests run there and the baselines that
    time them."""

    def run(self, cmd, timeout=None, log=None, env=None):
        """Exit code, or 'timeout'.  The whole process group goes on timeout.  Every build
        and test of a mutant runs with /dev read-only (scripts/lib/readonly-dev): as root,
        a mutant of the CLI's output once renamed a temporary over /dev/full."""
        with open(log or os.devnull, "w") as f:
            p = subprocess.Popen([str(READONLY_DEV), *cmd], stdout=f, stderr=subprocess.STDOUT, start_new_session=True, env=env)
            try:
                return p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                return "timeout"

    def sync(self):
        """Copy the checkout's files (tracked and untracked, not ignored) into the trees,
        as they were at the run's first sync: the checkout can be edited while a run
        goes on.  Unchanged files are not touched, so the builds there stay incremental."""
        if self.snapshot is None:
            listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
                                    check=True, capture_output=True).stdout.decode().split("\0")
            self.snapshot = {rel: ((ROOT / rel).read_bytes(), (ROOT / rel).stat().st_mode)
                             for rel in sorted(filter(None, listed)) if (ROOT / rel).is_file()}
        digest = hashlib.sha256()
        for rel, (data, _) in self.snapshot.items():
            digest.update(rel.encode() + b"\0" + data + b"\0")
        self.tree_hash = digest.hexdigest()[:16]  # the unmutated tree's state: baseline.json's key
        for tree in [self.tree] + ([self.asan_tree] if self.asan else []):
            keep = set()
            for rel, (data, mode) in self.snapshot.items():
                dst = tree / rel
                keep.add(dst)
                if not dst.exists() or dst.read_bytes() != data:
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    dst.write_bytes(data)  # a new mtime, so the builds see the change
                    dst.chmod(mode)
            for dst in [p for p in tree.rglob("*") if p.is_file()]:
                if dst not in keep:
                    dst.unlink()

    def configure(self):
        common = ["-G", "Ninja", "-DNEFFBAR_BENCH=OFF", "-DNEFFBAR_WERROR=OFF"]
        if shutil.which("ccache"):  # restoring a mutated header is then a cache hit, not a rebuild
            common.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            os.environ.setdefault("CCACHE_BASEDIR", str(ROOT))  # the trees under out/ share one cache
            os.environ.setdefault("CCACHE_NOHASHDIR", "1")  # with build/gcc's: -g's directory not hashed
        cmds = [["cmake", "-S", str(self.tree), "-B", str(self.gcc), *common, "-DCMAKE_CXX_COMPILER=g++-12", "-DCMAKE_C_COMPILER=gcc-12",
                 "-DCMAKE_BUILD_TYPE=None",
                 # libstdc++ checks its own preconditions: a mutant that reads an empty optional
                 # aborts instead of reading whatever the bytes hold
                 "-DCMAKE_CXX_FLAGS=-O1 -D_GLIBCXX_ASSERTIONS"]]
        if self.asan:
            cmds.append(["cmake", "-B", str(self.clang), *common, "-S", str(self.asan_tree), "-DCMAKE_CXX_COMPILER=clang++-14", "-DCMAKE_C_COMPILER=clang-14",
                         "-DCMAKE_BUILD_TYPE=", "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only", "-DNEFFBAR_SANITIZE=ON",  # as the fuzz preset, replay main
                         "-DNEFFBAR_PROPS=OFF", "-DNEFFBAR_TESTS=OFF", "-DNEFFBAR_CLI=OFF"])
        for c in cmds:
            if self.run(c, log=self.out / "configure.log") != 0:  # e.g. a cache of another source dir
                shutil.rmtree(c[c.index("-B") + 1], ignore_errors=True)
            if self.run(c, log=self.out / "configure.log") != 0:
                sys.exit(f"configure failed: {' '.join(c)} (see {self.out}/configure.log)")

    def build(self, build_dir, target=None):
        return self.run(["cmake", "--build", str(build_dir), "-j", str(os.cpu_count() or 2)] +
                        (["--target", target] if target else []), log=self.out / "build.log") == 0

    def group(self, build_dir, label):
        timeout = self.timeouts.get(label)
        log = self.out / f"test-{label}.log"
        code = self.run(["ctest", "--test-dir", str(build_dir), "-j", str(os.cpu_count() or 2), "-L", f"^{label}$",
                         "-E", "^(" + "|".join(sorted(HARNESS_TESTS)) + ")$",
                         "--stop-on-failure", "--timeout", str(int(timeout or 600))],
                        timeout=timeout, log=log)
        if code not in (0, "timeout") and "***Timeout" in log.read_text(errors="replace"):
            return "timeout"  # ctest's own per-test limit: the same verdict
        return code

    @staticmethod
    def failed_tests(log):
        """The tests a ctest log says failed (not the timed-out ones)."""
        text = log.read_text(errors="replace") if log.exists() else ""
        return list(dict.fromkeys(re.findall(r"Test\s+#\d+: (\S+) [^\n]*?\*{3}(?:Failed|Exception)", text)))

    def index_tests(self):
        """self.tests from `ctest --show-only=json-v1`; self.test_seconds from the baseline logs."""
        got = subprocess.run(["ctest", "--test-dir", str(self.gcc), "--show-only=json-v1"], capture_output=True, text=True)
        try:
            data = json.loads(got.stdout)
        except ValueError:
            return
        for test in data.get("tests", []):
            labels = next((p["value"] for p in test.get("properties", []) if p["name"] == "LABELS"), [])
            exe = Path(test["command"][0]) if test.get("command") else None
            target = exe.name if exe and str(exe).startswith(str(self.gcc) + "/") else None
            self.tests[test["name"]] = (labels, target)
            env = next((p["value"] for p in test.get("properties", []) if p["name"] == "ENVIRONMENT"), [])
            self.commands[test["name"]] = list(test.get("command") or []) + list(env)  # a program named by a variable too
        for log in self.out.glob("test-*.log"):
            for name, secs in re.findall(r"Test\s+#\d+: (\S+) \.*\s+Passed\s+([\d.]+) sec", log.read_text(errors="replace")):
                self.test_seconds[name] = float(secs)

    def ctest_tests(self, names, log, baseline=False, env=None, build_dir=None, scale=1.0, floor=60.0):
        """Runs these tests (ctest -R, --stop-on-failure): the exit code or 'timeout'.
        Each test's limit is --timeout-scale times its baseline time (at least `floor`
        seconds), the whole run's the sum of those over the cores; the baseline's: 30
        minutes a test.  scale: how much slower build_dir runs them than the g++ build
        that timed them."""
        secs = [scale * self.test_seconds.get(n, 30.0) for n in names]
        per_test = 1800.0 if baseline else max(floor, self.timeout_scale * max(secs, default=0))
        total = None if baseline else max(90.0, self.timeout_scale * sum(secs) + 60)
        code = self.run(["ctest", "--test-dir", str(build_dir or self.gcc), "-j", str(os.cpu_count() or 2),
                         "-R", ctest_pattern(names), "--stop-on-failure", "--timeout", str(int(per_test))],
                        timeout=total, log=log, env=env)
        if code not in (0, "timeout") and "***Timeout" in log.read_text(errors="replace"):
            return "timeout"
        return code

    def baseline_selected(self, names, build=True):
        """The baseline of the selected tests alone: the unmutated tree builds, and each
        of these tests passes; their times (the timeouts) are kept in DIR/baseline.json,
        keyed by the tree's content, so a second run on the same tree reuses them."""
        if build:
            self.baseline([], build=True)
        cache_path = self.out / "baseline.json"
        try:
            cache = json.loads(cache_path.read_text())
        except (OSError, ValueError):
            cache = {}
        known = cache.get(self.tree_hash, {})
        todo = [n for n in names if n not in known]
        t0 = time.time()
        if todo:
            log = self.out / "test-baseline.log"
            print(f"baseline: {len(todo)} selected tests ({len(names) - len(todo)} timed before, reused)", flush=True)
            code = self.ctest_tests(todo, log, baseline=True)
            if code != 0:
                print(f"baseline: the unmutated tree fails a selected test; see {self.out}/baseline-failure.log")
                shutil.copy(log, self.out / "baseline-failure.log")
                sys.exit(3)
            for n, secs in re.findall(r"Test\s+#\d+: (\S+) \.*\s+Passed\s+([\d.]+) sec", log.read_text(errors="replace")):
                known[n] = float(secs)
            cache = {self.tree_hash: known}  # the old trees' times are of no use
            cache_path.write_text(json.dumps(cache, indent=0, sort_keys=True))
        else:
            print(f"baseline: {len(names)} selected tests, every time reused from {cache_path.name}", flush=True)
        self.test_seconds.update(known)
        print(f"baseline: selected tests in {time.time() - t0:.1f} s", flush=True)

    def baseline(self, groups, build=True):
        """The unmutated tree must build and pass; its times set each group's timeout.
        build=False: only Python mutants, whose self-tests need no compiled code."""
        for d in ([self.gcc] + ([self.clang] if self.asan else [])) if build else []:
            print(f"baseline: building {d.name}", flush=True)
            if not self.build(d):  # a stale object (e.g. a file restored with an old mtime): once more, clean
                print(f"baseline: {d.name} did not build; cleaning it and building again", flush=True)
                self.run(["cmake", "--build", str(d), "--target", "clean"])
            if not self.build(d):
                print(f"the unmutated tree does not build; see {self.out}/build.log")
                sys.exit(3)
        for g in groups:
            t0 = time.time()
            code = self.group(self.clang if g == "asan" else self.gcc, "fuzz-replay" if g == "asan" else g)
            dt = time.time() - t0
            print(f"baseline: {g} passes in {dt:.1f} s" if code == 0 else f"baseline: {g} FAILS", flush=True)
            if code != 0:
                shutil.copy(self.out / f"test-{'fuzz-replay' if g == 'asan' else g}.log", self.out / "baseline-failure.log")
                sys.exit(3)
            self.timeouts[g] = max(45.0, self.timeout_scale * dt)

    def original(self, rel):
        """File `rel` as the run's snapshot holds it (the checkout, before the first sync)."""
        return self.snapshot[rel][0].decode() if self.snapshot and rel in self.snapshot else (ROOT / rel).read_text()
