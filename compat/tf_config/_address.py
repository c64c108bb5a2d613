"""`host:port` checks: the errors users hit first when they write a TF_CONFIG by hand."""

from compat.errors import TFConfigError


def check_address(field, address):
    """Return `address` if it is `host:port` (IPv6 as `[::1]:port`), else raise naming `field`."""
    if not isinstance(address, str):
        raise TFConfigError(field, f"address must be a 'host:port' string, got {address!r}")
    host, sep, port = address.rpartition(":")
    if not sep or not host or host in ("[", "[]"):
        raise TFConfigError(field, f"address {address!r} has no port (expected 'host:port')")
    if host.startswith("[") != host.endswith("]") or (":" in host and not host.startswith("[")):
        raise TFConfigError(field, f"address {address!r}: write an IPv6 host in brackets, e.g. '[::1]:2222'")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise TFConfigError(field, f"address {address!r} has a bad port {port!r} (expected 1-65535)")
    return address
