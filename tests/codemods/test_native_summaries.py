"""--level native on a Session script of v1 summaries, a global step and an assign op (tests/corpus/
session_summaries.py): the native port writes the same summaries as the safe port, by bench/native.py's
method (the safe port's variables at step 0 loaded by their TF1 names, the event files' steps and tags).
"""

import os

from bench import native
from tests.support.processes import REPO

SCRIPT = os.path.join(REPO, "tests", "corpus", "session_summaries.py")


def test_native_port_writes_the_safe_ports_summaries_with_tf_summary_v2(tmp_path):
    ported = {level: native.migrate([SCRIPT], str(tmp_path / level), level) for level in ("safe", "native")}
    assert native.converted(ported["native"]) and native.converted(ported["safe"]) == []
    name = os.path.basename(SCRIPT)
    files = {level: native.ported_file(str(tmp_path / level), name, name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        code = handle.read()
    assert native.references(code)[1] == 0  # no tf.* reference through tf.compat.v1
    assert "create_file_writer" in code and ".Session(" not in code and "FileWriter(" not in code
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence(name, files["safe"], files["native"], ["--log_dir=logs"], str(folder))
    assert row["unloaded"] == [] and row["loaded"] == "1/1", row  # the global step, by its TF1 name
    assert row["summaries"] == 6 and row["equal"], row  # 2 summaries x 3 steps, tags equal but TF1's suffix
    assert all(native.SUFFIX.search(tag) for tag in row["renamed_tags"]), row
