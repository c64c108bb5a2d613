"""native-image: tf.image.resize_images of a decoded image to a literal size -> the ResizeBilinear op it runs, in
any file, or the safe level with an info entry saying why; and a program ported at both levels computes the same
pixels.

The rule runs alone in the before/after cases (the safe rules' rewrites are not applied); the equivalence
test migrates a whole program with uai-migrate at both levels and runs both.
"""

from codemods.rules import select
from codemods.rules.graph_mode import GraphModeRule
from codemods.rules.native_image import NativeImageRule
from codemods.rules.native_session import NativeSessionRule
from tests.support.native_ports import ports
from tests.support.rule_test import RuleTest, apply

OP = "tf.raw_ops.ResizeBilinear(images=tf.expand_dims({image}, 0), size={size})[0]"


class TestNativeImageRule(RuleTest):
    TRANSFORM = NativeImageRule

    def test_an_input_function_of_a_graph_library_the_safe_spelling_and_keywords(self):
        before = """
            import tensorflow as tf

            def parse(raw):
                features = tf.io.parse_single_example(raw, {"image": tf.io.FixedLenFeature([], tf.string)})
                image = tf.compat.v1.image.resize_images(tf.image.decode_jpeg(features["image"], 3), [32, 32])
                other = tf.image.resize_images(size=(8, 4), images=tf.io.decode_png(features["image"]))
                return image, other

            def dataset(files):
                return tf.data.TFRecordDataset(files).map(map_func=parse)
        """
        after = f"""
            import tensorflow as tf

            def parse(raw):
                features = tf.io.parse_single_example(raw, {{"image": tf.io.FixedLenFeature([], tf.string)}})
                image = {OP.format(image='tf.image.decode_jpeg(features["image"], 3)', size="[32, 32]")}
                other = {OP.format(image='tf.io.decode_png(features["image"])', size="(8, 4)")}
                return image, other

            def dataset(files):
                return tf.data.TFRecordDataset(files).map(map_func=parse)
        """
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert (
            messages
            == ["tf.image.resize_images -> tf.raw_ops.ResizeBilinear, the op it runs on the image made a batch of one"]
            * 2
        )

    def test_a_name_the_statement_just_before_binds_to_a_decoded_image(self):
        before = """
            import tensorflow as tf

            def parse(raw, size):
                image = tf.image.decode_jpeg(raw, channels=3)
                image = tf.image.resize_images(image, [size, size])
                return image

            if __name__ == "__main__":
                tf.compat.v1.disable_eager_execution()
                print(parse(raw, 4))
        """
        after = f"""
            import tensorflow as tf

            def parse(raw, size):
                image = tf.image.decode_jpeg(raw, channels=3)
                image = {OP.format(image="image", size="[size, size]")}
                return image

            if __name__ == "__main__":
                tf.compat.v1.disable_eager_execution()
                print(parse(raw, 4))
        """
        self.assertCodemod(before, after, level="native")
        for between in (
            "image = tf.image.decode_jpeg(raw)\nimage = tf.stack([image, image])\n",
            "other = tf.image.decode_jpeg(raw)\n",
        ):
            source = f"import tensorflow as tf\n\ntf.disable_v2_behavior()\nimage = raw\n{between}image = tf.image.resize_images(image, [2, 2])\n"
            (message,) = self.refused(source)
            assert "not decoded in place" in message, (between, message)

    def test_must_not_fire_where_the_rank_or_the_size_is_not_known_or_the_method_differs(self):
        for call in (
            "tf.image.resize_images(image, [32, 32])",
            "tf.image.resize_images(tf.image.decode_jpeg(raw), size)",
            "tf.image.resize_images(tf.image.decode_image(raw), [32, 32])",
            "tf.image.resize_images(tf.image.decode_jpeg(raw), [32, 32], method=1)",
            "tf.image.resize_images(tf.image.decode_jpeg(raw), [32, 32], align_corners=True)",
            "tf.image.resize_images(*args)",
        ):
            (message,) = self.refused(f"import tensorflow as tf\n\nimage = {call}\n")
            assert message.startswith("tf.compat.v1.image.resize_images"), (call, message)

    def test_a_tf1_session_script_the_safe_pass_switches_to_graph_mode(self):
        source = """
            import tensorflow as tf

            image = tf.image.resize_images(tf.image.decode_png(tf.read_file("a.png")), [2, 2])
            with tf.Session() as sess:
                print(sess.run(image))
        """
        applied = apply(self.make_fixture_data(source), GraphModeRule, NativeImageRule, level="native")
        assert "disable_eager_execution()" in applied.module.code and "ResizeBilinear" in applied.module.code
        assert [e.rule for e in applied.entries if e.rule == self.RULE.ID] == [self.RULE.ID]
        assert self.refused(source) == [  # (alone, no switch: the call may run eagerly)
            "it may run eagerly, where TF1 returned an image already of the size as it was (its dtype kept)"
        ]

    def test_must_not_fire_where_the_call_may_run_eagerly(self):
        eager = "it may run eagerly, where TF1 returned an image already of the size as it was (its dtype kept)"
        for source in (
            "import tensorflow as tf\n\nimage = tf.image.resize_images(tf.image.decode_png(raw), [2, 2])\n",
            # (a function no dataset maps, a switch inside a function: its callers decide)
            "import tensorflow as tf\n\ndef f(raw):\n    return tf.image.resize_images(tf.image.decode_png(raw), [2, 2])\n",
            "import tensorflow as tf\n\ndef main():\n    tf.disable_eager_execution()\n"
            "    return tf.image.resize_images(tf.image.decode_png(raw), [2, 2])\n",
            "import tensorflow as tf\n\ndef f(raw):\n    return tf.image.resize_images(tf.image.decode_png(raw), [2, 2])\n\n"
            "d = dataset.map(g)\nd = dataset.map(lambda x: f(x))\n",
        ):
            assert self.refused(source) == [eager], source

    def test_must_not_fire_on_a_shadowed_tf_strings_comments_tf2s_resize_or_the_safe_level(self):
        decoded = "tf.image.decode_jpeg(raw), [32, 32]"
        for source in (
            f"def f(tf):\n    return tf.image.resize_images({decoded})\n",
            f'import tensorflow as tf\n\nprint("tf.image.resize_images({decoded})")\n',
            f"import tensorflow as tf\n\n# tf.image.resize_images({decoded})\nprint(1)\n",
            f"import tensorflow as tf\n\nprint(tf.image.resize({decoded}))\n",
        ):
            assert self.refused(source) == [], source
        source = f"import tensorflow as tf\n\nprint(tf.image.resize_images({decoded}))\n"
        self.assertCodemod(source, source, level="safe")
        assert NativeImageRule not in select(level="safe") and NativeImageRule in select(level="native")

    def test_a_session_script_native_session_converts_gets_no_entry_of_this_rule(self):
        source = """
            import tensorflow as tf

            def parse(raw):
                return tf.compat.v1.image.resize_images(tf.image.decode_png(raw, 1), [2, 2])

            dataset = tf.data.Dataset.from_tensor_slices([b"x"]).map(parse).batch(1)
            x = dataset.make_one_shot_iterator().get_next()
            w = tf.Variable(tf.ones([2, 2, 1]))
            loss = tf.reduce_sum(x * w)
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(train_op)
        """
        applied = apply(self.make_fixture_data(source), NativeSessionRule, NativeImageRule, level="native")
        code = applied.module.code
        assert "train_step" in code and "ResizeBilinear" in code, code
        assert [e for e in applied.entries if e.rule == self.RULE.ID] == []


