"""bench/reference.py's real programs: bench/realprograms.py's drivers, with their dependencies for any
interpreter (real TF 1.15's Python 3.7 included). Pure logic and this interpreter only: no download,
no TensorFlow run (the bench itself runs them; bench/RESULTS.md)."""

import sys

from tests.support.benchmarks import load_benchmark

realprograms = load_benchmark("realprograms")
reference = load_benchmark("reference")


def test_an_interpreter_is_asked_which_modules_it_lacks_and_its_version():
    version, absent = realprograms.lacking(sys.executable, ["json", "no_such_module_here", "os"])
    assert version == sys.version
    assert absent == ["no_such_module_here"]
    assert realprograms.lacking(sys.executable, []) == (sys.version, [])


def test_an_interpreter_that_lacks_nothing_gets_no_dependency_folder(tmp_path):
    program = realprograms.Program("driver.py", None, "", (("json", {"1.15": "never==1", "": "never==2"}),))
    assert realprograms.dependencies(program, str(tmp_path), "1.15", sys.executable) == ""
    assert not list(tmp_path.iterdir())  # nothing installed, no folder made


def test_the_reference_runs_every_real_programs_driver_in_a_folder_it_makes(tmp_path):
    found = reference.programs()
    real = {name: program for name, program in found.items() if program.real}
    assert {name: program.real for name, program in real.items()} == {
        program.driver: key for key, program in realprograms.PROGRAMS.items()
    }
    for name, program in real.items():
        out = tmp_path / name
        assert program.args(None, str(out), 10) == [str(out)] and out.is_dir()
        assert program.env == realprograms.REPEATABLE
    assert all(not program.real for name, program in found.items() if name not in real)


def test_each_way_runs_in_its_environment():
    assert {way: reference.environment(way) for way in reference.WAYS} == {
        "tf1.15": "tf115",
        "tf1.15 again": "tf115",
        "uai-run 2.15": "tf1",
        "uai-run 2.21": "tf2",
        "migrated 2.15": "tf1",
        "migrated 2.21": "tf2",
    }
    assert set(reference.TENSORFLOW) == set(reference.PYTHON)


def test_an_empty_pin_means_that_tensorflows_release_needs_no_such_module(tmp_path):
    program = realprograms.Program("driver.py", None, "", (("no_such_module_here", {"1.15": "", "": "never==2"}),))
    assert realprograms.dependencies(program, str(tmp_path), "1.15", sys.executable) == ""
    assert not list(tmp_path.iterdir())
