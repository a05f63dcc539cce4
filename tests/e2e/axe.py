"""axe-core, the accessibility engine, run inside a browser test's page.

axe-core comes from the npm registry at a pinned version, installed on first use
into ``tests/e2e/.node/`` (ignored by git; never served by the app). Without Node's
npm the audit tests are skipped, saying why.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE_VERSION = "4.10.3"
NODE_DIR = Path(__file__).resolve().parent / ".node"
AXE_JS = NODE_DIR / "node_modules" / "axe-core" / "axe.min.js"

#: The rule sets a real audit runs: WCAG 2.0/2.1 A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def axe_source() -> str:
    """axe.min.js at :data:`AXE_VERSION`, installing it with npm if it is missing."""
    if not _installed():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is missing, so axe-core cannot be installed: apt-get install -y npm")
        NODE_DIR.mkdir(exist_ok=True)
        done = subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(NODE_DIR),
                "--no-audit",
                "--no-fund",
                "--save-exact",
                f"axe-core@{AXE_VERSION}",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0 or not _installed():
            pytest.skip(f"npm could not install axe-core@{AXE_VERSION}: {done.stderr[-500:]}")
    return AXE_JS.read_text(encoding="utf-8")


def _installed() -> bool:
    package = AXE_JS.parent / "package.json"
    return AXE_JS.exists() and f'"version": "{AXE_VERSION}"' in package.read_text("utf-8")


def violations(page: Page, source: str) -> list[dict[str, Any]]:
    """What axe-core finds wrong on ``page`` as it is now, one entry per rule broken."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script>: the page's Content-Security-Policy
        # allows only our own scripts.
        page.evaluate(source)
    return page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))
            }));
        }""",
        TAGS,
    )


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for rule in found:
        lines.append(f"{rule['id']} ({rule['impact']}): {rule['help']}")
        for node in rule["nodes"][:8]:
            summary = (node["summary"] or "").replace("\n", " ")[:300]
            lines.append(f"    {node['target']}: {summary}")
    return "\n".join(lines)
