"""The distribution as a user installs it: the wheel and the sdist built from the tree, the wheel installed
non-editable with [migrate] next to a released TensorFlow, every CLI run from outside the repository.

The released TensorFlow (requirements/tf2.txt's tensorflow-cpu, with its own dependencies and nothing else)
is installed once into a venv kept in pytest's cache: installing TensorFlow takes about a minute. Each run
makes a fresh venv that sees it through a .pth file, as a user's environment holds their TensorFlow,
installs the wheel there, and lets `python -m compat doctor --fix` add the rest of the runtime (tf-keras,
the Estimator, tf-slim, TensorBoard) with its pinned pip lines, as the README tells a user to. So every
test below runs on the runtime the doctor installs, with `compat` and `codemods` from the installed wheel.
"""

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.processes import REPO
from tests.support.programs import SAMPLE_ARGS

pytestmark = pytest.mark.slow

# the distribution's top-level packages, as pyproject.toml lists them for check-wheel-contents
with open(Path(REPO) / "pyproject.toml", "rb") as _handle:
    PACKAGES = tuple(tomllib.load(_handle)["tool"]["check-wheel-contents"]["toplevel"])
SAMPLE = os.path.join(REPO, "samples", "tf1", "session_classifier.py")
SAMPLE_STEPS, SAMPLE_OUTPUT = SAMPLE_ARGS["session_classifier.py"]
# what a released TensorFlow 2.21 lacks for the runtime, and `python -m compat doctor --fix` adds
DOCTOR_ADDS = ("tf-keras", "tensorflow-estimator", "tf-slim", "tensorboard")


def _outside_env() -> dict[str, str]:
    # a PYTHONPATH to the checkout (its uai_compat.egg-info included) would make pip and the venvs see this project
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "TF_CONFIG", "VIRTUAL_ENV")}


def _run(command, cwd, env=None, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(c) for c in command],
        cwd=str(cwd),
        env=_outside_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"{result.args}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def _no_traceback(result: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stdout[-3000:] + result.stderr[-3000:]


def _pip(python: Path, *args: str, cwd) -> None:
    # this interpreter's pip installs into the venv (`--python`): the venvs are made without pip to save its install
    _ok(_run([sys.executable, "-m", "pip", "--python", python, "install", "-q", *args], cwd=cwd))


def _venv(path: Path, pip: bool = False) -> Path:
    # without pip unless the test needs the venv's own (a user's venv has one; the doctor runs it)
    _ok(_run([sys.executable, "-m", "venv", *([] if pip else ["--without-pip"]), path], cwd=path.parent))
    return path / "bin" / "python"


def _site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    return Path(_ok(_run([python, "-c", code], cwd=python.parent)).stdout.strip())


def _requirement_lines(name: str) -> list[str]:
    with open(os.path.join(REPO, "requirements", name)) as handle:
        return [line.strip() for line in handle if line.strip() and not line.lstrip().startswith(("#", "-"))]


def released_tensorflow() -> list[str]:
    """The tf2 environment's TensorFlow pin: the user's own TensorFlow, installed with its dependencies."""
    return [r for r in _requirement_lines("tf2.txt") if canonicalize_name(Requirement(r).name) == "tensorflow-cpu"]


@contextlib.contextmanager
def _locked(path: Path):
    # two pytest processes on one checkout would otherwise install into the same cached venv at once
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="module")
def runtime(request, tmp_path_factory) -> Path:
    """The site-packages of a venv holding only a released TensorFlow (reused while its pin is unchanged)."""
    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("released-tensorflow") if cache else tmp_path_factory.mktemp("released-tensorflow")
    pins = released_tensorflow()
    stamp = json.dumps({"python": sys.version, "pins": pins})
    venv = root / "venv"
    with _locked(root / "lock"):
        if not (root / "stamp.json").is_file() or (root / "stamp.json").read_text() != stamp:
            (root / "stamp.json").unlink(missing_ok=True)
            shutil.rmtree(venv, ignore_errors=True)
            # no bytecode compiled at install (28 s of CPU for all of TensorFlow's modules): the user's runs
            # below write it for the modules they import (_user_env)
            _pip(_venv(venv), "--no-compile", *pins, cwd=root)
            (root / "stamp.json").write_text(stamp)
    python = venv / "bin" / "python"
    code = "import importlib.metadata as m, json; print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"
    names = {canonicalize_name(n) for n in json.loads(_ok(_run([python, "-c", code], cwd=root)).stdout)}
    assert "tensorflow-cpu" in names and not names & {"uai-compat", "libcst", *DOCTOR_ADDS}, names
    return _site_packages(python)


