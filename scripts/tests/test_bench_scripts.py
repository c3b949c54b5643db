"""The benchmark scripts' tests (pytest; ctest scripts_pytest, and
bench_report_renders_in_chromium for the report drawn in headless Chromium, pytest's
--screenshot).  Fake runs only (fakes.py); no benchmark binary is built.  Each
check prints one line, ok or FAIL, and a test fails naming every check of it that
failed (conftest.py's `check`).

- the Mann-Whitney p-value against the published Mann & Whitney table, two published
  worked examples, and an independent formula of the tie-corrected variance (its exact
  branch against brute force: scripts/tests/test_bench_ratios.py);
- every branch of the gate (bench-compare): time within/over the threshold with and
  without significance, fewer than 2 repetitions a side, counts just under / at / just
  over the threshold, a missing benchmark, floor or count, no floor rule, an empty run,
  the median of an even number of repetitions and the run's median aggregate, a
  filtered run, a new benchmark; each option from the command line;
- change points on seeded noisy series land on the step's own commit; counts at exactly
  the change threshold;
- files written whole (history.jsonl, report, exports, --into); bad input to the
  benchmark scripts: scripts/tests/test_bench_inputs.py;
- bench-count end to end on a fake valgrind (exit 1 on a failed count); bench-history's
  command line (defaults, a bad REV, a failed build, no records), its records (median,
  IQR) and summary; bench_ratios.py's MET/MISS; bench-track's series; bench_pipeline_test.py
  and bench_build.py on a suite that fails;
- the report (and with --screenshot, its rendering in headless Chromium)."""
import io
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys

from lib import bench_history as bh
from lib import bench_ratios as br
from lib import bench_report, cli, strict_io
from lib.headless_chromium import png_pixels, screenshot

from fakes import (FLOOR, BENCH, OTHER, brute_force_p, normal_p_reference, with_u, fake_run,
                         spread, gate, series_records, baseline_repo, script, fake_record,
                         with_median, with_memory, FAKE_VALGRIND, history_main, SCRIPTS)


def test_mann_whitney(check):
    # The exact branch against brute_force_p, and the p-value's symmetry and rank
    # invariance, are Hypothesis properties: scripts/tests/test_bench_ratios.py.
    # Published: Mann & Whitney (1947), "On a test of whether one of two random variables
    # is stochastically larger than the other", Ann. Math. Statist. 18(1):50-60, Table I,
    # P(U <= u) for small n (no ties); the two-sided p-value is twice it.
    table = [(3, 3, 0, 0.050), (3, 3, 1, 0.100), (3, 3, 2, 0.200), (4, 4, 0, 0.014), (4, 4, 1, 0.029),
             (4, 4, 2, 0.057), (4, 4, 3, 0.100), (5, 5, 2, 0.016), (5, 5, 3, 0.028), (5, 5, 4, 0.048),
             (5, 5, 5, 0.075), (3, 5, 1, 0.036), (4, 6, 3, 0.033)]
    bad = [(n1, n2, u, want, br.mann_whitney_p(*with_u(n1, n2, u)) / 2) for n1, n2, u, want in table
           if round(br.mann_whitney_p(*with_u(n1, n2, u)) / 2, 3) != want]
    check(not bad, "Mann & Whitney 1947 Table I values (P(U <= u), 3..6 a side)" + (f"; wrong: {bad}" if bad else ""))
    # Published worked example (scipy.stats.mannwhitneyu documentation, after Wikipedia's
    # diabetes-age example): males [19, 22, 16, 29, 24], females [20, 11, 17, 12]: U = 17,
    # exact two-sided p = 0.1111111111111111; method="asymptotic" p = 0.11134688653314041.
    males, females = [19, 22, 16, 29, 24], [20, 11, 17, 12]
    check(br.mann_whitney_p(males, females) == 0.1111111111111111
          and abs(br.mw_normal_p(males, females) - 0.11134688653314041) < 1e-12,
          "scipy's published example: exact 0.1111, asymptotic 0.111347")
    # Published example with ties (DolphinDB mannWhitneyUTest documentation):
    # x = 5 1 4 3 5, y = 2 4 7 -1 0 4, continuity correction: U = 11, two-sided p = 0.518023
    # (the same data without the tie correction gives 0.5228).
    x, y = [5, 1, 4, 3, 5], [2, 4, 7, -1, 0, 4]
    check(abs(br.mw_normal_p(x, y) - 0.518023) < 2e-6, f"a published tied example: {br.mw_normal_p(x, y):.6f} ~ 0.518023")
    # The tie correction, against the independent variance formula, on large tied samples.
    off = []
    for seed in range(20):
        r = random.Random(seed)
        n1, n2 = r.randint(11, 40), r.randint(11, 40)
        a = [r.randint(0, 6) for _ in range(n1)]
        b = [r.randint(1, 7) for _ in range(n2)]
        if not math.isclose(br.mw_normal_p(a, b), normal_p_reference(a, b), rel_tol=1e-9, abs_tol=1e-15):
            off.append(seed)
    check(not off, "normal approximation == the independent tie-corrected variance formula, 20 tied samples")
    # The branches: fewer than 2 a side -> None; exact up to EXACT_MAX_N values, normal above.
    a20, b20 = list(range(10)), [v + 0.5 for v in range(10)]
    a21 = a20 + [10]
    check(br.mann_whitney_p([1.0], [2.0, 3.0, 4.0]) is None and br.mann_whitney_p([1.0, 2.0, 3.0], [4.0]) is None
          and br.mann_whitney_p([1.0, 2.0], [3.0, 4.0]) == 1 / 3,
          "fewer than 2 values a side: no p-value; 2 against 2 fully apart: exact 1/3")
    check(br.mann_whitney_p(a20, b20) == br.mw_exact_p(a20, b20) != br.mw_normal_p(a20, b20)
          and br.mann_whitney_p(a21, b20) == br.mw_normal_p(a21, b20),
          f"exact up to {br.EXACT_MAX_N} values in all, the normal approximation above")


GATE_FLOOR = (spread(100.0), 1_000_000.0)


def gate_base():
    """The gate tests' baseline: the floor, BENCH and OTHER, 9 repetitions each, counted."""
    return fake_run({FLOOR: GATE_FLOOR, BENCH: (spread(400.0), 2_000_000.0), OTHER: (spread(50.0), 300_000.0)})


def gate_cur(bench_times=None, count=2_000_000.0, other=True, floor_times=None, **more):
    """A current run like gate_base's, with BENCH's times or count, the floor's times,
    OTHER dropped or benchmarks added as given."""
    spec = {FLOOR: (floor_times or GATE_FLOOR[0], GATE_FLOOR[1]), BENCH: (bench_times or spread(400.0), count)}
    if other:
        spec[OTHER] = (spread(50.0), 300_000.0)
    spec.update(more)
    return fake_run(spec)


def test_gate_time(check):
    """time/floor against the threshold, with the U test (9 against 9: exact)."""
    base, floor = gate_base(), GATE_FLOOR
    check(gate(base, base) == {}, "gate: a run against itself passes")
    check(gate(base, gate_cur(spread(480.0))) == {}, "gate: time +20 % (within 25 %), significant: passes")
    f = gate(base, gate_cur(spread(520.0)))
    check(set(f) == {BENCH} and "time/floor +30.0 %" in f[BENCH] and "U-test p" in f[BENCH],
          "gate: time +30 %, significant: fails naming it")
    # +30 % in the median, but the repetitions overlap: p >= 0.05, no regression.
    noisy_base = [100.0, 150.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0]
    noisy_cur = [110.0, 160.0, 210.0, 310.0, 520.0, 610.0, 700.0, 720.0, 790.0]
    p = br.mann_whitney_p(noisy_cur, noisy_base)
    f = gate(fake_run({FLOOR: floor, BENCH: (noisy_base, None)}), fake_run({FLOOR: floor, BENCH: (noisy_cur, None)}))
    check(p >= 0.05 and f == {}, f"gate: time +30 % not significant (p {p:.2f}): passes")
    # p exactly at ALPHA (0.05) is not "below" it: 3 against 7 repetitions, +150 % in the
    # median, ties at 2; the exact p is 6/120 (the brute force above agrees).
    at_base, at_cur = [100.0, 200.0, 200.0], [200.0, 200.0] + [500.0] * 5
    p_at = br.mann_whitney_p([t / 100 for t in at_base], [t / 100 for t in at_cur])
    f = gate(fake_run({FLOOR: ([100.0] * 3, None), BENCH: (at_base, None)}),
             fake_run({FLOOR: ([100.0] * 7, None), BENCH: (at_cur, None)}))
    check(p_at == 0.05 == brute_force_p([1, 2, 2], [2, 2, 5, 5, 5, 5, 5]) and f == {},
          f"gate: time +150 % with p exactly 0.05 (p {p_at}): passes, the U test wants p below 0.05")
    f = gate(fake_run({FLOOR: ([100.0] * 3, None), BENCH: (at_base, None)}),
             fake_run({FLOOR: ([100.0] * 7, None), BENCH: ([500.0] * 7, None)}))
    check(set(f) == {BENCH} and f"U-test p {brute_force_p([1, 2, 2], [5] * 7):.4f}" in f[BENCH],
          "gate: the same +150 % fully apart (p 1/120): fails, naming its p")
    # fewer than 2 repetitions a side: the threshold alone decides
    one_base = fake_run({FLOOR: ([100.0], None), BENCH: ([400.0], None)})
    f = gate(one_base, fake_run({FLOOR: ([100.0], None), BENCH: ([520.0], None)}))
    check(set(f) == {BENCH} and "no U test" in f[BENCH], "gate: 1 repetition a side, +30 %: fails (threshold alone)")
    check(gate(one_base, fake_run({FLOOR: ([100.0], None), BENCH: ([480.0], None)})) == {},
          "gate: 1 repetition a side, +20 %: passes")
    f = gate(base, gate_cur([520.0], count=2_000_000.0))
    check(set(f) == {BENCH}, "gate: 9 repetitions against 1, +30 %: fails (no U test possible)")
    f = gate(base, gate_cur(floor_times=spread(300.0)))
    check(FLOOR not in f, "gate: a floor is its own floor: its time is not gated (its count is)")


