"""The runner's file commands: GITHUB_OUTPUT / GITHUB_ENV read as the runner reads them,
and the escaping of a workflow command's data."""
import os


class FileCommandError(Exception):
    pass


def parse_file_command(path):
    """[(name, value)] of a GITHUB_OUTPUT / GITHUB_ENV file: NAME=VALUE lines and
    NAME<<DELIMITER ... DELIMITER blocks, as the runner reads them."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [x[:-1] if x.endswith("\r") else x for x in f.read().split("\n")]
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        eq, hd = line.find("="), line.find("<<")
        if eq >= 0 and (hd < 0 or eq < hd):
            key, value = line[:eq], line[eq + 1:]
        elif hd >= 0:
            key, delim = line[:hd], line[hd + 2:]
            if not delim:
                raise FileCommandError(f"Invalid format {line!r}: no delimiter")
            block = []
            while True:
                if i >= len(lines):
                    raise FileCommandError(f"Invalid value. Matching delimiter not found {delim!r}")
                i += 1
                if lines[i - 1] == delim:
                    break
                block.append(lines[i - 1])
            value = "\n".join(block)
        else:
            raise FileCommandError(f"Invalid format {line!r}")
        if not key:
            raise FileCommandError(f"Invalid format {line!r}: the name must not be empty")
        out.append((key, value))
    return out


def escape_data(s):
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
