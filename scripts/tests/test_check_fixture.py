"""conftest.py's `check`: a test whose checks all pass passes, and one failed check
fails its test, naming it, after the rest of its checks ran."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_pytest(tmp, body):
    """pytest on a planted test file in `tmp`, with this folder's conftest.py as a plugin."""
    test = os.path.join(tmp, "test_planted.py")
    with open(test, "w") as f:
        f.write(body)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=HERE)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", test],
                          capture_output=True, text=True, cwd=tmp, env=env)


def test_a_failed_check_fails_its_test_naming_it(tmp):
    p = run_pytest(tmp, "def test_planted(check):\n    check(True, 'first holds')\n"
                        "    check(False, 'second is planted')\n    check(True, 'third ran too')\n")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "1 check(s) failed" in p.stdout and "second is planted" in p.stdout, p.stdout
    assert "ok   third ran too" in p.stdout, p.stdout  # the checks after the failure ran


def test_passing_checks_pass(tmp):
    p = run_pytest(tmp, "def test_planted(check):\n    check(True, 'holds')\n")
    assert p.returncode == 0 and "1 passed" in p.stdout, p.stdout + p.stderr
