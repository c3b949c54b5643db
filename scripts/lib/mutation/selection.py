"""--since's test selection: which tests can see a mutant (Selection, a part of Runner),
and the Python trace that tells which of them call the function holding its line."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.settings import HARNESS_TESTS, RUNS_EVERY_SCRIPT  # noqa: E402
from lib.mutation.python_ops import lib_packages  # noqa: E402
from lib.mutation.trees import ctest_pattern  # noqa: E402

# sitecustomize.py for DIR/py-site, on PYTHONPATH while the scripts' tests run once
# unmutated: every Python process of the test records the functions of the tree's
# scripts it enters (a module's or a class body's code counts as one) and writes them
# at exit to NEFFBAR_PY_TRACE/<pid>.json.  A profile hook (call events only) costs
# little; a process that ends by os._exit or a signal records nothing, and a test that
# recorded nothing is run on every mutant of its scripts.
PY_TRACE_SITE = """\
import atexit, json, os, sys, threading
_out, _root = os.environ.get("NEFFBAR_PY_TRACE"), os.environ.get("NEFFBAR_PY_TRACE_ROOT", "")
if _out and _root:
    _cwd, _names, _seen = os.getcwd(), {}, set()
    def _where(fn):
        if fn not in _names and fn.startswith("<"):  # <frozen ...>, <string>
            _names[fn] = None
        elif fn not in _names:
            path = os.path.realpath(os.path.join(_cwd, fn))
            _names[fn] = path[len(_root):] if path.startswith(_root) else None
        return _names[fn]
    def _hook(frame, event, arg):
        if event == "call":
            c = frame.f_code
            rel = _where(c.co_filename)
            if rel:
                _seen.add((rel, c.co_firstlineno, c.co_name))
    def _dump():
        os.makedirs(_out, exist_ok=True)
        with open(os.path.join(_out, f"{os.getpid()}.json"), "w") as f:
            json.dump(sorted(_seen), f)
    atexit.register(_dump)
    sys.setprofile(_hook)
    threading.setprofile(_hook)
"""


def py_code_at(text, line):
    """The innermost function (or module, or class body) of this Python source holding
    `line`, as (first line, name), the key PY_TRACE_SITE records; None when it does not
    compile.  A `def` line is its enclosing code's (the def runs there)."""
    import types
    try:
        top = compile(text, "<mutant>", "exec")
    except SyntaxError:
        return None
    best = None
    todo = [top]
    while todo:
        c = todo.pop()
        lines = [ln for _, _, ln in c.co_lines() if ln is not None and (c is top or ln != c.co_firstlineno)]
        if lines and min(lines) <= line <= max(lines):
            span = max(lines) - min(lines)
            if best is None or span < best[0]:
                best = (span, c.co_firstlineno, c.co_name)
        todo += [k for k in c.co_consts if isinstance(k, types.CodeType)]
    return (best[1], best[2]) if best else (top.co_firstlineno, top.co_name)


