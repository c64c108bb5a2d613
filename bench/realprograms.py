"""A runtime judge of real TF1-era programs: each one trains end to end, unmodified under uai-run and after uai-migrate.

    python bench/realprograms.py [--programs slim,tflearn,...] [--level safe|native] [--cache DIR] [--json OUT]
                                 [--markdown OUT] [--keep DIR] [--timeout SECONDS] [--migrate-python PYTHON]
    python bench/realprograms.py --list

Programs: slim (tf-slim's `slim.learning.train` over a `DatasetDataProvider`; no download), tflearn
0.5.0, tensorpack 0.9.8, stable-baselines 2.10.2 (PPO2 and DQN on gym's CartPole), tensorlayer 1.11.1
(`tl.utils.fit`), gpflow 1.5.1 (its Adam loop on a GP regression), tensor2tensor 1.15.7 (a tiny
Transformer on a generated algorithmic problem): `--list` describes each.

Run it with each environment: `.nox/tf1/bin/python` (TensorFlow 2.15) and `.nox/tf2/bin/python`
(TensorFlow 2.21). A program is a small driver of ours in bench/realprograms/ (TF 1.x code:
`import tensorflow as tf`, `tf.set_random_seed`, ...) that calls a real library's public training
entry point at tiny size (generated data, a few steps, fixed seeds) and prints one line
`REALPROGRAMS-LOSS <step> <loss>` per step it sees. The library is the real one: the package
folder of its pinned PyPI source distribution, downloaded once into bench/realworld.py's cache
(outside the repository; `fetch`; the same release's pure-Python wheel where the sdist's setup.py
no longer runs: WHEELS), or tf-slim as installed. The library's own dependencies that
the interpreter lacks (pinned in PROGRAMS) are installed with `pip install --no-deps --target` into
a site-packages folder of that cache, put on the runs' PYTHONPATH; the environment is not changed.
The driver and the package are copied side by side into a temporary tree, then run two ways:

  uai-run    the tree as written: `python -m uai_run driver.py WORKDIR` (uai-run's TF1 face:
             the unpacked library is the user's code, not site-packages, so it gets the face too)
  migrated   `python -m codemods --out DIR --level LEVEL --no-cache TREE` (uai-migrate ports the driver
             and the library), then `python DIR/driver.py WORKDIR`. uai-migrate runs with
             --migrate-python (default: this interpreter if it has libcst, else .nox/tf2/bin/python)
             and the port runs on this one.

--level (default safe) is uai-migrate's: at native, the migrated way is the native port, judged against
uai-run as the safe one is, and each program's result also counts its native rules' report entries per rule:
(converted something, left code at the safe level) (bench/native.py's rule_counts).

A way "trained" when it exited 0 and printed at least one loss. The table gives the first losses,
whether both ways printed the same losses (to the digits printed: %.9g), and for a failure its
first error line (the last `SomethingError: ...` line of stderr, with the traceback's innermost
frame and the program's own). One program at a time; progress on stderr.
"""

import argparse
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DRIVERS = os.path.join(HERE, "realprograms")
sys.path.insert(0, HERE)

import native  # noqa: E402  (bench/native.py: the native rules' entries of a report)
import realworld  # noqa: E402  (bench/realworld.py: the pinned sdists and their cache)

LOSS = re.compile(r"REALPROGRAMS-LOSS (\d+) ([-+.\w]+)")  # anywhere: progress bars put escapes before it
ERROR = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)|error|uai-run|uai-migrate)\b.*")
FRAME = re.compile(r'^File "(.+)", line (\d+)')
WAYS = ("uai-run", "migrated")


@dataclasses.dataclass(frozen=True)
class Edit:
    """A textual edit of a library file in a built tree (the copy build_tree made; the cache's is never changed)."""

    path: str  # relative to the tree
    old: str
    new: str
    count: int  # how often `old` occurs in the pinned release's file: any other count stops the build


class EditFailed(SystemExit):
    """An Edit's text is not in the file as often as it says: the file is not the pinned release's."""


