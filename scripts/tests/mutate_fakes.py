"""Fakes for scripts/mutate's tests (test_mutate.py): a Runner that builds and runs
nothing, a small C++ program to switch mutants into, a git repository with lines
added since a base, and a planted g++ build tree for --since's test selection.
mutate_cli is the package's cli module (scripts/lib/mutation/cli.py), the one whose Runner
run_main() replaces; HELP the script's docstring, which main() parses its options with."""
import subprocess
import sys

import pytest

from lib import cli
from lib.mutation import cli as mutate_cli

HELP = cli.load_script("mutate").__doc__


class FakeRunner:
    """Runner without builds or tests: mutants alternately killed and survived."""
    ran, built = [], []

    def __init__(self, out, asan, timeout_scale):
        self.gcc = out

    def sync(self):
        pass

    def configure(self):
        pass

    def baseline(self, groups, build=True):
        pass

    def build(self, *_a):
        return True

    def index_tests(self):
        self.tests = {"doc_figures": (["docs", "py-selftest"], None), "cli_tests": (["e2e"], "cli_tests")}

    def build_programs(self, names):
        FakeRunner.built.append(names)

    def baseline_selected(self, names, build=True):
        pass

    def selected_tests(self, m, labels):
        return []

    def py_trace(self, names):
        pass

    def mutant(self, m, groups, all_groups):
        FakeRunner.ran.append(m["id"])
        killed = len(FakeRunner.ran) % 2 == 1
        return dict(id=m["id"], file=m["file"], line=m["line"], op=m["op"], killed_by=["py-selftest"] if killed else [],
                    status="killed" if killed else "survived", seconds=0.0)


