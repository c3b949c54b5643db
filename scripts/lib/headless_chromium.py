"""Pages drawn in headless Chromium: its command line, a screenshot, and a PNG's pixels
read with only zlib, to count a chart's colours (tests/test_bench_scripts.py's report
check, doc-figures, core/tests/chart_in_chromium.py)."""
import os
import struct
import subprocess
import tempfile
import zlib

# Chromium run headless, as root, offline and with no state kept but the profile given:
# every caller's flags (this screenshot, doc-figures' DOM, chart_in_chromium).
HEADLESS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync")


def headless(profile, *args, browser="chromium"):
    """The command line of a headless Chromium with its profile in `profile`."""
    return [browser, *HEADLESS, f"--user-data-dir={profile}", *args]


def png_pixels(path):
    """(width, height, rows of RGB(A) tuples) of a PNG, with only zlib (8-bit RGB/RGBA)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"PNG colour type {ctype} depth {depth}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, rows, bpp


def screenshot(html_path, png_path):
    chromium = next((c for c in ("chromium", "chromium-browser", "google-chrome") if subprocess.run(
        ["which", c], capture_output=True).returncode == 0), None)
    if chromium is None:
        raise RuntimeError("no chromium (./scripts/deps installs Debian's chromium)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(headless(profile, "--hide-scrollbars", "--window-size=800,1000", f"--screenshot={png_path}",
                                "file://" + os.path.abspath(html_path), browser=chromium),
                       check=True, capture_output=True, timeout=120)
