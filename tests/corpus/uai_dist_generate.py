"""The platform launcher side: UAITensorFlowDistRunConfig writes TF_CONFIG, the parser reads it back."""
import os

from uaitrain.arch.tensorflow import uai_dist

config = uai_dist.UAITensorFlowDistRunConfig("m:2222", "p:2222", "w1:2222,w2:2222", "worker", 1)
config.generate_cluster()
parser = uai_dist.UAITensorFlowDistRunConfigParser()
parser.load_cluster_config()
print("task id", parser.get_task_id(), "workers", parser.get_worker_list(), "ps", parser.get_ps_list())
del os.environ["TF_CONFIG"]
