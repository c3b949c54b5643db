"""The hypothesis matrix as `neffbar hypotheses --json` writes it, read for the campaign:
its rows checked, and their counts as scripts/run's summary shows them (campaign.py
matrix) and the campaign's page (campaign_page.py)."""
import os
import sys
from collections import Counter

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: lib's parent
from lib.strict_io import BadInput, brief, read_json  # noqa: E402


def matrix_rows(path):
    """The rows of a `neffbar hypotheses --json` file, each checked to have a string
    "verdict" and "lowering"."""
    rows = read_json(path)
    if not isinstance(rows, list) or not rows:
        raise BadInput(path, "expected a non-empty list of scenarios (neffbar hypotheses --json)")
    for i, r in enumerate(rows):
        for key in ("verdict", "lowering"):
            if not isinstance(r, dict) or not isinstance(r.get(key), str) or not r[key]:
                raise BadInput(path, f"[{i}].{key}: expected a string, got {brief(r.get(key) if isinstance(r, dict) else r)}")
    return rows


def matrix_summary(rows):
    """The lines scripts/run puts on its summary: the verdict counts, then the count of
    each (lowering, verdict), both sorted by name."""
    verdicts = Counter(r["verdict"] for r in rows)
    lines = [f"{len(rows)} scenarios: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))]
    by_lowering = Counter((r["lowering"], r["verdict"]) for r in rows)
    lines += [f"- {low} {v}: {n}" for (low, v), n in sorted(by_lowering.items())]
    return lines
