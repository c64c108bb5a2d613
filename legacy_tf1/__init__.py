"""The platform's TF1-era training programs, in TF1 style, importing `compat`.

    python -m legacy_tf1.imagenet_main --data_dir D --output_dir O --resnet_size 8 --image_size 32
    python -m legacy_tf1.slim_main --data_dir D --output_dir O --model_name lenet

Estimator and graph mode, `tf.compat.v1` optimizers and global step, device-setter towers,
parameter servers from TF_CONFIG (any dialect, `master` included). The same source runs on
TF 2.15's own Estimator and, through `compat`, on TF 2.21.
"""
