"""A tensorflow/nmt-style TF 1 program: an attention seq2seq model on tf.contrib.seq2seq, trained 3 Adam steps,
then decoding greedily and by beam search. Tiny and generated, written as nmt writes its model (model.py,
attention_model.py): embeddings, a tf.nn.dynamic_rnn LSTM encoder, an AttentionWrapper decoder cell started from
the encoder's state (`zero_state(...).clone(cell_state=...)`), TrainingHelper + BasicDecoder + dynamic_decode for
training, a `sequence_loss` over the target weights, clipped gradients; for inference (in the same graph, its
variables reused) GreedyEmbeddingHelper, SampleEmbeddingHelper (a seeded draw, nmt's `sample` infer mode), and BeamSearchDecoder over the encoder's outputs and state tiled to the
beam width (`tile_batch`), both with maximum_iterations. A graph seed and nmt's seeded uniform initializer.

Two cases: nmt's `scaled_luong` attention, time major as nmt runs it; `normed_bahdanau` attention batch major,
with impute_finished, the cell's output (not the attention) emitted, greedy decoding to maximum_iterations (its
end token is no target's) and beam search with length and coverage penalties. Prints `RESULT <json>`: per case the
variables (names, shapes), each one's initial sum, the loss before each step and after the last, the
other reductions of sequence_loss, the training decode's sample ids and lengths, the greedy ids and lengths,
the alignment history and final attention, the sampled ids and lengths, the beams' ids, lengths, scores and log-probabilities (rounded).

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_seq2seq.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py); test_seq2seq.py compares uai-run's.
"""

import json

import numpy as np
import tensorflow as tf

SRC_VOCAB, TGT_VOCAB, SOS, EOS = 7, 8, 1, 2
EMBED, UNITS = 4, 6
SOURCE = [[3, 4, 5, 6, 2], [5, 3, 2, 0, 0], [6, 6, 4, 2, 0]]
SOURCE_LENGTH = [5, 3, 4]
TARGET_IN = [[SOS, 4, 5, 6], [SOS, 3, 0, 0], [SOS, 6, 5, 0]]
TARGET_OUT = [[4, 5, 6, EOS], [3, EOS, 0, 0], [6, 5, EOS, 0]]
TARGET_LENGTH = [4, 2, 3]
BEAM_WIDTH = 3
SAMPLE_SEED = 7

# greedy decoding ends at `end`: EOS, or an id no target holds, so that it runs maximum_iterations steps;
# beam search ends at EOS
CASES = {
    "scaled luong, time major": {
        "attention": "scaled_luong",
        "time_major": True,
        "impute": False,
        "output": True,
        "end": EOS,
        "length penalty": 0.0,
        "coverage penalty": 0.0,
        "temperature": 0.5,
    },
    "normed bahdanau, batch major": {
        "attention": "normed_bahdanau",
        "time_major": False,
        "impute": True,
        "output": False,
        "end": TGT_VOCAB - 1,
        "length penalty": 0.6,
        "coverage penalty": 0.3,
        "temperature": None,
    },
}


def rounded(array):
    return np.round(np.asarray(array, dtype=np.float64), 5).tolist()


def batch_major(tensor, time_major):
    return tf.transpose(tensor, [1, 0] + list(range(2, tensor.shape.ndims))) if time_major else tensor


