#!/usr/bin/env python3
"""The committed generated files of the fuzz targets are what make_corpus writes now.

    generated_files_test.py MAKE_CORPUS SOURCE_DIR

Runs make_corpus into a temporary folder and compares (ctest fuzz_generated_files):
  - every dictionary and options file (fuzz/, fuzz/properties/): committed, byte for
    byte the same, and no committed one that make_corpus no longer writes;
  - the corpus folders: every target's seeds are committed (under their sha1, as
    scripts/make-corpus names them; the committed folder may hold more: merges and
    regressions add to it), every target has its regression folder, and the prop_
    folders of corpus/ and corpus/regressions/ are exactly the properties';
  - the module ABI's test vectors (corpus/vectors/<operation>.json): committed, byte
    for byte the same, and no committed one that make_corpus no longer writes.
Each difference is one line naming the file; exit 1 if there is any, 2 on usage.
The fix is ./scripts/make-corpus --merge (and committing what it wrote).
"""
import hashlib
import os
import subprocess
import sys
import tempfile


def files_under(root):
    """Relative paths of the files under root."""
    out = set()
    for folder, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(folder, n), root))
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def compare_fuzz_files(gen, src):
    problems = []
    made = files_under(os.path.join(gen, "fuzz"))
    for rel in sorted(made):
        committed = os.path.join(src, "fuzz", rel)
        if not os.path.exists(committed):
            problems.append(f"fuzz/{rel}: generated but not committed")
        elif read(committed) != read(os.path.join(gen, "fuzz", rel)):
            problems.append(f"fuzz/{rel}: differs from what make_corpus writes")
    for sub in ("", "properties"):
        folder = os.path.join(src, "fuzz", sub)
        for n in sorted(os.listdir(folder)):
            rel = os.path.join(sub, n)
            if n.endswith((".dict", ".options")) and rel not in made:
                problems.append(f"fuzz/{rel}: committed but make_corpus no longer writes it")
    return problems


def compare_corpus(gen, src):
    problems = []
    targets = sorted(t for t in os.listdir(os.path.join(gen, "corpus")) if t not in ("regressions", "vectors"))
    for t in targets:
        folder = os.path.join(src, "corpus", t)
        for seed in sorted(files_under(os.path.join(gen, "corpus", t))):
            sha = hashlib.sha1(read(os.path.join(gen, "corpus", t, seed))).hexdigest()
            if not os.path.isfile(os.path.join(folder, sha)):
                problems.append(f"corpus/{t}/{sha}: seed {seed} not committed")
    for where in ("corpus", os.path.join("corpus", "regressions")):
        made = {t for t in os.listdir(os.path.join(gen, where)) if t not in ("regressions", "vectors")}
        committed = {t for t in os.listdir(os.path.join(src, where)) if os.path.isdir(os.path.join(src, where, t))}
        for t in sorted(made - committed):
            problems.append(f"{where}/{t}/: missing")
        for t in sorted(c for c in committed - made if c.startswith("prop_")):
            problems.append(f"{where}/{t}/: committed, but there is no such property")
    return problems


def compare_vectors(gen, src):
    problems = []
    made = set(os.listdir(os.path.join(gen, "corpus", "vectors")))
    for n in sorted(made):
        committed = os.path.join(src, "corpus", "vectors", n)
        if not os.path.exists(committed):
            problems.append(f"corpus/vectors/{n}: generated but not committed")
        elif read(committed) != read(os.path.join(gen, "corpus", "vectors", n)):
            problems.append(f"corpus/vectors/{n}: differs from what make_corpus writes")
    folder = os.path.join(src, "corpus", "vectors")
    for n in sorted(os.listdir(folder) if os.path.isdir(folder) else []):
        if n.endswith(".json") and n != "vectors.schema.json" and n not in made:
            problems.append(f"corpus/vectors/{n}: committed but make_corpus no longer writes it")
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    make_corpus, src = argv[1], argv[2]
    with tempfile.TemporaryDirectory() as gen:
        subprocess.run([make_corpus, gen], check=True)
        problems = compare_fuzz_files(gen, src) + compare_corpus(gen, src) + compare_vectors(gen, src)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} generated files disagree with make_corpus: ./scripts/make-corpus --merge, then commit them")
        return 1
    print("every generated file is committed as make_corpus writes it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
