"""Writing a user's file so that it is always either wholly old or wholly new."""

import errno
import os
import shutil
import stat
import tempfile

TMP_SUFFIX = ".uai-migrate.tmp"


def atomic_write(path: str | os.PathLike[str], data: bytes, mode: int | None = None, durable: bool = True) -> None:
    """Write `data` to a temp file in the same folder, fsync, then rename over `path`.

    `mode` defaults to the current mode of `path`. A crash leaves the old file (and at worst a
    `*.uai-migrate.tmp` file); `path` itself is never half-written. `durable=False` skips the
    fsync, for files whose loss in a power cut costs nothing but time (the result cache).
    """
    path = os.fspath(path)
    if mode is None:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    folder, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=TMP_SUFFIX, dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def copy_into(source: str, dest: str) -> None:
    """Copy a file (mode and times kept) or re-create a symlink, making the folders."""
    os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
    if os.path.lexists(dest):
        if not os.path.islink(dest) and os.path.samefile(source, dest):
            # unlinking dest would delete the only copy (callers refuse such an --out before this)
            raise OSError(errno.EINVAL, "source and destination are the same file", dest)
        os.unlink(dest)
    shutil.copy2(source, dest, follow_symlinks=False)
