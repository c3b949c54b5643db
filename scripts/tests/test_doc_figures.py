"""scripts/doc-figures' tests (pytest; ctest doc_figures_self_test), each on a scratch copy
of the committed docs and data (ctest doc_figures checks the tree itself):

- the committed docs agree with the data; a figure edited by hand fails --check naming
  FILE:LINE, and a rewrite restores the committed text; --list; which *.md are searched;
- a changed baseline fails the figures it feeds, a memory figure missing from it is exit
  2 naming it; mb()'s units;
- the fuzz budgets read from the workflows and fuzz/targets.cmake;
- an unknown figure, an unclosed region, unusable data;
- the charts' tools on fakes (a CLI that writes its page, a chromium that prints it
  back): the chart drawn from the page, each missing part, chromium failing, a tool or
  CLI that is not there, the options;
- with --neffbar CLI (conftest.py), the charts and CLI texts drawn by the built CLI and
  read back by headless Chromium: the committed ones pass, a moved arrow, a file that
  is not UTF-8 or is missing, a hand-edited CLI table fail; a CLI that draws nothing or
  hangs is exit 2 naming it.  Without it those are skipped.
Each check prints one line, ok or FAIL (conftest.py's `check`)."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from lib import cli
from lib.strict_io import BadInput

doc_figures = cli.load_script("doc-figures")
ROOT = doc_figures.ROOT
SCRIPT = os.path.join(ROOT, "scripts", "doc-figures")
BASELINE, MEASURED, CHARTS = doc_figures.BASELINE, doc_figures.MEASURED, doc_figures.CHARTS


def call(root, *args, env=None):
    """(exit code, stdout + stderr) of doc-figures on `root`; --no-charts unless --neffbar is given."""
    charts = [] if "--neffbar" in args else ["--no-charts"]
    r = subprocess.run([sys.executable, SCRIPT, "--root", root, *charts, *args], capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout + r.stderr


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def restore(root, rel):
    shutil.copy(os.path.join(ROOT, rel), os.path.join(root, rel))


@pytest.fixture
def docs(tmp_path):
    """A copy of the docs, the data and the charts, as they are committed."""
    root = str(tmp_path / "docs")
    rels = [os.path.relpath(p, ROOT) for p in doc_figures.md_files(ROOT)]
    for rel in (*rels, BASELINE, MEASURED, *doc_figures.FUZZ_BUDGET_SOURCES, *CHARTS):
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        restore(root, rel)
    return root


@pytest.fixture
def figure(docs):
    """(name, line, committed text) of README.md's first figure, and its region."""
    text = read(os.path.join(docs, "README.md"))
    m = doc_figures.REGION.search(text)
    assert m is not None, "README.md has at least one figure"
    return m.group(1), doc_figures.line_of(text, m.start()), text, m


def test_committed_docs_agree(check, docs):
    rc, out = call(docs, "--check")
    check(rc == 0, f"the committed docs agree with the data (exit {rc}): {out}")


def test_hand_edited_figure(check, docs, figure):
    """--check names the file and line, then a rewrite restores it and --check passes again."""
    name, line, text, m = figure
    readme = os.path.join(docs, "README.md")
    write(readme, text[:m.start(2)] + "1025×" + text[m.end(2):])
    rc, out = call(docs, "--check")
    check(rc == 1 and f"README.md:{line}: figure {name}" in out and "'1025×'" in out,
          f"a hand-edited figure fails --check naming README.md:{line} (exit {rc}): {out}")
    rc, out = call(docs)
    check(rc == 0 and "rewrote README.md" in out, f"a rewrite restores it (exit {rc}): {out}")
    check(read(readme) == text, "the rewritten README is the committed one")
    rc, out = call(docs, "--check")
    check(rc == 0, f"--check passes after the rewrite: {out}")


def test_list(check, docs):
    """--list prints every figure, one a line, with its value."""
    rc, out = call(docs, "--list")
    names = [line.split(":", 1)[0] for line in out.splitlines() if line and not line.startswith((" ", "|"))]
    check(rc == 0 and all(n in names for n in doc_figures.FIGURES) and out.startswith(f"{next(iter(doc_figures.FIGURES))}: "),
          f"--list prints every figure with its value (exit {rc}): missing {[n for n in doc_figures.FIGURES if n not in names]}")


