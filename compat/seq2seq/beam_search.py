"""tf.contrib.seq2seq's beam search: `BeamSearchDecoder` keeps the `beam_width` best-scored hypotheses of each
batch entry at each step; `gather_tree` follows the parent pointers back from the last step to spell them out.

As in TF 1.15: the decoder's input state is the encoder's tiled to [batch * beam_width, ...] (`tile_batch`),
its outputs per step are `BeamSearchDecoderOutput(scores, predicted_ids, parent_ids)` shaped [batch, beam],
and `dynamic_decode` returns `FinalBeamSearchDecoderOutput` whose `predicted_ids` are the beams, best first,
each padded with the end token after it ends. A score is the beam's summed log-probability divided by the
length penalty ((5 + length) / 6) ** weight, plus, for a finished beam, the coverage penalty
weight * sum(log(min(attention received, 1))) over the memory. A finished beam only extends with the end
token at no cost. TensorArrays in the cell state (an AttentionWrapper's alignment history) are put in the
final beams' order (`reorder_tensor_arrays`).
"""

import collections
from typing import Any

import numpy as np
import tensorflow as tf

from compat.seq2seq.attention import AttentionWrapperState
from compat.seq2seq.decoding import CellDecoder
from compat.seq2seq.helpers import embedder

v1 = tf.compat.v1


class BeamSearchDecoderState(
    collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs")
    )
):
    pass


class BeamSearchDecoderOutput(
    collections.namedtuple("BeamSearchDecoderOutput", ("scores", "predicted_ids", "parent_ids"))
):
    pass


class FinalBeamSearchDecoderOutput(
    collections.namedtuple("FinalBeamDecoderOutput", ["predicted_ids", "beam_search_decoder_output"])
):
    """What `dynamic_decode` returns for a beam search: the beams' ids [batch, time, beam] (best first), and
    the per-step `BeamSearchDecoderOutput`."""


def gather_tree(
    step_ids: Any, parent_ids: Any, max_sequence_lengths: Any, end_token: Any, name: str | None = None
) -> Any:
    """The beams spelt out from [max_time, batch, beam] step ids and parent pointers: for each batch entry,
    from its last step (`max_sequence_lengths`) back to step 0, each beam's id at a step is the one of the
    beam its successor came from. Steps past the length, and every step after a beam's first end token,
    hold `end_token`; a pointer outside the beams gives -1 from there back."""
    with tf.name_scope(name or "GatherTree"):
        step_ids = tf.convert_to_tensor(step_ids, name="step_ids")
        parent_ids = tf.convert_to_tensor(parent_ids, name="parent_ids", dtype=step_ids.dtype)
        end_token = tf.cast(end_token, step_ids.dtype)
        lengths = tf.cast(max_sequence_lengths, tf.int32)
        max_time, beam_width = tf.shape(step_ids)[0], tf.shape(step_ids)[2]
        own_beams = tf.broadcast_to(tf.range(beam_width, dtype=step_ids.dtype), tf.shape(step_ids)[1:])

        def back(pointer: Any, step: Any) -> Any:
            time, ids, parents = step
            # the last step of an entry starts from each beam itself
            pointer = tf.where(tf.expand_dims(time >= lengths - 1, 1), own_beams, pointer)
            valid = tf.logical_and(pointer >= 0, pointer < tf.cast(beam_width, pointer.dtype))
            safe = tf.where(valid, pointer, tf.zeros_like(pointer))
            here = tf.where(valid, tf.gather(ids, safe, batch_dims=1), -tf.ones_like(pointer))
            parent = tf.where(valid, tf.gather(parents, safe, batch_dims=1), -tf.ones_like(pointer))
            return tf.stack([here, parent])

        first = tf.stack([own_beams, own_beams])
        traced = tf.scan(
            lambda carried, step: back(carried[1], step),
            (tf.range(max_time), step_ids, parent_ids),
            initializer=first,
            reverse=True,
        )
        beams = traced[:, 0]
        in_bounds = tf.transpose(tf.sequence_mask(lengths, maxlen=max_time))[:, :, None]
        beams = tf.where(in_bounds, beams, tf.fill(tf.shape(beams), end_token))
        # after a beam's first end token, only end tokens
        ended = tf.cumsum(tf.cast(tf.equal(beams, end_token), tf.int32), axis=0, exclusive=True) > 0
        return tf.where(ended, tf.fill(tf.shape(beams), end_token), beams)


