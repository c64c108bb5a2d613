"""native-io: TF1's gfile functions, logging verbosity, parse_(single_)example and set_random_seed -> TF 2's,
or the safe level with an info entry saying why. Both ports' runs: test_native_equivalence.py's dataset fixture;
the native port's log lines against TF 1.15's (tests/common/golden/tf115_logging_messages.json) here."""

import json
import os
import re

import pytest

from bench import native
from codemods.rules.native_io import MESSAGES_STAY, NativeIoRule
from codemods.rules.private import PrivateRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.common.tf1_programs.logging_messages_runs import PROGRAM, run
from tests.support.processes import REPO, python_env
from tests.support.rule_test import RuleTest, apply

GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_logging_messages.json")
# TF 1.15's notice for each tf.logging / tf.app name the TF1 program used (a second copy under absl's handler, the
# record of module_wrapper.py): the ports spell them tf.compat.v1 and compat's flags.run, which TF 2 does not warn of
_DEPRECATION_NOTICE = re.compile(r"The name tf\.\S+ is deprecated")
_ABSL_RECORD = re.compile(r"^([DIWEF]0000 00:00:00\.000000 0 )(\S+\.py):[^\]]+\] (.*)")  # (normalised by `run`)


class TestNativeIoRule(RuleTest):
    TRANSFORM = NativeIoRule

    def test_gfile_verbosity_and_parsers_in_a_graph_mode_function(self):
        before = """
            import tensorflow as tf

            def input_fn(pattern, record):
                tf.logging.set_verbosity(tf.logging.WARN)
                tf.set_random_seed(seed=1)
                level = tf.logging.get_verbosity()
                tf.compat.v1.gfile.MakeDirs(dirname="/tmp/out")
                for top, dirs, names in tf.gfile.Walk("/tmp/out", in_order=False):
                    tf.gfile.Copy(names[0], newpath="/tmp/copy", overwrite=True)
                with tf.gfile.Open(tf.gfile.Glob(pattern)[0]) as handle:
                    handle.read()
                spec = {"x": tf.FixedLenFeature([], tf.int64)}
                return tf.parse_single_example(record, spec, "parse", ["a"]), tf.parse_example(record, spec, name="b")
        """
        after = """
            import tensorflow as tf

            def input_fn(pattern, record):
                tf.get_logger().setLevel("WARN")
                tf.random.set_seed(seed=1)
                level = tf.get_logger().getEffectiveLevel()
                tf.io.gfile.makedirs(path="/tmp/out")
                for top, dirs, names in tf.io.gfile.walk("/tmp/out", topdown=False):
                    tf.io.gfile.copy(names[0], dst="/tmp/copy", overwrite=True)
                with tf.io.gfile.GFile(tf.io.gfile.glob(pattern)[0]) as handle:
                    handle.read()
                spec = {"x": tf.FixedLenFeature([], tf.int64)}
                return tf.io.parse_single_example(record, spec, name="parse", example_names=["a"]), tf.io.parse_example(record, spec, name="b")
        """
        self.assertCodemod(before, after, level="native")

    def test_set_verbosity_by_keyword_passes_setlevel_its_own(self):
        # TF1's set_verbosity(v) calls setLevel(v): Logger.setLevel's parameter is `level` (setLevel(v=...) raised
        # TypeError); a keyword set_verbosity does not take stays at the safe level
        self.assertCodemod(
            "import tensorflow as tf\ntf.logging.set_verbosity(v=tf.logging.INFO)\n",
            'import tensorflow as tf\ntf.get_logger().setLevel(level="INFO")\n',
            level="native",
        )
        source = "import tensorflow as tf\ntf.logging.set_verbosity(verbosity=20)\n"
        self.assertCodemod(source, source, level="native")
        said = [e.message for e in self.applied(source, level="native").entries]
        assert said == ["tf.logging.set_verbosity left at the safe level: a keyword the TF1 function does not take"]

    def test_after_the_safe_pass_its_tf_compat_v1_names_and_private_modules(self):
        source = (
            "import tensorflow as tf\nfrom tensorflow.python.platform import gfile\n"
            "from tensorflow.python.platform import tf_logging as logging\n\n"
            "logging.set_verbosity(logging.INFO)\nprint(gfile.Exists('/tmp'), tf.gfile.ListDirectory('/tmp'))\n"
        )
        applied = apply(source, Tf1ApiRule, PrivateRule, NativeIoRule, level="native")
        assert applied.module.code == (
            "import tensorflow as tf\n\n"
            "tf.get_logger().setLevel(\"INFO\")\nprint(tf.io.gfile.exists('/tmp'), tf.io.gfile.listdir('/tmp'))\n"
        )
        # (the safe rules' entries for the names rewritten again are superseded)
        assert [e.rule for e in applied.entries] == ["native-io"] * 3, applied.entries

    def test_must_not_fire_on_message_functions_star_arguments_or_the_safe_level(self):
        source = """
            import tensorflow as tf

            tf.logging.info("step %d", 1)
            tf.gfile.Exists(*paths)
            tf.gfile.MakeDirs(**where)
            tf.parse_single_example(record, spec, unknown=1)
            print(tf.logging.INFO)
        """
        self.assertCodemod(source, source, level="native")
        self.assertCodemod(source, source, level="safe")
        said = [e.message for e in self.applied(source, level="native").entries]
        assert said == [
            "tf.logging.info left at the safe level: " + MESSAGES_STAY,
            "tf.gfile.Exists left at the safe level: *args or **kwargs (they may hold a renamed parameter)",
            "tf.gfile.MakeDirs left at the safe level: *args or **kwargs (they may hold a renamed parameter)",
            "tf.parse_single_example left at the safe level: a keyword the TF1 function does not take",
        ], said

    def test_the_message_functions_left_get_one_entry_per_file_saying_why(self):
        source = """
            import tensorflow as tf

            tf.logging.info("a")
            tf.compat.v1.logging.warning("b")

            def f():
                tf.logging.info("c")
        """
        said = [(e.line, e.message) for e in self.applied(source, level="native").entries]
        first = self.make_fixture_data(source).splitlines().index('tf.logging.info("a")') + 1
        assert said == [(first, "tf.logging.info and 2 other message calls left at the safe level: " + MESSAGES_STAY)]


