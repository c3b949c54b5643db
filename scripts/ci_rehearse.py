"""./scripts/check-workflows --rehearse WORKFLOW [--job JOB] [--matrix KEY=VALUE]...
       [--event push|pull_request|workflow_dispatch] [--ref REF] [--sha SHA]
       [--secret NAME=VALUE]... [--replace STEP=COMMAND]... [--skip STEP]...
       [--state DIR] [--keep] [--verbose]
(python3 scripts/ci_rehearse.py takes the same arguments)

Rehearses one job of a GitHub workflow on this machine: its `run:` steps, in order, in
a fresh clone of the working tree as it is (a commit object of the tracked, changed and
untracked non-ignored files, made with a temporary index: no ref, no index of yours is
touched), with the variables a runner sets, and each `uses:` step replaced by a
simulation of what the action reads and writes.  Each rehearsal is a new run (a run
counter in the state folder) and a new commit object, so a tracker that compares with
"the last entry of another commit" sees a new push.

Per step: GITHUB_WORKSPACE (the clone), RUNNER_TEMP, RUNNER_OS=Linux, CI=true,
GITHUB_ACTIONS=true, GITHUB_SHA, GITHUB_REF (refs/heads/main), GITHUB_EVENT_NAME,
GITHUB_EVENT_PATH, GITHUB_RUN_ID/NUMBER/ATTEMPT, GITHUB_REPOSITORY (from the origin
remote), GITHUB_JOB, GITHUB_STEP_SUMMARY (the job's, kept), GITHUB_OUTPUT (a fresh file,
into steps.<id>.outputs, NAME=VALUE and NAME<<DELIMITER), GITHUB_ENV and GITHUB_PATH (for
the later steps); workflow, job and step `env:` in that order.  The shell is GitHub's:
`bash -e {0}` when none is named, `bash --noprofile --norc -eo pipefail {0}` for
`shell: bash`, `sh -e {0}`, `python {0}` or a template with {0}; `working-directory`,
`timeout-minutes` (step and job), `continue-on-error` and `if` (default success()) as
GitHub has them.  `container:` and `services:` are not simulated (said so): the steps
run on this machine, as you.

${{ }} expressions: literals, ! && || == != < <= > >=, ( ), a.b and a['b'], a.*.b; the
functions success() failure() always() cancelled() hashFiles() contains() startsWith()
endsWith() format() join() toJSON() fromJSON(); the contexts github, env, secrets,
matrix, steps, runner, job, strategy, inputs, vars.  An unknown function or context, or
a syntax error, is exit 2 naming it and where, before any step runs.

The actions, whatever their pinned ref:
  actions/checkout          nothing (the workspace is the clone); outputs ref, commit
  actions/cache/restore     from the state folder's cache: the key exactly (cache-hit
                            'true'), else the newest entry whose key starts with the key
                            or a restore key, in order (cache-hit 'false'), else nothing
                            (''); an entry only for the same path list, from this ref or
                            refs/heads/main; paths may be globs, relative or absolute
  actions/cache/save        a new entry; an existing key is kept (a warning, the step
                            passes: "Unable to reserve cache"); nothing found: a warning
  actions/cache             restore now, save in a post step when the job succeeded and
                            the key was not hit exactly
  actions/upload-artifact   into STATE/artifacts/run-<id>/<name>/; the same name twice
                            in a run fails (409 Conflict) unless overwrite: true;
                            if-no-files-found error|warn|ignore
  benchmark-action/github-action-benchmark  with external-data-json-path and a custom*
                            tool: its input checks, the data file (missing or invalid:
                            a warning and empty data), the previous suite (the last of
                            another commit), the appended entry, max-items-in-chart,
                            summary-always, and the alert only with comment-on-alert or
                            fail-on-alert (alert-threshold, fail-threshold)
  bencherdev/bencher        says it would install the bencher CLI (offline: it does not)
  github/codeql-action/upload-sarif, google/clusterfuzzlite/*, any other action, a
  docker:// or a local action: the step fails, saying it cannot be rehearsed.

Options:
  --job JOB             the job (default: the only one)
  --matrix KEY=VALUE    pick the matrix combination (default: the first)
  --event E             push (default), pull_request or workflow_dispatch
  --ref REF             GITHUB_REF (default refs/heads/main; refs/pull/1/merge for a
                        pull request)
  --sha SHA             GITHUB_SHA instead of the rehearsal's commit object
  --secret NAME=VALUE   secrets.NAME (every other secret is '')
  --replace STEP=CMD    run CMD (through the step's shell) instead of the step; STEP is
                        its id or its number
  --skip STEP           the step is skipped (outcome and conclusion 'skipped')
  --state DIR           the cache, artifacts, step summaries and logs, kept between
                        rehearsals (default out/rehearse)
  --keep                keep the clone (its path is printed)
  --verbose             print every step's output

One line per step, `[i/n] NAME: success|failure|skipped (S s)`, the annotations a step
printed, the end of a failed step's output; then the job's conclusion and where its
summary, logs and artifacts are.
Exit 0 the job succeeded (or its `if` skipped it); 1 it failed; 2 usage, or a workflow
that cannot be rehearsed (one line naming what); 77 not in a git checkout (skipped);
143 on SIGTERM; on SIGTERM or Ctrl-C the running step's processes are stopped too.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ written into scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.rehearsal import cli  # noqa: E402

if __name__ == "__main__":
    sys.exit(cli.entry(sys.argv, __doc__))
