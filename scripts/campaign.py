"""What scripts/run reads from the CLI's JSON (instead of parsing Markdown by column).

  python3 scripts/campaign.py matrix FILE     `neffbar hypotheses --json`'s rows: a first
                                              line "N scenarios: VERDICT n, ..." then one
                                              line "- LOWERING VERDICT: n" a combination
  python3 scripts/campaign.py get FILE KEY... the values of these keys of one JSON
                                              object (`neffbar check --json`), one a line
  python3 scripts/campaign.py page DIR        DIR/report.html: the campaign as one page,
                                              from DIR's data files (lib/campaign_page.py)

Exit 0 ok; 2 usage, or a FILE that is not what the command reads (one line naming the
file and what is wrong: not JSON, not a list of rows, a row without a verdict, a key
that is missing).
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import campaign_page  # noqa: E402
from lib.cli import EXIT_OK, Parser, run  # noqa: E402
from lib.hypothesis_matrix import matrix_rows, matrix_summary  # noqa: E402
from lib.strict_io import BadInput, read_json  # noqa: E402


def values(path, keys):
    """The values of `keys` in the JSON object of `path`, as text (true/false for booleans)."""
    obj = read_json(path)
    if not isinstance(obj, dict):
        raise BadInput(path, "expected a JSON object")
    out = []
    for k in keys:
        if k not in obj:
            raise BadInput(path, f"no key {k!r}")
        v = obj[k]
        out.append(("true" if v else "false") if isinstance(v, bool) else str(v))
    return out


def main(argv):
    p = Parser("campaign.py", __doc__)
    sub = p.add_subparsers(dest="command", required=True, metavar="matrix|get|page")
    m = sub.add_parser("matrix", prog="campaign.py matrix")
    m.add_argument("file", metavar="FILE")
    g = sub.add_parser("get", prog="campaign.py get")
    g.add_argument("file", metavar="FILE")
    g.add_argument("keys", metavar="KEY", nargs="+")
    w = sub.add_parser("page", prog="campaign.py page")
    w.add_argument("dir", metavar="DIR")
    w.add_argument("--title", default="neffbar campaign")
    a = p.parse_args(argv[1:])
    if a.command == "page":
        if not os.path.isdir(a.dir):
            raise BadInput(a.dir, "not a folder (the campaign's out/)")
        print(campaign_page.write(a.dir, a.title))
        return EXIT_OK
    lines = matrix_summary(matrix_rows(a.file)) if a.command == "matrix" else values(a.file, a.keys)
    print("\n".join(lines))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(run("campaign.py", main, sys.argv))