def build(case, inputs, mode):
    """nmt's model for `mode` ("train", "greedy", "sample" or "beam"; inference reuses the trained variables):
    dynamic_decode's (outputs, final state, lengths), time major as the case is, and the training logits."""
    time_major = case["time_major"]
    source = tf.transpose(inputs["source"]) if time_major else inputs["source"]
    batch_size = tf.size(inputs["source_length"])
    with tf.variable_scope("dynamic_seq2seq", dtype=tf.float32, reuse=mode != "train"):
        with tf.variable_scope("embeddings"):
            with tf.variable_scope("encoder"):
                embedding_encoder = tf.get_variable("embedding_encoder", [SRC_VOCAB, EMBED])
            with tf.variable_scope("decoder"):
                embedding_decoder = tf.get_variable("embedding_decoder", [TGT_VOCAB, EMBED])
        with tf.variable_scope("build_network"):
            with tf.variable_scope("decoder/output_projection"):
                output_layer = tf.layers.Dense(TGT_VOCAB, use_bias=False, name="output_projection")
        with tf.variable_scope("encoder"):
            encoder_inputs = tf.nn.embedding_lookup(embedding_encoder, source)
            encoder_cell = tf.contrib.rnn.BasicLSTMCell(UNITS, forget_bias=1.0)
            encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
                encoder_cell,
                encoder_inputs,
                dtype=tf.float32,
                sequence_length=inputs["source_length"],
                time_major=time_major,
                swap_memory=True,
            )
        with tf.variable_scope("decoder") as decoder_scope:
            memory = batch_major(encoder_outputs, time_major)
            source_length, decoder_batch = inputs["source_length"], batch_size
            if mode == "beam":
                memory = tf.contrib.seq2seq.tile_batch(memory, multiplier=BEAM_WIDTH)
                source_length = tf.contrib.seq2seq.tile_batch(source_length, multiplier=BEAM_WIDTH)
                encoder_state = tf.contrib.seq2seq.tile_batch(encoder_state, multiplier=BEAM_WIDTH)
                decoder_batch = batch_size * BEAM_WIDTH
            if case["attention"] == "scaled_luong":
                mechanism = tf.contrib.seq2seq.LuongAttention(
                    UNITS, memory, memory_sequence_length=source_length, scale=True
                )
            else:
                mechanism = tf.contrib.seq2seq.BahdanauAttention(
                    UNITS, memory, memory_sequence_length=source_length, normalize=True
                )
            cell = tf.contrib.seq2seq.AttentionWrapper(
                tf.contrib.rnn.BasicLSTMCell(UNITS, forget_bias=1.0),
                mechanism,
                attention_layer_size=UNITS,
                alignment_history=mode == "greedy",
                output_attention=case["output"],
                name="attention",
            )
            initial_state = cell.zero_state(decoder_batch, tf.float32).clone(cell_state=encoder_state)
            maximum_iterations = tf.to_int32(tf.round(tf.to_float(tf.reduce_max(inputs["source_length"])) * 2.0))
            if mode == "train":
                target_input = tf.transpose(inputs["target_in"]) if time_major else inputs["target_in"]
                helper = tf.contrib.seq2seq.TrainingHelper(
                    tf.nn.embedding_lookup(embedding_decoder, target_input),
                    inputs["target_length"],
                    time_major=time_major,
                )
                decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state)
                maximum_iterations = None
            elif mode == "greedy":
                helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(
                    embedding_decoder, tf.fill([batch_size], SOS), case["end"]
                )
                decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state, output_layer=output_layer)
            elif mode == "sample":
                helper = tf.contrib.seq2seq.SampleEmbeddingHelper(
                    embedding_decoder,
                    tf.fill([batch_size], SOS),
                    case["end"],
                    softmax_temperature=case["temperature"],
                    seed=SAMPLE_SEED,
                )
                decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state, output_layer=output_layer)
            else:
                decoder = tf.contrib.seq2seq.BeamSearchDecoder(
                    cell=cell,
                    embedding=embedding_decoder,
                    start_tokens=tf.fill([batch_size], SOS),
                    end_token=EOS,
                    initial_state=initial_state,
                    beam_width=BEAM_WIDTH,
                    output_layer=output_layer,
                    length_penalty_weight=case["length penalty"],
                    coverage_penalty_weight=case["coverage penalty"],
                )
            outputs, final_state, lengths = tf.contrib.seq2seq.dynamic_decode(
                decoder,
                maximum_iterations=maximum_iterations,
                output_time_major=time_major,
                impute_finished=case["impute"] and mode == "train",
                swap_memory=True,
                scope=decoder_scope,
            )
            # training projects the decoder's outputs at once, as nmt does (inference in each step)
            logits = output_layer(outputs.rnn_output) if mode == "train" else None
    return outputs, final_state, lengths, logits


