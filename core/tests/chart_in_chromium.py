#!/usr/bin/env python3
"""ctest chart_in_chromium: the sequence chart `neffbar check --html` writes, opened in
headless Chromium (Debian's chromium) and read back from its DOM:
  - one lifeline per process of the system (the JSON's "processes");
  - one arrow per release, each from the increment to the wait it released, derived
    here from the JSON's counterexample on its own (for each wait, the last earlier
    step of another process that raised its semaphore);
  - exactly one violating mark, on the counterexample's last step;
  - at 64x4 the page opens folded (the processes the violation involves shown), and
    #unfold=GROUP unfolds that group (the click handler's own function);
  - the screenshot is not blank.
The matrix grid (`hypotheses --html`): a cell per scenario of its verdict, #cell=K
drawing that row's chart.  The campaign page (scripts/campaign.py page, on a fake
campaign's files and the real grid): a row per step, lowering, fuzz target and
operator, a chart per benchmark, no link to a missing file, a screenshot not blank.
A planted wrong arrow (one release's source moved in the page's data) must fail the
same DOM check, or the check has no teeth.
  chart_in_chromium.py NEFFBAR
Prints 'chart in chromium: passed' and exits 0; else one line a failure, exit 1."""
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
SCRIPTS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
sys.path[:0] = [SCRIPTS, os.path.join(SCRIPTS, "tests")]
from lib.headless_chromium import headless, png_pixels  # noqa: E402


def chromium(*args):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(headless(profile, *args), capture_output=True, text=True, timeout=120).stdout


class Dom(html.parser.HTMLParser):
    """What the chart drew: lifelines, arrows, marks, folds (their attributes)."""

    def __init__(self, text):
        super().__init__()
        self.lifelines, self.arrows, self.violating, self.folds, self.marks = [], [], [], {}, 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "").split()
        if tag == "g" and "lifeline" in cls:
            self.lifelines.append((a.get("data-name"), "folded" in cls))
        elif tag == "line" and "arrow" in cls:
            self.arrows.append((int(a["data-from"]), int(a["data-to"])))
        elif tag == "g" and "mark" in cls:
            self.marks += 1
            if "violating" in cls:
                self.violating.append(int(a["data-entry"]))
        elif tag == "g" and "fold" in cls:
            self.folds[a["data-group"]] = int(a["data-members"])


