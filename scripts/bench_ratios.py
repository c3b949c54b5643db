"""Ratios of a Google Benchmark JSON run against the floors measured in the same run,
and its absolute and memory figures, each against its target: MET or MISS (scripts/bench
prints them after the suite; the library: lib/bench_ratios.py).
  python3 scripts/bench_ratios.py RUN.json    the ratios, the absolute figures and the memory
                                              figures of a run
Exit 0; 2 on a bad run or usage."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.bench_ratios import ABSOLUTE, MEMORY, TARGETS, load_run, medians, memory, shown_figure  # noqa: E402
from lib.cli import Parser, run  # noqa: E402
from lib.strict_io import cut  # noqa: E402


def main(argv):
    p = Parser("bench_ratios.py", __doc__)
    p.add_argument("run", metavar="RUN.json")
    run_ = load_run(p.parse_args(argv[1:]).run)
    times = medians(run_)
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
    figures = memory(run_)
    if figures:
        print("memory per operation (the median of the repetitions, as bench-compare gates it):")
        labels = [MEMORY[key][0] for key in MEMORY]
        print(f"  {'benchmark':40} " + " ".join(f"{label:>14}" for label in labels))
        for name in sorted(figures):
            print(f"  {cut(name, 40):40} " + " ".join(f"{shown_figure(figures[name].get(key)):>14}" for key in MEMORY))
    return 0


if __name__ == "__main__":
    sys.exit(run("bench_ratios.py", main, sys.argv))
