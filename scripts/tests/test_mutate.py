"""scripts/mutate's tests (ctest mutate_self_test, label unit; pytest).  No mutant of the
tree is built or run: the operators on lines whose mutants are known, the catalogue of
the tree (unique ids, Python mutants in it, no stale entry of scripts/mutate.equivalent),
switched mutants against their one-by-one builds on a planted program
(scripts/tests/mutate_fakes.py), the runner's decisions on fake ctest runs, --since's
lines and test selection on planted repositories and build trees, the score, and
main()'s options on a Runner that runs nothing.

mutate_self_test is in mutate's HARNESS_TESTS: it checks the equivalent list's ids
against the tree, so a mutant on the line of an equivalent entry fails it whatever the
mutant does."""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lib.mutation import catalogue, operators, python_ops, report, runner, scope, settings, switches, syntax, trees
from lib.mutation.selection import PY_TRACE_SITE, py_code_at
from mutate_fakes import (HELP, FakeRunner, PLANTED_PROGRAM, git, mutate_cli, plant_selection, plant_since_repo,
                          run_main)

ROOT = settings.ROOT


def cpp_ops(line, ctx=None):
    return sorted((op, new) for op, _, _, new in operators.line_mutants(line, syntax.code_mask(line), ctx))


def py_ops(line, ctx=None):
    return sorted((op, new) for op, _, _, new in python_ops.py_line_mutants(line, python_ops.py_code_mask(line), ctx))


# ------------------------------------------------------------------ the operators --
CPP_LINES = [
    ("  std::vector<int> v;", []),                                  # a template is not a comparison
    ('  s += "a < b";', [("aor", " -= "), ("del", ";  // deleted")]),  # nor is a string
    ("  // if (a < b) x = 1;", []),                                 # nor a comment
    ("  return a && b;", [("cond", "a"), ("cond", "b"), ("lcr", " || ")]),
    ("  f(x, y);", [("del", ";  // deleted"), ("swap", "y, x")]),
    ("  for (int i = 0; i < n; ++i) {", [("cst", "1"), ("loop", "0 + 1"), ("loop", "n - 1"), ("ror", " <= ")]),
    ("  v = c ? a : b;", [("del", ";  // deleted"), ("tern", "b : a")]),
    ("  n = k == A::B ? 1 : k == A::C ? 2 : 3;", [("cst", "0"), ("cst", "1"), ("cst", "2"), ("cst", "2"), ("cst", "3"),
                                                ("cst", "4"),
                                                ("del", ";  // deleted"), ("ror", " != "), ("ror", " != "),
                                                ("tern", "2 : k == A::C ? 1"), ("tern", "3 : 2")]),
    ("  if (p && (q || r)) x = 1;", [("cond", "(q || r)"), ("cond", "p"), ("cond", "q"), ("cond", "r"), ("cst", "0"), ("cst", "2"),
                                     ("lcr", " && "), ("lcr", " || "), ("neg", "(!(p && (q || r)))")]),
    ("  n += 0x10;", [("aor", " -= "), ("cst", "0x11"), ("cst", "0xf"), ("del", ";  // deleted")]),
    ("  const bool t = true;", [("bool", "false")]),
]

PY_LINES = [
    ("    if a and b:", [("cond", "a"), ("cond", "b"), ("lcr", " or "), ("neg", "not (a and b)")]),
    ("    x = 'a < b'  # c < d", [("del", "pass  # deleted")]),  # strings and comments are not code
    ("    for i in range(1, n):", [("cst", "0"), ("cst", "2"), ("loop", "1 + 1"), ("loop", "n - 1")]),
    ("    y = a if c else b", [("del", "pass  # deleted"), ("tern", "b if c else a")]),
    ("    return x <= 0.05", [("ror", " < ")]),  # a float's digits are no constant
    ("    ok = True", [("bool", "False"), ("del", "pass  # deleted")]),
    ('    s = """a < b"""', [("del", "pass  # deleted")]),
]


@pytest.mark.parametrize("line, want", CPP_LINES, ids=[x.strip() for x, _ in CPP_LINES])
def test_cpp_line_mutants(line, want):
    assert cpp_ops(line) == sorted(want)


def test_cpp_condition_spot_check():
    assert {("ror", " <= "), ("neg", "(!(a < b))"), ("cst", "2"), ("cst", "0")} <= set(cpp_ops("  if (a < b) x = 1;"))


@pytest.mark.parametrize("line, want", PY_LINES, ids=[x.strip() for x, _ in PY_LINES])
def test_python_line_mutants(line, want):
    assert py_ops(line) == sorted(want)


BINARY_PAIRS = [("<", "<="), ("<=", "<"), (">", ">="), (">=", ">"), ("==", "!="), ("!=", "=="), ("+", "-"), ("-", "+"),
                ("*", "/"), ("/", "*"), ("&", "|"), ("|", "&"), ("&&", "||"), ("||", "&&")]


@pytest.mark.parametrize("a, b", BINARY_PAIRS, ids=[f"{a}->{b}" for a, b in BINARY_PAIRS])
def test_every_binary_pair(a, b):
    """Each pair of BINARY, in C++ and in Python: the line's exact mutants."""
    op = "lcr" if a in ("&&", "||") else "ror" if a in ("<", "<=", ">", ">=", "==", "!=") else "aor"
    dropped = [("cond", "p"), ("cond", "q")] if op == "lcr" else []  # an operand of the chain dropped
    assert cpp_ops(f"  x = p {a} q;") == sorted([(op, f" {b} "), ("del", ";  // deleted")] + dropped)
    pa, pb = {"&&": ("and", "or"), "||": ("or", "and")}.get(a, (a, b))
    assert py_ops(f"    x = p {pa} q") == sorted([(op, f" {pb} "), ("del", "pass  # deleted")])


@pytest.mark.parametrize("line, want", [("  n -= k;", " += "), ("  n += k;", " -= ")])
def test_compound_assignment(line, want):
    assert cpp_ops(line) == sorted([("aor", want), ("del", ";  // deleted")])


# ------------------------------------------------------ budget and exit-code ops --
CLI, LIB = dict(file="core/cli/app.cpp"), dict(file="core/neffbar/model/x.cpp")
BUDGET_CPP = [
    ('  if (deadline.expired()) return stopped("x");', {}, [("stop", "{}"), ("stopneg", "!deadline.expired()")]),
    ("  if (stop) break;", {}, [("stop", "{}"), ("stopneg", "!stop")]),
    ("  if (budget_cut) return r;", {}, [("stop", "{}"), ("stopneg", "!budget_cut")]),
    ("    return cut;", dict(prev="  if (budget.check()) {"), [("stop", ";  // exit deleted")]),
    ("    return cut;", dict(prev="  if (ok) {"), []),
    ("  if (deadline && deadline->expired()) return std::nullopt;", {},
     [("stop", "{}"), ("stopneg", "!deadline"), ("stopneg", "!deadline->expired()")]),
    ("  for (std::uint32_t j = 1; j <= n && !out_of_budget(); ++j) {", {}, [("stopneg", "out_of_budget()")]),
    ("  if (states.size() > opt_.max_states) f.stop = s;", {}, []),   # a comparison, not a flag
    ("  if (executed) return x;", {}, []),                           # `cut` inside a word is no stop word
    ("  return stop;", {}, []),                                      # a value, not a test
    ("  const auto m = std::numeric_limits<int>::max();", {}, []),
    ("  Deadline budget(run.check.max_seconds, run.check.clock);", {}, [("handoff", "1e300"), ("handoff", "{}")]),
    ("  sc.run.check.clock = run.clock;", {}, [("handoff", "{}")]),
    ("  x = Symmetry::detect(sys, &deadline);", {}, [("handoff", "nullptr")]),
    ("      : deadline_(deadline),", {}, []),                         # a member's initializer
    ("  r.clock = std::move(clock);", {}, [("handoff", "{}")]),
    ("    return code(Exit::Usage);", CLI, [("exitcode", "Invalid")]),
    ("    run.exit_code = code(Exit::Failing);", CLI, [("exitcode", "Invalid")]),
    ("  return 2;", CLI, [("exitcode", "1")]),
    ("  return 2;", LIB, []),                                        # not a CLI's code path
    ("  std::exit(3);", LIB, [("exitcode", "1")]),
    ("  return 0;", CLI, []),
    ("  if (rc == code(Exit::Invalid)) x = 1;", CLI, []),
]
BUDGET_PY = [
    ("        if timed_out:", {}, [("stopneg", "not timed_out")]),
    ("            return 1", dict(prev="        if timed_out:", func="main"), [("exitcode", "2"), ("stop", "pass  # exit deleted")]),
    ("        break", dict(prev="    if self.cancelled:"), [("stop", "pass  # exit deleted")]),
    ("        break", dict(prev="    if done:"), []),
    ("    if stop: break", {}, [("stop", "pass"), ("stopneg", "not stop")]),
    ("    if time.monotonic() > deadline and not self.cancelled:", {}, [("stopneg", "self.cancelled")]),
    ("    rc = p.wait(timeout=max(limit, 0.01))", {}, [("handoff", "None")]),
    ("    p.wait(timeout=10)", {}, []),                               # a fixed guard, no budget handed on
    ("    sys.exit(2)", {}, [("exitcode", "1")]),
    ("    return 2", dict(func="helper"), []),
    ("    return 2", dict(func="main"), [("exitcode", "1")]),
    ("    return 0", dict(func="main"), []),
]