def test_searched(check, docs, figure):
    """Every *.md is searched (a subfolder's too), but build*/, out/ and dot folders."""
    drifted = f"<!-- figure:{figure[0]} -->1025×<!-- /figure -->\n"
    for folder in ("out", "build-x", ".hidden", os.path.join("docs", "node_modules")):
        os.makedirs(os.path.join(docs, folder), exist_ok=True)
        write(os.path.join(docs, folder, "drift.md"), drifted)
    rc, out = call(docs, "--check")
    check(rc == 0, f"a drifted figure under out/, build*/, a dot folder or node_modules/ is not searched (exit {rc}): {out}")
    write(os.path.join(docs, "docs", "drift.md"), drifted)
    rc, out = call(docs, "--check")
    check(rc == 1 and "docs/drift.md:1: figure" in out and out.count("drift.md:") == 1,
          f"a drifted figure in a subfolder's .md fails --check, the excluded ones still not searched (exit {rc}): {out}")


def test_changed_baseline(check, docs):
    """The explicit search twice as slow in the baseline: every figure it feeds fails."""
    path = os.path.join(docs, BASELINE)
    base = json.loads(read(path))
    for b in base["benchmarks"]:
        if b["name"].startswith("BM_Engine/0"):
            b["cpu_time"] *= 2
    write(path, json.dumps(base))
    rc, out = call(docs, "--check")
    check(rc == 1 and "figure persistent-vs-explicit" in out and "figure engine-explicit" in out,
          f"a changed baseline fails --check on the figures it feeds (exit {rc}): {out}")


@pytest.mark.parametrize("key, bench", [("max_bytes_used", "BM_Random_Schedule/1000"),
                                        ("allocs_per_iter", "BM_Cli_Check/1000")])
def test_missing_memory_figure(check, docs, key, bench):
    """A memory figure the docs cite, missing from the baseline: exit 2 naming the baseline."""
    base = json.loads(read(os.path.join(ROOT, BASELINE)))
    for b in base["benchmarks"]:
        if b.get("run_name", b["name"]) == bench:
            b.pop(key, None)
    write(os.path.join(docs, BASELINE), json.dumps(base))
    rc, out = call(docs, "--check")
    check(rc == 2 and f"baseline.json: no memory figure for {bench}" in out and "measured.json" not in out,
          f"no {key} for {bench} in the baseline: exit 2 naming the baseline (exit {rc}): {out}")


def test_mb(check):
    got = [doc_figures.mb(n) for n in (999, 1000, 999_999, 1_000_000, 1e9)]
    check(got == ["999 B", "1.00 kB", "1000 kB", "1.00 MB", "1.00 GB"], f"mb(): decimal units from each one up: {got}")


BATCH, CRON = ".github/workflows/cflite_batch.yml", ".github/workflows/cflite_cron.yml"


def edit(check, root, rel, old, new):
    path = os.path.join(root, rel)
    text = read(path)
    check(old in text, f"{rel} holds {old!r}")
    write(path, text.replace(old, new, 1))


def test_changed_fuzz_seconds(check, docs):
    """A changed fuzz-seconds fails the figure it feeds: batch's, and prune's beside the
    coverage step of the same file."""
    seconds = doc_figures.fuzz_seconds(ROOT, "cflite_batch.yml", "batch")
    prune = doc_figures.fuzz_seconds(ROOT, "cflite_cron.yml", "prune")
    for rel, old, new, figure in ((BATCH, f"fuzz-seconds: {seconds}", f"fuzz-seconds: {seconds // 2}", "cflite-batch-share"),
                                  (CRON, f"fuzz-seconds: {prune}\n          mode: prune",
                                   "fuzz-seconds: 1\n          mode: prune", "cflite-prune-share")):
        edit(check, docs, rel, old, new)
        rc, out = call(docs, "--check")
        check(rc == 1 and f"figure {figure}" in out, f"a changed fuzz-seconds fails {figure} (exit {rc}): {out}")
        restore(docs, rel)


