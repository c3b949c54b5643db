"""The values of GitHub's ${{ }} expressions as the runner converts and compares them:
JavaScript's number and string forms, truthiness, loose equality, ordering, and
case-insensitive property names."""
import math


def js_number(x):
    """A number as JavaScript and GitHub's expressions print it (3.0 -> '3')."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x.is_integer() and abs(x) < 1e21:
        return str(int(x))
    r = repr(x)
    if "e" in r:
        mant, exp = r.split("e")
        r = f"{mant}e{'-' if exp.startswith('-') else '+'}{exp.lstrip('+-').lstrip('0') or '0'}"
    return r


def to_str(v):
    """GitHub's conversion of a value to a string (interpolation, string functions)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, list):
        return "Array"
    if isinstance(v, dict):
        return "Object"
    return str(v)


def to_num(v):
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        s = v.strip()
        if not s:
            return 0.0
        try:
            return float(int(s, 16)) if s.lower().startswith("0x") else float(s)
        except ValueError:
            return math.nan
    return math.nan


def truthy(v):
    if v is None or v is False:
        return False
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return not (v == 0 or math.isnan(v))
    if isinstance(v, str):
        return v != ""
    return True


def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "num"
    if isinstance(v, str):
        return "str"
    return "obj"


def loose_eq(a, b):
    ka, kb = _kind(a), _kind(b)
    if ka == kb:
        if ka == "str":
            return a.lower() == b.lower()
        if ka == "num":
            return float(a) == float(b)
        if ka == "obj":
            return a is b
        return a == b
    if "obj" in (ka, kb):
        return False
    return to_num(a) == to_num(b)


def compare(op, a, b):
    if _kind(a) == "str" and _kind(b) == "str":
        x, y = a.lower(), b.lower()
    else:
        x, y = to_num(a), to_num(b)
        if math.isnan(x) or math.isnan(y):
            return False
    return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def get_ci(d, key):
    """d[key] with GitHub's case-insensitive property names; None when absent."""
    if key in d:
        return d[key]
    low = key.lower()
    for k, v in d.items():
        if isinstance(k, str) and k.lower() == low:
            return v
    return None
