"""Bytes <-> text for Python files and notebooks, keeping what the user's file had.

Encoding (PEP 263 cookie or BOM) is detected the way Python does and used again on write;
line endings are kept by libcst itself (each line keeps its own newline).
"""

import codecs
import io
import json
import re
import tokenize
from typing import Any


class SourceError(Exception):
    """The bytes cannot be decoded as Python source (unknown encoding, bad bytes)."""


def decode(data: bytes) -> tuple[str, str]:
    """Return (text, encoding); encoding 'utf-8-sig' stands for a BOM to put back."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        codecs.lookup(encoding)
        return data.decode(encoding), encoding
    except (SyntaxError, LookupError, UnicodeDecodeError) as err:
        raise SourceError(f"cannot decode: {err}") from None


def encode(text: str, encoding: str) -> bytes:
    return text.encode(encoding)


# --- notebooks: IPython lines that are not Python are masked before parsing, then restored.
_MAGIC = re.compile(r"^\s*([%!?]|\w[\w.]*\s*=\s*[%!])")
_PLACEHOLDER = "pass  # uai-migrate: notebook magic {}"
_PLACEHOLDER_RE = re.compile(r"^(\s*)pass  # uai-migrate: notebook magic (\d+)$")


def cell_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def set_cell_text(cell: dict[str, Any], text: str) -> None:
    cell["source"] = text.splitlines(keepends=True) if isinstance(cell.get("source"), list) else text


def is_cell_magic(text: str) -> bool:
    """`%%bash`, `%%writefile` ...: the whole cell is not Python."""
    return text.lstrip().startswith("%%")


def mask_magics(text: str) -> tuple[str, list[str]]:
    """Replace IPython-only lines (`%magic`, `!shell`, `x = !cmd`, `obj?`) by placeholder statements."""
    lines: list[str] = []
    saved: list[str] = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if _MAGIC.search(body):
            indent = body[: len(body) - len(body.lstrip())]
            lines.append(indent + _PLACEHOLDER.format(len(saved)) + line[len(body) :])
            saved.append(body)
        else:
            lines.append(line)
    return "".join(lines), saved


def unmask_magics(text: str, saved: list[str]) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        match = _PLACEHOLDER_RE.match(body)
        lines.append(saved[int(match.group(2))] + line[len(body) :] if match else line)
    return "".join(lines)


def load_notebook(data: bytes) -> dict[str, Any]:
    """The notebook's JSON, checked as far as migrating it relies on (cells with str sources)."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise SourceError(f"not a valid notebook: {err}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise SourceError("not a valid notebook: no 'cells' list")
    for index, cell in enumerate(notebook["cells"]):
        if not isinstance(cell, dict):
            raise SourceError(f"not a valid notebook: cell {index} is not an object")
        source = cell.get("source", "")
        if not (isinstance(source, str) or isinstance(source, list) and all(isinstance(s, str) for s in source)):
            raise SourceError(f"not a valid notebook: the source of cell {index} is not text")
    return notebook


def dump_notebook(notebook: dict[str, Any], original: bytes) -> bytes:
    """Serialise like the original file: its indent, non-ASCII kept, its final newline."""
    text = original.decode("utf-8-sig")
    second = text.split("\n", 2)[1] if text.count("\n") >= 2 else ""
    indent = len(second) - len(second.lstrip(" ")) or None
    out = json.dumps(notebook, indent=indent, ensure_ascii=False)
    if text.endswith("\n"):
        out += "\n"
    if "\r\n" in text:
        out = out.replace("\n", "\r\n")
    return out.encode("utf-8-sig" if original.startswith(codecs.BOM_UTF8) else "utf-8")
