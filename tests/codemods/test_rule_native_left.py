"""native-left: a file keeping tf.compat.v1 names no native rule spoke of gets one info entry saying what stays and
why; a file some native rule gave an entry, or keeping no tf.compat.v1 name, gets none."""

import os
import textwrap

from bench import native
from codemods.rules.native_io import NativeIoRule
from codemods.rules.native_left import GRAPH_ONLY, LEFT, LIBRARY, OTHERS, NativeLeftRule, runs_elsewhere
from tests.support.processes import REPO
from tests.support.rule_test import RuleTest, apply

CORPUS = os.path.join(REPO, "tests", "corpus")


class TestNativeLeftRule(RuleTest):
    TRANSFORM = NativeLeftRule

    def entries(self, source: str, level: str = "native") -> list[tuple[int, str]]:
        self.assertCodemod(source, source, level=level)  # it rewrites nothing
        return [(e.line, e.message) for e in self.applied(source, level=level).entries if e.rule == self.RULE.ID]

    def test_a_graph_built_and_read_without_a_session(self):
        source = """
            import numpy as np
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()

            images = tf.compat.v1.placeholder(tf.float32, [None, 4])
            print(images.shape.as_list())
        """
        lines = self.make_fixture_data(source).splitlines()
        ((line, message),) = self.entries(source)
        assert line == lines.index("import tensorflow as tf") + 1
        assert message == f"left at the safe level, in tf.compat.v1: disable_eager_execution, placeholder: {GRAPH_ONLY}"

    def test_a_graph_run_through_a_session_native_session_does_not_port_is_not_said_to_run_none(self):
        # Keras's get_session and a Supervisor's managed_session run the graph: it is not one "read without a Session"
        graph = """
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()

            x = tf.compat.v1.placeholder(tf.float32, [None, 4])
            y = tf.reduce_sum(x * 2.0)
        """
        for runner, made in [
            ("sess = tf.compat.v1.keras.backend.get_session()", "keras.backend.get_session"),
            (
                "sess = tf.compat.v1.train.Supervisor(logdir='/tmp/sv').managed_session().__enter__()",
                "train.Supervisor",
            ),
        ]:
            ((_, message),) = self.entries(textwrap.dedent(graph) + f"{runner}\nprint(sess.run(y, {{x: [[1, 2]]}}))\n")
            assert message.endswith(runs_elsewhere([made])), message
        ((_, message),) = self.entries(textwrap.dedent(graph) + "print(y.shape)\n")
        assert message.endswith(GRAPH_ONLY), message

    def test_names_no_native_rule_takes(self):
        source = """
            from tensorflow.compat.v1.train import Saver
            import tensorflow as tf

            saver = Saver(tf.compat.v1.trainable_variables())
        """
        ((line, message),) = self.entries(source)
        assert (
            line == 1
            and message == f"left at the safe level, in tf.compat.v1: trainable_variables, train.Saver: {OTHERS}"
        )

    def test_names_imported_from_tf_compat_v1_itself_are_said(self):
        # `from tensorflow.compat.v1 import placeholder` (the module itself, not one below it) and `v1` bound by
        # `from tensorflow.compat import v1` keep tf.compat.v1 names as `tf.compat.v1.placeholder` would
        source = """
            from tensorflow.compat import v1
            from tensorflow.compat.v1 import placeholder
            import tensorflow as tf

            images = placeholder(tf.float32, [None, 4])
            print(v1.shape(images))
        """
        ((_, message),) = self.entries(source)
        assert message.startswith("left at the safe level, in tf.compat.v1: shape, placeholder: "), message

    def test_tf_compat_v1_read_through_any_import_of_it_is_said(self):
        # `import tensorflow.compat as tfc` reads tf.compat.v1 through `tfc.v1`, and `import tensorflow.compat.v1.train
        # as train_v1` binds a tf.compat.v1 module itself, as `from tensorflow.compat.v1 import train` would
        graph = (
            "tfc.v1.disable_eager_execution()\nimages = tfc.v1.placeholder('float32', [None, 4])\nprint(images.shape)\n"
        )
        ((_, message),) = self.entries(f"import tensorflow.compat as tfc\n\n{graph}")
        assert message == f"left at the safe level, in tf.compat.v1: disable_eager_execution, placeholder: {GRAPH_ONLY}"
        ((_, message),) = self.entries("import tensorflow.compat.v1.train as train_v1\n\nprint(train_v1.Saver())\n")
        assert message == f"left at the safe level, in tf.compat.v1: train: {OTHERS}", message

    def test_a_name_two_imports_bind_reads_as_the_later_whichever_their_form(self):
        # the import a `try:` makes and its `except ImportError:` fallback: the safe level reads `tf` as the later
        # (it wrote tf.compat.v1.placeholder), and so do the names said, whether the earlier is `import ... as tf`
        # or `from ... import v1 as tf`
        read = """
            tf.compat.v1.disable_eager_execution()
            images = tf.compat.v1.placeholder(tf.float32, [None, 4])
            print(images.shape.as_list())
        """
        said = f"left at the safe level, in tf.compat.v1: disable_eager_execution, placeholder: {GRAPH_ONLY}"
        for first in ("import tensorflow.compat.v1 as tf", "from tensorflow.compat import v1 as tf"):
            imports = f"try:\n    {first}\nexcept ImportError:\n    import tensorflow as tf\n"
            ((_, message),) = self.entries(imports + textwrap.dedent(read))
            assert message == said, (first, message)

    def test_a_chain_through_compat_v1_is_said_once_whichever_binding_of_its_name_is_read(self):
        # `tf` bound to tensorflow and to tensorflow.compat.v1 (a try/except fallback, or a def's own import): the
        # safe level wrote tf.compat.v1.placeholder where it read `tf` as tensorflow; read as the compat.v1 binding,
        # that is tf.compat.v1.compat.v1.placeholder, TensorFlow's tf.compat.v1.placeholder, said `placeholder`
        body = "\n\ndef build():\n    {local}return tf.compat.v1.placeholder(tf.float32, [None])\n"
        fallback = "try:\n    import tensorflow as tf\nexcept ImportError:\n    import tensorflow.compat.v1 as tf\n"
        local = "import tensorflow.compat.v1 as tf\n    "
        for source in (fallback + body.format(local=""), "import tensorflow as tf\n" + body.format(local=local)):
            ((_, message),) = self.entries(source)
            names = message.removeprefix("left at the safe level, in tf.compat.v1: ").split(":")[0].split(", ")
            assert "placeholder" in names and not any(n.startswith("compat.v1.") for n in names), (source, message)

    def test_a_star_import_of_tf_compat_v1_is_said_and_its_names_may_run_at_import(self):
        # the safe level keeps `from tensorflow import *` as `from tensorflow.compat.v1 import *` (tf1-api asks for
        # the names by hand): every name it binds is TF1's; `W = get_variable(...)` may call one of them at import,
        # while `dict(...)` (a builtin) and `namedtuple(...)` (imported from elsewhere) are not TensorFlow's
        runs = """
            import compat
            from tensorflow.compat.v1 import *

            W = get_variable("w", [3])
        """
        ((line, message),) = self.entries(runs)
        assert line == 2 and message == f"left at the safe level, in tf.compat.v1: *: {OTHERS}", message
        library = """
            from collections import namedtuple
            from tensorflow.compat.v1.train import *

            NAMES = dict(w=3)
            Point = namedtuple("Point", "x y")


            def build():
                return Saver()
        """
        ((_, message),) = self.entries(library)
        assert message == f"left at the safe level, in tf.compat.v1: train.*: {LIBRARY}", message

    def test_a_star_imports_names_do_not_include_those_a_parameter_a_loop_or_a_walrus_binds(self):
        # with `from tensorflow.compat.v1 import *`, a call of a name the module binds nowhere may be TensorFlow's; a
        # lambda's parameter, a comprehension's or loop's target, a with/except alias and a walrus target are bound
        library = textwrap.dedent(
            """
            from tensorflow.compat.v1 import *


            def build():
                return placeholder(float32)
            """
        )
        ((_, message),) = self.entries(library)
        assert message.endswith(LIBRARY), message
        for line in (
            "APPLY = lambda fn: fn(1)",
            "SQUARES = [g(1) for g in (abs,)]",
            "FIRST = {k: v() for k, v in {}.items()}",
            "PAIR = ((h := abs), h(-1))",
            "ITEMS = list(map(lambda *args, **kw: kw.get(args), ()))",
        ):
            ((_, message),) = self.entries(library + line + "\n")
            assert message.endswith(LIBRARY), (line, message)
        for defined in (
            "    for step in (abs,):\n        step(1)",
            "    with open(__file__) as handle:\n        handle.close()",
            "    try:\n        pass\n    except ValueError as failed:\n        failed.with_traceback(None)",
        ):
            # (a name bound in a def counts as bound, as an assignment's there does: APPLY's never-run call reads it)
            name = defined.split(" as ")[1].split(":")[0] if " as " in defined else "step"
            source = library + f"\n\ndef more():\n{defined}\n\n\nAPPLY = [{name}(1) for _ in ()]\n"
            ((_, message),) = self.entries(source)
            assert message.endswith(LIBRARY), (defined, message)
        # must not: a name bound nowhere may come from the star import (`Saver()` at the top level runs TF1's)
        ((_, message),) = self.entries(library + "APPLY = lambda fn: Saver()\nS = Saver()\n")
        assert message.endswith(OTHERS), message

    def test_a_module_calling_its_own_functions_at_import_runs_something(self):
        # MODEL = build() runs build's TensorFlow code when the module is imported: not a module that runs nothing
        source = """
            import tensorflow as tf


            def build():
                return tf.compat.v1.get_variable("w", [3])


            MODEL = build()
        """
        ((_, message),) = self.entries(source)
        assert message == f"left at the safe level, in tf.compat.v1: get_variable: {OTHERS}", message
        library = source.replace("MODEL = build()", "NAMES = dict(w=3)")
        assert self.entries(library)[0][1].endswith(LIBRARY)

    def test_a_file_whose_native_entries_only_convert_still_says_what_stays(self):
        # native-io converts the gfile calls (entries "tf.gfile.Exists -> tf.io.gfile.exists"), which say nothing of
        # the placeholder left in tf.compat.v1
        source = """
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()

            if not tf.compat.v1.gfile.Exists("/tmp/data"):
                tf.compat.v1.gfile.MakeDirs("/tmp/data")
            images = tf.compat.v1.placeholder(tf.float32, [None, 4])
            print(images.shape.as_list())
        """
        applied = apply(textwrap.dedent(source), NativeIoRule, NativeLeftRule, level="native")
        said = [(e.rule, e.message) for e in applied.entries if e.level == "native"]
        assert sorted(rule for rule, _ in said) == ["native-io", "native-io", "native-left"], said
        (message,) = [message for rule, message in said if rule == "native-left"]
        assert message == f"left at the safe level, in tf.compat.v1: disable_eager_execution, placeholder: {GRAPH_ONLY}"

    def test_must_not_fire_where_a_native_rule_spoke_without_tf_compat_v1_or_at_the_safe_level(self):
        logging = "import tensorflow as tf\ntf.compat.v1.logging.info('step')\n"
        said = [(e.rule, e.level) for e in apply(logging, NativeIoRule, NativeLeftRule, level="native").entries]
        assert said == [("native-io", "native")], said
        assert self.entries("import tensorflow as tf\nprint(tf.constant(1))\n") == []
        assert self.entries("import tensorflow as tf\ntf.compat.v1.placeholder(tf.float32)\n", level="safe") == []
        assert self.entries("import numpy as np\nnp.zeros(1)\n") == []


