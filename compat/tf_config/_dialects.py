"""Every TF_CONFIG dialect as one record: the one place to add a dialect.

Parsing (which names a document may use and what they mean), rendering (the names and the
`environment` written), `uai-launch` (which dialects it offers, which can hold an evaluator)
and the command-line help all read `DIALECTS`; none of them names a dialect itself.
"""

import dataclasses
import types
from collections.abc import Iterable, Mapping

from compat.errors import TFConfigError
from compat.tf_config._model import CHIEF, EVALUATOR, PS, WORKER

# TF2's own job names, which most dialects share.
_ROLE_NAMES = {CHIEF: "chief", WORKER: "worker", PS: "ps", EVALUATOR: "evaluator"}
_MASTER_NAMES = {**_ROLE_NAMES, CHIEF: "master"}


@dataclasses.dataclass(frozen=True)
class Dialect:
    """How one platform or runtime writes TF_CONFIG."""

    name: str
    # Who writes or needs it: shown in command-line help.
    use: str
    # Canonical job (`chief`, `worker`, `ps`, `evaluator`) -> the name this dialect gives it.
    jobs: Mapping[str, str]
    # Written when the config read carries none (Kubeflow and SageMaker write "cloud").
    environment: str | None = None
    # False where the runtime rejects an evaluator next to its chief (Estimator and `master`).
    evaluator: bool = True
    # Recognised when reading: its job names tell it apart (dialects that only differ in
    # `environment` read as the dialect whose names they share).
    read: bool = False
    # Offered by `uai-launch --dialect` for local clusters.
    launch: bool = False
    # A view rather than a layout: the chief heads the worker list (the platform parser's view).
    chief_in_workers: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "jobs", types.MappingProxyType(dict(self.jobs)))

    def job_name(self, job: str) -> str:
        """The name this dialect writes for canonical `job`."""
        return self.jobs[job]

    def job_of(self, name: str) -> str | None:
        """The canonical job this dialect means by `name`, or None if it has no such name."""
        return next((job for job, own in self.jobs.items() if own == name), None)


DIALECTS: Mapping[str, Dialect] = types.MappingProxyType(
    {
        dialect.name: dialect
        for dialect in (
            Dialect(
                "master", "Estimator / TF1, the UAI platform", _MASTER_NAMES, evaluator=False, read=True, launch=True
            ),
            Dialect("chief", "TF2 strategies", _ROLE_NAMES, read=True, launch=True),
            Dialect("kubeflow", "Kubeflow TFJob", _ROLE_NAMES, environment="cloud", launch=True),
            Dialect("sagemaker", "SageMaker", _MASTER_NAMES, environment="cloud", evaluator=False, launch=True),
            # Vertex AI names worker pools by position instead of by role (also in CLUSTER_SPEC).
            Dialect(
                "vertex",
                "Vertex AI worker pools",
                {CHIEF: "workerpool0", WORKER: "workerpool1", PS: "workerpool2", EVALUATOR: "workerpool3"},
                read=True,
            ),
            # Not a layout: what the platform's `uai_dist` parser computes from a master-dialect cluster.
            Dialect(
                "uai",
                "the platform parser's view",
                {WORKER: "worker", PS: "ps"},
                evaluator=False,
                chief_in_workers=True,
            ),
        )
    }
)
# What a document whose job names mark no other dialect is read as.
DEFAULT = DIALECTS["chief"]
LAUNCH_DIALECTS = tuple(name for name, dialect in DIALECTS.items() if dialect.launch)


def dialect_named(name: str, field: str = "dialect", names: Iterable[str] = tuple(DIALECTS)) -> Dialect:
    """The record for `name`, else a `TFConfigError` on `field` listing `names`."""
    if name not in names:
        raise TFConfigError(field, f"unknown dialect {name!r} (expected one of {', '.join(names)})")
    return DIALECTS[name]


def describe(names: Iterable[str] = tuple(DIALECTS)) -> str:
    """`name (use), ...` for help texts."""
    return ", ".join(f"{name} ({DIALECTS[name].use})" for name in names)


def _markers(dialect: Dialect) -> set:
    return set(dialect.jobs.values()) - set(DEFAULT.jobs.values())


def dialect_of(field: str, names: Iterable[str]) -> Dialect:
    """The readable dialect a cluster's job `names` are written in (raise naming `field` if they mix two)."""
    names = set(names)
    marked = [d for d in DIALECTS.values() if d.read and d is not DEFAULT and names & _markers(d)]
    if len(marked) > 1:
        found = ", ".join(f"{d.name} ({', '.join(sorted(names & _markers(d)))})" for d in marked)
        raise TFConfigError(field, f"mixes the job names of several dialects: {found}; keep one")
    dialect = marked[0] if marked else DEFAULT
    for job, own in dialect.jobs.items():
        default_name = DEFAULT.jobs[job]
        if own != default_name and {own, default_name} <= names:
            raise TFConfigError(field, f"has both {own!r} and {default_name!r}; they are the same role, keep one")
    return dialect
