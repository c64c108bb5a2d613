"""`python -m compat doctor`: what this environment gives uai-compat, and the one pip line for each missing piece.

It reads the installed distributions' metadata and never imports TensorFlow, so it answers at once and also
where TensorFlow is missing or does not import. The pins it prints are the ones the tf2 environment runs
(requirements/tf2.txt, requirements/tf2-nodeps.txt): tf-keras and TensorBoard of TensorFlow's own minor
release, tensorflow-estimator 2.15.0 (its last) and tf-slim 1.1.0 (its last). tf-keras and the Estimator are
installed with --no-deps: with their dependencies pip would add the CUDA `tensorflow` wheel next to
tensorflow-cpu (tf-keras), or replace the user's TensorFlow with 2.15 (tensorflow-estimator).
A release series is written `~=2.21.0`, not `==2.21.*`: the line is pasted into a shell, and zsh refuses an
unquoted `*` that matches no file.

`python -m compat doctor --fix` runs those pip lines with this interpreter's pip (plain pip, no resolver of
ours: the pins above are what makes the user's TensorFlow stay), then judges the environment again.
"""

import importlib
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata

from compat import _keras_setup
from compat._version import _DISTRIBUTIONS, _parse, tf_version

# The releases the full test suites run on, and those between them the TF-range smoke runs on (noxfile.py RANGE,
# requirements/tf2.<minor>.txt; README, "What runs where").
TESTED = ((2, 15), (2, 21))
RANGE = ((2, 16), (2, 17), (2, 18), (2, 19), (2, 20))
OLDEST = (2, 15)
# The distributions whose versions the doctor reads, besides TensorFlow's own (compat._version).
PIECES = ("keras", "tf-keras", "tensorflow-estimator", "tf-slim", "tensorboard")
ESTIMATOR_LAST = "2.15.0"
TF_SLIM_LAST = "1.1.0"


@dataclass(frozen=True)
class Environment:
    """What the doctor judges: read from this process by `current()`."""

    versions: Mapping[str, str]  # distribution name -> version, for TensorFlow's distributions and PIECES
    legacy_keras: str | None = None  # TF_USE_LEGACY_KERAS as the user set it (not as `import compat` did)
    uaitrain: str | None = None  # the folder `uaitrain` imports from, None when it does not
    own_folder: str | None = None  # the folder `compat` imports from: uaitrain should sit beside it
    migrate: Mapping[str, str | None] | None = None  # [migrate] extra: name -> version or None; None: no metadata


@dataclass(frozen=True)
class Finding:
    piece: str
    state: str  # what is there, in words
    fix: str | None = None  # the one line that adds or repairs the piece; None: nothing to do
    optional: bool = False  # a missing optional piece does not make the environment incomplete


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _migrate_extra() -> dict[str, str | None] | None:
    try:
        requires = metadata.requires("uai-compat") or []
    except metadata.PackageNotFoundError:
        return None
    # 'libcst>=1.1; extra == "migrate"': the name is the leading run of name characters
    names = [
        re.split(r"[^A-Za-z0-9._-]", r, maxsplit=1)[0] for r in requires if re.search(r"extra\s*==\s*.migrate.", r)
    ]
    return {name: _version(name) for name in names}


def _folder(package: str) -> str | None:
    """The folder holding top-level `package`, found without importing it (an editable install's finder included)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.dirname(os.path.abspath(list(spec.submodule_search_locations)[0]))


def current() -> Environment:
    """This process's environment."""
    names = (*_DISTRIBUTIONS, *PIECES)
    versions = {name: version for name in names if (version := _version(name)) is not None}
    return Environment(
        versions=versions,
        legacy_keras=_keras_setup.user_environment().get("TF_USE_LEGACY_KERAS"),
        uaitrain=_folder("uaitrain"),
        own_folder=_folder("compat"),
        migrate=_migrate_extra(),
    )


def _tensorflow(env: Environment) -> tuple[str, str] | None:
    """(distribution, version) of the installed TensorFlow."""
    for name in _DISTRIBUTIONS:
        if name in env.versions:
            return name, env.versions[name]
    return None


