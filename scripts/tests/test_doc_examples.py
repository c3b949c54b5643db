"""scripts/doc-examples' tests (pytest; ctest doc_examples_self_test): a stub CLI (its
exit code is its first argument) and Markdown files with right and wrong examples: the
right ones pass, each wrong one fails naming its line; a file without examples, or no
--cli, is exit 2; examples run in a scratch folder with an empty stdin.  The README's
own examples against the real CLI: ctest doc_examples."""
import os
import subprocess
import sys

import pytest

from lib import cli

doc_examples = cli.load_script("doc-examples")
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "doc-examples")
MARK = doc_examples.MARK


def call(*args):
    """(exit code, stdout + stderr) of doc-examples, with something on its stdin."""
    r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, input="data on stdin\n")
    return r.returncode, r.stdout + r.stderr


def markdown(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


@pytest.fixture
def stub(tmp):
    """A CLI that writes its arguments to last.txt and exits with its first one."""
    path = os.path.join(tmp, "stub")
    with open(path, "w") as f:
        f.write('#!/bin/sh\necho "$@" > last.txt\nexit "$1"\n')
    os.chmod(path, 0o755)
    return path


GOOD = ("text\n\n```sh\n$B 9   # not marked: never run\n```\n\n" + MARK + "\n```sh\nB=build/gcc/core/neffbar\n"
        "# a comment line\n$B 0 corpus/examples   # ok\n$B 4   # a failing verdict (exit 4)\n"
        "cat last.txt | grep -q '^4$'   # a later line sees what an earlier one wrote\n"
        "test -d corpus/examples   # the checkout's corpus is there\n```\n")


def test_right_examples_pass(check, tmp, stub):
    rc, out = call("--cli", stub, markdown(tmp, "good.md", GOOD))
    check(rc == 0 and "all 4 examples passed" in out, f"the right examples pass (exit {rc}): {out}")


def test_wrong_examples_fail_naming_their_lines(check, tmp, stub):
    bad = markdown(tmp, "bad.md", MARK + "\n```sh\n$B 0\n$B 1   # says nothing of exit 1\n"
                                  "$B 0   # (exit 3) expected, got 0\n$B 0 | false\n```\n")
    rc, out = call("--cli", stub, bad)
    check(rc == 1 and "bad.md:4: exit 1, expected 0" in out and "bad.md:5: exit 0, expected 3" in out
          and "bad.md:6: exit 1, expected 0" in out and "3 of 4 examples failed" in out,
          f"each wrong example fails naming its line (exit {rc}): {out}")


def test_usage_errors(check, tmp, stub):
    rc, out = call("--cli", stub, markdown(tmp, "none.md", "```sh\n$B 0\n```\n"))
    check(rc == 2 and "no runnable example" in out, f"a file without examples is exit 2 (exit {rc}): {out}")
    rc, out = call(markdown(tmp, "good.md", GOOD))
    check(rc == 2 and "--cli" in out, f"no --cli is a usage error (exit {rc}): {out}")


def test_scratch_folder_and_empty_stdin(check, tmp, stub):
    """What an example writes stays out of the checkout; its stdin is empty (whatever
    doc-examples' own stdin holds)."""
    mark = f"doc-examples-test-{os.getpid()}"
    path = markdown(tmp, "scratch.md", MARK + f"\n```sh\ntouch {mark} && test -f {mark}\n"
                                        "if read -r x; then exit 9; fi   # stdin is empty\n```\n")
    rc, out = call("--cli", stub, path)
    leaked = os.path.exists(os.path.join(doc_examples.ROOT, mark))
    if leaked:
        os.unlink(os.path.join(doc_examples.ROOT, mark))
    check(rc == 0 and "all 2 examples passed" in out and not leaked,
          f"examples run in a scratch folder (nothing written into the checkout) with an empty stdin (exit {rc}, "
          f"written into the checkout: {leaked}): {out}")


def test_failure_shows_the_end_of_its_output(check, tmp, stub):
    path = markdown(tmp, "scratch.md", MARK + "\n```sh\necho first words; echo the last words >&2; exit 3\n```\n")
    rc, out = call("--cli", stub, path)
    check(rc == 1 and "scratch.md:3: exit 3, expected 0" in out and "  the last words" in out,
          f"a failing example shows the last lines of its output (exit {rc}): {out}")