def _tf115(way: str) -> dict:
    with open(GOLDEN, encoding="utf-8") as handle:
        printed = json.load(handle)["values"][way]
    return dict(printed, stderr=[line for line in printed["stderr"] if not _DEPRECATION_NOTICE.search(line)])


@pytest.fixture(scope="module")
def native_port(tmp_path_factory) -> str:
    out = str(tmp_path_factory.mktemp("logging") / "native")
    native.migrate([PROGRAM], out, "native", in_process=True)
    return native.ported_file(out, "logging_messages.py", "logging_messages.py")


# (the ways where the native port differs from the safe one: set_verbosity, its level set by setLevel)
@pytest.mark.parametrize("way", ["tf.app.run, INFO", "plain, INFO, a root handler printing file:line"])
def test_the_native_port_logs_what_tf115_logged(native_port, way):
    """Its messages, their levels, and the file:line absl's handler and a root handler print (each record names
    the call that made it)."""
    with open(native_port, encoding="utf-8") as handle:
        ported = handle.read()
    assert 'tf.get_logger().setLevel("INFO")' in ported and "tf.compat.v1.logging.info(" in ported, ported
    assert run(native_port, way, env=python_env()) == _tf115(way)


def test_why_the_message_functions_stay_a_direct_logger_call_names_absls_frame(native_port, tmp_path):
    """tf.get_logger().info(...) prints TF 1.15's messages, but TF's logger counts frames from tf.logging.info's to
    find a record's caller: called directly, its records name the first frame of another file (absl's app.py
    under tf.app.run), not the call. If a TensorFlow finds the caller, native-io can write the direct call."""
    direct = tmp_path / "logging_messages.py"
    with open(native_port, encoding="utf-8") as handle:
        direct.write_text(re.sub(r"tf\.compat\.v1\.logging\.(\w+)\(", r"tf.get_logger().\1(", handle.read()))
    printed, tf115 = run(str(direct), "tf.app.run, INFO", env=python_env()), _tf115("tf.app.run, INFO")
    absl = [_ABSL_RECORD.match(line) for line in printed["stderr"]]
    assert [m.group(2) for m in absl if m] == ["app.py"] * 5, printed  # (its line: absl's version's)
    assert [m.group(2) for m in map(_ABSL_RECORD.match, tf115["stderr"]) if m] == ["logging_messages.py"] * 5
    assert [_ABSL_RECORD.sub(r"\1\3", line) for line in printed["stderr"]] == [
        _ABSL_RECORD.sub(r"\1\3", line) for line in tf115["stderr"]
    ]  # (but the same messages)
