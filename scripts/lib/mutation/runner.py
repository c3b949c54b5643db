"""Running the mutants: Runner, each mutant applied to the tree, built and judged by
the tests."""
import fnmatch
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.catalogue import compile_target  # noqa: E402
from lib.mutation.selection import Selection  # noqa: E402
from lib.mutation.settings import GROUP_FILES, HARNESS_TESTS, PY_GROUPS, ROOT  # noqa: E402
from lib.mutation.switch_runs import SwitchRuns  # noqa: E402
from lib.mutation.trees import Trees, ctest_pattern  # noqa: E402


def named_after(script, test):
    """True when ctest test `test` is named after script file `script` (doc-paths ->
    doc_paths, doc_paths_self_test)."""
    stem = Path(script).name.removesuffix(".py").replace("-", "_")
    return test == stem or test.startswith(stem + "_")


class Runner(Trees, Selection, SwitchRuns):
    """One run's mutants built and tested: its trees and builds (Trees), --since's test
    selection (Selection) and switched mutants (SwitchRuns); here the state they share and
    a mutant's run: the probe of earlier killers, the selected tests or the groups."""

    def __init__(self, out, asan, timeout_scale):
        self.out, self.asan = out, asan
        # Two copies of the checkout: the ASan build only sees a mutant when every g++
        # group let it live, so it keeps its own tree and rebuilds only those files.
        self.tree, self.asan_tree = out / "tree", out / "tree-asan"
        self.gcc, self.clang = out / "build-gcc", out / "build-asan"
        self.timeouts = {}
        self.timeout_scale = timeout_scale
        # --since: before its groups, a mutant runs the tests that killed earlier mutants
        # of its file (and a script's own self-test): a kill there is a kill; anything
        # else (a pass, a timeout, a test that does not build) goes on to the groups.
        self.probe = False
        self.tests = {}         # test name -> (labels, build target or None)
        self.test_seconds = {}  # test name -> its time in the baseline
        self.py_reach = {}      # test name -> {(script, first line, name)} it called (py_trace)
        self.py_codes = {}      # (file, line) -> py_code_at
        self.killers = {}       # file -> {test name: mutants of the file it killed}
        # --since's test selection (select=True): a mutant runs only the tests that can
        # see it (selected_tests), timed against a baseline of those tests alone.
        self.select = False
        self.commands = {}      # test name -> its command (ctest --show-only=json-v1)
        self.seen_by = {}       # file -> [test names] (selected_tests' cache)
        self._outputs = {}      # ninja node -> the nodes built from it
        self._deps = None       # source or header (absolute) -> the objects compiled from it
        self.tree_hash = ""
        # --since's switched mutants (schema_*): mutant id -> switch number; (file, line) ->
        # (the switched line, its mutants); test name -> the switch numbers it reached.
        self.switch, self.switch_lines, self.schema_files, self.reach = {}, {}, set(), {}
        self.salvaged, self.source = 0, ROOT  # mutants taken off refused lines; the checkout read
        self.snapshot = None    # relative path -> (bytes, mode): the checkout at the first sync()

    def learn(self, m, names):
        for name in names:
            k = self.killers.setdefault(m["file"], {})
            k[name] = k.get(name, 0) + 1

    def probe_tests(self, m, labels):
        """At most 6 tests of these labels to run first: the killers of the file's earlier
        mutants, the most prolific first, then those of its folder's other files; for a
        script, the tests named after it."""
        names = [n for n, _ in sorted(self.killers.get(m["file"], {}).items(), key=lambda kv: -kv[1])]
        folder = {}  # then those of the files beside it
        for f, k in self.killers.items():
            if f != m["file"] and Path(f).parent == Path(m["file"]).parent:
                for n, c in k.items():
                    folder[n] = folder.get(n, 0) + c
        names += [n for n, _ in sorted(folder.items(), key=lambda kv: -kv[1])]
        if m.get("python"):
            names += sorted(n for n in self.tests if named_after(m["file"], n))
        names = [n for n in dict.fromkeys(names) if n in self.tests and set(self.tests[n][0]) & set(labels)
                 and n not in HARNESS_TESTS]
        if self.select:  # a test that cannot see the mutant cannot kill it
            names = [n for n in names if n in set(self.selected_tests(m, labels))]
        return names[:6]

    def run_probe(self, m, labels, result):
        """True when the probe killed the mutant (result updated, its killers learned)."""
        names = self.probe_tests(m, labels)
        if not names:
            return False
        targets = sorted({self.tests[n][1] for n in names if self.tests[n][1]})
        if targets and self.run(["cmake", "--build", str(self.gcc), "-j", str(os.cpu_count() or 2), "--target", *targets],
                                log=self.out / "build.log") != 0:
            return False  # the full build decides (a test's static_assert: killed by build)
        per_test = max(self.timeouts.values(), default=600)
        timeout = max(45.0, self.timeout_scale * sum(self.test_seconds.get(n, 10.0) for n in names))
        log = self.out / "test-probe.log"
        code = self.run(["ctest", "--test-dir", str(self.gcc), "-j", str(os.cpu_count() or 2), "-R", ctest_pattern(names),
                         "--stop-on-failure", "--timeout", str(int(per_test))], timeout=timeout, log=log)
        failed = self.failed_tests(log) if code not in (0, "timeout") else []
        result["tests"] = sorted(set(result.get("tests", [])) | set(names))
        if not failed:
            return False  # passed, timed out, or failed without naming a test: the groups decide
        self.learn(m, failed)
        label = next((g for g in labels if g in self.tests[failed[0]][0]), labels[0]) if failed[0] in self.tests else labels[0]
        result["killed_by"].append(label)
        result["killed_tests"] = failed
        result["status"] = "killed"
        return True

    def run_one_by_one(self, m, labels, result, names=None):
        """The tests that can see m, each a ctest run of its own, cheapest expected kill
        first: a test's time over one plus the file's earlier mutants it killed.  A
        script's self-test kills in seconds; ctest -j beside it waits for the slow
        rehearsals it would start too, and a slow prolific killer waits for a quick one."""
        names = self.one_by_one_order(m, self.selected_tests(m, labels) if names is None else names)
        result["tests"] = sorted(set(result.get("tests", [])) | set(names))
        for n in names:
            log = self.out / "test-selected.log"
            code = self.ctest_tests([n], log)
            label = next((g for g in labels if n in self.tests and g in self.tests[n][0]), labels[0])
            if self.judge(result, label, code):
                self.learn(m, [n])
                result["killed_tests"] = [n]
                return result
            if code == "timeout":
                return result
        return result

    def one_by_one_order(self, m, names):
        """A script's own tests (named after it) first, then by expected cost."""
        known = self.killers.get(m["file"], {})
        return sorted(names, key=lambda n: (not (m.get("python") and named_after(m["file"], n)),
                                            self.test_seconds.get(n, 30.0) / (1 + known.get(n, 0)), n))

    def run_selected(self, m, labels, result):
        """The tests of these labels that can see m (selected_tests); True when one failed."""
        names = self.selected_tests(m, labels)
        result["tests"] = sorted(set(result.get("tests", [])) | set(names))
        if not names:
            return False
        log = self.out / "test-selected.log"
        code = self.ctest_tests(names, log)
        failed = self.failed_tests(log) if code not in (0, "timeout") else []
        label = next((g for g in labels if failed and failed[0] in self.tests and g in self.tests[failed[0]][0]), labels[0])
        if not self.judge(result, label, code):
            return False
        self.learn(m, failed)
        if failed:
            result["killed_tests"] = failed
        return True

    def group_kill(self, m, result, label):
        """After a group killed m: its failing tests are learned for m's file."""
        failed = self.failed_tests(self.out / f"test-{label}.log")
        self.learn(m, failed)
        if failed:
            result["killed_tests"] = failed

    @staticmethod
    def judge(result, group, code):
        """Records a failing group; True when the mutant is dead (a timeout is recorded
        apart: a loaded machine can time a group out as well as a mutant can hang it)."""
        if code == 0:
            return False
        if code == "timeout":
            result["timed_out"] = result.get("timed_out", []) + [group]
            if result["status"] == "survived":
                result["status"] = "timeout"
            return False
        result["killed_by"].append(group)
        result["status"] = "killed"
        return True

    def python_mutant(self, path, result, all_groups):
        """A Python mutant: stillborn when it does not parse, else the scripts' self-tests."""
        try:
            compile(path.read_text(), str(path), "exec")
        except SyntaxError:
            result["status"] = "stillborn"
            return result
        seen = self.selected_tests(dict(result, python=True), PY_GROUPS) if self.select and not all_groups else []
        if seen:
            reaching = self.py_reaching(result, seen)
            if not reaching:  # no test calls the function that holds the line: a survivor, nothing run
                result["tests"] = []
                return result
            return self.run_one_by_one(dict(result, python=True), PY_GROUPS, result, reaching)
        if self.probe and not all_groups and self.run_probe(dict(result, python=True), PY_GROUPS, result):
            return result
        for g in PY_GROUPS:
            if self.judge(result, g, self.group(self.gcc, g)):
                if self.probe:
                    self.group_kill(result, result, g)
                if not all_groups:
                    break
        return result

    @staticmethod
    def apply(path, m):
        """Write the mutant into `path`; returns the original text."""
        original = path.read_text()
        lines = original.split("\n")
        assert lines[m["line"] - 1] == m["old"], f"{m['file']}:{m['line']} changed under the catalogue"
        lines[m["line"] - 1] = m["new"]
        path.write_text("\n".join(lines))
        return original

    def mutant(self, m, groups, all_groups):
        restore = {}
        path = self.tree / m["file"]
        restore[path] = self.apply(path, m)
        result = dict(id=m["id"], file=m["file"], line=m["line"], op=m["op"], killed_by=[], status="survived")
        t0 = time.time()
        try:
            if m.get("python"):
                return self.python_mutant(path, result, all_groups)
            if not self.build(self.gcc, compile_target(m)):  # the library (or the CLI) itself does not compile
                result["status"] = "stillborn"
                return result
            if self.probe and not all_groups:
                labels = [g for g in groups if g not in PY_GROUPS and g != "asan" and
                          (g not in GROUP_FILES or any(fnmatch.fnmatch(m["file"], f) for f in GROUP_FILES[g]))]
                if labels and self.run_probe(m, labels, result):
                    return result
            if not self.build(self.gcc):  # it does, and a static_assert of a test catches it
                result["status"] = "killed"
                result["killed_by"].append("build")
                return result
            if self.select:  # the tests that can see it, then the ASan replay of the fuzz targets built from it
                labels = [g for g in groups if g not in PY_GROUPS and g != "asan" and
                          (g not in GROUP_FILES or any(fnmatch.fnmatch(m["file"], f) for f in GROUP_FILES[g]))]
                if self.run_selected(m, labels, result) or "asan" not in groups:
                    return result
                made = self.built_from(m["file"])
                if made is not None and not any(Path(x).parent == self.gcc / "fuzz" for x in made):
                    return result
                groups = ["asan"]
            for g in groups:
                if g in PY_GROUPS or (g in GROUP_FILES and not any(fnmatch.fnmatch(m["file"], f) for f in GROUP_FILES[g])):
                    continue
                if g == "asan":
                    apath = self.asan_tree / m["file"]
                    restore[apath] = self.apply(apath, m)
                    if not self.build(self.clang):  # g++ took it, clang does not: not a mutant either
                        result["status"] = "stillborn"
                        break
                    code = self.group(self.clang, "fuzz-replay")
                else:
                    code = self.group(self.gcc, g)
                if self.judge(result, g, code):
                    if self.probe and g != "asan":
                        self.group_kill(m, result, g)
                    if not all_groups:
                        break
            return result
        finally:
            result["seconds"] = round(time.time() - t0, 1)
            for p, text in restore.items():  # a new mtime: the next build recompiles it
                p.write_text(text)
