"""Draw the app's icons: ``python tools/make_icons.py`` writes ``static/icons/``.

The icon is a game token (a *segnalino*): an amber disc with a dark ring and a
centre pip on the app's dark background. The SVG (favicon, any size) and the PNGs
(the web manifest's 192 and 512 px, and a maskable 512 px one whose token stays
inside the central safe circle a launcher may crop to) are drawn from the same
numbers below, with the standard library only (zlib for the PNG format).
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"

BACKGROUND = (0x14, 0x16, 0x1A)
TOKEN = (0xFF, 0xB0, 0x20)
INK = (0x14, 0x16, 0x1A)

# Sizes as fractions of the icon's side.
CORNER = 0.22  # rounded corners of the "any" icon (a maskable one is full-bleed)
DISC = 0.36  # the token's radius
RING = 0.255  # the dark ring's radius (centre of its stroke)
RING_WIDTH = 0.045
PIP = 0.085  # the centre pip's radius
MASKABLE_SCALE = 0.8  # the token inside the maskable safe zone (a circle of 0.4)


def _coverage(distance: float) -> float:
    """How much of a pixel a shape covers, from the pixel centre's signed distance
    to its edge (negative inside), for a one-pixel anti-aliased edge."""
    return min(1.0, max(0.0, 0.5 - distance))


def _rounded_square(x: float, y: float, size: float, radius: float) -> float:
    half = size / 2
    qx, qy = abs(x - half) - (half - radius), abs(y - half) - (half - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def _mix(under: tuple[float, ...], colour: tuple[int, ...], alpha: float) -> tuple[float, ...]:
    """``colour`` with ``alpha`` over a premultiplied RGBA pixel."""
    r, g, b, a = under
    return (
        colour[0] * alpha + r * (1 - alpha),
        colour[1] * alpha + g * (1 - alpha),
        colour[2] * alpha + b * (1 - alpha),
        alpha + a * (1 - alpha),
    )


def draw(size: int, maskable: bool) -> bytes:
    """The icon as raw RGBA rows, each led by PNG's filter byte 0."""
    scale = size * (MASKABLE_SCALE if maskable else 1.0)
    centre = size / 2
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            x, y = i + 0.5, j + 0.5
            pixel: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
            if maskable:
                pixel = _mix(pixel, BACKGROUND, 1.0)
            else:
                edge = _rounded_square(x, y, size, CORNER * size)
                pixel = _mix(pixel, BACKGROUND, _coverage(edge))
            d = math.hypot(x - centre, y - centre)
            pixel = _mix(pixel, TOKEN, _coverage(d - DISC * scale))
            ring = abs(d - RING * scale) - RING_WIDTH * scale / 2
            pixel = _mix(pixel, INK, _coverage(ring))
            pixel = _mix(pixel, INK, _coverage(d - PIP * scale))
            r, g, b, a = pixel
            if a:
                rows.extend((round(r / a), round(g / a), round(b / a), round(a * 255)))
            else:
                rows.extend((0, 0, 0, 0))
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba_rows, 9))
        + chunk(b"IEND", b"")
    )


def svg() -> str:
    def hex_(colour: tuple[int, ...]) -> str:
        return "#" + "".join(f"{c:02x}" for c in colour)

    n = 100  # drawn on a 100-unit square
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}">'
        f'<rect width="{n}" height="{n}" rx="{CORNER * n:g}" fill="{hex_(BACKGROUND)}"/>'
        f'<circle cx="50" cy="50" r="{DISC * n:g}" fill="{hex_(TOKEN)}"/>'
        f'<circle cx="50" cy="50" r="{RING * n:g}" fill="none" stroke="{hex_(INK)}" '
        f'stroke-width="{RING_WIDTH * n:g}"/>'
        f'<circle cx="50" cy="50" r="{PIP * n:g}" fill="{hex_(INK)}"/>'
        "</svg>\n"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg())
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        (OUT / name).write_bytes(png(size, draw(size, maskable)))
        print(OUT / name)


if __name__ == "__main__":
    main()