def budget_only(ops):
    return sorted(x for x in ops if x[0] in operators.NEW_OPS)


@pytest.mark.parametrize("line, ctx, want", BUDGET_CPP, ids=[f"{x.strip()} {c}" for x, c, _ in BUDGET_CPP])
def test_budget_ops_cpp(line, ctx, want):
    assert budget_only(cpp_ops(line, ctx)) == sorted(want)


@pytest.mark.parametrize("line, ctx, want", BUDGET_PY, ids=[f"{x.strip()} {c}" for x, c, _ in BUDGET_PY])
def test_budget_ops_python(line, ctx, want):
    assert budget_only(py_ops(line, ctx)) == sorted(want)


@pytest.mark.parametrize("line, python", [("  if (deadline.expired()) return r;", False), ("    if timed_out:", True),
                                          ("    sys.exit(1)", True)])
def test_budget_change_made_once(line, python):
    """No neg beside a whole-condition stopneg, no cst beside its exitcode."""
    fn, mask = (python_ops.py_line_mutants, python_ops.py_code_mask) if python else (operators.line_mutants, syntax.code_mask)
    ms = fn(line, mask(line), {})
    texts = [line[:c] + n + line[c + len(o):] for _, c, o, n in ms]
    assert len(texts) == len(set(texts)) and not any(op == "neg" for op, *_ in ms), ms


# ------------------------------------------------ the semantic operators (issue 56) --
def made(line, op, scope=None):
    """The lines one operator makes of a C++ line; scope: the names the line sees."""
    ms = operators.line_mutants(line, syntax.code_mask(line), {"scope": scope} if scope else None)
    return sorted(line[:c] + n + line[c + len(o):] for p, c, o, n in ms if p == op)


INTS = scope.Scope(names={"na": "int", "nb": "int", "chips": "std::uint32_t", "chip": "std::uint32_t",
                          "leaders": "std::uint32_t", "ok": "bool"},
                   indices=("i", "j"),
                   classes={"Range": {"lo": "int", "hi": "int", "name": "std::string"},
                            "Row": {"cex": "Opt", "global_finding": "Opt"}},
                   members={"a": {"lo", "hi", "name"}, "r": {"cex", "global_finding"}, "b": {"lo"}})
SEMANTIC = [
    # cond: one operand of a && / || chain dropped, wherever the chain sits
    ("cond", "  bool x = a && b;", None, ["  bool x = a;", "  bool x = b;"]),
    ("cond", "  ok = ok || f(x);", None, ["  ok = f(x);", "  ok = ok;"]),
    ("cond", "  auto p = [&](int q) { return q != e && q < n; };", None,
     ["  auto p = [&](int q) { return q < n; };", "  auto p = [&](int q) { return q != e; };"]),
    ("cond", "  x = a || b ? c : d;", None, ["  x = a ? c : d;", "  x = b ? c : d;"]),
    ("cond", "  f(a && b, c);", None, ["  f(a, c);", "  f(b, c);"]),
    ("cond", "  if (a && b || c) {", None, ["  if (a && b) {", "  if (c) {"]),  # || binds loosest
    ("cond", "  if (n > 0 &&", None, ["  if ("]),                  # a chain that goes on below: its operand whole
    ("cond", "      b < 4 || a) {", None, ["      a) {", "      b < 4) {"]),
    ("cond", "  if (b != e && *b == '-') x = 1;", None, ["  if (*b == '-') x = 1;", "  if (b != e) x = 1;"]),
    ("cond", "  T&& value() && { return std::move(v); }", None, []),  # a ref-qualifier, not a chain
    ("cond", '  s = "a && b";', None, []),
    ("cond", "  if (f(a)) {", None, []),
    # swap: neighbouring arguments of a kind, in any call or braced initializer
    ("swap", "  f(a.lo, a.hi);", None, ["  f(a.hi, a.lo);"]),
    ("swap", "  g(x, 1, 2);", None, ["  g(x, 2, 1);"]),
    ("swap", "  return Fact{p, d, q};", None, ["  return Fact{d, p, q};", "  return Fact{p, q, d};"]),
    ("swap", '  e = Error{Errc::Bad, "$.x", "a number"};', None,
     ['  e = Error{Errc::Bad, "a number", "$.x"};']),
    ("swap", "  k = std::min(a, b);", None, []),                   # min and max commute
    ("swap", "  f(a, 1);", None, []),                              # a name and a number: not a kind
    ("swap", "  f(x, x);", None, []),
    ("swap", "  f(na, chips, chip);", INTS, ["  f(na, chip, chips);"]),  # na and chips: declared of two types
    # loop: the first or the last iteration skipped
    ("loop", "  for (int i = 0; i <= n; ++i) {", None, ["  for (int i = 0 + 1; i <= n; ++i) {", "  for (int i = 0; i <= n - 1; ++i) {"]),
    ("loop", "  for (int i = n; i > 0; --i) {", None, ["  for (int i = n - 1; i > 0; --i) {", "  for (int i = n; i > 0 + 1; --i) {"]),
    ("loop", "  for (std::uint32_t p = 0; p < n && !dead; ++p) {", None,   # the comparison moves, not `!dead - 1`
     ["  for (std::uint32_t p = 0 + 1; p < n && !dead; ++p) {", "  for (std::uint32_t p = 0; p < n - 1 && !dead; ++p) {"]),
    ("loop", "  for (const auto& x : xs) {", None,
     ["  for (auto mutant_left_ = std::size(xs); const auto& x : xs) { if (--mutant_left_ == 0) continue;",
      "  for (bool mutant_first_ = true; const auto& x : xs) { if (mutant_first_) { mutant_first_ = false; continue; }"]),
    ("loop", "  for (int x : f(v)) s += x;  // sum", None,
     ["  for (auto mutant_left_ = std::size(f(v)); int x : f(v)) { if (--mutant_left_ == 0) continue; s += x; }  // sum",
      "  for (bool mutant_first_ = true; int x : f(v)) { if (mutant_first_) { mutant_first_ = false; continue; } s += x; }  // sum"]),
    ("loop", "  for (Kind k : {Kind::A, Kind::B}) {", None,
     ["  for (auto mutant_left_ = std::size({Kind::A, Kind::B}); Kind k : {Kind::A, Kind::B}) { if (--mutant_left_ == 0) continue;",
      "  for (bool mutant_first_ = true; Kind k : {Kind::A, Kind::B}) { if (mutant_first_) { mutant_first_ = false; continue; }"]),
    ("loop", "  while (i < n) {", None, ["  while (i < n - 1) {"]),
    ("loop", "  while (i < end && differs(i)) ++i;", None, ["  while (i < end - 1 && differs(i)) ++i;"]),
    ("loop", "  while (k >= 1) --k;", None, ["  while (k >= 1 + 1) --k;"]),
    ("loop", "  while (a || b) {", None, []),
    ("loop", "  for (auto x : xs)", None, []),                      # the body below, unbraced: not rewritten
    # var: another name of the same declared type, the most alike
    ("var", "  x = na + 1;", INTS, ["  x = nb + 1;"]),
    ("var", "  n = chips * 2;", INTS, ["  n = chip * 2;"]),            # chip, not leaders: the most alike
    ("var", "  y = a.lo;", INTS, ["  y = a.hi;"]),                     # a sibling field of its type, read on a
    ("var", "  y = b.lo;", INTS, []),                                  # b.hi is never read: no sibling
    ("var", "  if (r.cex) return;", INTS, ["  if (r.global_finding) return;"]),
    ("var", "  int nc = na;", INTS, ["  int nc = nb;"]),               # the declared name stays
    ("var", "  f(ok);", INTS, []),                                     # no other bool; f is called, not read
    ("var", "  x = na + 1;", None, []),                               # nothing in scope, nothing made
    ("var", "  for (int i = 0; i < na; ++i) s += nb;", INTS, []),      # a for line: a changed bound loops
    # index: the wrong place of the same container
    ("index", "  x = v[i];", INTS, ["  x = v[i + 1];", "  x = v[i - 1];", "  x = v[j];"]),
    ("index", "  x = v[k];", None, ["  x = v[0];", "  x = v[k + 1];", "  x = v[k - 1];"]),
    ("index", "  x = v[a & b];", None, ["  x = v[(a & b) + 1];", "  x = v[(a & b) - 1];", "  x = v[0];"]),
    ("index", "  y = v.front() + w->back();", None, ["  y = v.back() + w->back();", "  y = v.front() + w->front();"]),
    ("index", "  x = v[2];", None, []),                                # a literal subscript is cst's
    ("index", '  j["holds"] = r.holds();', None, []),                    # a key, not a place
    ("index", "  auto f = [&](int k) { return k; };", None, []),      # a capture, not a subscript
    ("index", "  [[nodiscard]] int g();", None, []),
]


