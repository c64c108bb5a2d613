"""Dockerfiles: `FROM` lines on TF 1.x / 2.0 images (tensorflow/tensorflow:1.x[-gpu][-py3]...) and
TF1-era pins in `RUN pip install` lines moved to the tf2 runtime. A TensorFlow base this module
does not know (another registry's image, a devel tag, a digest, a build argument) is reported
with the step a person takes, never guessed."""

import dataclasses
import io
import re

from codemods._report import Entry, Outcome
from codemods.files import _common
from codemods.rule_description import Example

ID = "docker-image"
DESCRIPTION = "FROM tensorflow/tensorflow:1.x / 2.0 images and TF1-era pins in RUN pip install -> the tf2 runtime"
LEVEL = "safe"
EXAMPLE = Example(
    why="TF 1.x / 2.0 images cannot run current TensorFlow; the official 2.21 image can, with compat's "
    "packages added with --no-deps (reported). Other TensorFlow bases are reported, not guessed.",
    before="FROM tensorflow/tensorflow:1.15.5-gpu-py3\nRUN pip install --no-cache-dir tf-slim==1.0\n",
    after="FROM tensorflow/tensorflow:2.21.0-gpu\nRUN pip install --no-cache-dir tf-slim==1.1.0\n",
    kind="dockerfile",
)
OFFICIAL = "tensorflow/tensorflow"
_REGISTRY = re.compile(r"^(docker\.io/|index\.docker\.io/|registry-1\.docker\.io/)")
_TAG = re.compile(r"^(?P<version>\d+\.\d+(?:\.\d+)?(?:rc\d+)?|latest|nightly)(?P<flavours>(?:-[a-z0-9]+)*)$")
# Flavours the 1.x tags had that 2.x tags still have (py3 was dropped: every 2.x image is Python 3).
_KEPT_FLAVOURS = ("gpu", "jupyter")
# Something pip reads as a requirement on a TF1-era package, inside a RUN line.
# tensorflow-gpu unpinned too: it has no release after 2.11.
_PIP_PIN = re.compile(
    r"(?<![\w.=/-])(?:(?:tensorflow(?:[-_](?:gpu|cpu|estimator))?|tf[-_]slim)(?:\[[^\]]*\])?"
    r"\s*(?:==|~=|<=|>=|<|>|!=)[^\s'\";&|)]+"
    r"|tensorflow[-_]gpu(?:\[[^\]]*\])?(?![\w.\[=<>~!-]))"
)
_INSTRUCTIONS = frozenset(
    "ADD ARG CMD COPY ENTRYPOINT ENV EXPOSE FROM HEALTHCHECK LABEL MAINTAINER ONBUILD RUN SHELL "
    "STOPSIGNAL USER VOLUME WORKDIR COMMENT".split()
)


def structure(text: str) -> list[dict]:
    """dockerfile-parse's instructions (instruction, startline, endline, content, value)."""
    from dockerfile_parse import DockerfileParser  # a runtime dependency of the migrate extra

    last = len(text.splitlines()) - 1
    # An instruction continued into the end of the file is one docker runs; dockerfile-parse drops
    # it unless a blank line ends it. The blank lines added are not the file's: no line is past `last`.
    ended = text + "\n\n" if text.rstrip().endswith("\\") else text
    found = DockerfileParser(fileobj=io.BytesIO(ended.encode("utf-8")), env_replace=False).structure
    return [dict(i, endline=min(i["endline"], last)) for i in found]


def _image(value: str) -> str | None:
    """The image a FROM value names (after --platform=...), or None."""
    words = [w for w in value.split() if not w.startswith("--")]
    return words[0] if words else None


