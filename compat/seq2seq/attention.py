"""tf.contrib.seq2seq's attention: Luong's and Bahdanau's mechanisms over an encoder's memory, and
`AttentionWrapper`, an RNN cell that attends after each step of the cell it wraps.

As in TF 1.15:
- a mechanism projects the memory (masked to `memory_sequence_length`) with a bias-free `tf.layers.Dense`
  named `memory_layer` when it is built, so its kernel is `<scope>/memory_layer/kernel`; Bahdanau's also
  projects each query (`query_layer`). Its variables (`luong_attention/attention_g` with `scale`,
  `bahdanau_attention/attention_v`, and with `normalize` `attention_g` and `attention_b`) are made where
  the wrapper calls it, under the wrapper's scope;
- scores past a sequence's length get `score_mask_value` (-inf) before the softmax;
- the wrapper feeds the cell `concat([inputs, previous attention])`, computes the context of each mechanism
  and, with `attention_layer_size`, projects `concat([cell output, context])` with a bias-free Dense
  `attention_layer` (no projection: the attention is the context). It emits the attention
  (`output_attention`) or the cell's output, and its state is an `AttentionWrapperState`;
  `zero_state(...).clone(cell_state=...)` starts it from an encoder's state.
"""

import collections
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

from compat.seq2seq._shapes import zeros_of

v1 = tf.compat.v1


class AttentionMechanism:
    """What `AttentionWrapper` accepts: `mechanism(query, state)` -> (alignments, next state)."""

    @property
    def alignments_size(self) -> Any:
        raise NotImplementedError

    @property
    def state_size(self) -> Any:
        raise NotImplementedError


def _mask_memory(memory: Any, lengths: Any, check_inner_dims: bool) -> Any:
    """`memory` [batch, time, ...] with the steps past each sequence's length set to zero."""
    memory = tf.nest.map_structure(lambda m: tf.convert_to_tensor(m, name="memory"), memory)
    for m in tf.nest.flatten(memory) if check_inner_dims else ():
        if not m.shape[2:].is_fully_defined():
            raise ValueError(f"Expected memory {m.name} to have fully defined inner dims, but saw shape: {m.shape}")
    if lengths is None:
        return memory
    lengths = tf.convert_to_tensor(lengths, name="memory_sequence_length")
    first = tf.nest.flatten(memory)[0]
    mask = tf.sequence_mask(lengths, maxlen=tf.shape(first)[1], dtype=first.dtype)

    def masked(m: Any) -> Any:
        rank = m.shape.rank if m.shape.rank is not None else tf.rank(m)
        # the mask [batch, time] broadcast over the memory's inner dimensions
        return m * tf.reshape(mask, tf.concat((tf.shape(mask), tf.ones(rank - 2, dtype=tf.int32)), 0))

    return tf.nest.map_structure(masked, memory)


def _mask_score(score: Any, lengths: Any, mask_value: Any) -> Any:
    if lengths is None:
        return score
    positive = v1.assert_positive(lengths, message="All values in memory_sequence_length must be greater than zero.")
    with tf.control_dependencies([positive]):
        mask = tf.sequence_mask(lengths, maxlen=tf.shape(score)[1])
    return v1.where(mask, score, mask_value * tf.ones_like(score))