@pytest.mark.parametrize("op, line, sees, want", SEMANTIC, ids=[f"{op}: {x.strip()}" for op, x, _, _ in SEMANTIC])
def test_semantic_operators(op, line, sees, want):
    """Each operator's mutants of a line, exactly: what it makes and (an empty list) what
    it must leave alone."""
    assert made(line, op, sees) == sorted(want)


SCOPED = """struct Box {
  int lo, hi;
  std::string name;
};
int Box::width(int pad) const {
  int w = hi - lo;
  for (int i = 0; i < w; ++i) {
    int inner = v[i];
  }
  return w + pad;
}
"""


def test_scope_of_a_line():
    """A line sees its function's parameters, the locals above it, its for header's
    variable, an out-of-line member's class fields; not a local of a closed block."""
    classes = {}
    scopes = scope.file_scopes(SCOPED, syntax.code_mask(SCOPED), classes)
    assert classes["Box"] == {"lo": "int", "hi": "int", "name": "std::string"}
    inner, after = scopes[7], scopes[9]  # `int inner = v[i];`, `return w + pad;`
    assert {k: inner.names[k] for k in ("i", "w", "pad", "lo")} == dict.fromkeys(("i", "w", "pad", "lo"), "int")
    assert inner.indices == ("i",)
    assert set(after.names) == {"lo", "hi", "name", "pad", "w"} and after.indices == ()


def test_catalogue_reads_each_lines_scope(tmp_path):
    """The catalogue hands each C++ line its scope: var finds a parameter's twin, and no
    name of another function."""
    (tmp_path / "core").mkdir()
    (tmp_path / "core/x.cpp").write_text("int f(int na, int nb) {\n  return na * 2;\n}\nint g(int nc) {\n  return nc;\n}\n")
    got = {(m["line"], m["new"].strip()) for m in catalogue.catalogue(tmp_path, ["core/x.cpp"]) if m["op"] == "var"}
    assert got == {(2, "return nb * 2;")}


@pytest.mark.parametrize("which, want", [("mutant_first_", "23"), ("mutant_left_", "12")])
@pytest.mark.parametrize("body, xs", [("{ s = s * 10 + x; }", "v"), ("s = s * 10 + x;", "v"), ("s = s * 10 + x;", "{1, 2, 3}")],
                         ids=["braced", "one line", "a braced list"])
def test_range_for_skips_one_element(tmp_path, which, want, body, xs):
    """A range-for's mutants compile and skip its first, or its last, element."""
    line = f"  for (int x : {xs}) {body}"
    new = next(n for n in made(line, "loop") if which in n)
    cxx = shutil.which("g++-12") or shutil.which("g++") or shutil.which("clang++-14")
    src = tmp_path / "r.cpp"
    src.write_text("#include <cstdio>\n#include <vector>\nint main() {\n  std::vector<int> v{1, 2, 3};\n  int s = 0;\n"
                   f"{new}\n  std::printf(\"%d\", s);\n}}\n")
    subprocess.run([cxx, "-std=c++20", "-o", str(tmp_path / "r"), str(src)], check=True)
    assert subprocess.run([str(tmp_path / "r")], capture_output=True, text=True).stdout == want


def test_list_shows_the_new_operators_mutants(capsys):
    """--ops takes var and index, and --list prints their mutants of the tree."""
    rc, _ = run_main(["--ops", "var", "index", "--everything", "--files", "core/neffbar/model/*", "--list"])
    ops = {line.split()[2] for line in capsys.readouterr().out.splitlines()}
    assert rc == 0 and ops == {"var", "index"}


# ------------------------------------------------------------- the tree's catalogue --
@pytest.fixture(scope="module")
def tree_catalogue():
    """(every candidate of the tree, --since's CLI mutants too; the catalogue as main()
    picks it)."""
    cpp = catalogue.catalogue(ROOT, settings.SOURCES)
    py = catalogue.catalogue(ROOT, python_ops.python_sources(ROOT), python=True)
    cands = cpp + py + catalogue.catalogue(ROOT, [g for g in settings.SINCE_SOURCES if g not in settings.SOURCES])
    chosen = catalogue.select(cpp, settings.CATALOGUE_SIZE) + catalogue.select(py, settings.PY_CATALOGUE_SIZE)
    return cands, chosen


def test_mutant_ids_are_unique(tree_catalogue):
    ids = [m["id"] for m in tree_catalogue[0]]
    assert len(ids) == len(set(ids))


def test_catalogue_holds_python_mutants(tree_catalogue):
    chosen = tree_catalogue[1]
    assert chosen and any(m["python"] for m in chosen), "the catalogue is empty"


def test_equivalent_entries_name_mutants(tree_catalogue):
    stale = set(catalogue.load_equivalent()) - {m["id"] for m in tree_catalogue[0]}
    assert not stale, f"scripts/mutate.equivalent names mutants that no longer exist: {' '.join(sorted(stale))}"


def test_equivalent_entry_without_reason_stops_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue, "EQUIVALENT", tmp_path / "mutate.equivalent")
    catalogue.EQUIVALENT.write_text("# a comment\nabc1234567 a reason\ndef7654321\n")
    with pytest.raises(SystemExit) as e:
        catalogue.load_equivalent()
    assert "mutant def7654321 has no reason" in str(e.value.code)


