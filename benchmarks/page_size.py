"""Transferred size of the phone page: its HTML plus every CSS and JS file it references.

A production-like server is started on 127.0.0.1 (DJANGO_DEBUG=0, manifest static
files after ``collectstatic``, so WhiteNoise serves its pre-compressed copies). A
5-player session is created by a phone that also takes a seat, and the page is
fetched the way that phone would, with ``Accept-Encoding: gzip``. Sizes are the
bytes of each body as received (compressed), without HTTP headers.

For information, not in the total: images on the page (the invite QR code) and the
first WebSocket frame, which the page receives as soon as it connects.

    .venv/bin/python benchmarks/page_size.py [--budget-kb 60]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import re
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import embedded_env, write_results

from tests.support.client import CHARACTERS, Phone
from tests.support.servers import collect_static, running_server

CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
MAX_RESOURCES = 50


class References(HTMLParser):
    """Stylesheets, scripts and images an HTML page loads, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []  # (kind, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        rel = a.get("rel", "").lower().split()
        if tag == "link" and "stylesheet" in rel and a.get("href"):
            self.found.append(("css", a["href"]))
        elif tag == "link" and "modulepreload" in rel and a.get("href"):
            self.found.append(("js", a["href"]))
        elif tag == "script" and a.get("src"):
            self.found.append(("js", a["src"]))
        elif tag == "img" and a.get("src"):
            self.found.append(("image", a["src"]))


def fetch(phone: Phone, url: str) -> dict[str, Any]:
    answer = phone.get(url, headers={"Accept-Encoding": "gzip"})
    encoding = answer.headers.get("Content-Encoding", "")
    body = gzip.decompress(answer.body) if encoding == "gzip" else answer.body
    length = answer.headers.get("Content-Length")
    return {
        "url": urlsplit(url).path,
        "status": answer.status,
        "type": answer.headers.get_content_type(),
        "encoding": encoding or "identity",
        "bytes": len(answer.body),
        "content_length": int(length) if length and length.isdigit() else None,
        "uncompressed_bytes": len(body),
        "_text": body.decode("utf-8", errors="replace"),
    }


collectstatic = collect_static


async def first_frame_bytes(phone: Phone, code: str) -> int:
    async with phone.socket(code) as ws:
        frame = await asyncio.wait_for(ws.recv(), 10)
    return len(frame.encode() if isinstance(frame, str) else frame)


def measure(base: str) -> dict[str, Any]:
    phone = Phone(base)
    code = phone.create_session(CHARACTERS, first=CHARACTERS[0], host_seat=CHARACTERS[0])
    page_url = f"{base}/s/{code}/"
    page = fetch(phone, page_url)
    if page["status"] != 200:
        raise RuntimeError(f"the session page answered {page['status']}")
    page["kind"] = "html"

    parser = References()
    parser.feed(page["_text"])
    counted = [page]
    extra: list[dict[str, Any]] = []
    seen = {page["url"]}
    queue = list(parser.found)
    while queue and len(seen) < MAX_RESOURCES:
        kind, ref = queue.pop(0)
        url = urljoin(page_url, ref)
        if urlsplit(url).netloc != urlsplit(base).netloc or urlsplit(url).path in seen:
            continue  # only this server, each file once
        seen.add(urlsplit(url).path)
        resource = fetch(phone, url)
        resource["kind"] = kind
        (extra if kind in {"image", "font"} else counted).append(resource)
        if kind == "css":  # images and fonts a stylesheet pulls in
            for match in CSS_URL.finditer(resource["_text"]):
                if not match.group(1).startswith("data:"):
                    queue.append(("image", urljoin(url, match.group(1))))

    frame = asyncio.run(first_frame_bytes(phone, code))
    for resource in counted + extra:
        resource.pop("_text", None)
    return {
        "resources": counted,
        "not_counted": extra,
        "total_bytes": sum(r["bytes"] for r in counted),
        "total_uncompressed_bytes": sum(r["uncompressed_bytes"] for r in counted),
        "socket_first_frame_bytes": frame,
    }


def kb(n: int) -> str:
    return f"{n / 1024:.1f}"


def report(result: dict[str, Any], budget_kb: float) -> None:
    head = f"{'resource':<56}{'type':<24}{'encoding':<10}{'KB sent':>8}{'KB raw':>8}"
    print()
    print(head)
    print("-" * len(head))
    for r in result["resources"]:
        problem = "" if r["status"] == 200 else f"  (HTTP {r['status']})"
        print(
            f"{r['url']:<56}{r['type']:<24}{r['encoding']:<10}"
            f"{kb(r['bytes']):>8}{kb(r['uncompressed_bytes']):>8}{problem}"
        )
    print("-" * len(head))
    total = result["total_bytes"]
    verdict = "within" if total <= budget_kb * 1024 else "OVER"
    print(
        f"{'total (HTML + CSS + JS)':<90}{kb(total):>8}{kb(result['total_uncompressed_bytes']):>8}"
    )
    print(f"{verdict} the {budget_kb:g} KB budget")
    print()
    print("Not counted above:")
    for r in result["not_counted"]:
        print(f"  {r['url']:<54}{r['type']:<24}{r['encoding']:<10}{kb(r['bytes']):>8} KB")
    frame = result["socket_first_frame_bytes"]
    print(f"  {'first WebSocket frame (no compression on the socket)':<88}{kb(frame):>8} KB")
    print(f"  {'page + first frame':<88}{kb(result['total_bytes'] + frame):>8} KB")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget-kb", type=float, default=60.0)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="segnalino-page-") as directory:
        env = embedded_env(directory, SEGNALINO_MANIFEST_STATIC="1")
        collectstatic(env)
        with running_server(env) as base:
            result = measure(base)
    report(result, args.budget_kb)
    missing = [r["url"] for r in result["resources"] if r["status"] != 200]
    path = write_results(
        "page_size.json",
        {
            "settings": {
                "server": "1 daphne process, DJANGO_DEBUG=0, SEGNALINO_MANIFEST_STATIC=1",
                "page": "session page of a 5-player table, creator sitting in seat 1",
                "accept_encoding": "gzip",
                "budget_kb": args.budget_kb,
            },
            **result,
        },
    )
    print(f"Written to {path}")
    if missing:
        print(f"Not served: {missing}")
    return 1 if missing or result["total_bytes"] > args.budget_kb * 1024 else 0


if __name__ == "__main__":
    sys.exit(main())
