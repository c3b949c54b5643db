"""The command line of every Python script of scripts/: the argparse parser they share
(the docstring as --help, one escaped line on a usage error), option types that take
decimal digits only, and run(), which turns an unusable input into one line and exit 2.

Exit codes of these scripts: 0 ok; 1 a regression / the gate failed (or a benchmark
could not be built, run or counted); 2 usage or bad input.  A bad input is never exit 1,
so a caller can tell "the code got slower" from "the numbers are unusable"."""
import argparse
import math
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: lib's parent
from lib.strict_io import BadInput, shown  # noqa: E402

EXIT_OK, EXIT_FAIL, EXIT_BAD = 0, 1, 2


# Decimal digits only, as the CLI takes them: no sign, exponent, "_", spaces or other
# scripts' digits (all of which float() and int() would take).
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")


def positive_float(text):
    v = float(text) if _DECIMAL.fullmatch(text) else math.nan
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"expected a positive decimal number, got {text!r}")
    return v


def positive_int(text):
    v = int(text) if _DECIMAL.fullmatch(text) and "." not in text and len(text) <= 18 else 0
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return v


class Parser(argparse.ArgumentParser):
    """argparse with the module docstring as --help and one escaped line on a usage
    error (exit 2)."""

    def __init__(self, prog, doc=None, **kw):
        super().__init__(prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter,
                         allow_abbrev=False, **kw)

    def error(self, message):
        self.exit(EXIT_BAD, f"{self.prog}: {shown(message)} (--help)\n")

    def _options(self):
        """The option strings of this parser and its subcommands."""
        known = set(self._option_string_actions)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    known |= set(sub._option_string_actions)
        return known

    def parse_known_args(self, args=None, namespace=None):
        # An unknown option is named first: argparse would report a missing argument
        # instead when there is one (`bench-compare --bogus` said BASELINE.json was missing).
        args = sys.argv[1:] if args is None else list(args)
        known = self._options()
        for a in args:
            if a == "--":
                break
            if a.startswith("-") and a != "-" and a.split("=", 1)[0] not in known \
                    and not self._negative_number_matcher.match(a):
                self.error(f"unrecognized arguments: {a}")
        return super().parse_known_args(args, namespace)


def load_script(name):
    """A script of scripts/ without a .py name (bench-count, bench-compare), as a module."""
    import importlib.machinery
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name)  # scripts/, lib's parent
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def run(prog, main, argv):
    """main(argv) with a BadInput, or a file that cannot be read or written, turned into
    one line on stderr and exit 2 (never a traceback, never the regression exit 1)."""
    try:
        return main(argv)
    except BadInput as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return EXIT_BAD
    except OSError as e:  # a broken pipe has no file name: it is the output
        where = e.filename or ("stdout" if isinstance(e, BrokenPipeError) else "?")
        print(f"{prog}: {BadInput(where, (e.strerror or str(e)).lower())}", file=sys.stderr)
        return EXIT_BAD
