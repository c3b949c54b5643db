"""The report of the benchmark history (scripts/bench-history): DIR/index.html, a chart
per benchmark (time/floor and instructions over the commits, change points marked), and
DIR/summary.md.  No third-party modules: the charts are SVG written here."""
import html
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: lib's parent
from lib import bench_history as bh  # noqa: E402
from lib.strict_io import write_atomic  # noqa: E402

COLOR_TIME, COLOR_COUNT, COLOR_CHANGE = "#1f77b4", "#ff7f0e", "#d62728"
# The change labels of one chart, one line each kind (bench_history.changes' kinds).
LABEL_LINE = {"time": 0, "instructions": 1, "peak bytes": 2, "allocations": 3}


CHART = (720, 240, 60, 70, 20, 60)  # an svg_chart's width, height, and its plot's left, right, top, bottom margins


def svg_chart(records, name, found):
    """One chart: time/floor (median, IQR whiskers; left axis) and instructions (right
    axis), commits on the x axis, change points as red dashed lines."""
    w, h, left, right, top, bottom = CHART
    n = len(records)
    xs = [left + (w - left - right) * (i + 0.5) / max(n, 1) for i in range(n)]
    med, lo, hi, cnt = [], [], [], []
    for r in records:
        s = bh.ratios(r, name)
        med.append(statistics.median(s) if s else None)
        lo.append(bh.quantile(s, 0.25) if s else None)
        hi.append(bh.quantile(s, 0.75) if s else None)
        cnt.append(r["benchmarks"].get(name, {}).get("instructions"))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" class="chart" '
             f'data-benchmark="{html.escape(name)}">',
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
             f'<rect x="{left}" y="{top}" width="{w - left - right}" height="{h - top - bottom}" fill="none" stroke="#999"/>']
    parts += time_marks(xs, med, lo, hi) + count_marks(xs, cnt) + change_marks(xs, found) + commit_labels(xs, records)
    parts.append("</svg>")
    return "\n".join(parts)


def y_scale(lo_v, hi_v):
    """The plot's y of a value, lo_v at its bottom and hi_v at its top."""
    _, h, _, _, top, bottom = CHART
    span = (hi_v - lo_v) or abs(hi_v) or 1.0
    return lambda v: top + (h - top - bottom) * (1 - (v - lo_v) / span)


def polyline(pts, color, width, dash=""):
    """A line through two points or more (none through fewer)."""
    if len(pts) < 2:
        return []
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return [f'<polyline fill="none" stroke="{color}" stroke-width="{width}"{dashes} points="'
            + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>']


def axis(values, low, high):
    """The bounds of an axis (the values' least times low, greatest times high) and its scale."""
    vmin, vmax = min(values) * low, max(values) * high
    return vmin, vmax, y_scale(vmin, vmax)


def time_marks(xs, med, lo, hi):
    """The time/floor series (left axis): the medians' line, IQR whiskers and dots."""
    _, h, left, _, top, bottom = CHART
    parts = []
    present = [v for v in lo + hi if v is not None]
    if not present:
        return parts
    vmin, vmax, y = axis(present, 0.95, 1.05)
    for v in (vmin, vmax):
        parts.append(f'<text x="{left - 4}" y="{y(v) + 4:.1f}" font-size="10" text-anchor="end">{v:.3g}</text>')
    parts.append(f'<text x="12" y="{top + (h - top - bottom) / 2:.1f}" font-size="10" '
                 f'transform="rotate(-90 12 {top + (h - top - bottom) / 2:.1f})" text-anchor="middle">time / floor</text>')
    parts += polyline([(xs[i], y(m)) for i, m in enumerate(med) if m is not None], COLOR_TIME, "2.5")
    for i, m in enumerate(med):
        if m is None:
            continue
        parts.append(f'<line x1="{xs[i]:.1f}" x2="{xs[i]:.1f}" y1="{y(lo[i]):.1f}" y2="{y(hi[i]):.1f}" '
                     f'stroke="{COLOR_TIME}" stroke-width="2"/>')
        parts.append(f'<circle cx="{xs[i]:.1f}" cy="{y(m):.1f}" r="5" fill="{COLOR_TIME}"/>')
    return parts


def count_marks(xs, cnt):
    """The instructions series (right axis): a dashed line and squares."""
    w, _, _, right, _, _ = CHART
    parts = []
    counts = [c for c in cnt if c]
    if not counts:
        return parts
    cmin, cmax, y = axis(counts, 0.98, 1.02)
    for v in (cmin, cmax):
        parts.append(f'<text x="{w - right + 4}" y="{y(v) + 4:.1f}" font-size="10" fill="{COLOR_COUNT}">{v:.4g}</text>')
    pts = [(xs[i], y(c)) for i, c in enumerate(cnt) if c]
    parts += polyline(pts, COLOR_COUNT, "2", dash="6 3")
    for a, b in pts:
        parts.append(f'<rect x="{a - 4:.1f}" y="{b - 4:.1f}" width="8" height="8" fill="{COLOR_COUNT}"/>')
    return parts


def change_marks(xs, found):
    """A red dashed line between the commits of each change point, labelled with its kind
    and shift."""
    _, h, _, _, top, bottom = CHART
    parts = []
    for c in found:
        x = (xs[c["index"] - 1] + xs[c["index"]]) / 2
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{h - bottom}" stroke="{COLOR_CHANGE}" '
                     f'stroke-width="3" stroke-dasharray="8 4" class="change"/>')
        parts.append(f'<text x="{x + 3:.1f}" y="{top + 12 + 12 * LABEL_LINE.get(c["kind"], 0)}" font-size="11" '
                     f'fill="{COLOR_CHANGE}">{c["kind"]} {100 * c["shift"]:+.1f} %</text>')
    return parts


