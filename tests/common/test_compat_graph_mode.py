"""compat.graph_mode.tf2_enabled: what `tensorflow.python.tf2.enabled()` answers a TF1-era library in the program
that runs it. False in a program running in TF 1's graph mode, at any depth (an Estimator builds its model inside
a graph of its own, where an eager program is not eager either); TensorFlow's own answer otherwise."""

import json

from tests.support.processes import run_script


def test_the_answer_follows_the_programs_mode_not_the_graph_it_is_asked_in(tmp_path):
    source = """
        import json
        import compat.graph_mode
        import tensorflow as tf
        from tensorflow.python import tf2

        answers = {"eager": compat.graph_mode.tf2_enabled(), "tensorflow's": tf2.enabled()}
        with tf.Graph().as_default():
            answers["eager, in a graph"] = compat.graph_mode.tf2_enabled()
        tf.compat.v1.disable_eager_execution()
        answers["graph mode"] = compat.graph_mode.tf2_enabled()
        with tf.Graph().as_default():
            answers["graph mode, in a graph"] = compat.graph_mode.tf2_enabled()
        print(json.dumps(answers))
    """
    result = run_script(tmp_path, source)
    assert result.returncode == 0, result.stderr[-3000:]
    answers = json.loads(result.stdout.splitlines()[-1])
    tensorflows = answers.pop("tensorflow's")
    assert answers == {
        "eager": tensorflows,
        "eager, in a graph": tensorflows,
        "graph mode": False,  # TF 1.x's answer (v2 behaviour was opt-in)
        "graph mode, in a graph": False,
    }
