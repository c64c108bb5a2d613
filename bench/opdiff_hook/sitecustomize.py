"""bench/opdiff.py's dumper: put this folder on PYTHONPATH and set OPDIFF_DIR, and the program's first
training step (the first main-thread `session.run` that runs an optimizer op: OPDIFF_TRAIN_OPS, a regular
expression over op types) has every op's output dumped by TensorFlow's own debugger (tfdbg: `watch_graph`
on the run's RunOptions, DebugIdentity ops writing to a file:// root), then exported as
OPDIFF_DIR/<TF version>-<pid>/{tensors.npz, ops.json}. OPDIFF_RUN=n dumps the n-th main-thread run instead.

It runs inside the program on TF 1.15 (Python 3.7, where this repository's packages do not import) as on
TF 2.x under uai-run: standalone, Python 3.7 syntax, nothing imported before TensorFlow is.
"""

import importlib.abc
import importlib.machinery
import json
import os
import re
import shutil
import sys
import threading

_SESSION_MODULES = ("tensorflow.python.client.session", "tensorflow_core.python.client.session")


def _export(dump, out):
    """Every dumped tensor's first value (a node in a loop runs more than once) and its op, in execution order."""
    import numpy as np

    arrays = {}
    ops = []
    seen = set()
    for datum in dump.dumped_tensor_data:  # sorted by timestamp: the execution order
        tensor = f"{datum.node_name}:{datum.output_slot}"
        if tensor in seen:
            continue
        seen.add(tensor)
        value = datum.get_tensor()
        entry = {"tensor": tensor, "op": dump.node_op_type(datum.node_name), "key": ""}
        entry["inputs"] = [name if ":" in name else name + ":0" for name in dump.node_inputs(datum.node_name)]
        if isinstance(value, np.ndarray):
            if value.dtype == object:  # strings: bytes of a fixed width, loadable without pickle
                value = value.astype(bytes)
            entry["key"] = f"t{len(arrays)}"
            arrays[entry["key"]] = value
        ops.append(entry)
    os.makedirs(out)
    np.savez(os.path.join(out, "tensors.npz"), **arrays)
    with open(os.path.join(out, "ops.json"), "w") as handle:
        json.dump({"version": _version(), "ops": ops}, handle)


def _version():
    from tensorflow.python.framework import versions

    return versions.__version__


def _patch(module):
    original = module.BaseSession.run
    train_ops = re.compile(os.environ.get("OPDIFF_TRAIN_OPS", r"^(Resource)?(Sparse)?Apply"))
    wanted = int(os.environ.get("OPDIFF_RUN", "0"))
    state = {"runs": 0, "done": False}

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if state["done"] or threading.current_thread() is not threading.main_thread():
            return original(self, fetches, feed_dict, options, run_metadata)
        from tensorflow.core.protobuf import config_pb2
        from tensorflow.python.debug.lib import debug_data, debug_utils

        state["runs"] += 1
        if wanted and state["runs"] != wanted:
            return original(self, fetches, feed_dict, options, run_metadata)
        root = os.path.join(os.environ["OPDIFF_DIR"], f"raw-{os.getpid()}-{state['runs']}")
        debug_options = config_pb2.RunOptions()
        if options is not None:
            debug_options.CopyFrom(options)
        debug_options.output_partition_graphs = True
        debug_utils.watch_graph(debug_options, self.graph, debug_urls=["file://" + root])
        metadata = config_pb2.RunMetadata()
        result = original(self, fetches, feed_dict, debug_options, metadata)
        if run_metadata is not None:
            run_metadata.MergeFrom(metadata)
        if os.path.isdir(root):
            dump = debug_data.DebugDumpDir(root, partition_graphs=metadata.partition_graphs)
            if wanted or any(train_ops.match(dump.node_op_type(node)) for node in dump.nodes()):
                state["done"] = True
                out = os.path.join(os.environ["OPDIFF_DIR"], f"{_version()}-{os.getpid()}")
                _export(dump, out)
                count = len(dump.dumped_tensor_data)
                print(f"opdiff: dumped run {state['runs']} ({count} tensors) to {out}", file=sys.stderr)
            shutil.rmtree(root, ignore_errors=True)
        return result

    module.BaseSession.run = run


class _Loader(importlib.abc.Loader):
    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _patch(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _Finder(importlib.abc.MetaPathFinder):
    """Wraps the loader of TensorFlow's session module: patched as soon as its body has run."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _SESSION_MODULES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


if os.environ.get("OPDIFF_DIR"):
    sys.meta_path.insert(0, _Finder())