def _source_tree(destination: Path) -> Path:
    """What `pip wheel .` in a checkout reads: the tracked and the not-ignored files (no build/ or .nox/)."""
    listed = _ok(_run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO)).stdout
    for relative in filter(None, listed.split("\0")):
        source = os.path.join(REPO, relative)
        if os.path.isfile(source):
            os.makedirs(destination / os.path.dirname(relative), exist_ok=True)
            shutil.copy2(source, destination / relative)
    return destination


def _wheel_record(wheel: Path) -> dict[str, str]:
    """{path: sha256} of every file in the wheel except RECORD itself."""
    with zipfile.ZipFile(wheel) as archive:
        record = next(n for n in archive.namelist() if n.endswith(".dist-info/RECORD"))
        rows = [line.split(",") for line in archive.read(record).decode().splitlines()]
    return {path: digest for path, digest, _size in rows if path != record}


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """{"wheel": built from the tree, "sdist": python -m build --sdist, "sdist_wheel": pip wheel of the sdist}."""
    base = tmp_path_factory.mktemp("dists")
    tree = _source_tree(base / "tree")
    # The test environment's setuptools builds all three, without build isolation (an isolated build installs
    # setuptools for each: 15 s of CPU of the fixture's 24): that pyproject.toml's build requirements suffice
    # is the lint session's check, whose `python -m build` builds the sdist and its wheel isolated.
    wheel = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w"]
    _ok(_run([*wheel, base / "wheel", tree], cwd=base))
    # `build`, pinned by the lint session's requirements, in a folder of its own: the test environment lacks it
    pin = next(r for r in _requirement_lines("lint.txt") if canonicalize_name(Requirement(r).name) == "build")
    tools = base / "tools"
    _ok(_run([sys.executable, "-m", "pip", "install", "-q", "--target", tools, pin], cwd=base))
    sdist_command = [sys.executable, "-m", "build", "-q", "--sdist", "--no-isolation", "--outdir", base / "sdist", tree]
    _ok(_run(sdist_command, cwd=base, env={**_outside_env(), "PYTHONPATH": str(tools)}))
    (sdist,) = (base / "sdist").glob("*.tar.gz")
    _ok(_run([*wheel, base / "sdist_wheel", sdist], cwd=base))
    ((wheel,), (sdist_wheel,)) = ((base / "wheel").glob("*.whl"), (base / "sdist_wheel").glob("*.whl"))
    return {"wheel": wheel, "sdist": sdist, "sdist_wheel": sdist_wheel, "tree": tree}