class _Mechanism(AttentionMechanism):
    """The memory, its keys (projected by `memory_layer`) and the masked probability function."""

    def __init__(
        self,
        query_layer: Any,
        memory: Any,
        probability_fn: Callable[[Any, Any], Any],
        memory_sequence_length: Any = None,
        memory_layer: Any = None,
        check_inner_dims_defined: bool = True,
        score_mask_value: Any = None,
        custom_key_value_fn: Callable[[Any, Any], tuple[Any, Any]] | None = None,
        name: str | None = None,
    ) -> None:
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype
        if not callable(probability_fn):
            raise TypeError(f"probability_fn must be callable, saw type: {type(probability_fn).__name__}")
        if score_mask_value is None:
            score_mask_value = tf.as_dtype(memory_layer.dtype).as_numpy_dtype(-np.inf)
        self._probability_fn = lambda score, previous: probability_fn(
            _mask_score(score, memory_sequence_length, score_mask_value), previous
        )
        with tf.name_scope(name or "BaseAttentionMechanismInit"):
            self._values = _mask_memory(memory, memory_sequence_length, check_inner_dims_defined)
            self._keys = self._memory_layer(self._values) if self._memory_layer else self._values
            if custom_key_value_fn is not None:
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = tf.compat.dimension_value(self._keys.shape[0]) or tf.shape(self._keys)[0]
            self._alignments_size = tf.compat.dimension_value(self._keys.shape[1]) or tf.shape(self._keys)[1]

    @property
    def memory_layer(self) -> Any:
        return self._memory_layer

    @property
    def query_layer(self) -> Any:
        return self._query_layer

    @property
    def values(self) -> Any:
        return self._values

    @property
    def keys(self) -> Any:
        return self._keys

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def alignments_size(self) -> Any:
        return self._alignments_size

    @property
    def state_size(self) -> Any:
        return self._alignments_size

    def initial_alignments(self, batch_size: Any, dtype: Any) -> Any:
        """Zeros [batch_size, memory time]."""
        return zeros_of(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size: Any, dtype: Any) -> Any:
        return self.initial_alignments(batch_size, dtype)


def _dense(units: int, name: str, dtype: Any) -> Any:
    return v1.layers.Dense(units, name=name, use_bias=False, dtype=dtype)


def _softmax_of(probability_fn: Callable[[Any], Any] | None) -> Callable[[Any, Any], Any]:
    """The mechanisms' probability function of (score, previous alignments): `probability_fn(score)`."""
    function = probability_fn or tf.nn.softmax
    return lambda score, _previous: function(score)


class LuongAttention(_Mechanism):
    """Multiplicative attention (Luong et al., 2015): score = query . key, times a learned scalar
    `attention_g` (initially 1) with `scale=True`."""

    def __init__(
        self,
        num_units: int,
        memory: Any,
        memory_sequence_length: Any = None,
        scale: bool = False,
        probability_fn: Callable[[Any], Any] | None = None,
        score_mask_value: Any = None,
        dtype: Any = None,
        custom_key_value_fn: Callable[[Any, Any], tuple[Any, Any]] | None = None,
        name: str = "LuongAttention",
    ) -> None:
        super().__init__(
            query_layer=None,
            memory_layer=_dense(num_units, "memory_layer", dtype or tf.float32),
            memory=memory,
            probability_fn=_softmax_of(probability_fn),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn,
            name=name,
        )
        self._num_units = num_units
        self._scale = scale
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple[Any, Any]:
        with v1.variable_scope(None, "luong_attention", [query]):
            depth, key_units = query.shape[-1], self._keys.shape[-1]
            if depth != key_units:
                raise ValueError(
                    "Incompatible or unknown inner dimensions between query and keys.  "
                    f"Query ({query}) has units: {depth}.  Keys ({self._keys}) have units: {key_units}.  "
                    f"Perhaps you need to set num_units to the keys' dimension ({key_units})?"
                )
            # [batch, 1, units] x [batch, time, units]^T: one score per memory step
            score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), self._keys, transpose_b=True), [1])
            if self._scale:
                gain = v1.get_variable("attention_g", dtype=query.dtype, initializer=v1.ones_initializer(), shape=())
                score = gain * score
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class BahdanauAttention(_Mechanism):
    """Additive attention (Bahdanau et al., 2015): score = v . tanh(key + W query); with `normalize=True`
    v is weight-normalised, g * v / |v| (g initially sqrt(1 / num_units)), and a bias `attention_b` is added
    inside the tanh."""

    def __init__(
        self,
        num_units: int,
        memory: Any,
        memory_sequence_length: Any = None,
        normalize: bool = False,
        probability_fn: Callable[[Any], Any] | None = None,
        score_mask_value: Any = None,
        dtype: Any = None,
        custom_key_value_fn: Callable[[Any, Any], tuple[Any, Any]] | None = None,
        name: str = "BahdanauAttention",
    ) -> None:
        dtype = dtype or tf.float32
        super().__init__(
            query_layer=_dense(num_units, "query_layer", dtype),
            memory_layer=_dense(num_units, "memory_layer", dtype),
            memory=memory,
            probability_fn=_softmax_of(probability_fn),
            custom_key_value_fn=custom_key_value_fn,
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value,
            name=name,
        )
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple[Any, Any]:
        with v1.variable_scope(None, "bahdanau_attention", [query]):
            processed = self.query_layer(query) if self.query_layer else query
            processed = tf.expand_dims(processed, 1)
            v = v1.get_variable("attention_v", [self._num_units], dtype=query.dtype)
            if self._normalize:
                g = v1.get_variable(
                    "attention_g",
                    dtype=query.dtype,
                    initializer=v1.constant_initializer(math.sqrt(1.0 / self._num_units)),
                    shape=(),
                )
                b = v1.get_variable(
                    "attention_b", [self._num_units], dtype=query.dtype, initializer=v1.zeros_initializer()
                )
                v = g * v * tf.math.rsqrt(tf.reduce_sum(tf.square(v)))
                score = tf.reduce_sum(v * tf.tanh(self._keys + processed + b), [2])
            else:
                score = tf.reduce_sum(v * tf.tanh(self._keys + processed), [2])
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def hardmax(logits: Any, name: str | None = None) -> Any:
    """One-hot vectors at each row's largest logit."""
    with tf.name_scope(name or "Hardmax"):
        logits = tf.convert_to_tensor(logits, name="logits")
        depth = tf.compat.dimension_value(logits.shape[-1])
        return tf.one_hot(tf.argmax(logits, -1), tf.shape(logits)[-1] if depth is None else depth, dtype=logits.dtype)


