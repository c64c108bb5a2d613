"""graph-mode: tf.compat.v1.disable_eager_execution(), disable_resource_variables() and disable_control_flow_v2()
once, at the right place; not for TF2-style code."""

import ast
import json
import os
import subprocess
import sys

from codemods._migrate_file import Options, migrate_python
from codemods.rules.graph_mode import GraphModeRule
from tests.support.processes import REPO, result_json
from tests.support.rule_test import RuleTest, apply
from tests.support.runs import clean_env


class TestGraphModeRule(RuleTest):
    TRANSFORM = GraphModeRule

    def test_first_in_the_main_block(self):
        before = """
            import tensorflow as tf

            def main(_):
                x = tf.placeholder(tf.float32)
                with tf.Session() as sess:
                    pass

            if __name__ == "__main__":
                tf.app.run()
        """
        after = """
            import compat
            import tensorflow as tf

            def main(_):
                x = tf.placeholder(tf.float32)
                with tf.Session() as sess:
                    pass

            if __name__ == "__main__":
                tf.compat.v1.disable_eager_execution()
                tf.compat.v1.disable_resource_variables()
                tf.compat.v1.disable_control_flow_v2()
                tf.app.run()
        """
        self.assertCodemod(before, after)
        self.assertCodemod(before, after, level="native")  # no rule of the native level ports graph code

    def test_module_level_tensorflow_calls_put_it_after_the_imports_despite_a_main_block(self):
        # they run on import, before the main block: a seed set there while eager is on goes to the eager
        # context and the graph built later is unseeded; variables or ops made there would be eager ones
        seed = """
            \"\"\"A training script.\"\"\"
            import numpy as np
            import tensorflow as tf

            FLAGS = tf.app.flags.FLAGS
            tf.set_random_seed(1)

            def main(_):
                with tf.Session() as sess:
                    pass

            if __name__ == "__main__":
                tf.app.run()
        """
        seeded = """
            \"\"\"A training script.\"\"\"
            import compat
            import numpy as np
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()

            FLAGS = tf.app.flags.FLAGS
            tf.set_random_seed(1)

            def main(_):
                with tf.Session() as sess:
                    pass

            if __name__ == "__main__":
                tf.app.run()
        """
        self.assertCodemod(seed, seeded)
        op = """
            import tensorflow as tf

            bias = tf.Variable(tf.zeros([1]))

            def main(_):
                tf.Session().run(tf.global_variables_initializer())

            if __name__ == "__main__":
                tf.app.run()
        """
        op_in_graph = """
            import compat
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()

            bias = tf.Variable(tf.zeros([1]))

            def main(_):
                tf.Session().run(tf.global_variables_initializer())

            if __name__ == "__main__":
                tf.app.run()
        """
        self.assertCodemod(op, op_in_graph)
        class_body = """
            import tensorflow as tf

            class Config:
                scale = tf.constant(2.0)

            if __name__ == "__main__":
                tf.Session().run(Config.scale)
        """
        class_body_in_graph = """
            import compat
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()

            class Config:
                scale = tf.constant(2.0)

            if __name__ == "__main__":
                tf.Session().run(Config.scale)
        """
        self.assertCodemod(class_body, class_body_in_graph)
        # no main block: not a library the program switches, its import already ran TensorFlow
        library = """
            import tensorflow as tf
            tf.set_random_seed(1)

            def run(x):
                return tf.Session().run(x)
        """
        library_in_graph = """
            import compat
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()
            tf.set_random_seed(1)

            def run(x):
                return tf.Session().run(x)
        """
        self.assertCodemod(library, library_in_graph)

    def test_flags_and_logging_at_module_level_leave_it_in_the_main_block(self):
        # defining flags and setting up logging build no graph state: importing the module stays harmless
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_integer("steps", 3, "training steps")
            tf.flags.DEFINE_string("data", "", "input folder")
            FLAGS = tf.app.flags.FLAGS
            tf.logging.set_verbosity(tf.logging.INFO)
            tf.compat.v1.logging.info("loaded")
            tf.get_logger().setLevel("INFO")
            DTYPE = tf.float32
            model = lambda x: tf.layers.dense(x, 1)

            def main(_):
                x = tf.placeholder(DTYPE)

            if __name__ == "__main__":
                tf.set_random_seed(1)
                tf.app.run()
        """
        after = """
            import compat
            import tensorflow as tf

            tf.app.flags.DEFINE_integer("steps", 3, "training steps")
            tf.flags.DEFINE_string("data", "", "input folder")
            FLAGS = tf.app.flags.FLAGS
            tf.logging.set_verbosity(tf.logging.INFO)
            tf.compat.v1.logging.info("loaded")
            tf.get_logger().setLevel("INFO")
            DTYPE = tf.float32
            model = lambda x: tf.layers.dense(x, 1)

            def main(_):
                x = tf.placeholder(DTYPE)

            if __name__ == "__main__":
                tf.compat.v1.disable_eager_execution()
                tf.compat.v1.disable_resource_variables()
                tf.compat.v1.disable_control_flow_v2()
                tf.set_random_seed(1)
                tf.app.run()
        """
        self.assertCodemod(before, after)

    def test_a_control_flow_switch_already_there_is_left_as_written(self):
        # a TF 1.x script that opted into control flow v2 keeps it; it still needs graph mode
        before = """
            import tensorflow as tf
            tf.enable_control_flow_v2()
            sess = tf.Session()
        """
        after = """
            import compat
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.enable_control_flow_v2()
            sess = tf.Session()
        """
        self.assertCodemod(before, after)

    def test_module_level_script_after_the_imports(self):
        before = """
            \"\"\"A tutorial script.\"\"\"
            import tensorflow.compat.v1 as tf
            x = tf.placeholder(tf.float32)
            sess = tf.Session()
        """
        after = """
            \"\"\"A tutorial script.\"\"\"
            import compat
            import tensorflow.compat.v1 as tf
            tf.disable_eager_execution()
            tf.disable_resource_variables()
            tf.disable_control_flow_v2()
            x = tf.placeholder(tf.float32)
            sess = tf.Session()
        """
        self.assertCodemod(before, after)

    def test_a_script_calling_its_graph_function_at_module_level_without_a_main_block(self):
        # #26: a queue-based script ending in a bare `main()` was reported as a library and its port ran eagerly
        before = """
            import tensorflow as tf


            def main():
                files = tf.train.string_input_producer(["a.tfrecord"])
                with tf.Session() as sess:
                    tf.train.start_queue_runners(sess=sess)


            main()
        """
        after = """
            import compat
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()


            def main():
                files = tf.train.string_input_producer(["a.tfrecord"])
                with tf.Session() as sess:
                    tf.train.start_queue_runners(sess=sess)


            main()
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_a_library_calling_a_function_without_graph_code_on_import(self):
        source = """
            import tensorflow as tf


            def _register():
                return {"sgd": 1}


            def run(x):
                return tf.Session().run(x)


            NAMES = _register()
            _register()
        """
        self.assertCodemod(source, source)

    def test_the_call_goes_after_the_import_that_binds_the_name_it_uses(self):
        # after the leading imports would be before `tf` exists: NameError when the script starts
        before = """
            from __future__ import print_function
            import sys
            sys.path.insert(0, ".")
            import tensorflow as tf
            import numpy as np
            x = tf.placeholder(tf.float32)
        """
        after = """
            from __future__ import print_function
            import sys
            import compat

            sys.path.insert(0, ".")
            import tensorflow as tf
            import numpy as np
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()
            x = tf.placeholder(tf.float32)
        """
        self.assertCodemod(before, after)
        before = """
            \"\"\"Doc.\"\"\"
            from __future__ import division
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                import tensorflow as tf
            sess = tf.Session()
        """
        after = """
            \"\"\"Doc.\"\"\"
            from __future__ import division
            import compat

            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()
            sess = tf.Session()
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_tf2_code_switched_scripts_shadowed_names_strings(self):
        for source in (
            """
            import tensorflow as tf
            model = tf.keras.Sequential()  # tf.Session is gone
            text = "tf.placeholder"
            """,
            """
            import tensorflow as tf
            tf.compat.v1.disable_v2_behavior()
            sess = tf.compat.v1.Session()
            """,
            """
            import tensorflow as tf
            def f(tf):
                return tf.Session()
            """,
            # ported by an earlier uai-migrate, or switched by hand: left as written
            """
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            sess = tf.compat.v1.Session()
            """,
        ):
            self.assertCodemod(source, source)


def test_a_library_module_is_reported_not_changed():
    source = "import tensorflow as tf\n\ndef run(x):\n    return tf.Session().run(x)\n"
    applied = apply(source, GraphModeRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert (entry.severity, entry.line) == ("warning", 4)
    calls = ("disable_eager_execution", "disable_resource_variables", "disable_control_flow_v2")
    assert all(f"{call}()" in entry.manual for call in calls) and "`import compat`" in entry.manual


def test_the_report_names_the_calls_and_where_they_went():
    main = "\ndef main(_):\n    tf.Session()\n\nif __name__ == '__main__':\n    tf.app.run()\n"
    for module_level, where in (
        ("", "graph-mode TF1 code: "),
        ("tf.set_random_seed(1)\n", "TensorFlow called on import: "),
        ("x = tf.placeholder(tf.float32)\n", "TensorFlow called on import: "),
    ):
        entry, compat = apply("import tensorflow as tf\n" + module_level + main, GraphModeRule).entries
        assert entry.message.startswith(where), entry.message
        assert compat.message.startswith("`import compat`: TF 1.15's op seeds"), compat.message
        calls = ("disable_eager_execution", "disable_resource_variables", "disable_control_flow_v2")
        assert "tf.compat.v1.{}(), tf.compat.v1.{}() and tf.compat.v1.{}()".format(*calls) in entry.message
        assert entry.message.endswith("first in the __main__ block" if not module_level else "after the imports")
    entry, _ = apply("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n", GraphModeRule).entries
    assert entry.message.startswith("graph-mode TF1 code at module level: "), entry.message


# An Estimator deep-copies its RunConfig, strategy included; TF 2 cannot deep-copy a
# MultiWorkerMirroredStrategy made in eager mode (`... cannot be deep copied in eager mode`).
ESTIMATOR_MWMS = """\
import tensorflow as tf

