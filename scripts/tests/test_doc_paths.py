"""scripts/doc-paths' tests (pytest; ctest doc_paths_self_test): a planted checkout whose
prose names paths that exist and paths that do not, in each kind of prose (a C++ `//`
and `/* */` comment, a Markdown link and word, a Python comment and docstring), with an
allowed entry still named and one no longer named.  Each check prints one line, ok or
FAIL (conftest.py's `check`)."""
import os
import subprocess
import sys

import pytest

from lib import cli

doc_paths = cli.load_script("doc-paths")
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "doc-paths")

PLANTED = {
    "core/a.cpp": 'int a;  // see core/b.h and core/gone.h\nauto g = "core/**/*.cpp";\n/* core/old.h */\n',
    "core/b.h": "// the fuzz_ targets: fuzz/fuzz_\n",
    "fuzz/fuzz_decode.cpp": "\n",
    "README.md": "[b](core/b.h), [c](core/c.h), [web](https://x.org/y), `scripts/NAME`, `core/*.cpp`, "
                 "`core/*.py`, core/b.h.\n",
    "scripts/t.py": '"""Reads core/b.h and corpus/absent/."""\nx = "core/never.h # core/nor.h"  # core/said.h\n',
    "scripts/doc-paths.allowed": "scripts/t.py corpus/absent/  # an example of a missing folder\n"
                                 "README.md core/stale.h  # no longer named\n",
}


@pytest.fixture
def root(tmp):
    for name, text in PLANTED.items():
        path = os.path.join(tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return tmp


@pytest.fixture
def problems(root):
    return doc_paths.check(root)


@pytest.fixture
def dead(problems):
    """Each problem as 'FILE:LINE PATH'."""
    return sorted(p.split(": ")[0] + " " + p.split(": ")[1] for p in problems)


def test_comments_and_links(check, dead):
    check("core/a.cpp:1 core/gone.h" in dead and "core/a.cpp:3 core/old.h" in dead,
          "a dead path in a // or /* */ comment is named with its line")
    check(not any("core/b.h" in d or "**" in d for d in dead), "a path that exists, and a glob that matches, pass")
    check("README.md:1 core/c.h" in dead and "README.md:1 core/*.py" in dead,
          "a dead Markdown link and a glob that matches nothing fail")
    check(not any("https" in d or "NAME" in d or "fuzz_" in d for d in dead),
          "a URL, a placeholder and a prefix that starts a name are not dead")
    check("scripts/t.py:2 core/said.h" in dead and not any("never.h" in d or "nor.h" in d for d in dead),
          "a Python comment is read, a string in code is not")


def test_allowed_list(check, problems, dead):
    check(not any("absent" in d for d in dead), "an allowed path is not dead")
    check(any(p.startswith(f"{doc_paths.ALLOWED}:2: README.md core/stale.h: allowed, but") for p in problems),
          "an allowed entry nothing names any more is stale")
    check(len(problems) == 6, f"nothing else is reported: {problems}")


def test_command_line(check, root):
    r = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True, text=True)
    check(r.returncode == 1 and "doc-paths: core/a.cpp:1: core/gone.h: no such file" in r.stderr,
          f"dead paths: exit 1, each on stderr: {r.returncode}")
