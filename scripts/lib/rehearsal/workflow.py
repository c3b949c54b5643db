"""The workflow file read as GitHub reads it (YAML 1.2's booleans), its job picked and
checked before anything runs (every ${{ }} parsed, its names known), the matrix."""
import itertools
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.expressions import ExprError, check_names, parse_expression, template_parts  # noqa: E402
from lib.rehearsal.repository import Skip  # noqa: E402
from lib.rehearsal.values import loose_eq  # noqa: E402
from lib.strict_io import BadInput  # noqa: E402


def walk_strings(node, where, out):
    if isinstance(node, str):
        out.append((where, node))
    elif isinstance(node, dict):
        for k, v in node.items():
            walk_strings(v, f"{where}.{k}", out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk_strings(v, f"{where}[{i}]", out)
    return out


def check_expressions(wf, job_id, job, path):
    """Every ${{ }} of the workflow's env and the job, and every `if`, parsed, and its
    functions and contexts known: a rehearsal that would meet an unknown one stops here."""
    strings = walk_strings({k: wf.get(k) for k in ("env", "concurrency", "run-name") if wf.get(k) is not None}, "", [])
    strings += walk_strings({k: v for k, v in job.items() if k != "steps"}, f"jobs.{job_id}", [])
    ifs = []
    for i, s in enumerate(job.get("steps") or [], 1):
        label = f"jobs.{job_id}.steps[{i}]" + (f" ({s['id']})" if isinstance(s, dict) and s.get("id") else "")
        if not isinstance(s, dict):
            raise BadInput(path, f"{label}: not a mapping")
        if ("run" in s) == ("uses" in s):
            raise BadInput(path, f"{label}: a step needs exactly one of run and uses")
        strings += walk_strings({k: v for k, v in s.items() if k != "if"}, label, [])
        if isinstance(s.get("if"), str):
            ifs.append((f"{label}.if", s["if"]))
    if isinstance(job.get("if"), str):
        ifs.append((f"jobs.{job_id}.if", job["if"]))
    for where, text in strings + ifs:
        try:
            exprs = [t for is_expr, t in template_parts(text) if is_expr] if "${{" in text else []
            if (where, text) in ifs and "${{" not in text:
                exprs = [text]
            for e in exprs:
                check_names(parse_expression(e))
        except ExprError as e:
            raise BadInput(path, f"{where}: {e}") from None


def matrix_combinations(rehearsal_value, matrix):
    if not matrix:
        return [{}]
    if isinstance(matrix, str):
        matrix = rehearsal_value(matrix)
    if not isinstance(matrix, dict):
        raise ExprError("strategy.matrix is not a mapping")
    base = {k: rehearsal_value(v) for k, v in matrix.items() if k not in ("include", "exclude")}
    for k, v in base.items():
        if not isinstance(v, list):
            raise ExprError(f"strategy.matrix.{k} is not a list")
    combos = [dict(zip(base, vals)) for vals in itertools.product(*base.values())] if base else []
    for ex in rehearsal_value(matrix.get("exclude")) or []:
        combos = [c for c in combos if not all(loose_eq(c.get(k), v) for k, v in ex.items())]
    originals = [dict(c) for c in combos]
    for inc in rehearsal_value(matrix.get("include")) or []:
        fits = [i for i, o in enumerate(originals) if all(k not in o or loose_eq(o[k], v) for k, v in inc.items())]
        if fits:
            for i in fits:
                combos[i].update(inc)
        else:
            combos.append(dict(inc))
    return combos


def pick_job(wf, job_name, path):
    jobs = wf.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        raise BadInput(path, "no jobs")
    if job_name is None:
        if len(jobs) != 1:
            raise BadInput(path, f"{len(jobs)} jobs, pick one with --job: {', '.join(map(str, jobs))}")
        job_name = next(iter(jobs))
    if job_name not in jobs:
        raise BadInput(path, f"no job {job_name!r} (--job): {', '.join(map(str, jobs))}")
    job = jobs[job_name]
    if not isinstance(job, dict):
        raise BadInput(path, f"jobs.{job_name}: not a mapping")
    if "uses" in job:
        raise BadInput(path, f"jobs.{job_name} calls a reusable workflow ({job['uses']}): not rehearsable")
    if not isinstance(job.get("steps"), list) or not job["steps"]:
        raise BadInput(path, f"jobs.{job_name}: no steps")
    return job_name, job


def load_yaml(text):
    """The workflow as GitHub reads it (YAML 1.2's core schema): only true/false (any
    case of those) are booleans, so `on`, `yes`, `no`, `off` stay strings (PyYAML's
    YAML 1.1 would make `on` the key True and `fail-on-alert: yes` a boolean)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass
    Loader.yaml_implicit_resolvers = {
        k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))
    return yaml.load(text, Loader=Loader)


def triggers(wf):
    on = wf.get("on", wf.get(True))
    if isinstance(on, str):
        return [on]
    if isinstance(on, list):
        return [str(x) for x in on]
    if isinstance(on, dict):
        return [str(x) for x in on]
    return []



def read_workflow(a):
    """The workflow file, its --event checked, --job picked, its expressions, --replace
    and --skip checked: (its absolute path, the workflow, the job's id, the job)."""
    try:
        import yaml
    except ImportError:
        raise Skip("PyYAML is not installed (python3-yaml)") from None
    path = os.path.abspath(a.workflow)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        wf = load_yaml(text)
    except yaml.YAMLError as e:
        raise BadInput(path, f"not YAML: {str(e).splitlines()[0]}") from None
    if not isinstance(wf, dict):
        raise BadInput(path, "not a workflow (no mapping)")
    on = triggers(wf)
    if a.event not in on:
        raise BadInput(path, f"does not run on {a.event} (--event; on: {', '.join(on) or 'nothing'})")
    job_id, job = pick_job(wf, a.job, path)
    check_expressions(wf, job_id, job, path)
    steps = job["steps"]
    known = {str(s.get("id")) for s in steps if s.get("id") is not None} | {str(i) for i in range(1, len(steps) + 1)}
    for option, keys in (("--replace", a.replace_map), ("--skip", a.skip_set)):
        for k in keys:
            if k not in known:
                ids = sorted(x for x in known if not x.isdigit())
                raise BadInput(option, f"no step {k!r} in jobs.{job_id} (ids: {', '.join(ids) or 'none'}; or 1..{len(steps)})")
    return path, wf, job_id, job
