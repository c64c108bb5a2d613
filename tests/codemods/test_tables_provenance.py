"""uai-migrate says which TensorFlow its tables come from, and warns only outside the releases its rewrites are checked on."""

import json

from codemods import tables
from compat import doctor


def test_help_names_the_tensorflow_the_tables_were_generated_on(migrate):
    with open(tables.TF_API, encoding="utf-8") as handle:
        generated_on = json.load(handle)["tensorflow"]
    result = migrate("--help")
    assert result.returncode == 0, result.stderr
    assert f"tables derived from TensorFlow {generated_on}" in result.stdout


def test_a_tensorflow_outside_the_checked_releases_gets_one_warning_and_none_inside_or_without_one():
    first, last = tables.CHECKED
    assert tables.installed_warning(None) is None  # pipx: no TensorFlow, nothing to compare
    assert tables.installed_warning(first) is None and tables.installed_warning(last) is None
    assert tables.installed_warning((first[0], first[1] + 1)) is None
    for outside in ((1, 15), (first[0], first[1] - 1), (last[0], last[1] + 1)):
        warning = tables.installed_warning(outside)
        assert warning is not None and "\n" not in warning
        assert f"TensorFlow {'.'.join(map(str, outside))} is outside" in warning


def test_the_suites_tensorflow_is_inside_the_checked_releases_so_a_run_prints_no_warning(tmp_path, migrate):
    installed = doctor.installed_tensorflow()
    assert installed is not None and tables.CHECKED[0] <= installed <= tables.CHECKED[1]
    (tmp_path / "train.py").write_text("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
    result = migrate(tmp_path / "train.py")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