@dataclasses.dataclass(frozen=True)
class Program:
    driver: str  # file in bench/realprograms/
    project: str | None  # key of realworld.PROJECTS or WHEELS: its package goes next to the driver; None: installed
    what: str
    # the library's own non-TensorFlow dependencies: (import name, pinned requirement). Those the
    # interpreter lacks are installed with `pip install --no-deps --target` into a folder of the
    # cache, which goes on the runs' PYTHONPATH; the environment itself is never changed.
    # A requirement may depend on TensorFlow's minor release: {"2.15": pin, "": the pin otherwise};
    # "1.15" is real TF 1.15 on Python 3.7 (bench/reference.py), where the newer pins do not install;
    # an empty pin: that TensorFlow's release of the library does not need the module.
    requires: tuple[tuple[str, str | dict[str, str]], ...] = ()
    # edits that make the library read its training input in one fixed order, where TF 1.15 reads it in an
    # order that varies run to run, so 1.15 repeats itself and bench/reference.py can compare with it;
    # applied only when asked (build_tree's `ordered`, reference.py --ordered-input): the program as written
    # is what the realprograms bench runs
    ordered: tuple[Edit, ...] = ()


# its setup.py's install_requires that importing stable_baselines and CartPole need, pinned (one per algorithm's program)
STABLE_BASELINES_REQUIRES: tuple[tuple[str, str | dict[str, str]], ...] = (
    ("gym", "gym==0.17.3"),  # the last gym with the reset/step API stable-baselines 2 calls
    ("cloudpickle", "cloudpickle==1.6.0"),  # gym 0.17's pin
    ("scipy", {"1.15": "scipy==1.7.3", "": "scipy==1.16.3"}),
    ("joblib", {"1.15": "joblib==1.3.2", "": "joblib==1.4.2"}),
    ("cv2", "opencv-python-headless==4.10.0.84"),
    ("pandas", {"1.15": "pandas==1.3.5", "": "pandas==2.2.3"}),
    ("dateutil", "python-dateutil==2.9.0"),
    ("pytz", "pytz==2024.2"),
    ("tzdata", "tzdata==2024.2"),
)