def commit_labels(xs, records):
    """The x axis: each record's commit (* for an uncommitted tree)."""
    _, h, _, _, _, bottom = CHART
    parts = []
    for i, r in enumerate(records):
        label = r["commit"][:8] + ("*" if r.get("tree") == "dirty" else "")
        parts.append(f'<text x="{xs[i]:.1f}" y="{h - bottom + 14}" font-size="10" text-anchor="end" '
                     f'transform="rotate(-40 {xs[i]:.1f} {h - bottom + 14})">{html.escape(label)}</text>')
    return parts


def report(records, out_dir):
    """Writes out_dir/index.html (a chart per benchmark) and out_dir/summary.md; returns
    {name: change points}."""
    os.makedirs(out_dir, exist_ok=True)
    found = {name: bh.changes(records, name) for name in bh.all_names(records)}
    first, last = (records[0], records[-1]) if records else ({}, {})
    doc = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'><title>neffbar benchmark history</title>",
           "<style>body{font-family:sans-serif;margin:20px} .bench{margin-bottom:24px} "
           "h2{font-size:15px;margin:4px 0} .cp{color:#d62728}</style></head><body>",
           "<h1>neffbar benchmark history</h1>",
           f"<p>{len(records)} commits, {html.escape(first.get('commit', '')[:8])} .. "
           f"{html.escape(last.get('commit', '')[:8])}; machine: {html.escape(str(last.get('machine', {}).get('cpu', '?')))}. "
           f"<span style='color:{COLOR_TIME}'>&#9679; time / floor (median, IQR)</span>, "
           f"<span style='color:{COLOR_COUNT}'>&#9632; instructions per operation</span>, "
           f"<span class='cp'>- - change point</span> (windowed Mann-Whitney on time, p &lt; {bh.ALPHA}, shift &ge; "
           f"{100 * bh.MIN_SHIFT:.0f} %; instruction counts and memory exact, &ge; {bh.COUNT_SHIFT_PCT} %). * = uncommitted tree.</p>"]
    md = ["# neffbar benchmark history", "",
          f"{len(records)} commits; time is median cpu time / the floor's median in the same run; "
          f"instructions are per operation (callgrind). Change points: windowed Mann-Whitney on time "
          f"(window {bh.WINDOW}, p < {bh.ALPHA}, shift >= {100 * bh.MIN_SHIFT:.0f} %), exact on counts and memory "
          f"(>= {bh.COUNT_SHIFT_PCT} %; peak bytes and allocations are one operation's).", "",
          "| benchmark | last time/floor | last instructions | last peak bytes | change points |", "|---|---|---|---|---|"]
    for name, cps in found.items():
        doc.append(f"<div class='bench'><h2>{html.escape(name)}"
                   + "".join(f" <span class='cp'>[{c['kind']} {100 * c['shift']:+.1f} % at {c['commit'][:8]}]</span>" for c in cps)
                   + "</h2>")
        doc.append(svg_chart(records, name, cps))
        doc.append("</div>")
        s = bh.ratios(last, name) if last else None
        n = last.get("benchmarks", {}).get(name, {}).get("instructions") if last else None
        md.append(f"| {name} | {statistics.median(s):.3f} |" if s else f"| {name} | - |")
        md[-1] += f" {n:,.0f} |" if n else " - |"
        peak = last.get("benchmarks", {}).get(name, {}).get("max_bytes_used") if last else None
        md[-1] += f" {peak:,.0f} |" if peak is not None else " - |"
        md[-1] += " " + ("; ".join(f"{c['kind']} {100 * c['shift']:+.1f} % at `{c['commit'][:8]}`" for c in cps) or "none") + " |"
    doc.append("</body></html>")
    write_atomic(os.path.join(out_dir, "index.html"), "\n".join(doc))
    write_atomic(os.path.join(out_dir, "summary.md"), "\n".join(md) + "\n")
    return found
