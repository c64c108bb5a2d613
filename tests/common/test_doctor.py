"""`python -m compat doctor`: its account of this environment agrees with what imports, and every missing piece
of each TensorFlow from 2.15 to 2.21 gets its one pip line."""

import importlib
import importlib.util
import os
import subprocess
import sys

import pytest

import compat
from compat import doctor
from compat._version import has_keras3
from tests.support.processes import REPO, assert_one_line_error, run_module, run_script

# The tf2 environment's pins (requirements/tf2.txt, tf2-nodeps.txt), which the printed lines must install.
FULL = {"tf-slim": "1.1.0", "tensorflow-estimator": "2.15.0"}
PRESENT = {"uaitrain": "/site", "own_folder": "/site"}


def _findings(env: doctor.Environment) -> dict[str, doctor.Finding]:
    return {finding.piece: finding for finding in doctor.diagnose(env)}


def test_the_report_of_this_environment_agrees_with_what_imports():
    import tensorflow as tf

    compat.install()
    found = _findings(doctor.current())
    assert found["TensorFlow"].state.startswith(tf.__version__ + " ("), found["TensorFlow"]
    # what `tf.keras` is once compat is imported (it is, in this process)
    keras2 = tf.keras.__name__.split(".")[0]
    assert keras2 in ("keras", "tf_keras"), tf.keras.__name__
    if keras2 == "tf_keras":
        assert f"Keras 2 (tf-keras {importlib.import_module('tf_keras').__version__})" in found["tf.keras"].state
    else:
        assert found["tf.keras"].state == f"Keras 2 (keras {importlib.import_module('keras').__version__})"
    assert tf.estimator.Estimator and found["Estimator"].fix is None
    assert importlib.import_module("tf_slim") and found["tf-slim"].fix is None
    assert doctor.fixes(list(found.values())) == [], found


def test_python_m_compat_doctor_prints_the_report_and_exits_0_when_nothing_is_missing(tmp_path):
    result = run_module("compat", ["doctor"], cwd=tmp_path, check=True)
    assert "nothing missing for the runtime" in result.stdout, result.stdout
    for piece in ("TensorFlow", "tf.keras", "Estimator", "tf-slim", "TensorBoard", "uaitrain"):
        assert f"ok {piece} " in " ".join(result.stdout.split()), (piece, result.stdout)
    assert result.stderr == ""


