"""What scripts/mutate mutates and the test groups it runs them against: the
repository, the sources, the catalogue's sizes, the groups and the tests no mutant runs."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # scripts/lib/mutation/ -> the repository
# Every folder of the library (a glob per folder left report/ unmutated).
SOURCES = ["core/neffbar/**/*.cpp", "core/neffbar/**/*.h"]
CATALOGUE_SIZE = 120
# The Python scripts are mutated too and killed by their self-tests (ctest label
# `py-selftest`, scripts/CMakeLists.txt): every file of scripts/ and scripts/lib/ written
# in Python but scripts/mutate, its package scripts/lib/mutation/ and the self-tests.
PY_CATALOGUE_SIZE = 40
PY_GROUPS = ["py-selftest"]
# --since's selection: the self-tests that run every script of scripts/ (--help, bad
# options) without naming each one, so they see every script's mutants.
RUNS_EVERY_SCRIPT = {"scripts_self_test"}
# scripts/mutate's tests (ctest mutate_self_test, label unit: scripts/tests/test_mutate.py)
# check mutate.equivalent's ids against the tree's sources: a mutant on a line with an
# equivalent entry makes them fail whatever the mutant does.  They test the harness, not
# the code, so no mutant is run against them.
HARNESS_TESTS = {"mutate_self_test"}
GROUPS = ["unit", "e2e", "props", "fuzz-replay", "spin"]
# The SPIN cross-check (a minute) runs only for the code it can reach beyond the
# unit tests: the Promela export, the engines it is compared with, the semaphores.
GROUP_FILES = {"spin": ["core/neffbar/model/*", "core/neffbar/semaphore.*"]}
EQUIVALENT = ROOT / "scripts" / "mutate.equivalent"
# --since REV mutates the CLI too (built and tested in the same g++ tree: the e2e and
# cli_budget tests run it); a CLI mutant that does not compile is stillborn by the
# `neffbar` target, as a library mutant is by `neffbar_core`.
SINCE_SOURCES = SOURCES + ["core/cli/*.cpp", "core/cli/*.h"]
COMPILE_TARGET = [("core/cli/*", "neffbar"), ("*", "neffbar_core")]
