"""The TF-slim zoo by model_name: every net builds, the listed ones train (STEPS), in graph mode, in both environments.

Two subprocesses, each building half of the nets (TensorFlow imported once in each; graph building
is single-threaded Python, so the halves overlap on 2 cores). Inputs are the smallest each net
takes: resnets and inception_v3 at 75x75 (without its auxiliary head, which needs 299);
vgg, alexnet and inception_v1 at their fixed 224 (a VALID fully connected conv, a fixed 7x7 pool).
"""

import json
import sys
import textwrap

from tests.support import runs as _runs
from trainlib.models import slim_zoo

# The nets the platform's slim users train (tf-slim 1.1.0 ships no mobilenet), one of each family's layers:
# vgg_19 is vgg_16's layers with three more convs in its slim.repeat blocks, so it is built only, like the
# rest of the zoo (training it at 224 cost 10 s of CPU in each suite).
TRAINED = ("inception_v3", "resnet_v1_50", "resnet_v2_50", "vgg_16")
# Steps of each trained net: two, so a step runs on what the first left (batch norm's moving statistics and
# the updated weights); vgg_16 one, as without batch norm only its weights carry over and one step shows they
# change (a second step at 224 over its 138M weights cost 3.3-4.4 s of CPU in each suite).
STEPS = {name: 1 if name == "vgg_16" else 2 for name in TRAINED}
# One process's nets; the other builds the rest of the zoo: about 30 s of CPU each on TF 2.21 (measured per net;
# the 101-layer resnets take 9 s to build, tf_keras' legacy layers hash every graph variable per new weight).
FIRST = ("inception_v3", "resnet_v1_50", "vgg_16", "alexnet_v2", "lenet")
# Not built: the 101-layer resnets are tf-slim's 50-layer nets' code with more units in a block (resnet_v1_101 and
# resnet_v2_101 call the same resnet_v1 / resnet_v2 as the 50s with other unit counts), so building them (9 s of
# CPU each in each suite) shows nothing the 50s' do not; their rows are checked to be tf-slim's functions.
SAME_CODE = {"resnet_v1_101": "resnet_v1_50", "resnet_v2_101": "resnet_v2_50"}
PROGRAM = """
    import json, sys
    import numpy as np
    import compat
    compat.install()
    import tensorflow as tf
    from trainlib.models import slim_zoo

    v1 = tf.compat.v1
    v1.disable_eager_execution()
    STEPS = %r
    SMALL = {"resnet_v1_50": 75, "resnet_v1_101": 75, "resnet_v2_50": 75, "resnet_v2_101": 75, "inception_v3": 75}
    config = v1.ConfigProto()
    # Grappler's rewrites of these large graphs cost more than the two steps they speed up.
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    results = {}
    for name in sys.argv[1:]:
        size = SMALL.get(name, slim_zoo.default_image_size(name))
        extra = {"create_aux_logits": False} if name == "inception_v3" else {}
        with tf.Graph().as_default():
            v1.set_random_seed(0)
            images = tf.constant(np.random.RandomState(0).rand(2, size, size, 3).astype("float32"))
            logits, _ = slim_zoo.build(name, images, num_classes=5, is_training=True, weight_decay=1e-4, **extra)
            results[name] = {"logits": logits.shape.as_list()}
            if name not in STEPS:
                continue
            loss = v1.losses.sparse_softmax_cross_entropy([1, 3], logits) + v1.losses.get_regularization_loss()
            updates = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
            with tf.control_dependencies(updates):
                train = v1.train.GradientDescentOptimizer(0.01).minimize(loss)
            first = v1.trainable_variables()[0]
            with v1.Session(config=config) as session:
                session.run(v1.global_variables_initializer())
                before = session.run(first)
                losses = [float(session.run([loss, train])[0]) for _ in range(STEPS[name])]
                changed = bool(np.any(session.run(first) != before))
            results[name].update(losses=losses, changed=changed, bn_updates=len(updates))
    print("ZOO " + json.dumps(results))
"""


def test_every_slim_net_builds_and_the_listed_ones_train_in_graph_mode(tmp_path):
    import numpy as np

    script = tmp_path / "zoo.py"
    script.write_text(textwrap.dedent(PROGRAM % (STEPS,)))
    halves = (FIRST, sorted(set(slim_zoo.NETS) - set(FIRST) - set(SAME_CODE)))
    results = _runs.run_all(
        {key: [sys.executable, str(script), *half] for key, half in enumerate(halves)}, tmp_path, timeout=900
    )
    zoo = {}
    for result in results.values():
        assert result.returncode == 0, result.stderr[-4000:]
        zoo.update(json.loads(next(line for line in result.stdout.splitlines() if line.startswith("ZOO "))[4:]))
    assert sorted(zoo) == sorted(set(slim_zoo.NETS) - set(SAME_CODE))
    for deep, built in SAME_CODE.items():
        net, family = slim_zoo.NETS[deep], slim_zoo.NETS[built]
        assert net.fn.endswith(":" + deep) and net.fn.split(":")[0] == family.fn.split(":")[0], (deep, net)
        assert net.arg_scope == family.arg_scope
    assert all(net["logits"] == [2, 5] for net in zoo.values()), zoo
    for name in TRAINED:
        assert len(zoo[name]["losses"]) == STEPS[name], (name, zoo[name])
        assert np.all(np.isfinite(zoo[name]["losses"])) and zoo[name]["changed"], (name, zoo[name])
    # slim.batch_norm (the call broken on TF 2.15 and 2.21 as released) ran and registered its updates.
    assert all(zoo[name]["bn_updates"] > 0 for name in ("resnet_v1_50", "resnet_v2_50", "inception_v3")), zoo


def test_unknown_model_name_lists_the_zoo():
    import pytest

    with pytest.raises(ValueError, match="resnet_v1_50"):
        slim_zoo.default_image_size("resnet_v9")