PROGRAMS = {
    "slim": Program(
        "slim_train.py",
        None,
        "tf-slim (installed): slim.learning.train, DatasetDataProvider over written TFRecords",
    ),
    "tflearn": Program(
        "tflearn_dnn.py",
        "tflearn",
        "tflearn 0.5.0: DNN(net).fit on generated data",
        (("PIL", {"1.15": "Pillow==9.5.0", "": "Pillow==10.4.0"}),),  # tflearn.data_utils imports PIL.Image
    ),
    "tensorpack": Program(
        "tensorpack_trainer.py",
        "tensorpack",
        "tensorpack 0.9.8: launch_train_with_config, SimpleTrainer, FakeData, a tiny ModelDesc",
        (  # its setup.py's install_requires, pinned
            ("tabulate", "tabulate==0.9.0"),
            ("tqdm", "tqdm==4.66.5"),
            ("msgpack", {"1.15": "msgpack==1.0.5", "": "msgpack==1.0.8"}),
            ("msgpack_numpy", "msgpack-numpy==0.4.8"),
            ("zmq", {"1.15": "pyzmq==25.1.2", "": "pyzmq==26.2.0"}),
            ("psutil", "psutil==6.0.0"),
            ("termcolor", {"1.15": "termcolor==2.3.0", "": "termcolor==2.4.0"}),
            ("six", "six==1.16.0"),
        ),
    ),
    "stable-baselines": Program(
        "stable_baselines_ppo2.py",
        "stable-baselines",
        "stable-baselines 2.10.2: PPO2 on gym 0.17.3's CartPole-v1",
        STABLE_BASELINES_REQUIRES,
    ),
    "stable-baselines-dqn": Program(
        "stable_baselines_dqn.py",
        "stable-baselines",
        "stable-baselines 2.10.2: DQN (double Q, replay) on gym 0.17.3's CartPole-v1",
        STABLE_BASELINES_REQUIRES,
    ),
    "tensorlayer": Program(
        "tensorlayer_fit.py",
        "tensorlayer",
        "tensorlayer 1.11.1: tl.utils.fit in a Session, a tl.layers MLP with dropout, tl.cost.cross_entropy",
        (  # what importing tensorlayer needs of its install_requires (and theirs), pinned per Python
            ("progressbar", {"1.15": "progressbar2==4.2.0", "": "progressbar2==4.5.0"}),
            ("python_utils", {"1.15": "python-utils==3.5.2", "": "python-utils==3.9.0"}),
            ("tqdm", "tqdm==4.66.5"),
            ("lxml", {"1.15": "lxml==4.9.3", "": "lxml==5.3.0"}),
            ("matplotlib", {"1.15": "matplotlib==3.5.3", "": "matplotlib==3.9.2"}),
            ("pyparsing", {"1.15": "pyparsing==3.1.1", "": "pyparsing==3.1.4"}),
            ("cycler", {"1.15": "cycler==0.11.0", "": "cycler==0.12.1"}),
            ("dateutil", "python-dateutil==2.9.0"),
            ("kiwisolver", {"1.15": "kiwisolver==1.4.5", "": "kiwisolver==1.4.7"}),
            ("fontTools", {"1.15": "fonttools==4.38.0", "": "fonttools==4.54.1"}),
            ("contourpy", {"1.15": "", "": "contourpy==1.3.0"}),
            ("PIL", {"1.15": "Pillow==9.5.0", "": "Pillow==10.4.0"}),
            ("scipy", {"1.15": "scipy==1.7.3", "": "scipy==1.16.3"}),
            ("sklearn", {"1.15": "scikit-learn==1.0.2", "": "scikit-learn==1.5.2"}),
            ("joblib", {"1.15": "joblib==1.3.2", "": "joblib==1.4.2"}),
            ("threadpoolctl", {"1.15": "threadpoolctl==3.1.0", "": "threadpoolctl==3.5.0"}),
            ("imageio", {"1.15": "imageio==2.31.2", "": "imageio==2.35.1"}),
            ("six", "six==1.16.0"),
            ("requests", "requests==2.31.0"),  # tensorlayer.files imports it
            ("urllib3", "urllib3==1.26.18"),
            ("idna", "idna==3.6"),
            ("certifi", "certifi==2023.11.17"),
            ("charset_normalizer", "charset-normalizer==3.3.2"),
            ("packaging", "packaging==24.0"),  # matplotlib's
        ),
    ),
    "gpflow": Program(
        "gpflow_gpr.py",
        "gpflow",
        "gpflow 1.5.1: gpflow.train.AdamOptimizer.minimize on a GPR (RBF + Linear kernel, float64)",
        (  # what importing gpflow needs of its install_requires (and theirs), pinned per Python
            ("scipy", {"1.15": "scipy==1.7.3", "": "scipy==1.16.3"}),
            ("pandas", {"1.15": "pandas==1.3.5", "": "pandas==2.2.3"}),
            ("dateutil", "python-dateutil==2.9.0"),
            ("pytz", "pytz==2024.2"),
            ("tzdata", "tzdata==2024.2"),
            ("six", "six==1.16.0"),
            ("decorator", "decorator==5.1.1"),
            ("multipledispatch", "multipledispatch==1.0.0"),
            # gpflow/__init__ imports its test_util, which imports pytest (release for Python 3.7 and up)
            ("pytest", "pytest==7.4.4"),
            ("pluggy", "pluggy==1.2.0"),
            ("iniconfig", "iniconfig==2.0.0"),
            ("packaging", "packaging==24.0"),
            ("exceptiongroup", {"1.15": "exceptiongroup==1.2.0", "": ""}),  # Python >= 3.11 has both
            ("tomli", {"1.15": "tomli==2.0.1", "": ""}),
        ),
    ),
    "tensor2tensor": Program(
        "t2t_transformer.py",
        "tensor2tensor",
        "tensor2tensor 1.15.7: trainer_lib.create_experiment, transformer_tiny on algorithmic_identity_binary40",
        (  # what importing transformer, algorithmic and trainer_lib needs of its install_requires, pinned
            # its own pin, tensorflow-probability 0.7.0, is for TF 1.14; these are the releases for each TF
            (
                "tensorflow_probability",
                {
                    "1.15": "tensorflow-probability==0.8.0",
                    "2.15": "tensorflow-probability==0.23.0",
                    "": "tensorflow-probability==0.25.0",
                },
            ),
            ("tree", "dm-tree==0.1.8"),
            ("cloudpickle", {"1.15": "cloudpickle==1.1.1", "": "cloudpickle==3.1.0"}),
            ("decorator", "decorator==5.1.1"),
            ("gin", "gin-config==0.5.0"),
            ("tensorflow_gan", {"1.15": "tensorflow-gan==2.0.0", "": "tensorflow-gan==2.1.0"}),
            ("tensorflow_hub", {"1.15": "tensorflow-hub==0.12.0", "": "tensorflow-hub==0.16.1"}),
            ("mesh_tensorflow", "mesh-tensorflow==0.1.21"),
            ("sympy", {"1.15": "sympy==1.10.1", "": "sympy==1.13.3"}),
            ("mpmath", "mpmath==1.3.0"),
            ("gym", "gym==0.17.3"),
            ("scipy", {"1.15": "scipy==1.7.3", "": "scipy==1.16.3"}),
            ("six", "six==1.16.0"),
            ("tqdm", "tqdm==4.66.5"),
            ("PIL", {"1.15": "Pillow==9.5.0", "": "Pillow==10.4.0"}),
            # mesh_tensorflow.transformer imports tensorflow_datasets, which imports these
            ("tensorflow_datasets", {"1.15": "tensorflow-datasets==3.2.1", "": "tensorflow-datasets==4.9.4"}),
            ("etils", {"1.15": "", "": "etils==1.7.0"}),
            ("tensorflow_metadata", {"1.15": "tensorflow-metadata==0.21.2", "": "tensorflow-metadata==1.14.0"}),
            ("immutabledict", {"1.15": "", "": "immutabledict==4.2.0"}),
            ("toml", {"1.15": "", "": "toml==0.10.2"}),
            ("promise", "promise==2.3"),
            ("psutil", "psutil==6.0.0"),
            ("importlib_resources", {"1.15": "", "": "importlib_resources==6.4.5"}),
            ("zipp", {"1.15": "", "": "zipp==3.20.2"}),
            ("fsspec", {"1.15": "", "": "fsspec==2024.9.0"}),
            ("click", "click==8.1.7"),
            # tensorflow-datasets 3.2.1's own dependencies, for TF 1.15 only (4.9.4's are above)
            ("attr", {"1.15": "attrs==23.1.0", "": ""}),
            ("dill", {"1.15": "dill==0.3.7", "": ""}),
            ("future", {"1.15": "future==0.18.3", "": ""}),
            ("requests", {"1.15": "requests==2.31.0", "": ""}),
            ("urllib3", {"1.15": "urllib3==1.26.18", "": ""}),
            ("idna", {"1.15": "idna==3.6", "": ""}),
            ("certifi", {"1.15": "certifi==2023.11.17", "": ""}),
            ("charset_normalizer", {"1.15": "charset-normalizer==3.3.2", "": ""}),
            ("google.api", {"1.15": "googleapis-common-protos==1.61.0", "": ""}),
        ),
        # its training input interleaves the data files with parallel_interleave(sloppy=True), twice: on 1.15
        # the first loss varied over 6 runs (1.2074333 ... 0.99240726), with sloppy=False it repeated
        # (bench/RESULTS.md, the reference section)
        ordered=(Edit("tensor2tensor/data_generators/problem.py", "sloppy=True", "sloppy=False", 2),),
    ),
}


# Libraries whose pinned sdist cannot be fetched with realworld.fetch (`pip download --no-binary`
# runs the sdist's setup.py, and these fail on today's Python: tensorlayer's reads a requirements
# file its sdist lacks, gpflow's imports TensorFlow for tf.VERSION): their pure-Python wheel of the
# same release holds the same package folder. Unpacked into the same cache (fetch_wheel).
WHEELS = {
    "tensorlayer": realworld.Project("tensorlayer==1.11.1", "tensorlayer"),
    "gpflow": realworld.Project("gpflow==1.5.1", "gpflow"),
}


@dataclasses.dataclass
class Run:
    returncode: int | None  # None: timed out
    losses: list[float]
    error: str  # the first error line, "" when it trained
    seconds: float

    @property
    def trained(self) -> bool:
        return self.returncode == 0 and bool(self.losses)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def losses_of(stdout: str) -> list[float]:
    """The per-step losses a driver printed, in order."""
    return [float(match.group(2)) for match in map(LOSS.search, stdout.splitlines()) if match]


def short_path(path: str) -> str:
    """A traceback's file relative to the program's tree, or to site-packages."""
    for marker in ("/as_written/", "/migrated/", "/site-packages/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def error_line(stderr: str, returncode: int | None) -> str:
    """The line that says why a run failed: the last exception line of stderr (else its last line),
    and the innermost traceback frame above it as `(at file:line)`, followed by `, from file:line` for
    the innermost frame in the program's tree when that is another one (a library's line it called)."""
    if returncode is None:
        return "timed out"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [index for index, line in enumerate(lines) if ERROR.match(line)]
    if not errors:
        return (lines or [f"exit {returncode}"])[-1][:300]
    last = errors[-1]
    frames = [frame for line in lines[:last] if (frame := FRAME.match(line))]
    # the program's own frame (driver or library) when there is one, not numpy's or TensorFlow's
    own = [
        frame
        for frame in frames
        if short_path(frame.group(1)) != frame.group(1) and "/site-packages/" not in frame.group(1)
    ]
    where = ""
    if frames:
        place = [f"{short_path(frame.group(1))}:{frame.group(2)}" for frame in (frames[-1], (own or frames)[-1])]
        where = f" (at {place[0]})" if place[0] == place[1] else f" (at {place[0]}, from {place[1]})"
    return lines[last][:300] + where


# what every run of a driver gets, whichever TensorFlow: no GPU, fixed hash seed, deterministic kernels
REPEATABLE = {"CUDA_VISIBLE_DEVICES": "", "PYTHONHASHSEED": "0", "TF_DETERMINISTIC_OPS": "1"}


def env(extra: str = "") -> dict[str, str]:
    """The runs' environment: this checkout's compat and codemods first (then `extra`, a folder of
    the program's dependencies), TensorFlow quiet, no GPU."""
    path = [REPO] + ([extra] if extra else []) + [os.environ.get("PYTHONPATH", "")]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path), TF_CPP_MIN_LOG_LEVEL="3", **REPEATABLE)


