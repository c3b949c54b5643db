"""DIR/report.md and DIR/score.json: the score per operator, file and group, each
survivor with its diff."""
import difflib
import json
import re


def diff(m):
    return "".join(difflib.unified_diff([m["old"] + "\n"], [m["new"] + "\n"],
                                        f"a/{m['file']}:{m['line']}", f"b/{m['file']}:{m['line']}", n=0))


def tally(rows, key):
    """{key: [killed, counted]} of rows grouped by key(result), sorted by key: the one
    count behind report.md's tables and score.json."""
    out = {}
    for r in sorted(rows, key=key):
        out.setdefault(key(r), [0, 0])
        out[key(r)][0] += r["status"] == "killed"
        out[key(r)][1] += 1
    return out


def score_rows(counts):
    """Markdown rows `| key | killed | counted | score |` of a tally()."""
    return [f"| {k} | {killed} | {n} | {100.0 * killed / n:.0f} % |" for k, (killed, n) in counts.items()]


def report(out, mutants, results, equivalent, groups, summary=None):
    by_id = {m["id"]: m for m in mutants}
    rows = [r for r in results if r["id"] in by_id]
    # A timed-out mutant is neither killed nor survived: the machine's load can time a
    # group out as well as the mutant can hang it.  It is listed apart, not scored.
    counted = [r for r in rows if r["status"] in ("killed", "survived") and r["id"] not in equivalent]
    killed = [r for r in counted if r["status"] == "killed"]
    survivors = [r for r in counted if r["status"] == "survived"]
    timeouts = [r for r in rows if r["status"] == "timeout"]
    score = 100.0 * len(killed) / len(counted) if counted else 0.0
    lines = ["# Mutation testing of core/ and scripts/ (scripts/mutate)", ""] + ([summary, ""] if summary else []) + [
             f"{len(rows)} mutants run: {len(killed)} killed, {len(survivors)} survived, "
             f"{len(timeouts)} timed out (not scored), "
             f"{sum(r['status'] == 'stillborn' for r in rows)} stillborn (did not compile), "
             f"{sum(m['id'] in equivalent for m in mutants)} more of the catalogue listed as equivalent "
             f"(scripts/mutate.equivalent, not run).", "",
             f"**Score: {score:.1f} %** of non-equivalent mutants killed ({len(killed)}/{len(counted)}).", "",
             "## Per operator", "", "| operator | killed | counted | score |", "|---|---|---|---|"]
    per_op, per_file = tally(counted, lambda r: r["op"]), tally(counted, lambda r: r["file"])
    lines += score_rows(per_op)
    lines += ["", "## Per file", "", "| file | killed | counted | score |", "|---|---|---|---|"]
    lines += score_rows(per_file)
    lines += ["", "## Per test group", "",
              "Mutants each group killed; without --all-groups a mutant is counted for the first group that "
              "failed (groups run in the order below).", "", "| group | killed |", "|---|---|"]
    for g in ["build"] + groups:
        lines.append(f"| {g} | {sum(g in r['killed_by'] for r in killed)} |")
    for title, items in ((f"Survivors ({len(survivors)})", survivors), (f"Timed out ({len(timeouts)})", timeouts)):
        lines += ["", f"## {title}", ""]
        for r in items:
            m = by_id[r["id"]]
            lines += [f"### {r['id']}  {m['file']}:{m['line']}  ({m['op']})", "", "```diff", diff(m).rstrip(), "```", ""]
            if r.get("switched") and not r.get("tests"):
                lines += ["No test executes this line (the switched build's trace): nothing was run.", ""]
            elif r.get("tests"):  # --since's selection: the tests it was run against
                suites = {}
                for n in r["tests"]:
                    suites[re.split(r"[./]", n)[0]] = suites.get(re.split(r"[./]", n)[0], 0) + 1
                seen = "that execute the line" if r.get("switched") else f"that can see {m['file']}"
                lines += [f"Run against {len(r['tests'])} tests (the tests {seen}): " +
                          ", ".join(f"{k} x{v}" if v > 1 else k for k, v in sorted(suites.items())) + ".", ""]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    # The same counts for a program (scripts/campaign.py page draws them): {killed, counted}
    # in all, per operator and per file.
    (out / "score.json").write_text(json.dumps({
        "killed": len(killed), "counted": len(counted), "timeouts": len(timeouts),
        "per_operator": {k: {"killed": a, "counted": n} for k, (a, n) in per_op.items()},
        "per_file": {k: {"killed": a, "counted": n} for k, (a, n) in per_file.items()}}, indent=1) + "\n")
    return score, len(killed), len(counted), survivors