class AttentionWrapperState(
    collections.namedtuple(
        "AttentionWrapperState",
        ("cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"),
    )
):
    """An `AttentionWrapper`'s state: the wrapped cell's state, the last attention, the step count, the last
    alignments, their history (TensorArrays, with `alignment_history=True`; else ()) and the mechanisms'
    states."""

    def clone(self, **kwargs: Any) -> "AttentionWrapperState":
        """This state with the fields given replaced; a new tensor must have the replaced one's shape and
        takes its static shape (`zero_state(...).clone(cell_state=encoder_state)`)."""

        def same_shape(old: Any, new: Any) -> Any:
            if isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor):
                if tf.executing_eagerly() and old.shape.as_list() != new.shape.as_list():
                    raise ValueError(
                        "The shape of the AttentionWrapperState is expected to be same as the one to clone. "
                        f"self.shape: {old.shape}, input.shape: {new.shape}"
                    )
                if not tf.executing_eagerly():
                    return _with_shape_of(old, new)
            return new

        return tf.nest.map_structure(same_shape, self, self._replace(**kwargs))


def _with_shape_of(old: Any, new: Any) -> Any:
    """`new`, checked to have `old`'s shape: statically where both are known, else when the graph runs."""
    if old.shape.is_fully_defined() and new.shape.is_fully_defined():
        if old.shape != new.shape:
            raise ValueError(f"Shapes {old.shape} and {new.shape} are incompatible")
        return new
    new.shape.assert_is_compatible_with(old.shape)
    check = v1.assert_equal(tf.shape(old), tf.shape(new), message="Wrong shape for the cloned state")
    with tf.control_dependencies([check]):
        out = tf.identity(new)
    out.set_shape(old.shape.merge_with(new.shape))
    return out


def _attend(mechanism: Any, cell_output: Any, previous_state: Any, layer: Any) -> tuple[Any, Any, Any]:
    """(attention, alignments, the mechanism's next state): the context is the alignments' weighted sum of
    the memory, projected with the cell's output when the wrapper has an attention layer."""
    alignments, next_state = mechanism(cell_output, state=previous_state)
    context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), mechanism.values), [1])
    attention = layer(tf.concat([cell_output, context], 1)) if layer is not None else context
    return attention, alignments, next_state


def _as_tuple(value: Any) -> tuple:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


