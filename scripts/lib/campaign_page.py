"""out/report.html: the campaign (scripts/run) as one page, drawn from the files the
Markdown summary and the steps write, each read here and nowhere recomputed:

  out/steps.tsv                      the summary's step table (step, result, detail)
  out/hypotheses.json, .html         the matrix's verdict counts (hypothesis_matrix.py),
                                     its grid embedded (neffbar hypotheses --html)
  out/coverage/folders.txt,          line coverage per folder and per file (scripts/coverage),
  out/coverage/files.tsv             each file linked to its page of the llvm-cov report
  out/fuzz/summary.tsv               execs, exec/s and corpus growth per target (scripts/fuzz)
  out/mutate-campaign/score.json     the mutation score per operator (scripts/mutate)
  out/bench-history/history.jsonl    a chart per benchmark (bench_report.svg_chart)

A file a step did not write leaves its section saying so; a file that cannot be read
leaves its section naming the file and what is wrong.  No network: inline SVG and CSS."""
from collections import Counter
import html
import os
import re
import sys
from urllib.parse import quote

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: lib's parent
from lib import bench_history as bh  # noqa: E402
from lib import bench_report  # noqa: E402
from lib.hypothesis_matrix import matrix_rows, matrix_summary  # noqa: E402
from lib.strict_io import BadInput, read_json, read_text, write_atomic  # noqa: E402

GOOD, BAD, FAINT = "#2ca02c", "#d62728", "#bbb"
STYLE = ("body{font-family:sans-serif;margin:20px;max-width:1100px} h2{margin-top:28px} "
         "table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px} "
         ".ok{color:" + GOOD + "} .FAIL{color:" + BAD + ";font-weight:bold} .below{color:#b8860b} "
         ".missing{color:#888;font-style:italic} iframe{width:100%;height:640px;border:1px solid #ccc}")


def esc(x):
    """x as HTML text; bytes a path could not decode (surrogates) shown as \\udcXX."""
    return html.escape(str(x).encode("utf-8", "backslashreplace").decode("utf-8"))


def href(rel):
    return esc(quote(rel, errors="surrogateescape"))


def present(path):
    """The file is there to read (a broken symlink or a loop is, and fails when read:
    its section then names the error, not "missing")."""
    return os.path.lexists(path)


def missing(section, path, why=None):
    """The line a section shows instead of its figure."""
    what = f"{esc(path)}: {esc(why)}" if why else f"not written in this campaign ({esc(path)} is missing)"
    return f"<p class='missing' data-section='{section}'>{what}</p>"


def link(out, rel, text):
    """A link to out/rel when it is a file, else the text alone (no link to nothing)."""
    return f"<a href='{href(rel)}'>{esc(text)}</a>" if os.path.isfile(os.path.join(out, rel)) else esc(text)


def tsv(path, columns, header=True):
    """The rows of a tab-separated file (its header line skipped), each of `columns`
    fields (the last keeps any further tab: a step's detail may hold one); a row is
    [line number, field...]."""
    lines = read_text(path).rstrip("\n").split("\n")
    rows = []
    for n, line in enumerate(lines[1:] if header else lines, 2 if header else 1):
        cells = line.rstrip("\r").split("\t", columns - 1)
        if len(cells) != columns:
            raise BadInput(path, f"line {n}: expected {columns} tab-separated fields, got {len(cells)}")
        rows.append([n] + cells)
    return rows


COUNT, RATE, SIGNED = re.compile(r"[0-9]+"), re.compile(r"[0-9]+(\.[0-9]+)?"), re.compile(r"-?[0-9]+")


def number(path, n, text, form=COUNT):
    """A field as a number, if it is spelled as `form` wants (a count by default): no
    nan, inf, exponent, "_" or sign that float() would take."""
    if not form.fullmatch(text.strip()):
        what = {COUNT: "a count", RATE: "a rate (digits, a decimal point)", SIGNED: "a whole number"}[form]
        raise BadInput(path, f"line {n}: expected {what}, got {text!r}")
    return float(text)


def bar(fraction, width=160, color=GOOD, label=""):
    """A horizontal bar, fraction of width filled (fraction clamped to 0..1), its label
    to the right."""
    f = max(0.0, min(1.0, fraction))
    return (f"<svg width='{width + 8 + 7 * len(label)}' height='14' class='bar' data-fraction='{f:.4f}'>"
            f"<rect width='{width}' height='12' fill='#eee'/><rect width='{width * f:.1f}' height='12' fill='{color}'/>"
            f"<text x='{width + 4}' y='11' font-size='11'>{esc(label)}</text></svg>")


# ------------------------------------------------------------------------ sections --
def steps(out):
    rows = tsv(os.path.join(out, "steps.tsv"), 3)
    body = "".join(f"<tr class='step'><td>{esc(a)}</td><td class='{esc(b)}'>{esc(b)}</td><td>{esc(c)}</td></tr>"
                   for _, a, b, c in rows)
    return f"<table id='steps'><tr><th>step</th><th>result</th><th>detail</th></tr>{body}</table>"


