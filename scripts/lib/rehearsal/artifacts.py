"""actions/upload-artifact, simulated: the files into STATE/artifacts/run-<id>/<name>/."""
import hashlib
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.copying import copy_path  # noqa: E402
from lib.rehearsal.globs import glob_paths, pattern_lines  # noqa: E402
from lib.rehearsal.simulation import StepFailed  # noqa: E402

ARTIFACT_BAD = set('":<>|*?\r\n\\/')


def act_upload_artifact(ctx):
    name = ctx.input("name") or "artifact"
    if set(name) & ARTIFACT_BAD:
        raise StepFailed(f"The artifact name is not valid: {name}. Contains the following character: "
                         + " ".join(sorted(repr(c) for c in set(name) & ARTIFACT_BAD)))
    if_none = ctx.input("if-no-files-found") or "warn"
    if if_none not in ("warn", "error", "ignore"):
        raise StepFailed(f"Unrecognized if-no-files-found input. Provided: {if_none}. Available options: warn, error, ignore")
    hidden = ctx.bool_input("include-hidden-files")
    overwrite = ctx.bool_input("overwrite")
    text = ctx.input("path", required=True)
    pats = pattern_lines(text, ctx.r.workspace)
    files = [f for f in glob_paths(pats, descendants=True, hidden=hidden) if not os.path.isdir(f)]
    if not files:
        msg = f"No files were found with the provided path: {text}. No artifacts will be uploaded."
        if if_none == "error":
            raise StepFailed(msg)
        (ctx.warning if if_none == "warn" else ctx.info)(msg)
        return
    searches = [p.root if p.is_glob else p.path for p in pats if not p.negate]
    if len(searches) == 1:
        root = searches[0] if os.path.isdir(searches[0]) else os.path.dirname(searches[0])
    else:
        split = [s.split("/") for s in searches]
        common = []
        for comps in zip(*split):
            if len(set(comps)) != 1:
                break
            common.append(comps[0])
        root = "/".join(common) or "/"
    dest = os.path.join(ctx.r.state.root, "artifacts", f"run-{ctx.r.run_id}", name)
    if os.path.exists(dest):
        if not overwrite:
            raise StepFailed("Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: "
                             "an artifact with this name already exists on the workflow run")
        shutil.rmtree(dest)
        ctx.info(f"Deleted the artifact {name} of this run (overwrite: true)")
    digest = hashlib.sha256()
    for f in files:
        rel = os.path.relpath(f, root)
        copy_path(f, os.path.join(dest, rel))
        digest.update(rel.encode() + b"\0")
        with open(f, "rb") as fh:
            digest.update(hashlib.sha256(fh.read()).digest())
    ctx.r.artifacts.append(name)
    ctx.info(f"Uploaded {len(files)} file(s) to {dest}")
    ctx.outputs.update({"artifact-id": str(len(ctx.r.artifacts)), "artifact-digest": digest.hexdigest(),
                        "artifact-url": f"{ctx.r.server_url}/{ctx.r.repository}/actions/runs/{ctx.r.run_id}/artifacts/{len(ctx.r.artifacts)}"})
