"""What the file migrations share: the supported runtime's pins, text decoding and the diff."""

import codecs
import dataclasses
import re
from collections.abc import Callable

from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from codemods._report import PARSE, Entry, Outcome

# The tf2 runtime uai-compat supports: requirements/tf2.txt and requirements/tf2-nodeps.txt
# (tests/codemods/test_files_requirements.py checks these stay equal to them).
RUNTIME = {"tensorflow": "2.21.0", "tf-slim": "1.1.0", "tf-keras": "2.21.0", "tensorflow-estimator": "2.15.0"}
# With their dependencies these pull another TensorFlow (tensorflow-estimator 2.15 pins TF 2.15,
# tf-keras the 570 MB CUDA `tensorflow` wheel): they are installed with --no-deps.
NO_DEPS = ("tf-keras", "tensorflow-estimator")
NO_DEPS_COMMAND = "pip install --no-deps " + " ".join(f"{name}=={RUNTIME[name]}" for name in NO_DEPS)
TENSORFLOW = ("tensorflow", "tensorflow-cpu", "tensorflow-gpu")
# Every TensorFlow release before 2.1 (1.0 .. 1.15, 2.0): a pin admitting one of them is a TF1-era pin.
_OLD_TF = [f"1.{minor}.{patch}" for minor in range(16) for patch in range(6)] + [f"2.0.{p}" for p in range(5)]
# Cheap test before parsing: a file naming none of these has nothing to migrate.
PREFILTER = re.compile(rb"tensorflow|tf[-_]slim|tf[-_]keras", re.IGNORECASE)


# Byte order marks: pip reads a requirements file in UTF-16 by its mark (and drops a UTF-8 one);
# docker drops a UTF-8 mark at the start of a Dockerfile and reads nothing but UTF-8.
UTF16 = {codecs.BOM_UTF16_LE: "utf-16-le", codecs.BOM_UTF16_BE: "utf-16-be"}


@dataclasses.dataclass(frozen=True)
class Decoded:
    """A file's text and how it was stored: its byte order mark (or b"") and the codec of the rest."""

    text: str
    bom: bytes = b""
    encoding: str = "utf-8"

    def encode(self, text: str) -> bytes:
        """`text` stored as the file was."""
        return self.bom + text.encode(self.encoding)


def decode(data: bytes, utf16: bool = False) -> Decoded | None:
    """A file's text: UTF-8 (a byte order mark kept aside) or, if `utf16`, UTF-16 by its mark; else None."""
    marks = {codecs.BOM_UTF8: "utf-8", **(UTF16 if utf16 else {})}
    bom = next((mark for mark in marks if data.startswith(mark)), b"")
    encoding = marks.get(bom, "utf-8")
    try:
        return Decoded(data[len(bom) :].decode(encoding), bom, encoding)
    except UnicodeDecodeError:
        return None


def not_utf8(utf16: bool = False) -> Outcome:
    return Outcome(
        None,
        [
            Entry(
                rule=PARSE,
                severity="error",
                message="file skipped: not UTF-8" + (" nor UTF-16 with a byte order mark" if utf16 else ""),
                manual="save the file as UTF-8, then run uai-migrate again",
            )
        ],
        skipped=True,
    )


def _by_hand(entries: list[Entry]) -> list[Entry]:
    """The entries of a migration that is not written: each change becomes a step for a person."""
    return [
        dataclasses.replace(
            entry,
            severity="warning",
            message=f"{entry.message} (not written: the file is UTF-16)",
            manual="make this change by hand, or save the file as UTF-8 and run uai-migrate again",
        )
        if entry.severity == "info"
        else entry
        for entry in entries
    ]


def migrate_bytes(data: bytes, migrate_text: Callable[[str], tuple[str, list[Entry]]], utf16: bool = False) -> Outcome:
    """The Outcome of `migrate_text` on a file's bytes: files naming no TensorFlow package are left
    unread, a byte order mark is kept. A UTF-16 file (read only if `utf16`) gets its changes as steps
    for a person: the report shows a migration as a diff of UTF-8 text."""
    utf16 = utf16 and data[:2] in UTF16
    if not utf16 and not PREFILTER.search(data):
        return Outcome(None, [])
    decoded = decode(data, utf16)
    if decoded is None:
        return not_utf8(utf16)
    if utf16:
        if not PREFILTER.search(decoded.text.encode("utf-8", "surrogatepass")):
            return Outcome(None, [])
        return Outcome(None, _by_hand(migrate_text(decoded.text)[1]))
    new, entries = migrate_text(decoded.text)
    return Outcome(None if new == decoded.text else decoded.encode(new), entries)


def parse_requirement(text: str) -> Requirement | None:
    try:
        return Requirement(text)
    except InvalidRequirement:
        return None


def _format(name: str, extras: set[str], version: str, marker: Marker | None) -> str:
    extra = f"[{','.join(sorted(extras))}]" if extras else ""
    return f"{name}{extra}=={version}" + (f"; {marker}" if marker else "")


def migrate_requirement(text: str, rule: str) -> tuple[str, list[Entry]] | None:
    """(the runtime's requirement, entries) for a TF1-era requirement string, or None to leave it.

    Only pins that exclude the runtime's version are changed: `tensorflow` alone or
    `tensorflow>=1.15` already install a supported TensorFlow (not so `tensorflow-gpu`).
    """
    requirement = parse_requirement(text)
    if requirement is None or requirement.url:
        return None
    name = canonicalize_name(requirement.name)
    spec = requirement.specifier
    if name in TENSORFLOW:
        version = RUNTIME["tensorflow"]
        # tensorflow-gpu has no release after 2.11 (2.12 is a package that refuses to install): a TF1-era
        # requirement on it that admits the runtime's version, unpinned included, gets nothing pip installs.
        admits_runtime = spec.contains(version, prereleases=True) and name != "tensorflow-gpu"
        if admits_runtime or not any(spec.contains(v) for v in _OLD_TF):
            return None
        extras = set(requirement.extras)
        new_name: str = name
        if name == "tensorflow-gpu":  # no longer published since 2.12: the GPU libraries are an extra
            new_name, extras = "tensorflow", extras | {"and-cuda"}
        new = _format(new_name, extras, version, requirement.marker)
        entries = [Entry(rule=rule, message=f"{text} -> {new}: the TensorFlow uai-compat supports")]
        return new, entries
    if name in ("tf-slim", "tensorflow-estimator") and not spec.contains(RUNTIME[name], prereleases=True):
        new = _format(name, set(requirement.extras), RUNTIME[name], requirement.marker)
        return new, [Entry(rule=rule, message=f"{text} -> {new}: the version uai-compat's tf2 runtime uses")]
    return None


def no_deps_entry(rule: str, line: int, col: int) -> Entry:
    """The step a person takes after TensorFlow was moved to 2.x: compat's packages that need --no-deps."""
    return Entry(
        rule=rule,
        severity="warning",
        line=line,
        col=col,
        message="TensorFlow 2.21 runs TF1 code through uai-compat, which also needs "
        + " and ".join(f"{n}=={RUNTIME[n]}" for n in NO_DEPS)
        + " installed without their dependencies",
        manual=f"run `{NO_DEPS_COMMAND}` after this install (as requirements/tf2-nodeps.txt does) "
        "and install uai-compat",
    )
