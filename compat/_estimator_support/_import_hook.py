"""Run code right after `tensorflow` is imported and right before `tensorflow_estimator` is.

`import compat` must stay cheap and must not import TensorFlow, yet a script that does
`import compat` and later `import tensorflow` should find `tf.estimator`. A meta-path
finder watches just those two top-level names; every other import is untouched.
"""

import importlib.abc
import importlib.machinery
import sys


class _AfterExec(importlib.abc.Loader):
    """Wraps the real loader of a module and calls `after()` once its body has run."""

    def __init__(self, loader, after):
        self._loader = loader
        self._after = after

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._after()

    def __getattr__(self, name):  # resource readers, get_source, is_package...
        return getattr(self._loader, name)


class Watcher(importlib.abc.MetaPathFinder):
    def __init__(self, after_tensorflow, before_estimator):
        self.after_tensorflow = after_tensorflow
        self.before_estimator = before_estimator

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "tensorflow_estimator":
            self.before_estimator()
            return None  # the normal finders load it
        if fullname != "tensorflow":
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _AfterExec(spec.loader, self.after_tensorflow)
        return spec


def install(after_tensorflow, before_estimator):
    if not any(isinstance(finder, Watcher) for finder in sys.meta_path):
        sys.meta_path.insert(0, Watcher(after_tensorflow, before_estimator))
