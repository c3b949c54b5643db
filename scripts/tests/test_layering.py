"""scripts/layering's checker on planted trees (ctest layering_self_test): one include
per forbidden edge, a file cycle, a folder cycle of allowed edges, a CMake target cycle
(and a self edge that is not one), and what it prints."""
import contextlib
import io
import os

import pytest

from lib import cli

layering = cli.load_script("layering")

# The edges the help and ctest promise to refuse, written out apart from the script's
# FORBIDDEN, so that a rule dropped from it fails here.
PROMISED = [("core/neffbar", "core/testing"), ("core/neffbar", "core/cli"), ("core/neffbar", "props"),
            ("core/neffbar", "fuzz"), ("core/neffbar/model/engines", "core/neffbar/model/frontend"),
            ("core/neffbar/model/engines", "core/neffbar/model/scenarios"),
            ("core/neffbar/model/engines", "core/neffbar/report"),
            ("core/neffbar/model/system", "core/neffbar/model/engines"),
            ("core/neffbar/model/frontend", "core/neffbar/model/engines"),
            ("core/testing/reference_checker.h", "core/neffbar/model/engines"), ("props", "fuzz")]


def put(root, path, text):
    os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
    with open(os.path.join(root, path), "w") as fh:
        fh.write(text)


def problems(root, dot=None, quiet=True):
    """(exit code, the problem lines, stdout) of the checker on the planted tree `root`."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = layering.check(root, dot, quiet=quiet)
    return rc, [x.removeprefix("layering: ") for x in err.getvalue().splitlines()], out.getvalue()


def test_a_tree_whose_layering_holds_passes(tmp):
    put(tmp, "core/neffbar/a.h", '#include "neffbar/b.h"\n')
    put(tmp, "core/neffbar/b.h", "\n")
    put(tmp, "core/testing/t.h", '#include "neffbar/a.h"\n')
    assert problems(tmp)[:2] == (0, [])


@pytest.mark.parametrize("a, b", PROMISED, ids=[f"{a}->{b}" for a, b in PROMISED])
def test_a_forbidden_edge_fails_alone_naming_file_line_and_why(tmp, a, b):
    why = next((w for x, y, w in layering.FORBIDDEN if (x, y) == (a, b)), "(no rule)")
    src = a if a.endswith(".h") else f"{a}/planted_from.h"
    to = b if b.endswith(".h") else f"{b}/planted_to.h"
    put(tmp, to, "\n")
    put(tmp, src, "// planted\n" + f'#include "{os.path.relpath(to, os.path.dirname(src))}"\n')
    assert problems(tmp)[:2] == (1, [f"{src}:2: includes {to}: {why}"])


def test_a_file_cycle_in_one_folder_fails_as_a_file_cycle_alone(tmp):
    put(tmp, "core/neffbar/a.h", '#include "b.h"\n')
    put(tmp, "core/neffbar/b.h", '#include "a.h"\n')
    assert problems(tmp)[:2] == (1, ["include cycle among files: core/neffbar/a.h -> core/neffbar/b.h -> core/neffbar/a.h"])


def test_a_folder_cycle_of_allowed_edges_fails_as_a_folder_cycle_alone(tmp):
    put(tmp, "props/p1.h", '#include "../bench/b1.h"\n')
    put(tmp, "bench/b1.h", "\n")
    put(tmp, "bench/b2.h", '#include "../props/p2.h"\n')
    put(tmp, "props/p2.h", "\n")
    assert problems(tmp)[:2] == (1, ["include cycle among folders: bench -> props -> bench"])


# Two targets a -> b, and b's self edge: gtest_discover_tests's post-build step.
TARGETS = '"node0" [ label = "a" ];\n"node1" [ label = "b" ];\n"node0" -> "node1";\n"node1" -> "node1";\n'


@pytest.mark.parametrize("back_edge, expect", [
    ("", (0, [])),
    ('"node1" -> "node0";\n', (1, ["CMake target cycle: a -> b -> a"])),
], ids=["a self edge is not a cycle", "a target cycle fails"])
def test_the_cmake_target_graph(tmp, back_edge, expect):
    put(tmp, "core/neffbar/a.h", '#include "b.h"\n')
    put(tmp, "core/neffbar/b.h", "\n")
    put(tmp, "g.dot", TARGETS + back_edge)
    assert problems(tmp, os.path.join(tmp, "g.dot"))[:2] == expect


def plant_a_folder_edge(tmp):
    put(tmp, "core/neffbar/a.h", '#include "model/m.h"\n#include "model/n.h"\n')
    put(tmp, "core/neffbar/model/m.h", "\n")
    put(tmp, "core/neffbar/model/n.h", "\n")


def test_quiet_prints_nothing_when_the_layering_holds(tmp):
    plant_a_folder_edge(tmp)
    assert problems(tmp, quiet=True) == (0, [], "")


def test_the_folder_graph_is_printed_with_its_counts(tmp):
    plant_a_folder_edge(tmp)
    rc, found, out = problems(tmp, quiet=False)
    assert rc == 0 and not found
    assert "include graph: 3 files, 2 includes, 2 folders, 1 folder edges" in out
    assert "  core/neffbar -> core/neffbar/model (2)" in out
