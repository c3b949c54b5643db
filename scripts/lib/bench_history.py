"""The benchmark history (scripts/bench-history): records, change points and the
Google Benchmark JSON export.  The report drawn from it: bench_report.py; the builds
that make the records: bench_build.py.

A record (one line of DIR/history.jsonl) is one benchmark run of one commit:
  {"commit", "subject", "date" (the commit's), "recorded", "tree" ("clean"/"dirty"),
   "machine": {"cpu", "cores", "kernel", "host"},
   "benchmarks": {name: {"median_ns", "iqr_ns", "reps_ns", "floor", "instructions",
                         "max_bytes_used", "allocs_per_iter"}}}
The memory figures (bench_ratios.MEMORY: an operation's peak bytes and allocations) are
null in a record of a run that has none (a commit from before they were measured).
"""
import json
import math
import os
import platform
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: lib's parent
from lib.bench_ratios import (MEMORY, changed_by_at_least, check_run, floor_of, instructions, load_run,  # noqa: E402
                              mann_whitney_p, memory, repetitions)
from lib.strict_io import (BadInput, brief, cut, is_nonnegative, is_positive, parse_json, read_text,  # noqa: E402
                           write_atomic)

# Change detection over the series (see changes()).
WINDOW = 3          # commits pooled on each side of a candidate change
ALPHA = 0.01        # Mann-Whitney two-sided p below which a time shift is real
MIN_SHIFT = 0.05    # and the shift of the median time/floor at least this
COUNT_SHIFT_PCT = 1  # instruction counts and memory are exact: a change of 1 % or more is a change


# ----------------------------------------------------------------------- records --
def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "host": platform.node()}


def quantile(xs, q):
    xs = sorted(xs)
    if not xs:
        return 0.0
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def record_from_run(run, commit, subject, date, recorded, tree, where="the benchmark run"):
    """A history record from a Google Benchmark JSON run (dict) with repetitions;
    BadInput (naming `where`) when the run is not usable or measured nothing."""
    run = load_run(run) if isinstance(run, str) else check_run(run, where)
    reps, counts, mem = repetitions(run), instructions(run), memory(run)
    if not reps:
        raise BadInput(where, "no benchmarks: the run measured nothing")
    benchmarks = {}
    for name, xs in reps.items():
        benchmarks[name] = {"median_ns": statistics.median(xs), "iqr_ns": quantile(xs, 0.75) - quantile(xs, 0.25),
                            "reps_ns": xs, "floor": floor_of(name), "instructions": counts.get(name)}
        benchmarks[name].update({key: mem.get(name, {}).get(key) for key in MEMORY})
    return {"commit": commit, "subject": subject, "date": date, "recorded": recorded, "tree": tree,
            "machine": machine(), "benchmarks": benchmarks}


def check_record(r, where):
    """`r` if it is a usable history record, else BadInput naming `where` and the key."""
    def bad(what):
        raise BadInput(where, what)
    if not isinstance(r, dict):
        bad("not a record (a JSON object)")
    if not isinstance(r.get("commit"), str) or not re.fullmatch(r"[0-9a-f]{7,64}", r["commit"]):
        bad(f"commit: expected a commit id (hex), got {brief(r.get('commit'))}")  # it names files
    if r.get("tree") not in ("clean", "dirty"):
        bad(f"tree: expected clean or dirty, got {brief(r.get('tree'))}")
    if not isinstance(r.get("machine", {}), dict):
        bad("machine: expected an object")
    if not isinstance(r.get("benchmarks"), dict):
        bad("benchmarks: expected an object")
    for name, b in r["benchmarks"].items():
        at = f"benchmarks.{cut(name)}"
        if not isinstance(b, dict):
            bad(f"{at}: expected an object")
        reps = b.get("reps_ns")
        if not isinstance(reps, list) or not reps or not all(is_positive(x) for x in reps):
            bad(f"{at}.reps_ns: expected a list of positive finite numbers, got {brief(reps)}")
        if not is_positive(b.get("median_ns")):
            bad(f"{at}.median_ns: expected a positive finite number, got {brief(b.get('median_ns'))}")
        iqr = b.get("iqr_ns")
        if not (is_positive(iqr) or iqr == 0) or isinstance(iqr, bool):
            bad(f"{at}.iqr_ns: expected a finite number >= 0, got {brief(iqr)}")
        if b.get("floor") is not None and not isinstance(b["floor"], str):
            bad(f"{at}.floor: expected a benchmark name or null, got {brief(b['floor'])}")
        if b.get("instructions") is not None and not is_positive(b["instructions"]):
            bad(f"{at}.instructions: expected a positive finite number or null, got {brief(b['instructions'])}")
        for key in MEMORY:
            if b.get(key) is not None and not is_nonnegative(b[key]):
                bad(f"{at}.{key}: expected a finite number >= 0 or null, got {brief(b[key])}")
    return r


def load(path):
    """The records of history.jsonl, oldest first ([] when it does not exist), each
    checked.  BadInput names the file and the line: a line that is not a record, or a
    last line cut short (a crash while writing, before writes were atomic)."""
    if not os.path.exists(path):
        return []
    lines = read_text(path, empty_ok=True).split("\n")
    records = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(check_record(parse_json(line, path), path))
        except BadInput as e:
            cut = " (the last line, cut short: no newline at its end)" if n == len(lines) else ""
            raise BadInput(path, f"line {n}{cut}: {e.what}") from None
    return records


