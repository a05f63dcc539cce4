"""A small phone-like client for a running server: plain HTTP posts + one WebSocket.

It drives the app the way a phone does: it keeps its own cookies (``sessionid``
and ``csrftoken``), sends the CSRF token with every POST, and listens on the
session's socket for server-rendered fragments. Only the standard library is used
for HTTP (urllib, no proxies, no redirects followed); sockets use ``websockets``.

Used by the multi-process tests and by the benchmarks::

    phone = Phone("http://127.0.0.1:8000")
    code = phone.create_session(host_seat="dstructor")
    phone.shot(code, "dstructor", "banshee")
    async with phone.socket(code) as ws:
        html = await ws.recv()
"""

from __future__ import annotations

import asyncio
import http.client
import http.cookiejar
import ipaddress
import itertools
import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.message import Message

CHARACTERS = ("dstructor", "banshee", "dozer", "violet", "sprog")
DEFAULT_TIMEOUT = 10.0

_VERSION = re.compile(r'<div id="(?:status|ack)"[^>]*\bdata-version="(\d+)"')
_DAMAGE = re.compile(r'\bdata-damage="(\d+)"')
_CODE = re.compile(r"/s/([A-Za-z0-9]+)/")


@dataclass
class Response:
    status: int
    url: str
    headers: Message
    body: bytes = field(repr=False)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")

    def expect(self, *statuses: int) -> Response:
        if self.status not in statuses:
            raise AssertionError(
                f"{self.url} answered {self.status}, expected {statuses}: {self.text[:500]}"
            )
        return self


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # hand the 3xx back as an HTTPError; Phone turns it into a Response


_keys = itertools.count()
_keys_lock = threading.Lock()


def fresh_key() -> str:
    """A one-time action key, unique across processes and threads."""
    with _keys_lock:
        n = next(_keys)
    return f"k-{uuid.uuid4().hex[:16]}-{n}"


