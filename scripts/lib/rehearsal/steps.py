"""The steps of a rehearsed job: each run in order (its shell, working directory, timeout,
file commands) or simulated (a `uses:` action), its outcome printed; the post steps."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.actions import action_for  # noqa: E402
from lib.rehearsal.file_commands import FileCommandError, escape_data, parse_file_command  # noqa: E402
from lib.rehearsal.simulation import ActionContext, StepFailed  # noqa: E402
from lib.rehearsal.values import to_num, truthy  # noqa: E402
from lib.strict_io import BadInput  # noqa: E402

TAIL_LINES = 20


class Step:
    def __init__(self, index, raw):
        self.index, self.raw = index, raw
        self.id = raw.get("id")
        self.post = False


class StepRunner:
    """The running of a Rehearsal's steps (job.py's Rehearsal is one)."""

    def step_name(self, step, env):
        raw = step.raw
        if raw.get("name") is not None:
            return self.text(raw["name"], env, f"step {step.index} name")
        if raw.get("run") is not None:
            return "Run " + str(raw["run"]).strip().split("\n")[0]
        return "Run " + str(raw.get("uses"))

    def step_env(self, step):
        env = {**self.workflow_env, **self.job_env, **self.github_env}
        for k, v in (step.raw.get("env") or {}).items():
            env[str(k)] = self.text(v, dict(env), f"step {step.index} env.{k}")
        return env

    def run_job(self):
        steps = [Step(i + 1, s) for i, s in enumerate(self.job.get("steps") or [])]
        n = len(steps)
        job_env = {**self.workflow_env, **self.job_env}
        job_timeout = self.value(self.job.get("timeout-minutes", 360), job_env, f"jobs.{self.job_id}.timeout-minutes")
        deadline = time.monotonic() + to_num(job_timeout) * 60
        for step in steps:
            self.run_step(step, n, deadline)
        for step, fn, post_if in reversed(self.posts):
            self.run_post(step, fn, post_if)
        return self.job_status()

    def replaced(self, step, table):
        for key in (None if step.id is None else str(step.id), str(step.index)):
            if key is not None and key in table:
                return key
        return None

    def run_step(self, step, n, deadline):
        raw = step.raw
        env = self.step_env(step)
        name = self.step_name(step, env)
        label = f"[{step.index}/{n}] {name}"
        key = self.replaced(step, self.args.skip_set)
        if key is not None:
            self.finish(step, label, "skipped", "skipped", 0.0, why="--skip")
            return
        where = f"step {step.index} ({name}) if"
        if time.monotonic() > deadline and not self.cancelled:
            self.cancelled = True
            print("  the job's timeout-minutes passed: cancelled", flush=True)
        if not self.condition(raw.get("if"), env, where):
            self.finish(step, label, "skipped", "skipped", 0.0)
            return
        coe = truthy(self.value(raw.get("continue-on-error", False), env, f"step {step.index} continue-on-error"))
        timeout = self.value(raw.get("timeout-minutes"), env, f"step {step.index} timeout-minutes")
        limit = deadline - time.monotonic()
        if timeout is not None:
            limit = min(limit, to_num(timeout) * 60)
        log = os.path.join(self.run_dir, f"step-{step.index:02d}.log")
        t0 = time.monotonic()
        rkey = self.replaced(step, self.args.replace_map)
        outputs = {}
        if rkey is not None or raw.get("run") is not None:
            script = self.args.replace_map[rkey] if rkey is not None else self.text(raw["run"], env, f"step {step.index} run")
            ok, outputs, timed_out = self.run_script(step, script, env, log, limit)
            how = f"--replace {rkey}" if rkey is not None else ""
        else:
            ok, outputs = self.run_action(step, env, log)
            how, timed_out = "", False
        if timed_out:
            how = (how + ", " if how else "") + "timed out"
        if time.monotonic() >= deadline:
            self.cancelled = True  # the job's timeout-minutes: what is left runs as if cancelled
        outcome = "success" if ok else "failure"
        conclusion = "success" if ok or coe else "failure"
        if not ok and coe:
            how = (how + ", " if how else "") + "continue-on-error"
        self.finish(step, label, outcome, conclusion, time.monotonic() - t0, why=how, log=log, outputs=outputs)

    def finish(self, step, label, outcome, conclusion, seconds, why="", log=None, outputs=None):
        if step.id is not None and not step.post:
            self.steps_ctx[str(step.id)] = {"outcome": outcome, "conclusion": conclusion, "outputs": outputs or {}}
        if conclusion == "failure":
            self.status = "failure"
        extra = f", {why}" if why else ""
        print(f"{label}: {outcome} ({seconds:.1f} s{extra})", flush=True)
        if log and os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                lines = f.read().rstrip("\n").split("\n")
            if self.args.verbose:
                for line in lines:
                    print("    | " + self.mask(line))
            notes = [x for x in lines if re.match(r"::(error|warning|notice)( |::)", x)]
            for x in notes[:8]:
                print("    " + self.mask(x)[:300])
            if len(notes) > 8:
                print(f"    ({len(notes) - 8} more annotations in {log})")
            if outcome == "failure" and not self.args.verbose:
                tail = [x for x in lines if x.strip()][-TAIL_LINES:]
                for x in tail:
                    if x not in notes:
                        print("    | " + self.mask(x)[:300])
        sys.stdout.flush()

    def mask(self, text):
        for v in self.secrets.values():
            if v:
                text = text.replace(v, "***")
        return text

    def step_files(self, step):
        d = os.path.join(self.temp, "_runner_file_commands")
        os.makedirs(d, exist_ok=True)
        files = {}
        for k in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"):
            files[k] = os.path.join(d, f"{k.lower()}_{step.index}{'_post' if step.post else ''}")
            open(files[k], "w").close()
        return files

    def process_env(self, step, env, files):
        e = dict(self.base_env)
        e.update(env)
        e.update(files)
        e["GITHUB_ACTION"] = str(step.id) if step.id else f"__run_{step.index}"
        if self.github_path:
            e["PATH"] = os.pathsep.join(reversed(self.github_path)) + os.pathsep + e.get("PATH", "")
        return e

    def shell_command(self, step, script_path, path=None):
        """The step's command line; its programs found on `path`, the step's PATH
        (GITHUB_PATH's folders first), as the runner finds them."""
        shell = step.raw.get("shell")
        if shell is None:
            shell = ((self.job.get("defaults") or {}).get("run") or {}).get("shell")
        if shell is None:
            shell = ((self.wf.get("defaults") or {}).get("run") or {}).get("shell")
        if shell is None:
            return ["bash", "-e", script_path] if shutil.which("bash", path=path) else ["sh", "-e", script_path]
        shell = str(shell)
        builtin = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", "{0}"], "sh": ["sh", "-e", "{0}"],
                   "python": ["python" if shutil.which("python", path=path) else "python3", "{0}"]}
        if shell in builtin:
            argv = builtin[shell]
        elif shell in ("pwsh", "powershell", "cmd"):
            raise BadInput(f"step {step.index} shell", f"{shell}: not on this machine (a Linux rehearsal)")
        else:
            argv = shlex.split(shell)
            if "{0}" not in shell:
                argv.append("{0}")
        return [a.replace("{0}", script_path) for a in argv]

    def working_directory(self, step, env):
        wd = step.raw.get("working-directory")
        if wd is None:
            wd = ((self.job.get("defaults") or {}).get("run") or {}).get("working-directory")
        if wd is None:
            wd = ((self.wf.get("defaults") or {}).get("run") or {}).get("working-directory")
        return os.path.join(self.workspace, self.text(wd, env, f"step {step.index} working-directory")) if wd else self.workspace

    def run_script(self, step, script, env, log, limit):
        files = self.step_files(step)
        ext = ".py" if str(step.raw.get("shell")) == "python" else ".sh"
        script_path = os.path.join(self.temp, f"step-{step.index}{ext}")
        with open(script_path, "w") as f:
            f.write(script)
        cwd = self.working_directory(step, env)
        timed_out = False
        with open(log, "w") as out:
            if not os.path.isdir(cwd):
                out.write(f"Error: An error occurred trying to start process: working directory '{cwd}' does not exist\n")
                return False, {}, False
            penv = self.process_env(step, env, files)
            p = subprocess.Popen(self.shell_command(step, script_path, penv.get("PATH")), cwd=cwd, env=penv,
                                 stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                rc = p.wait(timeout=max(limit, 0.01))
            except subprocess.TimeoutExpired:
                timed_out = True
                stop_group(p)
                rc = -1
                out.write("\n##[error]The action has timed out.\n")
            except BaseException:
                stop_group(p)
                raise
        ok = rc == 0
        if not ok and not timed_out:
            with open(log, "a") as out:
                out.write(f"##[error]Process completed with exit code {rc}.\n")
        outputs, problem = self.apply_files(step, files)
        if problem:
            with open(log, "a") as out:
                out.write(f"::error::{escape_data(problem)}\n")
            ok = False
        return ok, outputs, timed_out

    def apply_files(self, step, files):
        """The step's GITHUB_OUTPUT (its outputs), GITHUB_ENV and GITHUB_PATH (for the
        later steps) and its summary (appended to the job's)."""
        outputs, problem = {}, None
        try:
            for k, v in parse_file_command(files["GITHUB_OUTPUT"]):
                outputs[k] = v
            for k, v in parse_file_command(files["GITHUB_ENV"]):
                self.github_env[k] = v
        except FileCommandError as e:
            problem = f"Unable to process file command successfully: {e}"
        with open(files["GITHUB_PATH"], encoding="utf-8", errors="replace") as f:
            for line in f.read().split("\n"):
                if line.strip():
                    if line in self.github_path:
                        self.github_path.remove(line)
                    self.github_path.append(line)
        with open(files["GITHUB_STEP_SUMMARY"], encoding="utf-8", errors="replace") as f:
            self.append_summary(f.read())
        return outputs, problem

    def append_summary(self, text):
        if text:
            with open(self.summary_path, "a", encoding="utf-8") as f:
                f.write(text)

    def run_action(self, step, env, log):
        uses = str(step.raw["uses"]).strip()
        fn, defaults = action_for(uses)
        inputs = {str(k): self.text(v, env, f"step {step.index} with.{k}") for k, v in (step.raw.get("with") or {}).items()}
        ctx = ActionContext(self, step, inputs, defaults)
        self.env_for_actions = {**self.base_env, **env}
        return self.call_action(ctx, fn, log)

    def call_action(self, ctx, fn, log):
        ok = True
        try:
            fn(ctx)
        except StepFailed as e:
            ctx.lines.append("::error::" + escape_data(str(e)))
            ok = False
        except OSError as e:
            ctx.lines.append("::error::" + escape_data(f"{e.filename or ''}: {(e.strerror or str(e)).lower()}"))
            ok = False
        self.append_summary(ctx.summary)
        with open(log, "w") as f:
            f.write("\n".join(ctx.lines) + "\n")
        return ok, dict(ctx.outputs)

    def run_post(self, step, fn, post_if):
        env = self.step_env(step)
        name = "Post " + self.step_name(step, env)
        label = f"[post {step.index}] {name}"
        post = Step(step.index, step.raw)
        post.post = True
        if not self.condition(post_if, env, f"step {step.index} post-if"):
            self.finish(post, label, "skipped", "skipped", 0.0, why="post-if: " + post_if)
            return
        t0 = time.monotonic()
        ctx = ActionContext(self, post, {}, {})
        self.env_for_actions = {**self.base_env, **env}
        log = os.path.join(self.run_dir, f"step-{step.index:02d}-post.log")
        ok, _ = self.call_action(ctx, fn, log)
        self.finish(post, label, "success" if ok else "failure", "success" if ok else "failure",
                    time.monotonic() - t0, log=log)


def stop_group(p):
    """Ends the process group this rehearsal started for a step (TERM, then KILL)."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
