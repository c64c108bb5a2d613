"""Copying a user's file into --out (writing one is compat.files.atomic_write: wholly old or wholly new)."""

import errno
import os
import shutil


def copy_into(source: str, dest: str) -> None:
    """Copy a file (mode and times kept) or re-create a symlink, making the folders."""
    os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
    if os.path.lexists(dest):
        if not os.path.islink(dest) and os.path.samefile(source, dest):
            # unlinking dest would delete the only copy (callers refuse such an --out before this)
            raise OSError(errno.EINVAL, "source and destination are the same file", dest)
        os.unlink(dest)
    shutil.copy2(source, dest, follow_symlinks=False)