def test_python_sources():
    """Every Python file of scripts/, scripts/lib/ and lib's packages is mutated, but mutate,
    its package lib/mutation/ and the tests (*selftest*, *_test.py)."""
    got = set(python_ops.python_sources(ROOT))
    want = set()
    lib = ROOT / "scripts" / "lib"
    packages = [p for d in lib.iterdir() if d.is_dir() and d.name != "mutation" for p in d.glob("*.py")]
    for path in [*(ROOT / "scripts").iterdir(), *lib.iterdir(), *packages]:
        head = path.read_text(errors="replace").split("\n", 1)[0] if path.is_file() else ""
        if path.suffix == ".py" or (not path.suffix and path.is_file() and head.startswith("#!") and "python" in head):
            want.add(path.relative_to(ROOT).as_posix())
    want = {f for f in want if "selftest" not in f and not f.endswith("_test.py") and f != "scripts/mutate"}
    assert got == want
    assert {"scripts/lib/strict_io.py", "scripts/lib/cli.py", "scripts/bench-export", "scripts/lib/rehearsal/values.py"} <= got
    assert "scripts/bench_pipeline_test.py" not in got


def test_mutate_mutates_neither_itself_nor_its_package(tmp_path, tree_catalogue):
    """scripts/mutate and its package scripts/lib/mutation/ are the harness: none of their
    lines is in the tree's candidates, nor taken in a planted tree beside a script, a
    module of lib/ and a module of another package of lib/ that are."""
    harness = {m["file"] for m in tree_catalogue[0] if m["file"] == "scripts/mutate" or "/mutation/" in m["file"]}
    assert not harness, sorted(harness)
    for rel in ("scripts/mutate", "scripts/lib/mutation/__init__.py", "scripts/lib/mutation/cli.py", "scripts/lib/io.py",
                "scripts/tool.py", "scripts/lib/pkg/mod.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("#!/usr/bin/env python3\nx = 1\n")
    assert python_ops.python_sources(tmp_path) == ["scripts/tool.py", "scripts/lib/io.py", "scripts/lib/pkg/mod.py"]


def test_a_scripts_own_self_test_is_not_mutated(tmp_path):
    """Nor a script's self_test, _test_* and what they define."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "s.py").write_text(
        "def work(a):\n    return a < 1\n\n\ndef self_test():\n    def call(x):\n        return x < 2\n"
        "    assert call(0) < 3\n\n\ndef _test_part(expect):\n    expect(4 < 5)\n\n\ndef after(b):\n    return b > 6\n")
    assert sorted({m["line"] for m in catalogue.catalogue(tmp_path, ["scripts/s.py"], python=True)}) == [2, 16]


# ------------------------------------------------------------------- switched forms --
FORMS = [("    x = a + b;  // sum", [(4, "    x = a - b;  // sum")], "{",
          "    if (::neffbar_mutant::on(4)) { x = a - b; } else { x = a + b; }"),
         ("    } else if (n == 0) {", [(3, "    } else if (n != 0) {")], "}",
          "    } else if (::neffbar_mutant::on(3) ? static_cast<bool>(n != 0) : static_cast<bool>(n == 0)) {"),
         ("    const auto y = a * 2;", [(6, "    const auto y = a * 3;")], "x;",
          "    const auto y = ::neffbar_mutant::on(6) ? (a * 3) : (a * 2);"),
         ("        + b;", [(8, "        - b;")], "x = a", None),            # inside a longer statement
         ("    f(a,", [(9, "    f(b,")], ";", "    f((::neffbar_mutant::on(9) ? (b) : (a)),"),  # an argument
         ("    int a = 0, b = 1;", [(9, "    int a = 1, b = 1;")], ";",  # an initializer
          "    int a = (::neffbar_mutant::on(9) ? (1) : (0)), b = 1;"),
         ("      b < 4 || a) {", [(5, "      b <= 4 || a) {")], "if (a > 1 &&",  # an operand, its line's first
          "      (::neffbar_mutant::on(5) ? (b <= 4) : (b < 4)) || a) {"),
         ("      b < 4 || a) {", [(5, "      b < 4 && a) {")], "if (a > 1 &&", None),  # no operand holds it
         ("  if (a > 0 && b == c && d &&", [(5, "  if (a > 0 || b == c && d &&")], ";", None),  # a || (b == c && ..)
         ("      b - 1) + C(b).f();", [(5, "      b - 1) - C(b).f();")], "x = f(a,", None),  # past the call's end
         ("  g({a, b}, (c));", [(5, "  g({a, b}, (d));")], "x = (", "  g({a, b}, ((::neffbar_mutant::on(5) ? (d) : (c))));"),
         ("  f(a && b && c);", [(5, "  f(a || b && c);")], "x = (", "  f((::neffbar_mutant::on(5) ? (a || b && c) : (a && b && c)));"),
         ("  f(a || b ? c : d);", [(5, "  f(a || e ? c : d);")], "x = (", "  f((::neffbar_mutant::on(5) ? (a || e ? c : d) : (a || b ? c : d)));"),
         ("  f(a && b || c);", [(5, "  f(a && d || c);")], "x = (", "  f(a && (::neffbar_mutant::on(5) ? (d) : (b)) || c);"),
         ("  f(a || b && c);", [(5, "  f(a || d && c);")], "x = (", "  f(a || (::neffbar_mutant::on(5) ? (d) : (b)) && c);"),
         ("  int g() const { return v * 2; }", [(5, "  int g() const { return v / 2; }")], "}",
          "  int g() const { return (::neffbar_mutant::on(5) ? (v / 2) : (v * 2)); }"),
         ("  T f(int a, bool b = true);", [(5, "  T f(int a, bool b = false);")], "}",
          "  T f(int a, bool b = (::neffbar_mutant::on(5) ? (false) : (true)));"),
         ("  Deadline d(x, clock);", [(5, "  Deadline d(x, {});")], ";",
          "  Deadline d(x, (::neffbar_mutant::on(5) ? (std::remove_cvref_t<decltype(clock)>{}) : (clock)));"),
         ("  x = p - q + r;", [(5, "  x = p - q - r;")], "y = (",  # continues a statement: the whole right side
          "  x = (::neffbar_mutant::on(5) ? (p - q - r) : (p - q + r));"),
         ("    case 1: x = 2;", [(9, "    case 1: x = 3;")], ";",
          "    case 1: if (::neffbar_mutant::on(9)) { x = 3; } else { x = 2; }"),
         ("  for (auto x : v) {", [(9, "  for (auto x : w) {")], ";", None),
         ("    const Compiled c(sys, 2);", [(9, "    const Compiled c(sys, 3);")], ";",  # not its statement: the if would scope c
          "    const Compiled c(sys, (::neffbar_mutant::on(9) ? (3) : (2)));"),
         ("  for (int i = 0, j = 1; i < n; ++i) {", [(9, "  for (int i = 1, j = 1; i < n; ++i) {")], ";",
          "  for (int i = (::neffbar_mutant::on(9) ? (1) : (0)), j = 1; i < n; ++i) {")]


@pytest.mark.parametrize("line, variants, prev, want", FORMS, ids=[f"{x.strip()} <- {p}" for x, _, p, _ in FORMS])
def test_switched_form(line, variants, prev, want):
    """A line's switched form, or None where it has none (the mutant is then built alone)."""
    assert switches.schema_line(line, variants, prev) == want


class Planted:
    """PLANTED_PROGRAM with its mutants switched into one binary, and built as it is."""

    def __init__(self, root):
        self.root, self.cxx = root, shutil.which("g++-12") or shutil.which("g++") or shutil.which("clang++-14")
        if not self.cxx:
            pytest.fail("no C++ compiler to build the planted program")
        (root / "core").mkdir()
        (root / "core/p.cpp").write_text(PLANTED_PROGRAM)
        (root / "switch.h").write_text(switches.SWITCH_TEXT)
        ms = catalogue.catalogue(root, ["core/p.cpp"])
        by_line = {m["line"]: [x for x in ms if x["line"] == m["line"]] for m in ms}
        # one mutant a line, and every mutant of the lines switched as sub-expressions (24-32)
        # and of h() (39-45, the semantic operators): one line's mutants may parse differently
        ms = ([min(g, key=catalogue.rank) for g in by_line.values()] +
              [m for m in ms if (24 <= m["line"] <= 32 or 39 <= m["line"] <= 45)
               and m != min(by_line[m["line"]], key=catalogue.rank)])
        self.forms = switches.switch_forms(PLANTED_PROGRAM, ms, 1)
        lines = PLANTED_PROGRAM.split("\n")
        for ln, (form, _, _) in self.forms.items():
            lines[ln - 1] = form
        (root / "sw.cpp").write_text(f'#include "{root / "switch.h"}"\n' + "\n".join(lines))
        self.switched = self.build(root / "sw.cpp")
        self.plain = self.run(self.build(root / "core/p.cpp"))

    def build(self, path):
        exe = path.with_suffix("")
        ok = subprocess.run([self.cxx, "-std=c++20", "-O0", "-o", str(exe), str(path)], capture_output=True).returncode == 0
        return exe if ok else None

    @staticmethod
    def run(exe, env=None):
        if exe is None:
            return None
        try:  # a mutant may loop for ever, built alone or switched alike
            return subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=5).stdout
        except subprocess.TimeoutExpired:
            return "timeout"


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    p = Planted(tmp_path_factory.mktemp("switches"))
    assert p.switched is not None, "the planted program does not build switched"
    return p


