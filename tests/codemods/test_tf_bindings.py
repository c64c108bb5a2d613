"""codemods/rules/_tf_bindings.py: the names a module's imports bind to TensorFlow, with the full path each stands
for, read from the module's import statements in source order."""

import textwrap

import libcst as cst

from codemods.rules._tf_bindings import Binding, tf_imports


def _imports(source: str):
    return tf_imports(cst.parse_module(textwrap.dedent(source)))


def test_each_import_form_binds_its_name_to_the_full_path():
    found = _imports(
        """
        import tensorflow as tf
        import tensorflow.compat.v1 as v1
        from tensorflow.compat.v1.train import LoggingTensorHook
        from tensorflow.compat import v1 as tf1
        from tensorflow import keras, estimator as est
        import tensorflow.compat as tfc
        """
    )
    assert found.names == {
        "tf": "tensorflow",
        "v1": "tensorflow.compat.v1",
        "LoggingTensorHook": "tensorflow.compat.v1.train.LoggingTensorHook",
        "tf1": "tensorflow.compat.v1",
        "keras": "tensorflow.keras",
        "est": "tensorflow.estimator",
        "tfc": "tensorflow.compat",
    }
    assert found.star == ()


def test_an_import_of_a_submodule_without_alias_binds_the_top_package():
    # `import tensorflow.compat.v1` binds `tensorflow` (the package), as Python does
    found = _imports("import tensorflow.compat.v1\nimport tensorflow\n")
    assert found.bindings == (
        Binding("tensorflow", "tensorflow", ("tensorflow.compat.v1", None, None)),
        Binding("tensorflow", "tensorflow", ("tensorflow", None, None)),
    )


def test_each_binding_names_its_import_as_remove_imports_visitor_does():
    # (module, object, alias): how a rule schedules an import for removal, which a reader of the pass's result
    # matches to tell an import the engine drops after the pass
    found = _imports(
        """
        import tensorflow.compat.v1 as tf
        from tensorflow.compat.v1.train import Saver
        from tensorflow.compat.v1 import placeholder as ph
        """
    )
    assert [b.imported for b in found.bindings] == [
        ("tensorflow.compat.v1", None, "tf"),
        ("tensorflow.compat.v1.train", "Saver", None),
        ("tensorflow.compat.v1", "placeholder", "ph"),
    ]


def test_imports_inside_functions_count_in_source_order_and_the_later_binding_names_the_path():
    # a `try:` import and its `except ImportError:` fallback bind one name twice: both are listed, and `names`
    # gives the later, whichever statement form each is
    found = _imports(
        """
        try:
            from tensorflow.compat import v1 as tf
        except ImportError:
            import tensorflow as tf


        def build():
            from tensorflow.compat.v1 import layers
            return layers
        """
    )
    assert [(b.name, b.path) for b in found.bindings] == [
        ("tf", "tensorflow.compat.v1"),
        ("tf", "tensorflow"),
        ("layers", "tensorflow.compat.v1.layers"),
    ]
    assert found.names == {"tf": "tensorflow", "layers": "tensorflow.compat.v1.layers"}


def test_star_imports_are_noted_with_their_module():
    found = _imports("from tensorflow.compat.v1 import *\nfrom tensorflow import keras\n")
    assert found.star == ("tensorflow.compat.v1",)
    assert found.names == {"keras": "tensorflow.keras"}


def test_must_not_bind_other_packages_relative_imports_or_lookalike_names():
    found = _imports(
        """
        import numpy as np
        import tensorflow_hub as hub
        import tensorflowjs
        from tensorflow_datasets import load
        from . import tensorflow
        from .tensorflow import compat
        from os import *
        """
    )
    assert found.bindings == () and found.star == ()
