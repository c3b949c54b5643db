"""Ratios of a Google Benchmark JSON run against the floors measured in the same run,
the targets, and the Mann-Whitney U test.  Shared by scripts/bench (through the command
scripts/bench_ratios.py), bench-compare and bench-history."""
import math
import os
import re
import statistics
import sys
from collections import Counter
from fractions import Fraction

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: lib's parent
from lib.strict_io import BadInput, brief, cut, is_nonnegative, is_positive, read_json  # noqa: E402

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
    ("BM_Random_", "", "BM_Persistent_Floor"),
    ("BM_Cli_", "", "BM_Persistent_Floor"),
]
# Too long to run under valgrind (minutes): timed only.  (BM_Random_Schedule/1000 is
# counted: 1.9 G instructions a schedule, about a minute of CPU under callgrind.)
NOT_COUNTED = ["BM_FullTable"]

# The memory figures Google Benchmark writes into each repetition of a benchmark when a
# MemoryManager is registered (bench/memory_manager.h; json_reporter.cc): JSON key ->
# (what it is, Bencher measure, github-action-benchmark unit).  The bytes an operation
# needed at its peak and its allocations, counted the same way on every machine for the
# same binary: gated as tightly as instruction counts (bench-compare --memory-threshold)
# and exported to both trackers.  0 is a figure (the floors allocate nothing).
MEMORY = {
    "max_bytes_used": ("peak bytes", "peak-bytes", "bytes"),
    "allocs_per_iter": ("allocations", "allocations", "allocations/op"),
}


def selected(name, regex):
    """Whether Google Benchmark's --benchmark_filter=regex runs `name`."""
    if not regex:
        return True
    if regex.startswith("-"):
        return not re.search(regex[1:], name)
    return bool(re.search(regex, name))


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
    ("64x4 x 1000 rounds through the CLI (check, its report to a sink) <= 5 s", "BM_Cli_Check/1000", 5e9),
    ("the full table <= 2 min", "BM_FullTable/iterations:1", 120e9),
]


UNIT_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def check_run(run, where):
    """`run` (parsed JSON) if it is a usable Google Benchmark run, else BadInput naming
    `where` and the entry: a "benchmarks" list of objects with a name; every repetition
    and every median with a known time_unit and a positive, finite cpu_time; no entry
    that reported an error; "instructions", where present, positive and finite; the
    memory figures (MEMORY), where present, finite and >= 0."""
    if not isinstance(run, dict) or not isinstance(run.get("benchmarks"), list):
        raise BadInput(where, 'not a Google Benchmark run: no "benchmarks" list')
    for i, b in enumerate(run["benchmarks"]):
        at = f"benchmarks[{i}]"
        if not isinstance(b, dict):
            raise BadInput(where, f"{at}: not an object")
        name = b.get("run_name", b.get("name"))
        if not isinstance(name, str) or not name:
            raise BadInput(where, f"{at}: no name")
        at += f" ({cut(name)})"
        if b.get("error_occurred"):
            raise BadInput(where, f"{at}: the benchmark reported an error: {b.get('error_message', '?')}")
        kind = b.get("run_type", "iteration")
        if kind not in ("iteration", "aggregate"):
            raise BadInput(where, f"{at}: run_type: expected iteration or aggregate, got {brief(kind)}")
        if kind == "iteration" or b.get("aggregate_name") == "median":
            if b.get("time_unit", "ns") not in UNIT_NS:
                raise BadInput(where, f"{at}: time_unit: expected one of {', '.join(UNIT_NS)}, got {brief(b.get('time_unit'))}")
            if not is_positive(b.get("cpu_time")):
                raise BadInput(where, f"{at}: cpu_time: expected a positive finite number, got {brief(b.get('cpu_time'))}")
        if b.get("instructions") is not None and not is_positive(b["instructions"]):
            raise BadInput(where, f"{at}: instructions: expected a positive finite number, got {brief(b['instructions'])}")
        for key in MEMORY:
            if key in b and not is_nonnegative(b[key]):
                raise BadInput(where, f"{at}: {key}: expected a finite number >= 0, got {brief(b[key])}")
    return run


