"""A user file Python 3 cannot parse: uai-run runs files as written, so it stops there in one line.

TF1-era programs were often Python 2 (print statements, `except X, e`); porting them changes the
file, which is uai-migrate's job (its py2-port rule), not something to do at every run.
"""

from compat.errors import CompatError
from compat.python2 import is_python2

RULE = "py2-port"  # uai-migrate's rule that ports Python 2 files
MANUAL = "uai-migrate ports Python 2 code (its py2-port rule): uai-migrate FILE, then run the port"
SYNTAX_MANUAL = "fix the syntax error: this is Python 3 code with a mistake, not Python 2"


class UnparsableSource(CompatError):
    """A file of the user's program that Python 3 cannot parse: Python 2 source, or a plain mistake."""

    def __init__(self, error: SyntaxError) -> None:
        self.path, self.line = error.filename or "?", error.lineno or 0
        self.problem = f"Python 3 cannot parse {self.path}:{self.line} ({error.msg})"
        self.rule, self.manual = (RULE, MANUAL) if is_python2(error) else ("parse", SYNTAX_MANUAL)
        super().__init__(f"{self.problem}; {self.manual}")