def test_gate_counts(check):
    """Instruction counts at the threshold (2 %; exactly 2 % is not "more than"), and
    --no-time (bench.yml against a baseline recorded on another machine): counts only."""
    base = gate_base()
    check(gate(base, gate_cur(count=2_039_999.0)) == {}, "gate: instructions +1.99995 %: passes")
    check(gate(base, gate_cur(count=2_040_000.0)) == {}, "gate: instructions +2 % exactly: passes")
    f = gate(base, gate_cur(count=2_040_001.0))
    check(set(f) == {BENCH} and "instructions +2.00 %" in f[BENCH], "gate: instructions +2.00005 %: fails naming it")
    check(gate(base, gate_cur(count=1_000_000.0)) == {}, "gate: fewer instructions: passes")
    f = gate(base, fake_run({FLOOR: (spread(100.0), 1_100_000.0), BENCH: (spread(400.0), 2_000_000.0),
                             OTHER: (spread(50.0), 300_000.0)}))
    check(set(f) == {FLOOR}, "gate: a floor's instruction count is gated")
    check(gate(base, gate_cur(spread(520.0)), times=False) == {}, "gate: --no-time: time +30 %, significant, passes")
    f = gate(base, gate_cur(spread(520.0), count=2_040_001.0), times=False)
    check(set(f) == {BENCH} and "instructions" in f[BENCH] and "time" not in f[BENCH],
          "gate: --no-time still gates the counts, and names only them")


def test_gate_fails_closed(check):
    """What the gate cannot compare fails it: a benchmark, floor or count missing, an
    empty run, a benchmark no floor rule covers; --no-count and --filter relax it."""
    base = gate_base()
    f = gate(base, gate_cur(other=False))
    check(set(f) == {OTHER} and "missing" in f[OTHER], "gate: a benchmark missing from the current run fails, named")
    f = gate(base, fake_run({}))
    check("(the current run)" in f and "measured nothing" in f["(the current run)"], "gate: an empty run fails")
    f = gate(base, fake_run({FLOOR: GATE_FLOOR}))
    check(set(f) == {BENCH, OTHER},
          "gate: a run holding one benchmark fails, naming each one it lacks")
    f = gate(base, gate_cur(**{"BM_Unfloored": (spread(10.0), 1000.0)}))
    check(set(f) == {"BM_Unfloored"} and "no floor" in f["BM_Unfloored"], "gate: a benchmark no floor rule covers fails")
    f = gate(fake_run({BENCH: (spread(400.0), None)}), fake_run({BENCH: (spread(400.0), None)}))
    check(set(f) == {BENCH} and "floor" in f[BENCH], "gate: a benchmark whose floor is in neither run fails")
    f = gate(base, gate_cur(count=None))
    check(set(f) == {BENCH} and "no instruction count" in f[BENCH], "gate: a count the baseline has, missing: fails")
    check(gate(base, gate_cur(count=None), counts=False) == {}, "gate: ... unless counts are not required (--no-count)")
    check(gate(base, gate_cur(other=False), regex="Arith|Checker") == {}
          and gate(base, gate_cur(other=False), regex="-Compose") == {},
          "gate: --filter limits what the current run must hold (a leading '-' negates)")


def test_gate_dead_counters(check):
    """A counter (state.counters) that measures nothing fails the gate: 0 in every
    repetition (Google Benchmark then writes its _cv as NaN), or not finite in one."""
    base = gate_base()

    def with_counter(values):
        run = gate_cur()
        reps = [b for b in run["benchmarks"] if b["name"] == BENCH]
        for b, v in zip(reps, itertools.cycle(values)):
            b["executed"] = v
        return run
    check(gate(base, with_counter([0.0, 5.0])) == {}, "gate: a counter that is 0 in some repetitions only passes")
    f = gate(base, with_counter([0.0]))
    check(set(f) == {BENCH} and "'executed'" in f[BENCH] and "measures nothing" in f[BENCH],
          "gate: a counter 0 in every repetition fails, naming the benchmark and the counter")
    f = gate(base, with_counter([3.0, math.inf]))
    check(set(f) == {BENCH} and "not a finite number" in f[BENCH], "gate: a counter not finite in one repetition fails")
    check(gate(base, with_counter([0.0]), regex="Arith") == {}, "gate: ... unless --filter leaves its benchmark out")


def time_changes(records):
    """The commits of BENCH's time change points."""
    return [c["index"] for c in bh.changes(records, BENCH) if c["kind"] == "time"]