class Selection:
    """Runner's test selection (--since): the tests that can see a mutant's file, and of
    those, for a Python mutant, the ones that called the function holding its line."""

    # A C++ mutant of file F changes only what ninja builds from F: the objects whose
    # dependencies (`ninja -t deps`: the source and every header it includes) name F,
    # then everything built from those (`ninja -t query`'s outputs, every edge: a
    # library, the executables linking it, a test binary that add_dependencies() on an
    # executable it runs, as cli_tests on neffbar).  A test sees F when its command
    # names one of those files; a test whose command names no file of the build (a
    # compiler's syntax check, a script on the sources) is always taken.  A Python
    # script is seen by the py-selftest tests whose command's files under scripts/
    # name it, directly or through the files they name (a module, a self-test file),
    # and by the tests that run every script (RUNS_EVERY_SCRIPT).

    def ninja_outputs(self, node):
        if node not in self._outputs:
            got = subprocess.run(["ninja", "-C", str(self.gcc), "-t", "query", node], capture_output=True, text=True)
            outs, in_outputs = set(), False
            for raw in got.stdout.splitlines():
                if raw.startswith("  outputs:"):
                    in_outputs = True
                elif in_outputs and raw.startswith("    "):
                    outs.add(raw.strip())
                elif not raw.startswith("    "):
                    in_outputs = False
            self._outputs[node] = outs
        return self._outputs[node]

    def norm(self, path):
        return os.path.normpath(path if os.path.isabs(path) else os.path.join(self.gcc, path))

    def deps(self):
        """{source or header (absolute): objects compiled from it} from `ninja -t deps`."""
        if self._deps is None:
            self._deps, obj = {}, None
            got = subprocess.run(["ninja", "-C", str(self.gcc), "-t", "deps"], capture_output=True, text=True)
            for raw in got.stdout.splitlines():
                if raw and not raw.startswith(" ") and ": #deps" in raw:
                    obj = raw.split(": #deps")[0]
                elif raw.startswith("    ") and obj:
                    self._deps.setdefault(self.norm(raw.strip()), set()).add(obj)
        return self._deps

    def built_from(self, rel):
        """Every file of the g++ build made from the tree's file rel (absolute paths);
        None when ninja knows no object made from it."""
        objects = self.deps().get(os.path.normpath(str(self.tree / rel)), set())
        if not objects:
            return None
        seen, todo = set(), list(objects)
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            todo += [o for o in self.ninja_outputs(node) if o not in seen]
        return {self.norm(n) for n in seen}

    def command_paths(self, name):
        """The absolute paths a test's command names (`--opt=PATH` too)."""
        out = set()
        for arg in self.commands.get(name, []):
            for part in [arg] + arg.split("=")[1:]:
                if part.startswith("/"):
                    out.add(os.path.normpath(part))
        return out

    def build_programs(self, names):
        """Builds what these tests' commands name in the g++ tree (a Python self-test may
        run a built program: doc_figures draws its charts with the CLI), so a run of
        Python mutants alone, which builds nothing else, can run them.  Exit 3 when one
        does not build."""
        gcc = str(self.gcc) + "/"
        wanted = sorted({p[len(gcc):] for n in names for p in self.command_paths(n) if p.startswith(gcc)})
        targets = [t for t in wanted if subprocess.run(["ninja", "-C", str(self.gcc), "-t", "query", t],
                                                       capture_output=True).returncode == 0]  # a build output
        if targets:
            print(f"baseline: building {' '.join(targets)} for the selected tests", flush=True)
            if self.run(["ninja", "-C", str(self.gcc), *targets], log=self.out / "build.log") != 0:
                print(f"baseline: {' '.join(targets)} does not build; see {self.out}/build.log")
                sys.exit(3)
        return targets

    def py_trace(self, names):
        """Runs these tests once on the unmutated tree with PY_TRACE_SITE:
        self.py_reach.  Kept in DIR/py-trace.json, keyed by the tree's content."""
        import concurrent.futures
        key = hashlib.sha256(json.dumps([self.tree_hash, sorted(names), PY_TRACE_SITE]).encode()).hexdigest()
        cache = self.out / "py-trace.json"
        try:
            kept = json.loads(cache.read_text())
        except (OSError, ValueError):
            kept = {}
        if kept.get("key") == key:
            self.py_reach = {n: {tuple(x) for x in v} for n, v in kept["reach"].items()}
            print(f"python trace: {len(names)} tests reused from {cache.name}", flush=True)
            return
        site, root = self.out / "py-site", self.out / "py-trace"
        shutil.rmtree(root, ignore_errors=True)
        site.mkdir(parents=True, exist_ok=True)
        (site / "sitecustomize.py").write_text(PY_TRACE_SITE)
        t0 = time.time()

        def one(item):
            i, name = item
            d = root / str(i)
            env = dict(os.environ, NEFFBAR_PY_TRACE=str(d), NEFFBAR_PY_TRACE_ROOT=os.path.realpath(self.tree) + "/",
                       PYTHONPATH=os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p))
            self.run(["ctest", "--test-dir", str(self.gcc), "-R", ctest_pattern([name]), "--timeout", "1800"],
                     log=self.out / f"py-trace-{i}.log", env=env)
            (self.out / f"py-trace-{i}.log").unlink(missing_ok=True)
            return name, {tuple(x) for f in (d.iterdir() if d.is_dir() else []) for x in json.loads(f.read_text())}

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            self.py_reach = dict(pool.map(one, enumerate(names)))
        print(f"python trace: {len(names)} tests in {time.time() - t0:.0f} s, "
              f"{sum(1 for v in self.py_reach.values() if not v)} recorded nothing", flush=True)
        cache.write_text(json.dumps(dict(key=key, reach={n: sorted(v) for n, v in self.py_reach.items()})))

    def py_reaching(self, m, names):
        """Of these tests, those that called the function holding Python mutant m's line
        (or that py_trace could not see: untraced, or recorded nothing)."""
        where = (m["file"], m["line"])
        if where not in self.py_codes:
            try:
                self.py_codes[where] = py_code_at(self.original(m["file"]), m["line"])
            except OSError:
                self.py_codes[where] = None
        code = self.py_codes[where]
        if code is None:
            return list(names)
        return [n for n in names if not self.py_reach.get(n) or (m["file"], *code) in self.py_reach[n]]

    def selected_tests(self, m, labels):
        """The tests of these labels that can see mutant m's file, in ctest's order."""
        key = (m["file"], tuple(labels))
        if key in self.seen_by:
            return self.seen_by[key]
        names = [n for n in self.tests if set(self.tests[n][0]) & set(labels) and n not in HARNESS_TESTS]
        if m.get("python"):
            chosen = [n for n in names if n in RUNS_EVERY_SCRIPT or m["file"] in self.scripts_named(n)]
        else:
            made = self.built_from(m["file"])
            build = str(self.gcc) + "/"
            chosen = []
            for n in names:
                paths = self.command_paths(n)
                runs_built = any(p.startswith(build) and os.path.isfile(p) for p in paths)
                if made is None or not runs_built or paths & made:
                    chosen.append(n)
        self.seen_by[key] = chosen
        return chosen

    def scripts_named(self, name):
        """The files of the tree's scripts/ a test's command names, and those they name in
        turn (by file name, or by module name for a .py), as paths relative to the tree."""
        scripts = self.tree / "scripts"
        def code(p):  # a program or a module; not README.md or CMakeLists.txt, which name them all
            return p.is_file() and (p.suffix in (".py", ".sh", ".cjs", ".js") or
                                    (not p.suffix and p.read_bytes()[:2] == b"#!"))
        files = {p.name: p for p in scripts.iterdir() if code(p)} if scripts.is_dir() else {}
        lib = scripts / "lib"  # the scripts' package: its modules are named lib.NAME where imported
        files.update({f"lib/{p.name}": p for p in (lib.glob("*.py") if lib.is_dir() else [])})
        words = {}
        for fname in files:  # scripts/ first: a name both hold is the script's (bench_ratios.py)
            for w in (fname, fname.split("/")[-1]):
                words.setdefault(w, fname)
                if w.endswith(".py"):
                    words.setdefault(w[:-3].replace("/", "."), fname)
        for p in lib_packages(scripts):  # lib.PKG.NAME and lib/PKG/NAME.py only: never a bare name
            fname = p.relative_to(scripts).as_posix()
            files[fname] = p
            words[fname] = fname
            words[fname[:-3].replace("/", ".").removesuffix(".__init__")] = fname
        seen = set()
        todo = [Path(p).name for p in self.command_paths(name) if Path(p).parent == scripts and Path(p).name in files]
        for folder in {Path(p) for p in self.command_paths(name)} & {d for d in scripts.iterdir() if d.is_dir()}:
            for p in folder.glob("*.py"):  # a folder of tests (pytest scripts/tests): what its files name
                files[f"{folder.name}/{p.name}"] = p
                todo.append(f"{folder.name}/{p.name}")
        for p in (Path(c.split("::")[0]) for c in self.command_paths(name)):  # one test file (and its nodes)
            if p.parent.parent == scripts and p.suffix == ".py" and p.is_file():
                files[f"{p.parent.name}/{p.name}"] = p
                todo.append(f"{p.parent.name}/{p.name}")
        while todo:
            fname = todo.pop()
            if fname in seen:
                continue
            seen.add(fname)
            text = files[fname].read_text(errors="replace")
            # a path's last part (scripts/NAME, $here/NAME, SCRIPTS / "NAME"), a quoted
            # name, NAME.py, lib/NAME.py, or a module imported (lib.NAME, from lib import NAME,
            # lib.PKG.NAME, from lib.PKG import NAME)
            for w in set(re.findall(r"""(?:/|/ ["']|["'])([\w.-]+)""", text) +
                         re.findall(r"""(?:^|[/"'\s])(lib/[\w.-]+)""", text, re.M) +
                         re.findall(r"^\s*(?:from|import)\s+([\w.]+)", text, re.M) +
                         re.findall(r"^\s*import\s+[\w.]+(?:\s*,\s*([\w.]+))+", text, re.M) +
                         [f"{pkg}.{n.split()[0]}" for pkg, names in
                          re.findall(r"^\s*from\s+(lib(?:\.\w+)?)\s+import\s+([\w ,]+)", text, re.M)
                          for n in names.split(",") if n.strip()]):
                if w in words and words[w] not in seen:
                    todo.append(words[w])
        return {f"scripts/{f}" for f in seen}
