"""The `estimator` API name in TensorFlow's export decorator, dropped after TF 2.15.

tensorflow-estimator decorates its classes with `tf_export.api_export(api_name=
ESTIMATOR_API_NAME)`, which looks the name up in `API_ATTRS` / `API_ATTRS_V1` to know which
attributes to stamp on the class. Attribute names must differ per API, so ours are the
`_estimator_*` ones the decorator used when it knew this API.
"""

ESTIMATOR = "estimator"


def install() -> None:
    from tensorflow.python.util import tf_export

    if not hasattr(tf_export, "ESTIMATOR_API_NAME"):
        tf_export.ESTIMATOR_API_NAME = ESTIMATOR
    attributes = tf_export._Attributes  # the (names, constants) tuple type of this TF's tables
    tf_export.API_ATTRS.setdefault(ESTIMATOR, attributes("_estimator_api_names", "_estimator_api_constants"))
    tf_export.API_ATTRS_V1.setdefault(ESTIMATOR, attributes("_estimator_api_names_v1", "_estimator_api_constants_v1"))