def main():
    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    config = tf.estimator.RunConfig(model_dir="/tmp/m", train_distribute=strategy)
    return tf.estimator.Estimator(model_fn, config=config)

if __name__ == "__main__":
"""
GRAPH_MODE = (
    "    tf.compat.v1.disable_eager_execution()\n"
    "    tf.compat.v1.disable_resource_variables()\n"
    "    tf.compat.v1.disable_control_flow_v2()\n"
)


class TestEstimatorStrategies(RuleTest):
    TRANSFORM = GraphModeRule

    def test_an_estimator_with_multi_worker_mirrored_strategy_runs_in_graph_mode(self):
        self.assertCodemod(
            ESTIMATOR_MWMS + "    main()\n", "import compat\n" + ESTIMATOR_MWMS + GRAPH_MODE + "    main()\n"
        )

    def test_the_strategy_without_an_estimator_is_tf2_code(self):
        for source in (
            """
            import tensorflow as tf
            strategy = tf.distribute.MultiWorkerMirroredStrategy()
            with strategy.scope():
                model = tf.keras.Sequential()
            """,
            """
            import tensorflow as tf
            config = tf.estimator.RunConfig(train_distribute=tf.distribute.MirroredStrategy())
            """,
        ):
            self.assertCodemod(source, source)


def test_the_report_says_why_an_estimator_program_gets_graph_mode():
    entry, _ = apply(ESTIMATOR_MWMS + "    main()\n", GraphModeRule).entries  # (then `import compat`'s)
    assert entry.line == 4 and "MultiWorkerMirroredStrategy" in entry.message and "deep-cop" in entry.message


class TestGraphModeWithTfKeras(RuleTest):
    """tf.keras layers in a graph-mode program: Keras 3 (tf.keras on TF >= 2.16) and Keras 2 without compat
    draw unseeded initial weights from Python's `random`; compat's Keras 2 follows the graph seed as TF 1.x did."""

    TRANSFORM = GraphModeRule

    def test_a_graph_mode_file_using_tf_keras_imports_compat(self):
        before = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 4])
            y = tf.keras.layers.Dense(1)(x)
        """
        after = """
            import compat
            import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            tf.compat.v1.disable_resource_variables()
            tf.compat.v1.disable_control_flow_v2()
            x = tf.placeholder(tf.float32, [None, 4])
            y = tf.keras.layers.Dense(1)(x)
        """
        self.assertCodemod(before, after)
        entries = [entry for entry in self.applied(before).entries if "graph seed" in entry.message]
        assert [entry.severity for entry in entries] == ["info"]

    def test_eager_tf_keras_code_gets_no_compat(self):
        source = "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        assert "import compat" not in self.applied(source).module.code