def test_switched_program_with_no_switch_on_runs_as_the_original(planted, tmp_path):
    """And its trace names the switches of the lines run, no other: all but unused()'s line 3."""
    out = planted.run(planted.switched, dict(os.environ, NEFFBAR_MUTANT_TRACE=str(tmp_path)))
    assert out == planted.plain
    reached = {int(x) for f in tmp_path.iterdir() for x in f.read_text().split()}
    run_lines = {ln for ln, (_, _, ids) in planted.forms.items() if set(ids.values()) & reached}
    assert 3 in planted.forms and {24, 25, 29, 30, 31, 32, 41, 43, 44} <= set(planted.forms), sorted(planted.forms)
    assert run_lines == set(planted.forms) - {3}


def test_each_switched_mutant_runs_as_built_alone(planted):
    src = PLANTED_PROGRAM.split("\n")

    def compare(item):
        ln, m, sid = item
        alone = planted.root / f"m{sid}.cpp"
        alone.write_text("\n".join(src[:ln - 1] + [m["new"]] + src[ln:]))
        want = planted.run(planted.build(alone))
        got = planted.run(planted.switched, dict(os.environ, NEFFBAR_MUTANT=str(sid)))
        return None if want is None or got == want else f"{m['new'].strip()!r} prints {got!r} switched, {want!r} built alone"

    items = [(ln, m, ids[m["id"]]) for ln, (_, ms, ids) in planted.forms.items() for m in ms]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        wrong = [x for x in pool.map(compare, items) if x]
    assert len(items) > 20 and not wrong, wrong
    ops = {m["op"] for _, m, _ in items}
    assert {"cond", "loop", "var", "index", "tern"} <= ops, sorted(ops)  # the semantic operators switched too


# ------------------------------------------------------ a refused switched line --
@pytest.fixture
def salvage(tmp_path):
    """A Runner whose switched line 2 of x.cpp holds two mutants (m1, m2); the tree's
    line 3, under the switch header's #include."""
    r = runner.Runner(tmp_path, False, 3.0)
    r.source = tmp_path
    old = '  page += "<a>" + s;'
    (tmp_path / "x.cpp").write_text("void f() {\n" + old + "\n}\n")
    ms = [dict(id="m1", line=2, old=old, new='  page -= "<a>" + s;'), dict(id="m2", line=2, old=old, new="  ;")]
    r.switch = {"m1": 1, "m2": 2}
    form = switches.schema_line(old, [(1, ms[0]["new"]), (2, ms[1]["new"])], "void f() {")
    r.switch_lines = {("x.cpp", 2): (form, ms)}
    return r, form


def test_salvage_takes_the_mutant_an_error_points_at_off_its_line(salvage, tmp_path):
    r, form = salvage
    guard = switches.GUARD
    at = form.find(guard(1)) + len(guard(1)) + 5  # inside m1's text
    log = tmp_path / "build.log"
    log.write_text(f"{tmp_path}/tree/x.cpp:3:{at + 1}: error: no match for 'operator-='\n")
    kept = r.schema_salvage(log, tmp_path, tmp_path / "tree", {("x.cpp", 2)})
    new = r.switch_lines[("x.cpp", 2)][0]
    assert kept == {("x.cpp", 2)} and guard(1) not in new and guard(2) in new, (kept, new)
    assert r.switch == {"m2": 2}


def test_salvage_refuses_a_line_whose_error_is_before_its_first_switch(salvage, tmp_path):
    r, _ = salvage
    log = tmp_path / "build.log"
    log.write_text(f"{tmp_path}/tree/x.cpp:3:1: error: expected unqualified-id\n")
    assert not r.schema_salvage(log, tmp_path, tmp_path / "tree", {("x.cpp", 2)})
    assert r.switch == {"m1": 1, "m2": 2}


def test_a_refused_line_keeps_its_switch_numbers(tmp_path, monkeypatch):
    """The other lines' numbers are those of the run that found it (--continue's forms and
    trace), and no two mutants, in one file or two, share a number."""
    monkeypatch.setattr(trees, "ROOT", tmp_path)
    ms = []
    for f in ("a.cpp", "b.cpp"):
        (tmp_path / f).write_text("void f(int& x) {\n  x = 1;\n  x = 2;\n}\n")
        ms += [dict(id=f"{f}{ln}{k}", file=f, line=ln, new=f"  x = {ln}{k};") for ln in (2, 3) for k in (5, 6)]
    r = runner.Runner(tmp_path / "out", False, 3.0)
    (r.tree / "core/neffbar").mkdir(parents=True)
    for f in ("a.cpp", "b.cpp"):
        shutil.copy(tmp_path / f, r.tree / f)
    r.schema_apply(ms)
    first = dict(r.switch)
    assert sorted(first.values()) == list(range(1, 9))
    r.refused_forms([f"a.cpp\0{r.switch_lines[('a.cpp', 2)][0]}"])
    r.schema_apply(ms)
    assert r.switch == {k: v for k, v in first.items() if not k.startswith("a.cpp2")}
    assert ("a.cpp", 2) not in r.switch_lines


# ------------------------------------------------------------ the switched runner --
def fake_ctest(runs, fail_in):
    """Runner.ctest_tests recording (tests, NEFFBAR_MUTANT) of each run; fail_in: the test
    that fails, or "timeout" for every run timing out."""
    def ctest_tests(names, log, baseline=False, env=None, build_dir=None, scale=1.0, floor=60.0):
        runs.append((sorted(names), env.get("NEFFBAR_MUTANT")))
        if fail_in == "timeout":
            return "timeout"
        if fail_in in names:
            log.write_text(f"Test #3: {fail_in} .....***Failed 0.1 sec\n")
            return 8
        log.write_text("")
        return 0
    return ctest_tests


@pytest.fixture
def switched(tmp_path):
    """A Runner with three switched mutants, the tests that reached each, their times and
    the killers of f.h's earlier mutants."""
    r = runner.Runner(tmp_path, False, 3.0)
    r.switch = {"m1": 1, "m2": 2, "m3": 3}
    r.reach = {"Q.a": {1, 2}, "Q.b": {1}, "K.c": {1, 2}, "S.d": {1, 2}, "S.e": {3}, "K.slow": {1}}
    r.test_seconds = {"Q.a": 0.1, "Q.b": 0.5, "K.c": 1.0, "S.d": 30.0, "S.e": 40.0, "K.slow": 100.0}
    r.tests = {n: (["unit"], None) for n in r.reach}
    r.killers = {"f.h": {"K.c": 2, "K.slow": 5}}
    return r


@pytest.mark.parametrize("fail_in, killers, want_runs, want", [
    (None, {}, [["K.c"], ["Q.a", "Q.b"], ["S.d", "K.slow"]], "survived"),
    ("Q.b", {}, [["K.c"], ["Q.a", "Q.b"]], "killed"),
    ("timeout", {"Q.b": 1}, [["K.c", "Q.b"]], "timeout")])  # a quick killer learned before: in the first batch