def test_change_points(check):
    misplaced, crowded, runs = [], 0, 0
    for reps in (3, 5):
        for size in (1.15, 1.3):
            for seed in range(10):
                rng = random.Random(f"{reps} {size} {seed}")
                n = rng.randint(10, 14)
                step = rng.randint(3, n - 3)
                records = series_records([1.0] * step + [size] * (n - step), reps, seed)
                cands = [c[0] for c in bh.time_candidates(records, BENCH)]
                found = time_changes(records)
                crowded += any(i != step and abs(i - step) <= bh.WINDOW for i in cands)
                runs += 1
                if found != [step]:
                    misplaced.append((reps, size, seed, step, found, cands))
    check(not misplaced, f"change point on the step's own commit, one only, {runs} seeded noisy series (3 and 5 reps, +15 %"
          f" and +30 %); {crowded} of them with other candidates within {bh.WINDOW} commits"
          + (f"; wrong: {misplaced[:2]}" if misplaced else ""))
    check(crowded >= runs // 2, f"... crowding is common: {crowded}/{runs} series (the test has teeth)")
    flat = [c for seed in range(10) for c in bh.changes(series_records([1.0] * 12, 5, seed), BENCH)]
    check(not flat, "no change point on flat noisy series (10 seeds)")


def test_change_points_near_a_step(check):
    """What lies next to a step does not move its change point off the step's commit."""
    # A commit just before the step, +4 % (below MIN_SHIFT) with little noise: its window
    # is fully separated too, so its p is as small as the step's; the step is the commit
    # whose own jump is the step.
    wrong = []
    for seed in range(10):
        recs = series_records([1.0] * 5 + [1.04] + [1.25] * 5, 5, seed, noise=0.01)
        cands = bh.time_candidates(recs, BENCH)
        tied = [c[0] for c in cands if c[1] == min(q for _, q, _, _ in cands)]
        found = time_changes(recs)
        if found != [6] or tied != [5, 6]:
            wrong.append((seed, found, tied))
    check(not wrong, "a +4 % commit just before a +25 % step ties the step's p: the step's own commit wins"
          + (f"; wrong: {wrong[:2]}" if wrong else ""))
    # two steps WINDOW + 1 commits apart are two change points, each on its commit
    wrong = []
    for seed in range(10):
        found = time_changes(series_records([1.0] * 4 + [1.15] * (bh.WINDOW + 1) + [1.35] * 4, 5, seed))
        if found != [4, 4 + bh.WINDOW + 1]:
            wrong.append((seed, found))
    check(not wrong, f"two steps {bh.WINDOW + 1} commits apart: both found, each on its commit"
          + (f"; wrong: {wrong[:2]}" if wrong else ""))
    # two steps WINDOW commits apart show as one change point (at the larger jump)
    wrong = []
    for seed in range(10):
        found = time_changes(series_records([1.0] * 4 + [1.15] * bh.WINDOW + [1.35] * 5, 5, seed))
        if found not in ([4], [4 + bh.WINDOW]):
            wrong.append((seed, found))
    check(not wrong, f"two steps {bh.WINDOW} commits apart: one change point, on one of the two steps"
          + (f"; wrong: {wrong[:2]}" if wrong else ""))
    # a one-commit outlier next to a step does not steal the change point
    wrong = []
    for seed in range(10):
        found = time_changes(series_records([1.0] * 5 + [1.06] + [1.0] + [1.2] * 5, 5, seed))
        if found != [7]:
            wrong.append((seed, found))
    check(not wrong, "a +6 % one-commit outlier two commits before a +20 % step: the step's commit"
          + (f"; wrong: {wrong[:2]}" if wrong else ""))


def test_change_points_counts_and_memory(check):
    """Instruction counts and memory: exact, commit to commit, a change of 1 % or more
    (memory from 0: any change); a figure that starts or stops being recorded is none."""
    base = 1_000_000.0
    for new, want, what in ((1_010_000.0, True, "+1 % exactly"), (1_009_999.0, False, "+0.9999 %"),
                            (990_000.0, True, "-1 % exactly"), (990_001.0, False, "-0.9999 %")):
        recs = series_records([1.0] * 4, 3, 7, counts=[base, base, new, new])
        found = [c["index"] for c in bh.changes(recs, BENCH) if c["kind"] == "instructions"]
        check(found == ([2] if want else []), f"instruction change point at {what}: {'found at its commit' if want else 'none'}")
    for old, new, want, what in ((1_000_000, 1_010_000, True, "+1 % exactly"), (1_000_000, 1_009_999, False, "+0.9999 %"),
                                 (1_000_000, 990_000, True, "-1 % exactly"), (0, 16, True, "0 -> 16"), (0, 0, False, "0 -> 0")):
        recs = series_records([1.0] * 4, 3, 7)
        for i, r in enumerate(recs):
            r["benchmarks"][BENCH]["max_bytes_used"] = old if i < 2 else new
            r["benchmarks"][BENCH]["allocs_per_iter"] = 5.0
        found = [(c["index"], c["kind"]) for c in bh.changes(recs, BENCH) if c["kind"] != "time"]
        check(found == ([(2, "peak bytes")] if want else []),
              f"memory change point at {what}: {'found at its commit, kind peak bytes' if want else 'none'}: {found}")
    for first, what in ((True, "a figure that starts being recorded"), (False, "a figure no longer recorded")):
        recs = series_records([1.0] * 4, 3, 7)
        for i, r in enumerate(recs):
            if (i < 2) == first:  # missing before (first) or after the middle
                r["benchmarks"][BENCH].pop("max_bytes_used", None)
            else:
                r["benchmarks"][BENCH]["max_bytes_used"] = 1_000_000
        found = [c for c in bh.changes(recs, BENCH) if c["kind"] == "peak bytes"]
        check(found == [], f"memory: {what} is no change point: {found}")


def test_atomic_writes(check, tmp):
    path = os.path.join(tmp, "atomic.txt")
    strict_io.write_atomic(path, "old\n")

    class Boom(Exception):
        pass

    class Exploding(str):
        def encode(self, *a):
            raise Boom()
    try:
        strict_io.write_atomic(path, Exploding("new"))
    except Boom:
        pass
    check(open(path).read() == "old\n" and os.listdir(tmp).count("atomic.txt") == 1
          and not [f for f in os.listdir(tmp) if f.startswith(".atomic.txt")],
          "a write that fails half way leaves the old file and no temporary")
    # What fsync makes durable is the whole text: flushed out of Python's buffer first.
    synced, real_fsync = [], strict_io.os.fsync
    strict_io.os.fsync = lambda fd: (synced.append(os.fstat(fd).st_size), real_fsync(fd))
    try:
        strict_io.write_atomic(path, "x" * 1000)
    finally:
        strict_io.os.fsync = real_fsync
    check(synced == [1000] and open(path).read() == "x" * 1000, f"write_atomic flushes before fsync: {synced} bytes on disk")
    hist = os.path.join(tmp, "h", "history.jsonl")
    for r in series_records([1.0, 1.1], 3, 2):
        bh.append(hist, r)
    text = open(hist).read()
    check(text.endswith("\n") and len(bh.load(hist)) == 2, "history.jsonl: whole lines, each a checked record")
    try:
        bh.append(hist, {"commit": "zz", "tree": "clean", "benchmarks": {}})
        refused = False
    except strict_io.BadInput:
        refused = True
    check(refused and open(hist).read() == text, "a bad record is refused and the history left as it was")


def two_records(tmp):
    """Two fake records in tmp/history.jsonl: BM_Checker three times slower and 5 % more
    instructions in the second; (their runs, the history's path, the records loaded)."""
    run_a, a = fake_record("a" * 40, 1.0, 1.0)
    run_b, b = fake_record("b" * 40, 3.0, 1.05)
    hist = os.path.join(tmp, "history.jsonl")
    bh.append(hist, a)
    bh.append(hist, b)
    return (run_a, run_b), hist, bh.load(hist)


def test_report(check, tmp, with_screenshot):
    _, _, records = two_records(tmp)
    check(len(records) == 2 and records[1]["benchmarks"][BENCH]["instructions"] == 2_100_000.0,
          "history.jsonl keeps both records with their instruction counts")
    found = bench_report.report(records, tmp)
    kinds = {(c["kind"], c["commit"]) for c in found[BENCH]}
    check(kinds == {("time", "b" * 40), ("instructions", "b" * 40)},
          "the change in BM_Checker (time and instructions) is found at the second commit")
    check(not found[OTHER] and not found[FLOOR], "no change where nothing changed")
    page = open(os.path.join(tmp, "index.html")).read()
    check(page.count("<svg") == 3 and 'class="change"' in page, "index.html: one chart a benchmark, the change marked")
    summary = open(os.path.join(tmp, "summary.md")).read()
    check("time +" in summary.split(BENCH, 1)[1].split("\n")[0] and "`bbbbbbbb`" in summary,
          "summary.md names the change and its commit")
    paths = bh.export(records, os.path.join(tmp, "gbench"))
    g = json.load(open(paths[1]))
    check(len(paths) == 2 and {"name", "real_time", "cpu_time", "time_unit", "iterations"} <= set(g["benchmarks"][0])
          and "caches" in g["context"] and br.load_run(paths[1]), "the records export as Google Benchmark JSON (and read back)")
    if with_screenshot:
        png = os.path.join(tmp, "report.png")
        screenshot(os.path.join(tmp, "index.html"), png)
        w, h, rows, bpp = png_pixels(png)
        blue = sum(1 for r in rows for x in range(0, w * bpp, bpp)
                   if abs(r[x] - 0x1f) < 40 and abs(r[x + 1] - 0x77) < 40 and abs(r[x + 2] - 0xb4) < 40)
        red = sum(1 for r in rows for x in range(0, w * bpp, bpp)
                  if abs(r[x] - 0xd6) < 40 and r[x + 1] < 80 and r[x + 2] < 80)
        orange = sum(1 for r in rows for x in range(0, w * bpp, bpp)
                     if r[x] > 200 and abs(r[x + 1] - 0x7f) < 40 and r[x + 2] < 60)
        print(f"  screenshot {w}x{h}: {blue} time-series pixels, {orange} instruction pixels, {red} change-mark pixels")
        check(blue > 300 and orange > 100 and red > 50, "headless Chromium drew the charts (series and change marks)")


def test_chart_layout(check):
    """svg_chart's geometry: the time axis and the change labels."""
    # The time axis spans the plot: its lowest label at the plot's bottom (y 180 + 4),
    # its highest at the top (y 20 + 4), every point between; far from zero (10x the floor)
    # so that a scale of the wrong span shows.
    svg = bench_report.svg_chart(series_records([10.0, 11.0, 12.0], 5, 3), BENCH, [])
    labels = [float(y) for y in re.findall(r'<text x="56" y="([-\d.]+)"', svg)]
    dots = [float(y) for y in re.findall(r'<circle cx="[-\d.]+" cy="([-\d.]+)"', svg)]
    check(labels == [184.0, 24.0] and len(dots) == 3 and all(20 <= y <= 180 for y in dots) and dots[0] > dots[1] > dots[2],
          f"chart: the time axis spans the plot (labels at y {labels}, points at {dots})")
    # The medians joined by a line through every dot; two points make a line, one does not.
    line = re.search(rf'<polyline fill="none" stroke="{bench_report.COLOR_TIME}"[^>]* points="([^"]+)"', svg)
    ys = [float(p.split(",")[1]) for p in line.group(1).split()] if line else []
    check(ys == dots, f"chart: the medians' line passes through the dots ({ys} against {dots})")
    check(len(bench_report.polyline([(0, 0), (1, 1)], "c", "2")) == 1 and not bench_report.polyline([(0, 0)], "c", "2"),
          "chart: a line through two points, none through one")
    # Change points of every kind at one commit: each kind's label on a line of its own,
    # time, instructions, peak bytes, allocations from the top (y 32, 44, 56, 68).
    kinds = ["allocations", "time", "peak bytes", "instructions"]
    svg = bench_report.svg_chart(series_records([10.0, 11.0, 12.0], 5, 3), BENCH,
                                 [{"index": 1, "commit": "x", "kind": k, "shift": 0.5, "p": None} for k in kinds])
    ys = {k: float(y) for y, k in re.findall(r'<text x="[-\d.]+" y="([-\d.]+)" font-size="11" fill="[^"]+">([a-z ]+) \+', svg)}
    check(ys == {"time": 32.0, "instructions": 44.0, "peak bytes": 56.0, "allocations": 68.0},
          f"chart: change labels at one commit, one line each kind in a fixed order: {ys}")


def test_history_replaces_and_refuses(check, tmp):
    """What the history keeps: a newer uncommitted run replaces the older one, the doctored
    record's run fails the gate, a run that measured nothing is not recorded."""
    (run_a, run_b), hist, _ = two_records(tmp)
    _, d1 = fake_record("b" * 40, 1.0, 1.0)
    d1["tree"] = "dirty"
    bh.append(hist, d1)
    bh.append(hist, dict(d1, recorded="later"))
    check(len(bh.load(hist)) == 3, "a newer uncommitted run replaces the older one")
    fails = gate(run_a, run_b)
    check(set(fails) == {BENCH} and "time/floor" in fails[BENCH] and "instructions" in fails[BENCH],
          "bench-compare catches the doctored run (x3 time, +5 % instructions), naming it")
    try:
        bh.record_from_run({"benchmarks": []}, "c" * 40, "s", "d", "r", "clean")
        empty_ok = True
    except strict_io.BadInput as e:
        empty_ok = "measured nothing" not in str(e)
    check(not empty_ok, "a benchmark run that measured nothing is not recorded")


# ----------------------------------------------------- bench-track (bench.yml's alerts) --
TRACK_NAME = "neffbar instructions per operation"
# A run's export: BM_A +3 % over 100 (PREVIOUS), BM_B as it was, BM_New new.
TRACK_CURRENT = [{"name": "BM_A (instructions)", "unit": "instructions/op", "value": 103.0},
                 {"name": "BM_B (instructions)", "unit": "instructions/op", "value": 50.0},
                 {"name": "BM_New (instructions)", "unit": "instructions/op", "value": 7.0}]


def track_series(*points):
    """A github-action-benchmark data file of (commit, {bench: value}) points."""
    return {"lastUpdate": 1, "repoUrl": "", "entries": {TRACK_NAME: [
        {"commit": {"id": c}, "date": 1, "tool": "customSmallerIsBetter",
         "benches": [{"name": k, "value": v, "unit": "instructions/op"} for k, v in vals.items()]}
        for c, vals in points]}}


def run_track(tmp, ser, cur, *args, commit="c3", cwd=None, path=None):
    """scripts/bench-track on series `ser` (None: no file) and export `cur`, as the
    workflow runs it: (exit, stdout, stderr, step summary, GITHUB_OUTPUT)."""
    paths = {}
    for what, doc in (("series", ser), ("current", cur)):
        paths[what] = os.path.join(tmp, f"{what}.json")
        if doc is None:
            if os.path.exists(paths[what]):
                os.unlink(paths[what])
        else:
            with open(paths[what], "w") as f:
                f.write(doc if isinstance(doc, str) else json.dumps(doc))
    summary, output = os.path.join(tmp, "summary.md"), os.path.join(tmp, "output")
    for f in (summary, output):
        open(f, "w").close()
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary, GITHUB_OUTPUT=output)
    if path is not None:
        env["PATH"] = path
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-track"), "--series", paths["series"], "--name", TRACK_NAME,
                        "--current", paths["current"], "--commit", commit, *args],
                       capture_output=True, text=True, env=env, cwd=cwd)
    return p.returncode, p.stdout, p.stderr, open(summary).read(), open(output).read()


