"""Writing a file so that it is always either wholly old or wholly new (uai-migrate's outputs, uai-run's report)."""

import os
import secrets
import stat

TMP_SUFFIX = ".uai-migrate.tmp"


def atomic_write(path: str | os.PathLike[str], data: bytes, mode: int | None = None, durable: bool = True) -> None:
    """Write `data` to a temp file in the same folder, fsync, then rename over `path`.

    `mode` defaults to the current mode of `path`; an existing file keeps its owner and group
    (where this process may give them). A crash leaves the old file (and at worst a
    `*.uai-migrate.tmp` file); `path` itself is never half-written. `durable=False` skips the
    fsync, for files whose loss in a power cut costs nothing but time (the result cache).
    """
    path = os.fspath(path)
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        old = None
    if mode is None:
        if old is None:
            raise FileNotFoundError(2, "No such file or directory", path)
        mode = stat.S_IMODE(old.st_mode)
    folder, name = os.path.split(path)
    # The name is chosen before the file exists (not by tempfile.mkstemp, which returns it only after
    # creating it): a Ctrl-C between the two left a stray temp file in the user's tree.
    tmp = os.path.join(folder or ".", f".{name}.{secrets.token_hex(4)}{TMP_SUFFIX}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            try:
                os.chown(tmp, old.st_uid, old.st_gid)
            except PermissionError:  # only root gives a file away: the new file is the writer's, as an editor's
                pass
        os.chmod(tmp, mode)  # after chown, which clears set-user/group-ID bits
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def new_file_mode(path: str) -> int:
    """The mode `open(path, "w")` would give: the existing file's, else 0o666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def is_inside(path: str, folder: str) -> bool:
    """Is absolute `path` the absolute `folder` itself or below it? (by path text: resolve links first)"""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
