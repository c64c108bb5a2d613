"""uai-run serves the names libraries removed since TF1 programs were written, from the table uai-migrate rewrites by.

Pillow is only in the tf2 environment (TF 2.21's tensorboard installs Pillow 13, which has none of
Pillow's pre-10 resampling aliases).
"""

import json
import sys
import textwrap

from PIL import Image

from compat import library_names
from tests.support import runs as _runs
from tests.support.processes import program_lines

# old name -> the filter of PIL.Image it stands for
RENAMED = {old: library_names.split(new)[1] for old, new in library_names.RENAMED["PIL.Image"].items()}

SCRIPT = """
import json
import numpy as np
import PIL.Image
from PIL import Image
from PIL.Image import CUBIC

image = Image.fromarray(np.arange(64, dtype=np.uint8).reshape(8, 8))
print(json.dumps({
    "antialias": np.asarray(image.resize((4, 4), Image.ANTIALIAS)).tolist(),
    "lanczos": np.asarray(image.resize((4, 4), Image.LANCZOS)).tolist(),
    "cubic": [CUBIC, Image.BICUBIC],
    "linear": [PIL.Image.LINEAR, Image.BILINEAR],
    "unknown": hasattr(Image, "NOT_A_FILTER"),
}))
"""


def test_pillows_removed_resampling_aliases_are_the_filters_uai_migrate_writes_and_explain_names_them(tmp_path):
    assert [old for old in RENAMED if hasattr(Image, old)] == []  # the installed Pillow needs it
    script = tmp_path / "resize.py"
    script.write_text(textwrap.dedent(SCRIPT))
    result = _runs.run([sys.executable, "-m", "uai_run", "--explain", str(script)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    assert found["antialias"] == found["lanczos"] and found["unknown"] is False
    assert found["cubic"][0] == found["cubic"][1] and found["linear"][0] == found["linear"][1]
    (notes,) = [file["entries"] for file in json.loads("\n".join(program_lines(result.stderr)))["files"]]
    lines = script.read_text().splitlines()

    def line_of(text):
        return next(number for number, line in enumerate(lines, 1) if text in line)

    assert {(n["message"], n["rule"], n["line"]) for n in notes} == {
        (f"PIL.Image.{old} -> PIL.Image.{new}", library_names.RULE, line_of(use))
        for old, new, use in (
            ("CUBIC", "BICUBIC", "import CUBIC"),
            ("ANTIALIAS", "LANCZOS", "Image.ANTIALIAS"),
            ("LINEAR", "BILINEAR", "Image.LINEAR"),
        )
    }
    assert not hasattr(Image, "ANTIALIAS")  # this process, without uai-run, is untouched