def run(command: list[str], cwd: str, timeout: float, extra: str = "") -> Run:
    start = time.monotonic()
    try:
        result = subprocess.run(command, cwd=cwd, env=env(extra), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout or ""
        return Run(None, losses_of(out), "timed out", time.monotonic() - start)
    seconds = time.monotonic() - start
    losses = losses_of(result.stdout)
    failed = result.returncode != 0 or not losses
    error = error_line(result.stderr, result.returncode) if failed else ""
    if result.returncode == 0 and not losses:
        error = "exit 0 without a loss: " + error
    return Run(result.returncode, losses, error, seconds)


def fetch_wheel(name: str, cache: str) -> str:
    """The folder holding WHEELS[name]'s package, unpacked from its pinned pure-Python wheel
    (downloaded on first use into realworld.py's cache, beside its sdists)."""
    project = WHEELS[name]
    unpacked = os.path.join(cache, "src", project.requirement.replace("==", "-") + "-wheel")
    if os.path.isdir(os.path.join(unpacked, project.package)):
        return unpacked
    archive = realworld.download(project.requirement, cache, "wheel")
    staging = tempfile.mkdtemp(dir=cache)
    with zipfile.ZipFile(archive) as wheel:
        wheel.extractall(staging)
    shutil.rmtree(unpacked, ignore_errors=True)
    os.replace(staging, unpacked)
    return unpacked


def build_tree(program: Program, cache: str, tree: str, ordered: bool = False) -> None:
    """The program as written: its driver and, when it has one, its library's package from the sdist (or
    wheel); with `ordered`, the package's copy in `tree` gets the program's `ordered` edits."""
    os.makedirs(tree)
    shutil.copyfile(os.path.join(DRIVERS, program.driver), os.path.join(tree, program.driver))
    if program.project is not None:
        if program.project in WHEELS:
            package, unpacked = WHEELS[program.project].package, fetch_wheel(program.project, cache)
        else:
            package, unpacked = realworld.PROJECTS[program.project].package, realworld.fetch(program.project, cache)
        # the whole package folder: its data files too (stable_baselines reads its version.txt)
        shutil.copytree(os.path.join(unpacked, package), os.path.join(tree, package))
    for edit in program.ordered if ordered else ():
        apply_edit(edit, tree)


def apply_edit(edit: Edit, tree: str) -> None:
    """Make `edit` in `tree`'s copy of its file."""
    path = os.path.join(tree, edit.path)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    found = text.count(edit.old)
    if found != edit.count:
        raise EditFailed(f"{edit.path}: {edit.old!r} occurs {found} times, not {edit.count}: not the pinned release")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text.replace(edit.old, edit.new))


class InstallFailed(SystemExit):
    """A program's dependencies do not install on an interpreter: this bench stops with the message;
    bench/reference.py records it for that environment and goes on."""


