"""The state folder kept between rehearsals (out/rehearse by default): the run counter,
the cache entries, the artifacts, the step summaries and logs."""
import fcntl
import json
import os


class State:
    """The folder kept between rehearsals: the run counter, the cache, the artifacts,
    and each run's step summaries and logs."""

    def __init__(self, root):
        self.root = os.path.abspath(root)
        os.makedirs(self.root, exist_ok=True)

    def next_run(self):
        path = os.path.join(self.root, "run-counter")
        with open(path, "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.seek(0)
            text = f.read().strip()
            n = int(text) + 1 if text.isdigit() else 1
            f.seek(0)
            f.truncate()
            f.write(f"{n}\n")
        return n

    def cache_dir(self):
        return os.path.join(self.root, "cache")

    def cache_entries(self):
        out = []
        d = self.cache_dir()
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            meta = os.path.join(d, name, "meta.json")
            try:
                with open(meta) as f:
                    m = json.load(f)
            except (OSError, ValueError):
                continue
            m["dir"] = os.path.join(d, name)
            out.append(m)
        return out

