"""Bad input to the benchmark scripts (bench-compare, bench-export, bench-history,
bench-count, bench_ratios.py): each is one line on stderr that names the file (and the
line, key or option), exit 2, never a traceback; a usable input is read whole, and the
files written are whole or absent (no temporary left behind).  The fake runs, records
and the script runner are fakes.py's."""
import contextlib
import io
import json
import os
import re
import threading

import pytest

import bench_ratios as ratios_command  # scripts/bench_ratios.py; its library is lib.bench_ratios
from lib import bench_ratios as br
from lib import cli
from fakes import BENCH, FLOOR, fake_run, script, series_records, spread, with_memory


@pytest.fixture
def tmp(tmp_path):
    """A scratch folder that no atomic write leaves a temporary in."""
    yield str(tmp_path)
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")], "a temporary left behind by an atomic write"


def write(folder, name, data):
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return path


def good_run(tmp):
    return write(tmp, "good.json", json.dumps(fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)})))


def one_line(err):
    return len(err.strip().split("\n")) == 1 and "Traceback" not in err


# ---------------------------------------------------------------- bench-compare --
def _nan_allocs():
    run = with_memory(fake_run({FLOOR: ([1.0], None)}), {FLOOR: (0, "NAN_HERE")})
    return json.dumps(run).replace('"NAN_HERE"', "NaN")


BAD_RUNS = {  # what: (file name, its bytes (None: absent, "mkdir": a folder), what stderr says)
    "not JSON, with its line and column": ("garbage.json", '{"benchmarks": [\n {"name": "x",\n  "cpu_time": }',
                                           "garbage.json: not JSON: line 3 column 15"),
    "empty": ("empty.json", "", "empty.json: empty file"),
    "truncated": ("cut.json", json.dumps(fake_run({FLOOR: (spread(100.0), 1e6)}))[:200], "cut.json: not JSON: line 1 column"),
    "duplicate keys": ("dup.json", '{"benchmarks": [], "benchmarks": []}', "dup.json: not JSON: duplicate key 'benchmarks'"),
    "trailing garbage": ("trail.json", '{"benchmarks": []} x', "trail.json: not JSON: line 1 column 20: Extra data"),
    "NaN as a time": ("nan.json", '{"benchmarks": [{"name": "BM_Arith_Floor", "cpu_time": NaN}]}',
                      "nan.json: benchmarks[0] (BM_Arith_Floor): cpu_time: expected a positive finite number, got nan"),
    "-NaN (not Google Benchmark's spelling)": ("mnan.json", '{"benchmarks": [], "x": -NaN}', "mnan.json: not JSON: line 1"),
    "a zero time": ("zero.json", json.dumps(fake_run({FLOOR: ([0.0], None)})),
                    "zero.json: benchmarks[0] (BM_Arith_Floor): cpu_time: expected a positive finite number, got 0.0"),
    "a negative count": ("neg.json", json.dumps(fake_run({FLOOR: ([1.0], -5)})), "neg.json: benchmarks[0] (BM_Arith_Floor): instructions"),
    "a negative peak": ("negmem.json", json.dumps(with_memory(fake_run({FLOOR: ([1.0], None)}), {FLOOR: (-1, 0.0)})),
                        "negmem.json: benchmarks[0] (BM_Arith_Floor): max_bytes_used: expected a finite number >= 0, got -1"),
    "allocations not a number": ("strmem.json", json.dumps(with_memory(fake_run({FLOOR: ([1.0], None)}), {FLOOR: (0, "1")})),
                                 "strmem.json: benchmarks[0] (BM_Arith_Floor): allocs_per_iter: expected a finite number >= 0, got '1'"),
    "NaN allocations": ("nanmem.json", _nan_allocs(),
                        "nanmem.json: benchmarks[0] (BM_Arith_Floor): allocs_per_iter: expected a finite number >= 0, got nan"),
    "no benchmarks list": ("list.json", "[]", 'list.json: not a Google Benchmark run: no "benchmarks" list'),
    "a control character in a name": ("ctl.json", json.dumps(fake_run({"BM_\x1b[2J\nfake": ([0.0], None)})), "(BM_\\x1b[2J\\nfake)"),
    "a missing file": ("absent.json", None, "absent.json: no such file"),
    "a number too large for a float": ("big.json", '{"benchmarks": [{"name": "BM_Arith_Floor", "cpu_time": 1%s}]}' % ("0" * 400),
                                       "big.json: benchmarks[0] (BM_Arith_Floor): cpu_time: expected a positive finite number, got 1000"),
    "an integer of 5000 digits": ("digits.json", '{"benchmarks": [{"name": "BM_Arith_Floor", "cpu_time": 1%s}]}' % ("0" * 5000),
                                  "digits.json: not JSON: Exceeds the limit"),
    "nested 100000 deep": ("deep.json", "[" * 100000 + "]" * 100000, "deep.json: not JSON: nested too deeply"),
    "not UTF-8": ("latin.json", b'{"benchmarks": [{"name": "BM_\xff"}]}', "latin.json: not UTF-8: byte 29"),
    "a directory": ("dir.json", "mkdir", "dir.json: is a directory"),
}


