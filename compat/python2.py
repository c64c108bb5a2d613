"""Is a SyntaxError Python 2 source, or a mistake in Python 3 code? Read by uai-migrate (which ports
Python 2 with its py2-port rule) and uai-run (which stops on either, naming the right next step)."""

import re

# What Python 3's parser says of Python 2's commonest lines: print/exec statements, `except E, e:`,
# octal literals like 0777.
_MESSAGE_HINTS = (
    "Missing parentheses in call to",
    "print",
    "exec",
    "multiple exception types must be parenthesized",
    "leading zeros in decimal integer literals",
)
# The line itself, where Python 3 only says "invalid syntax": print/exec statements, `raise E, msg`,
# backquotes, `<>`, ur'' strings.
_PYTHON2_LINE = re.compile(
    r"""^\s*(print\s+[^\s=(]|print\s*$|exec\s+[^\s=(]|raise\s+[\w.]+\s*,)|`|<>|\bur['"]""", re.IGNORECASE
)


def is_python2(error: SyntaxError) -> bool:
    """Does `error` come from Python 2 source rather than from a Python 3 mistake?"""
    text = error.msg or ""
    return any(hint in text for hint in _MESSAGE_HINTS) or bool(_PYTHON2_LINE.search(error.text or ""))