PREVIOUS = track_series(("c2", {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0}))


def committed_baseline(tmp):
    """A repository whose base.json (BM_A 100 instructions, BM_B 50) is committed:
    (repo, git, base, baseline), baseline(count) rewriting BM_A's count."""
    repo = os.path.join(tmp, "repo")
    git, base, baseline = baseline_repo(repo, lambda count_a: fake_run({"BM_A": ([1.0], count_a), "BM_B": ([1.0], 50.0)}))
    baseline(100.0)
    git("add", "base.json")
    git("commit", "-q", "-m", "baseline 100")
    return repo, git, base, baseline


def tracker(tmp):
    """The names the bench-track tests use: the series maker, the runner in `tmp`, the
    export, the series' name and the previous point of commit c2."""
    return track_series, lambda *a, **kw: run_track(tmp, *a, **kw), TRACK_CURRENT, TRACK_NAME, PREVIOUS


def test_track_points(check, tmp):
    """bench-track: the first point, the previous point of another commit, the threshold
    decided exactly, an alert as an ::error and a marked summary row."""
    series, track, cur, name, prev2 = tracker(tmp)
    rc, out, err, summary, output = track(None, cur, "--threshold", "2", "--fail")
    check(rc == 0 and "first point of the series" in out and "alerts=0\nprevious=none\n" == output and "seeds it" in summary,
          f"bench-track: no series file: the first point, nothing compared, exit 0 ({rc} {err.strip()[:80]})")
    prev = series(("c1", {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0}),
                  ("c2", {"BM_A (instructions)": 101.0, "BM_B (instructions)": 50.0}),
                  ("c3", {"BM_A (instructions)": 1.0, "BM_B (instructions)": 1.0}))
    rc, out, err, summary, output = track(prev, cur, "--threshold", "2", "--fail")
    check(rc == 0 and "previous=c2" in output and "alerts=0" in output and err == "",
          f"bench-track: the previous point is the last of another commit (c2, not c3 itself); +1.98 % passes, "
          f"nothing on stderr (git's word on commits it does not know is not shown) ({rc} {output!r} {err!r})")
    prev2 = series(("c2", {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0}))
    rc, out, err, summary, output = track(prev2, cur, "--threshold", "2", "--fail")
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    check(rc == 1 and len(errors) == 1 and "BM_A (instructions)" in errors[0] and "+3.00 %" in errors[0]
          and "alerts=1" in output and "| BM_A (instructions) | 100 | 103 | 1.0300 | **ERROR** |" in summary
          and "| BM_New (instructions) | - | 7 | - | new |" in summary,
          f"bench-track --fail: +3 % over 2 % is one ::error, a marked summary row, exit 1 ({rc} {errors} {summary[-200:]!r})")
    at = [dict(cur[0], value=102.0)]
    rc, out, *_ = track(prev2, at, "--threshold", "2", "--fail")
    check(rc == 0 and "::error" not in out, "bench-track: exactly +2 % is not 'more than 2 %'")
    rc, out, *_ = track(prev2, [dict(cur[0], value=102.0000001)], "--threshold", "2", "--fail")
    check(rc == 1, "bench-track: +2.0000001 % is")


def test_track_baseline_and_history(check, tmp):
    """bench-track: an alert the committed baseline accepted; a run behind the series, one
    ahead, one after a force-push, one without git."""
    series, track, cur, name, prev2 = tracker(tmp)
    # Accepting an alert: the committed baseline re-recorded since the previous point's
    # commit, to within the threshold of the current value (git show reads it then).
    repo, git, base, baseline = committed_baseline(tmp)
    then = git("rev-parse", "HEAD")
    prev_then = series((then, {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0}))
    for count_now, want, what in ((103.0, 0, "re-recorded to the current value: accepted, a notice"),
                                  (101.5, 0, "re-recorded to within 2 % of it: accepted"),
                                  (100.0, 1, "not re-recorded: the alert stands"),
                                  (100.5, 1, "re-recorded, but the current value is over it by more than 2 %: the alert stands")):
        baseline(count_now)
        rc, out, err, summary, output = track(prev_then, cur, "--threshold", "2", "--fail", "--baseline", base)
        ok = (rc == 0 and "::notice " in out and "::error" not in out and "alerts=0" in output and "re-recorded" in summary
              if want == 0 else rc == 1 and "::error" in out and "alerts=1" in output)
        check(ok, f"bench-track --baseline: {what} ({rc} {err.strip()[:80]} {out[-120:]!r})")
    baseline(103.0)
    rc, out, *_ = track(prev2, cur, "--threshold", "2", "--fail", "--baseline", base)
    check(rc == 1 and "::error" in out, "bench-track --baseline: the previous point's commit not in the repository: nothing accepted")
    # A run behind the series: its commit is an ancestor of the last point's (an older
    # run re-run after a newer push).  Nothing compared, stale=true; a later commit, or
    # one on another line of history (a force-push), is compared as before.
    git("commit", "-q", "--allow-empty", "-m", "later")
    later = git("rev-parse", "HEAD")
    prev_later = series((later, {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0}))
    rc, out, err, summary, output = track(prev_later, cur, "--threshold", "2", "--fail", commit=then, cwd=repo)
    check(rc == 0 and "::warning " in out and "::error" not in out and "stale=true" in output and "behind the series" in summary,
          f"bench-track: a run behind the series compares nothing, stale=true, exit 0 ({rc} {err.strip()[:80]} {output!r})")
    rc, out, err, summary, output = track(series((then, {"BM_A (instructions)": 100.0})), cur, "--threshold", "2", "--fail",
                                          commit=later, cwd=repo)
    check(rc == 1 and "stale" not in output and "::error" in out,
          f"bench-track: a run ahead of the series is compared ({rc} {output!r})")
    git("checkout", "-q", "--orphan", "rewritten")
    git("commit", "-q", "--allow-empty", "-m", "force-pushed")
    rewritten = git("rev-parse", "HEAD")
    rc, out, err, summary, output = track(prev_later, cur, "--threshold", "2", "--fail", commit=rewritten, cwd=repo)
    check(rc == 1 and "stale" not in output, f"bench-track: after a force-push the run is compared, not refused ({rc} {output!r})")
    rc, out, err, summary, output = track(prev_later, cur, "--threshold", "2", "--fail", commit=then, cwd=repo,
                                          path=os.path.join(tmp, "no-git-here"))
    check(rc == 1 and "stale" not in output, f"bench-track without git: the comparison goes on ({rc} {output!r} {err.strip()[:80]})")