class TestGraphModeImportsCompat(RuleTest):
    """Every file the rule switches to graph mode gets `import compat`: a seeded graph draws TF 1.15's numbers only
    with compat's op seeds (compat/_graph_seed.py), and a graph program's seed may be set anywhere (another module,
    a RunConfig). compat is TensorFlow-free and lazy: importing it costs about 0.1 s."""

    TRANSFORM = GraphModeRule

    def test_a_seeded_graph_program_imports_compat(self):
        before = """
            import tensorflow as tf

            def main():
                tf.set_random_seed(1)
                with tf.Session() as sess:
                    print(sess.run(tf.random_normal([3])))

            if __name__ == "__main__":
                main()
        """
        after = """
            import compat
            import tensorflow as tf

            def main():
                tf.set_random_seed(1)
                with tf.Session() as sess:
                    print(sess.run(tf.random_normal([3])))

            if __name__ == "__main__":
                tf.compat.v1.disable_eager_execution()
                tf.compat.v1.disable_resource_variables()
                tf.compat.v1.disable_control_flow_v2()
                main()
        """
        self.assertCodemod(before, after)
        entries = [entry for entry in self.applied(before).entries if "import compat" in entry.message]
        assert [entry.severity for entry in entries] == ["info"], entries

    def test_must_not_fire_on_a_file_switched_by_hand_a_library_or_eager_code(self):
        for source in (
            "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\ntf.set_random_seed(1)\nx = tf.random_normal([3])\n",
            "import tensorflow as tf\n\ndef build():\n    return tf.placeholder(tf.float32)\n",  # a library: reported
            "import tensorflow as tf\ntf.random.set_seed(1)\nprint(tf.random.normal([3]))\n",
        ):
            assert "import compat" not in self.applied(source).module.code, source