def load_run(run):
    """A checked Google Benchmark run from a path (or an already parsed dict)."""
    if isinstance(run, str):
        return check_run(read_json(run, gbench=True), run)
    return check_run(run, "run")


def entries(run):
    """(name, entry, cpu time in ns) of each entry of a Google Benchmark JSON run (a
    path or the parsed dict; checked)."""
    for b in load_run(run)["benchmarks"]:
        yield b.get("run_name", b["name"]), b, b.get("cpu_time", 0) * UNIT_NS[b.get("time_unit", "ns")]


def repetitions(run):
    """name -> [cpu_time ns of each repetition] (plain iteration entries)."""
    reps = {}
    for name, b, t in entries(run):
        if b.get("run_type", "iteration") == "iteration":
            reps.setdefault(name, []).append(t)
    return reps


def medians(run):
    """name -> median cpu_time (ns): the run's "median" aggregate, else the median of the
    repetitions (BigO/RMS and the other aggregates are skipped)."""
    out = {name: statistics.median(xs) for name, xs in repetitions(run).items()}
    out.update({name: t for name, b, t in entries(run) if b.get("aggregate_name") == "median"})
    return out


def grew_by_more_than(base, cur, pct):
    """cur > base * (1 + pct/100), decided exactly (fractions of the binary floats), so
    a change of exactly pct is not "more than" whatever the rounding would say."""
    return Fraction(cur) * 100 > Fraction(base) * (100 + Fraction(pct))


def changed_by_at_least(base, cur, pct):
    """|cur - base| >= base * pct/100, decided exactly."""
    return abs(Fraction(cur) - Fraction(base)) * 100 >= Fraction(base) * Fraction(pct)


# ------------------------------------------------------------------ Mann-Whitney U --
EXACT_MAX_N = 20  # up to this many values in all, the p-value is exact (permutations)