def test_the_corpus_at_native_level_says_why_of_every_file_keeping_tf_compat_v1(tmp_path):
    # the issue: code left at the safe level has an info entry saying why; model_deploy.py is a module of functions
    # and classes, slim_nets_graph.py a graph read without a Session
    report = native.migrate([CORPUS], str(tmp_path / "native"), "native", in_process=True)
    for name, said in [
        ("deployment/model_deploy.py", LIBRARY),
        ("slim_nets_graph.py", GRAPH_ONLY),
    ]:
        (entry,) = [
            e for f in report["files"] if f["path"].endswith(name) for e in f["entries"] if e["rule"] == "native-left"
        ]
        assert entry["message"].endswith(said), entry
    for root, _, names in os.walk(tmp_path / "native"):
        for name in names:
            if name.endswith(".py"):
                with open(os.path.join(root, name), encoding="utf-8") as handle:
                    code = handle.read()
                kept = native.references(code)[1]
                path = os.path.relpath(os.path.join(root, name), tmp_path / "native")
                entries = [
                    e for f in report["files"] if f["path"].endswith(path.split(os.sep, 1)[-1]) for e in f["entries"]
                ]
                # (an entry leaving code at the safe level: a conversion's says nothing of what stays)
                assert not kept or any(e["level"] == "native" and LEFT in e["message"] for e in entries), path
                # and it names only what the file keeps: not an import the engine drops after the pass (the `app` of
                # flags_from_import, rnn_text_classifier's table classes, now spelled tf.lookup's)
                said = [e["message"] for e in entries if e["rule"] == "native-left"]
                assert not said or "compat.v1" in code, (path, said)
