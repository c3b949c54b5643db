"""Fakes for the scripts' tests: benchmark runs, records and repositories
(test_bench_scripts.py, test_bench_inputs.py, test_bench_ratios.py) and a campaign's
out/ (test_scripts.py, core/tests/chart_in_chromium.py); no benchmark binary is built
or run.  Also the
independent references the statistics are held against (brute force, an independent
formula of the tie-corrected normal approximation)."""
import contextlib
import io
import itertools
import json
import math
import os
import random
import subprocess
import sys
from fractions import Fraction

from lib import bench_history as bh
from lib import bench_history, cli

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/

FLOOR, BENCH, OTHER = "BM_Arith_Floor", "BM_Checker/2/4/0", "BM_ComposeAndLower/4"


# ------------------------------------------------------------------ Mann-Whitney U --
def brute_force_p(a, b):
    """The two-sided exact p-value by its definition: every one of the C(n, n1) ways to
    give n1 of the pooled values' ranks to the first sample, equally likely; p is the
    share whose rank sum is at least as far from the mean as the observed one.  Ranks
    from their definition (ties share the mean of their positions), in Fractions."""
    pooled = list(a) + list(b)
    rank = [Fraction(sum(v < x for v in pooled)) + Fraction(sum(v == x for v in pooled) + 1, 2) for x in pooled]
    n, n1 = len(pooled), len(a)
    mean = Fraction(n1 * (n + 1), 2)
    observed = abs(sum(rank[:n1]) - mean)
    splits = list(itertools.combinations(range(n), n1))
    extreme = sum(1 for c in splits if abs(sum(rank[k] for k in c) - mean) >= observed)
    return float(Fraction(extreme, len(splits)))


def normal_p_reference(a, b):
    """The normal approximation written independently of bench_ratios: the exact
    variance of a rank sum drawn without replacement from the pooled (mid)ranks,
    n1*n2/(n(n-1)) * sum (r - mean r)^2, which is the tie-corrected variance; 0.5
    continuity correction."""
    pooled = list(a) + list(b)
    rank = [sum(v < x for v in pooled) + (sum(v == x for v in pooled) + 1) / 2 for x in pooled]
    n, n1, n2 = len(pooled), len(a), len(b)
    mean_r = (n + 1) / 2
    var = n1 * n2 / (n * (n - 1)) * sum((r - mean_r) ** 2 for r in rank)
    z = (abs(sum(rank[:n1]) - n1 * mean_r) - 0.5) / math.sqrt(var)
    return math.erfc(max(z, 0) / math.sqrt(2))


def with_u(n1, n2, u):
    """Samples of sizes n1, n2 without ties whose U (pairs a > b) is u <= n2."""
    b = list(range(1, n2 + 1))
    a = [-k for k in range(n1 - 1)] + [u + 0.5]
    return a, b


# --------------------------------------------------------------------------- gate --
def fake_run(spec):
    """A Google Benchmark run: spec = {name: (cpu times of the repetitions, instructions)}."""
    out = {"context": {}, "benchmarks": []}
    for name, (times, count) in spec.items():
        for i, t in enumerate(times):
            e = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i, "iterations": 10,
                 "cpu_time": t, "real_time": t, "time_unit": "ns"}
            if count is not None:
                e["instructions"] = count
            out["benchmarks"].append(e)
    return out


def spread(center, k=9, width=0.02):
    """k distinct values evenly spread +-width around center."""
    return [center * (1 + width * (2 * i / (k - 1) - 1)) for i in range(k)] if k > 1 else [center]


def gate(base, cur, **kw):
    compare = cli.load_script("bench-compare")
    with open(os.devnull, "w") as sink:
        return dict(compare.compare(base, cur, out=sink, **kw))


# ------------------------------------------------------------------ change points --
def series_records(levels, reps, seed, counts=None, noise=0.03):
    """Records of a history: commit i has BENCH at levels[i] x the floor, `reps`
    repetitions each with +-noise uniform noise (and the floor noisy too)."""
    rng = random.Random(seed)
    records = []
    for i, level in enumerate(levels):
        spec = {FLOOR: ([100.0 * (1 + rng.uniform(-noise, noise)) for _ in range(reps)], None),
                BENCH: ([400.0 * level * (1 + rng.uniform(-noise, noise)) for _ in range(reps)],
                        counts[i] if counts else None)}
        records.append(bh.record_from_run(fake_run(spec), f"{i + 1:040x}", f"commit {i}", "2026-11-30T00:00:00+00:00",
                                          "2026-11-30T00:00:00+00:00", "clean"))
    return records


# --------------------------------------------------------------- files and input --
def git_in(repo):
    """git run in `repo` as a fixed committer, answering its stripped stdout."""
    def git(*args):
        return subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", *args],
                              capture_output=True, text=True, check=True).stdout.strip()
    return git


def baseline_repo(repo, run_of):
    """A new git repository at `repo` for a committed baseline: (git, the path of its
    base.json, record) where record(v) writes run_of(v) there."""
    os.makedirs(repo)
    base = os.path.join(repo, "base.json")

    def record(value):
        with open(base, "w") as f:
            json.dump(run_of(value), f)
    git = git_in(repo)
    git("init", "-q")
    return git, base, record


def script(name, *args, cwd=None):
    """(exit code, stdout, stderr) of scripts/<name> args."""
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, name), *args], capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


