"""Copies of files and trees for the simulated cache and artifacts: a tree merged over
another, a path copied or hard-linked."""
import os
import shutil


def merge_into(src, dst):
    """Copies the tree `src` over `dst`: files written, folders made, nothing deleted and
    no existing folder's mode or times changed."""
    for folder, dirs, files in os.walk(src):
        rel = os.path.relpath(folder, src)
        target = dst if rel == "." else os.path.join(dst, rel)
        os.makedirs(target, exist_ok=True)
        for name in dirs + files:
            s, d = os.path.join(folder, name), os.path.join(target, name)
            if os.path.islink(s):
                if os.path.lexists(d) and not os.path.isdir(d):
                    os.unlink(d)
                os.symlink(os.readlink(s), d)
            elif name in files:
                if os.path.exists(d) and os.path.samefile(s, d):
                    continue  # the file saved (hard-linked) is still there
                part = os.path.join(target, f".{name}.ci-rehearse-part")
                shutil.copy2(s, part)
                os.replace(part, d)  # never written through: `d` may be another entry's link


def copy_path(path, dest, link=False):
    """Copies a file, folder or symbolic link; link: a file is hard-linked when it can be
    (files outside the workspace, such as apt's downloaded packages, are replaced, not
    edited in place: the link keeps the content saved)."""
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if os.path.islink(path):
        os.symlink(os.readlink(path), dest)
    elif os.path.isdir(path):
        shutil.copytree(path, dest, symlinks=True, dirs_exist_ok=True,
                        copy_function=_link_or_copy if link else shutil.copy2)
    else:
        (_link_or_copy if link else shutil.copy2)(path, dest)


def _link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)

