"""scripts/bench-export on fake runs (ctest bench_export_self_test): both formats and
--metric, 11 bad inputs refused naming the file, the medians of every kind of run, the
output written whole or not at all (exit 2 when it cannot be written), every shape check
shown rejecting a doctored export, and the committed baseline exported."""
import json
import os
import subprocess
import sys

import pytest

from lib import cli
from fakes import SCRIPTS

bench_export = cli.load_script("bench-export")
BASELINE = os.path.join(os.path.dirname(SCRIPTS), "bench", "baselines", "baseline.json")


def export(*args, stdin=None):
    """scripts/bench-export run as a program: the CompletedProcess, text."""
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-export"), *args],
                          capture_output=True, text=True, input=stdin)


# Runs are built entry by entry: fakes.fake_run has no time units, aggregates of other
# kinds, or BigO rows.
def rep(name, t, i, unit="ns", n=None, mem=None):
    e = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
         "iterations": 10, "real_time": t, "cpu_time": t, "time_unit": unit}
    if n is not None:
        e["instructions"] = n
    if mem is not None:
        e["max_bytes_used"], e["allocs_per_iter"] = mem
    return e


def agg(name, kind, t, unit="ns", n=None):
    e = {"name": f"{name}_{kind}", "run_name": name, "run_type": "aggregate", "aggregate_name": kind,
         "real_time": t, "cpu_time": t, "time_unit": unit}
    if n is not None:
        e["instructions"] = n
    return e


def put(folder, name, doc):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def fake():
    """Three repetitions each of two benchmarks (one counted, one in us, one allocating
    nothing), mean/median/stddev aggregates, a BigO row."""
    return {"context": {}, "benchmarks": [
        rep("BM_A", 10.0, 0, n=100.0, mem=(4096, 12.0)), rep("BM_A", 12.0, 1, n=100.0, mem=(4096, 12.0)),
        rep("BM_A", 30.0, 2, n=100.0, mem=(4096, 12.0)),
        agg("BM_A", "mean", 17.3, n=100.0), agg("BM_A", "median", 12.0, n=100.0), agg("BM_A", "stddev", 9.0),
        rep("BM_B/4", 2.0, 0, unit="us", mem=(0, 0.0)), rep("BM_B/4", 1.0, 1, unit="us", mem=(0, 0.0)),
        rep("BM_B/4", 3.0, 2, unit="us", mem=(0, 0.0)),
        agg("BM_B/4", "median", 2.0, unit="us"),
        {"name": "BM_B_BigO", "run_name": "BM_B", "run_type": "aggregate", "aggregate_name": "BigO",
         "cpu_coefficient": 1.0, "big_o": "N"},
    ]}


@pytest.fixture
def good(tmp):
    return put(tmp, "run.json", fake())


FAKE_BMF = {"BM_A": {"latency": {"value": 12.0, "lower_value": 10.0, "upper_value": 30.0},
                     "instructions": {"value": 100.0}, "peak-bytes": {"value": 4096}, "allocations": {"value": 12.0}},
            "BM_B/4": {"latency": {"value": 2000.0, "lower_value": 1000.0, "upper_value": 3000.0},
                       "peak-bytes": {"value": 0}, "allocations": {"value": 0.0}}}
FAKE_GAB = [("BM_A (instructions)", "instructions/op", 100.0), ("BM_A (time)", "ns", 12.0),
            ("BM_A (peak bytes)", "bytes", 4096), ("BM_A (allocations)", "allocations/op", 12.0),
            ("BM_B/4 (time)", "ns", 2000.0), ("BM_B/4 (peak bytes)", "bytes", 0),
            ("BM_B/4 (allocations)", "allocations/op", 0.0)]


# ------------------------------------------------------------------------ formats --
def test_bmf_export_of_the_fake_run(good):
    r = export("--format", "bmf", good)
    assert r.returncode == 0, r.stderr
    bmf = json.loads(r.stdout)
    assert bmf == FAKE_BMF
    assert bench_export.bmf_shape_errors(bmf) == []


def test_gab_export_written_to_o_and_nothing_on_stdout(tmp, good):
    out = os.path.join(tmp, "gab.json")
    r = export("--format", "gab", "-o", out, good)
    assert (r.returncode, r.stdout) == (0, ""), r.stderr
    with open(out) as f:
        gab = json.load(f)
    assert [(e["name"], e["unit"], e["value"]) for e in gab] == FAKE_GAB
    assert bench_export.gab_shape_errors(gab) == []
    assert sorted(os.listdir(tmp)) == ["gab.json", "run.json"], "no temporary file left"