def test_track_warnings_and_bad_input(check, tmp):
    """bench-track: a warning without --fail; unusable files refused, one line naming each;
    entries a previous run could not have written left out."""
    series, track, cur, name, prev2 = tracker(tmp)
    rc, out, err, summary, output = track(prev2, [dict(cur[0], value=160.0)], "--threshold", "50")
    check(rc == 0 and out.count("::warning ") == 1 and "alerts=1" in output and "**WARNING**" in summary,
          f"bench-track without --fail: an alert is a ::warning, exit 0 ({rc} {out!r})")
    for what, ser, doc, expect in (("a series that is not an object", "[]", cur, "series.json: not a github-action-benchmark data file"),
                                   ("a series cut short", '{"entries": {', cur, "series.json: not JSON"),
                                   ("an export that is not a list", prev2, {"a": 1}, "current.json: expected a list"),
                                   ("a zero value", prev2, [dict(cur[0], value=0)], "current.json: [0]: expected a name and a positive"),
                                   ("a name that is not a string", prev2, [dict(cur[0], name=5)], "current.json: [0]: expected a name")):
        rc, out, err, *_ = track(ser, doc, "--threshold", "2", "--fail")
        check(rc == 2 and len(err.strip().splitlines()) == 1 and expect in err and not out,
              f"bench-track: {what}: one line naming the file, exit 2 ({rc} {err.strip()[:100]!r})")
    # The series' entries a previous run could not have written (a value that is not a
    # positive number, a name that is not a string): left out of the comparison, not read.
    odd = series(("c2", {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0}))
    odd["entries"][name][0]["benches"] += [{"name": "BM_New (instructions)", "value": "x", "unit": "instructions/op"},
                                            {"name": 7, "value": 1.0, "unit": "instructions/op"}]
    rc, out, err, summary, output = track(json.dumps(odd), cur, "--threshold", "2", "--fail")
    check(rc == 1 and "| BM_New (instructions) | - | 7 | - | new |" in summary and not err,
          f"bench-track: a series value that is not a number is left out, as if the benchmark were new ({rc} {err.strip()[-100:]!r})")


def test_track_nan_baseline(check, tmp):
    """bench-track --baseline reads a baseline as Google Benchmark writes it (NaN in an aggregate)."""
    series, track, cur, name, prev2 = tracker(tmp)
    repo, git, base, baseline = committed_baseline(tmp)
    # The baseline as committed then, read as Google Benchmark writes it (NaN in a _cv aggregate)
    with open(base, "w") as f:
        f.write(json.dumps(fake_run({"BM_A": ([1.0], 100.0), "BM_B": ([1.0], 50.0)}))[:-2]
                + ', {"name": "BM_A_cv", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "cv", '
                  '"cpu_time": NaN, "real_time": NaN, "time_unit": "ns"}]}')
    git("commit", "-q", "-am", "baseline 100 with a NaN aggregate")
    nan_then = git("rev-parse", "HEAD")
    baseline(103.0)  # re-recorded since
    git("commit", "-q", "-am", "baseline 103")
    rc, out, err, summary, output = track(series((nan_then, {"BM_A (instructions)": 100.0, "BM_B (instructions)": 50.0})), cur,
                                          "--threshold", "2", "--fail", "--baseline", base, cwd=repo,
                                          commit=git("rev-parse", "HEAD"))
    check(rc == 0 and "::notice " in out and "re-recorded" in summary,
          f"bench-track --baseline: a baseline with a NaN aggregate (as Google Benchmark writes it) is read ({rc} {out[-120:]!r})")


def test_track_usage_and_escapes(check, tmp):
    """bench-track: --baseline without --fail is usage; annotations escape what GitHub reads."""
    series, track, cur, name, prev2 = tracker(tmp)
    base = os.path.join(tmp, "base.json")
    rc, out, err, *_ = track(prev2, cur, "--threshold", "2", "--baseline", base)
    check(rc == 2 and "--baseline" in err, "bench-track: --baseline without --fail is a usage error")
    track_mod = cli.load_script("bench-track")
    cmd = track_mod.workflow_command("error", "a: b, c", "100%\nnext")
    check(cmd == "::error title=a%3A b%2C c::100%25%0Anext", f"bench-track: annotations escape % CR LF (and : , in the title): {cmd!r}")


def test_track_memory(check, tmp):
    """bench-track on the memory series: a value may be 0 (bytes, allocations/op) where a
    time or a count may not; +3 % over the previous point alerts, 0 -> 0 does not, any
    growth from 0 does; an alert on a memory figure the committed baseline re-recorded is
    accepted, as a count's is."""
    name = "neffbar peak memory per operation"
    units = {"peak bytes": "bytes", "allocations": "allocations/op"}

    def points(vals):
        return [{"name": k, "value": v, "unit": units[k.rsplit(" (", 1)[1][:-1]]} for k, v in vals.items()]

    def track(prev_commit, prev, cur, *args):
        ser, now = os.path.join(tmp, "memory-series.json"), os.path.join(tmp, "memory-current.json")
        with open(ser, "w") as f:
            json.dump({"entries": {name: [{"commit": {"id": prev_commit}, "benches": points(prev)}]}}, f)
        with open(now, "w") as f:
            json.dump(points(cur), f)
        summary = os.path.join(tmp, "memory-summary.md")
        open(summary, "w").close()
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-track"), "--series", ser, "--name", name,
                            "--current", now, "--commit", "c9", "--threshold", "2", "--fail", *args],
                           capture_output=True, text=True, env=dict(os.environ, GITHUB_STEP_SUMMARY=summary))
        return p.returncode, p.stdout, p.stderr, open(summary).read()

    prev = {"BM_F (peak bytes)": 0, "BM_F (allocations)": 0.0, "BM_A (peak bytes)": 1000, "BM_A (allocations)": 10.0}
    rc, out, err, summary = track("c1", prev, prev)
    check(rc == 0 and "| BM_F (peak bytes) | 0 | 0 | - |  |" in summary and "0 alert(s)" in out,
          f"bench-track, memory: 0 is a value (a floor allocates nothing), 0 -> 0 is no alert ({rc} {err.strip()[:100]!r} {summary[-300:]!r})")
    rc, out, err, summary = track("c1", prev, dict(prev, **{"BM_A (peak bytes)": 1030}))
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    check(rc == 1 and len(errors) == 1 and "BM_A (peak bytes): 1,000 -> 1,030 (+3.00 %25)" in errors[0]
          and "| BM_A (peak bytes) | 1,000 | 1,030 | 1.0300 | **ERROR** |" in summary,
          f"bench-track, memory: peak bytes +3 % over 2 %: one ::error, exit 1 ({rc} {errors})")
    rc, out, err, summary = track("c1", prev, dict(prev, **{"BM_F (allocations)": 1.0}))
    check(rc == 1 and "BM_F (allocations): 0 -> 1 (from 0)" in out and "| BM_F (allocations) | 0 | 1 | from 0 | **ERROR** |" in summary,
          f"bench-track, memory: any growth from 0 alerts ({rc} {out.strip()[-160:]!r})")
    git, base, baseline = baseline_repo(os.path.join(tmp, "memory-repo"), lambda peak: with_memory(
        fake_run({"BM_A": ([1.0], 50.0), "BM_F": ([1.0], 5.0)}), {"BM_A": (peak, 10.0), "BM_F": (0, 0.0)}))
    baseline(1000)
    git("add", "base.json")
    git("commit", "-q", "-m", "baseline")
    then = git("rev-parse", "HEAD")
    for peak, want, what in ((1030, 0, "re-recorded to the current value: accepted, a notice"),
                             (1000, 1, "not re-recorded: the alert stands")):
        baseline(peak)
        rc, out, err, summary = track(then, prev, dict(prev, **{"BM_A (peak bytes)": 1030}), "--baseline", base)
        ok = (rc == 0 and "::notice " in out and "::error" not in out if want == 0 else rc == 1 and "::error" in out)
        check(ok, f"bench-track --baseline, memory: {what} ({rc} {err.strip()[:80]} {out[-120:]!r})")


def test_gate_medians(check):
    """The median of an even number of repetitions is the mean of the two middle ones
    (each case below passes or fails the other way with the lower or the upper middle);
    the run's median aggregate is used when it has one."""
    floor = ([100.0] * 4, None)
    base = fake_run({FLOOR: floor, BENCH: ([400.0] * 4, None)})
    # middles 480 and 540: mean 510, +27.5 % (fails); the lower middle 480 is +20 %.
    f = gate(base, fake_run({FLOOR: floor, BENCH: ([560.0, 480.0, 450.0, 540.0], None)}))
    check(set(f) == {BENCH} and "time/floor +27.5 %" in f[BENCH],
          f"gate: 4 repetitions, middles 480 and 540: the median is 510 (+27.5 %, fails), not the lower 480: {f}")
    # middles 460 and 530: mean 495, +23.75 % (passes); the upper middle 530 is +32.5 %.
    f = gate(base, fake_run({FLOOR: floor, BENCH: ([530.0, 420.0, 560.0, 460.0], None)}))
    check(f == {}, f"gate: 4 repetitions, middles 460 and 530: the median is 495 (+23.75 %, passes), not the upper 530: {f}")
    one = fake_run({FLOOR: ([100.0], None), BENCH: ([400.0], None)})
    f = gate(one, with_median(fake_run({FLOOR: ([100.0], None), BENCH: ([400.0], None)}), BENCH, 520.0))
    check(set(f) == {BENCH} and "+30.0 %" in f[BENCH],
          f"gate: the run's median aggregate (520, +30 %) is used, not the median of its repetitions (400): {f}")