def matrix(out):
    rows = matrix_rows(os.path.join(out, "hypotheses.json"))
    count = Counter((r["lowering"], r["verdict"]) for r in rows)
    verdicts = sorted({v for _, v in count})
    table = "".join(f"<tr class='lowering'><td>{esc(low)}</td>" + "".join(f"<td>{count[low, v] or ''}</td>" for v in verdicts)
                    + "</tr>" for low in sorted({low for low, _ in count}))
    parts = [f"<p id='matrix-counts'>{esc(matrix_summary(rows)[0])}</p>",
             "<table id='matrix'><tr><th>lowering</th>" + "".join(f"<th>{esc(v)}</th>" for v in verdicts) + f"</tr>{table}</table>"]
    if os.path.isfile(os.path.join(out, "hypotheses.html")):
        parts.append("<p>Each cell is a scenario; a failing cell opens its shortest counterexample as a sequence chart "
                     f"({link(out, 'hypotheses.html', 'the grid on its own page')}).</p>"
                     "<iframe id='matrix-grid' src='hypotheses.html' title='the hypothesis matrix'></iframe>")
    else:
        grid = os.path.join(out, "hypotheses.html")
        parts.append(missing("matrix-grid", grid, "not a file" if present(grid) else None))
    return "".join(parts)


def coverage_pages(folder):
    """{core/...: the llvm-cov page of that file, relative to the report's folder}: the
    report names each page by the source's full path, whatever the build's spelling."""
    pages, root = {}, os.path.join(folder, "coverage")
    for top, _, names in os.walk(root):
        for name in names:
            if name.endswith(".html") and os.path.isfile(os.path.join(top, name)):
                rel = os.path.relpath(os.path.join(top, name), os.path.dirname(folder))
                path = os.path.normpath(os.path.join(top, name)).replace(os.sep, "/")
                at = path.rfind("/core/")
                if at >= 0:
                    pages[path[at + 1:-len(".html")]] = rel.replace(os.sep, "/")
    return pages


def covered_of(path, n, covered, total):
    """(covered, total) lines, counts with covered <= total."""
    c, t = number(path, n, covered), number(path, n, total)
    if c > t:
        raise BadInput(path, f"line {n}: {covered} lines covered of {total}")
    return c, t


def coverage(out):
    folder = os.path.join(out, "coverage")
    folders, files = os.path.join(folder, "folders.txt"), os.path.join(folder, "files.tsv")
    per_file = {}
    for n, f, covered, total in tsv(files, 3, header=False):
        c, t = covered_of(files, n, covered, total)
        per_file.setdefault(os.path.dirname(f), []).append((f, c, t))
    pages = coverage_pages(folder)
    rows = []
    for n, line in enumerate(read_text(folders).rstrip("\n").split("\n"), 1):
        # "  97.10 %    436 of   449 lines  core/cli"
        f = line.split()
        if len(f) != 7 or f[1] != "%" or f[3] != "of" or f[5] != "lines":
            raise BadInput(folders, f"line {n}: expected 'P % C of T lines FOLDER', got {line.strip()!r}")
        (covered, total), name = covered_of(folders, n, f[2], f[4]), f[6]
        items = "".join(
            f"<li class='file'>{bar(c / t if t else 0, 80, GOOD if c == t else '#b8860b', f'{100 * c / t:.1f} %' if t else '-')} "
            + (f"<a href='{href(pages[p])}'>{esc(p)}</a>" if p in pages else esc(p))
            + f" ({c:.0f} of {t:.0f})</li>"
            for p, c, t in sorted(per_file.get(name, []), key=lambda x: x[1] / x[2] if x[2] else 1))
        rows.append(f"<tr class='folder' data-folder='{esc(name)}'><td>{esc(name)}</td>"
                    f"<td>{bar(covered / total if total else 0, label=f'{100 * covered / total:.2f} %' if total else '-')}</td>"
                    f"<td>{covered:.0f} of {total:.0f}</td><td><details><summary>{len(per_file.get(name, []))} files"
                    f"</summary><ul>{items}</ul></details></td></tr>")
    return (f"<p>Lines of each folder (its own files) run by the fuzz corpora and regressions; "
            f"{link(out, 'coverage/index.html', 'the llvm-cov report')}, "
            "each file linked to its page there, lowest first.</p>"
            f"<table id='coverage'><tr><th>folder</th><th>lines</th><th></th><th>files</th></tr>{''.join(rows)}</table>")


