"""A user file Python 3 cannot parse: uai-run runs files as written, so it stops there in one line.

TF1-era programs were often Python 2 (print statements, `except X, e`); porting them changes the
file, which is uai-migrate's job (its py2-port rule), not something to do at every run.
"""

from compat.errors import CompatError

RULE = "py2-port"  # uai-migrate's rule that ports Python 2 files
MANUAL = "uai-migrate ports Python 2 code (its py2-port rule): uai-migrate FILE, then run the port"


class UnparsableSource(CompatError):
    """A file of the user's program that Python 3 cannot parse (Python 2 source, most likely)."""

    def __init__(self, error: SyntaxError):
        self.path, self.line = error.filename or "?", error.lineno or 0
        self.problem = f"Python 3 cannot parse {self.path}:{self.line} ({error.msg})"
        self.rule, self.manual = RULE, MANUAL
        super().__init__(f"{self.problem}; {MANUAL}")
