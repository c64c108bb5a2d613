"""tf.contrib.seq2seq's decoders: `BasicDecoder` steps an RNN cell under a helper, `dynamic_decode` runs any
`Decoder` in a while loop until every sequence is finished (or `maximum_iterations`).

`dynamic_decode` returns (outputs, final state, final sequence lengths) as TF 1.15 did: outputs batch-major
unless `output_time_major`; with `impute_finished` a finished sequence emits zeros and keeps its state. Its
variables are made under the variable scope `decoder` (or `scope`), so the cell's are
`decoder/<cell>/...` and a TF 1 checkpoint restores.
"""

import abc
import collections
from typing import Any

import tensorflow as tf

from compat.seq2seq._shapes import static_batch, swap_batch_time, zeros_of
from compat.seq2seq.helpers import Helper

v1 = tf.compat.v1


class Decoder(abc.ABC):
    """What `dynamic_decode` runs: `initialize()` -> (finished, first inputs, initial state); `step(time,
    inputs, state)` -> (outputs, next state, next inputs, finished); `finalize` may rewrite the stacked
    outputs and final state (NotImplementedError: it does not)."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any: ...

    @property
    @abc.abstractmethod
    def output_size(self) -> Any: ...

    @property
    @abc.abstractmethod
    def output_dtype(self) -> Any: ...

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]: ...

    @abc.abstractmethod
    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]: ...

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        """True for a decoder that reorders its batch between steps and so keeps its own finished flags."""
        return False


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))):
    pass


class CellDecoder(Decoder):
    """A decoder stepping an RNN cell whose output goes through an optional layer (a `tf.layers.Dense`
    projection to the vocabulary)."""

    def __init__(self, cell: Any, output_layer: Any = None) -> None:
        if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
            raise TypeError(f"cell must be an RNNCell, received: {type(cell)}")
        if output_layer is not None and not hasattr(output_layer, "compute_output_shape"):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._output_layer = output_layer

    def _rnn_output_size(self) -> Any:
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        # the layer's output shape for the cell's, the batch dimension left out
        shapes = tf.nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
        return tf.nest.map_structure(lambda s: s[1:], self._output_layer.compute_output_shape(shapes))


class BasicDecoder(CellDecoder):
    """Steps `cell` from `initial_state`: the cell's output (through `output_layer`) is the step's
    `rnn_output`, the helper samples its `sample_id` and gives the next inputs."""

    def __init__(self, cell: Any, helper: Helper, initial_state: Any, output_layer: Any = None) -> None:
        super().__init__(cell, output_layer)
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a Helper, received: {type(helper)}")
        self._helper = helper
        self._initial_state = initial_state

    @property
    def batch_size(self) -> Any:
        return self._helper.batch_size

    @property
    def output_size(self) -> BasicDecoderOutput:
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(), sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self) -> BasicDecoderOutput:
        dtype = tf.nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(
            tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()), self._helper.sample_ids_dtype
        )

    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        finished, inputs = self._helper.initialize()
        return finished, inputs, self._initial_state

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        with tf.name_scope(name or "BasicDecoderStep"):
            outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                outputs = self._output_layer(outputs)
            ids = self._helper.sample(time=time, outputs=outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=outputs, state=cell_state, sample_ids=ids
            )
        return BasicDecoderOutput(outputs, ids), next_state, next_inputs, finished


def _in_while_loop() -> bool:
    context = v1.get_default_graph()._get_control_flow_context()  # (TF 1's control flow: the only way to ask)
    while context is not None:
        if context.IsWhileContext():
            return True
        context = context.outer_context
    return False


def dynamic_decode(
    decoder: Decoder,
    output_time_major: bool = False,
    impute_finished: bool = False,
    maximum_iterations: Any = None,
    parallel_iterations: int = 32,
    swap_memory: bool = False,
    scope: Any = None,
) -> tuple[Any, Any, Any]:
    """Run `decoder` step by step until every sequence is finished or `maximum_iterations` steps ran:
    (outputs stacked over time, final state, each sequence's length: the step it finished at)."""
    if not isinstance(decoder, Decoder):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with v1.variable_scope(scope, "decoder") as varscope:
        # variables are read where the op using them runs (TF 1.15 did so outside while loops)
        if not tf.executing_eagerly() and not _in_while_loop() and varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        if maximum_iterations is not None:
            maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32, name="maximum_iterations")
            if maximum_iterations.shape.rank != 0:
                raise ValueError("maximum_iterations must be a scalar")

        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = tf.nest.map_structure(
            lambda size, dtype: zeros_of(size, decoder.batch_size, dtype), decoder.output_size, decoder.output_dtype
        )
        if maximum_iterations is not None:
            initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_lengths = tf.zeros_like(initial_finished, dtype=tf.int32)
        batch = static_batch(decoder.batch_size)

        def output_array(size: Any, dtype: Any) -> Any:
            # TF 1.15 gave an element shape only for a size given as a TensorShape of rank >= 1
            known = isinstance(size, tf.TensorShape) and size.rank != 0
            shape = tf.TensorShape([batch]).concatenate(size) if known else None
            return v1.TensorArray(dtype=dtype, size=0, dynamic_size=True, element_shape=shape)

        initial_arrays = tf.nest.map_structure(output_array, decoder.output_size, decoder.output_dtype)

        def not_all_finished(time: Any, arrays: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> Any:
            return tf.logical_not(tf.reduce_all(finished))

        def body(time: Any, arrays: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> tuple:
            outputs, decoder_state, next_inputs, decoder_finished = decoder.step(time, inputs, state)
            next_finished = (
                decoder_finished if decoder.tracks_own_finished else tf.logical_or(decoder_finished, finished)
            )
            # a sequence's length is the step after the last one it ran unfinished
            next_lengths = v1.where(tf.logical_not(finished), tf.fill(tf.shape(lengths), time + 1), lengths)
            tf.nest.assert_same_structure(state, decoder_state)
            tf.nest.assert_same_structure(arrays, outputs)
            tf.nest.assert_same_structure(inputs, next_inputs)
            if impute_finished:
                emitted = tf.nest.map_structure(lambda out, zero: v1.where(finished, zero, out), outputs, zero_outputs)
                next_state = tf.nest.map_structure(
                    lambda new, old: _keep_finished(finished, new, old), decoder_state, state
                )
            else:
                emitted, next_state = outputs, decoder_state
            arrays = tf.nest.map_structure(lambda array, out: array.write(time, out), arrays, emitted)
            return time + 1, arrays, next_state, next_inputs, next_finished, next_lengths

        loop = v1.while_loop(
            not_all_finished,
            body,
            loop_vars=(
                tf.constant(0, dtype=tf.int32),
                initial_arrays,
                initial_state,
                initial_inputs,
                initial_finished,
                initial_lengths,
            ),
            parallel_iterations=parallel_iterations,
            maximum_iterations=maximum_iterations,
            swap_memory=swap_memory,
        )
        final_state, final_lengths = loop[2], loop[5]
        final_outputs = tf.nest.map_structure(lambda array: array.stack(), loop[1])
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = tf.nest.map_structure(swap_batch_time, final_outputs)
    return final_outputs, final_state, final_lengths


def _keep_finished(finished: Any, new: Any, old: Any) -> Any:
    """A finished sequence's state stays as it was (TensorArrays and scalars such as a step count pass)."""
    if isinstance(old, v1.TensorArray):
        return new
    new.set_shape(old.shape)
    return new if new.shape.rank == 0 else v1.where(finished, old, new)
