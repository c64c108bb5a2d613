"""`host:port` checks: the errors users hit first when they write a TF_CONFIG by hand."""

import re

from compat.errors import TFConfigError

# ASCII only: str.isdigit() also accepts '²' or '٢', which int() rejects or reads as another
# number, and gRPC resolves neither blanks nor non-ASCII host names.
_DIGITS = re.compile(r"[0-9]+")
_HOST = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*|\[[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?\]")


def ascii_number(text: str) -> bool:
    """True if `text` is a whole number written in ASCII digits (what a port or task index may be)."""
    return bool(_DIGITS.fullmatch(text))


def check_address(field: str, address: object) -> str:
    """Return `address` if it is `host:port` (IPv6 as `[::1]:port`), else raise naming `field`."""
    if not isinstance(address, str):
        raise TFConfigError(field, f"address must be a 'host:port' string, got {address!r}")
    host, sep, port = address.rpartition(":")
    if not sep or not host or host in ("[", "[]"):
        raise TFConfigError(field, f"address {address!r} has no port (expected 'host:port')")
    if host.startswith("[") != host.endswith("]") or (":" in host and not host.startswith("[")):
        raise TFConfigError(field, f"address {address!r}: write an IPv6 host in brackets, e.g. '[::1]:2222'")
    if not _HOST.fullmatch(host):
        raise TFConfigError(
            field, f"address {address!r} has a bad host {host!r} (ASCII letters, digits, '.', '-', '_'; no blanks)"
        )
    # Five digits at most also keeps int() clear of Python's limit on long digit strings.
    if not ascii_number(port) or len(port) > 5 or not 0 < int(port) < 65536:
        raise TFConfigError(field, f"address {address!r} has a bad port {port!r} (expected 1-65535)")
    return address