def test_two_run_fuzzers_steps_of_one_mode(check, docs):
    edit(check, docs, BATCH, "      - name: Run fuzzers", "      - uses: google/clusterfuzzlite/actions/run_fuzzers@x\n"
                                                        "        with: {fuzz-seconds: 1, mode: batch}\n      - name: Run fuzzers")
    rc, out = call(docs, "--check")
    check(rc == 2 and "cflite_batch.yml: 2 run_fuzzers steps of mode batch" in out,
          f"two steps of one mode is exit 2 naming the workflow (exit {rc}): {out}")


def test_fuzz_target_list(check, docs):
    """A target list that fails or lists nothing is exit 2 naming it; restored, it passes."""
    targets = os.path.join(docs, doc_figures.FUZZ_TARGETS)
    for body, what in (('execute_process(COMMAND ${CMAKE_COMMAND} -E echo "a b")\nmessage(FATAL_ERROR "broken")\n',
                        "a target list that fails (having printed names)"),
                       ("# lists nothing\n", "a target list that lists nothing")):
        write(targets, body)
        rc, out = call(docs, "--check")
        check(rc == 2 and "targets.cmake: cmake -P lists no targets" in out, f"{what} is exit 2 naming it (exit {rc}): {out}")
    restore(docs, doc_figures.FUZZ_TARGETS)
    rc, out = call(docs, "--check")
    check(rc == 0, f"the budgets restored pass --check (exit {rc}): {out}")


def test_unknown_and_unclosed_figures(check, docs, figure):
    text = figure[2]
    with open(os.path.join(docs, "README.md"), "a", encoding="utf-8") as f:
        f.write("\nx <!-- figure:no-such-figure -->1<!-- /figure -->\ny <!-- figure:json-reader -->34 µs\n")
    rc, out = call(docs, "--check")
    n = text.count("\n") + 2
    check(rc == 1 and f"README.md:{n}: unknown figure no-such-figure" in out
          and f"README.md:{n + 1}: figure json-reader: no <!-- /figure -->" in out,
          f"unknown and unclosed figures fail naming their lines (exit {rc}): {out}")


def test_bad_data(check, docs):
    write(os.path.join(docs, MEASURED), '{"coverage": 1, "coverage": 2}')
    rc, out = call(docs, "--check")
    check(rc == 2 and "measured.json: not JSON: duplicate key" in out, f"bad data is exit 2 (exit {rc}): {out}")


# -- the charts' tools on fakes (no build, no browser) ------------------------------
class Fakes:
    """A CLI that writes its page (and exits 1: a violation, no error) and a chromium
    that prints the page back as its DOM (or fails with $CHROMIUM_EXIT)."""

    def __init__(self, tmp):
        self.bin, self.page = os.path.join(tmp, "fake-bin"), os.path.join(tmp, "fake-page.html")
        self.cli = os.path.join(self.bin, "cli")
        os.makedirs(self.bin)
        bodies = {"chromium": 'for a; do last="$a"; done\n[ -n "$CHROMIUM_EXIT" ] && { echo crashed >&2; exit "$CHROMIUM_EXIT"; }\n'
                              'cat "${last#file://}"\n',
                  "cli": f'for a; do last="$a"; done\ncp {self.page} "$last"\nexit 1\n'}
        for name, body in bodies.items():
            write(os.path.join(self.bin, name), "#!/bin/sh\n" + body)
            os.chmod(os.path.join(self.bin, name), 0o755)