def dom(page, fragment=""):
    return Dom(chromium("--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.abspath(page) + fragment))


def expected_releases(trace):
    """For each wait, the last earlier entry of another process that raised its semaphore."""
    out = []
    for t, e in enumerate(trace):
        if not e["instruction"].startswith(e["process"] + ": wait_"):
            continue
        for k in range(t - 1, -1, -1):
            s = trace[k]
            if s["process"] != e["process"] and s.get("semaphore") == e["semaphore"] and s["after"] > s["before"]:
                out.append((k, t))
                break
    return out


def problems_of(d, report, what):
    """What the DOM gets wrong against the JSON report (the empty list when nothing)."""
    cex = report["counterexample"]
    want = expected_releases(cex["trace"])
    bad = []
    if [n for n, _ in d.lifelines] != report["processes"]:
        bad.append(f"{what}: lifelines {len(d.lifelines)}, processes {len(report['processes'])}")
    if sorted(d.arrows) != sorted(want):
        bad.append(f"{what}: arrows {sorted(set(d.arrows) ^ set(want))[:4]} differ from the releases ({len(d.arrows)} vs {len(want)})")
    if d.violating != [len(cex["trace"]) - 1]:
        bad.append(f"{what}: violating marks {d.violating}, want the last step {len(cex['trace']) - 1}")
    if d.marks != len(cex["trace"]):
        bad.append(f"{what}: {d.marks} marks for {len(cex['trace'])} steps")
    return bad


def check_page(neffbar, tmp, args, name):
    page, out = os.path.join(tmp, name + ".html"), subprocess.run(
        [neffbar, "check", *args, "--json", "--html", os.path.join(tmp, name + ".html")], capture_output=True, text=True)
    if out.returncode != 4:
        return None, None, None, [f"{name}: check exited {out.returncode}, not 4: {out.stderr.strip()[:200]}"]
    report = json.loads(out.stdout)
    d = dom(page)
    return page, report, d, problems_of(d, report, name) + ([] if d.lifelines else [f"{name}: no DOM read"])


def matrix_problems(neffbar, tmp):
    """`hypotheses --small --html`: one cell per scenario of the JSON, each of its verdict;
    #cell=K draws the chart of row K (its processes, its releases, its last step violating)."""
    page = os.path.join(tmp, "matrix.html")
    out = subprocess.run([neffbar, "hypotheses", "--small", "--json", "--html", page], capture_output=True, text=True)
    if out.returncode != 0:
        return [f"matrix: hypotheses exited {out.returncode}: {out.stderr.strip()[:200]}"]
    rows = json.loads(out.stdout)
    with open(page, encoding="utf-8") as f:
        text = f.read()
    cells = re.findall(r'<td class="v-([A-Z_]+)" data-cell="([0-9]+)"', text)
    bad = []
    if sorted(int(k) for _, k in cells) != list(range(len(rows))):
        bad.append(f"matrix: {len(cells)} cells for {len(rows)} scenarios")
    bad += [f"matrix: cell {k} is {v}, its row {rows[int(k)]['verdict']}" for v, k in cells if rows[int(k)]["verdict"] != v][:3]
    charts = json.loads(re.search(r'<script type="application/json" id="charts">(.*?)</script>', text, re.S).group(1))
    k = next(iter(charts), None)
    if k is None:
        return bad + ["matrix: no failing cell links to a chart"]
    d, want = dom(page, "#cell=" + k), charts[k]
    if len(d.lifelines) != len(want["procs"]) or sorted(d.arrows) != sorted(map(tuple, want["releases"])):
        bad.append(f"matrix #cell={k}: {len(d.lifelines)} lifelines, {len(d.arrows)} arrows; "
                   f"want {len(want['procs'])} and {len(want['releases'])}")
    if d.violating != [len(want["entries"]) - 1]:
        bad.append(f"matrix #cell={k}: violating marks {d.violating}")
    return bad


class ReportDom(html.parser.HTMLParser):
    """What out/report.html shows: its sections, the rows of each table by class, the
    charts, the links and the embedded grid."""

    def __init__(self, text):
        super().__init__()
        self.sections, self.rows, self.charts, self.links, self.frames = [], {}, 0, [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(a.get("id"))
        elif tag == "tr" and a.get("class"):
            self.rows.setdefault(a["class"], []).append(a)
        elif tag == "svg" and "chart" in a.get("class", "").split():
            self.charts += 1
        elif tag == "a" and not a.get("href", "#").startswith("#"):
            self.links.append(a["href"])
        elif tag == "iframe":
            self.frames.append(a.get("src"))


def report_problems(neffbar, tmp):
    """`scripts/campaign.py page` on a campaign's files (the scripts' self-test's fake
    out/, the real matrix grid): in Chromium's DOM, a row per step, lowering, fuzz
    target and operator of the files, a chart per benchmark, every link to a file that
    exists, the grid embedded; the screenshot is not blank."""
    from lib import bench_history
    from fakes import campaign_out
    out = campaign_out(os.path.join(tmp, "campaign"))
    made = subprocess.run([neffbar, "hypotheses", "--small", "--json", "-o", os.path.join(out, "hypotheses.json"),
                           "--html", os.path.join(out, "hypotheses.html")], capture_output=True, text=True)
    page = subprocess.run([sys.executable, os.path.join(SCRIPTS, "campaign.py"), "page", out], capture_output=True, text=True)
    if made.returncode or page.returncode:
        return [f"report: hypotheses exit {made.returncode}, campaign.py page exit {page.returncode}: {page.stderr.strip()[:200]}"]
    d = ReportDom(chromium("--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.join(out, "report.html")))
    with open(os.path.join(out, "hypotheses.json")) as f:
        lowerings = {r["lowering"] for r in json.load(f)}
    with open(os.path.join(out, "mutate-campaign", "score.json")) as f:
        operators = json.load(f)["per_operator"]
    with open(os.path.join(out, "fuzz", "summary.tsv")) as f:
        targets = [line.split("\t")[0] for line in f.read().split("\n")[1:] if line]
    benches = bench_history.all_names(bench_history.load(os.path.join(out, "bench-history", "history.jsonl")))
    bad = []
    if d.sections != ["steps", "matrix", "coverage", "fuzzing", "mutation", "benchmarks"]:
        bad.append(f"report: sections {d.sections}")
    if len(d.rows.get("lowering", [])) != len(lowerings):
        bad.append(f"report: {len(d.rows.get('lowering', []))} lowering rows for {len(lowerings)} lowerings")
    if [r["data-target"] for r in d.rows.get("target", [])] != targets:
        bad.append(f"report: fuzz rows {[r['data-target'] for r in d.rows.get('target', [])]}, targets {targets}")
    shown = {r["data-operator"]: {"killed": int(r["data-killed"]), "counted": int(r["data-counted"])} for r in d.rows.get("operator", [])}
    if shown != operators:
        bad.append(f"report: operators {shown}, score.json {operators}")
    if d.charts != len(benches):
        bad.append(f"report: {d.charts} benchmark charts for {len(benches)} benchmarks")
    broken = [h for h in d.links + d.frames if not os.path.exists(os.path.join(out, h))]
    if broken or d.frames != ["hypotheses.html"]:
        bad.append(f"report: links to nothing {broken[:3]}, frames {d.frames}")
    png = os.path.join(tmp, "report.png")
    chromium("--hide-scrollbars", "--window-size=1100,900", f"--screenshot={png}", "file://" + os.path.join(out, "report.html"))
    _, _, rows, bpp = png_pixels(png)
    if len({bytes(r[i:i + 3]) for r in rows[::7] for i in range(0, len(r), bpp * 7)}) < 4:
        bad.append("report: the screenshot is blank")
    return bad


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    neffbar, failures = argv[1], []
    with tempfile.TemporaryDirectory() as tmp:
        # 2x2: every process unfolded.
        page, report, d, bad = check_page(neffbar, tmp, ["--chips", "2", "--leaders", "2", "--host-cc"], "2x2")
        failures += bad
        if page:
            if any(f for _, f in d.lifelines) or d.folds:
                failures.append("2x2: a small system opens folded")
            if not d.arrows:
                failures.append("2x2: no arrow at all (nothing to check the releases on)")
            # The teeth: a wrong arrow planted in the page's data fails the same check.
            with open(page, encoding="utf-8") as f:
                text = f.read()
            m = re.search(r'(<script type="application/json" id="data">)(.*?)(</script>)', text, re.S)
            data = json.loads(m.group(2))
            a, b = data["releases"][0]
            data["releases"][0] = [(a + 1) % b if (a + 1) % b != a else 0, b]
            planted = os.path.join(tmp, "planted.html")
            with open(planted, "w", encoding="utf-8") as f:
                f.write(text[:m.start(2)] + json.dumps(data).replace("<", "\\u003c") + text[m.end(2):])
            if not problems_of(dom(planted), report, "planted"):
                failures.append("a planted wrong arrow passed the DOM check")
            png = os.path.join(tmp, "2x2.png")
            chromium("--hide-scrollbars", "--window-size=900,700", f"--screenshot={png}", "file://" + page)
            _, _, rows, bpp = png_pixels(png)
            colours = {bytes(r[i:i + 3]) for r in rows[::7] for i in range(0, len(r), bpp * 7)}
            if len(colours) < 4:
                failures.append(f"2x2: the screenshot is blank ({len(colours)} colours)")
        # 64x4: folded by chip, the violation's processes shown; a group unfolds.
        page, report, d, bad = check_page(neffbar, tmp, ["--chips", "64", "--leaders", "4", "--host-cc", "--lowering",
                                                          "hierarchical"], "64x4")
        failures += bad
        if page:
            shown = [n for n, f in d.lifelines if not f]
            if not d.folds or len(shown) >= len(d.lifelines) // 2:
                failures.append(f"64x4: opens with {len(shown)} of {len(d.lifelines)} lifelines shown, {len(d.folds)} folds")
            culprit = report["counterexample"]["trace"][-1]["process"]
            if culprit not in shown:
                failures.append(f"64x4: the culprit {culprit} is folded")
            group, members = next(iter(d.folds.items()), (None, 0))
            if group is not None:
                u = dom(page, "#unfold=" + group)
                now = [n for n, f in u.lifelines if not f]
                if group in u.folds or len(now) != len(shown) + members:
                    failures.append(f"64x4: #unfold={group} shows {len(now)} lifelines, want {len(shown)} + {members}")
                failures += problems_of(u, report, f"64x4 #unfold={group}")
        failures += matrix_problems(neffbar, tmp)
        failures += report_problems(neffbar, tmp)
    for f in failures:
        print("chart in chromium: FAILED: " + f)
    print("chart in chromium: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
