"""docker/tf1.Dockerfile and docker/tf2.Dockerfile: linted by hadolint, parsed by dockerfile-parse, and
installing exactly what the nox session of the same name installs (no Docker engine needed)."""

import ast
import os
import shlex
import subprocess
import sys

import pytest
from dockerfile_parse import DockerfileParser

from tests.support.processes import REPO

ENVS = ("tf1", "tf2")


def _nox_installs():
    """noxfile.py's INSTALLS and PROJECT, read as data (nox itself is not in the test environments)."""
    tree = ast.parse(open(os.path.join(REPO, "noxfile.py")).read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("INSTALLS", "PROJECT"):
                found[node.targets[0].id] = ast.literal_eval(node.value)
    return found["INSTALLS"], found["PROJECT"]


def _dockerfile(env):
    return DockerfileParser(os.path.join(REPO, "docker", f"{env}.Dockerfile"), env_replace=False)


def _pip_installs(parser):
    """The argument lists of every `pip install` the RUN lines run, in order, without --no-cache-dir."""
    found = []
    for instruction in parser.structure:
        if instruction["instruction"] == "RUN":
            for command in instruction["value"].split("&&"):
                words = shlex.split(command)
                if words[:2] == ["pip", "install"]:
                    found.append([w for w in words[2:] if w != "--no-cache-dir"])
    return found


def _included(path):
    """`path` and every requirement file it includes with -r, recursively."""
    files = [path]
    for line in open(os.path.join(REPO, path)).read().splitlines():
        if line.startswith("-r "):
            files += _included(os.path.join(os.path.dirname(path), line.split()[1]))
    return files


def test_hadolint_finds_nothing():
    hadolint = os.path.join(os.path.dirname(sys.executable), "hadolint")
    files = [os.path.join(REPO, "docker", f"{env}.Dockerfile") for env in ENVS]
    result = subprocess.run([hadolint, "--no-color", *files], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("env", ENVS)
def test_the_image_installs_what_the_nox_session_installs(env):
    installs, project = _nox_installs()
    parser = _dockerfile(env)
    pip = _pip_installs(parser)
    # the project itself is installed, not linked: an image has no source tree to edit
    assert pip == [*installs[env], [a for a in project if a != "-e"]]
    copied = [
        word
        for i in parser.structure
        if i["instruction"] == "COPY"
        for word in i["value"].split()[:-1]
        if word.startswith("requirements/")
    ]
    named = [args[args.index("-r") + 1] for args in installs[env]]
    wanted = sorted({f for path in named for f in _included(path)})
    assert sorted(copied) == wanted
    assert all(os.path.isfile(os.path.join(REPO, path)) for path in copied)


@pytest.mark.parametrize("env", ENVS)
def test_the_image_is_pinned_runs_as_a_user_and_trains(env):
    parser = _dockerfile(env)
    base = parser.baseimage
    assert base.startswith("python:{}.{}.".format(*sys.version_info)) and base.endswith("-slim-bookworm")
    users = [i["value"] for i in parser.structure if i["instruction"] == "USER"]
    assert users and users[-1] not in ("root", "0")
    [entrypoint] = [i["value"] for i in parser.structure if i["instruction"] == "ENTRYPOINT"]
    python, flag, module = ast.literal_eval(entrypoint)
    assert (python, flag) == ("python", "-m")
    assert module == {"tf1": "legacy_tf1.imagenet_main", "tf2": "modern_tf2.imagenet_main"}[env]
    assert os.path.isfile(os.path.join(REPO, *module.split(".")) + ".py")
    copied = {i["value"].split()[0] for i in parser.structure if i["instruction"] == "COPY"}
    assert module.split(".")[0] in copied