SEEDED_DRAWS = os.path.join(REPO, "tests", "common", "tf1_programs", "seeded_draws.py")
TF115_RANDOM = os.path.join(REPO, "tests", "common", "golden", "tf115_random.json")


def _functions(path: str, *names: str) -> str:
    """The source of the top-level functions `names` of the file at `path`."""
    text = open(path).read()
    defs = [node for node in ast.parse(text).body if isinstance(node, ast.FunctionDef) and node.name in names]
    return "\n\n\n".join(str(ast.get_source_segment(text, node)) for node in defs)


def test_a_migrated_seeded_graph_program_draws_tf115s_numbers(tmp_path):
    """seeded_draws.py's `random_ops` case (set_random_seed and the v1 random ops, nothing that imports compat for
    another reason), as a program of its own, migrated at the safe level: it prints what real TF 1.15 printed
    (tests/common/golden/tf115_random.json, `python3 dev.py tf115`)."""
    source = (
        "import json\n\nimport numpy as np\nimport tensorflow as tf\n\n\n"
        + _functions(SEEDED_DRAWS, "values", "random_ops")
        + '\n\n\nif __name__ == "__main__":\n    print("RESULT " + json.dumps(random_ops()))\n'
    )
    port = tmp_path / "random_ops.py"
    port.write_bytes(migrate_python(source.encode(), Options()).new)
    result = subprocess.run(
        [sys.executable, str(port)], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result_json(result.stdout) == json.load(open(TF115_RANDOM))["values"]["random_ops"]