class AttentionWrapper(v1.nn.rnn_cell.RNNCell):  # type: ignore[name-defined]  # a lazily loaded module
    """An RNN cell with attention over one mechanism or a list of them (see the module docstring)."""

    def __init__(
        self,
        cell: Any,
        attention_mechanism: Any,
        attention_layer_size: Any = None,
        alignment_history: bool = False,
        cell_input_fn: Callable[[Any, Any], Any] | None = None,
        output_attention: bool = True,
        initial_cell_state: Any = None,
        name: str | None = None,
        attention_layer: Any = None,
        attention_fn: Callable[..., tuple[Any, Any, Any]] | None = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(name=name, dtype=dtype)
        self._is_multi = isinstance(attention_mechanism, (list, tuple))
        mechanisms = _as_tuple(attention_mechanism)
        for mechanism in mechanisms:
            if not isinstance(mechanism, AttentionMechanism):
                raise TypeError(
                    "attention_mechanism must be an AttentionMechanism or list of multiple AttentionMechanism "
                    f"instances, saw type: {type(mechanism).__name__}"
                )
        if cell_input_fn is not None and not callable(cell_input_fn):
            raise TypeError(f"cell_input_fn must be callable, saw type: {type(cell_input_fn).__name__}")
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be set")
        if attention_layer_size is not None:
            sizes = _as_tuple(attention_layer_size)
            if len(sizes) != len(mechanisms):
                raise ValueError(
                    "If provided, attention_layer_size must contain exactly one integer per attention_mechanism, "
                    f"saw: {len(sizes)} vs {len(mechanisms)}"
                )
            self._attention_layers: tuple | None = tuple(
                _dense(size, "attention_layer", mechanism.dtype) for size, mechanism in zip(sizes, mechanisms)
            )
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            self._attention_layers = _as_tuple(attention_layer)
            if len(self._attention_layers) != len(mechanisms):
                raise ValueError(
                    "If provided, attention_layer must contain exactly one layer per attention_mechanism, "
                    f"saw: {len(self._attention_layers)} vs {len(mechanisms)}"
                )
            self._attention_layer_size = sum(
                tf.compat.dimension_value(
                    layer.compute_output_shape(
                        [None, cell.output_size + tf.compat.dimension_value(mechanism.values.shape[-1])]
                    )[-1]
                )
                for layer, mechanism in zip(self._attention_layers, mechanisms)
            )
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(tf.compat.dimension_value(m.values.shape[-1]) for m in mechanisms)
        self._attention_fn = attention_fn or _attend
        self._cell = cell
        self._attention_mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn or (lambda inputs, attention: tf.concat([inputs, attention], -1))
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        self._initial_cell_state = None
        if initial_cell_state is not None:
            with tf.name_scope(name or "AttentionWrapperInit"):
                last = tf.nest.flatten(initial_cell_state)[-1]
                batch = tf.compat.dimension_value(last.shape[0]) or tf.shape(last)[0]
                message = (
                    f"When constructing AttentionWrapper {self.name}: Non-matching batch sizes between the memory "
                    "(encoder output) and initial_cell_state.  Are you using the BeamSearchDecoder?  You may need "
                    "to tile your initial state via the tf.contrib.seq2seq.tile_batch function with argument "
                    "multiple=beam_width."
                )
                with tf.control_dependencies(self._batch_checks(batch, message)):
                    self._initial_cell_state = tf.nest.map_structure(
                        lambda s: tf.identity(s, name="check_initial_cell_state"), initial_cell_state
                    )

    def _batch_checks(self, batch_size: Any, message: str) -> list:
        return [v1.assert_equal(batch_size, m.batch_size, message=message) for m in self._attention_mechanisms]

    def _one_or_all(self, values: Any) -> Any:
        values = tuple(values)
        return values if self._is_multi else values[0]

    @property
    def output_size(self) -> Any:
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self) -> AttentionWrapperState:
        mechanisms = self._attention_mechanisms
        return AttentionWrapperState(
            cell_state=self._cell.state_size,
            time=tf.TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._one_or_all(m.alignments_size for m in mechanisms),
            attention_state=self._one_or_all(m.state_size for m in mechanisms),
            alignment_history=self._one_or_all(
                m.alignments_size if self._alignment_history else () for m in mechanisms
            ),
        )

    def zero_state(self, batch_size: Any, dtype: Any) -> AttentionWrapperState:
        """The wrapper's first state: the wrapped cell's (`initial_cell_state` if given, else its zeros),
        zero attention and alignments, and empty alignment histories."""
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            else:
                cell_state = self._cell.get_initial_state(batch_size=batch_size, dtype=dtype)
            message = (
                f"When calling zero_state of AttentionWrapper {self.name}: Non-matching batch sizes between the "
                "memory (encoder output) and the requested batch size.  Are you using the BeamSearchDecoder?  "
                "If so, make sure your encoder output has been tiled to beam_width via "
                "tf.contrib.seq2seq.tile_batch, and the batch_size= argument passed to zero_state is "
                "batch_size * beam_width."
            )
            with tf.control_dependencies(self._batch_checks(batch_size, message)):
                cell_state = tf.nest.map_structure(lambda s: tf.identity(s, name="checked_cell_state"), cell_state)
            alignments = [m.initial_alignments(batch_size, dtype) for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state,
                time=tf.zeros([], dtype=tf.int32),
                attention=zeros_of(self._attention_layer_size, batch_size, dtype),
                alignments=self._one_or_all(alignments),
                attention_state=self._one_or_all(
                    m.initial_state(batch_size, dtype) for m in self._attention_mechanisms
                ),
                alignment_history=self._one_or_all(
                    v1.TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
                    if self._alignment_history
                    else ()
                    for a in alignments
                ),
            )

    def call(self, inputs: Any, state: AttentionWrapperState) -> tuple[Any, AttentionWrapperState]:
        if not isinstance(state, AttentionWrapperState):
            raise TypeError(
                f"Expected state to be instance of AttentionWrapperState. Received type {type(state)} instead."
            )
        cell_output, next_cell_state = self._cell(self._cell_input_fn(inputs, state.attention), state.cell_state)
        batch = tf.compat.dimension_value(cell_output.shape[0]) or tf.shape(cell_output)[0]
        message = (
            f"When applying AttentionWrapper {self.name}: Non-matching batch sizes between the memory (encoder "
            "output) and the query (decoder output).  Are you using the BeamSearchDecoder?  You may need to tile "
            "your memory input via the tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width."
        )
        with tf.control_dependencies(self._batch_checks(batch, message)):
            cell_output = tf.identity(cell_output, name="checked_cell_output")
        previous_states = state.attention_state if self._is_multi else [state.attention_state]
        previous_histories = state.alignment_history if self._is_multi else [state.alignment_history]
        attentions, alignments, states, histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            layer = self._attention_layers[i] if self._attention_layers else None
            attention, alignment, next_state = self._attention_fn(mechanism, cell_output, previous_states[i], layer)
            attentions.append(attention)
            alignments.append(alignment)
            states.append(next_state)
            histories.append(previous_histories[i].write(state.time, alignment) if self._alignment_history else ())
        attention = tf.concat(attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1,
            cell_state=next_cell_state,
            attention=attention,
            attention_state=self._one_or_all(states),
            alignments=self._one_or_all(alignments),
            alignment_history=self._one_or_all(histories),
        )
        return (attention if self._output_attention else cell_output), next_state


def tile_batch(t: Any, multiplier: int, name: str | None = None) -> Any:
    """Each batch entry of `t` (a nested structure of tensors [batch, ...]) repeated `multiplier` times in a
    row: [batch * multiplier, ...], entry 0's copies first (the layout a beam search reads)."""
    with tf.name_scope(name or "tile_batch"):
        return tf.nest.map_structure(lambda one: _tile(one, multiplier), t)


def _tile(t: Any, multiplier: int) -> Any:
    t = tf.convert_to_tensor(t, name="t")
    if t.shape.rank is None or t.shape.rank < 1:
        raise ValueError("t must have statically known rank")
    shape = tf.shape(t)
    tiled = tf.tile(tf.expand_dims(t, 1), [1, multiplier] + [1] * (t.shape.rank - 1))
    tiled = tf.reshape(tiled, tf.concat(([shape[0] * multiplier], shape[1:]), 0))
    batch = tf.compat.dimension_value(t.shape[0])
    tiled.set_shape(tf.TensorShape([None if batch is None else batch * multiplier]).concatenate(t.shape[1:]))
    return tiled