@pytest.mark.parametrize("metric, series", [
    ("instructions", [("BM_A (instructions)", 100.0)]),
    ("time", [("BM_A (time)", 12.0), ("BM_B/4 (time)", 2000.0)]),
    ("memory", [("BM_A (peak bytes)", 4096), ("BM_A (allocations)", 12.0),
                ("BM_B/4 (peak bytes)", 0), ("BM_B/4 (allocations)", 0.0)]),  # 0 kept
])
def test_metric_gives_its_series_only(good, metric, series):
    r = export("--format", "gab", "--metric", metric, good)
    assert r.returncode == 0, r.stderr
    assert [(e["name"], e["value"]) for e in json.loads(r.stdout)] == series


def test_run_dash_reads_stdin(good):
    with open(good) as f:
        r = export("--format", "bmf", "-", stdin=f.read())
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == FAKE_BMF


# ------------------------------------------------------------------ bad input --
BAD_RUNS = {
    "missing.json": None,
    "text.json": "not json",
    "list.json": [1, 2],
    "empty.json": {"benchmarks": []},
    "notime.json": {"benchmarks": [{"name": "BM_A", "time_unit": "ns"}]},
    "unit.json": {"benchmarks": [rep("BM_A", 1.0, 0, unit="fortnights")]},
    "instr.json": {"benchmarks": [rep("BM_A", 1.0, 0, n="many")]},
    "dup.json": '{"benchmarks": [], "benchmarks": [{"name": "BM_A", "cpu_time": 1}]}',
    "trail.json": json.dumps({"benchmarks": [rep("BM_A", 1.0, 0)]}) + " x",
    "mem.json": {"benchmarks": [rep("BM_A", 1.0, 0, mem=(-1, 0.0))]},
    "memtext.json": {"benchmarks": [rep("BM_A", 1.0, 0, mem=("lots", 0.0))]},
}


