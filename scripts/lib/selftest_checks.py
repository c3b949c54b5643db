"""The self-tests' tally (scripts_selftest.py, and the `check` fixture of
scripts/tests/conftest.py): each check prints one line, ok or FAIL, and the
failures are kept for the closing summary."""


class Checks:
    def __init__(self):
        self.failures = []

    def __call__(self, ok, what):
        print(f"  {'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if not ok:
            self.failures.append(what)
