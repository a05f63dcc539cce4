"""Lighthouse, mobile preset, on the pages a new player sees: performance,
accessibility and best practices, each out of 100.

A production-like server is started on 127.0.0.1 (DJANGO_DEBUG=0, hashed static
files after ``collectstatic``, served compressed by WhiteNoise). Lighthouse (from the
npm registry, pinned, installed on first use into ``benchmarks/.node/``, ignored by
git) drives Debian Chromium (``/usr/bin/chromium``, headless) with its default
mobile settings: a Moto G Power-sized screen, simulated slow 4G and a CPU four
times slower than this machine's.

Pages: the home page, the card list, the session page of a 5-player Adrenaline
table with the map, as the phone that created it and sits in a seat sees it (its
cookie is sent with every request), and that table's watch page. Each page is
measured ``--runs`` times; the median score is reported.

    .venv/bin/python benchmarks/lighthouse.py [--runs 3] [--min-score 95]

Without Node.js and npm (or Chromium) it says so and skips (exit 0).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, embedded_env, machine, write_results

from tests.support.client import CHARACTERS, Phone
from tests.support.servers import collect_static, running_server

LIGHTHOUSE_VERSION = "12.2.3"  # 13 wants Node 22; Debian has Node 20
NODE_DIR = REPO / "benchmarks" / ".node"
CLI = NODE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
CATEGORIES = ("performance", "accessibility", "best-practices")
_SELECTED_BOARD = re.compile(r'<select id="board".*?<option value="([^"]+)" selected', re.S)
_WATCH_LINK = re.compile(r'href="([^"]*/w/[^"]+/)"')


def why_not() -> str | None:
    """Why Lighthouse cannot run here, or None."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"{tool} is missing (apt-get install -y nodejs npm)"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium)"
    return None


def ensure_lighthouse() -> Path:
    """The Lighthouse CLI at :data:`LIGHTHOUSE_VERSION`, installed with npm if needed."""
    package = CLI.parents[1] / "package.json"
    if CLI.exists() and json.loads(package.read_text())["version"] == LIGHTHOUSE_VERSION:
        return CLI
    NODE_DIR.mkdir(exist_ok=True)
    print(f"Installing lighthouse@{LIGHTHOUSE_VERSION} into {NODE_DIR} …", flush=True)
    subprocess.run(
        [
            "npm",
            "install",
            "--prefix",
            str(NODE_DIR),
            "--no-audit",
            "--no-fund",
            "--save-exact",
            f"lighthouse@{LIGHTHOUSE_VERSION}",
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return CLI


def adrenaline_table(phone: Phone) -> str:
    """A 5-player Adrenaline table on the default map, this phone in seat 1; its code."""
    form = phone.get("/new/adrenaline/").expect(200).text
    board = _SELECTED_BOARD.search(form)
    fields = {f"play_{c}": "on" for c in CHARACTERS}
    fields.update(
        skulls="8",
        first=CHARACTERS[0],
        host_seat=CHARACTERS[0],
        edit_policy="table",
        board=board.group(1) if board else "",
    )
    answer = phone.post("/new/adrenaline/", fields).expect(302)
    return answer.location.rstrip("/").rsplit("/", 1)[-1]


def pages(base: str) -> list[dict[str, Any]]:
    phone = Phone(base)
    code = adrenaline_table(phone)
    page = phone.get(f"/s/{code}/").expect(200).text
    assert 'id="map"' in page, "the table has no map"
    watch = _WATCH_LINK.search(page)
    assert watch, "no watch link on the session page"
    seated = {"Cookie": phone.cookie_header()}
    return [
        {"name": "home", "url": f"{base}/", "headers": {}},
        {"name": "cards", "url": f"{base}/cards/", "headers": {}},
        {"name": "session (seated, map)", "url": f"{base}/s/{code}/", "headers": seated},
        {"name": "watch", "url": base + watch.group(1).split(base, 1)[-1], "headers": {}},
    ]


def lighthouse(cli: Path, url: str, headers: dict[str, str], out: Path) -> dict[str, Any]:
    """One Lighthouse run: the scores (0–100) and the audits that lost points."""
    command = [
        "node",
        str(cli),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if headers:
        command.append(f"--extra-headers={json.dumps(headers)}")
    subprocess.run(
        command,
        check=True,
        capture_output=True,
        timeout=300,
        env={**os.environ, "CHROME_PATH": CHROMIUM},
    )
    report = json.loads(out.read_text())
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    lost = []
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                lost.append(f"{category}: {ref['id']} ({audit.get('displayValue', '')})")
    metrics = {
        key: report["audits"][key].get("numericValue")
        for key in (
            "first-contentful-paint",
            "largest-contentful-paint",
            "total-blocking-time",
            "cumulative-layout-shift",
            "speed-index",
        )
    }
    return {"scores": scores, "lost": lost, "metrics": metrics}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page (median reported)")
    parser.add_argument("--min-score", type=int, default=95)
    args = parser.parse_args(argv)

    reason = why_not()
    if reason:
        print(f"Lighthouse skipped: {reason}")
        return 0
    cli = ensure_lighthouse()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="segnalino-lighthouse-") as directory:
        env = embedded_env(directory, SEGNALINO_MANIFEST_STATIC="1")
        collect_static(env)
        with running_server(env) as base:
            for page in pages(base):
                runs = []
                for run in range(args.runs):
                    out = Path(directory) / f"report-{len(results)}-{run}.json"
                    runs.append(lighthouse(cli, page["url"], page["headers"], out))
                median = {
                    c: int(statistics.median(r["scores"][c] for r in runs)) for c in CATEGORIES
                }
                lost = sorted({item for r in runs for item in r["lost"]})
                results.append(
                    {
                        "page": page["name"],
                        "path": page["url"].removeprefix(base),
                        "median": median,
                        "runs": [r["scores"] for r in runs],
                        "metrics_ms": runs[-1]["metrics"],
                        "lost_points": lost,
                    }
                )
                print(
                    f"{page['name']:<24}"
                    + "  ".join(f"{c} {median[c]:>3}" for c in CATEGORIES)
                    + f"   runs: {[r['scores']['performance'] for r in runs]}",
                    flush=True,
                )
                for item in lost:
                    print(f"    lost points: {item}")
    path = write_results(
        "lighthouse.json",
        {
            "settings": {
                "lighthouse": LIGHTHOUSE_VERSION,
                "preset": "mobile (default): simulated slow 4G, 4x CPU slowdown",
                "browser": f"{CHROMIUM} {CHROME_FLAGS}",
                "server": "1 daphne process, DJANGO_DEBUG=0, SEGNALINO_MANIFEST_STATIC=1",
                "runs_per_page": args.runs,
            },
            "machine": machine(),
            "pages": results,
        },
    )
    print(f"Written to {path}")
    low = [
        f"{r['page']} {c} {r['median'][c]}"
        for r in results
        for c in CATEGORIES
        if r["median"][c] < args.min_score
    ]
    if low:
        print(f"Below {args.min_score}: {', '.join(low)}")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
