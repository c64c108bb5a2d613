"""tf-slim's data path end to end: TFRecords -> DatasetDataProvider -> tfexample_decoder -> queue runners.

This is how research/slim's `train_image_classifier` (and its `dataset_factory`) feeds images.
The path reads TensorFlow internals the slim layers never touch: `Image` decodes through
`control_flow_ops.case`, and `Tensor` with `shape_keys` reshapes through `array_ops.stack`
(both moved out of those modules before TF 2.15; tests/common/test_private_internals.py lists them all).
"""

from tests.support.processes import result_json, run_script

PIPELINE = """
    import json, sys
    import numpy as np
    import compat
    import tensorflow.compat.v1 as tf
    import tf_slim as slim

    tf.disable_v2_behavior()
    out_dir = sys.argv[1]
    H, W, C, SHARDS, PER_SHARD = 4, 5, 3, 2, 3
    images = {
        label: ((np.arange(H * W * C).reshape(H, W, C) * (label + 3) + label) % 256).astype(np.uint8)
        for label in range(SHARDS * PER_SHARD)
    }

    def int64s(values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))

    def raw_bytes(value):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))

    files = []
    with tf.Graph().as_default(), tf.Session() as session:
        pixels = tf.placeholder(tf.uint8, [H, W, C])
        png = tf.image.encode_png(pixels)
        for shard in range(SHARDS):
            path = f"{out_dir}/train-{shard:05d}-of-{SHARDS:05d}.tfrecord"
            with tf.python_io.TFRecordWriter(path) as writer:
                for label in range(shard * PER_SHARD, (shard + 1) * PER_SHARD):
                    feature = {
                        "image/encoded": raw_bytes(session.run(png, {pixels: images[label]})),
                        "image/format": raw_bytes(b"png"),
                        "image/pixels": int64s(images[label].ravel()),
                        "image/height": int64s([H]),
                        "image/width": int64s([W]),
                        "image/channels": int64s([C]),
                        "image/class/label": int64s([label]),
                    }
                    writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
            files.append(path)

    # As research/slim's dataset modules declare a data set.
    keys_to_features = {
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="jpeg"),
        "image/pixels": tf.VarLenFeature(tf.int64),
        "image/height": tf.FixedLenFeature([1], tf.int64),
        "image/width": tf.FixedLenFeature([1], tf.int64),
        "image/channels": tf.FixedLenFeature([1], tf.int64),
        "image/class/label": tf.FixedLenFeature([], tf.int64, default_value=-1),
    }
    decoder = slim.tfexample_decoder
    items_to_handlers = {
        "image": decoder.Image("image/encoded", "image/format", shape=[H, W, C]),
        "pixels": decoder.Tensor("image/pixels", shape_keys=["image/height", "image/width", "image/channels"]),
        "label": decoder.Tensor("image/class/label"),
    }
    dataset = slim.dataset.Dataset(
        data_sources=f"{out_dir}/train-*.tfrecord",
        reader=tf.TFRecordReader,
        decoder=decoder.TFExampleDecoder(keys_to_features, items_to_handlers),
        num_samples=SHARDS * PER_SHARD,
        items_to_descriptions={"image": "a colour image", "pixels": "the same, raw", "label": "its index"},
    )
    with tf.Graph().as_default():
        provider = slim.dataset_data_provider.DatasetDataProvider(
            dataset, num_readers=2, num_epochs=1, shuffle=False, common_queue_capacity=8, common_queue_min=2
        )
        image, raw, label, key = provider.get(["image", "pixels", "label", "record_key"])
        # tf.train.batch needs static shapes: the shape read from the record and the reader's
        # queue (which declares none, in TF 1 too) leave them to the program, as slim's users did
        raw.set_shape([H, W, C])
        key.set_shape([])
        batch = tf.train.batch([image, raw, label, key], batch_size=2, num_threads=1, allow_smaller_final_batch=True)
        seen = []
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coordinator = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(session, coordinator)
            try:
                while True:
                    for decoded, reshaped, number, record in zip(*session.run(batch)):
                        seen.append({
                            "label": int(number),
                            "image_exact": decoded.dtype == np.uint8 and np.array_equal(decoded, images[int(number)]),
                            "pixels_exact": np.array_equal(reshaped, images[int(number)]),
                            "file": record.decode().split(":")[0],
                        })
            except tf.errors.OutOfRangeError:
                pass
            finally:
                coordinator.request_stop()
                coordinator.join(threads)
    print("RESULT " + json.dumps({"seen": seen, "files": files, "runners": len(threads)}))
"""


def test_dataset_data_provider_decodes_images_through_queue_runners(tmp_path):
    result = run_script(tmp_path, PIPELINE, [str(tmp_path)], timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result_json(result.stdout)
    seen = out["seen"]
    # one epoch of both shards: each of the six records exactly once, decoded to the pixels written
    assert sorted(s["label"] for s in seen) == list(range(6)), seen
    assert all(s["image_exact"] and s["pixels_exact"] for s in seen), seen
    assert {s["file"] for s in seen} == set(out["files"])
    assert out["runners"] >= 3  # the filename queue, the two parallel readers' queue, the batch queue
