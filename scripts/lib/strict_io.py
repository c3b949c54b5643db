"""Files read and written strictly, for every Python script of scripts/: JSON read with
no duplicate key, trailing data or (but in a Google Benchmark run) NaN; an input that
cannot be used is a BadInput, one escaped line `FILE: what is wrong`; a file is written
whole or not at all (write_atomic)."""
import json
import math
import os
import tempfile


def shown(text):
    """`text` with control and other unprintable characters escaped as repr() does, so a
    hostile file name or value cannot rewrite the terminal or forge a second line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


class BadInput(Exception):
    """An input file (or value) that cannot be used; str() is `where: what`, escaped."""

    def __init__(self, where, what):
        super().__init__(where, what)
        self.where, self.what = where, what

    def __str__(self):
        return f"{shown(self.where)}: {shown(self.what)}"


class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise _Duplicate(f"duplicate key {k!r}")
        seen[k] = v
    return seen


def _no_constant(name):
    raise _Duplicate(f"{name} is not a JSON number")


# Google Benchmark's JSON writer spells a non-finite double NaN, Infinity or -Infinity
# (json_reporter.cc, FormatKV): the _cv aggregate of a counter whose mean is 0 is NaN.
# That is its own output, so a run is read with them; what a script reads from the run
# is then checked finite (bench_ratios.check_run).
_GBENCH_CONSTANTS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def parse_json(text, where, gbench=False):
    """json.loads, stricter: duplicate keys, trailing data and (unless `gbench`: a
    Google Benchmark run, which spells them so) NaN/Infinity are errors (BadInput
    naming `where`, the line and the column)."""
    constant = _GBENCH_CONSTANTS.__getitem__ if gbench else _no_constant
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=constant)
    except json.JSONDecodeError as e:
        raise BadInput(where, f"not JSON: line {e.lineno} column {e.colno}: {e.msg}") from None
    except _Duplicate as e:
        raise BadInput(where, f"not JSON: {e}") from None
    except RecursionError:
        raise BadInput(where, "not JSON: nested too deeply") from None
    except ValueError as e:  # an integer of more digits than Python converts
        raise BadInput(where, f"not JSON: {str(e).split(';')[0]}") from None


def read_text(path, empty_ok=False):
    """The file's text (UTF-8); BadInput when it cannot be read, is not UTF-8 or is empty
    (unless empty_ok)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(path, (e.strerror or str(e)).lower()) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(path, f"not UTF-8: byte {e.start}") from None
    if not text.strip() and not empty_ok:
        raise BadInput(path, "empty file")
    return text


def read_json(path, gbench=False):
    return parse_json(read_text(path), path, gbench)


def is_positive(x):
    """A JSON number (not a bool) that is finite (as a float too) and > 0."""
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return False
    try:
        return math.isfinite(float(x)) and x > 0
    except OverflowError:
        return False


def is_nonnegative(x):
    """A JSON number (not a bool) that is finite (as a float too) and >= 0."""
    return is_positive(x) or (isinstance(x, (int, float)) and not isinstance(x, bool) and x == 0)


def cut(text, width=80):
    """`text` cut to `width` characters, for an error line."""
    return text if len(text) <= width else text[:width - 3] + "..."


def brief(value):
    """repr(value), cut to 60 characters, for an error line."""
    return cut(repr(value), 60)


def write_atomic(path, data):
    """Writes `data` (str or bytes) to `path` whole or not at all: a temporary file in the
    same folder, flushed to disk, then renamed over `path`."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    except OSError as e:  # named by the file asked for, not the temporary
        raise OSError(e.errno, e.strerror, path) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it 0600; the file it replaces was not
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):  # named by the file asked for, not the temporary
            raise OSError(e.errno, e.strerror, path) from None
        raise