def pin(requirement: str | dict[str, str], tensorflow: str) -> str:
    if isinstance(requirement, str):
        return requirement
    return requirement.get(".".join(tensorflow.split(".")[:2]), requirement[""])


def lacking(python: str, modules: list[str]) -> tuple[str, list[str]]:
    """(sys.version of interpreter `python`, the modules of `modules` it cannot import)."""
    probe = "import importlib.util as u, json, sys; print(json.dumps([sys.version, [m for m in sys.argv[1:] if u.find_spec(m) is None]]))"
    version, absent = json.loads(
        subprocess.run([python, "-c", probe, *modules], capture_output=True, text=True, check=True).stdout
    )
    return version, absent


def dependencies(program: Program, cache: str, tensorflow: str, python: str = sys.executable) -> str:
    """The folder holding the program's dependencies interpreter `python` lacks ("" when it lacks none).
    It is named site-packages: uai-run gives those libraries TensorFlow's own face, not the TF1 one."""
    version, absent = lacking(python, [module for module, _ in program.requires])
    needed = [pin(requirement, tensorflow) for module, requirement in program.requires if module in absent]
    missing = [requirement for requirement in needed if requirement]
    if not missing:
        return ""
    tag = hashlib.sha256(repr((python, version, missing)).encode()).hexdigest()[:12]
    target = os.path.join(cache, "realprograms-deps", tag, "site-packages")
    if not os.path.isfile(os.path.join(target, ".complete")):
        log(f"pip install --target {target} {' '.join(missing)}")
        shutil.rmtree(target, ignore_errors=True)
        command = [
            python,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--disable-pip-version-check",
            "-q",
            "--target",
            target,
        ]
        result = subprocess.run(command + missing, capture_output=True, text=True)
        if result.returncode:
            raise InstallFailed(f"pip install {' '.join(missing)} failed: {result.stderr.strip()[-2000:]}")
        with open(os.path.join(target, ".complete"), "w") as handle:
            handle.write("\n".join(missing) + "\n")
    return target


def has_libcst(python: str) -> bool:
    return subprocess.run([python, "-c", "import libcst"], capture_output=True).returncode == 0


