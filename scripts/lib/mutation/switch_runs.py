"""Runner's switched mutants (SwitchRuns): one build of every switched line, one traced
baseline, then each mutant under its switch (NEFFBAR_MUTANT=N)."""
import hashlib
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.settings import GROUPS  # noqa: E402
from lib.mutation.switches import (GUARD, SWITCH_HEADER, SWITCH_SLOTS, SWITCH_TEXT, schema_line,  # noqa: E402
                                   strip_comment, switch_forms)
from lib.mutation.trees import ctest_pattern  # noqa: E402


class SwitchRuns:
    """Runner's switched mutants (--since; see switches.py): the switched lines written into
    the trees and built, the lines a compiler refuses taken off, the traced baseline, and
    a mutant run under its switch against the tests that reached its line."""

    def schema_apply(self, mutants):
        """Writes every switchable line of these C++ mutants into the trees (one build for
        all); self.switch: mutant id -> its switch number."""
        by_file = {}
        for m in mutants:
            if not m.get("python"):
                by_file.setdefault(m["file"], []).append(m)
        self.switch, self.switch_lines, self.salvaged = {}, {}, 0
        refused, first = self.refused_forms(), 1
        for f, ms in sorted(by_file.items()):
            forms = switch_forms(self.original(f), ms, first)
            for ln, (form, line_ms, ids) in forms.items():
                first = max(first, max(ids.values()) + 1)  # a refused line keeps its numbers: none is reused
                if f"{f}\0{form}" not in refused and max(ids.values()) < SWITCH_SLOTS:
                    # not refused by a compiler before, and its switches can be traced
                    self.switch.update(ids)
                    self.switch_lines[(f, ln)] = (form, line_ms)
        self.schema_write()

    def refused_forms(self, add=()):
        """The switched lines a compiler refused (DIR/refused-switches.json), as
        "file\\0switched line"; `add` appended first."""
        path = self.out / "refused-switches.json"
        try:
            known = set(json.loads(path.read_text()))
        except (OSError, ValueError):
            known = set()
        if add:
            known |= set(add)
            path.write_text(json.dumps(sorted(known)))
        return known

    def schema_write(self):
        files = {f for f, _ in self.switch_lines}
        for tree in [self.tree] + ([self.asan_tree] if self.asan else []):
            (tree / SWITCH_HEADER).write_text(SWITCH_TEXT)
            for f in files:
                lines = self.original(f).split("\n")
                for (g, ln), (form, _) in self.switch_lines.items():
                    if g == f:
                        lines[ln - 1] = form
                # one line on top: the file's line L is the tree's line L + 1
                text = f'#include "{tree / SWITCH_HEADER}"\n' + "\n".join(lines)
                if (tree / f).read_text() != text:
                    (tree / f).write_text(text)
            for f in self.schema_files - files:  # unswitched since the last write
                (tree / f).write_text(self.original(f))
        self.schema_files = files

    def schema_culprits(self, log, build_dir, tree):
        """The switched lines a failed build's diagnostics point at (errors, notes, the
        `required from` lines of a template's instantiation)."""
        bad, text = set(), log.read_text(errors="replace")
        for p, ln in re.findall(r"([\w./+-]+\.(?:h|hpp|cpp|cc)):(\d+):", text):
            path = Path(os.path.normpath(p if os.path.isabs(p) else os.path.join(build_dir, p)))
            if path.is_relative_to(tree):
                key = (path.relative_to(tree).as_posix(), int(ln) - 1)
                if key in self.switch_lines:
                    bad.add(key)
        # a name a switched line declared, scoped by its `if`, then used further down: the
        # nearest switched line above the use that names it
        for p, ln, name in re.findall(r"([\w./+-]+\.(?:h|hpp|cpp|cc)):(\d+):\d+: error: .(\w+). was not declared", text):
            path = Path(os.path.normpath(p if os.path.isabs(p) else os.path.join(build_dir, p)))
            if path.is_relative_to(tree):
                f = path.relative_to(tree).as_posix()
                above = [k for k in self.switch_lines if k[0] == f and k[1] < int(ln) - 1 and
                         re.search(rf"\b{name}\b", self.switch_lines[k][1][0]["old"])]
                if above:
                    bad.add(max(above, key=lambda k: k[1]))
        return bad

    def schema_salvage(self, log, build_dir, tree, bad):
        """The refused lines kept switched without the mutants the errors point at: each
        error's column on a switched line falls in one mutant's text (from its test of
        the switch to the next), and that mutant is built one by one later (where a
        mutant that does not compile is stillborn).  A line whose errors fall before its
        first switch, or that has no mutant left, is not kept."""
        cols = {}
        for p, ln, col in re.findall(r"([\w./+-]+\.(?:h|hpp|cpp|cc)):(\d+):(\d+): error:", log.read_text(errors="replace")):
            path = Path(os.path.normpath(p if os.path.isabs(p) else os.path.join(build_dir, p)))
            if path.is_relative_to(tree):
                cols.setdefault((path.relative_to(tree).as_posix(), int(ln) - 1), set()).add(int(col) - 1)
        kept = set()
        for key in bad:
            form, ms = self.switch_lines[key]
            starts = sorted((form.find(GUARD(self.switch[m["id"]])), m["id"]) for m in ms)
            failing = set()
            for c in cols.get(key, ()):
                at = [mid for pos, mid in starts if 0 <= pos <= c]
                if not at:
                    failing = None  # the line's own text: no mutant to blame
                    break
                failing.add(at[-1])
            keep = [m for m in ms if failing is not None and m["id"] not in failing]
            if not failing or not keep:
                continue
            lines = (self.source / key[0]).read_text().split("\n")
            prev = next((strip_comment(x) for x in reversed(lines[:key[1] - 1]) if strip_comment(x).strip()), "")
            new = schema_line(lines[key[1] - 1], [(self.switch[m["id"]], m["new"]) for m in keep], prev)
            if new is None:
                continue
            self.switch_lines[key] = (new, keep)
            for mid in failing:
                self.switch.pop(mid, None)
            self.salvaged += len(failing)
            kept.add(key)
        if kept:
            print(f"switches: {len(kept)} lines kept switched without the {self.salvaged} mutants their errors "
                  "point at (built one by one)", flush=True)
        return kept

    def schema_build(self):
        """Builds the switched trees; a line the compilers refuse is unswitched (its
        mutants are built one by one later) until both build."""
        dirs = [(self.gcc, self.tree)] + ([(self.clang, self.asan_tree)] if self.asan else [])
        for attempt in range(8):
            failed = None
            for d, tree in dirs:
                print(f"switches: building {d.name} with {len(self.switch_lines)} switched lines", flush=True)
                log = self.out / f"switch-build-{d.name}-{attempt}.log"
                if self.run(["cmake", "--build", str(d), "-j", str(os.cpu_count() or 2), "--", "-k", "0"], log=log) != 0:
                    failed = (log, d, tree)
                    break
            if failed is None:
                return True
            bad = self.schema_culprits(*failed)
            kept = self.schema_salvage(failed[0], failed[1], failed[2], bad)
            bad -= kept
            if not bad and kept:
                self.schema_write()
                continue
            if not bad:  # the diagnostics name no switched line: no switches this run, nothing remembered
                errors = [x for x in failed[0].read_text(errors="replace").splitlines() if "error" in x][:5]
                print(f"switches: {failed[1].name} fails and names no switched line ({failed[0]}):\n  " +
                      "\n  ".join(errors), flush=True)
                bad = set(self.switch_lines)
            else:
                self.refused_forms([f"{f}\0{self.switch_lines[(f, ln)][0]}" for f, ln in bad])
            print(f"switches: {len(bad)} lines do not compile switched; they are built one by one", flush=True)
            for key in bad:
                _, ms = self.switch_lines.pop(key)
                for m in ms:
                    self.switch.pop(m["id"], None)
            self.schema_write()
        return False

    def schema_trace(self, names):
        """Runs each test once on the switched build with no mutant on (the baseline):
        self.test_seconds, and self.reach: test name -> the switch numbers it evaluated."""
        import concurrent.futures
        key = hashlib.sha256(json.dumps([self.tree_hash, sorted(names), sorted(self.switch_lines.items())]).encode()).hexdigest()
        cache = self.out / "trace.json"
        try:
            kept = json.loads(cache.read_text())
        except (OSError, ValueError):
            kept = {}
        if kept.get("key") == key:
            self.reach = {n: set(v) for n, v in kept["reach"].items()}
            self.test_seconds.update(kept["seconds"])
            print(f"switches: baseline and trace of {len(names)} tests reused from {cache.name}", flush=True)
            return
        root = self.out / "trace"
        shutil.rmtree(root, ignore_errors=True)
        t0, self.reach, failed = time.time(), {}, []

        def one(item):
            i, name = item
            d = root / str(i)
            d.mkdir(parents=True)
            log = self.out / f"trace-{i}.log"
            code = self.run(["ctest", "--test-dir", str(self.gcc), "-R", ctest_pattern([name]), "--timeout", "1800"],
                            log=log, env=dict(os.environ, NEFFBAR_MUTANT_TRACE=str(d)))
            reached = {int(x) for f in d.iterdir() for x in f.read_text().split()}
            secs = re.findall(r"Passed\s+([\d.]+) sec", log.read_text(errors="replace"))
            return name, code, reached, float(secs[0]) if secs else None, log

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            for k, (name, code, reached, secs, log) in enumerate(pool.map(one, enumerate(names)), 1):
                if code != 0 or secs is None:
                    failed.append(name)
                    shutil.copy(log, self.out / "baseline-failure.log")
                self.reach[name] = reached
                self.test_seconds[name] = secs or 0.0
                log.unlink()
                if k % 25 == 0 or k == len(names):
                    print(f"switches: baseline and trace {k}/{len(names)} tests ({time.time() - t0:.0f} s)", flush=True)
        if failed:
            print(f"baseline: the unmutated (switched) tree fails {', '.join(failed[:5])}; see {self.out}/baseline-failure.log")
            sys.exit(3)
        cache.write_text(json.dumps(dict(key=key, reach={n: sorted(v) for n, v in self.reach.items()},
                                         seconds={n: self.test_seconds[n] for n in names})))

    def schema_mutant(self, m):
        """A switched mutant: the tests that reached its line, the ones that killed its
        file's mutants first, then the quickest; then the ASan replay of the fuzz targets
        that reached it.  Reached by no test: a survivor, nothing run."""
        sid = self.switch[m["id"]]
        result = dict(id=m["id"], file=m["file"], line=m["line"], op=m["op"], killed_by=[], status="survived",
                      switched=True)
        t0 = time.time()
        reached = [n for n in self.reach if sid in self.reach[n]]
        known = self.killers.get(m["file"], {})
        result["tests"], env = sorted(reached), dict(os.environ, NEFFBAR_MUTANT=str(sid))
        # ctest -j starts a run's slowest tests first (its cost data): the likely killers,
        # then the quick tests, then the slow ones, each a run of its own
        first = sorted((n for n in reached if n in known and self.test_seconds.get(n, 0.0) <= 10.0),
                       key=lambda n: -known[n])[:6]
        rest = [n for n in reached if n not in first]
        for batch in (first, [n for n in rest if self.test_seconds.get(n, 0.0) <= 2.0],
                      [n for n in rest if self.test_seconds.get(n, 0.0) > 2.0]):
            if not batch:
                continue
            log = self.out / "test-switched.log"  # a quick test 10x its time hangs: 20 s, not a minute
            code = self.ctest_tests(batch, log, env=env, floor=20.0)
            failed = self.failed_tests(log) if code not in (0, "timeout") else []
            label = next((g for g in self.tests.get(failed[0], ([],))[0] if g in GROUPS), "unit") if failed else "unit"
            if self.judge(result, label, code):
                self.learn(m, failed)
                result["killed_tests"] = failed
                break
            if code == "timeout":  # a hang: not scored, whatever the slower tests would say
                break
        fuzz = [n for n in reached if n.startswith("fuzz_replay_")]
        if result["status"] == "survived" and self.asan and fuzz:
            code = self.ctest_tests(fuzz, self.out / "test-switched-asan.log", env=env, build_dir=self.clang, scale=5.0)
            self.judge(result, "asan", code)
        result["seconds"] = round(time.time() - t0, 1)
        return result