def run_main(args):
    """(exit code, the mutant ids run) of mutate's main() on FakeRunner; a usage error's
    exit code too."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mutate_cli, "Runner", FakeRunner)
        mp.setattr(sys, "argv", ["mutate", *args])
        FakeRunner.ran, FakeRunner.built = [], []
        try:
            rc = mutate_cli.main(HELP)
        except SystemExit as e:
            rc = e.code
    return rc, list(FakeRunner.ran)


# A program whose mutants, switched into one binary, must print what each prints built
# alone: loops, an if/else-if chain, a switch's cases, a ternary, a constructor's
# initializer, a member function, expressions that go on over several lines (24-32), and
# h() for the semantic operators (39-45: fields of a kind, subscripts, a chain in an
# initializer; every index a mutant reads stays inside h's string).
PLANTED_PROGRAM = """#include <cstdio>
int unused(int x) {
  return x + 1;
}
int f(int a, int b) {
  int s = 0;
  for (int i = 0; i < a; ++i) {
    if (i % 2 == 0 && b > 1) {
      s += i * b;
    } else if (i == 3) {
      s -= 1;
    }
  }
  const int t = s + 2;
  switch (t % 3) {
    case 1: s = s * 2; break;
    default: s = s + 1;
  }
  for (int k = 0; k < 3; ++k) s += k;
  return t > 10 ? t + s : -t;
}
struct C {
  int v;
  explicit C(int a) : v(a < 2 ? 1 : a + 1) {}
  int twice() const { return v * 2; }
};
int g(int a,
      int b) {
  if (a > 1 &&
      b < 4) {
    return f(a + 1,
             b - 1) + C(b).twice();
  }
  return C(a).twice();
}
struct Span {
  int lo, hi;
};
int h(const char* v, int n) {
  const Span a{v[1] - '0', v[n - 1] - '0'};
  const bool wide = a.hi - a.lo > 2 && n > 1;
  int s = 0;
  for (int i = 1; i < n; ++i) s += (v[i] - '0') * i;
  return s + (wide ? a.hi : a.lo);
}
int main() {
  bool more = true;
  int n = 0;
  while (more) {
    n = n + 1;
    more = n < 3;
  }
  std::printf("%d %d %d %d %d %d %d\\n", f(5, 2), f(7, 1), f(2, 3), n, g(3, 2), g(1, 5), h("1427300", 4));
  return 0;
}
"""


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


def plant_since_repo(root):
    """A repository for --since and --commits: its base commit, a commit "change" (a.cpp's
    line 2 changed, its line 4 deleted), then uncommitted edits: a line added to the
    script and one to the CLI, an untracked header, an ignored one and a file no glob
    covers.  Returns (base, change)."""
    for rel, text in (("core/neffbar/a.cpp", "int f(int a, int b) {\n  int x = a + 1;\n  int y = a - 1;\n  int z = 2;\n"
                                              "  return x < y;\n}\n"),
                      ("core/cli/c.cpp", "int g() {\n  return 2;\n}\n"), ("docs/d.cpp", "int h = 1;\n"),
                      ("scripts/s.py", "def main():\n    x = 1\n    return 0\n"), (".gitignore", "core/neffbar/ign.h\n")):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    base = git(root, "rev-parse", "HEAD")
    (root / "core/neffbar/a.cpp").write_text("int f(int a, int b) {\n  int x = a * 1 + v[b] && a > 0;\n  int y = a - 1;\n"
                                             "  return x < y;\n}\n")
    git(root, "commit", "-qam", "change")
    change = git(root, "rev-parse", "HEAD")
    (root / "scripts/s.py").write_text("def main():\n    x = 1\n    return 0\n\n\nif x > 2:\n    y = 3\n")
    (root / "core/cli/c.cpp").write_text("int g() {\n  if (stop) return 1;\n  return 2;\n}\n")
    (root / "core/neffbar/new.h").write_text("inline int k = 3;\nfor (int i = 0; i < n; ++i) m += g(k, i);\n")  # untracked: all
    (root / "core/neffbar/ign.h").write_text("int ignored = 1;\n")                     # ignored: none
    (root / "docs/d.cpp").write_text("int h = 2;\n")                                 # not covered: none
    return base, change


def plant_selection(r):
    """A g++ build tree for Runner r's test selection: ninja's edges (an object per source,
    a library, a program linking it, a test binary that depends on the program, another
    binary of other objects), the objects' dependencies, the tests' commands, and the
    scripts they name (a module, lib/'s modules, a folder of pytest tests, one test file
    and its node, a README)."""
    b, t = str(r.gcc), str(r.tree)
    (r.gcc / "bin").mkdir(parents=True)
    (r.tree / "scripts").mkdir(parents=True)
    (r.gcc / "build.ninja").write_text(
        "rule cp\n  command = cp $in $out\n"
        "build a.o: cp ../tree/core/cli/x.cpp\nbuild c.o: cp ../tree/core/neffbar/y.cpp\n"
        "build liba.a: cp a.o\nbuild bin/app: cp liba.a\nbuild b.o: cp ../tree/core/tests/t.cpp\n"
        "build bin/tests: cp b.o || bin/app\nbuild bin/other: cp c.o\n")
    for exe in ("app", "tests", "other"):
        (r.gcc / "bin" / exe).write_text("")
    r._deps = {f"{t}/core/cli/x.cpp": {"a.o"}, f"{t}/core/cli/x.h": {"a.o", "c.o"}, f"{t}/core/neffbar/y.cpp": {"c.o"}}
    tests = {"T.app": (["e2e"], [f"{b}/bin/tests", "--gtest_filter=T.app"]),
             "T.other": (["unit"], [f"{b}/bin/other"]),
             "syntax": (["unit"], ["/usr/bin/g++-12", "-fsyntax-only", f"{t}/core/tests/probe.cpp"]),
             "script_e2e": (["e2e"], ["/usr/bin/python3", f"{t}/scripts/e2e.py", f"--cli={b}/bin/app"]),
             "spin": (["spin"], [f"{b}/bin/app"]),
             "mutate_self_test": (["unit"], ["/usr/bin/python3", "-m", "pytest", f"{t}/scripts/tests/test_mutate.py"]),
             "tool_self_test": (["py-selftest"], ["/usr/bin/sh", "-c", "x", "sh", "/usr/bin/python3", f"{t}/scripts/tool_selftest.py"]),
             "other_self_test": (["py-selftest"], [f"{t}/scripts/other", "--self-test"]),
             "scripts_self_test": (["py-selftest"], ["/usr/bin/python3", f"{t}/scripts/scripts_selftest.py"]),
             "pytest": (["py-selftest"], ["/usr/bin/python3", "-m", "pytest", f"{t}/scripts/tests"]),
             "one_file": (["py-selftest"], ["/usr/bin/python3", "-m", "pytest", f"{t}/scripts/tests/test_lonely.py::test_x"])}
    r.tests = {n: (labels, None) for n, (labels, _) in tests.items()}
    r.commands = {n: cmd for n, (_, cmd) in tests.items()}
    (r.tree / "scripts" / "lib").mkdir()
    for name, text in (("lib/shared.py", "X = 0\n"), ("lib/deep.py", "W = 0\n"),
                       ("lib_io.py", "X = 1\n"), ("tool", "#!/usr/bin/env python3\nimport lib_io\nfrom lib import shared  # noqa\n"),
                       ("tool_selftest.py", "run([HERE / 'tool', '--help'])\n"),
                       ("other", "#!/usr/bin/env python3\nprint('other')\n"), ("scripts_selftest.py", "pass\n"),
                       ("README.md", "scripts/tool scripts/other lib_io.py\n")):
        (r.tree / "scripts" / name).write_text(text)
    (r.tree / "scripts" / "tests").mkdir()
    (r.tree / "scripts" / "tests" / "test_other.py").write_text("import other_lib\n")
    (r.tree / "scripts" / "tests" / "test_lonely.py").write_text("from lib.pkg import mod\nlonely = cli.load_script('lonely')\n")
    (r.tree / "scripts" / "lib" / "pkg").mkdir()
    (r.tree / "scripts" / "lib" / "pkg" / "mod.py").write_text("from lib.pkg.deeper import Z\n")
    (r.tree / "scripts" / "lib" / "pkg" / "deeper.py").write_text("Z = 3\n")
    (r.tree / "scripts" / "lonely").write_text("#!/usr/bin/env python3\nprint('lonely')\n")
    (r.tree / "scripts" / "other_lib.py").write_text("from lib.deep import W\nY = 2\n")
