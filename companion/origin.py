"""Which pages may open a table's socket: the app's own, exactly.

Channels' ``AllowedHostsOriginValidator`` compares only the host name, so a page
served from another port or scheme of an allowed host (``http://localhost:9999``)
could open a phone's socket with its cookies. Here the Origin must be the very
address the socket was opened on (scheme, host and port, as the Host header says),
or one of ``CSRF_TRUSTED_ORIGINS`` (``SEGNALINO_PUBLIC_URL`` behind a proxy).
The host itself must still be allowed (``ALLOWED_HOSTS``).
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.conf import settings


def same_origin(scope: dict[str, Any]) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1").rstrip("/")
    host = headers.get(b"host", b"").decode("latin-1")
    if not origin or not host:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return origin == f"{scheme}://{host}"


class SameOriginValidator:
    """ASGI middleware for the WebSocket router: deny any other origin."""

    def __init__(self, application: Any) -> None:
        self.application = AllowedHostsOriginValidator(application)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
