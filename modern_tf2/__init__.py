"""The ResNet ImageNet and TF-slim programs on TF2 `tf.distribute` strategies chosen from TF_CONFIG.

    python -m modern_tf2.imagenet_main --data_dir D --output_dir O --resnet_size 8 --image_size 32
    python -m modern_tf2.slim_main --data_dir D --output_dir O --model_name resnet_v1_50

`run_loop` holds the training loop both programs share; the mains hold only what is theirs
(flags, model, data), as TensorFlow's official `resnet_run_loop` / `imagenet_main` did.
"""
