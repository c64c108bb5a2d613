"""What the uai-run tests compare: a program's loss trajectory, and the bytes of the files it must leave untouched."""

import hashlib
import re
from pathlib import Path

# "step 3 loss 0.6931472" (the tests' own loops) and "loss = 0.6931472" (tf.train.LoggingTensorHook,
# the Estimator's step log and its evaluation line); `eval_loss = ` is not a match.
_LOSS = re.compile(r"(?:^|[\s:,])loss =? ?([-+0-9.eE]+)")


def loss_trajectory(result, at_least: int) -> list[str]:
    """The losses a finished process printed (stdout, then stderr), as written: compared exactly."""
    assert result.returncode == 0, result.stderr[-3000:]
    losses = [value for text in (result.stdout, result.stderr) for value in _LOSS.findall(text)]
    assert len(losses) >= at_least, result.stdout[-2000:] + result.stderr[-2000:]
    return losses


def digests(folder) -> dict[str, str]:
    """{relative path: sha256} of every file under `folder` (bytecode caches left out)."""
    root = Path(folder)
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }
