"""uai-run serves the names Python and NumPy removed since TF1 programs were written (compat.library_names):
`from collections import Mapping` (Python 3.10), `np.bool` (NumPy 1.24), `np.float_` (NumPy 2.0).

A name the installed library still has keeps its own value: NumPy 2 has `np.bool` again, as its own type.
"""

import json
import math
import sys
import textwrap

import numpy as np

from compat import library_names
from tests.support import runs as _runs
from tests.support.processes import program_lines

DESCRIBE = """
def describe(value):
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    return f"{value.__module__}.{value.__qualname__}"
"""

SCRIPT = """
import collections
import json
import math
import numpy as np
from collections import Mapping, MutableSequence
{describe}
OLD = {old}
print(json.dumps({{
    "numpy": {{name: describe(getattr(np, name)) for name in OLD}},
    "collections": [Mapping is collections.abc.Mapping, MutableSequence is collections.abc.MutableSequence,
                    collections.Callable is collections.abc.Callable],
    "unknown": hasattr(collections, "NotAnAbc") or hasattr(np, "not_a_numpy_name"),
    "zeros": str(np.zeros(2, dtype=np.float).dtype),
}}))
"""


def _describe(value):
    namespace = {"math": math}
    exec(DESCRIBE, namespace)  # noqa: S102 - the program's own function, one definition
    return namespace["describe"](value)


def _expected(old: str) -> str:
    """What the program must read for `np.<old>`: the installed NumPy's own name, else the table's."""
    if hasattr(np, old):
        return _describe(getattr(np, old))
    module, name = library_names.split(library_names.RENAMED["numpy"][old])
    return _describe(getattr(__import__(module), name))


def test_removed_collections_and_numpy_names_are_served_and_explain_names_the_rule(tmp_path):
    old = sorted(library_names.RENAMED["numpy"])
    script = tmp_path / "old_names.py"
    script.write_text(textwrap.dedent(SCRIPT.format(describe=DESCRIBE, old=old)))
    result = _runs.run([sys.executable, "-m", "uai_run", "--explain", str(script)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    assert found["numpy"] == {name: _expected(name) for name in old}
    assert found["collections"] == [True, True, True] and found["unknown"] is False
    assert found["zeros"] == "float64"
    (notes,) = [file["entries"] for file in json.loads("\n".join(program_lines(result.stderr)))["files"]]
    served = {(n["message"], n["line"]) for n in notes if n["rule"] == library_names.RULE}
    lines = script.read_text().splitlines()

    def line_of(text):
        return next(number for number, line in enumerate(lines, 1) if text in line)

    assert ("collections.Mapping -> collections.abc.Mapping", line_of("import Mapping")) in served
    assert ("collections.Callable -> collections.abc.Callable", line_of("collections.Callable")) in served
    assert ("numpy.float -> float", line_of("np.float)")) in served
    assert hasattr(np, "float") is False  # this process, without uai-run, is untouched


CHANGED_CALLS_SCRIPT = """
import json
import sys
import numpy as np
import numpy.linalg
from numpy import array

a = np.arange(3)
try:
    sys.modules["numpy"].array([1], copy=False)  # the real NumPy, as libraries see it
    library_raises = False
except ValueError:
    library_raises = True
print(json.dumps({
    "list": np.array([1, 2], copy=False).tolist(),
    "from_import": array((3, 4), copy=False).tolist(),
    "no_copy_where_none_is_needed": bool(np.shares_memory(np.array(a, copy=False), a)),
    "copy_true_copies": not np.shares_memory(np.array(a, copy=True), a),
    "dtype": str(np.array(a, dtype=np.float32, copy=False).dtype),
    "linalg": float(numpy.linalg.norm(np.array([3.0, 4.0], copy=False))),
    "library_raises": library_raises,
}))
"""


def test_numpy_1s_copy_false_keeps_its_meaning_for_the_users_code_only(tmp_path):
    # stable-baselines 2.10.2's replay buffer calls np.array(action, copy=False) on a Python int: NumPy 2 raises
    script = tmp_path / "copy_false.py"
    script.write_text(textwrap.dedent(CHANGED_CALLS_SCRIPT))
    result = _runs.run([sys.executable, "-m", "uai_run", "--explain", str(script)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    numpy_2 = library_names.changed_here(library_names.CHANGED_CALLS["numpy.array"])
    assert found == {
        "list": [1, 2],
        "from_import": [3, 4],
        "no_copy_where_none_is_needed": True,
        "copy_true_copies": True,
        "dtype": "float32",
        "linalg": 5.0,
        "library_raises": numpy_2,
    }
    (notes,) = [file["entries"] for file in json.loads("\n".join(program_lines(result.stderr)))["files"]] or [[]]
    served = {n["line"] for n in notes if n["rule"] == library_names.RULE and "copy=False" in n["message"]}
    lines = script.read_text().splitlines()
    expected = {number for number, line in enumerate(lines, 1) if "copy=False)" in line and "sys.modules" not in line}
    assert served == (expected if numpy_2 else set())