def test_switched_mutant_runs_its_reaching_tests_in_batches(switched, fail_in, killers, want_runs, want):
    """The file's quick killers first, then the quick tests, then the slow ones, each batch
    its own run under the mutant's switch, stopping at a kill or a hang."""
    runs = []
    switched.killers["f.h"].update(killers)
    switched.ctest_tests = fake_ctest(runs, fail_in)
    got = switched.schema_mutant(dict(id="m1", file="f.h", line=3, op="ror"))
    assert [n for n, _ in runs] == [sorted(b) for b in want_runs] and {e for _, e in runs} == {"1"}, runs
    assert got["status"] == want
    if want == "killed":
        assert switched.killers["f.h"].get("Q.b") == 1, "the killing test is learned"


def test_switched_mutant_runs_only_the_tests_that_reached_it(switched):
    runs = []
    switched.ctest_tests = fake_ctest(runs, None)
    got = switched.schema_mutant(dict(id="m3", file="g.h", line=9, op="cst"))
    assert [n for n, _ in runs] == [["S.e"]] and got["tests"] == ["S.e"]


def test_switched_mutant_no_test_reached_survives_nothing_run(switched):
    runs = []
    switched.ctest_tests = fake_ctest(runs, None)
    switched.reach = {n: v - {3} for n, v in switched.reach.items()}
    got = switched.schema_mutant(dict(id="m3", file="g.h", line=9, op="cst"))
    assert not runs and got["status"] == "survived" and not got["tests"], (runs, got)


def test_one_by_one_order(tmp_path):
    """The cheapest expected kill first (a test's time over one plus its kills); a script's
    own test (named after it) before all."""
    r = runner.Runner(tmp_path, False, 3.0)
    r.test_seconds = {"slow_many": 50.0, "quick_some": 10.0, "quick_none": 1.0, "slow_none": 60.0}
    r.killers = {"s.py": {"slow_many": 20, "quick_some": 10}}
    assert r.one_by_one_order(dict(file="s.py"), sorted(r.test_seconds)) == [
        "quick_some", "quick_none", "slow_many", "slow_none"]
    r.test_seconds["s_self_test"] = 20.0
    assert r.one_by_one_order(dict(file="scripts/s.py", python=True), sorted(r.test_seconds))[0] == "s_self_test"


# ------------------------------------------------------------ the Python trace --
PY_TRACED = ("import sys\n\ndef f():\n    return 1\n\ndef g():\n    def inner():\n        return 2\n"
             "    return inner()\n\n\nif __name__ == '__main__':\n    print(f())\n")


def test_py_trace_site_records_the_functions_entered(tmp_path):
    """PY_TRACE_SITE records the functions a script's process enters, module code included."""
    tree = tmp_path / "tree"
    (tree / "scripts").mkdir(parents=True)
    (tree / "scripts/a.py").write_text(PY_TRACED)
    (tmp_path / "site").mkdir()
    (tmp_path / "site/sitecustomize.py").write_text(PY_TRACE_SITE)
    env = dict(os.environ, NEFFBAR_PY_TRACE=f"{tmp_path}/out", NEFFBAR_PY_TRACE_ROOT=os.path.realpath(tree) + "/",
               PYTHONPATH=f"{tmp_path}/site")
    subprocess.run([sys.executable, "scripts/a.py"], cwd=tree, env=env, capture_output=True, check=False)
    got = {tuple(x) for f in (tmp_path / "out").glob("*.json") for x in json.loads(f.read_text())}
    assert got == {("scripts/a.py", 1, "<module>"), ("scripts/a.py", 3, "f")}


@pytest.mark.parametrize("line, want", [(4, (3, "f")), (8, (7, "inner")), (9, (6, "g")), (6, (1, "<module>")),
                                        (13, (1, "<module>"))])
def test_py_code_at(line, want):
    """The function holding a line; a def line is its enclosing code's."""
    assert py_code_at(PY_TRACED, line) == want


@pytest.fixture
def traced(tmp_path, monkeypatch):
    """A Runner whose tests t1..t3 entered scripts/a.py's module code and f (t1), nothing
    (t2) and g (t3); t4 was not traced."""
    monkeypatch.setattr(trees, "ROOT", tmp_path / "tree")
    (tmp_path / "tree/scripts").mkdir(parents=True)
    (tmp_path / "tree/scripts/a.py").write_text(PY_TRACED)
    r = runner.Runner(tmp_path / "o", False, 3.0)
    r.py_reach = {"t1": {("scripts/a.py", 1, "<module>"), ("scripts/a.py", 3, "f")}, "t2": set(),
                  "t3": {("scripts/a.py", 6, "g")}}
    return r


def test_python_mutant_runs_the_tests_that_entered_its_function(traced):
    """Or that recorded nothing, or were not traced."""
    assert traced.py_reaching(dict(file="scripts/a.py", line=4), ["t1", "t2", "t3", "t4"]) == ["t1", "t2", "t4"]


def test_python_mutant_no_test_entered_survives_nothing_run(traced):
    ran = []
    traced.select, traced.selected_tests = True, lambda m, labels: ["t3"]
    traced.run_one_by_one = lambda *a, **k: ran.append(a)
    m = dict(file="scripts/a.py", line=4, id="x", killed_by=[], status="survived")
    res = traced.python_mutant(trees.ROOT / "scripts/a.py", m, False)
    assert not ran and res["status"] == "survived" and res.get("tests") == [], (ran, res)


# --------------------------------------------------------------- the snapshot --
def test_trees_hold_the_checkout_as_at_the_first_sync(tmp_path, monkeypatch):
    """A file edited, added or made executable after it reaches neither a later sync nor
    original(); a mutant left in the tree is undone."""
    checkout = tmp_path / "checkout"
    monkeypatch.setattr(trees, "ROOT", checkout)
    checkout.mkdir()
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    (checkout / "a.cpp").write_text("int a = 1;\n")
    (checkout / "run").write_text("#!/bin/sh\n")
    (checkout / "run").chmod(0o755)
    r = runner.Runner(tmp_path / "out", False, 3.0)
    r.sync()
    first = r.tree_hash
    (checkout / "a.cpp").write_text("int a = 2;\n")
    (checkout / "b.cpp").write_text("int b;\n")
    (r.tree / "a.cpp").write_text("int a = 3;  // a mutant\n")
    r.sync()
    assert (r.tree / "a.cpp").read_text() == "int a = 1;\n" and r.original("a.cpp") == "int a = 1;\n"
    assert not (r.tree / "b.cpp").exists() and r.tree_hash == first
    assert os.access(r.tree / "run", os.X_OK)


# ------------------------------------------------------------ --since, --commits --
@pytest.fixture(scope="module")
def since_repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("since")
    base, _ = plant_since_repo(root)
    return root, base, catalogue.covered_files(root, settings.SINCE_SOURCES) + python_ops.python_sources(root)


def test_since_takes_the_added_lines(since_repo):
    """Committed or not, and every line of an untracked covered file; no deleted, unchanged,
    ignored or uncovered line."""
    root, base, paths = since_repo
    got = {f: sorted(v) for f, v in catalogue.added_lines(root, base, paths).items()}
    assert got == {"core/neffbar/a.cpp": [2], "core/cli/c.cpp": [2], "scripts/s.py": [4, 5, 6, 7],
                   "core/neffbar/new.h": [1, 2, 3]}


def test_since_mutates_them_with_every_operator(since_repo):
    root, base, _ = since_repo
    ms, _ = catalogue.since_mutants(root, base)
    assert sorted({(m["file"], m["line"]) for m in ms}) == [
        ("core/cli/c.cpp", 2), ("core/neffbar/a.cpp", 2), ("core/neffbar/new.h", 1), ("core/neffbar/new.h", 2),
        ("scripts/s.py", 6), ("scripts/s.py", 7)]
    assert {"stop", "stopneg", "exitcode", "aor", "cst", "cond", "swap", "loop", "var", "index"} <= {m["op"] for m in ms}


def test_since_an_unknown_rev_is_refused(since_repo):
    root, _, paths = since_repo
    with pytest.raises(ValueError):
        catalogue.added_lines(root, "no-such-rev", paths)


@pytest.fixture(scope="module")
def commits_repo(tmp_path_factory):
    """since_repo with its uncommitted edits committed ("more")."""
    root = tmp_path_factory.mktemp("commits")
    base, change = plant_since_repo(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "more")
    return root, base, change, catalogue.covered_files(root, settings.SINCE_SOURCES) + python_ops.python_sources(root)


def test_commits_takes_the_lines_blamed_on_them(commits_repo):
    """Not the other commits': the base's line 2, changed by "change", is change's."""
    root, base, change, paths = commits_repo
    got = {f: sorted(v) for f, v in catalogue.blamed_lines(root, [change], paths).items()}
    assert got == {"core/neffbar/a.cpp": [2]}
    got = {f: sorted(v) for f, v in catalogue.blamed_lines(root, [base], paths).items()}
    assert got == {"core/neffbar/a.cpp": [1, 3, 4, 5], "core/cli/c.cpp": [1, 3, 4], "scripts/s.py": [1, 2, 3]}


def test_commits_an_unknown_commit_is_refused(commits_repo):
    root, _, _, paths = commits_repo
    with pytest.raises(ValueError):
        catalogue.blamed_lines(root, ["no-such-rev"], paths)


# ------------------------------------------------------------------- the probe --
def test_failed_tests_of_a_ctest_log(tmp_path):
    """The failed tests, not the timed-out ones."""
    log = tmp_path / "t.log"
    log.write_text("  3/10 Test   #5: Foo.Bar ..........***Failed    0.02 sec\n"
                   "  4/10 Test   #6: Baz .....Subprocess aborted***Exception: SegFault  0.10 sec\n"
                   "  5/10 Test   #7: Slow .......***Timeout  10.00 sec\n"
                   "  6/10 Test   #8: Fine .............   Passed    0.01 sec\n")
    assert runner.Runner.failed_tests(log) == ["Foo.Bar", "Baz"]


@pytest.fixture
def probe(tmp_path):
    """A probing Runner: app.cpp's earlier mutants were killed by A.b once and C.d twice."""
    r = runner.Runner(tmp_path, False, 3.0)
    r.probe = True
    r.tests = {"A.b": (["e2e"], "cli_tests"), "C.d": (["unit"], "core_tests"), "campaign_self_test": (["py-selftest"], None),
               "other": (["py-selftest"], None)}
    r.learn(dict(file="core/cli/app.cpp"), ["A.b", "C.d", "C.d"])
    return r


def test_probe_picks_the_killers_of_the_file_and_its_folder_first(probe):
    """The most prolific first, of the labels asked; a script's test named after it."""
    got = (probe.probe_tests(dict(file="core/cli/model_cmds.cpp"), ["unit", "e2e"]),
           probe.probe_tests(dict(file="core/cli/app.cpp"), ["e2e"]), probe.probe_tests(dict(file="core/neffbar/x.cpp"), ["unit"]),
           probe.probe_tests(dict(file="scripts/campaign.py", python=True), ["py-selftest"]))
    assert got == (["C.d", "A.b"], ["A.b"], [], ["campaign_self_test"])


@pytest.mark.parametrize("probe_fails", [False, True], ids=["passing", "failing"])
def test_probe_kills_alone_or_hands_on_to_the_groups(probe, tmp_path, probe_fails):
    """A probe that fails kills without the groups; one that passes goes on to them (no
    survivor they would kill)."""
    rel = "scripts/campaign.py"
    (tmp_path / "tree" / "scripts").mkdir(parents=True)
    (tmp_path / "tree" / rel).write_text((ROOT / rel).read_text())
    m = next(x for x in catalogue.catalogue(ROOT, [rel], python=True) if x["op"] != "del")
    ran = []

    def fake_run(cmd, timeout=None, log=None):
        Path(log or os.devnull).write_text("Test #1: campaign_self_test ...***Failed 1 sec\n" if probe_fails else "")
        return 8 if probe_fails else 0
    probe.run = fake_run
    probe.group = lambda *_a, **_k: ran.append("group") or 1
    result = probe.mutant(m, ["py-selftest"], False)
    want = ([], ["campaign_self_test"]) if probe_fails else (["group"], None)
    assert result["status"] == "killed" and (ran, result.get("killed_tests")) == want, (ran, result)


# --------------------------------------------------------- --since's selection --
needs_ninja = pytest.mark.skipif(not shutil.which("ninja"), reason="needs ninja (the planted build's edges)")


@pytest.fixture
def selection(tmp_path):
    r = runner.Runner(tmp_path, False, 3.0)
    r.select = True
    plant_selection(r)
    return r


@needs_ninja
def test_selection_of_a_cpp_mutant(selection):
    """The tests whose command names what ninja builds from its file (a library, the
    program linking it, a test binary that depends on that program, `--cli=PATH`) and the
    tests that run no built file; not a test binary built from other objects; every test
    for a file ninja knows nothing of; never mutate_self_test."""
    got = {f: sorted(selection.selected_tests(dict(file=f), ["unit", "e2e", "props"]))
           for f in ("core/cli/x.cpp", "core/neffbar/y.cpp", "core/cli/x.h", "core/neffbar/unbuilt.cpp")}
    assert got == {"core/cli/x.cpp": ["T.app", "script_e2e", "syntax"], "core/neffbar/y.cpp": ["T.other", "syntax"],
                   "core/cli/x.h": ["T.app", "T.other", "script_e2e", "syntax"],
                   "core/neffbar/unbuilt.cpp": ["T.app", "T.other", "script_e2e", "syntax"]}


@needs_ninja
def test_selection_of_a_python_mutant(selection):
    """The self-tests whose files name the script (through a module, lib/'s modules, a
    folder of pytest tests, one pytest file named with its node, a package of lib/) and
    scripts_self_test; a
    README naming every script does not count."""
    got = {f: sorted(selection.selected_tests(dict(file=f, python=True), settings.PY_GROUPS))
           for f in ("scripts/lib_io.py", "scripts/tool", "scripts/other", "scripts/other_lib.py",
                     "scripts/lib/shared.py", "scripts/lib/deep.py", "scripts/lonely", "scripts/lib/pkg/mod.py",
                     "scripts/lib/pkg/deeper.py")}
    assert got == {"scripts/lib/shared.py": ["scripts_self_test", "tool_self_test"],  # from lib import NAME
                   "scripts/lib/deep.py": ["pytest", "scripts_self_test"],  # from lib.NAME import, through other_lib.py
                   "scripts/lib_io.py": ["scripts_self_test", "tool_self_test"],
                   "scripts/tool": ["scripts_self_test", "tool_self_test"],
                   "scripts/other": ["other_self_test", "scripts_self_test"],
                   "scripts/other_lib.py": ["pytest", "scripts_self_test"],  # through the folder of pytest tests
                   "scripts/lonely": ["one_file", "pytest", "scripts_self_test"],  # one file of it
                   "scripts/lib/pkg/mod.py": ["one_file", "pytest", "scripts_self_test"],  # from lib.PKG import NAME
                   "scripts/lib/pkg/deeper.py": ["one_file", "pytest", "scripts_self_test"]}  # from lib.PKG.NAME import


@needs_ninja
def test_python_mutants_alone_build_the_programs_their_tests_run(selection):
    """bin/app, through script_e2e's --cli=; not what a test names outside the build."""
    (selection.tree / "core" / "cli").mkdir(parents=True)
    (selection.tree / "core" / "cli" / "x.cpp").write_text("x\n")
    (selection.gcc / "bin" / "app").unlink()
    assert selection.build_programs(["script_e2e", "tool_self_test"]) == ["bin/app"]
    assert (selection.gcc / "bin" / "app").is_file()