@pytest.mark.parametrize("fname", BAD_RUNS)
def test_a_bad_run_is_one_line_naming_it_exit_2_the_output_untouched(tmp, fname):
    out = put(tmp, "out.json", "the previous export\n")
    path = os.path.join(tmp, fname)
    if BAD_RUNS[fname] is not None:
        put(tmp, fname, BAD_RUNS[fname])
    r = export("--format", "bmf", "-o", out, path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and path in lines[0] and r.stdout == "", r.stderr
    with open(out) as f:
        assert f.read() == "the previous export\n"


@pytest.mark.parametrize("metric", ["instructions", "memory"])
def test_a_run_without_the_metric_is_exit_2(tmp, metric):
    counts = put(tmp, "nocount.json", {"benchmarks": [rep("BM_A", 1.0, 0)]})
    r = export("--format", "gab", "--metric", metric, "-o", os.path.join(tmp, "out.json"), counts)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [f"bench-export: {counts}: no benchmark has {metric}"]


def test_a_control_character_in_the_file_name_is_escaped(tmp):
    r = export("--format", "bmf", put(tmp, "a\x1bb.json", "x"))
    assert r.returncode == 2 and "a\\x1bb.json" in r.stderr and "\x1b" not in r.stderr, r.stderr


@pytest.mark.parametrize("args, expect", [
    (["--format", "csv", "RUN"], "invalid choice: 'csv'"),
    (["--format", "bmf"], "are required"),
    (["RUN"], "are required"),
    (["--format", "bmf", "--metric", "time", "RUN"], "applies to --format gab"),
    (["--format", "gab", "--bogus", "RUN"], "unrecognized arguments"),
])
def test_usage_errors_are_exit_2(good, args, expect):
    r = export(*[good if a == "RUN" else a for a in args])
    assert r.returncode == 2 and expect in r.stderr and not r.stdout, r.stderr


# -------------------------------------------------------------------- medians --
@pytest.fixture(scope="module")
def medians(tmp_path_factory):
    """The BMF export of a run with every kind of median: an even number of repetitions
    (with memory figures), an odd one, six, a median aggregate, no repetitions."""
    run = {"benchmarks": [
        rep("BM_Even", 80.0, 0, mem=(80, 8.0)), rep("BM_Even", 10.0, 1, mem=(10, 1.0)),
        rep("BM_Even", 40.0, 2, mem=(40, 4.0)), rep("BM_Even", 20.0, 3, mem=(20, 2.0)),
        rep("BM_Agg", 10.0, 0), rep("BM_Agg", 20.0, 1), rep("BM_Agg", 30.0, 2), agg("BM_Agg", "median", 25.0),
        {"name": "BM_One", "cpu_time": 7.0, "time_unit": "ms"}]}
    run["benchmarks"] += [rep("BM_Odd", t, i) for i, t in enumerate((10.0, 30.0, 20.0))]
    run["benchmarks"] += [rep("BM_Six", t, i) for i, t in enumerate((60.0, 10.0, 50.0, 20.0, 40.0, 30.0))]
    r = export("--format", "bmf", put(str(tmp_path_factory.mktemp("medians")), "medians.json", run))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("name, value, bounds", [
    ("BM_Even", 30.0, (10.0, 80.0)),  # the mean of the two middle ones, not 20 or 40
    ("BM_Odd", 20.0, None),           # the middle one
    ("BM_Six", 35.0, None),           # the mean of the 3rd and 4th
    ("BM_Agg", 25.0, None),           # the run's median aggregate, not the repetitions' 20
    ("BM_One", 7e6, (7e6, 7e6)),      # no repetitions: its one entry, both bounds too
])
def test_the_latency_is_the_median(medians, name, value, bounds):
    lat = medians[name]["latency"]
    assert lat["value"] == value
    if bounds:
        assert (lat["lower_value"], lat["upper_value"]) == bounds


def test_the_memory_figures_are_the_median_of_the_repetitions(medians):
    even = medians["BM_Even"]  # of 4: the mean of the two middle
    assert even["peak-bytes"] == {"value": 30.0} and even["allocations"] == {"value": 3.0}


# --------------------------------------------------------------------- output --
def test_an_output_that_cannot_be_written_is_exit_2_naming_it(tmp, good):
    target = os.path.join(put(tmp, "a-file", "x"), "out.json")  # a file where its folder should be
    r = export("--format", "bmf", "-o", target, good)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and target in lines[0] and "Traceback" not in r.stderr, r.stderr


def test_o_is_written_through_write_atomic(tmp, good, monkeypatch, capsys):
    """A failed write leaves the old output, exit 2 naming why."""
    out, seen = put(tmp, "old.json", "old\n"), []

    def failing(path, data):
        seen.append(path)
        raise OSError(28, "No space left on device", path)
    monkeypatch.setattr(bench_export, "write_atomic", failing)
    rc = bench_export.run("bench-export", bench_export.main, ["bench-export", "--format", "bmf", "-o", out, good])
    assert (seen, rc) == ([out], 2)
    assert "no space left on device" in capsys.readouterr().err
    with open(out) as f:
        assert f.read() == "old\n"


# --------------------------------------------------------------------- shapes --
BMF_BAD = {
    "a string value": {"BM_A": {"latency": {"value": "12"}}},
    "bounds that do not hold the value": {"BM_A": {"latency": {"value": 5, "lower_value": 6, "upper_value": 9}}},
    "a list": [{"BM_A": {}}],
    "an empty object": {},
    "an empty measure object": {"BM_A": {}},
    "measures that are not an object": {"BM_A": [1]},
    "a measure that is not an object": {"BM_A": {"latency": 5}},
    "an unknown key": {"BM_A": {"latency": {"value": 5, "median": 5}}},
}
GAB_BAD = {
    "an object": {"name": "x", "unit": "ns", "value": 1},
    "an entry without unit": [{"name": "x", "value": 1}],
    "duplicate names": [{"name": "x", "unit": "ns", "value": 1}] * 2,
    "an empty list": [],
    "an entry that is not an object": [1],
    "an unknown key": [{"name": "x", "unit": "ns", "value": 1, "median": 1}],
    "a non-string extra": [{"name": "x", "unit": "ns", "value": 1, "extra": 5}],
    "a non-string range": [{"name": "x", "unit": "ns", "value": 1, "range": 0.5}],
    "a value that is not a number": [{"name": "x", "unit": "ns", "value": "1"}],
}


@pytest.mark.parametrize("what", BMF_BAD)
def test_the_bmf_shape_check_rejects(what):
    assert bench_export.bmf_shape_errors(BMF_BAD[what]) != []


@pytest.mark.parametrize("what", GAB_BAD)
def test_the_gab_shape_check_rejects(what):
    assert bench_export.gab_shape_errors(GAB_BAD[what]) != []


# ------------------------------------------------------------------- baseline --
@pytest.fixture(scope="module")
def baseline_bmf():
    if not os.path.exists(BASELINE):
        pytest.skip("no committed baseline (bench/baselines/baseline.json)")
    r = export("--format", "bmf", BASELINE)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_baseline_exports_as_bmf(baseline_bmf):
    assert bench_export.bmf_shape_errors(baseline_bmf)[:3] == []
    assert "instructions" in baseline_bmf.get("BM_Codec_Decode", {}), "BM_Codec_Decode's instructions"
    assert all(m in baseline_bmf["BM_Codec_Decode"] for m in ("peak-bytes", "allocations"))
    assert all("peak-bytes" in measures for measures in baseline_bmf.values()), "every benchmark's memory"


def test_the_baseline_exports_as_gab(baseline_bmf):
    r = export("--format", "gab", "--metric", "memory", BASELINE)
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)) == 2 * len(baseline_bmf), "two memory entries a benchmark"
    r = export("--format", "gab", BASELINE)
    assert r.returncode == 0, r.stderr
    assert bench_export.gab_shape_errors(json.loads(r.stdout)) == []
