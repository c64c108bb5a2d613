"""The native rules for eager files in a tree (codemods/engine/tree.py): a module with a main block is proven a program,
eager, from its own file; another module of the tree importing it may run its code in a graph (stable-baselines'
mpi_adam.py, a test program and a class the graph code imports), so there its TensorFlow calls stay at the safe level.
A file migrated alone, or a tree where nothing imports the program, as before."""

from codemods._migrate_file import Options
from tests.support.sources import migrate_tree

NATIVE = Options(select=("tf1-api", "native-variable"), level="native")
PROGRAM = """\
import tensorflow as tf


class Counter:
    def __init__(self):
        self.count = tf.compat.v1.Variable(0.0)


if __name__ == "__main__":
    print(Counter().count.numpy())
"""
CONVERTED = PROGRAM.replace("tf.compat.v1.Variable", "tf.Variable")
IMPORTER = "import tensorflow as tf\nfrom prog import Counter\n\nwith tf.Graph().as_default():\n    Counter()\n"


def test_a_program_another_module_of_the_tree_imports_stays_at_the_safe_level(tmp_path):
    texts, _ = migrate_tree(tmp_path / "alone", {"prog.py": PROGRAM}, NATIVE, "native-variable")
    assert texts["prog.py"] == CONVERTED  # nothing imports it
    files = {"prog.py": PROGRAM, "graph.py": IMPORTER}
    texts, messages = migrate_tree(tmp_path / "tree", files, NATIVE, "native-variable")
    assert texts["prog.py"] == PROGRAM
    [why] = messages["prog.py"]
    assert "the tree's graph.py imports this module: its code may run there in a graph" in why, why
    # migrated alone, the program is not told who imports it
    texts, _ = migrate_tree(tmp_path / "given", files, NATIVE, "native-variable", given=["prog.py"])
    assert texts["prog.py"] == CONVERTED
