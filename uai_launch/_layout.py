"""A local cluster layout (how many tasks of each job) turned into one TF_CONFIG per task."""

import dataclasses
import socket

from compat import tf_config
from compat.errors import TFConfigError
from uai_launch._errors import LaunchError

LAUNCH_DIALECTS = tf_config.LAUNCH_DIALECTS
# Every task of a local cluster runs on this machine and costs the launcher open files (a reserved
# port, then an output pipe and a log file): 256 tasks that stay up run under the usual limit of
# 1024 (`ulimit -n`; measured), and far larger counts only exhaust it.
MAX_LOCAL_TASKS = 256


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """`count` distinct ports free right now; all are held open together so none repeats."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.bind((host, 0))
        return [sock.getsockname()[1] for sock in sockets]
    except OSError as err:
        raise LaunchError("--workers/--ps", f"cannot reserve {count} ports on {host}: {err.strerror}") from None
    finally:
        for sock in sockets:
            sock.close()


@dataclasses.dataclass(frozen=True)
class Layout:
    chief: int = 1
    workers: int = 1
    ps: int = 0
    evaluator: bool = False
    dialect: str = "chief"

    def validate(self) -> "Layout":
        dialect = tf_config.dialect_named(self.dialect, "--dialect", LAUNCH_DIALECTS)
        if self.chief not in (0, 1):
            raise TFConfigError("--chief", f"a cluster has at most one chief, got {self.chief}")
        for field, count in (("--chief", self.chief), ("--workers", self.workers), ("--ps", self.ps)):
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise TFConfigError(field, f"a count must be a whole number >= 0, got {count!r}")
        if self.chief + self.workers == 0:
            raise TFConfigError("--workers", "no chief and no workers: training needs at least one")
        if self.ps and not self.workers:
            raise TFConfigError("--workers", "parameter-server training needs at least one worker besides the chief")
        if self.evaluator and not dialect.evaluator:
            able = " or ".join(name for name in LAUNCH_DIALECTS if tf_config.DIALECTS[name].evaluator)
            raise TFConfigError(
                "--evaluator", f"the {self.dialect} dialect cannot express an evaluator; use --dialect {able}"
            )
        return self

    def tasks(self) -> list[tf_config.Task]:
        """(job, index) pairs, chief first, in start order: ps before the workers that connect to them."""
        order = [("ps", self.ps), ("chief", self.chief), ("worker", self.workers), ("evaluator", int(self.evaluator))]
        return [tf_config.Task(job, i) for job, count in order for i in range(count)]

    def cluster(self, host: str = "127.0.0.1") -> tf_config.ClusterConfig:
        """A `ClusterConfig` (no task yet) with a free port per task."""
        self.validate()
        total = self.chief + self.workers + self.ps + int(self.evaluator)
        if total > MAX_LOCAL_TASKS:
            raise TFConfigError("--workers/--ps", f"{total} tasks: a local cluster runs at most {MAX_LOCAL_TASKS}")
        tasks = sorted(self.tasks(), key=lambda t: tf_config.JOBS.index(t.type))
        ports = iter(free_ports(len(tasks), host))
        jobs: dict[str, list[str]] = {}
        for task in tasks:
            jobs.setdefault(task.type, []).append(f"{host}:{next(ports)}")
        cluster = {job: tuple(addresses) for job, addresses in jobs.items()}
        return tf_config.ClusterConfig(cluster=cluster, task=None, dialect=self.dialect)

    def task_configs(self, cluster: tf_config.ClusterConfig) -> dict[tf_config.Task, str]:
        """{Task: TF_CONFIG JSON for that task, in this layout's dialect}."""
        return {task: tf_config.to_json(cluster.replace(task=task), self.dialect) for task in self.tasks()}