# ------------------------------------------------------------------------ report --
def fake_record(commit, checker_factor, count_factor, reps=9):
    """A record with a floor, a benchmark on it, and BM_Checker slowed by checker_factor."""
    rng = random.Random(commit)

    def noisy(base):
        return [base * (1 + rng.uniform(-0.03, 0.03)) for _ in range(reps)]
    run = fake_run({FLOOR: (noisy(100_000.0), 400_000.0),
                    BENCH: (noisy(400_000.0 * checker_factor), 2_000_000.0 * count_factor),
                    OTHER: (noisy(50_000.0), 300_000.0)})
    return run, bh.record_from_run(run, commit, "fake " + commit, "2026-11-30T00:00:00+00:00", "2026-12-01T00:00:00+00:00", "clean")


# ------------------------------------------------- the gate's medians and options --
def with_median(run, name, t):
    """`run` with a Google Benchmark median aggregate of `name` at `t` ns added."""
    run["benchmarks"].append({"name": f"{name}_median", "run_name": name, "run_type": "aggregate",
                              "aggregate_name": "median", "cpu_time": t, "real_time": t, "time_unit": "ns"})
    return run


def with_memory(run, figures):
    """`run` with the memory figures Google Benchmark writes into each repetition:
    figures = {name: (max_bytes_used, allocs_per_iter) or a list of them, one a repetition}."""
    for b in run["benchmarks"]:
        if b.get("run_type") == "iteration" and b["run_name"] in figures:
            f = figures[b["run_name"]]
            peak, allocs = f[b["repetition_index"]] if isinstance(f, list) else f
            b["max_bytes_used"], b["allocs_per_iter"] = peak, allocs
    return run


# ------------------------------------------------------------------- bench-count --
FAKE_VALGRIND = """#!/bin/sh
# A fake valgrind: records the benchmark it was asked for, writes callgrind's totals
# ($FAKE_TOTAL), and says the measured operation ran 3 times.
for a in "$@"; do
  case "$a" in
    --callgrind-out-file=*) printf 'totals: %s\\n' "$FAKE_TOTAL" > "${a#*=}" ;;
    --benchmark_filter=*) echo "${a#*=}" >> "$FAKE_SEEN" ;;
  esac
done
echo "neffbar-count: 3" >&2
"""


# ------------------------------------------------------------------ bench-history --
def history_main(args, git, record=None):
    """(exit code, stdout, stderr) of bench-history's main in-process, with git, the
    builds and the commit subjects replaced."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out):  # summarize()'s default stream is sys.stdout as the script loads
        hist_script = cli.load_script("bench-history")
    bb = hist_script.bb
    real = bb.git, bb.record_commit, bb.commit_info

    def no_build(*_a, **_kw):
        raise RuntimeError("would build a commit")
    bb.git, bb.record_commit, bb.commit_info = git, record or no_build, lambda _sha: ("subject", "date")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = hist_script.main(["bench-history", *args])
    except SystemExit as e:
        rc = e.code
    except Exception as e:  # noqa: BLE001 -- any escape is the failure the checks report
        rc = f"{type(e).__name__}: {e}"
    finally:
        bb.git, bb.record_commit, bb.commit_info = real
    return rc, out.getvalue(), err.getvalue()


def fake_names():
    """The benchmarks of the fake runs."""
    return {FLOOR, BENCH, OTHER}


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def campaign_out(tmp):
    """A campaign's out/ as its steps leave it: each data file campaign.py page reads,
    small, with a value to find on the page in each (an operator's count, a crash, an
    escaped step); returns its path."""
    out = os.path.join(tmp, "out")
    write(os.path.join(out, "steps.tsv"), "step\tresult\tdetail\nbuild\tok\tg++ <b>&\nproperties\tFAIL\tseed 7\n")
    write(os.path.join(out, "hypotheses.json"), json.dumps([{"verdict": "OK", "lowering": "table"},
                                                          {"verdict": "DEADLOCK", "lowering": "table"},
                                                          {"verdict": "DEADLOCK", "lowering": "hierarchical"}]))
    write(os.path.join(out, "hypotheses.html"), "<p>grid</p>")
    write(os.path.join(out, "coverage", "folders.txt"), "  97.50 %     39 of    40 lines  core/cli\n"
                                                        "  50.00 %      1 of     2 lines  core/neffbar\n")
    write(os.path.join(out, "coverage", "files.tsv"), "core/cli/z.cpp\t0\t0\ncore/cli/a.cpp\t30\t30\ncore/cli/b.cpp\t9\t10\ncore/cli/d.cpp\t0\t5\n"
                                                      "core/neffbar/c.cpp\t1\t2\n")
    write(os.path.join(out, "coverage", "index.html"), "<p>llvm-cov</p>")
    write(os.path.join(out, "coverage", "coverage", "abs", "repo", "core", "cli", "b.cpp.html"), "<p>b</p>")
    os.symlink("gone.html", os.path.join(out, "coverage", "coverage", "abs", "repo", "core", "cli", "a.cpp.html"))
    write(os.path.join(out, "fuzz", "summary.tsv"), "target\texecs\texec_per_s_all_jobs\tcorpus_before\tcorpus_after\tnew_inputs\tcrashes\n"
                                                   "decode\t120000\t4000\t10\t25\t15\t0\nscenario\t900\t30\t4\t4\t0\t2\n")
    write(os.path.join(out, "mutate-campaign", "score.json"), json.dumps(
        {"killed": 5, "counted": 9, "timeouts": 0, "per_operator": {"ror": {"killed": 4, "counted": 4}, "del": {"killed": 1, "counted": 3},
                                                                     "cst": {"killed": 0, "counted": 2}},
         "per_file": {}}))
    for commit, factor in (("a" * 40, 1.0), ("b" * 40, 1.0), ("c" * 40, 3.0)):
        bench_history.append(os.path.join(out, "bench-history", "history.jsonl"), fake_record(commit, factor, 1.0)[1])
    return out