def test_gate_selection(check):
    floor = (spread(100.0), 1_000_000.0)
    base = fake_run({FLOOR: floor, BENCH: (spread(400.0), 2_000_000.0), OTHER: (spread(50.0), 300_000.0)})
    f = gate(base, fake_run({BENCH: (spread(400.0), 2_000_000.0)}), regex="Checker")
    check(set(f) == {BENCH} and "its floor BM_Arith_Floor is not in the current run" in f[BENCH],
          f"gate: a filtered run must still hold the floor of what it selects: {f}")
    f = gate(base, fake_run({FLOOR: floor}), regex="NoSuchBenchmark")
    check("(the baseline)" in f and "nothing to compare against" in f["(the baseline)"],
          f"gate: a --filter that selects nothing of the baseline fails (nothing to compare against): {f}")
    compare = cli.load_script("bench-compare")
    said = io.StringIO()
    new = "BM_Checker/9/9/9"
    cur = fake_run({FLOOR: floor, BENCH: (spread(400.0), 2_000_000.0), OTHER: (spread(50.0), 300_000.0),
                    new: (spread(4000.0), 9_000_000.0)})
    f = compare.compare(base, cur, out=said)
    check(f == [] and f"new in the current run (not in the baseline, not gated): {new}" in said.getvalue(),
          f"gate: a benchmark new in the current run (with a floor) is listed, not gated: {f}")


def test_gate_memory(check):
    """The memory gate: each figure of the baseline more than 2 % over it fails (exactly
    2 % passes, decided on the exact values; from 0, any growth), fewer passes; fails
    closed on a figure the baseline has and the run lacks (unless --no-memory); 0 in
    every repetition is a figure, not a dead counter; the median of the repetitions;
    --no-time and --no-count still gate it; a baseline without figures gates nothing."""
    spec = {FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)}
    base_mem = {FLOOR: (0, 0.0), BENCH: (2_000_000, 100.0)}

    def run(mem):
        return with_memory(fake_run(spec), mem)
    base = run(base_mem)
    check(gate(base, run(base_mem)) == {}, "gate, memory: the same figures pass (the floor's 0 in every repetition is no dead counter)")
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: (2_039_999, 100.0)})) == {}, "gate, memory: peak bytes +1.99995 %: passes")
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: (2_040_000, 100.0)})) == {}, "gate, memory: peak bytes +2 % exactly: passes")
    f = gate(base, run({FLOOR: (0, 0.0), BENCH: (2_040_001, 100.0)}))
    check(set(f) == {BENCH} and "peak bytes 2,000,000 -> 2,040,001 (+2.00 %)" in f[BENCH],
          f"gate, memory: peak bytes +2.00005 %: fails naming it: {f}")
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: (2_000_000, 102.0)})) == {}, "gate, memory: allocations +2 % exactly: passes")
    f = gate(base, run({FLOOR: (0, 0.0), BENCH: (2_000_000, 102.5)}))
    check(set(f) == {BENCH} and "allocations 100 -> 102.50 (+2.50 %)" in f[BENCH],
          f"gate, memory: allocations +2.5 %: fails naming them: {f}")
    f = gate(base, run({FLOOR: (16, 1.0), BENCH: (2_000_000, 100.0)}))
    check(set(f) == {FLOOR} and "peak bytes 0 -> 16 (from 0)" in f[FLOOR] and "allocations 0 -> 1 (from 0)" in f[FLOOR],
          f"gate, memory: a floor that starts allocating fails (any growth from 0): {f}")
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: (1_000_000, 50.0)})) == {}, "gate, memory: less memory passes")
    f = gate(base, fake_run(spec))
    check(set(f) == {FLOOR, BENCH} and "no peak bytes in the current run" in f[BENCH] and "no allocations" in f[BENCH],
          f"gate, memory: figures the baseline has, missing from the run: fails, each named: {f}")
    check(gate(base, fake_run(spec), mem=False) == {}, "gate, memory: ... unless memory is not gated (--no-memory)")
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: (3_000_000, 100.0)}), mem=False) == {},
          "gate, memory: --no-memory does not gate a growth either")
    for what, kw in (("--no-time", {"times": False}), ("--no-count", {"counts": False})):
        f = gate(base, run({FLOOR: (0, 0.0), BENCH: (2_100_000, 100.0)}), **kw)
        check(set(f) == {BENCH} and "peak bytes" in f[BENCH], f"gate, memory: {what} still gates memory: {f}")
    check(gate(fake_run(spec), run({FLOOR: (64, 2.0), BENCH: (9_000_000, 900.0)})) == {},
          "gate, memory: a baseline without memory figures gates none")
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: (2_060_000, 100.0)}), memory_threshold=5.0) == {},
          "gate, memory: memory_threshold 5: +3 % passes")
    nine = [(2_000_000, 100.0)] * 8 + [(9_000_000, 900.0)]
    check(gate(base, run({FLOOR: (0, 0.0), BENCH: nine})) == {},
          "gate, memory: the median of the repetitions (one repetition of 9 far off does not move it)")
    five = [(2_000_000, 100.0)] * 4 + [(2_100_000, 100.0)] * 5
    f = gate(base, run({FLOOR: (0, 0.0), BENCH: five}))
    check(set(f) == {BENCH} and "2,100,000" in f[BENCH], f"gate, memory: ... five of 9 are the median: {f}")


def test_compare_memory_table(check, tmp):
    """bench-compare's memory table: each benchmark of the baseline the run has, with a
    memory figure on either side; per figure both values and the change: +x.xx %, from 0
    (0 grown), +0.00% (0 kept), missing (the run lacks it), new (the baseline lacks it);
    none when no benchmark has a figure.  A run lacking one figure fails naming it."""
    spec = {FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6), OTHER: (spread(50.0), 3e5)}

    def put(name, run):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            json.dump(run, f)
        return path

    def table(out):
        lines = out.split("\n")
        at = next((i for i, x in enumerate(lines) if x.startswith("memory per operation")), None)
        if at is None:
            return []
        rows = []
        for x in lines[at + 1:]:
            if not x.strip():
                break
            rows.append(" ".join(x.split()))
        return rows
    base = put("base.json", with_memory(fake_run(spec), {FLOOR: (0, 0.0), BENCH: (1000, 10.0)}))
    cur = put("cur.json", with_memory(fake_run(spec), {FLOOR: (16, 0.0), OTHER: (64, 2.0)}))
    rc, out, _ = script("bench-compare", base, cur)
    want = [f"{FLOOR} 0 16 from 0 0 0 +0.00%", f"{BENCH} 1,000 - missing 10 - missing", f"{OTHER} - 64 new - 2 new"]
    check(rc == 1 and table(out) == want, f"bench-compare's memory table: from 0, +0.00%, missing, new: {table(out)}")
    grown = put("grown.json", with_memory(fake_run(spec), {FLOOR: (0, 0.0), BENCH: (1030, 10.0)}))
    rc, out, _ = script("bench-compare", base, grown)
    want = [f"{FLOOR} 0 0 +0.00% 0 0 +0.00%", f"{BENCH} 1,000 1,030 +3.00% 10 10 +0.00%"]
    check(rc == 1 and table(out) == want, f"bench-compare's memory table: +3.00 % and unchanged: {table(out)}")
    half = with_memory(fake_run(spec), {FLOOR: (0, 0.0), BENCH: (1000, 10.0)})
    for b in half["benchmarks"]:
        if b.get("run_name") == BENCH:
            b.pop("allocs_per_iter", None)
    rc, out, err = script("bench-compare", base, put("half.json", half))
    check(rc == 1 and not err and f"{BENCH}: no allocations in the current run" in out and "no peak bytes" not in out,
          f"bench-compare: a run with peak bytes but no allocations fails naming the allocations ({rc} {err.strip()[-80:]!r})")
    rc, out, _ = script("bench-compare", put("plain.json", fake_run(spec)), put("plain2.json", fake_run(spec)))
    check(rc == 0 and "memory per operation" not in out, "bench-compare: no memory figure on either side, no memory table")


