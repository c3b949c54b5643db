"""The rehearsal's command line (scripts/ci_rehearse.py, whose docstring is the --help):
the options, the run of one job from the snapshot to its conclusion, the exit codes."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.cli import EXIT_BAD, EXIT_FAIL, EXIT_OK, Parser, run  # noqa: E402
from lib.rehearsal.job import Rehearsal  # noqa: E402
from lib.rehearsal.repository import Skip, clone, commit_info, repo_root, snapshot  # noqa: E402
from lib.rehearsal.state import State  # noqa: E402
from lib.rehearsal.values import to_str  # noqa: E402
from lib.rehearsal.workflow import matrix_combinations, read_workflow  # noqa: E402
from lib.strict_io import BadInput, shown  # noqa: E402

EXIT_SKIP = 77
PROG = "check-workflows --rehearse"
EVENTS = ("push", "pull_request", "workflow_dispatch")


def pairs(values, option, parser):
    out = []
    for v in values or []:
        k, sep, rest = v.partition("=")
        if not sep or not k:
            parser.error(f"{option} {v!r}: expected NAME=VALUE")
        out.append((k, rest))
    return out



def parse_args(argv, doc):
    p = Parser(PROG, doc)
    p.add_argument("workflow", metavar="WORKFLOW")
    p.add_argument("--job")
    p.add_argument("--matrix", action="append", metavar="KEY=VALUE")
    p.add_argument("--event", choices=EVENTS, default="push")
    p.add_argument("--ref")
    p.add_argument("--sha", metavar="SHA")
    p.add_argument("--secret", action="append", metavar="NAME=VALUE")
    p.add_argument("--replace", action="append", metavar="STEP=COMMAND")
    p.add_argument("--skip", action="append", metavar="STEP")
    p.add_argument("--state", metavar="DIR")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args(argv[1:])
    a.secret_pairs = pairs(a.secret, "--secret", p)
    a.replace_map = dict(pairs(a.replace, "--replace", p))
    a.matrix_pairs = pairs(a.matrix, "--matrix", p)
    a.skip_set = set(a.skip or [])
    if a.ref is not None and not a.ref.startswith("refs/"):
        p.error(f"--ref {a.ref!r}: expected refs/heads/..., refs/tags/... or refs/pull/...")
    if a.sha is not None and not re.fullmatch(r"[0-9a-f]{7,64}", a.sha):
        p.error(f"--sha {a.sha!r}: expected a hexadecimal commit id")
    return a


def choose_combination(r):
    """The --matrix combination of the job's matrix (its expressions evaluated with the
    contexts empty, as before the job's set-up): (the combination, (its index, how many))."""
    a, job_id, job = r.args, r.job_id, r.job
    r.secrets_ctx, r.github_ctx, r.runner_ctx, r.strategy_ctx, r.inputs_ctx = {}, {}, {}, {}, {}
    r.matrix = {}
    r.workspace = None
    pre_env = {}
    combos = matrix_combinations(lambda v: r.value(v, pre_env, f"jobs.{job_id}.strategy.matrix"),
                                 (job.get("strategy") or {}).get("matrix"))
    chosen = [i for i, c in enumerate(combos) if all(k in c and to_str(c[k]) == v for k, v in a.matrix_pairs)]
    if not chosen:
        shown_combos = "; ".join(", ".join(f"{k}={to_str(v)}" for k, v in c.items()) for c in combos)
        raise BadInput("--matrix", f"no combination of jobs.{job_id}'s matrix has {' '.join(a.matrix)}: {shown_combos}")
    return combos[chosen[0]], (chosen[0], len(combos))


def announce(r):
    """Print what is rehearsed (and what of the job is not simulated); the job's name."""
    job, job_id, path, root = r.job, r.job_id, r.workflow_path, r.root
    job_name = r.text(job.get("name"), {**r.workflow_env, **r.job_env}, f"jobs.{job_id}.name") or \
        (job_id + (f" ({', '.join(to_str(v) for v in r.matrix.values())})" if r.matrix else ""))
    print(f"rehearsal: {os.path.relpath(path, root) if path.startswith(root + '/') else path} job {job_name} "
          f"(run {r.run_id}, commit {r.sha}, {r.event} to {r.ref})", flush=True)
    for key in ("container", "services"):
        if job.get(key):
            what = job[key] if isinstance(job[key], str) else (job[key].get("image") if key == "container" and isinstance(job[key], dict) else ", ".join(job[key]))
            print(f"  note: {key} {what} is not simulated: the steps run on this machine", flush=True)
    return job_name


def conclude(r, job_name, status, workspace):
    """Print the job's conclusion and where its records are; the exit status."""
    conclusion = "success" if status == "success" else "failure" if status == "failure" else "cancelled"
    print(f"job {job_name}: {conclusion}")
    print(f"  step summary: {r.summary_path}" + ("" if os.path.getsize(r.summary_path) else " (empty)"))
    print(f"  step logs: {r.run_dir}")
    if r.artifacts:
        print(f"  artifacts: {os.path.join(r.state.root, 'artifacts', f'run-{r.run_id}')} ({', '.join(r.artifacts)})")
    if r.args.keep:
        print(f"  the clone: {workspace}")
    return EXIT_OK if conclusion == "success" else EXIT_FAIL


def main(argv, doc):
    a = parse_args(argv, doc)
    path, wf, job_id, job = read_workflow(a)
    root = repo_root()
    state = State(a.state or os.path.join(root, "out", "rehearse"))
    r = Rehearsal(a, path, wf, job_id, job, state, root)
    matrix, job_of = choose_combination(r)

    run_id = state.next_run()
    sha, parent = snapshot(root, run_id)
    tmp = tempfile.mkdtemp(prefix="ci-rehearse-")
    name = os.path.basename(root)
    workspace = os.path.join(tmp, "work", name, name)
    temp = os.path.join(tmp, "work", "_temp")
    os.makedirs(temp)
    try:
        clone(root, sha, workspace)
        info = commit_info(root, sha, parent)
        r.setup(workspace, temp, a.sha or sha, run_id, matrix, job_of, info)
        job_name = announce(r)
        if not r.condition(job.get("if"), {**r.workflow_env, **r.job_env}, f"jobs.{job_id}.if"):
            print(f"job {job_name}: skipped (its if)")
            return EXIT_OK
        return conclude(r, job_name, r.run_job(), workspace)
    finally:
        if not a.keep:
            shutil.rmtree(tmp, onerror=_force_remove)


def _force_remove(func, path, _exc):
    try:
        os.chmod(os.path.dirname(path), 0o700)
        os.chmod(path, 0o700)
        func(path)
    except OSError:
        pass


def _terminated(signum, _frame):
    """SIGTERM (a CI cancel, `timeout`, `kill`): unwind as Ctrl-C does, so that the step
    running in its own session is stopped too (run_step's handler), not left behind."""
    raise SystemExit(128 + signum)


def entry(argv, doc):
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return run(PROG, lambda args: main(args, doc), argv)
    except Skip as e:
        print(f"{PROG}: SKIPPED: {shown(e)}")
        return EXIT_SKIP
    except RuntimeError as e:
        print(f"{PROG}: {shown(e)}", file=sys.stderr)
        return EXIT_BAD
    except subprocess.CalledProcessError as e:
        err = (e.stderr or b"").decode(errors="replace").strip().splitlines()
        print(f"{PROG}: {' '.join(map(str, e.cmd[:2]))}: {shown(err[-1] if err else 'exit ' + str(e.returncode))}",
              file=sys.stderr)
        return EXIT_BAD
