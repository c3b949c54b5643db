"""actions/cache, actions/cache/restore and actions/cache/save, simulated on the state
folder's cache: entries by key and path list, from this ref or refs/heads/main."""
import hashlib
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.copying import copy_path, merge_into  # noqa: E402
from lib.rehearsal.globs import glob_paths, pattern_lines  # noqa: E402
from lib.rehearsal.simulation import StepFailed  # noqa: E402


def cache_version(paths):
    return hashlib.sha256(("\n".join(paths) + "|zstd-without-long|1.0").encode()).hexdigest()


CACHE_DEFAULTS = {"enableCrossOsArchive": "false", "fail-on-cache-miss": "false", "lookup-only": "false"}


def cache_restore(ctx, combined):
    key = ctx.input("key", required=True)
    paths_text = ctx.input("path", required=True)
    restore_keys = [k.strip() for k in ctx.input("restore-keys").split("\n") if k.strip()]
    if len(key) > 512 or "," in key:
        raise StepFailed(f"Key Validation Error: {key} cannot be larger than 512 characters." if len(key) > 512
                         else f"Key Validation Error: {key} cannot contain commas.")
    if not ctx.r.env_for_actions.get("GITHUB_REF"):
        ctx.warning("Event Validation Error: The event type push is not supported because it's not tied to a branch or tag ref.")
        return
    lines = [x.strip() for x in paths_text.split("\n") if x.strip()]
    version = cache_version(lines)
    ctx.r.cache_state[ctx.step.index] = {"primary": key, "matched": None, "paths": paths_text}
    if not combined:
        ctx.outputs["cache-primary-key"] = key
    visible = [e for e in ctx.r.state.cache_entries()
               if e.get("version") == version and e.get("ref") in (ctx.r.ref, "refs/heads/main")]
    hit = None
    exact = [e for e in visible if e["key"] == key]
    if exact:
        hit = exact[-1]
    else:
        for prefix in [key] + restore_keys:
            cands = [e for e in visible if e["key"].startswith(prefix)]
            if cands:
                hit = max(cands, key=lambda e: e["created"])
                break
    if hit is None:
        if ctx.bool_input("fail-on-cache-miss"):
            raise StepFailed(f"Failed to restore cache entry. Exiting as fail-on-cache-miss is set. Input key: {key}")
        ctx.info(f"Cache not found for input keys: {', '.join([key] + restore_keys)}")
        return
    ctx.r.cache_state[ctx.step.index]["matched"] = hit["key"]
    if not combined:
        ctx.outputs["cache-matched-key"] = hit["key"]
    ctx.outputs["cache-hit"] = "true" if hit["key"] == key else "false"
    if ctx.bool_input("lookup-only"):
        ctx.info(f"Cache found and can be restored from key: {hit['key']}")
        return
    ws, ab = os.path.join(hit["dir"], "ws"), os.path.join(hit["dir"], "abs")
    if os.path.isdir(ws):
        merge_into(ws, ctx.r.workspace)
    if os.path.isdir(ab):
        try:
            merge_into(ab, "/")
        except OSError as e:
            ctx.warning(f"Failed to restore {e.filename}: {(e.strerror or str(e)).lower()}")
    ctx.info(f"Cache restored from key: {hit['key']}")


def cache_save(ctx, key, paths_text):
    lines = [x.strip() for x in paths_text.split("\n") if x.strip()]
    version = cache_version(lines)
    if any(e["key"] == key and e.get("version") == version for e in ctx.r.state.cache_entries()):
        ctx.info(f"Failed to save: Unable to reserve cache with key {key}, another job may be creating this cache. "
                 "More details: Cache already exists.")
        ctx.warning("Cache save failed.")
        return
    matched = glob_paths(pattern_lines(paths_text, ctx.r.workspace), descendants=False)
    if not matched:
        ctx.warning("Path Validation Error: Path(s) specified in the action for caching do(es) not exist, "
                    "hence no cache is being saved.")
        return
    entries = ctx.r.state.cache_dir()
    os.makedirs(entries, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=entries, prefix=".new-")
    ws_prefix = ctx.r.workspace.rstrip("/") + "/"
    for p in matched:
        if p == ctx.r.workspace or p.startswith(ws_prefix):
            rel = os.path.relpath(p, ctx.r.workspace)
            dest = os.path.join(tmp, "ws") if rel == "." else os.path.join(tmp, "ws", rel)
            copy_path(p, dest)
        else:
            copy_path(p, os.path.join(tmp, "abs", p.lstrip("/")), link=True)
    meta = {"key": key, "version": version, "paths": lines, "ref": ctx.r.ref, "created": time.time_ns(),
            "run": ctx.r.run_id}
    with open(os.path.join(tmp, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
    name = f"{meta['created']}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"
    os.rename(tmp, os.path.join(entries, name))
    ctx.info(f"Cache saved with key: {key}")


def act_cache_restore(ctx):
    cache_restore(ctx, combined=False)


def act_cache_save(ctx):
    cache_save(ctx, ctx.input("key", required=True), ctx.input("path", required=True))


def act_cache(ctx):
    cache_restore(ctx, combined=True)
    st = ctx.r.cache_state.get(ctx.step.index)

    def post(pctx):
        if st is None:
            return
        if st["matched"] and st["matched"].lower() == st["primary"].lower():
            pctx.info(f"Cache hit occurred on the primary key {st['primary']}, not saving cache.")
            return
        cache_save(pctx, st["primary"], st["paths"])
    ctx.r.add_post(ctx.step, post, "success()")
