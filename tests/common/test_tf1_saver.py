"""compat.tf1_saver: a port's checkpoints kept as TF1's Saver, restored from the folder, kept them (one deleted per
save, the folder's TF1 checkpoints taken over, the restored one saved again at the start), against a real Saver."""

import logging
import pathlib
import re
import shutil

import pytest
import tensorflow as tf

import compat  # noqa: F401
from compat import tf1_saver
from compat.tf1_saver import CheckpointManager


def _kept(folder: pathlib.Path) -> tuple[list[str], list[str]]:
    """(the checkpoints whose files are in `folder`, .meta included; those its state lists)."""
    files = sorted({re.sub(r"^(model\.ckpt-\d+)\..*", r"\1", p.name) for p in folder.glob("model.ckpt-*")})
    state = tf.train.get_checkpoint_state(str(folder))
    return files, [pathlib.Path(p).name for p in state.all_model_checkpoint_paths]


def _tf1_saves(folder: pathlib.Path, steps: list[int], keep: int | None, restore: bool) -> None:
    """A TF1 Saver keeping `keep` saving model.ckpt-<step> for each step, restored from the folder first (as the
    Estimator's session manager restored it and recovered the Saver's list) where `restore`."""
    with tf.Graph().as_default():
        variable = tf.compat.v1.get_variable("v", initializer=1.0)
        saver = tf.compat.v1.train.Saver(max_to_keep=keep, save_relative_paths=True)
        with tf.compat.v1.Session() as session:
            session.run(variable.initializer)
            if restore:
                state = tf.train.get_checkpoint_state(str(folder))
                saver.restore(session, state.model_checkpoint_path)
                saver.recover_last_checkpoints(state.all_model_checkpoint_paths)
            for step in steps:
                saver.save(session, str(folder / "model.ckpt"), global_step=step)


def test_a_restart_keeps_what_the_saver_kept_one_deleted_per_save(tmp_path):
    """Five TF1 checkpoints, then a restart keeping 1 that saves at its start (step 4, the restored one) and at 6:
    the Saver deleted one per save, so three of the five stay."""
    tf1 = tmp_path / "tf1"
    _tf1_saves(tf1, [0, 1, 2, 3, 4], 5, restore=False)
    port = tmp_path / "port"
    shutil.copytree(tf1, port)
    _tf1_saves(tf1, [4, 6], 1, restore=True)

    manager = CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0, name="v")), str(port), 1, "model.ckpt")
    assert manager.latest_checkpoint == str(port / "model.ckpt-4")
    manager.save_at_start(checkpoint_number=4)
    manager.save(checkpoint_number=6)
    assert _kept(port) == _kept(tf1) and len(_kept(tf1)[0]) == 4, (_kept(port), _kept(tf1))
    assert tf.train.latest_checkpoint(str(port)) == str(port / "model.ckpt-6")


def test_none_keeps_every_checkpoint_and_a_fresh_folder_saves_at_its_start(tmp_path):
    tf1, port = tmp_path / "tf1", tmp_path / "port"
    _tf1_saves(tf1, [0, 2, 4], None, restore=False)
    manager = CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0, name="v")), str(port), None, "model.ckpt")
    assert manager.latest_checkpoint is None
    manager.save_at_start(checkpoint_number=0)
    manager.save(checkpoint_number=2)
    manager.save(checkpoint_number=4)
    assert _kept(port)[0] == _kept(tf1)[0] == ["model.ckpt-0", "model.ckpt-2", "model.ckpt-4"]


def test_a_save_leaves_the_root_logger_without_a_handler(tmp_path):
    """(TF >= 2.16's saver logs through absl, which gave a root logger without handlers one: TensorFlow's logger, with
    its own, propagates there and printed each line twice)"""
    manager = CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(tmp_path), 2, "model.ckpt")
    kept, logging.root.handlers = logging.root.handlers, []  # (pytest's capture stands there)
    try:
        manager.save(checkpoint_number=1)
        assert logging.root.handlers == []
    finally:
        logging.root.handlers = kept


def test_a_relative_folder_is_listed_as_the_savers_and_restarts(tmp_path, monkeypatch):
    """A model_dir relative to the working directory (helper-73's pass: the state file listed ../model.ckpt-6, which
    update_checkpoint_state rewrites relative to a relative folder, and the next restart failed to find it)."""
    monkeypatch.chdir(tmp_path)
    _tf1_saves(pathlib.Path("tf1"), [0, 2], 2, restore=False)
    shutil.copytree("tf1", "port")
    _tf1_saves(pathlib.Path("tf1"), [2, 4], 2, restore=True)
    manager = CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0, name="v")), "port", 2, "model.ckpt")
    manager.save_at_start(checkpoint_number=2)
    manager.save(checkpoint_number=4)
    assert (tmp_path / "port" / "checkpoint").read_text() == (tmp_path / "tf1" / "checkpoint").read_text()
    assert _kept(pathlib.Path("port")) == _kept(pathlib.Path("tf1")), _kept(pathlib.Path("port"))
    again = CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0, name="v")), "port/", 2, "model.ckpt")
    assert again.latest_checkpoint is not None and tf.io.gfile.exists(again.latest_checkpoint + ".index")