def gather_tree_from_array(t: Any, parent_ids: Any, sequence_length: Any) -> Any:
    """`t` [max_time, batch * beam, ...] stacked from a TensorArray of the cell state, its beams put in the order
    of the final beams (`gather_tree` of the beam indices); steps past a beam's length stay as they were."""
    max_time, batch_size, beam_width = (
        tf.compat.dimension_value(d) or tf.shape(parent_ids)[i] for i, d in enumerate(parent_ids.shape)
    )
    beam_ids = tf.tile(tf.range(beam_width)[None, None, :], [max_time, batch_size, 1])
    sorted_ids = gather_tree(
        beam_ids, parent_ids, tf.cast(tf.reduce_max(sequence_length, axis=1), tf.int32), beam_width + 1
    )
    in_bounds = tf.transpose(tf.sequence_mask(sequence_length, maxlen=max_time), perm=[2, 0, 1])
    sorted_ids = tf.where(in_bounds, sorted_ids, beam_ids)
    times = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]), [1, batch_size, beam_width])
    batches = tf.transpose(tf.tile(tf.reshape(tf.range(batch_size), [-1, 1, 1]), [1, max_time, beam_width]), [1, 0, 2])
    indices = tf.stack([times, batches, sorted_ids], -1)
    ordered = tf.gather_nd(tf.reshape(t, [max_time, batch_size, beam_width, -1]), indices)
    return tf.reshape(ordered, tf.shape(t))


def _gather_beams(
    indices: Any, values: Any, batch_size: Any, range_size: Any, shape: list, name: str | None = None
) -> Any:
    """`values` [batch, range_size, ...] read at `indices` [batch, beam] within each batch entry, reshaped to
    `shape` first ([-1] flattens the two leading dimensions, [batch * beam, -1] keeps a depth)."""
    with tf.name_scope(name or "tensor_gather_helper"):
        offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
        flat = tf.reshape(indices + offsets, [-1])
        out = tf.gather(tf.reshape(values, shape), flat)
        out = tf.reshape(out, tf.shape(values)[: 1 + len(shape)], name="output")
        static = tf.get_static_value(batch_size)
        out.set_shape(tf.TensorShape([static]).concatenate(values.shape[1 : 1 + len(shape)]))
        return out


def _length_penalty(lengths: Any, weight: Any) -> Any:
    """Wu et al. (2016)'s ((5 + length) / 6) ** weight; 1 when the weight is 0."""
    weight = tf.convert_to_tensor(weight, name="penalty_factor")
    weight.set_shape(())
    if tf.get_static_value(weight) == 0:
        return 1.0
    return tf.math.divide((5.0 + tf.cast(lengths, tf.float32)) ** weight, (5.0 + 1.0) ** weight)


def _attention_of(state: Any) -> Any:
    """An attention state's alignments (the mean over several mechanisms)."""
    alignments = state.alignments
    if isinstance(alignments, tuple):
        return tf.reduce_mean(tf.concat([tf.expand_dims(a, -1) for a in alignments], -1), -1)
    return alignments


def _attention_probs(cell_state: Any, coverage_penalty_weight: float) -> Any:
    """The alignments the coverage penalty accumulates (None without it), from the attention wrappers of
    the cell state (a tuple: averaged over its wrappers)."""
    if coverage_penalty_weight == 0.0:
        return None
    if isinstance(cell_state, AttentionWrapperState):
        found = [_attention_of(cell_state)]
    elif isinstance(cell_state, tuple):
        found = [_attention_of(s) for s in cell_state if isinstance(s, AttentionWrapperState)]
    else:
        found = []
    if not found:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    if len(found) == 1:
        return found[0]
    return tf.reduce_mean(tf.concat([tf.expand_dims(p, -1) for p in found], -1), -1)


