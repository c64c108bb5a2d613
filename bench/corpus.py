"""Run the fixture corpus (tests/corpus) the way its manifest says: read by bench/fidelity.py and by the tests
(tests/codemods/test_corpus.py, the uai-run session fixtures); it imports nothing of the tests."""

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "tests", "corpus")


def manifest():
    with open(os.path.join(CORPUS, "manifest.json"), encoding="utf-8") as handle:
        entries = json.load(handle)
    entries.pop("_doc")
    return entries


def copy_corpus(dest):
    shutil.copytree(CORPUS, dest, ignore=shutil.ignore_patterns("manifest.json", "__pycache__"))
    return dest


def generate_data(dest):
    """A few ImageNet-format TFRecords (32x32), in a subprocess so the caller need not import TensorFlow.

    The time limit is a corpus script's (300 s): its 4 s of CPU took 72 s of wall time at load 16 here,
    close to the 120 s it had before."""
    args = ["--out", dest, "--train-shards", "1", "--validation-shards", "1", "--images", "16", "--size", "32"]
    command = [sys.executable, "-m", "trainlib.data.synth", *args]
    subprocess.run(command, cwd=REPO, env=environment(), capture_output=True, timeout=300, check=True)
    return dest


def environment(extra=None):
    """A user's shell: the repo importable, no Keras choice or TF_CONFIG inherited from the caller."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    for name in ("TF_USE_LEGACY_KERAS", "TF_CONFIG"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def _script(folder, name):
    """The file to run: notebooks run as their code cells joined, magics and shell lines left out."""
    path = os.path.join(folder, name)
    if not name.endswith(".ipynb"):
        return path
    with open(path, encoding="utf-8") as handle:
        cells = json.load(handle)["cells"]
    lines: list[str] = []
    for cell in cells:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            lines.extend(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    script = path[: -len(".ipynb")] + "_notebook.py"
    with open(script, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return script


def run_one(
    folder: str, name: str, entry: dict, data: str, out: str, timeout: float = 300, runner: Sequence[str] = ()
) -> tuple[bool, subprocess.CompletedProcess]:
    """(worked, CompletedProcess): exit 0 and the expected text on stdout; `runner` goes before the script."""
    args = [a.format(data=data, out=os.path.join(out, name.replace("/", "_"))) for a in entry.get("args", [])]
    try:
        result = subprocess.run(
            [sys.executable, *runner, _script(folder, name), *args],
            cwd=folder,
            env=environment(entry.get("env")),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as err:
        return False, subprocess.CompletedProcess(err.cmd, -9, "", f"timed out after {timeout} s")
    return result.returncode == 0 and entry.get("expect", "") in result.stdout, result


def run_corpus(
    folder: str,
    data: str,
    out: str,
    workers: int = 2,
    reported: bool = False,
    names: Iterable[str] | None = None,
    runner: Callable[[str], Sequence[str]] = lambda name: (),
) -> dict:
    """{name: (worked, result)} for the runnable entries (and the 'reported' ones if asked), or only `names`,
    `workers` at a time; `runner(name)` goes between the interpreter and the script."""
    entries = {n: e for n, e in manifest().items() if reported or not e.get("reported")}
    chosen = list(entries) if names is None else list(names)
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {n: pool.submit(run_one, folder, n, entries[n], data, out, runner=runner(n)) for n in chosen}
        return {n: f.result() for n, f in futures.items()}