def run(case, seed):
    with tf.Graph().as_default():
        tf.set_random_seed(seed)
        # nmt's `uniform` init_op: one seeded initializer for every variable without its own
        tf.get_variable_scope().set_initializer(tf.random_uniform_initializer(-0.5, 0.5, seed=seed))
        inputs = {
            "source": tf.placeholder(tf.int32, [None, None]),
            "source_length": tf.placeholder(tf.int32, [None]),
            "target_in": tf.placeholder(tf.int32, [None, None]),
            "target_out": tf.placeholder(tf.int32, [None, None]),
            "target_length": tf.placeholder(tf.int32, [None]),
        }
        feed = {
            inputs["source"]: SOURCE,
            inputs["source_length"]: SOURCE_LENGTH,
            inputs["target_in"]: TARGET_IN,
            inputs["target_out"]: TARGET_OUT,
            inputs["target_length"]: TARGET_LENGTH,
        }
        outputs, _, train_lengths, logits = build(case, inputs, "train")
        logits = batch_major(logits, case["time_major"])
        train_ids = batch_major(outputs.sample_id, case["time_major"])
        weights = tf.sequence_mask(inputs["target_length"], tf.shape(inputs["target_out"])[1], dtype=logits.dtype)
        loss = tf.contrib.seq2seq.sequence_loss(logits, inputs["target_out"], weights)
        variants = {
            "per sequence": {"average_across_batch": False},
            "per step": {"average_across_timesteps": False},
            "summed": {
                "average_across_timesteps": False,
                "average_across_batch": False,
                "sum_over_timesteps": True,
                "sum_over_batch": True,
            },
            "summed per step": {
                "average_across_timesteps": False,
                "average_across_batch": False,
                "sum_over_batch": True,
            },
            "unreduced": {"average_across_timesteps": False, "average_across_batch": False},
        }
        other_losses = {
            name: tf.contrib.seq2seq.sequence_loss(logits, inputs["target_out"], weights, **kwargs)
            for name, kwargs in variants.items()
        }
        global_step = tf.Variable(0, trainable=False)
        params = tf.trainable_variables()
        gradients, _ = tf.clip_by_global_norm(tf.gradients(loss, params, colocate_gradients_with_ops=True), 5.0)
        update = tf.train.AdamOptimizer(0.05).apply_gradients(zip(gradients, params), global_step=global_step)

        greedy, infer_state, infer_lengths, _ = build(case, inputs, "greedy")
        infer_logits = batch_major(greedy.rnn_output, case["time_major"])
        infer_ids = batch_major(greedy.sample_id, case["time_major"])
        alignments = infer_state.alignment_history.stack()
        sampled, _, sample_lengths, _ = build(case, inputs, "sample")
        sampled_ids = batch_major(sampled.sample_id, case["time_major"])
        beams, beam_state, _, _ = build(case, inputs, "beam")
        beam_ids = batch_major(beams.predicted_ids, case["time_major"])
        beam_scores = batch_major(beams.beam_search_decoder_output.scores, case["time_major"])

        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            initial = session.run({v.op.name: tf.reduce_sum(v) for v in tf.global_variables()})
            before = session.run(
                {"ids": train_ids, "lengths": train_lengths, "logits": logits, "others": other_losses}, feed
            )
            losses = []
            for _ in range(3):
                step_loss, _ = session.run([loss, update], feed)
                losses.append(step_loss)
            losses.append(session.run(loss, feed))
            inferred = session.run(
                {
                    "ids": infer_ids,
                    "lengths": infer_lengths,
                    "alignments": alignments,
                    "attention": infer_state.attention,
                    "first logits": infer_logits[:, 0],
                    "sample ids": sampled_ids,
                    "sample lengths": sample_lengths,
                    "beam ids": beam_ids,
                    "beam scores": beam_scores,
                    "beam lengths": beam_state.lengths,
                    "beam log probs": beam_state.log_probs,
                },
                feed,
            )
        variables = sorted([v.op.name, v.shape.as_list()] for v in tf.global_variables())
    values = {
        "variables": variables,
        "initial sums": rounded([initial[name] for name, _ in variables]),
        "losses": rounded(losses),
        "train sample ids": before["ids"].tolist(),
        "train lengths": before["lengths"].tolist(),
        "train logits, first sequence": rounded(before["logits"][0]),
        "greedy ids": inferred["ids"].tolist(),
        "greedy lengths": inferred["lengths"].tolist(),
        "alignment history": rounded(inferred["alignments"]),
        "final attention": rounded(inferred["attention"]),
        "greedy first logits": rounded(inferred["first logits"]),
        "sample ids": inferred["sample ids"].tolist(),
        "sample lengths": inferred["sample lengths"].tolist(),
        "beam ids": inferred["beam ids"].tolist(),
        "beam lengths": inferred["beam lengths"].tolist(),
        "beam scores": rounded(inferred["beam scores"]),
        "beam log probs": rounded(inferred["beam log probs"]),
    }
    values.update(("sequence_loss " + name, rounded(value)) for name, value in before["others"].items())
    return values


result = {name: run(case, seed) for seed, (name, case) in enumerate(sorted(CASES.items()), 11)}
print("RESULT " + json.dumps(result, sort_keys=True))
