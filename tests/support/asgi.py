"""A GET through an ASGI application in this process, the way uvicorn asks: the
request's (empty) body, then, once the response is sent, the client gone."""

from __future__ import annotations

import asyncio
from typing import Any


async def get(
    application: Any, path: str, cookie: bytes = b"", host: str = "testserver"
) -> tuple[int, str]:
    """``path`` asked of ``application`` for ``host``: the status and the body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", host.encode()), (b"cookie", cookie)],
        "client": ("127.0.0.1", 50000),
        "server": (host, 80),
    }
    sent: list[dict] = []
    done = asyncio.Event()
    asked = 0

    async def receive() -> dict:
        nonlocal asked
        asked += 1
        if asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            done.set()

    await application(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return int(sent[0]["status"]), body.decode()
