"""Card reference: search response time over the whole catalog, and card page size.

A production-like server (DJANGO_DEBUG=0, catalogs loaded, manifest static files)
is started on 127.0.0.1, on each backend asked for: the embedded SQLite default
(close matches by RapidFuzz) and PostgreSQL (close matches by pg_trgm). For every
card of every game the script searches the way a phone does while typing, with the
``HX-Request`` header htmx sends: the first 3 letters of its English and Italian
names, the whole names, one word of its text, each name with a typo (two letters
swapped, one left out: close matches), and a word that is close to nothing (both
close-match passes run, the slowest search); then the same queries with a game
filter, and a set of filter-only searches. Each query is timed from sending the
request to having the whole body, one at a time; for the typos it also counts how
often the card is found, and found first. Then, on the first backend, every card
page is fetched with ``Accept-Encoding: gzip`` and its transferred size reported;
for the largest one, with the CSS and JS it references (what a phone downloads
opening a shared link).

    .venv/bin/python benchmarks/search.py [--rounds 2] [--backend embedded|pg|both]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, embedded_env, ensure_database, percentile, pg_env, write_results
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


def typos(name: str) -> list[str]:
    """The name with its longest word mistyped: two letters swapped, one left out."""
    folded = fold(name).split()
    longest = max(folded, key=len)
    if len(longest) < 5:
        return []
    i = len(longest) // 2
    swapped = longest[: i - 1] + longest[i] + longest[i - 1] + longest[i + 1 :]
    dropped = longest[:i] + longest[i + 1 :]
    return [
        " ".join(typo if word == longest else word for word in folded)
        for typo in (swapped, dropped)
    ]


def queries(cards: list[dict[str, Any]]) -> list[tuple[str, dict[str, str]]]:
    """(category, GET parameters) for every search the benchmark makes."""
    found: list[tuple[str, dict[str, str]]] = []
    for card in cards:
        for lang in ("en", "it"):
            name = card["name"][lang]
            found.append(("prefix", {"q": name[:3]}))
            found.append(("name", {"q": name}))
            for typo in typos(name):
                if typo != fold(name):
                    found.append(("typo", {"q": typo, "_card": card["name"]["en"]}))
        found.append(("text word", {"q": _text_word(card)}))
        found.append(("close to nothing", {"q": f"zq{card['slug'][:4]}xv"}))
        found.append(("name + game", {"q": card["name"]["it"][:4], "game": card["game"]}))
    for game in sorted({card["game"] for card in cards}):
        found.append(("filters", {"game": game}))
    for colour in ("red", "blue", "yellow"):
        for cost in ("1", "2", "3"):
            found.append(("filters", {"game": "adrenaline", "colour": colour, "cost": cost}))
    found += [("filters", {"damage": "2"}), ("filters", {"priority": "7"}), ("all", {})]
    return found


# A database of its own: the other benchmarks' one may hold another tree's schema.
PG_DATABASE = "segnalino_bench_search"


def _names(answer: Any) -> list[str]:
    """The card names a results fragment lists, in order."""
    body = answer.body
    if answer.headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    html = body.decode("utf-8")
    return [part.split("</span>")[0] for part in html.split('<span class="card-name">')[1:]]


def time_searches(base: str, rounds: int) -> tuple[dict[str, list[float]], dict[str, int]]:
    phone = Phone(base)
    timings: dict[str, list[float]] = {}
    typo_hits = {"typos": 0, "found": 0, "first": 0}
    plan = queries(catalog())
    for params in [p for _, p in plan[:5]]:  # warm up
        phone.get(f"/cards/?{urlencode(params)}", headers=HTMX)
    for round_ in range(rounds):
        for category, wanted in plan:
            params = {k: v for k, v in wanted.items() if not k.startswith("_")}
            started = time.perf_counter()
            answer = phone.get(f"/cards/?{urlencode(params)}", headers=HTMX)
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status != 200:
                raise RuntimeError(f"/cards/?{urlencode(params)} answered {answer.status}")
            timings.setdefault(category, []).append(elapsed)
            timings.setdefault("every search", []).append(elapsed)
            if category == "typo" and round_ == 0:
                listed = _names(answer)
                typo_hits["typos"] += 1
                typo_hits["found"] += wanted["_card"] in listed
                typo_hits["first"] += listed[:1] == [wanted["_card"]]
        started = time.perf_counter()
        phone.get("/cards/?q=rifle", headers={"Accept-Encoding": "gzip"})
        timings.setdefault("full page (no JS)", []).append((time.perf_counter() - started) * 1000)
    return timings, typo_hits


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


BACKENDS = {
    "embedded": "1 daphne process, DJANGO_DEBUG=0, embedded SQLite (RapidFuzz)",
    "pg": "1 daphne process, DJANGO_DEBUG=0, PostgreSQL (pg_trgm) + Redis",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    args = parser.parse_args(argv)
    backends = list(BACKENDS) if args.backend == "both" else [args.backend]
    results: dict[str, Any] = {}
    pages: dict[str, Any] | None = None
    for backend in backends:
        with tempfile.TemporaryDirectory(prefix="segnalino-search-") as directory:
            if backend == "embedded":
                env = embedded_env(directory, SEGNALINO_MANIFEST_STATIC="1")
            else:
                ensure_database(PG_DATABASE)
                env = pg_env(
                    SEGNALINO_MANIFEST_STATIC="1",
                    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{PG_DATABASE}",
                )
            collectstatic(env)
            with running_server(env) as base:
                timings, typo_hits = time_searches(base, args.rounds)
                if pages is None:
                    pages = card_pages(base)
        results[backend] = report(backend, timings, typo_hits)

    assert pages is not None
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
            "settings": {"servers": {b: BACKENDS[b] for b in backends}, "rounds": args.rounds},
            "backends": results,
            "card_pages": pages,
        },
    )
    print(f"Written to {path}")
    return 0


def report(backend: str, timings: dict[str, list[float]], typo_hits: dict[str, int]) -> dict:
    print(f"\n{backend}: {BACKENDS[backend]}")
    print(f"{'search (ms, as you type)':<26}{'n':>6}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    summary = {}
    for category, values in timings.items():
        row = {q: percentile(values, q) for q in (50, 95, 99, 100)}
        summary[category] = {"n": len(values), **{f"p{q}": v for q, v in row.items()}}
        print(f"{category:<26}{len(values):>6}" + "".join(f"{ms(v):>8}" for v in row.values()))
    n = typo_hits["typos"] or 1
    print(
        f"typos: {typo_hits['typos']} names mistyped; the card is listed for "
        f"{typo_hits['found']} ({100 * typo_hits['found'] / n:.0f}%), first for "
        f"{typo_hits['first']} ({100 * typo_hits['first'] / n:.0f}%)"
    )
    return {"search_ms": summary, "typos": typo_hits}


if __name__ == "__main__":
    sys.exit(main())