@pytest.mark.parametrize("what", list(BAD_RUNS))
def test_compare_names_a_bad_run(tmp, what):
    name, data, expect = BAD_RUNS[what]
    path = os.path.join(tmp, name)
    if data == "mkdir":
        os.mkdir(path)
    elif data is not None:
        write(tmp, name, data)
    rc, out, err = script("bench-compare", good_run(tmp), path)
    line = err.strip()
    assert (rc, out) == (2, "") and one_line(err) and line.startswith("bench-compare: ") and len(line) < 400
    assert expect in line


def test_compare_escapes_a_control_character_in_a_file_name(tmp):
    rc, _, err = script("bench-compare", good_run(tmp), write(tmp, "a\x1bb.json", "x"))
    assert rc == 2 and "a\\x1bb.json: not JSON" in err and "\x1b" not in err


@pytest.mark.parametrize("args, expect", [
    (["--threshold", "abc"], "argument --threshold: expected a positive decimal number, got 'abc'"),
    (["--threshold", "0"], "--threshold"), (["--threshold", "inf"], "--threshold"),
    (["--count-threshold", "-2"], "argument --count-threshold"), (["--bogus"], "unrecognized"), ([], "required")])
def test_compare_usage(tmp, args, expect):
    good = good_run(tmp)
    rc, _, err = script("bench-compare", *([good, good] if args else [good]), *args)
    assert rc == 2 and expect in err and one_line(err)


def test_compare_exit_codes(tmp):
    good = good_run(tmp)
    rc, out, _ = script("bench-compare", good, good)
    assert rc == 0 and "no regression" in out
    rc, out, _ = script("bench-compare", good, write(tmp, "e.json", '{"benchmarks": []}'))
    assert rc == 1 and "measured nothing" in out, "an empty run fails the gate"
    slow = write(tmp, "slow.json", json.dumps(fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(600.0), 2e6)})))
    rc, out, _ = script("bench-compare", good, slow)
    assert rc == 1 and "BM_Checker/2/4/0: time/floor +50.0 %" in out
    rc, out, _ = script("bench-compare", "--help")
    flat = out.replace("\n", " ")
    assert rc == 0 and "0: no regression; 1: a regression or the gate failed" in flat and "2: usage, or an input" in flat


