"""Daphne (Twisted) drops a request whose first line or a header is longer than
16 KB without a word (``LineReceiver.lineLengthExceeded`` just closes the socket),
so a phone, or a proxy in front, sees a dead connection instead of an answer.
Here it answers ``414 URI Too Long`` first. Imported by ``config.asgi``, which
daphne loads before it listens; harmless anywhere else.
"""

from __future__ import annotations

from typing import Any

_ANSWER = (
    b"HTTP/1.1 414 URI Too Long\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: 29\r\n"
    b"Connection: close\r\n\r\n"
    b"That address is far too long."
)


def _answer_too_long(self: Any, line: bytes) -> None:
    self.transport.write(_ANSWER)
    self.loseConnection()


def install() -> None:
    try:
        from twisted.web import http
    except ImportError:  # not served by daphne
        return
    http.HTTPChannel.lineLengthExceeded = _answer_too_long  # type: ignore[method-assign]
