"""benchmark-action/github-action-benchmark with external-data-json-path and a custom*
tool, simulated as its v1.22.0 sources have it: the input checks, the data file, the
previous suite, the summary and the alerts (the same messages)."""
import json
import math
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.evaluator import pretty_json  # noqa: E402
from lib.rehearsal.simulation import StepFailed  # noqa: E402
from lib.rehearsal.values import js_number, to_num  # noqa: E402

GAB_DEFAULTS = {"name": "Benchmark", "gh-pages-branch": "gh-pages", "benchmark-data-dir-path": "dev/bench",
                "auto-push": "false", "skip-fetch-gh-pages": "false", "comment-always": "false",
                "summary-always": "false", "save-data-file": "true", "comment-on-alert": "false",
                "alert-threshold": "200%", "fail-on-alert": "false", "go-force-package-suffix": "false"}
GAB_TOOLS = ("cargo", "go", "benchmarkjs", "benchmarkluau", "pytest", "googlecpp", "catch2", "julia", "jmh",
             "benchmarkdotnet", "customBiggerIsBetter", "customSmallerIsBetter")
TIME_UNITS = [["s", "ms", "us", "ns"], ["s/iter", "ms/iter", "us/iter", "ns/iter"], ["ops/ns", "ops/us", "ops/ms", "ops/s"]]


def gab_bool(ctx, name):
    v = ctx.input(name)
    if not v:
        return False
    if v not in ("true", "false"):
        raise StepFailed(f"'{name}' input must be boolean value 'true' or 'false' but got '{v}'")
    return v == "true"


def gab_percent(ctx, name):
    v = ctx.input(name)
    if not v:
        return None
    if not v.endswith("%"):
        raise StepFailed(f"'{name}' input must ends with '%' for percentage value (e.g. '200%')")
    m = re.match(r"\s*[+-]?(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Infinity)", v[:-1])
    if not m:
        raise StepFailed(f"Specified value '{v[:-1]}' in '{name}' input cannot be parsed as float number")
    return float(m.group(0)) / 100


