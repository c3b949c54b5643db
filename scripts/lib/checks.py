"""The checks' tally (scripts/tests/conftest.py's `check` fixture, bench_pipeline_test.py):
each check prints one line, ok or FAIL, and the failures are kept."""


class Checks:
    def __init__(self):
        self.failures = []

    def __call__(self, ok, what):
        print(f"  {'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if not ok:
            self.failures.append(what)
