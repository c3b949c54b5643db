"""The git side of a rehearsal: the checkout this script is in, a commit object of its
working tree (no ref, no index touched) and the clone the steps run in."""
import os
import re
import shutil
import subprocess
import tempfile


class Skip(Exception):
    """The rehearsal cannot run here (exit 77)."""


HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/


def git(root, *args, env=None, check=True):
    p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if check and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:2])}: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'exit ' + str(p.returncode)}")
    return p.stdout.strip()


def repo_root():
    """The checkout this script is in, or Skip."""
    if not shutil.which("git"):
        raise Skip("git is not installed")
    p = subprocess.run(["git", "-C", os.path.dirname(HERE), "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        raise Skip(f"{os.path.dirname(HERE)} is not in a git checkout")
    return p.stdout.strip()


def repository_of(root):
    url = git(root, "remote", "get-url", "origin", check=False)
    m = re.search(r"github\.com[:/]+([^/]+)/([^/]+?)(?:\.git)?/?$", url)
    return f"{m.group(1)}/{m.group(2)}" if m else f"local/{os.path.basename(root)}"


def identity_env():
    env = dict(os.environ)
    for who in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{who}_NAME", "neffbar rehearsal")
        env.setdefault(f"GIT_{who}_EMAIL", "rehearsal@localhost")
    return env


def snapshot(root, run_id):
    """A commit object of the working tree as it is (tracked, changed, untracked and not
    ignored), its parent HEAD; made with a temporary index, no ref changed."""
    with tempfile.TemporaryDirectory(prefix="ci-rehearse-index-") as t:
        index = os.path.join(t, "index")
        real = git(root, "rev-parse", "--path-format=absolute", "--git-path", "index")
        if os.path.exists(real):
            shutil.copyfile(real, index)
        env = dict(os.environ, GIT_INDEX_FILE=index)
        git(root, "add", "-A", "--", ".", env=env)
        tree = git(root, "write-tree", env=env)
    head = git(root, "rev-parse", "--verify", "-q", "HEAD^{commit}", check=False)
    parents = ["-p", head] if head else []
    env = identity_env()
    if git(root, "var", "GIT_COMMITTER_IDENT", check=False):
        env = dict(os.environ)
    sha = git(root, "commit-tree", tree, *parents, "-m",
              f"rehearsal run {run_id} of the working tree\n\n(scripts/ci_rehearse.py: a commit object no ref points to)",
              env=env)
    return sha, head or "0" * 40


def clone(root, sha, workspace):
    """The checkout of `sha` in `workspace`: a local clone of the repository whose objects
    are shared (the alternates `git clone --shared` writes: the commit no ref points to is
    there too, from a worktree as well)."""
    os.makedirs(os.path.dirname(workspace), exist_ok=True)
    subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", root, workspace],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    common = git(root, "rev-parse", "--path-format=absolute", "--git-common-dir")
    shallow = os.path.join(common, "shallow")
    if os.path.exists(shallow):
        shutil.copyfile(shallow, os.path.join(workspace, ".git", "shallow"))
    git(workspace, "checkout", "--quiet", "--detach", sha)


def commit_info(root, sha, parent):
    fmt = "%T%x00%an%x00%ae%x00%cn%x00%ce%x00%aI%x00%B"
    tree, an, ae, cn, ce, date, msg = git(root, "show", "-s", f"--format={fmt}", sha).split("\x00", 6)
    return {"tree": tree, "author_name": an, "author_email": ae, "committer_name": cn, "committer_email": ce,
            "timestamp": date, "message": msg.strip(), "parent": parent}