def migrate(tree: str, out: str, python: str, timeout: float, level: str = "safe") -> str:
    """uai-migrate `tree` into `out` at `level`, its JSON report beside it (REPORT); "" or its error line
    (exit 1 only says entries need attention)."""
    command = [python, "-m", "codemods", "--out", out, "--level", level, "--no-cache", "-q"]
    command += ["--report", out + REPORT, tree]
    try:
        result = subprocess.run(command, cwd=REPO, env=env(), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "uai-migrate timed out"
    if result.returncode not in (0, 1) or "Traceback (most recent call last)" in result.stderr:
        return "uai-migrate: " + error_line(result.stderr, result.returncode)
    return ""


REPORT = ".report.json"  # uai-migrate's report of a port OUT: OUT + REPORT


def native_counts(out: str) -> dict[str, tuple[int, int]]:
    """native rule -> (entries converting something, entries leaving code at the safe level) of port `out`'s report."""
    with open(out + REPORT, encoding="utf-8") as handle:
        return native.rule_counts(json.load(handle))


def judge(name: str, args: argparse.Namespace, work: str) -> dict:
    """Both ways of one program, and how their losses compare."""
    program = PROGRAMS[name]
    tree = os.path.join(work, name, "as_written")
    migrated = os.path.join(work, name, "migrated")
    build_tree(program, args.cache, tree)
    extra = dependencies(program, args.cache, args.tensorflow)
    results = {}
    log(f"{name}: uai-run")
    workdir = os.path.join(work, name, "run_uai")
    os.makedirs(workdir)
    results["uai-run"] = run(
        [sys.executable, "-m", "uai_run", os.path.join(tree, program.driver), workdir], tree, args.timeout, extra
    )
    level = args.level
    log(f"{name}: uai-migrate --out --level {level}")
    problem = migrate(tree, migrated, args.migrate_python, args.timeout, level)
    if problem:
        results["migrated"] = Run(None, [], problem, 0.0)
    else:
        log(f"{name}: migrated, with python")
        workdir = os.path.join(work, name, "run_migrated")
        os.makedirs(workdir)
        results["migrated"] = run(
            [sys.executable, os.path.join(migrated, program.driver), workdir], migrated, args.timeout, extra
        )
    for way, result in results.items():
        status = "trained" if result.trained else f"FAILED: {result.error}"
        log(f"{name} {way}: {status} ({result.seconds:.0f} s) losses {result.losses[:4]}")
    return {
        "program": name,
        "what": program.what,
        "level": level,
        "native_rules": native_counts(migrated) if level == "native" and not problem else {},
        "ways": {way: dataclasses.asdict(result) | {"trained": result.trained} for way, result in results.items()},
        "same_losses": compare(results["uai-run"], results["migrated"]),
    }


def compare(first: Run, second: Run) -> str:
    """'equal', 'max diff X' over the steps both printed (and the step counts when they differ), or '-'."""
    if not (first.trained and second.trained):
        return "-"
    common = min(len(first.losses), len(second.losses))
    diff = max(abs(a - b) for a, b in zip(first.losses[:common], second.losses[:common]))
    verdict = "equal" if diff == 0 else f"max diff {diff:.3g}"
    if len(first.losses) != len(second.losses):
        verdict += f" ({len(first.losses)} vs {len(second.losses)} steps)"
    return verdict


def markdown(results: list[dict], tensorflow: str, level: str = "safe") -> str:
    """The table; at native level a column of the native rules' entries, `rule done/left` (the migrated row's)."""
    column = " native rules (done/left) |" if level == "native" else ""
    head = f"| program (TF {tensorflow}) | way | trained | first losses | same losses |{column} error |\n"
    head += "|---" * (6 + bool(column)) + "|\n"
    rows = []
    for result in results:
        for way in WAYS:
            one = result["ways"][way]
            losses = ", ".join(f"{loss:.6g}" for loss in one["losses"][:3]) or "-"
            same = result["same_losses"] if way == "migrated" else ""
            error = one["error"].replace("|", "\\|")
            rules = result.get("native_rules", {}) if way == "migrated" else {}
            cell = f" {', '.join(f'{rule} {done}/{left}' for rule, (done, left) in rules.items())} |" if column else ""
            label = f"migrated ({level})" if way == "migrated" else way
            rows.append(
                f"| {result['program']} | {label} | {'yes' if one['trained'] else 'no'} | {losses} | {same} |{cell} {error} |"
            )
    return head + "\n".join(rows) + "\n"


def tensorflow_version() -> str:
    command = [sys.executable, "-c", "import tensorflow as tf; print(tf.__version__)"]
    return subprocess.run(command, capture_output=True, text=True, env=env()).stdout.strip() or "?"


def _programs(value: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in PROGRAMS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown program(s) {', '.join(unknown)}; known: {', '.join(PROGRAMS)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=_programs, default=list(PROGRAMS))
    parser.add_argument(
        "--level",
        choices=("safe", "native"),
        default="safe",
        help="uai-migrate's level for the migrated way (default safe); native: the native port, judged against "
        "uai-run's losses as the safe port is, with its native rules' entries per program (converted/left)",
    )
    parser.add_argument("--cache", default=realworld.default_cache(), help="the sdist cache (realworld.py's)")
    parser.add_argument("--json", help="write every result as JSON here")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument(
        "--keep",
        help="keep the trees, ports and run folders in this new or empty folder (default: a temporary one, removed)",
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per run")
    parser.add_argument(
        "--migrate-python",
        default=None,
        help="the python that runs uai-migrate (default: this one if it has libcst, else .nox/tf2/bin/python)",
    )
    parser.add_argument("--list", action="store_true", help="list the programs and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, program in PROGRAMS.items():
            print(f"{name:12} {program.what}")
        return 0
    if args.migrate_python is None:
        args.migrate_python = (
            sys.executable if has_libcst(sys.executable) else os.path.join(REPO, ".nox", "tf2", "bin", "python")
        )
    tensorflow = args.tensorflow = tensorflow_version()
    if args.keep and os.path.isdir(args.keep) and os.listdir(args.keep):
        parser.error(f"--keep {args.keep}: not empty")
    work = args.keep or tempfile.mkdtemp(prefix="realprograms-")
    try:
        results = [judge(name, args, work) for name in args.programs]
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    table = markdown(results, tensorflow, args.level)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as handle:
            handle.write(table)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(
                {"tensorflow": tensorflow, "python": sys.executable, "level": args.level, "results": results},
                handle,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
