"""Card reference: search response time over the whole catalog, and card page size.

A production-like server (DJANGO_DEBUG=0, embedded SQLite, catalogs loaded,
manifest static files) is started on 127.0.0.1. For every card of every game the
script searches the way a phone does while typing, with the ``HX-Request`` header
htmx sends: the first 3 letters of its English and Italian names, the whole names,
and one word of its text; then the same queries with a game filter, and a set of
filter-only searches. Each query is timed from sending the request to having the
whole body, one at a time. Then every card page is fetched with
``Accept-Encoding: gzip`` and its transferred size reported; for the largest one,
with the CSS and JS it references (what a phone downloads opening a shared link).

    .venv/bin/python benchmarks/search.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, embedded_env, percentile, write_results
from page_size import References, collectstatic, fetch

from games.text_fold import fold
from tests.support.client import Phone
from tests.support.servers import running_server

HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}


def catalog() -> list[dict[str, Any]]:
    cards = []
    for path in sorted((REPO / "games").glob("*/data/catalog.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        cards += [{**card, "game": document["game"]} for card in document["cards"]]
    return cards


def _text_word(card: dict[str, Any]) -> str:
    text = card.get("text") or {}
    if not isinstance(text, dict):
        text = {}
    words = [w for w in fold(text.get("en", "")).split() if len(w) >= 6]
    return words[0] if words else fold(card["name"]["en"]).split()[0]


def queries(cards: list[dict[str, Any]]) -> list[tuple[str, dict[str, str]]]:
    """(category, GET parameters) for every search the benchmark makes."""
    found: list[tuple[str, dict[str, str]]] = []
    for card in cards:
        for lang in ("en", "it"):
            name = card["name"][lang]
            found.append(("prefix", {"q": name[:3]}))
            found.append(("name", {"q": name}))
        found.append(("text word", {"q": _text_word(card)}))
        found.append(("name + game", {"q": card["name"]["it"][:4], "game": card["game"]}))
    for game in sorted({card["game"] for card in cards}):
        found.append(("filters", {"game": game}))
    for colour in ("red", "blue", "yellow"):
        for cost in ("1", "2", "3"):
            found.append(("filters", {"game": "adrenaline", "colour": colour, "cost": cost}))
    found += [("filters", {"damage": "2"}), ("filters", {"priority": "7"}), ("all", {})]
    return found


def time_searches(base: str, rounds: int) -> dict[str, list[float]]:
    phone = Phone(base)
    timings: dict[str, list[float]] = {}
    plan = queries(catalog())
    for params in [p for _, p in plan[:5]]:  # warm up
        phone.get(f"/cards/?{urlencode(params)}", headers=HTMX)
    for _ in range(rounds):
        for category, params in plan:
            started = time.perf_counter()
            answer = phone.get(f"/cards/?{urlencode(params)}", headers=HTMX)
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status != 200:
                raise RuntimeError(f"/cards/?{urlencode(params)} answered {answer.status}")
            timings.setdefault(category, []).append(elapsed)
            timings.setdefault("every search", []).append(elapsed)
        started = time.perf_counter()
        phone.get("/cards/?q=rifle", headers={"Accept-Encoding": "gzip"})
        timings.setdefault("full page (no JS)", []).append((time.perf_counter() - started) * 1000)
    return timings


def card_pages(base: str) -> dict[str, Any]:
    phone = Phone(base)
    pages = []
    for card in catalog():
        page = fetch(phone, f"{base}/cards/{card['game']}/{card['slug']}/")
        if page["status"] != 200:
            raise RuntimeError(f"{page['url']} answered {page['status']}")
        pages.append(page)
    largest = max(pages, key=lambda p: p["bytes"])
    parser = References()
    parser.feed(largest["_text"])
    assets = []
    for kind, ref in parser.found:
        url = urljoin(base + largest["url"], ref)
        if kind in {"css", "js"} and urlsplit(url).netloc == urlsplit(base).netloc:
            assets.append(fetch(phone, url))
    sizes = sorted(p["bytes"] for p in pages)
    return {
        "pages": len(pages),
        "html_bytes_min": sizes[0],
        "html_bytes_median": sizes[len(sizes) // 2],
        "html_bytes_max": sizes[-1],
        "largest": largest["url"],
        "largest_with_assets_bytes": largest["bytes"] + sum(a["bytes"] for a in assets),
        "assets": [{"url": a["url"], "bytes": a["bytes"]} for a in assets],
    }


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="segnalino-search-") as directory:
        env = embedded_env(directory, SEGNALINO_MANIFEST_STATIC="1")
        collectstatic(env)
        with running_server(env) as base:
            timings = time_searches(base, args.rounds)
            pages = card_pages(base)

    print(f"\n{'search (ms, as you type)':<26}{'n':>6}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    summary = {}
    for category, values in timings.items():
        row = {q: percentile(values, q) for q in (50, 95, 99, 100)}
        summary[category] = {"n": len(values), **{f"p{q}": v for q, v in row.items()}}
        print(f"{category:<26}{len(values):>6}" + "".join(f"{ms(v):>8}" for v in row.values()))
    print(
        f"\ncard pages: {pages['pages']}, HTML gzip {pages['html_bytes_min'] / 1024:.1f}–"
        f"{pages['html_bytes_max'] / 1024:.1f} KB (median {pages['html_bytes_median'] / 1024:.1f})"
    )
    print(
        f"largest, {pages['largest']}, with its CSS and JS: "
        f"{pages['largest_with_assets_bytes'] / 1024:.1f} KB transferred"
    )
    path = write_results(
        "search.json",
        {
            "settings": {
                "server": "1 daphne process, DJANGO_DEBUG=0, embedded SQLite",
                "rounds": args.rounds,
            },
            "search_ms": summary,
            "card_pages": pages,
        },
    )
    print(f"Written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
