"""The unified diff a report shows for one migrated text (the runner adds the ---/+++ header with the path)."""

import difflib


def unified(old: str, new: str) -> str:
    """The diff body of `old` -> `new`, hunks only; a last line without newline is marked as diff does."""
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), "a", "b")
    body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    return body.split("\n", 2)[2]
