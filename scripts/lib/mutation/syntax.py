"""C++ text as the operators and the switched forms read it: which characters are
code, the parenthesis that closes one, an expression split at its top level."""


def not_code(mask, text, i, j):
    """Marks text[i:j] (a comment or a string) as not code, but its newlines, so that a
    line's mask stays the line's."""
    for k in range(i, j):
        if text[k] != "\n":
            mask[k] = False


def code_mask(text):
    """True for each character that is code (not a comment, string or char literal)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('R"(', i):
            j = text.find(')"', i + 3)
            j = n if j < 0 else j + 2
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000 is a digit separator
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        not_code(mask, text, i, j)
        i = j
    return mask


def matching_paren(line, open_at):
    depth = 0
    for k in range(open_at, len(line)):
        if line[k] == "(":
            depth += 1
        elif line[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def top_level(expr, sep):
    """The columns where `sep` starts in expr with no parenthesis or bracket open."""
    at, depth, i = [], 0, 0
    while i < len(expr):
        c = expr[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and expr.startswith(sep, i):
            at.append(i)
            i += len(sep)
            continue
        i += 1
    return at


def split_top(expr, sep):
    """expr split at `sep` where no parenthesis or bracket is open, or [expr]."""
    ends = top_level(expr, sep) + [len(expr)]
    starts = [0] + [k + len(sep) for k in ends[:-1]]
    return [expr[s:e] for s, e in zip(starts, ends)]
