"""pytest set-up of the scripts' tests (ctest scripts_pytest): the scripts importable,
nothing written into the tree (no bytecode, no Hypothesis example database), and
Hypothesis derandomized, so that a CI run draws the same cases as the last one."""
import os
import sys

from hypothesis import settings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
settings.register_profile("neffbar", database=None, derandomize=True, deadline=None, max_examples=300)
settings.load_profile("neffbar")