# ------------------------------------------------------------------- the score --
@pytest.fixture
def scored(tmp_path):
    """report() of 3 killed, 2 survived, a stillborn, a timeout and an equivalent (m6)."""
    ops = ["ror", "ror", "del", "ror", "ror", "ror", "ror", "ror"]
    ms = [dict(id=f"m{i}", file="f.cpp", line=i, op=ops[i], old="a < b", new="a <= b") for i in range(8)]
    statuses = ["killed", "killed", "killed", "survived", "stillborn", "timeout", "killed", "survived"]
    results = [dict(id=f"m{i}", file="f.cpp", line=i, op=ops[i], killed_by=["unit"] if s == "killed" else [], status=s)
               for i, s in enumerate(statuses)]
    got = report.report(tmp_path, ms, results, {"m6": "why"}, ["unit"])
    return got, (tmp_path / "report.md").read_text(), json.loads((tmp_path / "score.json").read_text())


def test_score_is_killed_over_the_counted(scored):
    """Score = killed / (mutants - stillborn - equivalent); a timeout is not scored."""
    (score, killed, counted, survivors), text, _ = scored
    assert (score, killed, counted, [r["id"] for r in survivors]) == (60.0, 3, 5, ["m3", "m7"])
    assert "**Score: 60.0 %**" in text


def test_score_json_holds_the_reports_counts(scored):
    """Per operator in the same order, per file, and in all."""
    _, text, counts = scored
    assert "| del | 1 | 1 | 100 % |\n| ror | 2 | 4 | 50 % |" in text
    assert counts["per_operator"] == {"del": {"killed": 1, "counted": 1}, "ror": {"killed": 2, "counted": 4}}
    assert list(counts["per_operator"]) == ["del", "ror"]
    assert (counts["killed"], counts["counted"], counts["timeouts"]) == (3, 5, 1)
    assert counts["per_file"] == {"f.cpp": {"killed": 3, "counted": 5}}


# ------------------------------------------------------------------ the runner --
@pytest.mark.parametrize("build, group", [(False, 0), (True, 1)], ids=["does not build", "fails a group"])
def test_an_unmutated_tree_that_does_not_pass_is_exit_3(tmp_path, build, group):
    r = runner.Runner(tmp_path, False, 3.0)
    r.run = lambda *_a, **_k: 1  # nothing is built or run
    r.build, r.group = (lambda *_a, **_k: build), (lambda *_a, **_k: group)
    (tmp_path / "test-unit.log").write_text("")
    with pytest.raises(SystemExit) as e:
        r.baseline(["unit"])
    assert e.value.code == 3


def test_a_python_mutant_is_judged_on_the_work_tree_only(tmp_path):
    """Applied to the work tree, restored after; the checkout untouched."""
    r = runner.Runner(tmp_path, False, 3.0)
    r.run = lambda *_a, **_k: 1
    rel = "scripts/campaign.py"
    (tmp_path / "tree" / "scripts").mkdir(parents=True)
    original = (ROOT / rel).read_text()
    (tmp_path / "tree" / rel).write_text(original)
    m = next(x for x in catalogue.catalogue(ROOT, [rel], python=True) if x["op"] != "del")
    seen = []
    r.group = lambda *_a, **_k: seen.append((tmp_path / "tree" / rel).read_text()) or 1
    result = r.mutant(m, ["py-selftest"], False)
    assert result["status"] == "killed" and seen[0].split("\n")[m["line"] - 1] == m["new"], result
    assert (tmp_path / "tree" / rel).read_text() == original and (ROOT / rel).read_text() == original


# -------------------------------------------------------------- main's options --
BASE = ["--everything", "--files", "scripts/campaign.py", "--no-asan"]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """A run of campaign.py's mutants with --min-score over 100: (exit code, mutants run,
    programs built, the survivors, its DIR)."""
    out = tmp_path_factory.mktemp("first")
    rc, ran = run_main(BASE + ["--out", str(out), "--min-score", "100.1"])
    built = list(FakeRunner.built)
    results = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    return rc, ran, built, [r["id"] for r in results if r["status"] == "survived"], out


@pytest.fixture
def after_first(first_run, tmp_path):
    """A copy of the first run's DIR, for an option that goes on from it."""
    shutil.copy(first_run[4] / "results.jsonl", tmp_path / "results.jsonl")
    return BASE + ["--out", str(tmp_path)]


def test_min_score_above_the_score_is_exit_1(first_run):
    rc, ran, _, survived, _ = first_run
    assert rc == 1 and len(ran) >= 2 and survived, (rc, ran)


def test_a_python_only_run_builds_what_its_tests_run(first_run):
    """The CLI doc_figures runs, and nothing else."""
    assert first_run[2] == [["doc_figures"]]


def test_min_score_reached_is_exit_0(after_first):
    assert run_main(after_first + ["--continue", "--min-score", "0"])[0] == 0


def test_continue_runs_only_the_mutants_without_a_result(after_first):
    assert run_main(after_first + ["--continue"])[1] == []


def test_resume_runs_all_but_the_killed_again(after_first, first_run):
    assert sorted(run_main(after_first + ["--resume"])[1]) == sorted(first_run[3])


def test_ids_runs_those_mutants(first_run, tmp_path):
    survived = first_run[3]
    assert sorted(run_main(BASE + ["--out", str(tmp_path), "--ids", *survived[:2]])[1]) == sorted(survived[:2])


def test_ids_naming_no_mutant_is_a_usage_error(first_run, tmp_path):
    assert run_main(BASE + ["--out", str(tmp_path), "--ids", first_run[3][0], "0000000000"]) == (2, [])


def test_since_sample_runs_n_of_the_added_lines_mutants(tmp_path, monkeypatch):
    """The report says it is a sample."""
    added = catalogue.catalogue(ROOT, ["scripts/campaign.py"], python=True)
    monkeypatch.setattr(mutate_cli, "since_mutants", lambda root, rev, commits=None: (list(added), None))
    rc, ran = run_main(["--since", "REV", "--sample", "3", "--out", str(tmp_path), "--no-asan"])
    text = (tmp_path / "report.md").read_text()
    assert rc == 0 and len(ran) == 3 and len(set(ran)) == 3, (rc, ran)
    assert "SAMPLED: 3 drawn" in text and "not run yet" not in text, text.splitlines()[2:3]


@pytest.mark.parametrize("argv, want", [
    ([], False),                                   # the catalogue: every group on every mutant
    (["--sample", "8"], True),                     # the campaign's sample: switched, the tests that see it
    (["--sample", "8", "--all-tests"], False),
    (["--sample", "8", "--all-groups"], False),
    (["--since", "HEAD~1"], True),
    (["--since", "HEAD~1", "--all-tests"], False),
])
def test_which_runs_select_tests_and_switch(argv, want, monkeypatch):
    """A sampled run does not rebuild the tree for each mutant (issue 57): it selects."""
    monkeypatch.setattr(sys, "argv", ["mutate", *argv])
    assert mutate_cli.selects_tests(mutate_cli.parse_args(HELP)[1]) is want


def test_mutants_run_with_dev_read_only():
    """A mutant's build and tests run with /dev read-only (scripts/lib/readonly-dev): as
    root, a mutant of the CLI's output once renamed a temporary over /dev/full.  The
    devices still work: /dev/full refuses, /dev/null takes."""
    probe = Path("/dev/neffbar-mutant-probe")
    t = trees.Trees.__new__(trees.Trees)
    try:
        code = t.run(["sh", "-c", f"touch {probe}"])
        assert not probe.exists(), "a mutant created a file in /dev"
        if os.geteuid() == 0:
            assert code != 0
    finally:
        if probe.exists():
            probe.unlink()
    assert t.run(["sh", "-c", "printf x > /dev/full"]) != 0
    assert t.run(["sh", "-c", "printf x > /dev/null"]) == 0