def test_a_keras_choice_of_the_user_that_breaks_tf_layers_is_named_and_it_does_break(tmp_path):
    # on TF >= 2.16 the variable at 0 keeps Keras 3; TF 2.15 with it at 1 looks for tf-keras, which the tf1
    # environment does not install
    if has_keras3():
        env = {"TF_USE_LEGACY_KERAS": "0"}
    else:
        assert importlib.util.find_spec("tf_keras") is None, "the tf1 environment installs no tf-keras"
        env = {"TF_USE_LEGACY_KERAS": "1"}
    result = run_module("compat", ["doctor"], env=env, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    missing = result.stdout.split("to add what is missing:\n")[1].split("optional:")[0]
    assert missing == "  unset TF_USE_LEGACY_KERAS\n", result.stdout
    program = "import compat, tensorflow as tf\ntf.compat.v1.layers.Dense(2)\nprint('built')\n"
    ran = run_script(tmp_path, program, env=env)
    assert ran.returncode != 0 and "built" not in ran.stdout, ran.stdout + ran.stderr[-2000:]
    # TF 2.21: "`Dense` is not available with Keras 3."; TF 2.15: "Keras cannot be imported."
    assert "Keras 3" in ran.stderr or "Keras cannot be imported" in ran.stderr, ran.stderr[-2000:]


def test_doctor_fix_runs_no_pip_for_a_step_only_the_user_can_take(tmp_path):
    # the Keras choice above: its fix is `unset TF_USE_LEGACY_KERAS`, which pip cannot do
    env = {"TF_USE_LEGACY_KERAS": "0" if has_keras3() else "1"}
    result = run_module("compat", ["doctor", "--fix"], env=env, cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stdout + result.stderr
    assert "doctor: pip" not in result.stdout, result.stdout
    assert result.stdout.split("to add what is missing:\n")[1].startswith("  unset TF_USE_LEGACY_KERAS\n")


def test_doctor_fix_changes_nothing_where_nothing_is_missing(tmp_path):
    result = run_module("compat", ["doctor", "--fix"], cwd=tmp_path, check=True)
    assert "doctor: pip" not in result.stdout and "nothing missing for the runtime" in result.stdout, result.stdout


def test_each_fix_line_runs_with_this_pythons_pip_and_the_rest_are_left_to_the_user():
    import sys

    assert doctor.pip_command("pip install --no-deps tf-keras~=2.21.0") == [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "tf-keras~=2.21.0",
    ]
    assert doctor.pip_command('pip install "uai-compat[migrate]"')[-1] == "uai-compat[migrate]"
    assert doctor.pip_command("unset TF_USE_LEGACY_KERAS") is None
    assert doctor.pip_command("pip uninstall the package that installed uaitrain into /x") is None


@pytest.mark.parametrize("minor", range(15, 22))
def test_each_missing_piece_gets_its_pip_line(minor):
    series = f"2.{minor}"
    bare = doctor.Environment(versions={"tensorflow-cpu": f"{series}.0"}, **PRESENT)
    if minor < 16:
        expected = [
            f"pip install keras~={series}.0",
            f"pip install tensorflow-estimator~={series}.0",
            "pip install tf-slim==1.1.0",
            f"pip install tensorboard~={series}.0",
        ]
    else:
        expected = [
            f"pip install --no-deps tf-keras~={series}.0",
            "pip install --no-deps tensorflow-estimator==2.15.0",
            "pip install tf-slim==1.1.0",
            f"pip install tensorboard~={series}.0",
        ]
    assert doctor.fixes(doctor.diagnose(bare)) == expected
    keras = {"keras": f"{series}.0"} if minor < 16 else {"keras": "3.12.0", "tf-keras": f"{series}.1"}
    estimator = {"tensorflow-estimator": f"{series}.0"} if minor < 16 else {}
    full = {"tensorflow-cpu": f"{series}.0", "tensorboard": f"{series}.0", **FULL, **keras, **estimator}
    assert doctor.fixes(doctor.diagnose(doctor.Environment(versions=full, **PRESENT))) == []


def test_a_tf_keras_of_another_release_is_replaced_by_the_matching_one():
    versions = {"tensorflow-cpu": "2.21.0", "keras": "3.12.0", "tf-keras": "2.20.0", "tensorboard": "2.21.0", **FULL}
    found = _findings(doctor.Environment(versions=versions, **PRESENT))
    assert found["tf-keras"].fix == "pip install --no-deps tf-keras~=2.21.0", found["tf-keras"]


def test_without_tensorflow_the_line_installs_it():
    assert doctor.fixes(doctor.diagnose(doctor.Environment(versions={}, **PRESENT))) == [
        "pip install tensorflow-cpu~=2.21.0"
    ]


def test_a_missing_migrate_extra_is_optional():
    versions = {"tensorflow-cpu": "2.15.1", "keras": "2.15.0", "tensorboard": "2.15.2", **FULL}
    versions["tensorflow-estimator"] = "2.15.0"
    env = doctor.Environment(versions=versions, migrate={"libcst": None, "packaging": "26.0"}, **PRESENT)
    found = _findings(env)
    assert found["uai-migrate"].fix == 'pip install "uai-compat[migrate]"' and found["uai-migrate"].optional
    assert doctor.fixes(list(found.values())) == []
    assert 'optional:\n  pip install "uai-compat[migrate]"' in doctor.report(list(found.values()))


def test_python_m_compat_without_a_command_is_a_usage_error(tmp_path):
    result = run_module("compat", [], cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.splitlines()[-1].startswith("python -m compat: error:"), result.stderr


@pytest.mark.parametrize("argv", [["--nosuch"], ["doctor", "--nosuch"]])
def test_python_m_compat_names_an_unknown_option(argv, capsys):
    from compat.__main__ import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == "python -m compat: error: unrecognized arguments: --nosuch"


def test_the_printed_pins_are_the_tf2_environments():
    pins = {}
    for name in ("tf2.txt", "tf2-nodeps.txt"):
        with open(os.path.join(REPO, "requirements", name)) as handle:
            pins.update(line.strip().split("==") for line in handle if "==" in line and not line.startswith("#"))
    assert (pins["tensorflow-estimator"], pins["tf-slim"]) == (doctor.ESTIMATOR_LAST, doctor.TF_SLIM_LAST)
    tf = tuple(int(part) for part in pins["tensorflow-cpu"].split(".")[:2])
    no_tensorflow = doctor.fixes(doctor.diagnose(doctor.Environment(versions={}, **PRESENT)))
    assert tf in doctor.TESTED and no_tensorflow == [f"pip install tensorflow-cpu~={tf[0]}.{tf[1]}.0"]


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (AttributeError("`dense` is not available with Keras 3."), "tf.layers and tf-slim need Keras 2: pip install"),
        (
            ModuleNotFoundError("No module named 'tf_keras'"),
            "Keras 2 is needed: pip install --no-deps tf-keras~=2.21.0",
        ),
        (ModuleNotFoundError("No module named 'tensorflow_estimator'"), "tf.estimator needs tensorflow-estimator: pip"),
    ],
)
def test_a_programs_failure_for_a_missing_piece_is_one_line_naming_the_pip_line(error, line):
    bare = doctor.Environment(versions={"tensorflow-cpu": "2.21.0"})
    assert line in doctor.missing_piece(error, bare)
    installed = doctor.Environment(
        versions={"tensorflow-cpu": "2.21.0", "tf-keras": "2.21.0", "tensorflow-estimator": "2.15.0"}
    )
    assert doctor.missing_piece(error, installed) is None  # the piece is there: the failure is something else
    assert doctor.missing_piece(ValueError("shapes (2,) and (3,) differ"), bare) is None


def test_uai_run_doctor_is_the_doctor(tmp_path):
    ran = run_module("uai_run", ["--doctor"], cwd=tmp_path)
    alone = run_module("compat", ["doctor"], cwd=tmp_path)
    assert ran.returncode == alone.returncode == 0, ran.stderr
    assert ran.stdout == alone.stdout and "TensorFlow" in ran.stdout


def _uai_run_without(tmp_path, source: str, *hidden: str) -> subprocess.CompletedProcess:
    """uai-run of the program `source` in a real environment lacking the distributions `hidden` (their modules and
    metadata): this interpreter's site-packages but those, as links in a folder `python -S` reads through PYTHONPATH.
    A user who installed the wheel and skipped `doctor --fix`."""
    import sysconfig

    site = sysconfig.get_path("purelib")
    folder = tmp_path / "site"
    folder.mkdir()
    for entry in os.listdir(site):
        if not entry.partition("-")[0].lower().startswith(hidden):
            (folder / entry).symlink_to(os.path.join(site, entry))
    program = tmp_path / "program.py"
    program.write_text(source)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONPATH": os.pathsep.join([REPO, str(folder)])}
    command = [sys.executable, "-S", "-m", "uai_run", str(program)]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_uai_run_names_tf_slims_pip_line_where_a_program_imports_tf_contrib_slim_without_it(tmp_path):
    # it said `tf.contrib.slim.nets ... has no drop-in replacement`, as for a name no package provides; a name of
    # a module tf-slim serves that the table maps elsewhere (get_name_scope: TF's own) is still served without it
    source = """
import tensorflow as tf
print("scope %r" % tf.contrib.framework.get_name_scope())
from tensorflow.contrib.slim.nets import resnet_v1
"""
    result = _uai_run_without(tmp_path, source, "tf_slim")
    assert_one_line_error(result, f"tf.contrib.slim needs tf-slim: pip install tf-slim=={doctor.TF_SLIM_LAST}")
    assert result.stdout == "scope ''\n", result.stdout


def test_uai_run_names_the_estimators_pip_line_where_a_program_reads_tf_estimator_without_it(tmp_path):
    # TF >= 2.16 has no tf.estimator of its own: it said `tf.estimator is not available on this TensorFlow ...
    # use its TF2 replacement`, where `doctor --fix` would have given it the Estimator
    source = "import tensorflow as tf\nprint(tf.estimator.Estimator)\n"
    result = _uai_run_without(tmp_path, source, "tensorflow_estimator")
    assert_one_line_error(result, "tf.estimator needs tensorflow-estimator: pip install ")
