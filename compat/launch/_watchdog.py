"""The launcher's dead man's switch: when the launcher dies, every task's process group dies too.

Run by path (`python -I -S _watchdog.py`, importing nothing from the project) in its own session,
so a signal sent to the launcher's process group does not reach it. Its stdin is a pipe from the
launcher, which writes `+PGID` when a task starts and `-PGID` once it has killed that task's group
itself. End of file means the launcher is gone: it exited, or was SIGKILLed and the kernel closed
its end. Then every group still registered gets SIGTERM and, after GRACE_SECONDS, SIGKILL. A
killed process group takes the task's children along, which the kernel's parent-death signal
(PR_SET_PDEATHSIG) cannot do: it only reaches the direct child.
"""

import os
import signal
import sys
import time

GRACE_SECONDS = 2.0


def _signal(groups: set[int], signum: int) -> None:
    for group in list(groups):
        try:
            os.killpg(group, signum)
        except ProcessLookupError:
            groups.discard(group)


def main() -> None:
    groups: set[int] = set()
    for line in sys.stdin.buffer:
        sign, group = line[:1], int(line[1:])
        if sign == b"+":
            groups.add(group)
        else:
            groups.discard(group)
    _signal(groups, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    while groups and time.monotonic() < deadline:
        time.sleep(0.05)
        _signal(groups, 0)
    _signal(groups, signal.SIGKILL)


if __name__ == "__main__":
    main()