def _scores(
    log_probs: Any,
    lengths: Any,
    length_penalty_weight: Any,
    coverage_penalty_weight: Any,
    finished: Any,
    attention: Any,
) -> Any:
    scores = log_probs / tf.cast(_length_penalty(lengths, length_penalty_weight), log_probs.dtype)
    coverage_penalty_weight = tf.convert_to_tensor(coverage_penalty_weight, name="coverage_penalty_weight")
    if coverage_penalty_weight.shape.rank != 0:
        raise ValueError(f"coverage_penalty_weight should be a scalar, but saw shape: {coverage_penalty_weight.shape}")
    if tf.get_static_value(coverage_penalty_weight) == 0.0:
        return scores
    if attention is None:
        raise ValueError("accumulated_attention_probs can be None only if coverage penalty is disabled.")
    # memory steps no attention reached count as fully covered (log 1 = 0)
    attention = v1.where(tf.equal(attention, 0.0), tf.ones_like(attention), attention)
    coverage = tf.reduce_sum(tf.math.log(tf.minimum(attention, 1.0)), 2)
    coverage *= tf.cast(finished, tf.float32)
    return scores + tf.expand_dims(coverage * coverage_penalty_weight, 2)


def _mask_finished(probs: Any, end_token: Any, finished: Any) -> Any:
    """A finished beam's log-probabilities: 0 for the end token, the dtype's lowest for every other id."""
    vocab_size = tf.shape(probs)[2]
    row = tf.one_hot(
        end_token,
        vocab_size,
        dtype=probs.dtype,
        on_value=tf.convert_to_tensor(0.0, dtype=probs.dtype),
        off_value=probs.dtype.min,
    )
    rows = tf.tile(tf.reshape(row, [1, 1, -1]), tf.concat([tf.shape(finished), [1]], 0))
    mask = tf.tile(tf.expand_dims(finished, 2), [1, 1, vocab_size])
    return v1.where(mask, rows, probs)


def _step(
    logits: Any,
    cell_state: Any,
    beam_state: BeamSearchDecoderState,
    batch_size: Any,
    beam_width: int,
    end_token: Any,
    length_penalty_weight: Any,
    coverage_penalty_weight: Any,
) -> tuple[BeamSearchDecoderOutput, BeamSearchDecoderState]:
    """One beam search step: each beam extended by each id, the `beam_width` best kept per batch entry."""
    static_batch = tf.get_static_value(batch_size)
    was_finished = beam_state.finished
    not_finished = tf.logical_not(was_finished)
    step_log_probs = _mask_finished(tf.nn.log_softmax(logits), end_token, was_finished)
    total = tf.expand_dims(beam_state.log_probs, 2) + step_log_probs
    vocab_size = tf.compat.dimension_value(logits.shape[-1]) or tf.shape(logits)[-1]
    # the length each extension would have: one more, except by the end token or from a finished beam
    added = tf.one_hot(
        tf.fill([batch_size, beam_width], end_token),
        depth=vocab_size,
        on_value=tf.constant(0, tf.int64),
        off_value=tf.constant(1, tf.int64),
        dtype=tf.int64,
    )
    added *= tf.expand_dims(tf.cast(not_finished, tf.int64), 2)
    new_lengths = added + tf.expand_dims(beam_state.lengths, 2)
    accumulated = None
    attention = _attention_probs(cell_state, coverage_penalty_weight)
    if attention is not None:
        attention *= tf.expand_dims(tf.cast(not_finished, tf.float32), 2)
        accumulated = beam_state.accumulated_attention_probs + attention
    scores = _scores(total, new_lengths, length_penalty_weight, coverage_penalty_weight, was_finished, accumulated)

    best_scores, best = tf.nn.top_k(tf.reshape(scores, [batch_size, -1]), k=beam_width)
    best_scores.set_shape([static_batch, beam_width])
    best.set_shape([static_batch, beam_width])
    log_probs = _gather_beams(best, total, batch_size, beam_width * vocab_size, [-1], name="next_beam_probs")
    word_ids = tf.cast(tf.math.floormod(best, vocab_size, name="next_beam_word_ids"), tf.int32)
    parents = tf.cast(tf.math.floordiv(best, vocab_size), tf.int32, name="next_beam_parent_ids")
    parent_finished = _gather_beams(parents, was_finished, batch_size, beam_width, [-1])
    finished = tf.logical_or(parent_finished, tf.equal(word_ids, end_token), name="next_beam_finished")
    lengths = _gather_beams(parents, beam_state.lengths, batch_size, beam_width, [-1])
    lengths += tf.cast(tf.logical_not(parent_finished), tf.int64)
    next_accumulated: Any = ()
    if accumulated is not None:
        next_accumulated = _gather_beams(
            parents,
            accumulated,
            batch_size,
            beam_width,
            [batch_size * beam_width, -1],
            name="next_accumulated_attention_probs",
        )

    def gather_state(value: Any) -> Any:
        # TensorArrays, and tensors of rank below 2 (an AttentionWrapper's step count), pass
        if isinstance(value, v1.TensorArray) or value.shape.rank < 2:
            return value
        return _gather_beams(parents, value, batch_size, beam_width, [batch_size * beam_width, -1])

    state = BeamSearchDecoderState(
        cell_state=tf.nest.map_structure(gather_state, cell_state),
        log_probs=log_probs,
        lengths=lengths,
        finished=finished,
        accumulated_attention_probs=next_accumulated,
    )
    return BeamSearchDecoderOutput(scores=best_scores, predicted_ids=word_ids, parent_ids=parents), state


