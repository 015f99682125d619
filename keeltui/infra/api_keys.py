"""Which API key goes to which host. Pure: values in, a decision out.

A key is a secret the owner gave to one provider. keeltui sends it only to the
endpoint configured together with it: ``brain.api_key_env`` names the variable in the
config file, and the key goes to the host of that file's ``brain.base_url`` (or the
default URL when the file names none). An ``OPENAI_API_KEY`` that merely happens to be
exported never reaches a local server, and a ``KEEL_BRAIN_BASE_URL`` pointing somewhere
else never takes the key with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from urllib.parse import urlsplit

from keeltui.infra.records import record

# Variables the openai client would read by itself; keeltui never lets it (see brain.py).
AMBIENT_OPENAI_VARIABLES = ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID")


def url_host(url: str) -> str:
    """``host[:port]`` of a URL, lower-cased; "" when it has none or cannot be parsed."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return ""
    if not host:
        return ""
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}" if port else host


def _origin(url: str) -> tuple[str, str]:
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:
        scheme = ""
    return scheme, url_host(url)


@record(frozen=True)  # a record: built before the first frame (keeltui/infra/records.py)
class KeyRoute:
    variable: str
    """The variable named by ``brain.api_key_env`` ("" when none is configured)."""
    host: str
    """The host the requests go to."""
    key: str | None = field(default=None, repr=False)
    """The key to send, or None: nothing is sent."""
    reason: str = ""
    """Why no key is sent (empty when one is)."""

    def describe(self) -> str:
        """One line for ``keeltui doctor``: which variable's key goes to which host."""
        if self.key is not None:
            return f"API key from ${self.variable} goes to {self.host}"
        return f"no API key is sent to {self.host}: {self.reason}"


def route_key(
    api_key_env: str,
    configured_url: str,
    effective_url: str,
    env: Mapping[str, str],
) -> KeyRoute:
    """Decide whether the key named by ``api_key_env`` may go to ``effective_url``.

    ``configured_url`` is the base URL the config file set up (the file's, or the
    default); ``effective_url`` is the one in use after environment overrides.
    """
    host = url_host(effective_url) or effective_url
    if not api_key_env:
        stray = [name for name in ("OPENAI_API_KEY",) if env.get(name)]
        reason = "brain.api_key_env is not set in the config"
        if stray:
            reason += f" (${stray[0]} is exported but not used)"
        return KeyRoute("", host, None, reason)
    value = env.get(api_key_env) or None
    if value is None:
        return KeyRoute(api_key_env, host, None, f"${api_key_env} is not set")
    if _origin(configured_url) != _origin(effective_url):
        return KeyRoute(
            api_key_env, host, None,
            f"${api_key_env} is configured for {url_host(configured_url) or configured_url}, "
            "and KEEL_BRAIN_BASE_URL points elsewhere",
        )
    return KeyRoute(api_key_env, host, value, "")