def diagnose(env: Environment) -> list[Finding]:
    """One finding per piece, in the order the report lists them."""
    found = _tensorflow(env)
    if found is None:
        # tensorflow-cpu: the wheel the suites run; users with GPUs install `tensorflow` of the same release
        return [Finding("TensorFlow", "not installed", "pip install tensorflow-cpu~=2.21.0")]
    dist, version = found
    tf = _parse(version)
    series = f"{tf[0]}.{tf[1]}"
    findings = [_tensorflow_finding(dist, version, tf)]
    keras3 = tf >= (2, 16)
    findings.append(_keras(env, series, keras3))
    if keras3:
        findings.append(_tf_keras(env, tf, series))
    findings.append(_estimator(env, series, keras3))
    slim = env.versions.get("tf-slim")
    findings.append(
        Finding("tf-slim", f"{slim} (compat repairs it when it is imported)")
        if slim
        else Finding("tf-slim", "not installed", f"pip install tf-slim=={TF_SLIM_LAST}")
    )
    board = env.versions.get("tensorboard")
    findings.append(
        Finding("TensorBoard", board)
        if board
        else Finding("TensorBoard", "not installed: tf.summary writes nothing", f"pip install tensorboard~={series}.0")
    )
    findings.append(_uaitrain(env))
    if env.migrate is not None:
        findings.append(_migrate(env.migrate))
    return findings


def _tensorflow_finding(dist: str, version: str, tf: tuple[int, ...]) -> Finding:
    if tf < OLDEST:
        return Finding("TensorFlow", f"{version} ({dist}): older than 2.15", f"pip install {dist}~=2.15.0")
    if tf[:2] in TESTED:
        tested = ""
    elif tf[:2] in RANGE:
        tested = "; the TF-range smoke runs this release, the full suites 2.15 and 2.21"
    else:
        tested = "; the tests do not run this release (the full suites run 2.15 and 2.21)"
    return Finding("TensorFlow", f"{version} ({dist}){tested}")


def _keras(env: Environment, series: str, keras3: bool) -> Finding:
    keras = env.versions.get("keras")
    tf_keras = env.versions.get("tf-keras")
    if not keras3:
        if env.legacy_keras in ("1", "true", "True") and not tf_keras:
            return Finding(
                "tf.keras",
                f"TF_USE_LEGACY_KERAS={env.legacy_keras} makes TF {series} look for tf-keras, which is not installed",
                "unset TF_USE_LEGACY_KERAS",
            )
        if keras is None:
            return Finding("tf.keras", "keras is not installed", f"pip install keras~={series}.0")
        return Finding("tf.keras", f"Keras 2 (keras {keras})")
    default = f"Keras 3 (keras {keras})" if keras else "Keras 3"
    if env.legacy_keras is not None and env.legacy_keras not in ("1", "true", "True"):
        return Finding(
            "tf.keras",
            f"{default}: TF_USE_LEGACY_KERAS={env.legacy_keras} keeps it even under compat; tf.layers and tf-slim fail",
            "unset TF_USE_LEGACY_KERAS",
        )
    if tf_keras:
        return Finding("tf.keras", f"{default} by default; Keras 2 (tf-keras {tf_keras}) once compat is imported")
    return Finding("tf.keras", f"{default}: tf.compat.v1.layers, tf-slim and Keras 2 models need tf-keras")


def _tf_keras(env: Environment, tf: tuple[int, ...], series: str) -> Finding:
    line = f"pip install --no-deps tf-keras~={series}.0"
    tf_keras = env.versions.get("tf-keras")
    if tf_keras is None:
        return Finding("tf-keras", "not installed", line)
    if _parse(tf_keras) != tf[:2]:
        return Finding("tf-keras", f"{tf_keras}: not the release of TensorFlow {series}", line)
    return Finding("tf-keras", tf_keras)


def _estimator(env: Environment, series: str, keras3: bool) -> Finding:
    estimator = env.versions.get("tensorflow-estimator")
    if not keras3:
        if estimator is None:
            return Finding("Estimator", "not installed", f"pip install tensorflow-estimator~={series}.0")
        return Finding("Estimator", f"tensorflow-estimator {estimator}, TensorFlow's own")
    line = f"pip install --no-deps tensorflow-estimator=={ESTIMATOR_LAST}"
    if estimator is None:
        return Finding("Estimator", f"not installed (TensorFlow {series} has none)", line)
    if _parse(estimator) != _parse(ESTIMATOR_LAST):
        return Finding("Estimator", f"tensorflow-estimator {estimator}: compat serves 2.15 only", line)
    return Finding("Estimator", f"tensorflow-estimator {estimator}, served by compat on TensorFlow {series}")


def _uaitrain(env: Environment) -> Finding:
    if env.uaitrain is None:
        return Finding("uaitrain", "not importable: reinstall uai-compat", "pip install --force-reinstall uai-compat")
    if env.own_folder is not None and env.uaitrain != env.own_folder:
        return Finding(
            "uaitrain",
            f"imports from {env.uaitrain}, not uai-compat's alias of the platform SDK beside {env.own_folder}",
            f"pip uninstall the package that installed uaitrain into {env.uaitrain}",
        )
    return Finding("uaitrain", "uai-compat's alias of the platform SDK")