class BeamSearchDecoder(CellDecoder):
    """Beam search over `cell` (its state tiled to batch * beam_width), feeding the embedding of each beam's id;
    a beam ends at `end_token` (see the module docstring)."""

    def __init__(
        self,
        cell: Any,
        embedding: Any,
        start_tokens: Any,
        end_token: Any,
        initial_state: Any,
        beam_width: int,
        output_layer: Any = None,
        length_penalty_weight: float = 0.0,
        coverage_penalty_weight: float = 0.0,
        reorder_tensor_arrays: bool = True,
    ) -> None:
        super().__init__(cell, output_layer)
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        self._embed = embedder(embedding)
        start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
        if start_tokens.shape.rank != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._end_token.shape.rank != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = tf.size(start_tokens)
        self._initial_cell_state = tf.nest.map_structure(self._split_tensor, initial_state)
        self._start_inputs = self._embed(tf.tile(tf.expand_dims(start_tokens, 1), [1, beam_width]))
        # only beam 0 is live at first: the others would repeat it
        self._finished = tf.one_hot(
            tf.zeros([self._batch_size], dtype=tf.int32),
            depth=beam_width,
            on_value=False,
            off_value=True,
            dtype=tf.bool,
        )

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def tracks_own_finished(self) -> bool:
        return True  # beams move between steps: dynamic_decode's finished flags would not follow them

    @property
    def output_size(self) -> BeamSearchDecoderOutput:
        beams = tf.TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=beams, predicted_ids=beams, parent_ids=beams)

    @property
    def output_dtype(self) -> BeamSearchDecoderOutput:
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=tf.int32,
            parent_ids=tf.int32,
        )

    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = tf.one_hot(
            tf.zeros([self._batch_size], dtype=tf.int32),
            depth=self._beam_width,
            on_value=tf.convert_to_tensor(0.0, dtype=dtype),
            off_value=tf.convert_to_tensor(-np.inf, dtype=dtype),
            dtype=dtype,
        )
        attention = _attention_probs(self._initial_cell_state, self._coverage_penalty_weight)
        state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state,
            log_probs=log_probs,
            finished=self._finished,
            lengths=tf.zeros([self._batch_size, self._beam_width], dtype=tf.int64),
            accumulated_attention_probs=() if attention is None else attention,
        )
        return self._finished, self._start_inputs, state

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        del sequence_lengths  # the beams' own lengths are in the state
        lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
        predicted = gather_tree(outputs.predicted_ids, outputs.parent_ids, lengths, self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(
                cell_state=tf.nest.map_structure(
                    lambda t: self._sorted_array(t, outputs.parent_ids, final_state.lengths), final_state.cell_state
                )
            )
        return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs, predicted_ids=predicted), final_state

    def _merge(self, t: Any) -> Any:
        """[batch, beam, ...] -> [batch * beam, ...]."""
        static = tf.get_static_value(self._batch_size)
        out = tf.reshape(t, tf.concat(([self._batch_size * self._beam_width], tf.shape(t)[2:]), 0))
        out.set_shape(tf.TensorShape([None if static is None else static * self._beam_width]).concatenate(t.shape[2:]))
        return out

    def _split(self, t: Any) -> Any:
        """[batch * beam, ...] -> [batch, beam, ...]."""
        out = tf.reshape(t, tf.concat(([self._batch_size, self._beam_width], tf.shape(t)[1:]), 0))
        expected = tf.TensorShape([tf.get_static_value(self._batch_size), self._beam_width]).concatenate(t.shape[1:])
        if not out.shape.is_compatible_with(expected):
            raise ValueError(
                "Unexpected behavior when reshaping between beam width and batch size.  The reshaped tensor has "
                f"shape: {out.shape}.  We expected it to have shape (batch_size, beam_width, depth) == {expected}.  "
                "Perhaps you forgot to create a zero_state with batch_size=encoder_batch_size * beam_width?"
            )
        out.set_shape(expected)
        return out

    def _split_tensor(self, t: Any) -> Any:
        if isinstance(t, v1.TensorArray):
            return t
        if t.shape.rank is None:
            raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")
        return self._split(t) if t.shape.rank >= 1 else t

    def _merge_tensor(self, t: Any) -> Any:
        if isinstance(t, v1.TensorArray):
            return t
        if t.shape.rank is None:
            raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")
        return self._merge(t) if t.shape.rank >= 2 else t

    def _sorted_array(self, t: Any, parent_ids: Any, lengths: Any) -> Any:
        """A TensorArray of the cell state [time][batch * beam, ...], stacked in the final beams' order."""
        if not isinstance(t, v1.TensorArray):
            return t
        shape = t.element_shape
        if shape.rank is None or shape.rank < 1:
            v1.logging.warn(
                f"The TensorArray {t.handle.name} in the cell state is not amenable to sorting based on the beam "
                "search result. For a TensorArray to be sorted, its elements shape must be defined and have at "
                f"least a rank of 1, but saw shape: {shape}"
            )
            return t
        batch = tf.get_static_value(self._batch_size)
        first = tf.compat.dimension_value(shape[0])
        if batch is not None and first is not None and first != batch * self._beam_width:
            v1.logging.warn(
                "TensorArray reordering expects elements to be reshapable to "
                f"{tf.TensorShape([batch, self._beam_width, None])} which is incompatible with the current shape "
                f"{shape}. Consider setting reorder_tensor_arrays to False to disable TensorArray reordering "
                "during the beam search."
            )
            return t
        stacked = t.stack()
        check = v1.Assert(
            tf.equal(tf.shape(stacked)[1], self._batch_size * self._beam_width),
            ["TensorArray reordering expects elements to be reshapable to [batch_size, beam_size, -1]"],
        )
        with tf.control_dependencies([check]):
            return gather_tree_from_array(stacked, parent_ids, lengths)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        with tf.name_scope(name or "BeamSearchDecoderStep"):
            inputs = tf.nest.map_structure(self._merge, inputs)
            cell_state = tf.nest.map_structure(self._merge_tensor, state.cell_state)
            outputs, next_cell_state = self._cell(inputs, cell_state)
            outputs = tf.nest.map_structure(self._split, outputs)
            next_cell_state = tf.nest.map_structure(self._split_tensor, next_cell_state)
            if self._output_layer is not None:
                outputs = self._output_layer(outputs)
            output, beam_state = _step(
                outputs,
                next_cell_state,
                state,
                self._batch_size,
                self._beam_width,
                self._end_token,
                self._length_penalty_weight,
                self._coverage_penalty_weight,
            )
            finished = beam_state.finished
            ids = output.predicted_ids
            next_inputs = v1.cond(tf.reduce_all(finished), lambda: self._start_inputs, lambda: self._embed(ids))
        return output, beam_state, next_inputs, finished
