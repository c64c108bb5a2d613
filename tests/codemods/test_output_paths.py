"""No output option of any tool can name a file the run reads or runs, nor turn a device, FIFO or
socket into a regular file, nor replace a file it did not write (compat.outputs): every writing option
of every CLI against every hazard.

Each case runs the real command line; it must stop before doing anything (exit 2, one line naming
the option) and leave the hazard and every file the run reads exactly as they were.
"""

import dataclasses
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.processes import REPO, program_lines, python_env

PROGRAM = "import helper\nimport tensorflow as tf\n\nprint(helper.X, tf.__name__)\n"
HELPER = "X = 1\n"
MODULE = "import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\n"


@dataclasses.dataclass
class Workspace:
    root: Path

    @property
    def program(self) -> Path:  # uai-run's script, and the program uai-launch runs
        return self.root / "p" / "train.py"

    @property
    def helper(self) -> Path:  # a module of its folder that the program imports
        return self.root / "p" / "helper.py"

    @property
    def tree(self) -> Path:  # what uai-migrate reads
        return self.root / "t"

    @property
    def checkpoint(self) -> Path:
        return self.root / "ckpt"


def _workspace(root: Path) -> Workspace:
    ws = Workspace(root)
    ws.program.parent.mkdir()
    ws.program.write_text(PROGRAM)
    ws.helper.write_text(HELPER)
    ws.tree.mkdir()
    (ws.tree / "m.py").write_text(MODULE)
    (ws.tree / "other.py").write_text(MODULE.replace("x =", "y ="))
    ws.checkpoint.mkdir()
    (ws.checkpoint / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-1"\n')
    return ws


@dataclasses.dataclass(frozen=True)
class Writer:
    """A writing option: its command line for an output value, the files the run reads, and where
    a hazard goes for it (a file option: the value itself; a folder option: a file it writes in it)."""

    name: str
    command: Callable[[Workspace, str], list[str]]
    reads: Callable[[Workspace], list[Path]]
    folder: bool = False  # the option names a folder
    written_name: str | None = None  # a file the tool writes in that folder


def _python(*args: str) -> list[str]:
    return [sys.executable, *args]


WRITERS = [
    Writer(
        "uai-migrate --report",
        lambda ws, out: _python("-m", "codemods", "--no-cache", str(ws.tree), "--report", out),
        lambda ws: [ws.tree / "m.py", ws.tree / "other.py"],
    ),
    Writer(
        "uai-migrate --write --report",
        lambda ws, out: _python("-m", "codemods", "--no-cache", "--write", str(ws.tree), "--report", out),
        lambda ws: [ws.tree / "m.py", ws.tree / "other.py"],
    ),
    Writer(
        "uai-run --report",
        lambda ws, out: _python("-m", "uai_run", "--report", out, str(ws.program)),
        lambda ws: [ws.program, ws.helper],
    ),
    Writer(
        "uai-launch --kubeflow",
        lambda ws, out: _python(
            "-m", "uai_launch", "--kubeflow", out, "--image", "img", "--", "python", str(ws.program)
        ),
        lambda ws: [ws.program],
    ),
    Writer(
        "uai-launch --log-dir",
        lambda ws, out: _python("-m", "uai_launch", "--log-dir", out, "--", sys.executable, str(ws.program)),
        lambda ws: [ws.program],
        folder=True,
        written_name="chief-0.log",
    ),
    Writer(
        "trainlib.checkpoints convert --out",
        lambda ws, out: _python(
            "-m",
            "trainlib.checkpoints",
            "convert",
            str(ws.checkpoint),
            "--model",
            "resnet",
            "--resnet_size",
            "8",
            "--out",
            out,
        ),
        lambda ws: [ws.checkpoint / "checkpoint"],
        folder=True,
    ),
]


def _device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # what /dev/null is
    except PermissionError:
        # Not root: a symlink to the system's /dev/null, which a broken tool could not replace either.
        os.symlink("/dev/null", path)


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


# hazard -> makes it at `path` (reads: the files the run reads); None: the hazard is the read file itself
HAZARDS: dict[str, Callable[[Path, list[Path]], None] | None] = {
    "a file it reads": None,
    "a second file it reads": None,
    "a symlink to a file it reads": lambda path, reads: os.symlink(reads[0], path),
    "a hard link to a file it reads": lambda path, reads: os.link(reads[0], path),
    "a device": lambda path, reads: _device(path),
    "a FIFO": lambda path, reads: os.mkfifo(path),
    "a socket": lambda path, reads: _socket(path),
    "a folder": lambda path, reads: path.mkdir(),
    # `--report train.py model.py`, the arguments swapped: a file of the user's that the run does not read
    "a source file it does not read": lambda path, reads: path.write_text("print('mine')\n"),
}
# (a log file is appended to, never replaced; a folder option's folder is refused as a file by "a device")
FOREIGN_FILE_WRITERS = ("uai-migrate --report", "uai-run --report", "uai-launch --kubeflow")


def _identity(path: Path) -> tuple:
    info = os.lstat(path)
    content = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
    return stat.S_IFMT(info.st_mode), info.st_ino, content


def _cases():
    for writer in WRITERS:
        for hazard in HAZARDS:
            folder_read = writer.folder and hazard.endswith("reads") and writer.written_name is None
            if folder_read and hazard != "a file it reads":
                continue
            if writer.folder and hazard == "a folder":
                continue  # a folder is what a folder option names
            if hazard == "a source file it does not read" and writer.name not in FOREIGN_FILE_WRITERS:
                continue  # one process per tool: the policy itself is tested in-process below
            yield pytest.param(writer, hazard, id=f"{writer.name}: {hazard}")


def _place(ws: Workspace, writer: Writer, hazard: str) -> tuple[str, Path]:
    """(the option's value, the hazard's path) for this case."""
    reads = writer.reads(ws)
    if writer.folder and writer.written_name is None:  # the folder itself is the hazard
        if hazard == "a file it reads":
            return str(reads[0].parent), reads[0].parent
        path = ws.root / "out"
        make = HAZARDS[hazard]
        assert make is not None
        make(path, reads)
        return str(path), path
    folder = ws.root / "outputs"
    folder.mkdir()
    name = writer.written_name or "out.json"
    if HAZARDS[hazard] is None:
        read = reads[1 if hazard.startswith("a second") and len(reads) > 1 else 0]
        if writer.folder:  # the file it writes in the folder is the read file: a link names it there
            os.symlink(read, folder / name)
            return str(folder), folder / name
        # reached through `..` from another folder, the way a mistyped path does
        return os.path.join(str(folder), "..", os.path.relpath(read, ws.root)), read
    make = HAZARDS[hazard]
    assert make is not None
    make(folder / name, reads)
    return (str(folder) if writer.folder else str(folder / name)), folder / name


@pytest.mark.parametrize(("writer", "hazard"), list(_cases()))
def test_an_output_option_never_names_what_the_run_reads_nor_a_device(tmp_path, writer, hazard):
    ws = _workspace(tmp_path)
    value, hazard_path = _place(ws, writer, hazard)
    watched = [hazard_path, *writer.reads(ws)]
    before = [_identity(p) for p in watched]
    done = subprocess.run(
        writer.command(ws, value), cwd=str(tmp_path), env=python_env(), capture_output=True, text=True, timeout=120
    )
    lines = program_lines(done.stderr)
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "error:" in lines[0] and ("--out" in lines[0] or writer.name.split()[-1] in lines[0]), lines[0]
    assert [_identity(p) for p in watched] == before


@pytest.mark.parametrize("writer", [w for w in WRITERS if w.name in ("uai-migrate --report", "uai-run --report")])
def test_stdout_is_a_report_target_on_purpose(tmp_path, writer):
    ws = _workspace(tmp_path)
    done = subprocess.run(
        writer.command(ws, "-"), cwd=str(tmp_path), env=python_env(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode in (0, 1), done.stderr
    assert '"version": 1' in done.stdout


def test_uai_run_report_is_resolved_before_the_program_changes_folder(tmp_path):
    program = tmp_path / "p" / "wander.py"
    program.parent.mkdir()
    (tmp_path / "elsewhere").mkdir()
    program.write_text(
        "import os\nimport tensorflow as tf\n\nos.chdir(os.path.join(os.path.dirname(__file__), '..', 'elsewhere'))\n"
    )
    done = subprocess.run(
        _python("-m", "uai_run", "--report", "r.json", str(program)),
        cwd=str(tmp_path),
        env=python_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.json").is_file()
    assert not (tmp_path / "elsewhere" / "r.json").exists()


def test_out_rerun_refuses_a_hand_edit_and_accepts_its_own_output(tmp_path):
    ws = _workspace(tmp_path)
    out = tmp_path / "o2"

    def migrate() -> subprocess.CompletedProcess:
        return subprocess.run(
            _python("-m", "codemods", "--no-cache", str(ws.tree), "--out", str(out)),
            cwd=REPO,
            env=python_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )

    first = migrate()
    assert first.returncode in (0, 1), first.stderr
    assert migrate().returncode == first.returncode  # its own output: written again
    edited = out / "m.py"
    edited.write_text(edited.read_text() + "# my fix\n")
    again = migrate()
    assert again.returncode == 2 and "m.py changed since uai-migrate wrote it" in again.stderr, again.stderr
    assert edited.read_text().endswith("# my fix\n")
    (out / "notes.txt").write_text("mine\n")
    edited.write_text(edited.read_text().replace("# my fix\n", ""))  # the edit undone: only notes.txt is foreign
    foreign = migrate()
    assert foreign.returncode == 2 and "notes.txt" in foreign.stderr, foreign.stderr
    assert (out / "notes.txt").read_text() == "mine\n"


def test_write_keeps_a_files_mode_and_owner(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another owner needs root (CI and containers run as root)")
    ws = _workspace(tmp_path)
    target = ws.tree / "m.py"
    os.chmod(target, 0o640)
    os.chown(target, 1234, 5678)
    done = subprocess.run(
        _python("-m", "codemods", "--no-cache", "--write", str(ws.tree)),
        cwd=REPO,
        env=python_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr
    info = os.stat(target)
    assert "placeholder" in target.read_text() and target.read_text() != MODULE
    assert (stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid) == (0o640, 1234, 5678)


# -- replacing an existing file: only one this option wrote (compat.outputs, in-process) --------------------


def _report_text(mode: str) -> str:
    """A report as both tools write it (compat.reports.to_json, their one writer)."""
    from compat.reports import Entry, to_json

    entry = Entry("tf1-api", "tf.placeholder -> tf.compat.v1.placeholder", line=2, col=5, path="a.py")
    summary = {"files": 1, "changed": 1, "skipped": 0, "cached": 0, "skipped_folders": 0, "info": 1}
    files = [{"path": "a.py", "status": "changed", "entries": [entry.to_dict()]}]
    return to_json(mode, "safe", summary, 0, files)


def _manifest_text() -> str:
    """A TFJob manifest as uai-launch --kubeflow writes it."""
    from compat.outputs import OutputFile
    from uai_launch import Layout, tfjob_manifest
    from uai_launch._kubeflow import write_manifest

    written: list[str] = []

    class Capture(OutputFile):
        def write(self, text: str) -> None:
            written.append(text)

    write_manifest(Capture("--kubeflow", "-", None), tfjob_manifest(Layout(), ["python", "train.py"], "img"))
    return written[0]


@pytest.mark.parametrize(
    ("option", "previous"),
    [
        ("--report", lambda: _report_text("diff")),  # uai-migrate's
        ("--report", lambda: _report_text("run")),  # uai-run's
        ("--report", lambda: _report_text("diff").replace("\n", "\r\n").replace("  ", "\t")),  # reformatted
        ("--kubeflow", _manifest_text),
        ("--report", lambda: ""),  # empty: nothing to lose (a `touch`ed or mktemp'd file)
        ("--kubeflow", lambda: ""),
    ],
    ids=["migrate report", "run report", "reformatted report", "manifest", "empty report", "empty manifest"],
)
def test_a_file_this_option_wrote_is_replaced(tmp_path, option, previous):
    from compat.outputs import output_file

    path = tmp_path / "out.json"
    path.write_text(previous())
    output_file(option, str(path)).write("new\n")
    assert path.read_text() == "new\n"


@pytest.mark.parametrize(
    ("option", "existing", "why"),
    [
        ("--report", "import tensorflow as tf\n", "not a report"),
        ("--report", '{"version": 1, "mode": "diff"}\n', "not a report"),  # JSON, but not our report's fields
        ("--report", '[{"version": 1}]\n', "not a report"),
        ("--report", b"\xff\xfe\x00binary", "not a report"),
        ("--report", None, "not a report"),  # a manifest is not a report
        ("--kubeflow", "apiVersion: kubeflow.org/v1\nkind: TFJob\n", "not a TFJob manifest"),  # the user's YAML
        ("--kubeflow", "report", "not a TFJob manifest"),  # a report is not a manifest
        ("--some-new-option", "anything\n", "exists"),  # an option the policy does not know replaces nothing
    ],
    ids=["source", "other JSON", "JSON list", "binary", "manifest", "yaml manifest", "report", "unknown option"],
)
def test_an_existing_file_this_option_did_not_write_is_refused(tmp_path, option, existing, why):
    from compat.outputs import OutputPathError, output_file

    path = tmp_path / "train.py"
    if existing is None:
        existing = _manifest_text()
    elif existing == "report":
        existing = _report_text("diff")
    path.write_bytes(existing if isinstance(existing, bytes) else existing.encode())
    before = path.read_bytes()
    with pytest.raises(OutputPathError) as refused:
        output_file(option, str(path))
    message = str(refused.value)
    assert message.startswith(f"{option} {path}: ") and why in message and "\n" not in message, message
    assert path.read_bytes() == before


def test_a_file_that_appears_after_the_check_is_not_replaced(tmp_path):
    # uai-run's program may write the very file --report names: the report must not replace it at the end
    from compat.outputs import OutputPathError, output_file

    path = tmp_path / "results.json"
    report = output_file("--report", str(path))
    path.write_text('{"accuracy": 0.9}\n')  # the program's own output
    with pytest.raises(OutputPathError, match="not a report"):
        report.write(_report_text("run"))
    assert path.read_text() == '{"accuracy": 0.9}\n'
    path.write_text(_report_text("diff"))  # one of ours there by then: replaced as a rerun would
    report.write(_report_text("run"))
    assert '"mode": "run"' in path.read_text()


def test_a_log_file_is_appended_to_so_any_existing_one_stands(tmp_path):
    from compat.outputs import output_file

    log = tmp_path / "chief-0.log"
    log.write_text("an earlier run's output\n")
    output_file("--log-dir", str(log), stdout_ok=False)  # uai-launch appends to it: nothing is lost
    assert log.read_text() == "an earlier run's output\n"


def test_uai_migrate_reruns_into_its_own_report(tmp_path, cli):
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "m.py").write_text(MODULE)
    report = tmp_path / "r.json"
    for _ in range(2):
        code, _, err = cli("--no-cache", tree, "--report", report)
        assert code in (0, 1), err
        assert '"mode": "diff"' in report.read_text()