def _base(image: str) -> tuple[str | None, str | None]:
    """(new image, None), (None, None) to leave it, or (None, why it is not migrated)."""
    name, _, digest = image.partition("@")
    repo, tag = name, "latest"
    if ":" in name.rsplit("/", 1)[-1]:
        repo, tag = name.rsplit(":", 1)
    official = _REGISTRY.sub("", repo) == OFFICIAL
    if not official:
        looks_tf = "tensorflow" in image.lower() or re.search(r"(^|[^a-z])tf[-_.]?1", image.lower())
        return None, (f"{image} looks like a TensorFlow image uai-migrate does not know" if looks_tf else None)
    if "$" in image:
        return None, f"{image}: the tag comes from a build argument"
    match = _TAG.match(tag)
    if not match:
        return None, f"{image}: unknown tag {tag}"
    version, flavours = match["version"], match["flavours"].split("-")[1:]
    old = version.startswith("1.") or re.match(r"2\.0(\.|rc|$)", version)
    if not old and "py3" not in flavours:
        return None, None
    if not old:
        return None, f"{image}: a -py3 tag of the TF 2.1 era"
    unknown = [f for f in flavours if f not in (*_KEPT_FLAVOURS, "py3")]
    if unknown:
        return None, f"{image}: no 2.x counterpart for the {'-'.join(unknown)} flavour"
    if digest:
        return None, f"{image}: pinned by digest"
    new_tag = "-".join([_common.RUNTIME["tensorflow"], *(f for f in _KEPT_FLAVOURS if f in flavours)])
    return f"{repo}:{new_tag}", None


def _replace_in(lines: list[str], first: int, last: int, old: str, new: str) -> tuple[int, int] | None:
    """Replace the first `old` in lines[first..last]; (line, col) of it, 1-based."""
    for index in range(first, last + 1):
        col = lines[index].find(old)
        if col >= 0:
            lines[index] = lines[index][:col] + new + lines[index][col + len(old) :]
            return index + 1, col + 1
    return None


def _replace_read(lines: list[str], first: int, last: int, old: str, new: str) -> tuple[int, int]:
    """`_replace_in` for an `old` read from lines[first..last] themselves, so always there."""
    position = _replace_in(lines, first, last, old, new)
    assert position is not None, f"{old!r} not in lines {first}..{last}"
    return position


def migrate_text(text: str) -> tuple[str, list[Entry]]:
    lines = text.splitlines(keepends=True)
    entries: list[Entry] = []
    moved_at: tuple[int, int] | None = None
    manual = (
        f"use {OFFICIAL}:{_common.RUNTIME['tensorflow']} (-gpu) or python:3.11-slim with the tf2 pins "
        "(see uai-compat's docker/tf2.Dockerfile)"
    )
    for instruction in structure(text):
        first, last = instruction["startline"], instruction["endline"]
        if instruction["instruction"] == "FROM" and (image := _image(instruction["value"])):
            new, problem = _base(image)
            if problem:
                position = _replace_in(lines, first, last, image, image) or (first + 1, 1)
                entries.append(
                    Entry(
                        rule=ID,
                        severity="warning",
                        line=position[0],
                        col=position[1],
                        message=f"base image {problem}: left as it is",
                        manual=manual,
                    )
                )
            elif new:
                line, col = _replace_read(lines, first, last, image, new)
                entries.append(
                    Entry(rule=ID, line=line, col=col, message=f"{image} -> {new}: the TensorFlow uai-compat supports")
                )
                moved_at = moved_at or (line, col)
        elif instruction["instruction"] == "RUN" and "pip" in instruction["value"]:
            for index in range(first, last + 1):
                read = lines[index]  # the matches' positions are in the line as read, before any change
                for match in list(_PIP_PIN.finditer(read)):
                    found = _common.migrate_requirement(match.group(), ID)
                    if found:
                        new, notes = found
                        quoted = read[match.start() - 1 : match.start()] in ("'", '"')
                        if not quoted and re.search(r"[\[;<> ]", new):  # shell globs and redirections
                            new = f'"{new}"'
                        line, col = _replace_read(lines, index, index, match.group(), new)
                        entries.extend(dataclasses.replace(e, line=line, col=col) for e in notes)
                        moved_at = moved_at or (line, col)
    if moved_at and "tf-keras" not in text and "tf_keras" not in text:
        entries.append(_common.no_deps_entry(ID, *moved_at))
    return "".join(lines), entries


def migrate(data: bytes, options: object = None) -> Outcome:
    """The Outcome for one file's bytes (the engine's signature: no option changes this migration)."""
    return _common.migrate_bytes(data, migrate_text)


def parses(data: bytes) -> bool:
    """dockerfile-parse reads it: known instructions only, and every FROM names an image."""
    decoded = _common.decode(data)
    if decoded is None:
        return False
    found = structure(decoded.text)
    return bool(found) and all(
        i["instruction"] in _INSTRUCTIONS and (i["instruction"] != "FROM" or _image(i["value"])) for i in found
    )