def midranks(values):
    """1-based ranks of `values` in their order, ties given the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda k: values[k])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mw_exact_p(a, b):
    """Two-sided exact p-value of the rank sum of `a`: the share of all C(n, n1) ways to
    split the (mid)ranks into groups of n1 and n2 whose rank sum lies at least as far
    from its mean as the observed one.  With ties this is the conditional permutation
    test.  Counted by dynamic programming over doubled ranks (integers: exact)."""
    n1, n = len(a), len(a) + len(b)
    doubled = [round(2 * r) for r in midranks(list(a) + list(b))]
    top = sum(sorted(doubled)[-n1:])
    ways = [[0] * (top + 1) for _ in range(n1 + 1)]  # ways[k][s]: k ranks summing to s
    ways[0][0] = 1
    for seen, d in enumerate(doubled):
        for k in range(min(n1, seen + 1), 0, -1):
            row, prev = ways[k], ways[k - 1]
            for s in range(top - d, -1, -1):
                if prev[s]:
                    row[s + d] += prev[s]
    mean2 = n1 * (n + 1)  # twice the mean rank sum
    dev = abs(sum(doubled[:n1]) - mean2)
    extreme = sum(c for s, c in enumerate(ways[n1]) if abs(s - mean2) >= dev)
    return extreme / math.comb(n, n1)


def mw_normal_p(a, b):
    """Two-sided p-value from the normal approximation of U, with the tie correction of
    the variance and the 0.5 continuity correction (scipy's "asymptotic" method)."""
    n1, n2 = len(a), len(b)
    n = n1 + n2
    ranks = midranks(list(a) + list(b))
    u = sum(ranks[:n1]) - n1 * (n1 + 1) / 2
    ties = sum(t ** 3 - t for t in Counter(list(a) + list(b)).values())
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / sigma
    return math.erfc(max(z, 0) / math.sqrt(2))


def mann_whitney_p(a, b):
    """Two-sided Mann-Whitney U p-value of samples `a` and `b`; None with fewer than 2
    values on a side.  Exact (mw_exact_p) up to EXACT_MAX_N values in all, where the
    normal approximation is poor (3 against 3 fully apart: exact 0.1, approximation
    0.081), the approximation with tie correction (mw_normal_p) above."""
    if len(a) < 2 or len(b) < 2:
        return None
    if len(a) + len(b) <= EXACT_MAX_N:
        return mw_exact_p(a, b)
    return mw_normal_p(a, b)


def normalized(times):
    """name -> time / floor time, for the benchmarks whose floor ran too."""
    out = {}
    for n, t in times.items():
        f = floor_of(n)
        if f in times:
            out[n] = t / times[f]
    return out


def instructions(run):
    """name -> instructions per operation (scripts/bench-count adds them to a run)."""
    return {name: float(b["instructions"]) for name, b, _ in entries(run) if b.get("instructions") is not None}


def memory(run):
    """name -> {MEMORY key: the median over the repetitions that carry it}, for the
    benchmarks whose repetitions carry the memory figures (aggregates carry none).  The
    figures are deterministic, so the repetitions agree and the median is their value
    (ctest bench_pipeline checks that they agree)."""
    seen = {}
    for name, b, _ in entries(run):
        if b.get("run_type", "iteration") == "iteration":
            for key in MEMORY:
                if key in b:
                    seen.setdefault(name, {}).setdefault(key, []).append(float(b[key]))
    return {name: {key: statistics.median(xs) for key, xs in figures.items()} for name, figures in seen.items()}


def shown_figure(v):
    """A count or a byte figure as a table shows it: whole numbers with thousands
    separators, a fraction with two decimals, None as '-'."""
    if v is None:
        return "-"
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}"


def series_name(bench, what):
    """The name of a benchmark's figure in a tracker's series ("BM_X (instructions)",
    "BM_X (peak bytes)"): bench-export writes it, bench-track reads it."""
    return f"{bench} ({what})"


# The units of the series whose values may be 0 (the memory figures: a floor allocates
# nothing); a time or an instruction count of 0 is a broken measurement.
ZERO_OK_UNITS = frozenset(unit for _, _, unit in MEMORY.values())


def tracked_figures(run):
    """{series name: value} of every figure but time that the trackers keep of a run
    (instructions and the memory figures), named as bench-export's gab series name them."""
    out = {series_name(n, "instructions"): v for n, v in instructions(run).items()}
    for name, figures in memory(run).items():
        for key, v in figures.items():
            out[series_name(name, MEMORY[key][0])] = v
    return out


# The keys Google Benchmark writes into a repetition itself (json_reporter.cc), and the
# count scripts/bench-count adds; every other key is a user counter (state.counters).
GBENCH_KEYS = frozenset({
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "label",
    "bytes_per_second", "items_per_second", "error_occurred", "error_message", "aggregate_name",
    "aggregate_unit", "big_o", "cpu_coefficient", "real_coefficient", "rms", "instructions",
    "allocs_per_iter", "max_bytes_used", "total_allocated_bytes", "net_heap_growth"})


def dead_counters(run):
    """[(benchmark, counter, why)] of every user counter that measures nothing: zero in
    every repetition, or not a finite number in one (its aggregates are then NaN)."""
    seen = {}
    for name, b, _ in entries(run):
        if b.get("run_type", "iteration") != "iteration":
            continue
        for key, v in b.items():
            if key not in GBENCH_KEYS:
                seen.setdefault((name, key), []).append(v)
    dead = []
    for (name, key), values in sorted(seen.items()):
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values):
            dead.append((name, key, f"not a finite number in every repetition ({brief(values)})"))
        elif not any(values):
            dead.append((name, key, f"0 in all {len(values)} repetitions: it measures nothing"))
    return dead
