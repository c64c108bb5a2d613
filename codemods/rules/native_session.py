"""native-session: a TF1 Session script of the tutorial shape -> eager TF 2 (--level native).

The shape, in one function body or at module level (or the body of a `with tf.Graph().as_default():` there,
which the converted code no longer needs: nothing after it may read the graph's names): a graph built once
(placeholders, with a literal default or not; tf.Variable; tf.layers dense/conv2d/pooling/flatten/dropout/
batch_normalization; the v1 losses of _native_tables.LOSSES; tensor expressions), at most one
`train_op = tf.train.<GradientDescent|Momentum|Adam|Adagrad>Optimizer(...).minimize(loss)` (or the optimizer bound
to a name its minimize alone reads; its arguments host values, not a placeholder, tensor or variable of the graph;
also under `tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS))`, the collection read there or bound
on a line of its own, which a batch normalization in training mode needs), then a `with tf.Session() as
sess:` block (or `sess = tf.Session()` / `tf.InteractiveSession()`) whose `sess.run` calls run the
initializer, the train op, or tensors for evaluation, each feeding every placeholder without a default
(a dict literal, or a name bound only to such dicts). The native version:

- creates the Keras layer objects once, named as TF1 named them (`dense`, `dense_1` ...), so their
  variables keep the TF1 checkpoint names (`dense/kernel`) and a TF1 checkpoint's values load into
  them by name (a v1 initializer given to a layer is the TF 2 one of _native_tables.INITIALIZERS, TF1's defaults
  written out, as for get_variable); tf.Variable gets its TF1 name (`Variable`, `Variable_1` ...) written out;
- moves the graph's expressions into `model(<placeholders>)`, which returns the fetched tensors;
- turns the placeholders into the arguments of a `tf.function` train step (input_signature from
  their dtype and shape), which runs `model` under a GradientTape and applies the matching Keras
  optimizer to the trainable variables the tape saw (what `minimize` trains: the variables the loss
  depends on); batch normalization updates its moving statistics in its call, as UPDATE_OPS did;
- turns each training `sess.run` into a `train_step(...)` call, an evaluation `sess.run` into an
  `evaluate(...)` call (`tf.function(model)`), with `.numpy()` values as sess.run returned them (a list
  for a list of fetches); deletes the initializer runs and the session;
- makes `tf.get_variable("v", initializer=<value>)` and the global step (`get_or_create_global_step`) variables
  under their TF1 names (`minimize(loss, global_step)` in a tf.Session, of the global step or of a
  `tf.Variable(..., trainable=False)`: the train step increments it after the update); an assign op (`tf.assign_add(v, 1)`, `v.assign(...)`) runs as the eager call where
  a sess.run fetched it (its new value, as TF1 fetched it), a fetched variable gives its value;
- turns v1 summaries (`tf.summary.scalar` / `histogram` with a literal tag) collected by `merge_all` into
  the tensors model() returns, `tf.summary.FileWriter(logdir)` into `tf.summary.create_file_writer(logdir)`,
  and `writer.add_summary(summary, step)` into the tf.summary v2 calls under `writer.as_default(step=step)`;
- keeps `with tf.device(d):` around graph statements (variables and tensors only) as eager `tf.device(d)`
  around the variables made and around model()'s expressions; a device function (eager tf.device takes
  none) only where it calls nothing and every path returns one string literal, which becomes `d`; a read of
  such a variable's `.device` becomes the string TF1 recorded for it (_native_devices.recorded_device).
- keeps a function of the module the graph calls that makes its variables with `tf.variable_scope(name,
  reuse=...)` and `tf.get_variable` (codemods/rules/_native_scopes.py), each get_variable call becoming a call of a
  `get_variable` written once for the module, which makes the variable at the first call asking for its TF1 name
  (`scope/name`) and returns it after (the variables kept in a dict by name, which `tf.trainable_variables()`
  becomes), where every call's scope name and reuse flag are literals proving TF1 made and reused them so;
  likewise a function the graph calls once making its variables with `tf.Variable(<value>, name="literal")`, under
  `with tf.name_scope("literal"):` blocks of its own or none (TensorFlow's MNIST tutorial's `inference`): each
  becomes a call of that `get_variable` under TF1's name (`hidden1/weights`), the name_scope blocks flattened;
- reads `train_op = training(loss, rate)`, a function of the module called once that holds only a tf.train optimizer,
  a global step and the return of its minimize of a parameter (the tutorial's `training`), as the graph's minimize
  (codemods/rules/_native_train_helper.py): the function is deleted, the global step made where the call was;
- writes `tf.compat.v1.nn.in_top_k(predictions, targets, k)` in model() and in the functions it calls as TF 2's
  `tf.math.in_top_k(targets=..., predictions=..., k=...)`, the same op (codemods/rules/_native_in_top_k.py);
- makes tf-slim's `fully_connected` and `conv2d` (tf.contrib.layers', tf-slim's; also under `arg_scope([...], ...)`,
  whose arguments go to each call of those functions in its block) a Keras Dense / Conv2D made once under TF1's scope
  name, of a subclass written once that names its variables `weights` and `biases` as TF1 did
  (codemods/rules/_native_slim.py), with `xavier_initializer()` as GlorotUniform and `l2_regularizer(s)` as
  `tf.keras.regularizers.l2(0.5 * s)`; tf-slim's `flatten` a Keras Flatten;
- makes a tf-slim zoo net called alone under its arg_scope (`with slim.arg_scope(resnet_v1.resnet_arg_scope()):` around
  `logits, end_points = resnet_v1.resnet_v1_50(images, num_classes=10, is_training=True)`, any function of tf-slim's
  nets, tf.contrib.slim.nets' in TF1) a `compat.slim_nets.SlimNet` made once of the function, its arg_scope and its
  keyword arguments where the `with` stood, called in model() with the inputs (codemods/rules/_native_slim_nets.py);
- computes a `tf.losses` loss of its own statement under a name, and `tf.losses.get_total_loss()` as the sum of the
  tf.losses losses and the Keras layers' regularization losses made before it (TF1's collections then);
- makes `train_op = slim.learning.create_train_op(total, tf.train.<Name>Optimizer(...))` the train step and
  `slim.learning.train(train_op, logdir, number_of_steps=N)` (no session) an eager loop restoring and saving logdir's
  checkpoints as TF1 did (codemods/rules/_native_slim_loops.py);
- makes an input function the graph calls once (`images, labels = input_fn(mode)`, whose pipeline it builds and
  whose last line returns `dataset.make_one_shot_iterator().get_next()`) return its dataset, iterated by the train
  step as each sess.run drew an element, and keeps the functions the pipeline maps, both in TF 2's names
  (codemods/rules/_native_pipeline.py: tf.compat.v1's names that are the same in TF 2, resize_images as its op);
- makes a queue-runner input (`tf.train.string_input_producer(files)`, a TFRecordReader's read of it, the statements
  computing from the record, `tf.train.shuffle_batch` / `batch` of them) the tf.data pipeline of TF1's deprecation
  notes, iterated by the train step or evaluation as each sess.run took a batch; the Coordinator and
  start_queue_runners lines go (codemods/rules/_native_queues.py);
- makes a v1 streaming metric (`acc, update = tf.metrics.accuracy(labels, predictions)`, tf.metrics.mean,
  tf-slim's streaming_accuracy / streaming_mean) a Keras metric object made once: a sess.run of its update op
  (a statement of its own) becomes `update_state` on the tensors an evaluate() call computes from the same
  feed, a sess.run of its value `result()`; a local_variables_initializer run before any update is deleted.

A `tf.train.MonitoredSession()` without arguments is a Session, a local `tf.train.replica_device_setter` its one
device, and a MonitoredTrainingSession of a checkpoint_dir and a StopAtStepHook around `while not sess.should_stop():`
an eager loop to the hook's step writing its checkpoints there (codemods/rules/_native_monitored.py); a cluster's, in
the platform's uai_dist shape, ParameterServerStrategy training (codemods/rules/_native_cluster.py); one training
tf-slim's `model_deploy.create_clones(config, clone_fn)` by create_train_op of get_total_loss(), clone_fn a function of
the input element called on each of the config's clones over Keras layers made once (codemods/rules/_native_model_deploy.py).
- makes a lookup table (`HashTable` / v1 `StaticHashTable` of a `KeyValueTensorInitializer` of host values, read only
  by its `lookup` calls) TF 2's `tf.lookup.StaticHashTable`, made once and filled when made (tables_initializer runs
  go with the other initializers: codemods/rules/_native_lookup.py);
- makes `tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)` over TF1's BasicLSTMCell (alone, in a DropoutWrapper
  keeping everything; a MultiRNNCell of such cells), whose final state nothing reads, a Keras RNN made once of a cell
  written once that keeps TF1's variables (`rnn/.../basic_lstm_cell/kernel`, `bias`) and gates, a MultiRNNCell's
  cells in a StackedRNNCells named as TF1 scoped them (codemods/rules/_native_rnn.py);
- writes a static shape the graph read into a Python value (`steps = x.get_shape()[1].value`) as its value, proven
  from placeholders' literal shapes through table lookups and embedding_lookup (codemods/rules/_native_shapes.py).

In a file written against `tensorflow.compat.v1` (`import tensorflow.compat.v1 as tf`, `tf.disable_v2_behavior()`
as a statement at the top: codemods/rules/_native_v1_module.py) the switches go and the import becomes
`import tensorflow as tf` where every name the converted file reads is the same in TF 2.

It fires only when the whole block is proven to be that shape and the file has no other graph-mode
code (the converted code runs eagerly); an op built in the run region outside a sess.run is not proven (TF1
added it to the graph). A graph statement calling a library whose calls may make variables
(tf.contrib, tf-slim, Keras, TF1 libraries such as tensorlayer: _native_names.VARIABLE_LIBRARIES) is not proven: model() would make them on every call. Otherwise the code stays at the safe level, with an info
entry saying why; a script driven by tf-slim's evaluation loop (a Supervisor's) gets one too
(codemods/rules/_native_slim_loops.py). What may change is said in EXAMPLE (`--explain`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import cast

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _native_cluster as cluster
from codemods.rules import _native_model_deploy as model_deploy
from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_slim_loops as slim_loops
from codemods.rules import _native_slim_nets as slim_nets
from codemods.rules import _tf
from codemods.rules._native_graph import Converter
from codemods.rules._native_lookup import drop_v1_imports
from codemods.rules._native_names import GRAPH, MONITORED, SESSIONS, SLIM_FUNCTIONS, VARIABLE_LIBRARIES
from codemods.rules._native_slim import drop_slim_imports
from codemods.rules._native_syntax import (
    Block,
    Refused,
    all_names,
    assigned,
    descendants,
    leading,
    names_in,
    single,
    source_of,
)
from codemods.rules._native_v1_module import V1, V1Module, tf2_import, v1_module
from codemods.rules._shared import NO_GRAPH_STATE, SWITCH_NAMES, graph_names

# graph-mode's switches (eager execution, control flow v2, resource variables ...): removed where this pass
# wrote them, since the converted code runs eagerly
# the modules a tf-slim layer conversion reads its functions from
_SWITCH = re.compile(r"^\w+(\.\w+)*\.compat\.v1\.disable_\w+\(\)\s*$")


class NativeSessionRule(Rule):
    ID = "native-session"
    DESCRIPTION = (
        "Session scripts of the tutorial shape (placeholders, sess.run, an optimizer's minimize; tf-slim's "
        "learning.train) -> eager TF 2: "
        "Keras layers under their TF1 names, a tf.function train step (GradientTape, Keras optimizer); "
        "lookup tables, BasicLSTMCell RNNs (TF1's variable layout) and static shape reads included."
    )
    LEVEL = "native"
    ORDER = 190  # after every safe rule: it reads their result (tf1-api's TF 2 names in the expressions)
    EXAMPLE = Example(
        "A TF1 tutorial-shape Session script runs in TF 2 only in graph mode through tf.compat.v1; native TF 2 is "
        "eager with a tf.function train step. What may change: random ops (dropout, initializers) draw other "
        "numbers (eager op seeds differ from graph op seeds); tf.set_random_seed(s) -> tf.keras.utils.set_random_seed(s), "
        "as Keras draws its initializers' seeds from Python's random module (it seeds Python's and NumPy's generators "
        "too; a module seeding one itself keeps tf.random.set_seed, and its port starts elsewhere at each run); tf.keras optimizers replace tf.train ones (Adam's "
        "epsilon pinned to TF1's 1e-08; Momentum's update is rearranged, equal up to float rounding); values "
        "computed in the same sess.run as the train op are computed before the update, as in TF1; the tensors "
        "read from host Python values capture them when the step is first traced, not when the graph was built; "
        "batch normalization updates its moving statistics in its call, where UPDATE_OPS ran them with the step; "
        "an assign op fetched with other tensors runs after they are computed (TF1: in no set order; the rule "
        "refuses a run whose fetches read the variable it assigns); v1 summaries are written as tf.summary v2 "
        "events (the same steps; the tag as written, where TF1 made it unique among the graph's op names "
        "case-insensitively, `mean` next to a reduce_mean op becoming `mean_1`; a histogram has v2's equal-width "
        "buckets, not TF1's exponential ones; TensorBoard reads both), and the global step is a plain variable named global_step (not in the "
        "GLOBAL_STEP collection); a tf.Session's minimize(loss, global_step) of the global step or of a "
        "tf.Variable(..., trainable=False) (the tutorials' global_step) increments it in the train step after the "
        "update, as TF1's apply_gradients did; a device function proven to name one device is replaced by that device's name (it is no longer "
        "called for each op), and a variable's .device read where TF1 recorded a device for it is that string as a literal (a "
        "device function's as it returned it, a device name in TF1's canonical form `/device:CPU:0`; eager TF 2's .device "
        "names the device the variable is on in full), the rule refusing any other .device read; "
        "a v1 metric is a Keras metric (the same total / count; its variables are the metric's, not local variables "
        "named accuracy/total and accuracy/count, and an update evaluates the model's tensors in a call of its own); "
        "a helper's tf.variable_scope/tf.get_variable variables are made at the first step (a dict by TF1 name, "
        "`scope/name`; tf.trainable_variables() reads it), from TF 2's initializers with TF1's defaults written out "
        "(their seeded draws differ), and a reuse is not checked against the variable's shape (TF1 raised on another); "
        "a helper's tf.Variable variables (a function of the module the graph calls once, not in a loop nor a "
        "comprehension: TF1 made new ones at each call; each of a literal name, under at most one literal "
        "tf.name_scope of the helper's own) are made likewise at the first step, under TF1's `name_scope/name` "
        "(hidden1/weights), their initial values computed then (a random one draws other numbers), the helper "
        "called by model() on every step; "
        "a function the graph calls once as `train_op = training(loss, learning_rate)` holding only a tf.train "
        "optimizer, a global step (tf.Variable(..., trainable=False) or get_or_create_global_step()) and the return "
        "of its minimize of a parameter (the tutorial's training()) is deleted, read as the graph's minimize: the "
        "Keras optimizer made of the call's arguments where the parameters stood, the global step made where the "
        "call was; tf.compat.v1.nn.in_top_k(predictions, targets, k) (the safe pass's tf.nn.in_top_k) in model() "
        "and in the functions it calls is tf.math.in_top_k(targets=..., predictions=..., k=...), the same op; "
        "tf-slim's fully_connected is a Keras Dense (its variables named weights and biases as TF1's), its xavier_initializer "
        "Keras's GlorotUniform (seeded draws differ) and its l2 regularizer's loss kept in the layer's .losses, not in "
        "TF1's REGULARIZATION_LOSSES collection (the rule refuses a script reading a graph collection); "
        "an input function returns its dataset where its element was returned (the rule proves it called once), and "
        "tf.compat.v1.image.resize_images on a decoded image is the raw ResizeBilinear op it ran (TF 2's tf.image.resize "
        "samples at half-pixel centres: other pixels); "
        "queue-runner input (string_input_producer of file names, a TFRecordReader, shuffle_batch or batch of the record) "
        "is the tf.data pipeline TF1's deprecation notes give (TFRecordDataset over the file names, shuffled each epoch "
        "and repeated; the record's statements a function it maps; .shuffle(min_after_dequeue).batch(batch_size)), a "
        "batch per sess.run that fetched one: the batches come in another order (tf.data's shuffle buffer draws them, "
        "where TF1's threads filled a RandomShuffleQueue; unshuffled, with one thread, the order is the records' in both), "
        "the Coordinator and queue runners are deleted, and the reader's key is not given (the rule refuses a read of it); "
        "a tf.train.MonitoredSession (SingularMonitoredSession, MonitoredTrainingSession) without arguments is read as "
        "a tf.Session whose variables its scaffold initialised (no hooks, checkpoints nor master: one with any argument is "
        "left, with an entry naming them; where the graph reads a tf.data input, the converted block is in a try ending "
        "it quietly at the input's end, StopIteration or OutOfRangeError, as the session's exit did, then running the "
        "end of its hooks; without an input, a StopIteration of the block's own code propagates, which TF1's session "
        "swallowed), and a tf.train.replica_device_setter whose ps_device and "
        "worker_device are one local device (no cluster) is that device's name, or None where ps_tasks is 0 (TF1 "
        "returned None), kept around the variables and model()'s tensors as for a device name; "
        "a tf.train.MonitoredTrainingSession(checkpoint_dir=D, hooks=[tf.train.StopAtStepHook(last_step=N)]) (or "
        "num_steps; no master, is_chief True) around `while not "
        "sess.should_stop():` whose body runs the train op in "
        "one sess.run, minimize(loss, global_step) incrementing the global step, is an eager loop: the train step "
        "increments it after the update, and the body runs once at least, then until the global step reaches N (TF "
        "1.15's hook checked after each run: a restart at step N runs one more step, as it did); a "
        "compat.tf1_saver.CheckpointManager in D restores its latest checkpoint (a TF1 one by its variables' names, TF1's "
        "optimizer slots, which do not load by name, mapped into the Keras optimizer's by compat.tf1_slots: Adam's m, v "
        "and step count, Momentum's accumulator as -learning_rate * accum, Adagrad's accumulator) and writes model.ckpt-<global step> at the start (not "
        "again where it restored one), every 600 seconds and at the end, keeping 5 as TF1's scaffold Saver did (D's "
        "listed checkpoints taken over, TF1's too, the oldest deleted one per save, .meta included; the state file "
        "listing their paths, absolute where D is), as TF 2 object-based checkpoints; TF1's chief also wrote graph.pbtxt, each checkpoint's .meta, "
        "and events (the graph, global_step/sec every 100 steps), which the loop does not; "
        "a cluster's tf.train.MonitoredTrainingSession(master=..., is_chief=..., hooks=[tf.train.StopAtStepHook(last_step=N)]) "
        "(and at most checkpoint_dir=D and save_summaries_steps=None) in the platform's uai_dist shape (a cluster setup "
        "of the uai_dist parser, ClusterSpec, tf.train.Server and replica_device_setter, read only as the session's "
        "master and is_chief and the graph's device, in the function holding the session or in the one function "
        "calling it, main, whose ps task joins its server and whose other calls give the master, is_chief and device; "
        "then `train_op, t = build()` of a function of the module returning an optimizer's minimize(loss, global step) "
        "and tensors, its input, where it has one, a function returning an unshuffled tf.data pipeline's, repeated "
        "without end (TF's advice under ParameterServerStrategy), "
        "make_one_shot_iterator().get_next(); the loop fetching sess.run([train_op, t]) once; nothing after it) is "
        "ParameterServerStrategy "
        "training, and the roles change: the setup is compat.strategy() (main calls the trainer with it), whose chief "
        "(the platform's master) coordinates and computes no step, whose ps and worker tasks only serve (a ps task that "
        "ran the script's loop too, racing the master, as tests/corpus/uai_dist_local.py's did, included), a cluster "
        "of a master and ps tasks alone stopping with one line (TF 2 runs the steps on workers only), no cluster one "
        "device; the builder makes the variables (TF1's names), the global step and the Keras optimizer, called under "
        "strategy.scope(), and returns a tf.function train step; compat.train_steps.steps schedules it on the workers "
        "(a ClusterCoordinator; last_step minus the global step of them, once at least; two per worker in flight; the "
        "input function returning its dataset, whose elements the step takes, each worker reading its own copy as "
        "each TF1 task read its own pipeline) and "
        "yields their values in order where sess.run's were read: with one worker the steps run in turn as TF1's one "
        "trainer ran them, with more they race as TF1's tasks did; D's latest checkpoint is restored (a TF1 one by its "
        "names, its slots by compat.tf1_slots) and the chief writes model.ckpt-<global step> there at the start, every "
        "600 seconds between steps and at the end, 5 kept, as TF1's chief did (under ParameterServerStrategy its data "
        "in a shard per device holding variables, TF1's in one; no graph.pbtxt, .meta or events); a v1 summary of the "
        "builder, which such a session never wrote, is deleted; a random op that is the graph's first op, under a "
        "graph seed, is given TF1's op seed (3: TF1's numbers), any other random op of the builder refused; in the "
        "builder, a tf-slim zoo net under its arg_scope is a compat.slim_nets.SlimNet whose variables are made under the "
        "scope (create_variables of the input's element spec), slim.one_hot_encoding tf.one_hot, "
        "slim.losses.softmax_cross_entropy the mean of tf.nn.softmax_cross_entropy_with_logits, get_total_loss their "
        "tf.add_n with the nets' regularization losses, create_train_op the step (the loss check_numerics'd, the "
        "nets' batch normalizations updating their moving statistics in the call, as its UPDATE_OPS did); "
        "tf-slim's conv2d is a Keras Conv2D and flatten a Keras Flatten, as fully_connected a Dense (conv2d's variables "
        "weights and biases under TF1's scope, Conv; its default padding SAME written out; its xavier initializer "
        "Keras's GlorotUniform, other seeded draws); "
        "a tf.losses loss of its own statement is computed in model() under a name of its own, and "
        "tf.losses.get_total_loss() is the sum of the tf.losses losses and the Keras layers' regularization losses "
        "(their .losses) made before it, where TF1 read its LOSSES and REGULARIZATION_LOSSES collections; "
        "tf-slim's create_train_op(total_loss, optimizer) is the train step: the global step a plain variable "
        "incremented after the update, its value the total loss computed before the update (check_numerics'd, as TF1's "
        "was, where check_numerics is True); learning.train(train_op, logdir, number_of_steps=N) is an eager loop: "
        "model() runs once first, so the layers make their variables, and the optimizer builds its slots; logdir's "
        "latest checkpoint is restored (a TF1 one by its names, its slots mapped by compat.tf1_slots), a step runs "
        "before each check of the global step (a restart at N trains one more step, as TF 1.15's did; a "
        "number_of_steps that is no literal stops only where it is not 0, as TF1's test), and the last step's total "
        "loss is returned; model.ckpt-<global step> is written at the start where no checkpoint was restored, "
        "every save_interval_secs (600) between steps and at the end, 5 kept as its Saver() kept them (as "
        "MonitoredTrainingSession's), as TF 2 object-based checkpoints "
        "(Conv/weights/.ATTRIBUTES/VARIABLE_VALUE, the optimizer's slots and iterations, where TF1's held "
        "Conv/weights, Conv/weights/Adam and beta1_power: the port and tf.train.Checkpoint read them, a TF1 Saver, "
        "such as an evaluation script left at the safe level, does not); TF1's timer thread also saved as a restart "
        "began, under the restored step but, racing the first step, with the next step's state (model.ckpt-3 rewritten "
        "with step 4's), which the loop does not do: its checkpoints hold the step they are named by; not written: "
        "graph.pbtxt, the .meta files, the events (the graph, global_step/sec, summaries) and the INFO log line of "
        "each step; the Supervisor's waiting for a chief, its ready and init ops and its recovery from session errors "
        "are gone; the rule refuses any argument it does not convert (init_fn, train_step_fn, master, is_chief, "
        "sync_optimizer, summary_op, saver, session_config, startup_delay_steps ...), a number_of_steps missing, 0 or "
        "None (TF1 trained until stopped), a logdir None or empty (TF1 saved nothing), and a graph with placeholders, "
        "an input pipeline, summaries or a Saver; "
        "a lookup table is TF 2's StaticHashTable, filled when made (TF1: by the tables_initializer run); "
        "dynamic_rnn over TF1's BasicLSTMCell is a Keras RNN of a cell written with TF1's variables and ops (one kernel "
        "[input + units, 4 * units] and a bias, gates i, j, f, o, forget_bias added to f: the same values; its loop a "
        "Keras while loop, not dynamic_rnn's), the final state it returned not kept (the rule refuses a script reading "
        "it); a static shape TF1 read off the graph (`x.get_shape()[1].value`) is written as its value; "
        "a tf-slim zoo net under its arg_scope (resnet_v1.resnet_v1_50 ...) is a compat.slim_nets.SlimNet, Keras 2's "
        "track_tf1_style_variables shim around the same function: its variables are made at the first step under TF1's "
        "names (in no graph collection: the rule refuses a Saver, get_total_loss, learning.train and a monitored loop "
        "beside it), its regularizers' losses are the layer's .losses (added where the program added them), a batch "
        "normalization in training mode updates its moving statistics in the call (the rule asks the train op to run "
        "UPDATE_OPS, and refuses an evaluation sess.run of a net in training mode: TF1 ran no update there); "
        "model_deploy.create_clones(config, clone_fn) trained by create_train_op(tf.losses.get_total_loss(), ...) in a "
        "MonitoredTrainingSession(checkpoint_dir, [StopAtStepHook]) loop (research/slim's create_clones, read as it "
        "computes: every clone calls clone_fn on the same batch and variables, its losses summed into the total, no "
        "1/num_clones; the rule refuses the clones' outputs read, as deploy/optimize_clones read them) keeps the "
        "user's DeploymentConfig and reads its clones at run time (any num_clones): clone_fn is a function of the "
        "input element returning its losses, called under tf.device(config.clone_device(i)) for each clone in one "
        "tf.function (TF1's graph could run the clones at once: the same values), the name scopes clone_<i> gone "
        "(op names only); a clone device this process lacks, or a variables device that is a device function (ps "
        "tasks), stops the port with one line before it writes anything (compat.clones; TF1's session without soft "
        "placement stopped at its first step), where eager TF 2 would have placed the ops elsewhere, and so does a "
        "floating input other than float32 (TF1's layers made variables of its dtype, the Keras layers are float32); "
        "its layers (a "
        "literal scope each) make their variables in a traced call of clone_fn under config.variables_device() before "
        "the first checkpoint; tf-slim's max_pool2d/avg_pool2d are tf.nn's pools, one_hot_encoding tf.one_hot, a "
        "softmax cross-entropy loss (tf-slim's or tf.losses', no weights) the batch mean of "
        "tf.nn.softmax_cross_entropy_with_logits (TF1: the sum over the count of examples; float rounding only), the "
        "regularization losses the layers' .losses added once; the library module (deployment/model_deploy.py) stays "
        "at the safe level, no longer called by the port; "
        "a file importing tensorflow.compat.v1 with disable_v2_behavior() imports tensorflow (TF 2 behaviour: the "
        "rule refuses .value and == between tensors, which v1 shapes and equality answer otherwise). "
        "Variables and layers keep their TF1 names, so a TF1 checkpoint's values load into them by name, and a "
        "restore in a script that trains loads TF1's optimizer slots into the Keras optimizer's as it makes them "
        "(compat.tf1_slots; the path is computed again for it, so one from a call other than os.path.join, "
        "latest_checkpoint, os.environ.get or os.getcwd is left at the safe level); "
        "tf.keras is Keras 2 (tf-keras) through `import compat` on TF >= 2.16, whose names are TF1's.",
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 3])\n"
        "w = tf.Variable(tf.zeros([3, 1]))\n"
        "loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
        "train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    for step in range(3):\n"
        "        _, value = sess.run([train_op, loss], feed_dict={x: [[1.0, 2.0, 3.0]]})\n",
        "import compat\n"
        "import tensorflow as tf\n"
        'w = tf.Variable(tf.zeros([3, 1]), name="Variable")\n'
        "\n"
        "def model(x):\n"
        "    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
        '    return {"loss": loss}\n'
        "\n"
        "optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
        "\n"
        "@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])\n"
        "def train_step(x):\n"
        "    with tf.GradientTape() as tape:\n"
        "        outputs = model(x)\n"
        "    variables = tape.watched_variables()\n"
        '    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))\n'
        '    return outputs["loss"]\n'
        "\n"
        "for step in range(3):\n"
        "    value = train_step([[1.0, 2.0, 3.0]]).numpy()\n",
    )
    WORDS = frozenset()  # it acts only where the module uses TensorFlow
    # (and reads the calls to the libraries that make variables, which it refuses in a graph: tf_slim, Keras)
    ROOTS = frozenset(name.partition(".")[0] for name in VARIABLE_LIBRARIES)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._calls: dict[int, frozenset[str]] = {}  # id(Call) -> the TensorFlow names its function is
        self._library_calls: dict[int, frozenset[str]] = {}  # id(Call) -> its names in VARIABLE_LIBRARIES
        self._library_aliases: dict[str, str] = {}  # `slim = tf.contrib.slim`: slim -> tensorflow.contrib.slim
        self.updated_calls: dict[int, cst.Call] = {}  # id(original Call) -> as the pass left it (tf-slim's calls)
        self._tf_heads: dict[int, bool] = {}  # id(Name) of a name bound to TensorFlow -> is it TensorFlow there
        self._graph_calls: dict[int, cst.Call] = {}  # calls that need graph mode
        self._session_top: dict[int, int] = {}  # id(graph-mode call) -> its top-level statement
        self._attributes: dict[int, frozenset[str]] = {}  # id(Attribute) -> its TensorFlow names (tf.GraphKeys.X)
        self._switched = False  # the file turns eager execution off (or on) itself
        self._updated: dict[int, cst.BaseStatement] = {}  # id(original statement) -> as the pass left it
        self._functions: list[tuple[int, cst.FunctionDef]] = []  # top-level defs: (statement index, original)
        self._aliases = {n for n, q in state.table.toplevel.items() if q == _tf.TF} | {
            n for n, qs in state.table.imported.items() if _tf.TF in qs
        }
        self._v1_aliases = {n for n, q in state.table.toplevel.items() if q == V1}
        self._switch_calls: list[cst.Call] = []  # the calls turning eager execution off (or on)
        # id(the body of a `with tf.Graph().as_default():`) -> (that with statement, the block holding it)
        self._withs: dict[int, tuple[cst.With, Block]] = {}
        self.v1: V1Module | None = None  # the file imports tensorflow.compat.v1 and switches itself
        self.slim_converted = False  # a conversion wrote tf-slim's layers as Keras's (their imports may go)
        self._depth = 0
        if hasattr(self, "_module_names"):
            del self._module_names

    # -- what the pass records
    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def module_names(self) -> dict[str, int]:
        """How often each name appears in the module (for picking new names nothing uses)."""
        if not hasattr(self, "_module_names"):
            counts: dict[str, int] = {}
            for name in names_in(self._module).names:  # (bound or read: attribute names and keywords bind nothing)
                counts[name] = counts.get(name, 0) + 1
            self._module_names = counts
        return self._module_names

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualified_names(node.func)
        library = frozenset(n for n in qualified if n.startswith(VARIABLE_LIBRARIES)) | self._aliased(node.func)
        if library:
            self._library_calls[id(node)] = library
        names = frozenset(n for n in qualified if n.startswith(_tf.TF))
        if names:
            self._calls[id(node)] = names
            if names & graph_names():
                self._graph_calls[id(node)] = node
                self._session_top[id(node)] = self.state.top
            if names & SWITCH_NAMES:
                self._switched = True
                self._switch_calls.append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        """`slim = tf.contrib.slim`: the name table does not follow an assignment, so the rule records the alias."""
        target = node.targets[0].target if len(node.targets) == 1 else None
        if isinstance(target, cst.Name) and isinstance(node.value, (cst.Attribute, cst.Name)):
            found = [n for n in self.qualified_names(node.value) if (n + ".").startswith(VARIABLE_LIBRARIES)]
            if found:
                self._library_aliases[target.value] = min(found)

    def _aliased(self, func: cst.BaseExpression) -> frozenset[str]:
        """The library name of `alias.a.b` where the file assigns `alias = <a library module>`."""
        path = _tf.full_name(func)
        head, _, rest = path.partition(".")
        module = self._library_aliases.get(head)
        return frozenset({f"{module}.{rest}"}) if module and rest else frozenset()

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if id(original_node) in self._library_calls:
            self.updated_calls[id(original_node)] = updated_node
        return updated_node

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in ("UPDATE_OPS", "AUTO_REUSE"):  # the only attributes the rule reads besides calls
            self._attributes[id(node)] = frozenset(n for n in self.qualified_names(node) if n.startswith(_tf.TF))
        elif node.attr.value in SLIM_FUNCTIONS:  # (an arg_scope's list names them)
            library = frozenset(n for n in self.qualified_names(node) if n.startswith(VARIABLE_LIBRARIES))
            self._attributes[id(node)] = library | self._aliased(node)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self._aliases:
            self._tf_heads[id(node)] = _tf.TF in self.qualified_names(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._depth == 0:
            self._functions.append((self.state.top, node))
        self._depth += 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._depth += 1  # (its methods are not module-level functions)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self._depth -= 1
        return updated_node

    def _keep(self, original: cst.BaseStatement, updated: cst.BaseStatement) -> cst.BaseStatement:
        self._updated[id(original)] = updated
        return updated

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self._depth -= 1
        return cast(cst.FunctionDef, self._keep(original_node, updated_node))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        return cast(cst.SimpleStatementLine, self._keep(original_node, updated_node))

    def leave_With(self, original_node: cst.With, updated_node: cst.With) -> cst.With:
        return cast(cst.With, self._keep(original_node, updated_node))

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.For:
        return cast(cst.For, self._keep(original_node, updated_node))

    def leave_While(self, original_node: cst.While, updated_node: cst.While) -> cst.While:
        return cast(cst.While, self._keep(original_node, updated_node))

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.If:
        return cast(cst.If, self._keep(original_node, updated_node))

    def leave_Try(self, original_node: cst.Try, updated_node: cst.Try) -> cst.Try:
        return cast(cst.Try, self._keep(original_node, updated_node))

    # -- the conversion, once the whole file is known
    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self.level != "native":
            return updated_node  # (an instance made for the safe level, as the engine's tests make every rule)
        blocks = [
            Block(fn.body.body, cast(cst.IndentedBlock, self._current(fn).body).body, top)
            for top, fn in self._functions
            if isinstance(fn.body, cst.IndentedBlock)
        ]
        blocks.append(Block(original_node.body, updated_node.body, None))
        blocks += self._graph_blocks(blocks)
        # the imports the pass needs so far: a block refused after its code asked for more (a loop's time) adds none
        scratch = self.state.context.scratch
        before = list(scratch.get(AddImportsVisitor.CONTEXT_KEY, []))
        imports = before
        done: list[tuple[Block, dict[int, list[cst.BaseStatement]], set[int], str, cst.CSTNode]] = []
        seen: set[int] = set()  # the Session calls of the blocks the rule reads
        for block in blocks:
            seen |= {id(found[0]) for stmt in block.original if (found := self.session_call(stmt)) is not None}
            session = self._session_index(block.original)
            if session is None:
                continue
            node = block.original[session]
            try:
                if self._v1_aliases or self._switched:
                    names = {id(c): self._calls.get(id(c), frozenset()) for c in self._switch_calls}
                    self.v1 = v1_module(original_node, self._v1_aliases, self._aliases, self._switch_calls, names)
                    if self.v1 is None and self._switched:
                        raise Refused(node, "the file switches eager execution itself")
                    if self.v1 is None:
                        raise Refused(node, "the file reads TensorFlow through tensorflow.compat.v1 and another import")
                deployed = model_deploy.port(self, block, session)  # (None: no model_deploy clones)
                if deployed is not None:
                    replacements, covered, said, watched = deployed
                else:
                    converter = Converter(self, block)
                    replacements, covered, said = converter.convert(session)
                    said = "; ".join([said, *slim_nets.checked(converter)])  # (a zoo net: Refused, or what became what)
                    watched = converter.watched()
                self._check_after(block, watched)
            except Refused as refused:
                self._refuse(refused, block)
                scratch[AddImportsVisitor.CONTEXT_KEY] = list(imports)
                continue
            imports = list(scratch.get(AddImportsVisitor.CONTEXT_KEY, []))
            done.append((block, replacements, covered, said, node))
        elsewhere = [c for c in self._graph_calls.values() if self.is_session(c) and id(c) not in seen]
        if elsewhere:  # (one entry per file: the first)
            where = self._container(original_node.body[self._session_top[id(elsewhere[0])]], elsewhere[0])
            why = f"a Session inside {where}: the rule reads the statements of module and function bodies"
            self.report(
                elsewhere[0],
                f"Session script left at the safe level: {why}",
                native=True,
                statement=self._session_top[id(elsewhere[0])],
            )
        left = [c for c in self._graph_calls.values() if self.is_call(c, MONITORED) and not monitored.plain(c)]
        if left and not seen and not elsewhere:
            ported = cluster.port(self, original_node, updated_node, left[0])  # (None: not its shape)
            if ported is not None:
                return ported
            why = monitored.reason(_tf.full_name(left[0].func), left[0])
            self.report(
                left[0],
                f"Session script left at the safe level: {why}",
                native=True,
                statement=self._session_top[id(left[0])],
            )
        if not seen and not elsewhere and not left:
            self._slim_loop(original_node)
        if not done:
            return updated_node
        covered_all = set().union(*(c for _, _, c, _, _ in done))
        outside = [call for key, call in self._graph_calls.items() if key not in covered_all]
        if outside:
            line = _tf.full_name(outside[0].func)
            for block, _, _, _, head in done:
                why = f"the file has other graph-mode code ({line}), which needs eager execution off"
                self._refuse(Refused(head, why), block)
            scratch[AddImportsVisitor.CONTEXT_KEY] = before
            return updated_node
        converted = self._apply(updated_node, done)
        if self.v1 is not None:
            try:
                converted = tf2_import(converted, self.v1, self._updated)
            except Refused as refused:
                for block, _, _, _, head in done:
                    self._refuse(Refused(head, refused.why), block)
                scratch[AddImportsVisitor.CONTEXT_KEY] = before
                return updated_node
        for block, _, _, said, head in done:
            self.report(head, said, native=True, statement=self._statement(block, head))
        self._drop_superseded(done)
        if self.slim_converted:
            drop_slim_imports(self, converted)
        drop_v1_imports(self, converted)  # (a lookup table's class imported by name, now tf.lookup's)
        _tf.ensure_compat(self)  # tf.keras is legacy Keras 2 on TF >= 2.16 through compat: TF1's variable names
        return converted

    def _slim_loop(self, module: cst.Module) -> None:
        """The entry of a script driven by tf-slim's training or evaluation loop (_native_slim_loops): the first."""
        for index, stmt in enumerate(module.body):
            for call in names_in(stmt).calls:
                why = slim_loops.reason(self.tf_names(call) | self.library_names(call))
                if why:
                    self.report(call, f"Session script left at the safe level: {why}", native=True, statement=index)
                    return

    def _graph_blocks(self, blocks: Sequence[Block]) -> list[Block]:
        """The bodies of `with tf.Graph().as_default():` statements of the module's and its functions' bodies:
        eager TF 2 has no graph to enter, so a Session script there converts as one written without it."""
        found = []
        for parent in blocks:
            for index, stmt in enumerate(parent.original):
                if self._graph_with(stmt):
                    updated = cast(cst.With, self._updated.get(id(stmt), stmt))
                    original = cast(cst.IndentedBlock, cast(cst.With, stmt).body).body
                    top = parent.top if parent.top is not None else index
                    block = Block(original, cast(cst.IndentedBlock, updated.body).body, top)
                    self._withs[id(original)] = (cast(cst.With, stmt), parent)
                    found.append(block)
        return found

    def _graph_with(self, stmt: cst.BaseStatement) -> bool:
        """Is `stmt` `with tf.Graph().as_default():` (one item, no `as`) around an indented block?"""
        if not isinstance(stmt, cst.With) or len(stmt.items) != 1 or stmt.items[0].asname is not None:
            return False
        call = stmt.items[0].item
        func = call.func if isinstance(call, cst.Call) and not call.args else None
        return (
            isinstance(stmt.body, cst.IndentedBlock)
            and isinstance(func, cst.Attribute)
            and func.attr.value == "as_default"
            and isinstance(func.value, cst.Call)
            and not func.value.args
            and self.is_call(func.value, GRAPH) is not None
        )

    def _check_after(self, block: Block, watched: set[str]) -> None:
        """A graph block's names are gone once it converts: no statement after its `with tf.Graph()` may read them."""
        if id(block.original) not in self._withs:
            return
        stmt, parent = self._withs[id(block.original)]
        after = list(parent.original)[list(parent.original).index(stmt) + 1 :]
        for later in after:
            read = set(names_in(later).names) & watched
            if read:  # (said at the with statement: the entry's place is in the block's top-level statement)
                raise Refused(stmt, f"`{min(read)}`, of the graph or its session, is read after its with block")

    @staticmethod
    def _container(top: cst.BaseStatement, call: cst.Call) -> str:
        """What holds a Session call the rule does not read (within its top-level statement), for the entry."""
        path: list[cst.CSTNode] = []

        class Path(cst.CSTVisitor):
            def on_visit(self, node: cst.CSTNode) -> bool:
                if path and path[-1] is call:
                    return False
                path.append(node)
                return True

            def on_leave(self, original_node: cst.CSTNode) -> None:
                if path[-1] is not call:
                    path.pop()

        top.visit(Path())
        kinds = (cst.ClassDef, cst.FunctionDef, cst.With, cst.For, cst.While, cst.If, cst.Try, cst.Lambda)
        # (a with statement whose item the call is, is a statement the rule reads; a top-level def's body too)
        holders = [
            n
            for n, below in zip(path, path[1:])
            if isinstance(n, kinds)
            and not isinstance(below, cst.WithItem)
            and not (n is top and isinstance(n, cst.FunctionDef))
        ]
        outer = holders[0] if holders else None
        if outer is None:
            return "an expression"
        if isinstance(outer, cst.With):
            return f"`with {', '.join(source_of(item.item) for item in outer.items)}:`"
        names = {cst.ClassDef: "a class", cst.FunctionDef: "a nested function", cst.Lambda: "a lambda"}
        return names.get(type(outer), f"a {type(outer).__name__.lower()} block")

    def _switch(self, code: str) -> bool:
        """Is `code` a graph-mode switch (the safe pass writes them through tf.compat.v1, or the compat.v1 alias)?"""
        alias = self.v1.alias if self.v1 is not None else None
        return bool(
            _SWITCH.match(code.strip()) or (alias and re.match(rf"^{alias}\.disable_\w+\(\)\s*$", code.strip()))
        )

    def _drop_superseded(self, done: list) -> None:
        """The safe pass's entries that the converted code no longer bears out: a name rewritten to
        tf.compat.v1 in a converted block, graph mode switched on for it."""
        inside = {id(n) for block, *_ in done for stmt in block.original for n in descendants(stmt)}
        self.state.reports[:] = [
            (top, node, entry)
            for top, node, entry in self.state.reports
            if entry.rule == self.ID
            or not (entry.rule == "graph-mode" or (id(node) in inside and "compat.v1" in entry.message))
        ]

    def _current(self, fn: cst.FunctionDef) -> cst.FunctionDef:
        return cast(cst.FunctionDef, self._updated.get(id(fn), fn))

    def _statement(self, block: Block, node: cst.CSTNode) -> int:
        """The index of the top-level statement holding `node` (for the report's position): the block's, or another
        where the node is outside it (a function the graph calls: an input function's nested def)."""
        if block.top is not None and any(n is node for n in descendants(self._module.body[block.top])):
            return block.top
        holding = (i for i, stmt in enumerate(self._module.body) if any(n is node for n in descendants(stmt)))
        return next(holding, block.top or 0)

    def _refuse(self, refused: Refused, block: Block) -> None:
        self.report(
            refused.node,
            f"Session script left at the safe level: {refused.why}",
            native=True,
            statement=self._statement(block, refused.node),
        )

    def _session_index(self, statements: Sequence[cst.BaseStatement]) -> int | None:
        for index, stmt in enumerate(statements):
            if self.session_call(stmt) is not None:
                return index
        return None

    def session_call(self, stmt: cst.BaseStatement) -> tuple[cst.Call, str] | None:
        """(the Session call, the session's name) of `with tf.Session() as sess:` / `sess = tf.Session()`."""
        if isinstance(stmt, cst.With) and len(stmt.items) == 1:
            item = stmt.items[0]
            if isinstance(item.item, cst.Call) and self.is_session(item.item):
                if item.asname is not None and isinstance(item.asname.name, cst.Name):
                    return item.item, item.asname.name.value
        name, value = assigned(single(stmt))
        if name is not None and isinstance(value, cst.Call) and self.is_session(value):
            return value, name
        trained = slim_loops.training(self, stmt)
        if trained is not None:  # (tf-slim's learning.train: a loop of its own session, _native_slim_loops)
            return trained, ""
        return None

    def is_session(self, call: cst.Call) -> bool:
        """A tf.Session, or a monitored session without arguments (_native_monitored: a Session and its initializer)."""
        if self.is_call(call, monitored.TRAINING) and monitored.training(call):
            return True  # (its loop: _native_monitored.training_loop, or Refused saying why)
        return bool(self.is_call(call, SESSIONS) or (self.is_call(call, MONITORED) and monitored.plain(call)))

    def qualified_in(self, node: cst.CSTNode, names: frozenset[str]) -> bool:
        """Is `node` (a name the pass recorded: a Call's function or an argument) one of `names`?"""
        return bool(self._attributes.get(id(node), frozenset()) & names)

    def tf_names(self, call: cst.Call) -> frozenset[str]:
        """The TensorFlow names a call's function is (empty: not TensorFlow's)."""
        return self._calls.get(id(call), frozenset())

    def attribute_names(self, node: cst.CSTNode) -> frozenset[str]:
        """The names the pass recorded for an attribute (`tf.GraphKeys.UPDATE_OPS`, `slim.conv2d` in an arg_scope)."""
        return self._attributes.get(id(node), frozenset())

    def library_names(self, call: cst.CSTNode) -> frozenset[str]:
        """The names in VARIABLE_LIBRARIES a call's function is (empty: none)."""
        return self._library_calls.get(id(call), frozenset())

    def variable_library(self, call: cst.Call) -> str | None:
        """The name of a call to a library that makes variables (VARIABLE_LIBRARIES), else None."""
        found = self._library_calls.get(id(call))
        return min(found) if found else None

    def is_call(self, node: cst.CSTNode, names: Iterable[str]) -> str | None:
        if not isinstance(node, cst.Call):
            return None
        found = self._calls.get(id(node), frozenset()) & frozenset(names)
        return min(found) if found else None

    def tf_calls(self, node: cst.CSTNode) -> list[cst.Call]:
        """The TensorFlow calls in `node` that build graph state (flag definitions and logging do not)."""
        return [
            call
            for call in names_in(node).calls
            if any(not n.startswith(NO_GRAPH_STATE) for n in self._calls.get(id(call), ()))
        ]

    def shadowed_tf(self, node: cst.CSTNode) -> bool:
        """Does `node` use a name bound to TensorFlow somewhere it is something else?"""
        return any(self._tf_heads.get(id(n)) is False for n in all_names(node))

    def _apply(self, module: cst.Module, done: list) -> cst.Module:
        replacements: dict[int, list[cst.BaseStatement]] = {}
        for _, block_replacements, _, _, _ in done:
            replacements.update(block_replacements)

        def rebuild(updated: Sequence[cst.BaseStatement], originals: Sequence[cst.BaseStatement]) -> list:
            back = {id(self._updated.get(id(o), o)): o for o in originals}
            body: list[cst.BaseStatement] = []
            pending: Sequence[cst.EmptyLine] = ()  # the blank lines and comments before a replaced statement
            for stmt in updated:
                original = back.get(id(stmt))
                if original is not None and id(original) in replacements:
                    new = list(replacements[id(original)])
                    pending = [*pending, *leading(stmt)]
                    if new and body and isinstance(body[-1], cst.FunctionDef) and not pending:
                        pending = [cst.EmptyLine(indent=False)]
                    if new and pending:
                        new[0] = new[0].with_changes(leading_lines=[*pending, *leading(new[0])])
                        pending = ()
                    body.extend(new)
                    if any(isinstance(n, cst.FunctionDef) for n in new):
                        pending = [cst.EmptyLine(indent=False)]  # a blank line after the written defs
                    continue
                if pending:
                    stmt = stmt.with_changes(leading_lines=[*pending, *leading(stmt)])
                    pending = ()
                if original is None and self._switch(source_of(stmt)):
                    continue  # graph-mode's switch, written in this pass: the converted code runs eagerly
                body.append(stmt)
            return body

        converted = {id(block.original) for block, *_ in done if block.top is not None}
        # the statements the source has (as the pass left them): the others in a main guard are written by this pass
        known = {id(u) for u in self._updated.values()} | {id(n) for n in descendants(self._module)}
        body = []
        for stmt in module.body:
            if isinstance(stmt, cst.FunctionDef) and isinstance(stmt.body, cst.IndentedBlock):
                original = next((fn for _, fn in self._functions if self._current(fn) is stmt), None)
                if original is not None and id(original) in replacements:  # (a variable-scope helper the graph calls)
                    body.extend(replacements[id(original)])
                    continue
                if original is not None and id(original.body.body) in converted:
                    new = rebuild(stmt.body.body, cast(cst.IndentedBlock, original.body).body)
                    stmt = stmt.with_changes(body=stmt.body.with_changes(body=new))
            elif isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock):
                kept = [s for s in stmt.body.body if id(s) in known or not self._switch(source_of(s))]
                if kept and len(kept) != len(stmt.body.body):
                    stmt = stmt.with_changes(body=stmt.body.with_changes(body=kept))
            elif id(stmt) not in known and self._switch(source_of(stmt)):
                continue  # (written after the imports where the module calls the script's function on import)
            body.append(stmt)
        module = module.with_changes(body=body)
        for block, *_ in done:
            if block.top is None:
                module = module.with_changes(body=rebuild(module.body, block.original))
        unwrapped: dict[int, list[cst.BaseStatement]] = {}  # id(a converted graph block's with) -> its statements
        for block, *_ in done:
            if id(block.original) in self._withs:
                stmt = self._withs[id(block.original)][0]
                updated = cast(cst.With, self._updated.get(id(stmt), stmt))
                new = rebuild(cast(cst.IndentedBlock, updated.body).body, block.original)
                if new:
                    new[0] = new[0].with_changes(leading_lines=[*leading(updated), *leading(new[0])])
                unwrapped[id(updated)] = new

        class Unwrap(cst.CSTTransformer):
            def leave_With(
                self, original_node: cst.With, updated_node: cst.With
            ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
                new = unwrapped.get(id(original_node))
                if new is None:
                    return updated_node
                return cst.FlattenSentinel(new) if new else cst.RemoveFromParent()

        return cast(cst.Module, module.visit(Unwrap())) if unwrapped else module
