#!/usr/bin/env python3
"""ctest bench_pipeline: the real benchmark binary through every script that reads its
run, the way .github/workflows/bench.yml and ./scripts/run use them.
  python3 scripts/bench_pipeline_test.py --bin BENCH [--reps N] [--count REGEX]

1. the suite, every benchmark, with N repetitions (default 2) and their aggregates
   (bench_build.suite_command: the one command line scripts/bench and bench-history
   run; a short --benchmark_min_time, which changes no output field);
2. instruction counts (scripts/bench-count --into) of the cheap benchmarks --count
   selects (callgrind: the whole suite is minutes);
3. no counter measures nothing: a state.counters value 0 in every repetition (or not
   finite) fails, as it fails the gate;
3b. memory (bench/memory_manager.h): every repetition of every benchmark carries its
   peak bytes and allocations, the repetitions of a benchmark agree (the figure is
   deterministic), every floor allocates nothing (the harness around the operation is
   not counted), and the 64x4 end to end allocates;
4. bench-compare: the run against itself passes; against the committed baseline with
   --no-count (other build type: times may differ) it reads both and finds every
   benchmark of the baseline;
5. bench-export: BMF and the three github-action-benchmark series (time, instructions,
   memory), in the shapes the trackers document, one entry per benchmark (and figure);
6. bench-history: the run made a history record (as --here does), with the memory
   figures, appended, drawn and exported.
Exit 0 all held; 1 one did not (each named); 2 usage."""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lib import bench_history as bh  # noqa: E402
from lib import bench_ratios as br  # noqa: E402
from lib import bench_build, bench_report, cli, strict_io  # noqa: E402
from lib.checks import Checks  # noqa: E402

BASELINE = os.path.join(os.path.dirname(HERE), "bench", "baselines", "baseline.json")
DEFAULT_COUNT = r"^BM_Codec_Decode$|^BM_Persistent_Check/4/4$"


