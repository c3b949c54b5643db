"""The simulation of each `uses:` action, by name (whatever its pinned ref); the actions
that cannot be rehearsed fail saying so."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.artifacts import act_upload_artifact  # noqa: E402
from lib.rehearsal.benchmark import GAB_DEFAULTS, act_benchmark  # noqa: E402
from lib.rehearsal.cache import CACHE_DEFAULTS, act_cache, act_cache_restore, act_cache_save  # noqa: E402
from lib.rehearsal.simulation import StepFailed  # noqa: E402


def act_checkout(ctx):
    for bad in ("path", "ref", "repository", "sparse-checkout"):
        if ctx.input(bad):
            raise StepFailed(f"actions/checkout with '{bad}': not simulated (the workspace is the rehearsal's clone)")
    ctx.info(f"the workspace is the rehearsal's clone of {ctx.r.sha} (actions/checkout is not run)")
    ctx.outputs.update(ref=ctx.r.ref, commit=ctx.r.sha)


def act_bencher(ctx):
    ctx.info("would install the bencher CLI (bencherdev/bencher's pinned version) and put it on the PATH; "
             "offline, a rehearsal installs nothing: a later `bencher` command fails unless one is installed")


def not_rehearsable(why):
    def act(ctx):
        raise StepFailed(why)
    return act


ACTIONS = {  # name -> (simulation, input defaults)
    "actions/checkout": (act_checkout, {}),
    "actions/cache": (act_cache, CACHE_DEFAULTS),
    "actions/cache/restore": (act_cache_restore, CACHE_DEFAULTS),
    "actions/cache/save": (act_cache_save, {}),
    "actions/upload-artifact": (act_upload_artifact, {"name": "artifact", "if-no-files-found": "warn",
                                                      "overwrite": "false", "include-hidden-files": "false"}),
    "benchmark-action/github-action-benchmark": (act_benchmark, GAB_DEFAULTS),
    "bencherdev/bencher": (act_bencher, {"version": "latest"}),
    "github/codeql-action/upload-sarif": (not_rehearsable(
        "github/codeql-action/upload-sarif uploads to GitHub code scanning: not rehearsable"), {}),
}


def action_for(uses):
    if uses.startswith("docker://"):
        return not_rehearsable(f"{uses}: a container action is not rehearsable"), {}
    if uses.startswith("./") or uses.startswith("../"):
        return not_rehearsable(f"{uses}: a local action is not rehearsable"), {}
    name = uses.split("@", 1)[0].strip().rstrip("/").lower()
    if name.startswith("google/clusterfuzzlite/"):
        return not_rehearsable(f"{name} runs ClusterFuzzLite's containers: not rehearsable"), {}
    if name in ACTIONS:
        return ACTIONS[name]
    return not_rehearsable(f"{name}: no simulation of this action"), {}