def test_a_non_finite_aggregate_as_google_benchmark_writes_it_is_read(tmp):
    """The _cv of a counter whose mean is 0 is NaN (json_reporter.cc also writes Infinity):
    the run is usable, and no NaN reaches the trackers."""
    gb = fake_run({FLOOR: (spread(100.0), 1e6), BENCH: (spread(400.0), 2e6)})
    gb["benchmarks"].append({"name": BENCH + "_cv", "run_name": BENCH, "run_type": "aggregate", "aggregate_name": "cv",
                             "aggregate_unit": "percentage", "cpu_time": 0.01, "real_time": 0.01, "time_unit": "ns",
                             "states": "NAN_HERE", "rate": "INF_HERE"})
    nan_run = write(tmp, "gb-nan.json", json.dumps(gb).replace('"NAN_HERE"', "NaN").replace('"INF_HERE"', "Infinity"))
    rc, out, err = script("bench-compare", good_run(tmp), nan_run)
    assert rc == 0 and "no regression" in out and not err
    rc, out, err = script("bench-export", "--format", "bmf", nan_run)
    assert rc == 0 and "NaN" not in out and "Infinity" not in out, err


# ---------------------------------------------------------------- bench-history --
@pytest.mark.parametrize("args, expect", [
    (["--commits", "abc"], "argument --commits: expected a positive integer, got 'abc'"),
    (["--commits", "0"], "argument --commits"), (["--repetitions", "x"], "argument --repetitions"),
    (["--commits", "2", "HEAD"], "--commits N or REV..., not both")])
def test_history_usage(tmp, args, expect):
    rc, _, err = script("bench-history", *args, "--out", os.path.join(tmp, "h0"))
    assert rc == 2 and expect in err


GOOD_LINES = "".join(json.dumps(r) + "\n" for r in series_records([1.0, 1.0], 3, 1))
BAD_HISTORIES = {
    "a last line cut short by a crash": (GOOD_LINES + GOOD_LINES[:150],
                                         "history.jsonl: line 3 (the last line, cut short: no newline at its end): not JSON"),
    "a garbage line": (GOOD_LINES + "garbage\n" + GOOD_LINES, "history.jsonl: line 3: not JSON: line 1 column 1"),
    "a zero median": (GOOD_LINES.replace('"median_ns": ', '"median_ns": 0, "x": ', 1),
                      "history.jsonl: line 1: benchmarks.BM_Arith_Floor.median_ns: expected a positive finite number, got 0"),
    "a record without a commit": ('{"tree": "clean", "benchmarks": {}}\n', "line 1: commit: expected a commit id"),
    "a commit that is a path": ('{"commit": "../../x", "tree": "clean", "benchmarks": {}}\n', "commit: expected a commit id (hex)"),
    "duplicate keys": ('{"commit": "abcdef0", "commit": "abcdef0", "tree": "clean", "benchmarks": {}}\n', "line 1: not JSON: duplicate key"),
    "no repetitions": (GOOD_LINES.replace('"reps_ns": [', '"reps_ns": [], "x": [', 1),
                       "history.jsonl: line 1: benchmarks.BM_Arith_Floor.reps_ns: expected a list of positive finite numbers, got []"),
    "a zero repetition": (GOOD_LINES.replace('"reps_ns": [', '"reps_ns": [0, ', 1),
                          "history.jsonl: line 1: benchmarks.BM_Arith_Floor.reps_ns: expected a list of positive finite numbers, got [0,"),
    "a negative peak": (GOOD_LINES.replace('"max_bytes_used": null', '"max_bytes_used": -8', 1),
                        "history.jsonl: line 1: benchmarks.BM_Arith_Floor.max_bytes_used: expected a finite number >= 0 or null, got -8"),
}


@pytest.mark.parametrize("what", list(BAD_HISTORIES))
def test_history_names_a_bad_line(tmp, what):
    text, expect = BAD_HISTORIES[what]
    write(tmp, "history.jsonl", text)
    rc, _, err = script("bench-history", "--report", "--out", tmp)
    assert rc == 2 and expect in err and one_line(err)


