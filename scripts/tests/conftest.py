"""pytest set-up of the scripts' tests (ctest scripts_pytest): the scripts importable,
nothing written into the tree (no bytecode, no Hypothesis example database), and
Hypothesis derandomized, so that a CI run draws the same cases as the last one.

The `check` fixture is a soft assertion for tests that state many checks: each
`check(ok, what)` prints one line, ok or FAIL, and the test fails once it returns,
naming every check that failed (so one run shows them all, not only the first).
`--screenshot` runs the tests that draw in headless Chromium in that mode
(ctest bench_report_renders_in_chromium).  `--neffbar PATH` names the built CLI for
the tests that run it (the `neffbar` fixture); without it they are skipped, saying why."""
import os
import sys

import pytest
from hypothesis import settings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
settings.register_profile("neffbar", database=None, derandomize=True, deadline=None, max_examples=300)
settings.load_profile("neffbar")

from lib.checks import Checks  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--screenshot", action="store_true", help="draw the reports in headless Chromium")
    parser.addoption("--neffbar", metavar="PATH", help="the built neffbar CLI, for the tests that run it")


@pytest.fixture
def with_screenshot(request):
    return request.config.getoption("--screenshot")


@pytest.fixture
def neffbar(request):
    """The built CLI given as --neffbar, as an absolute path; the test is skipped without it."""
    path = request.config.getoption("--neffbar")
    if not path:
        pytest.skip("needs the built CLI: --neffbar PATH")
    return os.path.abspath(path)


@pytest.fixture
def tmp(tmp_path):
    """A fresh directory as a str, as the scripts' tests join paths with os.path."""
    return str(tmp_path)


@pytest.fixture
def check():
    return Checks()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield
    checks = [v for v in getattr(item, "funcargs", {}).values() if isinstance(v, Checks)]
    failed = [what for c in checks for what in c.failures]
    if failed:
        pytest.fail(f"{len(failed)} check(s) failed:\n  " + "\n  ".join(failed), pytrace=False)
