"""What `import compat` arranges on TF 2.21, whatever the order of imports in the user's script."""

import pytest


def _ok(result):
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_import_compat_is_light_and_tf_estimator_appears_with_tensorflow(run_py):
    out = _ok(
        run_py("""
        import sys
        import compat
        print("TF_LOADED", "tensorflow" in sys.modules)
        import tensorflow.compat.v1 as tf
        import tensorflow as tf2
        print("ESTIMATOR", tf.estimator.Estimator.__name__, tf2.estimator.RunConfig.__name__)
    """)
    )
    assert "TF_LOADED False" in out and "ESTIMATOR Estimator RunConfig" in out


@pytest.mark.parametrize("keras_first", [False, True])
def test_tensorflow_imported_before_compat(run_py, keras_first):
    result = run_py(f"""
        import os
        os.environ.pop("TF_USE_LEGACY_KERAS", None)  # inherited from pytest, whose process imported compat
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        try:
            tf.layers.dense(tf.placeholder(tf.float32, [None, 3]), 2)
        except AttributeError as error:
            print("BEFORE", error)
        if {keras_first}:
            import tensorflow as tf2
            tf2.keras.layers.Dense(2)
        import compat
        print("DENSE", tf.layers.dense(tf.placeholder(tf.float32, [None, 3]), 2).shape)
        print("ESTIMATOR", tf.estimator.Estimator.__name__)
        from compat.cli_errors import main_guard
        main_guard(compat.install)()
    """)
    assert "not available with Keras 3" in result.stdout  # the failure before compat
    assert "DENSE (?, 2)" in result.stdout and "ESTIMATOR Estimator" in result.stdout
    if keras_first:  # tf.keras already bound to Keras 3: one line, exit 2
        assert result.returncode == 2 and "move `import compat` above" in result.stderr
        assert "Traceback" not in result.stderr
    else:
        assert result.returncode == 0, result.stderr[-2000:]