def script(name, *args):
    p = subprocess.run([sys.executable, os.path.join(HERE, name), *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# A benchmark whose operation allocates for sure: the 64x4 system composed and lowered.
ALLOCATES = "BM_Persistent_EndToEnd/1"


def check_memory(check, run, names):
    """Step 3b: the memory figures of the real binary's run."""
    seen = {}
    for name, b, _ in br.entries(run):
        if b.get("run_type", "iteration") == "iteration":
            seen.setdefault(name, []).append(tuple(b.get(key) for key in br.MEMORY))
    lacking = sorted(n for n, reps in seen.items() if any(None in r for r in reps))
    check(sorted(seen) == names and not lacking, "every repetition carries the memory figures" + (f"; not {lacking[:5]}" if lacking else ""))
    differ = sorted(n for n, reps in seen.items() if len(set(reps)) > 1)
    check(not differ, "the repetitions of each benchmark agree on its memory figures (deterministic)"
          + "".join(f"; {n}: {sorted(set(seen[n]), key=str)[:3]}" for n in differ[:3]))
    floors = sorted({f for _, _, f in br.FLOOR_RULES} & set(seen))
    busy = [f for f in floors if any(any(x for x in r) for r in seen[f])]
    check(floors and not busy, f"the floors allocate nothing, the harness around them is not counted ({floors})"
          + (f"; not {busy}" if busy else ""))
    check(all((r[0] or 0) > 0 and (r[1] or 0) > 0 for r in seen.get(ALLOCATES, [(0, 0)])),
          f"{ALLOCATES} allocates: {seen.get(ALLOCATES, [])[:1]}")


def check_compare(check, run_path):
    """Step 4: bench-compare on the run."""
    rc, out, err = script("bench-compare", run_path, run_path)
    check(rc == 0 and "no regression" in out, f"bench-compare: the run against itself (exit {rc}) {err.strip()[:200]}")
    if os.path.exists(BASELINE):
        rc, out, err = script("bench-compare", "--no-count", BASELINE, run_path)
        missing = [line for line in out.splitlines() if "missing from the current run" in line or "no floor" in line]
        check(rc in (0, 1) and not err and not missing,
              f"bench-compare --no-count against the committed baseline: read, every benchmark there (exit {rc}) "
              f"{err.strip()[:200]}{missing[:3]}")


def check_exports(check, tmp, run_path, names, counted):
    """Step 5: bench-export's formats of the run, in their trackers' shapes."""
    exports = {}
    for fmt, metric in (("bmf", "all"), ("gab", "time"), ("gab", "instructions"), ("gab", "memory")):
        out_path = os.path.join(tmp, f"{fmt}-{metric}.json")
        rc, _, err = script("bench-export", "--format", fmt, "--metric", metric, "-o", out_path, run_path)
        check(rc == 0, f"bench-export --format {fmt} --metric {metric} (exit {rc}) {err.strip()[:200]}")
        exports[fmt, metric] = json.loads(open(out_path).read()) if rc == 0 else None
    export_mod = cli.load_script("bench-export")
    bmf = exports["bmf", "all"]
    check(bmf is not None and not export_mod.bmf_shape_errors(bmf) and sorted(bmf) == names,
          "BMF: one entry per benchmark, in Bencher's shape")
    check(bmf is not None and all(measure in m for m in bmf.values() for _, measure, _ in br.MEMORY.values()),
          "BMF: every benchmark has its memory measures")
    for metric, want in (("time", names), ("instructions", sorted(counted)), ("memory", sorted(names * len(br.MEMORY)))):
        gab = exports["gab", metric]
        got = sorted(e["name"].rsplit(" (", 1)[0] for e in gab or [])
        check(gab is not None and not export_mod.gab_shape_errors(gab) and got == want,
              f"github-action-benchmark's {metric} series: one entry per benchmark"
              + {"instructions": " counted", "memory": " and figure"}.get(metric, ""))


def check_history(check, run_path, hist_dir, names):
    """Step 6: the run as a bench-history record, appended, reported and exported."""
    try:
        record = bh.record_from_run(strict_io.read_json(run_path, gbench=True), "0" * 40, "pipeline", "", "", "clean")
        bh.append(os.path.join(hist_dir, "history.jsonl"), record)
        records = bh.load(os.path.join(hist_dir, "history.jsonl"))
        bench_report.report(records, hist_dir)
        exported = bh.export(records, os.path.join(hist_dir, "gbench"))
        check(len(records) == 1 and sorted(records[0]["benchmarks"]) == names and len(exported) == 1
              and all(b[key] is not None for b in records[0]["benchmarks"].values() for key in br.MEMORY),
              "bench-history: the run recorded (with the memory figures), reported and exported")
    except strict_io.BadInput as e:
        check(False, f"bench-history refused the run: {e}")


def main(argv):
    p = cli.Parser("bench_pipeline_test.py", __doc__)
    p.add_argument("--bin", required=True)
    p.add_argument("--reps", type=cli.positive_int, default=2)
    p.add_argument("--count", default=DEFAULT_COUNT)
    a = p.parse_args(argv[1:])
    check = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        run_path = os.path.join(tmp, "bench.json")
        print(f"the suite, every benchmark, {a.reps} repetitions", flush=True)
        with open(os.path.join(tmp, "suite.txt"), "w") as log:
            rc = subprocess.run(bench_build.suite_command(a.bin, a.reps, ".", run_path, min_time=0.01),
                                stdout=log, stderr=subprocess.STDOUT).returncode
        check(rc == 0, f"the suite ran (exit {rc})")
        if rc:
            return 1
        run = strict_io.read_json(run_path, gbench=True)
        names = sorted(br.repetitions(run))
        aggregates = {b.get("aggregate_name") for b in run["benchmarks"] if b.get("run_type") == "aggregate"}
        check(len(names) >= 20 and {"mean", "median", "stddev", "cv"} <= aggregates,
              f"{len(names)} benchmarks, aggregates {sorted(a for a in aggregates if a)}")

        rc, _, err = script("bench-count", f"--bin={a.bin}", f"--filter={a.count}", "--into", run_path)
        check(rc == 0, f"bench-count --into the run (exit {rc}) {strict_io.cut(err.strip(), 200)}")
        counted = br.instructions(br.load_run(run_path))
        check(counted and all(br.selected(n, a.count) for n in counted), f"instruction counts for {sorted(counted)}")

        dead = br.dead_counters(br.load_run(run_path))
        check(not dead, "every counter measures something" + "".join(f"; {n} {c}: {why}" for n, c, why in dead))
        check_memory(check, br.load_run(run_path), names)
        check_compare(check, run_path)
        check_exports(check, tmp, run_path, names, counted)
        check_history(check, run_path, os.path.join(tmp, "history"), names)
    if check.failures:
        print(f"bench pipeline: FAILED ({len(check.failures)})")
        return 1
    print("bench pipeline: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