def test_history_does_not_rebuild_a_recorded_commit(tmp, monkeypatch):
    """In-process, with git and the build replaced: no repository is needed, and a broken
    check builds nothing (it fails).  The progress names the commit [1/1], and the report
    is made from the history (exit 0)."""
    hist_script = cli.load_script("bench-history")
    bb = hist_script.bb
    sha = "f" * 40

    def fake_git(*args, **_kw):
        if args[0] == "rev-parse":
            return sha
        raise RuntimeError(f"git {' '.join(args)} run by the test")

    def no_build(*_a, **_kw):
        raise RuntimeError("would build a commit")
    monkeypatch.setattr(bb, "git", fake_git)
    monkeypatch.setattr(bb, "record_commit", no_build)
    monkeypatch.setattr(bb, "commit_info", lambda _sha: ("subject", "date"))
    known = series_records([1.0], 3, 1)[0]
    known["commit"] = sha
    write(tmp, "history.jsonl", json.dumps(known) + "\n")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        rc = hist_script.main(["bench-history", "--out", tmp, "HEAD"])
    assert rc == 0 and f"[1/1] {sha[:12]}: in the history already, not rebuilt" in said.getvalue()
    assert all(os.path.exists(os.path.join(tmp, f)) for f in ("index.html", "summary.md"))
    rc, out, _ = script("bench-history", "--help")
    assert rc == 0 and "2: usage, or DIR/history.jsonl is not a history" in out.replace("\n", " ")


# ------------------------------------------------------------------ bench-count --
def fake_binary(tmp, name, names):
    """A benchmark binary that lists `names` (and does nothing else)."""
    path = write(tmp, name, "#!/bin/sh\n" + (f"echo {' '.join(names)}\n" if names else "exit 0\n"))
    os.chmod(path, 0o755)
    return path


@pytest.mark.parametrize("args, expect", [
    (["--runs", "abc"], "argument --runs: expected a positive integer, got 'abc'"),
    (["--runs", "0"], "argument --runs"), (["--jobs", "-1"], "argument --jobs"),
    (["--into", "garbage.json"], "garbage.json: not JSON: line 3 column 15"),
    (["--into", "zero.json"], "zero.json: benchmarks[0] (BM_Arith_Floor): cpu_time")])
def test_count_usage(tmp, args, expect):
    for name in ("garbage", "zero"):
        write(tmp, name + ".json", BAD_RUNS["not JSON, with its line and column" if name == "garbage" else "a zero time"][1])
    args = [os.path.join(tmp, a) if a.endswith(".json") else a for a in args]
    rc, _, err = script("bench-count", "--bin", fake_binary(tmp, "fake_bench", ["BM_A", "BM_B"]), *args)
    assert rc == 2 and expect in err and one_line(err)


def test_count_refuses_a_missing_binary_and_a_filter_that_selects_nothing(tmp):
    rc, _, err = script("bench-count", "--bin", os.path.join(tmp, "nope"))
    assert rc == 2 and "argument --bin" in err
    rc, _, err = script("bench-count", "--bin", fake_binary(tmp, "fake_none", []))
    assert rc == 2 and "selects no benchmark" in err, "not a silent 0"
    rc, out, _ = script("bench-count", "--help")
    assert rc == 0 and "1: a benchmark could not be counted" in out.replace("\n", " ")


@pytest.mark.parametrize("text, total", [("events: Ir\ntotals: 3000\n", 1000.0), ("totals: 0\n", None),
                                         ("summary: \n", None), ("", None)])
def test_count_reads_callgrind_totals(tmp, text, total):
    bc = cli.load_script("bench-count")
    try:
        got = bc.callgrind_total(write(tmp, "callgrind.out", text), "BM_A", 3)
    except RuntimeError:
        got = None
    assert got == total