def test_compare_cli(check, tmp):
    """bench-compare's options reach the gate from the command line, each shown to
    change the verdict the default gives."""
    def put(name, run):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            json.dump(run, f)
        return path
    base = put("base.json", fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)}))
    slow = put("slow30.json", fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(520.0), 2e6)}))
    more = put("count15.json", fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2.03e6)}))
    lacking = put("lacking.json", fake_run({FLOOR: (spread(100.0), 1e6)}))
    uncounted = put("uncounted.json", fake_run({FLOOR: (spread(100.0), None), BENCH: (spread(400.0), None)}))
    mem = {FLOOR: (0, 0.0), BENCH: (1000, 10.0)}
    base_mem = put("base-mem.json", with_memory(fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)}), mem))
    mem3 = put("mem3.json", with_memory(fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)}),
                                        {FLOOR: (0, 0.0), BENCH: (1030, 10.0)}))
    nomem = put("nomem.json", fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)}))
    for args, cur, want, what in (
            ([], slow, 1, "time +30 %, default --threshold 25: exit 1"),
            (["--threshold", "40"], slow, 0, "--threshold 40: time +30 % passes"),
            (["--threshold=40"], slow, 0, "--threshold=40 (the = form): time +30 % passes"),
            (["--no-time"], slow, 0, "--no-time: time +30 % passes"),
            ([], more, 0, "instructions +1.5 %, default --count-threshold 2: exit 0"),
            (["--count-threshold", "1"], more, 1, "--count-threshold 1: instructions +1.5 % fails"),
            ([], lacking, 1, "a run lacking BM_Checker: exit 1"),
            (["--filter", "Arith"], lacking, 0, "--filter Arith: the run need not hold BM_Checker"),
            (["--filter=-Checker"], lacking, 0, "--filter=-Checker (a negated filter, the = form)"),
            ([], uncounted, 1, "a run without counts: exit 1"),
            (["--no-count"], uncounted, 0, "--no-count: a run without counts passes"),
            ([], mem3, 1, "peak bytes +3 %, default --memory-threshold 2: exit 1"),
            (["--memory-threshold", "5"], mem3, 0, "--memory-threshold 5: peak bytes +3 % passes"),
            (["--no-memory"], mem3, 0, "--no-memory: peak bytes +3 % passes"),
            (["--no-count", "--no-time"], mem3, 1, "--no-count --no-time: memory alone is gated, +3 % fails"),
            (["--no-count", "--no-time"], base_mem, 0, "--no-count --no-time: the same memory passes"),
            (["--no-count", "--no-memory"], slow, 1, "--no-count --no-memory: time alone is gated, +30 % fails"),
            (["--no-time", "--no-memory", "--count-threshold", "1"], more, 1,
             "--no-time --no-memory: instructions alone are gated, +1.5 % over 1 fails"),
            ([], nomem, 1, "a run without the memory figures the baseline has: exit 1"),
            (["--no-memory"], nomem, 0, "--no-memory: a run without memory figures passes")):
        rc, out, err = script("bench-compare", *args, base_mem if cur in (mem3, nomem, base_mem) else base, cur)
        check(rc == want and not err, f"bench-compare {what} ({rc} {err.strip()[:80]!r})")
    rc, out, err = script("bench-compare", base, slow)
    row = next((line for line in out.splitlines() if line.startswith(BENCH)), "")
    check(re.search(r"[+-]\d+\.\d%\s+0\.\d{4}\b", row), f"bench-compare: the row shows the U test's p after the time ({row!r})")
    rc, out, err = script("bench-compare", uncounted, base)
    check(rc == 0 and not err, f"bench-compare: counts in the run but not the baseline are not gated, exit 0 ({rc} {err.strip()[-80:]!r})")
    errored = fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)})
    errored["benchmarks"][-1].update(error_occurred=True, error_message="boom")
    for args, expect, what in ((["--no-count", "--no-time", "--no-memory", base, base],
                                "--no-count, --no-memory and --no-time together would gate nothing",
                                "--no-count --no-time --no-memory"),
                               (["--filter", "(", base, base], "argument --filter: not a regular expression", "--filter '('"),
                               ([base, put("errored.json", errored)], "the benchmark reported an error: boom",
                                "an entry with error_occurred")):
        rc, out, err = script("bench-compare", *args)
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and expect in lines[0] and not out,
              f"bench-compare, {what}: exit 2, one line ({rc} {err.strip()[:100]!r})")


def test_ratios_cli(check, tmp):
    """bench_ratios.py: MET and MISS against each target and absolute figure; a bad run
    is exit 2, one line naming it."""
    spec = {"BM_Codec_Decode": ([200.0], None), "BM_Codec_Memcpy_Floor": ([100.0], None),   # 2x: MET (<= 3x)
            "BM_Log_Writer": ([50.0], None), "BM_Log_Snprintf_Baseline": ([100.0], None),   # 2x faster: MISS (5x)
            "BM_Persistent_EndToEnd/1": ([10e6], None), "BM_FullTable/iterations:1": ([200e9], None)}
    path = os.path.join(tmp, "ratios.json")
    with open(path, "w") as f:
        json.dump(fake_run(spec), f)
    rc, out, err = script("bench_ratios.py", path)
    check(rc == 0 and "  MET  decode <= 3x memcpy of 0x128 bytes: 2.00x" in out
          and "  MISS log >= 5x faster than the snprintf logger: 2.0x faster" in out
          and "  MET  64x4, 1 round, exact <= 50 ms (compose + lower + decide): 10.0 ms" in out
          and "  MISS the full table <= 2 min: 200.00 s" in out,
          f"bench_ratios.py: MET and MISS against the targets and the absolute figures: {out.strip()[-300:]!r}")
    check("memory per operation" not in out, "bench_ratios.py: no memory figures in the run, no memory table")
    with open(path, "w") as f:
        json.dump(with_memory(fake_run(spec), {"BM_Codec_Decode": (4096, 2.0), "BM_Log_Writer": (0, 0.0)}), f)
    rc, out, err = script("bench_ratios.py", path)
    table = [" ".join(x.split()) for x in out.split("memory per operation")[-1].strip().splitlines()[1:]]
    check(rc == 0 and table == ["benchmark peak bytes allocations", "BM_Codec_Decode 4,096 2", "BM_Log_Writer 0 0"],
          f"bench_ratios.py: the memory table, one row a benchmark with figures, sorted: {table}")
    bad = os.path.join(tmp, "ratios-bad.json")
    with open(bad, "w") as f:
        f.write('{"benchmarks": [{"name": "BM_A", "cpu_time": 0}]}')
    rc, out, err = script("bench_ratios.py", bad)
    check(rc == 2 and len(err.strip().splitlines()) == 1 and "ratios-bad.json: benchmarks[0] (BM_A): cpu_time" in err
          and not out, f"bench_ratios.py on a bad run: exit 2, one line naming it ({rc} {err.strip()[:100]!r})")


def test_count_cli(check, tmp):
    """bench-count end to end on a fake binary and a fake valgrind: exit 1 when a count
    fails or an --into benchmark got none; BM_FullTable is neither counted nor required;
    --into goes through write_atomic."""
    def write(name, text, mode=0o644):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path
    fake_bin = os.path.join(tmp, "bin")
    os.makedirs(fake_bin)
    write(os.path.join("bin", "valgrind"), FAKE_VALGRIND, 0o755)
    binary = write("fake_bench", "#!/bin/sh\necho BM_A BM_FullTable/iterations:1\n", 0o755)
    seen = os.path.join(tmp, "seen")

    def count(total, *args):
        if os.path.exists(seen):
            os.unlink(seen)
        env = dict(os.environ, PATH=fake_bin + os.pathsep + os.environ["PATH"], FAKE_TOTAL=total, FAKE_SEEN=seen)
        env.pop("NEFFBAR_GLIBC_TUNABLES", None)
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-count"), "--bin", binary, *args],
                           capture_output=True, text=True, env=env)
        return p.returncode, p.stdout, p.stderr, (open(seen).read().split() if os.path.exists(seen) else [])
    rc, out, err, asked = count("3000")
    check(rc == 0 and asked == ["^BM_A$"] and "BM_A" in out, f"bench-count: every count made, exit 0; BM_FullTable not counted: {rc} {asked}")
    rc, out, err, _ = count("0")
    check(rc == 1 and "bench-count: BM_A: callgrind counted ['0'] instructions" in err,
          f"bench-count: a count that failed (a zero total) is exit 1, named ({rc} {err.strip()[-100:]!r})")
    into = write("into-full.json", json.dumps(fake_run({"BM_A": ([5.0], None), "BM_FullTable/iterations:1": ([9.0], None)})))
    rc, _, err, _ = count("3000", "--into", into)
    check(rc == 0 and [b.get("instructions") for b in json.load(open(into))["benchmarks"]] == [1000.0, None],
          f"bench-count --into: BM_FullTable (timed only) needs no count: {rc} {err.strip()[-100:]!r}")
    into = write("into-more.json", json.dumps(fake_run({"BM_A": ([5.0], None), "BM_C": ([9.0], None)})))
    rc, _, err, _ = count("3000", "--into", into)
    check(rc == 1 and "no count for BM_C" in err,
          f"bench-count --into: a benchmark of the run that got no count is exit 1, named ({rc} {err.strip()[-100:]!r})")
    bc = cli.load_script("bench-count")
    path = write("into-atomic.json", json.dumps(fake_run({"BM_A": ([5.0], None)})))
    before, calls = open(path).read(), []

    def failing(p, data):
        calls.append(p)
        raise OSError(28, "No space left on device", p)
    bc.write_atomic = failing
    try:
        bc.annotate(path, {"BM_A": 100.0})
        raised = False
    except OSError:
        raised = True
    check(raised and calls == [path] and open(path).read() == before,
          "bench-count --into: the run is rewritten through write_atomic (a failed write leaves it as it was)")


