"""The builds behind scripts/bench-history: each commit checked out in a git worktree
(DIR/worktrees/), its benchmarks built (Release, g++-12, through ccache) and run with
repetitions, instructions counted (scripts/bench-count), and one history record made
of it (bench_history.record_from_run); or the same for the current checkout.  The
suite's one command line (suite_command) is scripts/bench's too, through the command
scripts/bench_build.py."""
import datetime
import os
import subprocess
import sys
import tempfile

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # lib's parent
ROOT = os.path.dirname(SCRIPTS)
sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, SCRIPTS)
from lib import bench_history as bh  # noqa: E402
from lib import cli, strict_io  # noqa: E402

DEFAULT_FILTER = "-BM_FullTable"  # BM_FullTable: ~20 s a repetition


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def commit_info(sha):
    subject, date = git("show", "-s", "--format=%s%n%cI", sha).split("\n", 1)
    return subject, date


def suite_command(binary, repetitions, regex, out, min_time=None):
    """The suite's command line, the one way it is run (scripts/bench, bench-history, ctest
    bench_pipeline): repetitions in random interleaving, their aggregates (mean, median,
    stddev, cv) shown alone on the console, the whole run as JSON to `out`."""
    cmd = [binary, f"--benchmark_filter={regex}", f"--benchmark_repetitions={repetitions}",
           "--benchmark_enable_random_interleaving=true", "--benchmark_display_aggregates_only=true",
           f"--benchmark_out={out}", "--benchmark_out_format=json"]
    return cmd + ([f"--benchmark_min_time={min_time}"] if min_time else [])


def run_suite(binary, repetitions, regex, count, log, min_time=None):
    """Runs the suite; returns the Google Benchmark JSON (dict), instruction counts added."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = tmp.name
    try:
        subprocess.run(suite_command(binary, repetitions, regex, out, min_time), check=True, stdout=log,
                       stderr=subprocess.STDOUT)
        if count:
            bench_count = cli.load_script("bench-count")
            print("  counting instructions (callgrind)", flush=True)
            counts, errors = bench_count.count_all(binary, "." if regex == DEFAULT_FILTER else regex, 3)
            if errors:
                raise RuntimeError("; ".join(errors))
            uncounted = bench_count.annotate(out, counts)
            if uncounted:
                raise RuntimeError(f"no instruction count for {', '.join(uncounted)}")
        return strict_io.read_json(out, gbench=True)
    finally:
        os.unlink(out)


def build(src, build_dir, log):
    """Release build of the benchmarks of the tree at `src`; returns the binary."""
    env = dict(os.environ, CCACHE_BASEDIR=os.path.dirname(os.path.abspath(build_dir)))
    cfg = ["cmake", "-S", src, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
           "-DCMAKE_CXX_COMPILER=g++-12", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DNEFFBAR_TESTS=OFF",
           "-DNEFFBAR_PROPS=OFF", "-DNEFFBAR_BENCH=ON"]  # the CLI too: BM_Cli_Check links it
    subprocess.run(cfg, check=True, stdout=log, stderr=subprocess.STDOUT, env=env)
    subprocess.run(["cmake", "--build", build_dir, "--target", "neffbar_bench", "-j", str(os.cpu_count())],
                   check=True, stdout=log, stderr=subprocess.STDOUT, env=env)
    return os.path.join(build_dir, "bench", "neffbar_bench")


def record_commit(sha, out_dir, reps, regex, count):
    wt = os.path.join(out_dir, "worktrees", sha[:12])
    log_path = os.path.join(out_dir, "logs", sha[:12] + ".log")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with open(log_path, "w") as log:
        if os.path.exists(wt):
            subprocess.run(["git", "worktree", "remove", "--force", wt], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        git("worktree", "add", "--detach", wt, sha)
        try:
            print(f"  building {sha[:12]} (log: {log_path})", flush=True)
            binary = build(wt, os.path.join(wt, "build"), log)
            print(f"  running the suite, {reps} repetitions", flush=True)
            run = run_suite(binary, reps, regex, count and os.path.exists(os.path.join(wt, "bench", "measured.h")), log)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", wt], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    subject, date = commit_info(sha)
    return bh.record_from_run(run, sha, subject, date, now(), "clean", f"the benchmark output of {sha[:12]}")


def record_here(out_dir, reps, regex, count):
    sha = git("rev-parse", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    log_path = os.path.join(out_dir, "logs", "here.log")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with open(log_path, "w") as log:
        subprocess.run(["cmake", "--preset", "release"], cwd=ROOT, check=True, stdout=log, stderr=subprocess.STDOUT)
        subprocess.run(["cmake", "--build", "--preset", "release", "--target", "neffbar_bench", "-j", str(os.cpu_count())],
                       cwd=ROOT, check=True, stdout=log, stderr=subprocess.STDOUT)
        print(f"  running the suite on the checkout ({sha[:12]}{', uncommitted changes' if dirty else ''})", flush=True)
        run = run_suite(os.path.join(ROOT, "build/release/bench/neffbar_bench"), reps, regex, count, log)
    subject, date = commit_info(sha)
    return bh.record_from_run(run, sha, subject, date, now(), "dirty" if dirty else "clean", "the benchmark output of the checkout")