def js_string(v):
    """String(v) as JavaScript spells it (zod's coerce.string)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, list):
        return ",".join("" if x is None else js_string(x) for x in v)
    if isinstance(v, dict):
        return "[object Object]"
    return v


def js_to_number(v):
    """Number(v) (zod's coerce.number)."""
    if isinstance(v, list):
        return to_num(js_string(v)) if len(v) <= 1 else math.nan
    if isinstance(v, dict):
        return math.nan
    if isinstance(v, str):
        s = v.strip()
        if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?Infinity|0[xX][0-9a-fA-F]+|", s):
            return to_num(s.replace("Infinity", "inf")) if "Infinity" in s else to_num(s)
        return math.nan
    return to_num(v)


def gab_results(path, text):
    """customSmallerIsBetter/customBiggerIsBetter's file: zod's BenchmarkResults."""
    def fail(what):
        raise StepFailed("Output file for 'custom-(bigger|smaller)-is-better' must be JSON file containing an array "
                         f"of entries in BenchmarkResult format: {what}")
    try:
        doc = json.loads(text)
    except ValueError as e:
        fail(f"Unexpected token in JSON: {e}")
    if not isinstance(doc, list):
        fail("Expected array, received " + ("null" if doc is None else type(doc).__name__))
    out = []
    for i, e in enumerate(doc):
        if not isinstance(e, dict):
            fail(f"[{i}]: Expected object")
        value = js_to_number(e.get("value")) if "value" in e else math.nan
        if isinstance(value, float) and math.isnan(value):
            fail(f"[{i}].value: Expected number, received nan")
        r = {"name": js_string(e.get("name")) if "name" in e else "undefined", "value": value}
        if "range" in e:
            r["range"] = js_string(e.get("range"))
        r["unit"] = js_string(e.get("unit")) if "unit" in e else "undefined"
        if "extra" in e:
            r["extra"] = js_string(e.get("extra"))
        out.append(r)
    return out


def gab_normalize(prev, cur):
    """normalizeBenchmarkResult: the current value in the previous unit (time units)."""
    if prev is None:
        return cur
    def canon(u):
        return u.strip().lower().replace("µs", "us").replace("μs", "us")
    value = cur["value"]
    for units in TIME_UNITS:
        p, c = canon(prev["unit"]), canon(cur["unit"])
        if p in units and c in units:
            value = cur["value"] * 1000 ** (units.index(p) - units.index(c))
            break
    out = dict(cur)
    out["value"] = value
    out["unit"] = prev["unit"] if value != cur["value"] else cur["unit"]
    return out


def gab_ratio(tool, prev, cur):
    if prev["value"] == 0 and cur["value"] == 0:
        return 1
    try:
        return prev["value"] / cur["value"] if tool == "customBiggerIsBetter" else cur["value"] / prev["value"]
    except ZeroDivisionError:
        return math.inf


def gab_float(n):
    if math.isinf(n):
        return ("+" if n > 0 else "-") + "\u221e"
    if float(n).is_integer():
        return str(int(n))
    return f"{n:.2f}" if n > 0.1 else js_number(n)


def gab_val(b):
    s = f"`{js_number(b['value'])}` {b['unit']}"
    return s + (f" (`{b['range']}`)" if b.get("range") else "")


def gab_table(header, cur, prev, rows):
    lines = header + [f"| Benchmark suite | Current: {cur['commit']['id']} | Previous: {prev['commit']['id']} | Ratio |",
                      "|-|-|-|-|"]
    return lines + rows


def gab_output_file(ctx):
    """The 'output-file-path' input's path, which must be a file."""
    out_path = ctx.path(ctx.input("output-file-path"))
    if not os.path.exists(out_path):
        raise StepFailed(f"Invalid value for 'output-file-path' input: Error: Cannot stat '{out_path}': "
                         f"Error: ENOENT: no such file or directory, stat '{out_path}'")
    if not os.path.isfile(out_path):
        raise StepFailed(f"Invalid value for 'output-file-path' input: Error: Specified path '{out_path}' is not a file")
    return out_path


def gab_config(ctx):
    """github-action-benchmark's inputs, validated as its src/config.ts does (the same
    messages); a dict of what the run needs."""
    tool = ctx.input("tool")
    bools = {n: gab_bool(ctx, n) for n in ("auto-push", "skip-fetch-gh-pages", "comment-always", "summary-always",
                                           "save-data-file", "comment-on-alert", "fail-on-alert")}
    alert_t = gab_percent(ctx, "alert-threshold")
    gab_bool(ctx, "go-force-package-suffix")
    fail_t = gab_percent(ctx, "fail-threshold")
    max_items = ctx.input("max-items-in-chart")
    if max_items and not re.fullmatch(r"\d+", max_items):
        raise StepFailed(f"'max-items-in-chart' input must be unsigned integer but got '{max_items}'")
    if tool not in GAB_TOOLS:
        raise StepFailed(f"Invalid value '{tool}' for 'tool' input. It must be one of {','.join(GAB_TOOLS)}")
    out_path = gab_output_file(ctx)
    name = ctx.input("name")
    if not ctx.input("gh-pages-branch"):
        raise StepFailed("Branch value must not be empty for 'gh-pages-branch' input")
    if not name:
        raise StepFailed("Name must not be empty")
    token = ctx.input("github-token")
    for flag, todo in (("auto-push", "to push GitHub pages branch to remote"),
                       ("comment-always", "to send commit comment"),
                       ("comment-on-alert", "to send commit comment on alert")):
        if bools[flag] and not token:
            raise StepFailed(f"'{flag}' is enabled but 'github-token' is not set. Please give API token {todo}")
    if alert_t is None:
        raise StepFailed("'alert-threshold' input must not be empty")
    if fail_t and alert_t > fail_t:
        raise StepFailed(f"'alert-threshold' value must be smaller than 'fail-threshold' value but got "
                         f"{js_number(alert_t)} > {js_number(fail_t)}")
    cc = [x.strip() for x in ctx.input("alert-comment-cc-users").split(",") if x.strip()]
    for u in cc:
        if not u.startswith("@"):
            raise StepFailed(f"User name in 'alert-comment-cc-users' input must start with '@' but got '{u}'")
    ext = ctx.input("external-data-json-path")
    if ext and bools["auto-push"]:
        raise StepFailed("auto-push must be false when external-data-json-path is set since this action reads/writes "
                         "the given JSON file and never pushes to remote")
    ext_path = ctx.path(ext) if ext else None
    if ext_path and os.path.isdir(ext_path):
        raise StepFailed(f"Invalid value for 'external-data-json-path' input: Error: Specified path '{ext_path}' "
                         "must be file but it is actually directory")
    if max_items and int(max_items) <= 0:
        raise StepFailed(f"'max-items-in-chart' input value must be one or more but got {int(max_items)}")
    if not ext_path:
        raise StepFailed("github-action-benchmark without external-data-json-path writes to the gh-pages branch of the "
                         "remote: not rehearsable")
    if tool not in ("customSmallerIsBetter", "customBiggerIsBetter"):
        raise StepFailed(f"github-action-benchmark's tool '{tool}': its output parser is not simulated "
                         "(customSmallerIsBetter and customBiggerIsBetter are)")
    return {"tool": tool, "bools": bools, "alert_t": alert_t, "fail_t": alert_t if fail_t is None else fail_t,
            "max_items": int(max_items) if max_items else None, "out_path": out_path, "name": name, "token": token,
            "cc": cc, "ext_path": ext_path}


def gab_append(ctx, c, bench):
    """The action's writeBenchmarkToExternalJson: the data file loaded (missing or not JSON:
    a warning and empty data), this run appended under its name, trimmed to
    max-items-in-chart, written back.  Returns (previous suite or None, the suite appended)."""
    r, ext_path, name = ctx.r, c["ext_path"], c["name"]
    try:
        with open(ext_path, encoding="utf-8") as f:
            data = json.loads(f.read())
    except (OSError, ValueError) as e:
        why = f"Error: ENOENT: no such file or directory, open '{ext_path}'" if isinstance(e, FileNotFoundError) \
            else f"SyntaxError: {e}"
        ctx.warning(f"Could not find external JSON file for benchmark data at {ext_path}. Using empty default: {why}")
        data = {"lastUpdate": 0, "repoUrl": "", "entries": {}}
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        raise StepFailed(f"TypeError: the data file {ext_path} has no 'entries' object")
    data["lastUpdate"] = int(time.time() * 1000)
    data["repoUrl"] = f"{r.server_url}/{r.repository}"
    prev, cur = None, bench
    if name not in data["entries"]:
        data["entries"][name] = [bench]
    else:
        suites = data["entries"][name]
        for e in reversed(suites):
            if (e.get("commit") or {}).get("id") != bench["commit"]["id"]:
                prev = e
                break
        if prev is not None:
            cur = dict(bench, benches=[gab_normalize(next((p for p in prev["benches"] if p.get("name") == b["name"]), None), b)
                                       for b in bench["benches"]])
        suites.append(cur)
        if c["max_items"] and len(suites) > c["max_items"]:
            del suites[:len(suites) - c["max_items"]]
    if c["bools"]["save-data-file"]:
        os.makedirs(os.path.dirname(ext_path), exist_ok=True)
        with open(ext_path, "w", encoding="utf-8") as f:
            f.write(pretty_json(data))
    return prev, cur


def gab_report(ctx, c, prev, cur):
    """The action's handleComment, handleSummary and handleAlert, in its order: the
    comparison table into the step summary (summary-always), and only with
    comment-on-alert or fail-on-alert a comparison: a warning per alert, the step
    failed above fail-threshold (fail-on-alert)."""
    r, tool, name, bools = ctx.r, c["tool"], c["name"], c["bools"]
    alert_t, fail_t, commit = c["alert_t"], c["fail_t"], cur["commit"]
    footer = (f"This comment was automatically generated by [workflow]({r.server_url}/{r.repository}/actions?query="
              f"workflow%3A{_uri(r.workflow_name)}) using [github-action-benchmark]"
              "(https://github.com/marketplace/actions/continuous-benchmark).")

    def previous(b):
        return next((x for x in prev["benches"] if x.get("name") == b["name"]), None)

    def row(b, p, ratio):
        return f"| `{b['name']}` | {gab_val(b)} | {gab_val(p)} | `{gab_float(ratio)}` |"

    if bools["comment-always"]:
        ctx.info(f"would post the comparison as a commit comment on {commit['id']} (comment-always; offline: not posted)")
    if bools["summary-always"]:
        rows = [row(b, previous(b), gab_ratio(tool, previous(b), b)) if previous(b) else f"| `{b['name']}` | {gab_val(b)} | | |"
                for b in cur["benches"]]
        ctx.summary += "\n".join(gab_table([f"# {name}", "", "", ""], cur, prev, rows) + ["", "", "", footer])
    if not (bools["comment-on-alert"] or bools["fail-on-alert"]):
        return
    alerts = []
    for b in cur["benches"]:
        p = previous(b)
        ratio = gab_ratio(tool, p, b) if p else None
        if p and ratio > alert_t:
            ctx.warning(f"Performance alert! Previous value was {js_number(p['value'])} and current value is "
                        f"{js_number(b['value'])}. It is {js_number(ratio)}x worse than previous exceeding a "
                        f"ratio threshold {js_number(alert_t)}")
            alerts.append((b, p, ratio))
    if not alerts:
        return
    bench_text = "" if name == "Benchmark" else f" **'{name}'**"
    body = gab_table(["# :warning: **Performance Alert** :warning:" if alert_t else "# Performance Report", "",
                      f"Possible performance regression was detected for benchmark{bench_text}.",
                      "Benchmark result of this commit is worse than the previous benchmark result exceeding "
                      f"threshold `{gab_float(alert_t)}`.", ""], cur, prev, [row(b, p, x) for b, p, x in alerts])
    body += ["", footer] + (["", f"CC: {' '.join(c['cc'])}"] if c["cc"] else [])
    message = "\n".join(body)
    if bools["comment-on-alert"]:
        ctx.info(f"would post the alert as a commit comment on {commit['id']} (comment-on-alert; offline: not posted)")
    failures = [a for a in alerts if a[2] > fail_t]
    if bools["fail-on-alert"] and failures:
        if fail_t != alert_t:
            message = (f"{len(failures)} of {len(alerts)} alerts exceeded the failure threshold "
                       f"`{gab_float(fail_t)}` specified by fail-threshold input:\n\n{message}")
        raise StepFailed(message)


def act_benchmark(ctx):
    """benchmark-action/github-action-benchmark with external-data-json-path (v1.22.0,
    src/write.ts writeBenchmark): read the output file, append to the data file, then
    summary and alerts only when there is a previous suite of another commit."""
    c = gab_config(ctx)
    with open(c["out_path"], encoding="utf-8", errors="replace") as f:
        text = f.read()
    benches = gab_results(c["out_path"], text)
    if not benches:
        raise StepFailed(f"No benchmark result was found in {c['out_path']}. Benchmark output was '{text}'")
    bench = {"commit": ctx.r.payload_commit(c["token"]), "date": int(time.time() * 1000), "tool": c["tool"],
             "benches": benches}
    prev, cur = gab_append(ctx, c, bench)
    if prev is None:
        ctx.info("no previous benchmark result: no comparison, summary or alert (the first entry of the series)")
    else:
        gab_report(ctx, c, prev, cur)
    ctx.info("github-action-benchmark was run successfully!")


def _uri(s):
    from urllib.parse import quote
    return quote(s, safe="-_.!~*'()")