def fuzzing(out):
    path = os.path.join(out, "fuzz", "summary.tsv")
    rows = []
    for n, target, execs, rate, before, after, new, crashes in tsv(path, 7):
        rows.append((target, number(path, n, execs), number(path, n, rate, RATE), number(path, n, before),
                     number(path, n, after), number(path, n, new, SIGNED), number(path, n, crashes)))
    top = max([r[2] for r in rows] + [1])
    most = max([r[4] for r in rows] + [1])
    body = "".join(
        f"<tr class='target' data-target='{esc(t)}'><td>{esc(t)}</td><td>{execs:,.0f}</td>"
        f"<td>{bar(rate / top, label=f'{rate:,.0f}')}</td>"
        f"<td>{bar(after / most, color='#1f77b4', label=f'{before:,.0f} -> {after:,.0f} ({new:+,.0f})')}</td>"
        f"<td class='{'FAIL' if crashes else 'ok'}'>{crashes:,.0f}</td></tr>"
        for t, execs, rate, before, after, new, crashes in rows)
    return ("<table id='fuzzing'><tr><th>target</th><th>execs</th><th>exec/s (all jobs)</th>"
            f"<th>corpus before -> after (new inputs)</th><th>crashes</th></tr>{body}</table>")


def mutation(out):
    path = os.path.join(out, "mutate-campaign", "score.json")
    s = read_json(path)
    if not tally(s):
        raise BadInput(path, "expected {killed, counted, per_operator} with 0 <= killed <= counted (whole numbers)")
    ops = s.get("per_operator")
    if not isinstance(ops, dict) or not all(tally(v) for v in ops.values()):
        raise BadInput(path, "per_operator: expected {operator: {killed, counted}} with 0 <= killed <= counted")
    if not ops:
        return f"<p class='missing' data-section='mutation'>{esc(path)}: no mutant scored</p>"
    body = "".join(
        f"<tr class='operator' data-operator='{esc(op)}' data-killed='{v['killed']}' data-counted='{v['counted']}'>"
        f"<td>{esc(op)}</td><td>{bar(v['killed'] / v['counted'] if v['counted'] else 0, label=score_label(v))}</td></tr>"
        for op, v in ops.items())
    total = f"{s['killed']} of {s['counted']} killed"
    return (f"<p id='mutation-total'>{esc(total)} ({link(out, 'mutate-campaign/report.md', 'each survivor and its diff')})</p>"
            f"<table id='mutation'><tr><th>operator</th><th>killed</th></tr>{body}</table>")


def tally(v):
    """v is {killed, counted, ...}: whole numbers (not booleans), 0 <= killed <= counted."""
    return (isinstance(v, dict) and all(type(v.get(k)) is int for k in ("killed", "counted"))
            and 0 <= v["killed"] <= v["counted"])


def score_label(v):
    return f"{v['killed']} of {v['counted']}"


def benchmarks(out):
    path = os.path.join(out, "bench-history", "history.jsonl")
    open(path, "rb").close()  # a loop or a dead link is named (load() takes it for no history)
    records = bh.load(path)
    if not records:
        return f"<p class='missing' data-section='benchmarks'>{esc(path)}: no records</p>"
    charts = "".join(f"<div class='bench'><h3>{esc(name)}</h3>{bench_report.svg_chart(records, name, bh.changes(records, name))}</div>"
                     for name in bh.all_names(records))
    return (f"<p>{len(records)} points; time / floor (median, IQR) and instructions per operation; change points "
            f"dashed red ({link(out, 'bench-history/index.html', 'the history on its own page')}).</p>{charts}")


# (id, title, drawing, the files under DIR it reads: one missing, the section says so)
SECTIONS = (("steps", "Steps", steps, ["steps.tsv"]),
            ("matrix", "The hypothesis matrix", matrix, ["hypotheses.json"]),
            ("coverage", "Coverage of core/", coverage, ["coverage/folders.txt", "coverage/files.tsv"]),
            ("fuzzing", "Fuzzing", fuzzing, ["fuzz/summary.tsv"]),
            ("mutation", "Mutation score per operator (the sample)", mutation, ["mutate-campaign/score.json"]),
            ("benchmarks", "Benchmark history", benchmarks, ["bench-history/history.jsonl"]))


def page(out, title):
    """The page's text; each section drawn from its file, or a line saying why not."""
    parts = ["<!DOCTYPE html>", f"<html><head><meta charset='utf-8'><title>{esc(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{esc(title)}</h1>", "<p>" + " · ".join(f"<a href='#{key}'>{esc(name)}</a>" for key, name, _, _ in SECTIONS) + "</p>"]
    for key, name, draw, files in SECTIONS:
        absent = [p for p in (os.path.join(out, f) for f in files) if not present(p)]
        try:
            body = missing(key, absent[0]) if absent else draw(out)
        except (BadInput, OSError) as e:
            if isinstance(e, BadInput):
                body = missing(key, e.where, e.what)
            else:  # as cli.run says an OSError: its file, its reason in lower case
                body = missing(key, e.filename or "?", (e.strerror or str(e)).lower())
        parts.append(f"<section id='{key}'><h2>{esc(name)}</h2>{body}</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write(out, title):
    """Writes out/report.html (whole or not at all); returns its path."""
    path = os.path.join(out, "report.html")
    write_atomic(path, page(out, title))
    return path