@pytest.fixture
def fakes(tmp, monkeypatch):
    f = Fakes(tmp)
    monkeypatch.setenv("PATH", f.bin + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.delenv("CHROMIUM_EXIT", raising=False)
    return f


def drawn(fakes, monkeypatch, style=True, svg=True, verdict=True, chromium_exit=None):
    """draw_chart on the fakes, for a page with or without each part: the chart, or the
    BadInput's (where, what)."""
    write(fakes.page, ("<style>.a{}</style>" if style else "") + ('<svg id="chart" width="9"><line/></svg>' if svg else "")
          + ('<p class="verdict violating"><b>GLOBAL</b> &amp; <i>x</i></p>' if verdict else ""))
    if chromium_exit:
        monkeypatch.setenv("CHROMIUM_EXIT", str(chromium_exit))
    try:
        return doc_figures.draw_chart(fakes.cli, ["check"])
    except BadInput as e:
        return (e.where, e.what)


def test_chart_drawn_from_the_page(check, fakes, monkeypatch):
    got = drawn(fakes, monkeypatch)
    check(got == '<svg id="chart" width="9"><style>.a{}</style><rect width="100%" height="100%" fill="white"/>'
                 '<text x="8" y="18" class="violating-label">GLOBAL &amp; x</text><line/></svg>\n',
          f"a chart: the page's SVG, its style inside, the verdict as text on white (the CLI's exit 1 is no error): {got!r}")


@pytest.mark.parametrize("part", ["style", "svg", "verdict"])
def test_page_without_a_part_is_no_chart(check, fakes, monkeypatch, part):
    got = drawn(fakes, monkeypatch, **{part: False})
    check(got == (fakes.cli, "check --html: Chromium's DOM of its page has no chart"),
          f"a page without its {part} is no chart, naming the CLI: {got!r}")


def test_chromium_failing(check, fakes, monkeypatch):
    got = drawn(fakes, monkeypatch, chromium_exit=3)
    check(got == ("chromium", "the chart's DOM: exit 3: crashed"), f"chromium failing is named with its exit: {got!r}")


def test_missing_tool(check, tmp):
    missing_tool = os.path.join(tmp, "no-such-tool")
    with pytest.raises(BadInput) as e:
        doc_figures.tool([missing_tool, "--x"], "w")
    got = (e.value.where, e.value.what)
    check(got[0] == missing_tool and got[1].startswith("not found"), f"a tool that is not there is named: {got!r}")


def test_no_chromium(check, fakes, tmp, monkeypatch):
    os.makedirs(os.path.join(tmp, "empty-bin"))
    monkeypatch.setenv("PATH", os.path.join(tmp, "empty-bin"))
    with pytest.raises(BadInput) as e:
        doc_figures.chart_tools(fakes.cli)
    got = (e.value.where, e.value.what)
    check(got[0] == "chromium" and got[1].startswith("not found"), f"no chromium is named: {got!r}")


def test_no_cli(check, docs, fakes):
    """No CLI, a folder and a file that cannot run (the page: not executable) are no CLI:
    exit 2, one line naming it."""
    rc, out = call(docs, "--check", "--neffbar", os.path.join(docs, "no-cli"))
    check(rc == 2 and "no-cli: no neffbar CLI to draw the charts with" in out and out.count("\n") == 1,
          f"no CLI to draw the charts with is exit 2, one line naming it (exit {rc}): {out}")
    write(fakes.page, "<p>a page</p>")
    for bad in (fakes.bin, fakes.page):
        rc, out = call(docs, "--check", "--neffbar", bad)
        check(rc == 2 and f"{bad}: no neffbar CLI to draw the charts with" in out,
              f"{bad} is no CLI: exit 2 naming it (exit {rc}): {out}")


def test_chart_options(check, docs, fakes):
    """Both ways of choosing the charts is a usage error; the default CLI is the root's build."""
    rc, out = call(docs, "--check", "--neffbar", fakes.cli, "--no-charts")
    check(rc == 2 and "--neffbar and --no-charts: choose one" in out, f"--neffbar with --no-charts is exit 2 (exit {rc}): {out}")
    r = subprocess.run([sys.executable, SCRIPT, "--root", docs, "--check"], capture_output=True, text=True)
    check(r.returncode == 2 and f"{os.path.join(docs, doc_figures.DEFAULT_CLI)}: no neffbar CLI" in r.stderr,
          f"without --neffbar the CLI is ROOT/{doc_figures.DEFAULT_CLI} (exit {r.returncode}): {r.stderr}")


# -- the charts and CLI texts, drawn by the built CLI (--neffbar) --------------------
CHART = next(iter(CHARTS))


def test_committed_charts(check, docs, neffbar):
    rc, out = call(docs, "--check", "--neffbar", neffbar)
    check(rc == 0, f"the committed charts are what the CLI draws (exit {rc}): {out}")


def test_moved_arrow(check, docs, neffbar):
    """A moved arrow fails --check naming the chart; a rewrite draws the committed bytes."""
    path = os.path.join(docs, CHART)
    committed = read(path)
    arrow = re.search(r'(<line class="arrow"[^>]* x1=")([0-9.]+)', committed)
    assert arrow is not None, f"{CHART} draws an arrow (the release a reader looks for)"
    write(path, committed[:arrow.end(2)] + "9" + committed[arrow.end(2):])
    rc, out = call(docs, "--check", "--neffbar", neffbar)
    check(rc == 1 and f"{CHART}: not what `neffbar check" in out, f"a moved arrow fails --check naming {CHART} (exit {rc}): {out}")
    rc, out = call(docs, "--neffbar", neffbar)
    check(rc == 0 and f"rewrote {CHART}" in out and read(path) == committed,
          f"a rewrite draws the committed chart again (exit {rc}): {out}")


def test_chart_not_utf8_or_missing(check, docs, neffbar):
    path = os.path.join(docs, CHART)
    with open(path, "wb") as f:
        f.write(b"\xff\xfe")
    rc, out = call(docs, "--check", "--neffbar", neffbar)
    check(rc == 1 and f"{CHART}: not what" in out, f"a chart file that is not UTF-8 fails --check, no traceback (exit {rc}): {out}")
    os.remove(path)
    rc, out = call(docs, "--check", "--neffbar", neffbar)
    check(rc == 1 and f"{CHART}: missing what" in out, f"a missing chart fails --check naming it (exit {rc}): {out}")


@pytest.fixture
def broken(tmp):
    """A CLI that draws nothing."""
    path = os.path.join(tmp, "broken-cli")
    write(path, "#!/bin/sh\necho refused >&2\nexit 3\n")
    os.chmod(path, 0o755)
    return path


def test_cli_that_draws_nothing(check, docs, figure, broken, neffbar):
    """Exit 2 naming the CLI, after the figures' own rewrite is said."""
    text, m = figure[2], figure[3]
    readme = os.path.join(docs, "README.md")
    write(readme, text[:m.start(2)] + "drifted" + text[m.end(2):])
    rc, out = call(docs, "--neffbar", broken)
    check(rc == 2 and "rewrote README.md" in out and "broken-cli: check --chips 2" in out and "wrote no page (exit 3): refused" in out
          and read(readme) == text,
          f"a CLI that draws nothing is exit 2 naming it, the figures rewritten and said first (exit {rc}): {out}")


def test_cli_that_hangs(check, docs, broken, neffbar):
    """Exit 2 after the tools' time (1 s here), naming the CLI."""
    write(broken, "#!/bin/sh\nexec sleep 30\n")
    rc, out = call(docs, "--check", "--neffbar", broken, env={"NEFFBAR_DOC_TOOL_SECONDS": "1"})
    check(rc == 2 and "broken-cli: check --chips 2" in out and "no answer in 1 s" in out,
          f"a CLI that hangs is exit 2 after the tools' time, naming it (exit {rc}): {out}")


def test_hand_edited_cli_text(check, docs, neffbar):
    """A CLI text region edited by hand fails --check, naming it; a rewrite restores it."""
    rel = os.path.join("core", "neffbar", "model", "README.md")
    path = os.path.join(docs, rel)
    text = read(path)
    m = doc_figures.CLI_REGION.search(text)
    assert m is not None and m.group(1) == "engines", f"{rel} holds the engines table"
    write(path, text[:m.start(2)] + "| drifted |\n" + text[m.end(2):])
    rc, out = call(docs, "--check", "--neffbar", neffbar)
    check(rc == 1 and f"{rel}:{doc_figures.line_of(text, m.start())}: CLI text engines: not what `neffbar engines` prints" in out,
          f"a hand-edited CLI table fails --check naming {rel} (exit {rc}): {out}")
    rc, out = call(docs, "--neffbar", neffbar)
    check(rc == 0 and f"rewrote {rel}" in out and read(path) == text,
          f"a rewrite prints the committed table again (exit {rc}): {out}")
