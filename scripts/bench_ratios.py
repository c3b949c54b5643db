"""Ratios of a Google Benchmark JSON run against the floors measured in the same run,
and the targets of the performance issue.  Shared by scripts/bench and
scripts/bench-compare.  Usage: bench_ratios.py RUN.json"""
import json
import math
import sys

# Every benchmark's floor: the same run's cheapest version of the same kind of work, by
# name prefix (first match).  A benchmark that matches none is an error in
# scripts/bench-compare, so a new benchmark cannot go ungated.  Floors are their own
# floor: their time ratio is 1 by definition, so they are gated on instruction counts.
FLOOR_RULES = [
    ("BM_Search_", "_Sweep", "BM_Search_Floor_Sweep"),
    ("BM_Search_", "_Stream", "BM_Search_Floor_Stream"),
    ("BM_Codec_", "", "BM_Codec_Memcpy_Floor"),
    ("BM_Log_", "", "BM_Codec_Memcpy_Floor"),
    ("BM_Arith_Floor", "", "BM_Arith_Floor"),
    ("BM_Checker/", "", "BM_Arith_Floor"),
    ("BM_ComposeAndLower/", "", "BM_Arith_Floor"),
    ("BM_Persistent_", "", "BM_Persistent_Floor"),
    ("BM_Engine/", "", "BM_Persistent_Floor"),
    ("BM_FullTable", "", "BM_Persistent_Floor"),
]
# Too long to run under valgrind (minutes): timed only.
NOT_COUNTED = ["BM_FullTable"]


def floor_of(name):
    """The floor benchmark of `name`, or None when no rule names one."""
    for prefix, suffix, floor in FLOOR_RULES:
        if name.startswith(prefix) and name.endswith(suffix):
            return floor
    return None


# (what, numerator, denominator, maximum ratio)
TARGETS = [
    ("fast search <= 2x the load floor (sweep)", "BM_Search_Fast_Sweep", "BM_Search_Floor_Sweep", 2.0),
    ("fast search <= 2x the load floor (stream)", "BM_Search_Fast_Stream", "BM_Search_Floor_Stream", 2.0),
    ("fast search >= 5x faster than faithful (sweep)", "BM_Search_Fast_Sweep", "BM_Search_Faithful_Sweep", 0.2),
    ("fast search >= 5x faster than faithful (stream)", "BM_Search_Fast_Stream", "BM_Search_Faithful_Stream", 0.2),
    ("decode <= 3x memcpy of 0x128 bytes", "BM_Codec_Decode", "BM_Codec_Memcpy_Floor", 3.0),
    ("log >= 5x faster than the snprintf logger", "BM_Log_Writer", "BM_Log_Snprintf_Baseline", 0.2),
    ("persistent >= 100x faster than explicit (4x4, 2 rounds)", "BM_Engine/1", "BM_Engine/0", 0.01),
]
# The scale figures users wait for, in the units they wait in (the targets, on
# this machine's one core; reported, never asserted in a test).
ABSOLUTE = [
    ("64x4, 1 round, exact <= 50 ms (compose + lower + decide)", "BM_Persistent_EndToEnd/1", 50e6),
    ("64x4 x 1000 rounds, exact <= 5 s", "BM_Persistent_EndToEnd/1000", 5e9),
    ("the full table <= 2 min", "BM_FullTable/iterations:1", 120e9),
]


UNIT_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def entries(run):
    """(name, entry, cpu time in ns) of each entry of a Google Benchmark JSON run (a
    path or the parsed dict)."""
    if isinstance(run, str):
        with open(run) as f:
            run = json.load(f)
    for b in run["benchmarks"]:
        yield b.get("run_name", b["name"]), b, b.get("cpu_time", 0) * UNIT_NS[b.get("time_unit", "ns")]


def medians(path):
    """name -> median cpu_time (ns) of a run (aggregates or plain runs; BigO/RMS and
    the other aggregates are skipped)."""
    return {name: t for name, b, t in entries(path) if b.get("aggregate_name", "median") == "median"}


def repetitions(path):
    """name -> [cpu_time ns of each repetition] (plain iteration entries)."""
    reps = {}
    for name, b, t in entries(path):
        if b.get("run_type", "iteration") == "iteration":
            reps.setdefault(name, []).append(t)
    return reps


def mann_whitney_p(a, b):
    """Two-sided Mann-Whitney U p-value, normal approximation with tie correction
    (what compare.py reports, without needing scipy)."""
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return None
    allv = sorted((v, i) for i, v in enumerate(a + b))
    ranks = [0.0] * (n1 + n2)
    ties = 0.0
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[allv[k][1]] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    r1 = sum(ranks[:n1])
    u = r1 - n1 * (n1 + 1) / 2
    mu = n1 * n2 / 2
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:
        return 1.0
    z = (abs(u - mu) - 0.5) / sigma
    return math.erfc(max(z, 0) / math.sqrt(2))


def normalized(times):
    """name -> time / floor time, for the benchmarks whose floor ran too."""
    out = {}
    for n, t in times.items():
        f = floor_of(n)
        if f in times:
            out[n] = t / times[f]
    return out


def instructions(path):
    """name -> instructions per operation (scripts/bench-count adds them to a run)."""
    return {name: float(b["instructions"]) for name, b, _ in entries(path) if b.get("instructions") is not None}


def main():
    times = medians(sys.argv[1])
    print("\nratios (median cpu time, same run):")
    for what, num, den, limit in TARGETS:
        if num in times and den in times:
            r = times[num] / times[den]
            shown = f"{r:.2f}x" if limit >= 1 else f"{1 / r:.1f}x faster"
            print(f"  {'MET ' if r <= limit else 'MISS'} {what}: {shown}")
    print("absolute figures (median cpu time):")
    for what, name, limit in ABSOLUTE:
        if name in times:
            t = times[name]
            shown = f"{t / 1e6:.1f} ms" if t < 1e9 else f"{t / 1e9:.2f} s"
            print(f"  {'MET ' if t <= limit else 'MISS'} {what}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