def test_count_into_names_what_got_no_count(tmp):
    bc = cli.load_script("bench-count")
    into = write(tmp, "into.json", json.dumps(fake_run({"BM_A": ([5.0, 6.0], None), "BM_B": ([7.0], None)})))
    fake = fake_binary(tmp, "fake_bench", ["BM_A", "BM_B"])

    def count(_b, n, _r):
        if n == "BM_A":
            return 100.0
        raise RuntimeError(f"{n}: x")
    counts, errors = bc.count_all(fake, ".", 3, progress=io.StringIO(), count=count)
    assert counts == {"BM_A": 100.0} and len(errors) == 1, "a failed count is an error"
    assert bc.annotate(into, counts) == ["BM_B"]
    with open(into) as f:
        assert [e.get("instructions") for e in json.load(f)["benchmarks"]] == [100.0, 100.0, None]
    into = write(tmp, "into2.json", json.dumps(fake_run({"BM_A": ([5.0], None), "BM_B": ([7.0], None)})))
    assert bc.annotate(into, {"BM_A": 100.0}, regex="^BM_A$") == [], "only what --filter selects must get a count"
    assert bc.annotate(into, {"BM_A": 100.0}) == ["BM_B"]


def test_count_pins_glibcs_cpu_dependent_choices(tmp, monkeypatch):
    """A fake valgrind records the GLIBC_TUNABLES it was given; NEFFBAR_GLIBC_TUNABLES
    replaces the pinning (empty: none)."""
    bc = cli.load_script("bench-count")
    fake_bin = os.path.join(tmp, "fake_valgrind_bin")
    os.makedirs(fake_bin)
    seen = os.path.join(tmp, "tunables.seen")
    valgrind = write(fake_bin, "valgrind", f"""#!/bin/sh
printf '%s' "${{GLIBC_TUNABLES-unset}}" > {seen}
for a in "$@"; do case "$a" in --callgrind-out-file=*) printf 'totals: 3000\n' > "${{a#*=}}" ;; esac; done
echo "neffbar-count: 3" >&2
""")
    os.chmod(valgrind, 0o755)
    fake = fake_binary(tmp, "fake_bench", ["BM_A"])
    monkeypatch.setenv("PATH", fake_bin + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.delenv("NEFFBAR_GLIBC_TUNABLES", raising=False)
    assert bc.count_one(fake, "BM_A", 3) == 1000.0
    with open(seen) as f:
        pinned = f.read()
    assert pinned == bc.PINNED_TUNABLES and "-AVX2" in pinned and "x86_non_temporal_threshold" in pinned
    monkeypatch.setenv("NEFFBAR_GLIBC_TUNABLES", "")
    bc.count_one(fake, "BM_A", 3)
    with open(seen) as f:
        assert f.read() == ""


def test_count_jobs_run_at_once(tmp):
    """--jobs N runs N counts at once (a barrier of N parties that fewer workers break),
    and the progress counts 1..N."""
    bc = cli.load_script("bench-count")
    n = (os.cpu_count() or 1) + 1
    many = fake_binary(tmp, "fake_many", [f"BM_{i}" for i in range(n)])
    together = threading.Barrier(n, timeout=10)
    progress = io.StringIO()
    counts, errors = bc.count_all(many, ".", 3, jobs=n, progress=progress, count=lambda _b, _n, _r: float(together.wait() + 1))
    assert sorted(counts.values()) == [float(i + 1) for i in range(n)] and not errors
    shown = sorted(re.findall(r"\[(\d+)/(\d+)\]", progress.getvalue()), key=lambda d: int(d[0]))
    assert shown == [(str(i), str(n)) for i in range(1, n + 1)]


# ----------------------------------------------------------------- bench_ratios --
@pytest.mark.parametrize("which", ["baseline", "benchmark", "both"])
def test_ratios_leave_out_a_target_that_did_not_run(tmp, which):
    """A run that holds a target's baseline but not its benchmark (or the reverse): the
    target is left out, not a KeyError; shown when both ran."""
    target, num, den = br.TARGETS[0][:3]
    spec = {"baseline": {den: ([5.0, 6.0], None)}, "benchmark": {num: ([6.0, 7.0], None)},
            "both": {den: ([5.0, 6.0], None), num: ([6.0, 7.0], None)}}[which]
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        rc = ratios_command.main(["bench_ratios.py", write(tmp, "run.json", json.dumps(fake_run(spec)))])
    assert rc in (0, None)
    assert (target in said.getvalue()) == (which == "both")