def test_the_wheel_holds_every_file_of_the_packages(dists):
    in_tree = {
        str(path.relative_to(dists["tree"]))
        for package in PACKAGES
        for path in (dists["tree"] / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    in_wheel = {path for path in _wheel_record(dists["wheel"]) if not path.split("/")[0].endswith(".dist-info")}
    assert in_wheel == in_tree
    assert {"codemods/tables/tf_api.json", "codemods/tables/tf_upgrade.json"} <= in_wheel


def test_the_sdist_builds_the_same_wheel_as_the_tree(dists):
    # pip installs an sdist by building this wheel: the same files, byte for byte, install the same
    assert _wheel_record(dists["sdist_wheel"]) == _wheel_record(dists["wheel"])


def _user_env(venv: Path, home: Path) -> dict[str, str]:
    """An activated venv's environment, with none of the test run's paths to the repository, writing bytecode as
    a user's shell does (a test run may have turned it off: each process would compile TensorFlow's modules)."""
    env = _outside_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        PATH=str(venv / "bin") + os.pathsep + env.get("PATH", ""),
        VIRTUAL_ENV=str(venv),
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        TF_CPP_MIN_LOG_LEVEL="2",
    )
    return env


class Installed:
    def __init__(self, venv: Path, work: Path) -> None:
        self.venv, self.work = venv, work
        self.env = _user_env(venv, work / "home")
        self.fixed: subprocess.CompletedProcess | None = None  # what `python -m compat doctor --fix` did

    def run(self, *command, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
        """`command` in the venv (its first word a script of the venv's bin/), from a folder outside the repository."""
        executable = self.venv / "bin" / command[0]
        return _run([executable, *command[1:]], cwd=self.work, env={**self.env, **(env or {})}, timeout=timeout)


def _install(dists, base: Path, runtime: Path | None) -> Installed:
    python = _venv(base / "venv", pip=runtime is not None)
    if runtime is not None:
        # the user's TensorFlow, processed as a site dir (its own .pth files apply too), after the venv's own packages
        pth = _site_packages(python) / "released_runtime.pth"
        pth.write_text(f"import site; site.addsitedir({str(runtime)!r})\n")
    _pip(python, f"{dists['wheel']}[migrate]", cwd=base)
    (base / "work").mkdir()
    (base / "work" / "home").mkdir()
    installed = Installed(base / "venv", base / "work")
    code = "import codemods, compat, json, sys; print(json.dumps([compat.__file__, codemods.__file__, sys.path]))"
    compat_file, codemods_file, path = json.loads(_ok(installed.run("python", "-c", code)).stdout)
    site = str(_site_packages(python))
    assert compat_file.startswith(site) and codemods_file.startswith(site), (compat_file, codemods_file, site)
    assert REPO not in path and os.getcwd() not in path, path
    if runtime is not None:
        installed.fixed = installed.run("python", "-m", "compat", "doctor", "--fix")
    return installed


@pytest.fixture(scope="module")
def installed(dists, runtime, tmp_path_factory) -> Installed:
    return _install(dists, tmp_path_factory.mktemp("installed"), runtime)


def _sample(installed: Installed, name: str) -> Path:
    copy = installed.work / name
    shutil.copy(SAMPLE, copy)
    return copy


def test_uai_migrate_shows_the_diff_and_changes_nothing(installed):
    sample = _sample(installed, "diff_only.py")
    before = sample.read_bytes()
    result = _ok(installed.run("uai-migrate", sample.name))
    _no_traceback(result)
    assert "+import compat" in result.stdout and "-    tf.set_random_seed(0)" in result.stdout, result.stdout
    assert sample.read_bytes() == before


def test_uai_migrate_writes_a_port_that_runs_on_the_installed_compat(installed):
    sample = _sample(installed, "ported.py")
    _no_traceback(_ok(installed.run("uai-migrate", "--write", sample.name)))
    assert "tf.compat.v1.placeholder" in sample.read_text()
    result = _ok(installed.run("python", sample.name, *SAMPLE_STEPS))
    _no_traceback(result)
    assert SAMPLE_OUTPUT in result.stdout


def test_uai_migrate_reports_sarif(installed):
    sample = _sample(installed, "sarif.py")
    result = _ok(installed.run("uai-migrate", "--format", "sarif", sample.name))
    _no_traceback(result)
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"], result.stdout[:2000]


def test_uai_run_runs_the_sample_unmodified(installed):
    sample = _sample(installed, "unmodified.py")
    before = sample.read_bytes()
    result = _ok(installed.run("uai-run", sample.name, *SAMPLE_STEPS))
    _no_traceback(result)
    assert SAMPLE_OUTPUT in result.stdout
    assert sample.read_bytes() == before


def test_uai_launch_prints_each_tasks_config(installed):
    cluster = ("--chief", "1", "--workers", "1", "--ps", "1", "--dialect", "master")
    result = _ok(installed.run("uai-launch", *cluster, "--print-config", "--", "python", "x.py"))
    _no_traceback(result)
    configs = [json.loads(line.partition("\t")[2]) for line in result.stdout.splitlines()]
    assert sorted(c["task"]["type"] for c in configs) == ["master", "ps", "worker"], result.stdout


def test_python_m_compat_tf_config_summarises_the_platform_config(installed):
    config = {"cluster": {"master": ["m:2222"], "worker": ["w:2222"]}, "task": {"type": "worker", "index": 0}}
    result = _ok(installed.run("python", "-m", "compat.tf_config", env={"TF_CONFIG": json.dumps(config)}))
    _no_traceback(result)
    assert "dialect: master" in result.stdout and "this task: worker:0 at w:2222" in result.stdout, result.stdout


def test_python_m_compat_checkpoints_help(installed):
    result = installed.run("python", "-m", "trainlib.checkpoints", "--help")
    # an absl program: absl.app's --help prints the usage and exits 1
    assert result.returncode == 1, result.stderr[-3000:]
    _no_traceback(result)
    assert "convert" in result.stdout and "inspect" in result.stdout, result.stdout


def test_doctor_fix_adds_the_pinned_runtime_next_to_a_released_tensorflow(installed):
    fixed = installed.fixed
    assert fixed is not None and fixed.returncode == 0, fixed and fixed.stdout[-3000:] + fixed.stderr[-3000:]
    _no_traceback(fixed)
    ran = [line.removeprefix("doctor: ") for line in fixed.stdout.splitlines() if line.startswith("doctor: pip ")]
    assert sorted(canonicalize_name(Requirement(line.split()[-1]).name) for line in ran) == sorted(DOCTOR_ADDS), ran
    # no dependency of tf-keras or the Estimator was let in: TensorFlow is the user's, untouched
    assert all("--no-deps" in line for line in ran if "tf-keras" in line or "estimator" in line), ran
    assert "nothing missing for the runtime" in fixed.stdout, fixed.stdout
    names = ("tensorflow-cpu", *DOCTOR_ADDS)
    code = f"import importlib.metadata as m, json; print(json.dumps({{d: m.version(d) for d in {names!r}}}))"
    versions = json.loads(_ok(installed.run("python", "-c", code)).stdout)
    # the tf2 environment's pins (requirements/tf2.txt, tf2-nodeps.txt), the same release series for tf-keras
    pinned = {
        canonicalize_name(r.name): str(next(iter(r.specifier)).version)
        for r in map(Requirement, _requirement_lines("tf2.txt") + _requirement_lines("tf2-nodeps.txt"))
        if r.specifier
    }
    for name, version in versions.items():
        series = 2 if name in ("tf-keras", "tensorboard") else 3
        assert version.split(".")[:series] == pinned[name].split(".")[:series], (name, version, pinned[name])


def test_python_m_compat_doctor_finds_nothing_missing_next_to_the_released_runtime(installed):
    result = _ok(installed.run("python", "-m", "compat", "doctor"))
    _no_traceback(result)
    assert "nothing missing for the runtime" in result.stdout and " x " not in result.stdout, result.stdout


def test_uai_migrate_needs_no_tensorflow(dists, tmp_path):
    # a pipx-style venv: the wheel and its [migrate] extra only
    bare = _install(dists, tmp_path, runtime=None)
    absent = bare.run("python", "-c", "import tensorflow")
    assert absent.returncode == 1 and "ModuleNotFoundError" in absent.stderr, absent.stderr
    sample = _sample(bare, "no_tensorflow.py")
    result = _ok(bare.run("uai-migrate", sample.name))
    _no_traceback(result)
    assert "+import compat" in result.stdout, result.stdout
    doctor = bare.run("python", "-m", "compat", "doctor")
    assert doctor.returncode == 1, doctor.stdout + doctor.stderr
    assert doctor.stdout.endswith("to add what is missing:\n  pip install tensorflow-cpu~=2.21.0\n"), doctor.stdout