def test_history_main(check, tmp):
    """bench-history's command line: the defaults, a REV that is not a commit, a failed
    build, no records."""
    calls, built = [], []
    shas = ["1" * 40, "2" * 40]

    def git(*args, **_kw):
        calls.append(args)
        if args[0] == "rev-list":
            return "\n".join(shas)
        if args[0] == "rev-parse" and "nope^{commit}" in args:
            raise subprocess.CalledProcessError(128, "git")
        return shas[0]

    def record(sha, out_dir, reps, regex, count):
        built.append((sha, reps, regex, count))
        r = series_records([1.0], 3, len(built))[0]
        r["commit"] = sha
        return r
    d = os.path.join(tmp, "h-defaults")
    rc, out, err = history_main(["--out", d], git, record)
    regex = built[0][2] if built else None
    check(rc == 0 and ("rev-list", "--reverse", "--max-count=5", "HEAD") in calls
          and [b[0] for b in built] == shas and all(b[1] == 5 and b[3] is True for b in built)
          and not br.selected("BM_FullTable/iterations:1", regex) and br.selected(BENCH, regex),
          f"bench-history defaults: the last 5 commits oldest first, 5 repetitions, all but BM_FullTable, counted: "
          f"{rc} {calls} {built} {err.strip()[-100:]!r}")
    check("change points: 0 (none)" in out and "last points" in out,
          f"bench-history prints the last points and 'change points: N': {out.strip()[-200:]!r}")
    rc, out, err = history_main(["--out", d, "nope"], git)
    check(rc == 2 and "not a commit: 'nope'" in err, f"bench-history REV that is not a commit: exit 2 naming it ({rc} {err.strip()!r})")

    def broken(*_a, **_kw):
        raise RuntimeError("the build failed")
    shas[:] = ["3" * 40]
    rc, out, err = history_main(["--out", d], git, broken)
    check(rc == 1 and "FAILED: the build failed" in err and os.path.exists(os.path.join(d, "index.html")),
          f"bench-history: a build that failed is exit 1 (the report made from the records there are): {rc} {err.strip()!r}")
    empty = os.path.join(tmp, "h-empty")
    os.makedirs(empty)
    rc, out, err = script("bench-history", "--report", "--out", empty)
    check(rc == 1 and "no records" in err, f"bench-history with no records: exit 1 ({rc} {err.strip()!r})")


def test_history_records(check, tmp):
    """A record's median and IQR (linear quantiles) of an even number of repetitions; the
    Google Benchmark export carries the median as both times and the count; the summary
    marks an uncommitted tree and counts the change points; every file of the report and
    the export is written through write_atomic."""
    run = with_memory(fake_run({FLOOR: ([4.0, 1.0, 3.0, 2.0], 1000.0), BENCH: ([10.0, 40.0, 30.0, 20.0], 5000.0)}),
                      {BENCH: (4096, 7.0)})
    rec = bh.record_from_run(run, "a" * 40, "s", "d", "r", "clean")
    check(rec["benchmarks"][BENCH]["max_bytes_used"] == 4096 and rec["benchmarks"][BENCH]["allocs_per_iter"] == 7.0
          and rec["benchmarks"][FLOOR]["max_bytes_used"] is None and bh.check_record(rec, "rec") is rec,
          f"a record carries each benchmark's memory figures (null where the run has none): {rec['benchmarks'][BENCH]}")
    b = rec["benchmarks"][FLOOR]
    check(b["median_ns"] == 2.5 and b["iqr_ns"] == 1.5 and rec["benchmarks"][BENCH]["iqr_ns"] == 15.0,
          f"a record of 1, 2, 3, 4 ns: median 2.5, IQR 1.5 (3.25 - 1.75): {b['median_ns']} {b['iqr_ns']}")
    g = {e["name"]: e for e in bh.to_gbench(rec)["benchmarks"]}
    check(g[BENCH]["real_time"] == g[BENCH]["cpu_time"] == 25.0 and g[BENCH]["instructions"] == 5000.0
          and g[FLOOR]["cpu_time"] == 2.5 and br.medians(bh.to_gbench(rec))[BENCH] == 25.0,
          f"the Google Benchmark export: the median as real_time and cpu_time, the count carried: {g[BENCH]}")
    check(g[BENCH].get("max_bytes_used") == 4096 and g[BENCH].get("allocs_per_iter") == 7.0 and "max_bytes_used" not in g[FLOOR]
          and br.memory(bh.to_gbench(rec)) == {BENCH: {"max_bytes_used": 4096.0, "allocs_per_iter": 7.0}},
          f"the Google Benchmark export carries the memory figures under Google Benchmark's keys: {g[BENCH]}")
    records = series_records([1.0] * 5 + [1.3] * 5, 5, 4)
    for i, r in enumerate(records):
        r["commit"] = f"{i:x}" * 40
    records[-1]["tree"] = "dirty"
    found = {BENCH: bh.changes(records, BENCH)}
    said = io.StringIO()
    cli.load_script("bench-history").summarize(records, found, "D", out=said)
    text = said.getvalue()
    check(f"{records[-1]['commit'][:8]}* " in text and f"{records[-2]['commit'][:8]} " in text
          and len(found[BENCH]) == 1 and "change points: 1\n" in text and f"{BENCH}: time +" in text,
          f"the summary: '*' marks an uncommitted tree, 'change points: N' and each one: {text[-300:]!r}")
    written, real = [], (bh.write_atomic, bench_report.write_atomic)

    def record_write(path, data):
        written.append(os.path.relpath(path, tmp))
        real[0](path, data)
    bh.write_atomic = bench_report.write_atomic = record_write
    try:
        bench_report.report(records[:2], tmp)
        bh.export(records[:2], os.path.join(tmp, "gbench"))
    finally:
        bh.write_atomic, bench_report.write_atomic = real
    check(sorted(written) == sorted(["index.html", "summary.md"] + [os.path.join("gbench", f) for f in os.listdir(os.path.join(tmp, "gbench"))])
          and len(written) == 4, f"the report and the export are written through write_atomic: {written}")
    grown = series_records([1.0, 1.0], 3, 5)
    for r, peak in zip(grown, (1000, 1200)):
        r["benchmarks"][BENCH].update(max_bytes_used=peak, allocs_per_iter=3.0)
    bench_report.report(grown, os.path.join(tmp, "memory-report"))
    row = [line for line in open(os.path.join(tmp, "memory-report", "summary.md")) if line.startswith(f"| {BENCH} |")]
    page = open(os.path.join(tmp, "memory-report", "index.html")).read()
    check(len(row) == 1 and "| 1,200 |" in row[0] and "peak bytes +20.0 % at `00000000`" in row[0] and "peak bytes +20.0 %" in page,
          f"the report: the last peak bytes and a memory change point, in summary.md and on the chart: {row}")


def test_track_series(check, tmp):
    """bench-track: a series file that holds other series only is the first point; an
    entry without commit or benches is refused."""
    name = "neffbar instructions per operation"
    cur = os.path.join(tmp, "cur.json")
    with open(cur, "w") as f:
        json.dump([{"name": "BM_A (instructions)", "unit": "instructions/op", "value": 103.0}], f)
    for what, doc, want in (("other series only", {"entries": {"another": [{"commit": {"id": "c1"}, "benches": []}]}}, 0),
                            ("an entry without commit", {"entries": {name: [{"benches": []}]}}, 2),
                            ("an entry without benches", {"entries": {name: [{"commit": {"id": "c1"}}]}}, 2)):
        ser = os.path.join(tmp, "series.json")
        with open(ser, "w") as f:
            json.dump(doc, f)
        output = os.path.join(tmp, "output")
        open(output, "w").close()
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-track"), "--series", ser, "--name", name,
                            "--current", cur, "--commit", "c3", "--threshold", "2", "--fail"],
                           capture_output=True, text=True, env=dict(os.environ, GITHUB_OUTPUT=output))
        if want == 0:
            check(p.returncode == 0 and "first point of the series" in p.stdout and open(output).read() == "alerts=0\nprevious=none\n",
                  f"bench-track: a series file without NAME ({what}): the first point, exit 0 ({p.returncode} {p.stderr.strip()!r})")
        else:
            check(p.returncode == 2 and f"series.json: entries['{name}'][0]: expected commit and benches" in p.stderr
                  and len(p.stderr.strip().splitlines()) == 1,
                  f"bench-track: {what}: exit 2, naming entries[...][0] ({p.returncode} {p.stderr.strip()!r})")


def test_pipeline_teeth(check, tmp):
    """bench_pipeline_test.py fails (exit 1, naming the step) on a benchmark binary whose suite
    does not run; bench_build.py suite passes the suite's exit code through."""
    fake = os.path.join(tmp, "failing_bench")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nexit 3\n")
    os.chmod(fake, 0o755)
    rc, out, err = script("bench_pipeline_test.py", "--bin", fake)
    check(rc == 1 and "FAIL the suite ran (exit 3)" in out,
          f"bench_pipeline_test.py: a suite that does not run is exit 1, named ({rc} {out.strip()[-120:]!r})")
    rc, out, err = script("bench_build.py", "suite", fake, "9", ".", os.path.join(tmp, "suite.json"))
    check(rc == 3, f"bench_build.py suite: the suite's exit code (3): {rc} {err.strip()[-100:]!r}")
