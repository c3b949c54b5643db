"""Ratios of a Google Benchmark JSON run against the floors measured in the same run,
and the targets of the performance issue.  Shared by scripts/bench and
scripts/bench-compare.  Usage: bench_ratios.py RUN.json"""
import json
import sys

# benchmark -> its floor (the same run's cheapest version of the same work)
FLOORS = {
    "BM_Search_Fast_Sweep": "BM_Search_Floor_Sweep",
    "BM_Search_Faithful_Sweep": "BM_Search_Floor_Sweep",
    "BM_Search_Fast_Stream": "BM_Search_Floor_Stream",
    "BM_Search_Faithful_Stream": "BM_Search_Floor_Stream",
    "BM_Codec_Decode": "BM_Codec_Memcpy_Floor",
    "BM_Codec_Encode": "BM_Codec_Memcpy_Floor",
    "BM_Log_Writer": "BM_Codec_Memcpy_Floor",
    "BM_Log_Snprintf_Baseline": "BM_Codec_Memcpy_Floor",
    "BM_Log_Reader": "BM_Codec_Memcpy_Floor",
}
# (what, numerator, denominator, maximum ratio)
TARGETS = [
    ("fast search <= 2x the load floor (sweep)", "BM_Search_Fast_Sweep", "BM_Search_Floor_Sweep", 2.0),
    ("fast search <= 2x the load floor (stream)", "BM_Search_Fast_Stream", "BM_Search_Floor_Stream", 2.0),
    ("fast search >= 5x faster than faithful (sweep)", "BM_Search_Fast_Sweep", "BM_Search_Faithful_Sweep", 0.2),
    ("fast search >= 5x faster than faithful (stream)", "BM_Search_Fast_Stream", "BM_Search_Faithful_Stream", 0.2),
    ("decode <= 3x memcpy of 0x128 bytes", "BM_Codec_Decode", "BM_Codec_Memcpy_Floor", 3.0),
    ("log >= 5x faster than the snprintf logger", "BM_Log_Writer", "BM_Log_Snprintf_Baseline", 0.2),
]


def medians(path):
    """name -> median cpu_time (ns) of a run (aggregates or plain runs)."""
    with open(path) as f:
        data = json.load(f)
    times = {}
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"])
        if b.get("aggregate_name", "median") != "median":
            continue
        unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        times[name] = b["cpu_time"] * unit
    return times


def normalized(times):
    """name -> time / floor time, for the benchmarks that have a floor."""
    return {n: times[n] / times[f] for n, f in FLOORS.items() if n in times and f in times}


def main():
    times = medians(sys.argv[1])
    print("\nratios (median cpu time, same run):")
    for what, num, den, limit in TARGETS:
        if num in times and den in times:
            r = times[num] / times[den]
            shown = f"{r:.2f}x" if limit >= 1 else f"{1 / r:.1f}x faster"
            print(f"  {'MET ' if r <= limit else 'MISS'} {what}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