def _monitored_training(folder: pathlib.Path, last_step: int, **saving: int) -> None:
    """A real MonitoredTrainingSession training to `last_step` with checkpoint_dir `folder` (its scaffold's Saver)."""
    with tf.Graph().as_default():
        loss = tf.compat.v1.get_variable("v", initializer=1.0) ** 2
        step = tf.compat.v1.train.get_or_create_global_step()
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        hooks = [tf.compat.v1.train.StopAtStepHook(last_step=last_step)]
        with tf.compat.v1.train.MonitoredTrainingSession(checkpoint_dir=str(folder), hooks=hooks, **saving) as sess:
            while not sess.should_stop():
                sess.run(train_op)


def test_a_monitored_training_sessions_saver_lists_paths_as_given_and_takes_the_folder_over(tmp_path):
    """MonitoredTrainingSession's scaffold Saver (as learning.train's `Saver()`: save_relative_paths=False, 5 kept)
    lists an absolute folder's checkpoints by their absolute paths, without timestamps, and, restored from the folder,
    takes its checkpoints over: five written a step apart, then a restart to step 6 deletes model.ckpt-0. (Each folder
    is written, not copied: the state's absolute paths would name the other folder's checkpoints.)"""
    tf1, port = tmp_path / "tf1", tmp_path / "port"
    for folder in (tf1, port):
        _monitored_training(folder, 4, save_checkpoint_steps=1)
    _monitored_training(tf1, 6)

    manager = CheckpointManager(
        tf.train.Checkpoint(v=tf.Variable(1.0, name="v")), str(port), 5, "model.ckpt", relative_paths=False
    )
    manager.save_at_start(checkpoint_number=4)
    manager.save(checkpoint_number=6)
    assert _kept(port) == _kept(tf1) and _kept(tf1)[0][0] == "model.ckpt-1", (_kept(port), _kept(tf1))
    state = [(folder / "checkpoint").read_text().replace(str(folder), "<DIR>") for folder in (port, tf1)]
    assert state[0] == state[1] and '"<DIR>/model.ckpt-6"' in state[1], state


def _plain_saves(folder: pathlib.Path, paths: list[tuple[str, int | None]], port: bool) -> list[str]:
    """A run of a Session script's `tf.train.Saver()` saving `saver.save(sess, folder/name, global_step)` for each
    (name, step), by a real TF1 Saver or, where `port`, by the port's compat.tf1_saver.save of its Checkpoint; the
    paths the saves returned."""
    if port:
        checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0, name="v"))
        return [tf1_saver.save(checkpoint, str(folder / name), global_step=step) for name, step in paths]
    with tf.Graph().as_default():
        variable = tf.compat.v1.get_variable("v", initializer=1.0)
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session() as session:
            session.run(variable.initializer)
            return [saver.save(session, str(folder / name), global_step=step) for name, step in paths]


def _state(folder: pathlib.Path) -> str:
    """`folder`'s state file, its folder written as <DIR>."""
    return (folder / "checkpoint").read_text().replace(str(folder), "<DIR>")


@pytest.mark.parametrize("relative", [False, True])
def test_a_session_scripts_saver_keeps_the_checkpoints_a_tf1_saver_kept_across_runs(tmp_path, monkeypatch, relative):
    """A script's tf.train.Saver() (5 kept, the paths listed as given) in three runs of the folder: the first saves
    model.ckpt-0 .. -6 (0 and 1 deleted), the second a path without a step, then -7 and -8 (its Saver lists only
    its own: TF1's new Saver took over none of the state file's, so -2 .. -6 stay on disk unlisted), the third -8
    again (listed once). The same files (.meta aside, which the port does not write), the same state file; in folders
    relative to the working directory too (update_checkpoint_state rewrites such paths relative to the folder)."""
    if relative:
        monkeypatch.chdir(tmp_path)
    root = pathlib.Path("." if relative else tmp_path)
    runs = [
        [("model.ckpt", step) for step in range(7)],
        [("model.ckpt", None), ("model.ckpt", 7), ("model.ckpt", 8)],
        [("model.ckpt", 8), ("other.ckpt", None)],
    ]
    returned = {}
    for port, folder in ((False, root / "tf1"), (True, root / "port")):
        returned[port] = [
            [path.replace(str(folder), "<DIR>") for path in _plain_saves(folder, run, port)] for run in runs
        ]
        assert tf.train.latest_checkpoint(str(folder)) == str(folder / "other.ckpt")
    assert returned[True] == returned[False]
    files = {
        folder.name: sorted({re.sub(r"\.(index|data-.*|meta)$", "", p.name) for p in folder.glob("*.ckpt*")})
        for folder in (root / "tf1", root / "port")
    }
    assert files["port"] == files["tf1"] and "model.ckpt-1" not in files["tf1"], files
    assert _state(root / "port") == _state(root / "tf1"), _state(root / "tf1")