# a TF1 graph program decoding JPEG and PNG images of other sizes in a tf.data pipeline, resized up and down
PROGRAM = """
    import numpy as np
    import tensorflow as tf

    tf.disable_eager_execution()
    rng = np.random.RandomState(0)
    images = [rng.randint(0, 256, shape).astype(np.uint8) for shape in ((7, 5, 3), (40, 33, 3), (32, 32, 3))]
    encoded = [tf.image.encode_jpeg(i) for i in images] + [tf.image.encode_png(i) for i in images]


    def parse(jpeg, png):
        image = tf.image.decode_png(png, 3)
        image = tf.image.resize_images(image, (11, 17))
        return tf.image.resize_images(tf.image.decode_jpeg(jpeg, 3), [32, 32]), image


    with tf.Session() as sess:
        jpegs, pngs = sess.run([encoded[:3], encoded[3:]])
        dataset = tf.data.Dataset.from_tensor_slices((jpegs, pngs)).map(parse).batch(3)
        jpeg, png = sess.run(dataset.make_one_shot_iterator().get_next())
    print(jpeg.shape, png.shape, jpeg.dtype)
    print(" ".join("%.9g" % v for v in (jpeg.sum(), png.sum(), (jpeg * jpeg).sum(), (png[:, 3] * 7).sum())))
"""


def test_the_native_port_computes_the_same_pixels(tmp_path):
    ported = ports(tmp_path, "resize_program.py", PROGRAM)
    assert ported["native"].code.count("tf.raw_ops.ResizeBilinear") == 2
    assert "resize_images" in ported["safe"].code and "resize_images" not in ported["native"].code
    assert ported["safe"].stdout.startswith("(3, 32, 32, 3) (3, 11, 17, 3) float32\n"), ported["safe"].stdout
    assert ported["native"].stdout == ported["safe"].stdout
