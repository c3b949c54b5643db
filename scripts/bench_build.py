"""The benchmark suite run once, by the one command line it is always run with
(lib/bench_build.py's suite_command, which scripts/bench-history's builds use too);
scripts/bench runs it so:
  python3 scripts/bench_build.py suite BINARY REPETITIONS REGEX OUT.json
its console output on stdout, the whole run as JSON to OUT.json.  Exit: the suite's;
2 usage."""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import bench_build  # noqa: E402
from lib.cli import Parser, positive_int  # noqa: E402


def main(argv):
    p = Parser("bench_build.py", __doc__)
    p.add_argument("what", choices=("suite",))
    p.add_argument("binary")
    p.add_argument("repetitions", type=positive_int)
    p.add_argument("regex")
    p.add_argument("out", metavar="OUT.json")
    a = p.parse_args(argv[1:])
    return subprocess.run(bench_build.suite_command(a.binary, a.repetitions, a.regex, a.out)).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
