"""The rehearsal of one job: its contexts (github, env, secrets, matrix, steps, runner,
job, strategy, inputs, vars), the runner's variables and event payload, its `if`s and
${{ }} values; its steps are steps.py's."""
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.evaluator import Evaluator  # noqa: E402
from lib.rehearsal.expressions import STATUS_FUNCTIONS, ExprError, names_in, parse_expression, template_parts  # noqa: E402
from lib.rehearsal.globs import hash_files  # noqa: E402
from lib.rehearsal.repository import repository_of  # noqa: E402
from lib.rehearsal.simulation import StepFailed  # noqa: E402
from lib.rehearsal.steps import StepRunner  # noqa: E402
from lib.rehearsal.values import to_str, truthy  # noqa: E402
from lib.strict_io import BadInput  # noqa: E402


class Rehearsal(StepRunner):
    """One job's rehearsal: its contexts, set-up and `if`s (its steps: StepRunner)."""

    def __init__(self, args, workflow_path, wf, job_id, job, state, root):
        self.args, self.workflow_path, self.wf, self.job_id, self.job = args, workflow_path, wf, job_id, job
        self.state, self.root = state, root
        self.secrets = dict(args.secret_pairs)
        self.cache_state, self.posts, self.artifacts = {}, [], []
        self.steps_ctx, self.status, self.cancelled = {}, "success", False
        self.server_url = "https://github.com"
        self.workflow_name = to_str(wf.get("name")) or self.workflow_file()
        self.event = args.event
        self.ref = args.ref or ("refs/pull/1/merge" if self.event == "pull_request" else "refs/heads/main")
        self.github_env = {}
        self.github_path = []
        self.env_for_actions = {}

    def workflow_file(self):
        """The workflow's path in the repository (a file from elsewhere: as if it were in
        .github/workflows/)."""
        rel = os.path.relpath(self.workflow_path, self.root)
        return rel if not rel.startswith("..") else f".github/workflows/{os.path.basename(self.workflow_path)}"

    # ---------------------------------------------------------------- expressions --
    def contexts(self, env):
        return {"github": self.github_ctx, "env": env, "secrets": self.secrets_ctx, "matrix": self.matrix,
                "steps": self.steps_ctx, "runner": self.runner_ctx, "job": {"status": self.job_status()},
                "strategy": self.strategy_ctx, "inputs": self.inputs_ctx, "vars": {}}

    def job_status(self):
        return "cancelled" if self.cancelled else self.status

    def evaluator(self, env):
        return Evaluator(self.contexts(env), self.job_status, self.hash_files)

    def hash_files(self, patterns):
        if self.workspace is None:  # before the clone: the job's strategy, where GitHub has no hashFiles()
            raise ExprError("hashFiles() is not available here (GitHub has it in a job's steps, not its strategy)")
        return hash_files(self.workspace, patterns)

    def value(self, v, env, where):
        """A workflow value: a string with ${{ }} evaluated (alone: the value itself)."""
        if not isinstance(v, str) or "${{" not in v:
            return v
        try:
            parts = template_parts(v)
            ev = self.evaluator(env)
            if len(parts) == 3 and not parts[0][1].strip() and not parts[2][1].strip() and parts[1][0]:
                return ev.eval(parse_expression(parts[1][1]))
            return "".join(to_str(ev.eval(parse_expression(t))) if is_expr else t for is_expr, t in parts)
        except ExprError as e:
            raise BadInput(where, str(e)) from None

    def text(self, v, env, where):
        return to_str(self.value(v, env, where)) if v is not None else ""

    def condition(self, cond, env, where, default="success()"):
        """An `if`: its ${{ }} optional; success() && (...) unless it names a status function."""
        if cond is None:
            cond = default
        if isinstance(cond, bool):
            return cond
        if isinstance(cond, (int, float)):
            return truthy(cond)
        text = str(cond).strip()
        try:
            parts = template_parts(text) if "${{" in text else [(True, text)]
            if len(parts) == 3 and not parts[0][1].strip() and not parts[2][1].strip() and parts[1][0]:
                parts = [(True, parts[1][1])]
            if len(parts) != 1:
                return truthy(self.value(text, env, where))
            node = parse_expression(parts[0][1])
            if not any(k == "call" and n in STATUS_FUNCTIONS for k, n in names_in(node, set())):
                node = ("bin", "&&", ("call", "success", []), node)
            return truthy(self.evaluator(env).eval(node))
        except ExprError as e:
            raise BadInput(where, str(e)) from None

    # ------------------------------------------------------------------ set-up --
    def setup(self, workspace, temp, sha, run_id, matrix, job_of, commit_info):
        self.workspace, self.temp, self.sha, self.run_id, self.matrix = workspace, temp, sha, run_id, matrix
        self.commit_info = commit_info
        self.repository = repository_of(self.root)
        self.run_dir = os.path.join(self.state.root, "runs", f"run-{run_id}", self.job_id)
        os.makedirs(self.run_dir, exist_ok=True)
        self.summary_path = os.path.join(self.run_dir, "summary.md")
        open(self.summary_path, "w").close()
        on = self.wf.get("on", self.wf.get(True))
        dispatch = (on.get("workflow_dispatch") or {}) if isinstance(on, dict) else {}
        inputs = (dispatch.get("inputs") or {}) if self.event == "workflow_dispatch" else {}
        self.inputs_ctx = {str(k): to_str((v or {}).get("default", "")) for k, v in inputs.items()}
        self.payload = self.make_payload()
        self.event_path = os.path.join(temp, "_github_workflow", "event.json")
        os.makedirs(os.path.dirname(self.event_path), exist_ok=True)
        with open(self.event_path, "w") as f:
            json.dump(self.payload, f, indent=2)
        self.github_ctx = self.make_github_ctx()
        self.secrets_ctx = {"GITHUB_TOKEN": self.github_ctx["token"], **self.secrets}
        self.runner_ctx = {"os": "Linux", "arch": "X64", "name": "rehearsal", "temp": temp,
                           "tool_cache": os.path.join(os.path.dirname(temp), "_tool"), "debug": "",
                           "environment": "github-hosted"}
        # job_of: the combination's 0-based index among the matrix's and their number;
        # max-parallel is that number unless set (docs.github.com, contexts#strategy-context:
        # the last job of four is job-index 3, job-total 4, max-parallel 4); a job without a
        # matrix: 0, 1, 1.
        strategy = self.job.get("strategy") or {}
        job_index, job_total = job_of
        self.strategy_ctx = {"fail-fast": strategy.get("fail-fast", True), "job-index": job_index,
                             "job-total": job_total, "max-parallel": strategy.get("max-parallel", job_total)}
        home = os.path.join(os.path.dirname(temp), "home")
        os.makedirs(home, exist_ok=True)
        self.base_env = self.make_base_env(home)
        self.env_for_actions = self.base_env
        self.workflow_env = {}
        for k, v in (self.wf.get("env") or {}).items():
            self.workflow_env[str(k)] = self.text(v, dict(self.workflow_env), f"env.{k}")
        self.job_env = {}
        for k, v in (self.job.get("env") or {}).items():
            self.job_env[str(k)] = self.text(v, {**self.workflow_env, **self.job_env}, f"jobs.{self.job_id}.env.{k}")

    def make_github_ctx(self):
        """The github context of the job's expressions (after setup's payload and paths)."""
        ref_name = re.sub(r"^refs/(heads|tags)/", "", self.ref)
        return {
            "sha": self.sha, "ref": self.ref, "ref_name": ref_name,
            "ref_type": "tag" if self.ref.startswith("refs/tags/") else "branch",
            "run_id": str(self.run_id), "run_number": str(self.run_id), "run_attempt": "1", "event_name": self.event,
            "event": self.payload, "event_path": self.event_path, "workspace": self.workspace,
            "token": "ghs_rehearsalDummyToken000000000000000", "repository": self.repository,
            "repository_owner": self.repository.split("/")[0], "job": self.job_id, "workflow": self.workflow_name,
            "actor": "rehearsal", "triggering_actor": "rehearsal", "server_url": self.server_url,
            "api_url": "https://api.github.com", "graphql_url": "https://api.github.com/graphql",
            "head_ref": "rehearsal" if self.event == "pull_request" else "",
            "base_ref": "main" if self.event == "pull_request" else "", "action": "", "retention_days": "90",
            "workflow_ref": f"{self.repository}/{self.workflow_file()}@{self.ref}",
            "path": "", "env": "", "output": "", "step_summary": self.summary_path,
        }

    def make_base_env(self, home):
        """The environment every step starts from: this process's without its GITHUB_*,
        RUNNER_*, ACTIONS_* and CI, then the runner's variables of this job."""
        g, temp = self.github_ctx, self.temp
        base = {k: v for k, v in os.environ.items()
                if not (k.startswith("GITHUB_") or k.startswith("RUNNER_") or k.startswith("ACTIONS_") or k == "CI")}
        base.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": self.workspace, "GITHUB_SHA": self.sha,
            "GITHUB_REF": self.ref, "GITHUB_REF_NAME": g["ref_name"], "GITHUB_REF_TYPE": g["ref_type"],
            "GITHUB_EVENT_NAME": self.event, "GITHUB_EVENT_PATH": self.event_path, "GITHUB_RUN_ID": str(self.run_id),
            "GITHUB_RUN_NUMBER": str(self.run_id), "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REPOSITORY": self.repository,
            "GITHUB_REPOSITORY_OWNER": g["repository_owner"], "GITHUB_JOB": self.job_id,
            "GITHUB_WORKFLOW": self.workflow_name,
            "GITHUB_WORKFLOW_REF": g["workflow_ref"], "GITHUB_ACTOR": "rehearsal",
            "GITHUB_TRIGGERING_ACTOR": "rehearsal", "GITHUB_SERVER_URL": self.server_url,
            "GITHUB_API_URL": "https://api.github.com", "GITHUB_GRAPHQL_URL": "https://api.github.com/graphql",
            "GITHUB_HEAD_REF": g["head_ref"], "GITHUB_BASE_REF": g["base_ref"],
            "GITHUB_RETENTION_DAYS": "90", "GITHUB_STEP_SUMMARY": self.summary_path,
            "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_NAME": "rehearsal", "RUNNER_TEMP": temp,
            "RUNNER_TOOL_CACHE": self.runner_ctx["tool_cache"], "RUNNER_ENVIRONMENT": "github-hosted",
            # The job's own HOME (a container job's is /github/home): a step's `git config
            # --global` or cache under ~ stays in the rehearsal, never in the user's home.
            "HOME": home,
        })
        return base

    def make_payload(self):
        c = self.commit_info
        repo = {"full_name": self.repository, "name": self.repository.split("/")[-1],
                "html_url": f"{self.server_url}/{self.repository}", "owner": {"login": self.repository.split("/")[0]},
                "private": False, "default_branch": "main"}
        head = {"id": self.sha, "tree_id": c["tree"], "distinct": True, "message": c["message"],
                "timestamp": c["timestamp"], "url": f"{self.server_url}/{self.repository}/commit/{self.sha}",
                "author": {"name": c["author_name"], "email": c["author_email"]},
                "committer": {"name": c["committer_name"], "email": c["committer_email"]},
                "added": [], "removed": [], "modified": []}
        if self.event == "push":
            return {"ref": self.ref, "before": c["parent"], "after": self.sha, "created": False, "deleted": False,
                    "forced": False, "compare": f"{self.server_url}/{self.repository}/compare", "commits": [head],
                    "head_commit": head, "repository": repo, "pusher": {"name": "rehearsal"}, "sender": {"login": "rehearsal"}}
        if self.event == "pull_request":
            pr = {"number": 1, "title": c["message"].split("\n")[0], "html_url": f"{self.server_url}/{self.repository}/pull/1",
                  "head": {"sha": self.sha, "ref": "rehearsal", "user": {"login": "rehearsal"},
                           "repo": {**repo, "updated_at": c["timestamp"]}},
                  "base": {"sha": c["parent"], "ref": "main", "repo": repo}}
            return {"action": "synchronize", "number": 1, "pull_request": pr, "repository": repo, "sender": {"login": "rehearsal"}}
        return {"ref": self.ref, "inputs": self.inputs_ctx, "repository": repo,
                "workflow": self.workflow_file(), "sender": {"login": "rehearsal"}}

    def payload_commit(self, token):
        """github-action-benchmark's commit: the push's head_commit, a pull request's head,
        or (with a token) the API's commit of the ref."""
        if self.payload.get("head_commit"):
            return copy.deepcopy(self.payload["head_commit"])
        pr = self.payload.get("pull_request")
        if pr:
            user = {"name": pr["head"]["user"]["login"], "username": pr["head"]["user"]["login"]}
            return {"author": user, "committer": user, "id": pr["head"]["sha"], "message": pr["title"],
                    "timestamp": pr["head"]["repo"]["updated_at"], "url": f"{pr['html_url']}/commits/{pr['head']['sha']}"}
        if not token:
            raise StepFailed(f"No commit information is found in payload: {json.dumps(self.payload, indent=2)}. Also, no "
                             "'github-token' provided, could not fallback to GitHub API Request.")
        c = self.commit_info
        return {"author": {"name": c["author_name"], "email": c["author_email"]},
                "committer": {"name": c["committer_name"], "email": c["committer_email"]},
                "id": self.sha, "message": c["message"], "timestamp": c["timestamp"],
                "url": f"{self.server_url}/{self.repository}/commit/{self.sha}"}

    def add_post(self, step, fn, post_if):
        self.posts.append((step, fn, post_if))
