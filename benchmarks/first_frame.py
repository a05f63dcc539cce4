"""What a phone pays when its table's socket connects: the first frame's bytes and
the time Chromium spends applying it, with the page's revision in the socket URL
(``?shown=n``, what app.js sends) and without it (what every phone got before: the
whole table again).

A production-like server is started on 127.0.0.1 (DJANGO_DEBUG=0, hashed static
files). A 5-player Adrenaline table on the default map is created by a phone that
sits in seat 1. Then:

- bytes: a socket opened the way that phone's page opens it, with and without
  ``shown``; everything the server sends in the first second is counted;
- time: the page itself in Debian Chromium, 360 × 740, CPU slowed down four times
  (as Lighthouse's mobile preset does), loaded ``--loads`` times each way (without
  ``shown``: the page's WebSocket is made to drop it). Measured: the time from
  htmx receiving a frame to its swap being done, and the long tasks (over 50 ms)
  after the socket opened.

    .venv/bin/python benchmarks/first_frame.py [--loads 5]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import embedded_env, machine, write_results
from lighthouse import adrenaline_table

from tests.support.client import Phone
from tests.support.servers import collect_static, running_server

CHROMIUM = "/usr/bin/chromium"
_REVISION = re.compile(r'id="status"[^>]*data-revision="(\d+)"')

#: Counts each frame htmx applies (bytes, ms from receipt to swapped) and the long
#: tasks after the socket opened. ``OLD`` also makes the socket drop ``shown``.
_PROBE = """
window.__frames = []; window.__long = []; window.__open = null;
(function () {
  var started = null, size = 0;
  document.addEventListener("htmx:wsOpen", function () { window.__open = performance.now(); });
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var m = e.detail.message;
    if (typeof m !== "string" || m.charAt(0) === "{") return;
    started = performance.now();
    size = m.length;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (started !== null) {
      window.__frames.push({bytes: size, ms: performance.now() - started});
      started = null;
    }
  });
  new PerformanceObserver(function (list) {
    list.getEntries().forEach(function (t) {
      window.__long.push({start: t.startTime, ms: t.duration});
    });
  }).observe({type: "longtask", buffered: true});
  if (window.OLD) {
    var Native = window.WebSocket;
    var Old = function (url, protocols) {
      var old = String(url).replace(/([?&])shown=\\d+&?/, "$1").replace(/[?&]$/, "");
      return new Native(old, protocols);
    };
    Old.prototype = Native.prototype;
    ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Old[k] = Native[k]; });
    window.WebSocket = Old;
  }
})();
"""


async def socket_bytes(phone: Phone, code: str, shown: int | None) -> int:
    """Bytes the server sends a newly connected socket in its first second."""
    from websockets.asyncio.client import connect

    url = phone.ws_url(code) + (f"&shown={shown}" if shown is not None else "")
    total = 0
    async with connect(
        url,
        origin=phone.base,
        additional_headers={"Cookie": phone.cookie_header()},
        proxy=None,
        compression=None,
        max_size=2**22,
    ) as ws:
        try:
            while True:
                frame = await asyncio.wait_for(ws.recv(), 1.0)
                total += len(frame.encode() if isinstance(frame, str) else frame)
        except TimeoutError:
            pass
    return total


def browser_loads(base: str, phone: Phone, code: str, loads: int, old: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    host = urlsplit(base).hostname or "127.0.0.1"
    cookies = [
        {"name": c.name, "value": c.value or "", "domain": host, "path": "/"} for c in phone.jar
    ]
    applied: list[float] = []
    frame_bytes: list[int] = []
    long_tasks: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        try:
            for _ in range(loads):
                context = browser.new_context(
                    viewport={"width": 360, "height": 740},
                    is_mobile=True,
                    has_touch=True,
                    device_scale_factor=2,
                )
                context.add_cookies(cookies)  # type: ignore[arg-type]
                page = context.new_page()
                page.add_init_script(("window.OLD = true;" if old else "") + _PROBE)
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.goto(f"{base}/s/{code}/")
                page.wait_for_selector("#connection[data-state=live]", state="attached")
                page.wait_for_timeout(2500)
                probe = page.evaluate(
                    "({frames: window.__frames, long: window.__long, open: window.__open})"
                )
                first = probe["frames"][:1]
                applied.append(first[0]["ms"] if first else 0.0)
                frame_bytes.append(first[0]["bytes"] if first else 0)
                long_tasks.append(
                    sum(t["ms"] for t in probe["long"] if t["start"] >= (probe["open"] or 0))
                )
                context.close()
        finally:
            browser.close()
    return {
        "first_frame_chars": statistics.median(frame_bytes),
        "apply_ms_median": round(statistics.median(applied), 1),
        "apply_ms_max": round(max(applied), 1),
        "long_tasks_after_open_ms_median": round(statistics.median(long_tasks), 1),
        "loads": loads,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"skipped: {CHROMIUM} is missing (apt-get install -y chromium)")
        return 0
    with tempfile.TemporaryDirectory(prefix="segnalino-frame-") as directory:
        env = embedded_env(directory, SEGNALINO_MANIFEST_STATIC="1")
        collect_static(env)
        with running_server(env) as base:
            phone = Phone(base)
            code = adrenaline_table(phone)
            page = phone.get(f"/s/{code}/").expect(200).text
            found = _REVISION.search(page)
            assert found, "no revision on the page"
            revision = int(found.group(1))
            result = {
                "bytes_without_shown": asyncio.run(socket_bytes(phone, code, None)),
                "bytes_with_shown": asyncio.run(socket_bytes(phone, code, revision)),
                "browser_without_shown": browser_loads(base, phone, code, args.loads, old=True),
                "browser_with_shown": browser_loads(base, phone, code, args.loads, old=False),
            }
    before, after = result["browser_without_shown"], result["browser_with_shown"]
    print(f"{'':<34}{'before (no shown)':>20}{'after (?shown=n)':>20}")
    print(
        f"{'first frame, bytes':<34}{result['bytes_without_shown']:>20}"
        f"{result['bytes_with_shown']:>20}"
    )
    for key, label in (
        ("apply_ms_median", "apply time, ms (median)"),
        ("apply_ms_max", "apply time, ms (max)"),
        ("long_tasks_after_open_ms_median", "long tasks after open, ms"),
    ):
        print(f"{label:<34}{before[key]:>20}{after[key]:>20}")
    path = write_results(
        "first_frame.json",
        {
            "settings": {
                "server": "1 daphne process, DJANGO_DEBUG=0, SEGNALINO_MANIFEST_STATIC=1",
                "page": "session page of a 5-player Adrenaline table with the map, seat 1",
                "browser": f"{CHROMIUM}, 360x740, CPU throttled 4x",
            },
            "machine": machine(),
            **result,
        },
    )
    print(f"Written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
