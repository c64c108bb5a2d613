"""tf.contrib.seq2seq's helpers: what a `BasicDecoder` feeds its cell at each step, and when a sequence ends.

`TrainingHelper` reads the next input from the given sequence (teacher forcing) and ends each sequence at
its length; `GreedyEmbeddingHelper` feeds back the embedding of the step's argmax and ends a sequence at
the end token. Both sample the argmax of the step's output as `sample_id` (int32), as TF 1.15's did;
`SampleEmbeddingHelper` draws it from the output's softmax instead.
"""

import abc
from collections.abc import Callable
from typing import Any

import tensorflow as tf

from compat.seq2seq._shapes import swap_batch_time

v1 = tf.compat.v1


def embedder(embedding: Any) -> Callable[[Any], Any]:
    """Ids -> their embeddings: `embedding` itself when it is callable, else a lookup in it (the params)."""
    return embedding if callable(embedding) else (lambda ids: v1.nn.embedding_lookup(embedding, ids))


class Helper(abc.ABC):
    """The interface `BasicDecoder` drives: `initialize()` -> (finished, first inputs); at each step
    `sample(time, outputs, state)` -> sample ids, then `next_inputs(time, outputs, state, sample_ids)` ->
    (finished, next inputs, next state)."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any: ...

    @property
    @abc.abstractmethod
    def sample_ids_shape(self) -> Any: ...

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self) -> Any: ...

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple[Any, Any]: ...

    @abc.abstractmethod
    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any: ...

    @abc.abstractmethod
    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any, name: str | None = None
    ) -> tuple[Any, Any, Any]: ...


class _ArgmaxIds(Helper):
    """Scalar int32 sample ids, the argmax of the step's output."""

    @property
    def sample_ids_shape(self) -> Any:
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self) -> Any:
        return tf.int32

    def sample(self, time: Any, outputs: Any, state: Any = None, name: str | None = None) -> Any:
        with tf.name_scope(name or type(self).__name__ + "Sample"):
            return tf.argmax(outputs, axis=-1, output_type=tf.int32)


def _steps_of(sequence: Any) -> Any:
    """A time-major tensor as a TensorArray of its steps."""
    steps = v1.TensorArray(dtype=sequence.dtype, size=tf.shape(sequence)[0], element_shape=sequence.shape[1:])
    return steps.unstack(sequence)


class TrainingHelper(_ArgmaxIds):
    """Feeds the given inputs, step after step; a sequence is finished once its length is read."""

    def __init__(self, inputs: Any, sequence_length: Any, time_major: bool = False, name: str | None = None) -> None:
        with tf.name_scope(name or "TrainingHelper"):
            inputs = tf.nest.map_structure(lambda x: tf.convert_to_tensor(x, name="inputs"), inputs)
            self._inputs = inputs
            steps_first = inputs if time_major else tf.nest.map_structure(swap_batch_time, inputs)
            self._steps = tf.nest.map_structure(_steps_of, steps_first)
            self._sequence_length = tf.convert_to_tensor(sequence_length, name="sequence_length")
            if self._sequence_length.shape.rank != 1:
                raise ValueError(
                    f"Expected sequence_length to be a vector, but received shape: {self._sequence_length.shape}"
                )
            self._zero_inputs = tf.nest.map_structure(lambda x: tf.zeros_like(x[0, :]), steps_first)
            self._batch_size = tf.size(sequence_length)

    @property
    def inputs(self) -> Any:
        return self._inputs

    @property
    def sequence_length(self) -> Any:
        return self._sequence_length

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def _read(self, time: Any, finished: Any) -> Any:
        """The inputs of step `time`, or zeros once every sequence is finished (there may be no such step)."""
        return v1.cond(
            tf.reduce_all(finished),
            lambda: self._zero_inputs,
            lambda: tf.nest.map_structure(lambda steps: steps.read(time), self._steps),
        )

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        with tf.name_scope(name or "TrainingHelperInitialize"):
            finished = tf.equal(0, self._sequence_length)
            return finished, self._read(0, finished)

    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any = None, name: str | None = None
    ) -> tuple[Any, Any, Any]:
        with tf.name_scope(name or "TrainingHelperNextInputs"):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            return finished, self._read(next_time, finished), state


class GreedyEmbeddingHelper(_ArgmaxIds):
    """Feeds back the embedding of each step's argmax, from `start_tokens` on; a sequence is finished at
    `end_token`. `embedding` is a callable of ids or the params of an embedding lookup."""

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any) -> None:
        self._embed = embedder(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._start_tokens.shape.rank != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = tf.size(start_tokens)
        if self._end_token.shape.rank != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embed(self._start_tokens)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        return tf.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any = None, name: str | None = None) -> Any:
        if not isinstance(outputs, tf.Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return tf.argmax(outputs, axis=-1, output_type=tf.int32)

    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any = None, name: str | None = None
    ) -> tuple[Any, Any, Any]:
        finished = tf.equal(sample_ids, self._end_token)
        # once all are finished the inputs are never read: the start inputs stand in
        inputs = v1.cond(tf.reduce_all(finished), lambda: self._start_inputs, lambda: self._embed(sample_ids))
        return finished, inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """`GreedyEmbeddingHelper` drawing each step's id from the softmax of its output (divided by
    `softmax_temperature`) instead of taking the argmax: one multinomial draw per sequence and step, with
    op seed `seed`, as TF 1.15 drew it."""

    def __init__(
        self,
        embedding: Any,
        start_tokens: Any,
        end_token: Any,
        softmax_temperature: Any = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time: Any, outputs: Any, state: Any = None, name: str | None = None) -> Any:
        if not isinstance(outputs, tf.Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        logits = outputs if self._softmax_temperature is None else outputs / self._softmax_temperature
        logits = tf.convert_to_tensor(logits, name="logits")
        flat = logits if logits.shape.rank == 2 else tf.reshape(logits, [-1, tf.shape(logits)[-1]])
        draws = v1.multinomial(flat, 1, seed=self._seed, output_dtype=tf.int64 if logits.dtype.size > 4 else tf.int32)
        return tf.cast(tf.reshape(draws, tf.shape(logits)[:-1]), tf.int32)