def append(path, record):
    """Appends `record`; a dirty-tree record replaces an earlier dirty one of the same
    commit.  The whole file is rewritten through a temporary and a rename, so a crash
    leaves the old history or the new one, never half a line."""
    check_record(record, "the new record")
    records = load(path)
    if record["tree"] == "dirty":
        records = [r for r in records if not (r["commit"] == record["commit"] and r["tree"] == "dirty")]
    records.append(record)
    write_atomic(path, "".join(json.dumps(r, sort_keys=True, allow_nan=False) + "\n" for r in records))


def ratios(record, name):
    """time / floor-median of each repetition of `name` in `record` (None without a floor)."""
    b = record["benchmarks"].get(name)
    f = record["benchmarks"].get(b["floor"]) if b and b.get("floor") else None
    if not b or not f or f["median_ns"] <= 0:
        return None
    return [x / f["median_ns"] for x in b["reps_ns"]]


# ----------------------------------------------------------------- change points --
def time_candidates(records, name):
    """[(index, p, shift, step)] of every commit where the windowed Mann-Whitney test
    sees a time shift (see changes()); a step shows as a run of them around it.  `step`
    is the shift from the commit before to this one alone (medians)."""
    series = [ratios(r, name) for r in records]
    cands = []
    for i in range(1, len(records)):
        before = [x for s in series[max(0, i - WINDOW):i] if s for x in s]
        after = [x for s in series[i:i + WINDOW] if s for x in s]
        if len(before) < 2 or len(after) < 2 or not series[i] or not series[i - 1]:
            continue
        p = mann_whitney_p(before, after)
        shift = statistics.median(after) / statistics.median(before) - 1
        if p is not None and p < ALPHA and abs(shift) >= MIN_SHIFT:
            cands.append((i, p, shift, statistics.median(series[i]) / statistics.median(series[i - 1]) - 1))
    return cands


def changes(records, name):
    """Change points of benchmark `name` over the series (oldest first):

    - time: a windowed Mann-Whitney test.  At each commit i, the time/floor repetitions
      of up to WINDOW commits before i are pooled against those of i and up to WINDOW-1
      after; a candidate has p < ALPHA and a median shift of at least MIN_SHIFT.  A step
      shows as a run of candidates around it: a candidate is a change point when it is
      the best of the candidates within WINDOW commits of it.  Best: the smallest p; of
      equal p (fully separated windows all get the smallest p there is), the largest
      jump from the commit before, then the earlier.  Two steps within WINDOW commits
      of each other show as one, at the better.
    - instructions, and each memory figure (kind "peak bytes", "allocations"): exact,
      commit to commit: a change of COUNT_SHIFT_PCT % or more; from 0, any change (its
      shift is infinite).

    Returns [{"index", "commit", "kind", "shift", "p"}]."""
    out = []
    cands = time_candidates(records, name)

    def rank(c):
        return c[1], -abs(c[3]), c[0]
    for c in cands:
        if all(rank(c) <= rank(d) for d in cands if abs(d[0] - c[0]) <= WINDOW):
            out.append({"index": c[0], "commit": records[c[0]]["commit"], "kind": "time", "shift": c[2], "p": c[1]})
    for i in range(1, len(records)):
        a = records[i - 1]["benchmarks"].get(name, {}).get("instructions")
        b = records[i]["benchmarks"].get(name, {}).get("instructions")
        if a and b and changed_by_at_least(a, b, COUNT_SHIFT_PCT):
            out.append({"index": i, "commit": records[i]["commit"], "kind": "instructions", "shift": b / a - 1, "p": None})
        for key, (what, _, _) in MEMORY.items():
            a = records[i - 1]["benchmarks"].get(name, {}).get(key)
            b = records[i]["benchmarks"].get(name, {}).get(key)
            if a is not None and b is not None and a != b and changed_by_at_least(a, b, COUNT_SHIFT_PCT):
                out.append({"index": i, "commit": records[i]["commit"], "kind": what,
                            "shift": b / a - 1 if a else math.inf, "p": None})
    return sorted(out, key=lambda c: (c["index"], c["kind"]))


def all_names(records):
    names = set()
    for r in records:
        names |= set(r["benchmarks"])
    return sorted(names)


# ------------------------------------------------------------------------ export --
def to_gbench(record):
    """One record as a Google Benchmark JSON run (what github-action-benchmark's
    googlecpp tool and Bencher's cpp_google adapter read): one entry per benchmark, the
    median as real_time and cpu_time in ns, instructions as a counter, the memory
    figures under Google Benchmark's own keys."""
    m = record.get("machine", {})
    entries = []
    for name, b in sorted(record["benchmarks"].items()):
        e = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": len(b["reps_ns"]),
             "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": b["median_ns"],
             "cpu_time": b["median_ns"], "time_unit": "ns", "iqr_ns": b["iqr_ns"]}
        if b.get("instructions") is not None:
            e["instructions"] = b["instructions"]
        e.update({key: b[key] for key in MEMORY if b.get(key) is not None})
        entries.append(e)
    return {"context": {"date": record.get("recorded", record.get("date", "")), "host_name": m.get("host", ""),
                        "executable": "neffbar_bench", "num_cpus": m.get("cores", 1), "mhz_per_cpu": 0,
                        "cpu_scaling_enabled": False, "caches": [], "library_build_type": "release",
                        "neffbar_commit": record["commit"]},
            "benchmarks": entries}


def export(records, out_dir):
    """out_dir/<n>-<commit12>.json for each record, oldest first; returns the paths."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for i, r in enumerate(records):
        p = os.path.join(out_dir, f"{i:04d}-{r['commit'][:12]}.json")
        write_atomic(p, json.dumps(to_gbench(r), indent=2))
        paths.append(p)
    return paths