def _migrate(extra: Mapping[str, str | None]) -> Finding:
    missing = sorted(name for name, version in extra.items() if version is None)
    if missing:
        return Finding("uai-migrate", f"needs {', '.join(missing)}", 'pip install "uai-compat[migrate]"', optional=True)
    return Finding("uai-migrate", ", ".join(f"{name} {version}" for name, version in sorted(extra.items())))


# What a program's failure says when a piece of the runtime is missing -> (the piece, what needs it).
_SIGNATURES = (
    ("is not available with Keras 3", "tf-keras", "tf.layers and tf-slim need Keras 2"),
    ("No module named 'tf_keras'", "tf-keras", "Keras 2 is needed"),
    ("No module named 'tensorflow_estimator'", "Estimator", "tf.estimator needs tensorflow-estimator"),
    ("No module named 'tf_slim'", "tf-slim", "tf.contrib.slim needs tf-slim"),
    ("No module named 'tensorboard'", "TensorBoard", "tf.summary needs TensorBoard"),
)


def missing_piece(error: BaseException, env: Environment | None = None) -> str | None:
    """One line naming the missing piece behind `error` and the pip line that adds it, or None when
    `error` is not about a missing piece (or the piece is there after all)."""
    text = str(error)
    for signature, piece, why in _SIGNATURES:
        if signature in text:
            findings = {f.piece: f for f in diagnose(env or current())}
            finding = findings.get(piece)
            if finding is not None and finding.fix:
                return f"{why}: {finding.fix}"
    return None


def fixes(findings: list[Finding]) -> list[str]:
    """The fix lines of the missing required pieces, in order, each once."""
    lines: list[str] = []
    for finding in findings:
        if finding.fix and not finding.optional and finding.fix not in lines:
            lines.append(finding.fix)
    return lines


def report(findings: list[Finding]) -> str:
    width = max(len(f.piece) for f in findings)
    lines = [f"Python {sys.version.split()[0]} at {sys.executable}"]
    for finding in findings:
        mark = "-" if finding.fix and finding.optional else ("x" if finding.fix else "ok")
        lines.append(f"  {mark:2} {finding.piece:{width}}  {finding.state}")
    missing = fixes(findings)
    optional = [f.fix for f in findings if f.fix and f.optional]
    if missing:
        lines += ["", "to add what is missing:", *(f"  {line}" for line in missing)]
    else:
        lines += ["", "nothing missing for the runtime"]
    if optional:
        lines += ["optional:", *(f"  {line}" for line in optional)]
    return "\n".join(lines)


def pip_command(line: str) -> list[str] | None:
    """The command that runs fix `line` with this interpreter's pip, or None for a step only the user can take
    (unset a variable, uninstall a stranger's package)."""
    words = shlex.split(line)
    if words[:2] != ["pip", "install"]:
        return None
    return [sys.executable, "-m", "pip", *words[1:]]


# Installing TensorFlow itself shows what its release needs next: a few rounds reach a complete runtime.
_FIX_ROUNDS = 3


def fix() -> int:
    """Run each missing required piece's pip line until nothing is missing; print the final report.

    0 when nothing is missing at the end, 1 when a step is left to the user or a pip line failed."""
    tried: list[str] = []
    for _ in range(_FIX_ROUNDS):
        runnable = [
            (line, command)
            for line in fixes(diagnose(current()))
            if line not in tried and (command := pip_command(line)) is not None
        ]
        if not runnable:
            break
        for line, command in runnable:
            tried.append(line)
            print(f"doctor: {line}", flush=True)
            code = subprocess.call(command)
            if code != 0:
                print(
                    f"doctor: `{line}` failed (pip exit {code}); `python -m compat doctor` shows what is still missing",
                    file=sys.stderr,
                )
                return 1
        importlib.invalidate_caches()  # the new distributions' folders, for the next look
    findings = diagnose(current())
    print(report(findings))
    return 1 if fixes(findings) else 0


def main() -> int:
    """Print the report; exit 1 when a required piece is missing, else 0."""
    findings = diagnose(current())
    print(report(findings))
    return 1 if fixes(findings) else 0


def installed_tensorflow() -> tuple[int, ...] | None:
    """(major, minor) of the installed TensorFlow from its metadata (no import), or None: for the tools,
    which leave every TensorFlow-version question to compat."""
    return tf_version()
