"""The TF 2.0 ResNet example's TF_CONFIG rewrite, so MultiWorkerMirroredStrategy accepts the platform's cluster."""
import json
import os

import tensorflow as tf


def convert_tf_config():
    """master -> chief (strategies reject a master job)."""
    tf_config = json.loads(os.environ["TF_CONFIG"])
    tf_config["cluster"]["chief"] = tf_config["cluster"].pop("master")
    if tf_config["task"]["type"] == "master":
        tf_config["task"]["type"] = "chief"
    os.environ["TF_CONFIG"] = json.dumps(tf_config)


if __name__ == "__main__":
    convert_tf_config()
    config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    print("jobs", sorted(config.get("cluster", {})), "task", config.get("task", {}).get("type"))
    print(tf.distribute.cluster_resolver.TFConfigClusterResolver().cluster_spec().jobs)