class Phone:
    """One phone: its own cookie jar, so its own Django session and seat.

    Thread-safe enough to be used from a thread pool (urllib's ``CookieJar``
    locks itself); each call opens its own connection, unless ``keep_alive``: then
    the phone keeps one HTTP/1.1 connection open and reuses it, as a browser does
    (one request at a time per phone, then).
    """

    def __init__(
        self,
        base: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        keep_alive: bool = False,
        lan: bool = False,
    ) -> None:
        parsed = urllib.parse.urlsplit(base)
        if parsed.hostname not in {"127.0.0.1", "localhost", "::1"} and not (
            lan and ipaddress.ip_address(parsed.hostname or "0.0.0.0").is_private
        ):
            raise ValueError("Phone only talks to a server on this machine or its local network")
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),  # never go through a proxy, even if one is set
            urllib.request.HTTPCookieProcessor(self.jar),
            _NoRedirect(),
        )
        self.keep_alive = keep_alive
        self._connection: http.client.HTTPConnection | None = None

    # ------------------------------------------------------------ cookies

    def cookie(self, name: str) -> str:
        for cookie in self.jar:
            if cookie.name == name:
                return cookie.value or ""
        return ""

    @property
    def csrf_token(self) -> str:
        return self.cookie("csrftoken")

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar if c.value is not None)

    # ------------------------------------------------------------ HTTP

    def request(
        self,
        method: str,
        path: str,
        fields: Mapping[str, str] | Sequence[tuple[str, str]] | None = None,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        url = path if path.startswith("http") else self.base + path
        data = urllib.parse.urlencode(fields or {}).encode() if method == "POST" else None
        request = urllib.request.Request(url, data=data, method=method)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        if data is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        if self.keep_alive:
            return self._request_kept_alive(request)
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return Response(answer.status, url, answer.headers, answer.read())
        except urllib.error.HTTPError as error:  # 3xx (not followed) and 4xx/5xx
            with error:
                body = error.read()
            return Response(error.code, url, error.headers, body)

    def _request_kept_alive(self, request: urllib.request.Request) -> Response:
        """``request`` on this phone's open connection (opened again if the server
        closed it), with the cookie jar read and updated as urllib would."""
        self.jar.add_cookie_header(request)
        parts = urllib.parse.urlsplit(request.full_url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        headers = dict(request.header_items())
        for attempt in (1, 2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(
                    parts.hostname, parts.port, timeout=self.timeout
                )
            try:
                self._connection.request(request.get_method(), target, request.data, headers)
                answer = self._connection.getresponse()
                body = answer.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self._connection.close()
                self._connection = None
                if attempt == 2:
                    raise
        self.jar.extract_cookies(answer, request)
        if answer.will_close:
            self._connection.close()
            self._connection = None
        return Response(answer.status, request.full_url, answer.headers, body)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def get(self, path: str, *, headers: Mapping[str, str] | None = None) -> Response:
        return self.request("GET", path, headers=headers)

    def post(
        self,
        path: str,
        fields: Mapping[str, str] | None = None,
        *,
        htmx: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """POST a form with this phone's CSRF token (fetching one first if needed)."""
        if not self.csrf_token:
            self.get("/join/").expect(200)  # any page sets the cookie; this one is small
        data = {"csrfmiddlewaretoken": self.csrf_token, **(fields or {})}
        all_headers = {"HX-Request": "true"} if htmx else {}
        all_headers.update(headers or {})
        return self.request("POST", path, data, headers=all_headers)

    # ------------------------------------------------------------ the app

    def create_session(
        self,
        players: Sequence[str] = CHARACTERS,
        *,
        first: str | None = None,
        host_seat: str | None = None,
        skulls: int = 8,
        edit_policy: str = "table",
    ) -> str:
        """Create an Adrenaline session through the setup form; return its code."""
        self.get("/new/adrenaline/").expect(200)
        fields = {f"play_{c}": "on" for c in players}
        fields.update(
            skulls=str(skulls),
            first=first or players[0],
            host_seat=host_seat or "",
            edit_policy=edit_policy,
        )
        answer = self.post("/new/adrenaline/", fields).expect(302)
        match = _CODE.search(answer.location)
        if not match:
            raise AssertionError(f"unexpected redirect after creating a session: {answer.location}")
        return match.group(1)

    def claim(self, code: str, index: int, *, htmx: bool = True) -> Response:
        """Sit in seat ``index``: with htmx the phone is told to load its table again
        (204, ``HX-Refresh``), without it sent back to it (302); nothing rendered."""
        answer = self.post(f"/s/{code}/seats/{index}/claim", htmx=htmx).expect(204 if htmx else 302)
        if htmx and answer.headers.get("HX-Refresh") != "true":
            raise AssertionError(f"sitting down did not reload the table: {answer.headers}")
        return answer

    def act(
        self, code: str, fields: Mapping[str, str], *, key: str | None = None, live: bool = False
    ) -> Response:
        """Post one action as htmx does; the answer holds this phone's fresh fragments,
        or (``live``: its socket is open, as app.js says) just an acknowledgement."""
        headers = {"X-Segnalino-Live": "1"} if live else None
        return self.post(
            f"/s/{code}/act", {"key": key or fresh_key(), **fields}, htmx=True, headers=headers
        )

    def shot(
        self, code: str, shooter: str, target: str, damage: int = 1, marks: int = 0
    ) -> Response:
        return self.act(
            code,
            {
                "type": "shot",
                "shooter": shooter,
                "hits.0.target": target,
                "hits.0.damage": str(damage),
                "hits.0.marks": str(marks),
            },
        )

    def adjust(self, code: str, player: str, field: str, delta: int) -> Response:
        return self.act(
            code, {"type": "adjust", "player": player, "field": field, "delta": str(delta)}
        )

    def undo(self, code: str, *, expected: int | None = None) -> Response:
        fields = {"key": fresh_key()}
        if expected is not None:
            fields["expected"] = str(expected)
        return self.post(f"/s/{code}/undo", fields, htmx=True)

    # ------------------------------------------------------------ socket

    def ws_url(self, code: str, lang: str = "en") -> str:
        scheme = "wss" if self.base.startswith("https") else "ws"
        return f"{scheme}://{self.base.split('://', 1)[1]}/ws/s/{code}/?lang={lang}"

    def socket(
        self,
        code: str,
        *,
        lang: str = "en",
        open_timeout: float = 10.0,
        compression: str | None = "deflate",
    ):
        """``async with phone.socket(code) as ws``: this phone's live socket. It asks
        for permessage-deflate, as every browser does (uvicorn agrees, daphne
        does not); ``compression=None`` does not."""
        from websockets.asyncio.client import connect

        return connect(
            self.ws_url(code, lang),
            origin=self.base,
            additional_headers={"Cookie": self.cookie_header()},
            proxy=None,  # never through a proxy, even if the environment names one
            compression=compression,
            open_timeout=open_timeout,
            max_size=2**22,
        )


def tap_message(code: str, fields: Mapping[str, str], *, key: str | None = None) -> str:
    """A game action as a phone sends it on its socket (``app.js``): the form's
    fields and one-time key, url-encoded, and the path it would be POSTed to."""
    body = urllib.parse.urlencode({"key": key or fresh_key(), **fields})
    return json.dumps({"type": "tap", "path": f"/s/{code}/act", "body": body})


def socket_answer(frame: str | bytes) -> dict | None:
    """The socket's answer to a tap (``done``, ``refused`` or ``failed``), if ``frame``
    is one; None for a fragment or a pong."""
    text = frame.decode() if isinstance(frame, bytes) else frame
    if not text.startswith("{"):
        return None
    message = json.loads(text)
    return message if message.get("type") in {"done", "refused", "failed"} else None


# ---------------------------------------------------------------- reading fragments


def frame_version(html: str) -> int | None:
    """The session version a frame (or an htmx answer) shows, if it has a status div."""
    match = _VERSION.search(html)
    return int(match.group(1)) if match else None


def damage_of(html: str, character: str) -> int | None:
    """How many damage tokens the board in ``html`` shows for ``character``."""
    # The whole board (a page, a first frame, a board whose frame changed) or, after
    # a hit, only its track (``core-…``, sent alone).
    found = re.search(rf'\bid="(?:player|core)-{re.escape(character)}"', html)
    if found is None:
        return None
    damage = _DAMAGE.search(html, found.end())
    return int(damage.group(1)) if damage else None


async def recv_until(ws, predicate, timeout: float) -> str:
    """Read frames until ``predicate(frame)`` holds; TimeoutError after ``timeout`` s."""

    async def read() -> str:
        while True:
            frame = await ws.recv()
            if isinstance(frame, bytes):
                frame = frame.decode()
            if predicate(frame):
                return frame

    return await asyncio.wait_for(read(), timeout)
