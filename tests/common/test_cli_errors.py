"""compat.cli_errors: the one-line edge every command shares."""

import pytest

from compat.cli_errors import main_guard
from compat.errors import DataError


def _raising(error: BaseException):
    @main_guard
    def command() -> int:
        raise error

    return command


@pytest.mark.parametrize(
    ("error", "code", "message"),
    [
        (DataError("CKPT 'x' does not exist\nsecond line"), 2, "error: CKPT 'x' does not exist\\nsecond line"),
        # a Ctrl-C while a command starts (parsing, importing), before it handles signals itself
        (KeyboardInterrupt(), 130, "error: interrupted"),
    ],
)
def test_a_user_error_or_an_early_ctrl_c_is_one_line_and_its_exit_code(capsys, error, code, message):
    with pytest.raises(SystemExit) as exit_:
        _raising(error)()
    assert exit_.value.code == code
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].endswith(message), lines


def test_other_errors_are_left_to_python():
    with pytest.raises(ZeroDivisionError):
        _raising(ZeroDivisionError())()
