"""``make run``: serve the table's network, so phones on the same Wi-Fi can join.

Listens on every interface with DEBUG off, works out the address phones should
open (this machine's address on the local network, or ``SEGNALINO_PUBLIC_URL``
for a real deployment), prints it with a QR code, and hands it to the settings,
which derive the allowed hosts, the CSRF origins and the invite links from it.
``make dev`` keeps the loopback debug server for developing.

Run as ``python -m config.serve [--port 8000] [--workers N]``: one uvicorn process,
or N worker processes behind one door that keeps each table's phones in one of
them (``config/door.py``).
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
SECRET_FILE = REPO / ".segnalino-secret"
# A documentation address (RFC 5737): connecting a UDP socket to it sends
# nothing, but makes the kernel pick the interface of the default route.
_PROBE = ("198.51.100.1", 9)


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network, or None if it has none.

    The address the kernel would send from towards the default route; failing
    that, any non-loopback address the host name resolves to.
    """
    candidates: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            candidates.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for *_rest, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(address[0]))
    except OSError:
        pass
    for candidate in candidates:
        if not candidate.startswith("127.") and candidate != "0.0.0.0":
            return candidate
    return None


def public_url(port: int, environ: Mapping[str, str] | None = None) -> str:
    """Where phones open the app: ``SEGNALINO_PUBLIC_URL`` if set, else this
    machine's network address (loopback only if it has no network at all)."""
    environ = os.environ if environ is None else environ
    configured = environ.get("SEGNALINO_PUBLIC_URL", "").strip().rstrip("/")
    if configured:
        parts = urlsplit(configured)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise SystemExit(f"SEGNALINO_PUBLIC_URL must be http(s)://host[:port]: {configured!r}")
        return configured
    host = lan_address() or "127.0.0.1"
    return f"http://{host}:{port}"


def secret_key() -> str:
    """``DJANGO_SECRET_KEY``, or one made once for this checkout and kept in a
    file only its owner can read (it signs the cookie that holds a phone's seat)."""
    configured = os.environ.get("DJANGO_SECRET_KEY", "")
    if configured:
        return configured
    if SECRET_FILE.exists():
        return SECRET_FILE.read_text().strip()
    key = secrets.token_urlsafe(50)
    SECRET_FILE.touch(mode=0o600)
    SECRET_FILE.write_text(key)
    return key


def banner(url: str) -> str:
    import segno

    qr = segno.make(url + "/", error="m")
    lines = [
        "",
        f"Segnalino is running. Phones on this Wi-Fi: {url}/",
        "(or scan this code; the invite link and QR code of each table use this address)",
    ]
    if urlsplit(url).hostname in {"127.0.0.1", "localhost"}:
        lines.append("This machine has no network address: only this machine can open it.")
    out = "\n".join(lines) + "\n"
    try:
        import io

        buffer = io.StringIO()
        qr.terminal(out=buffer, compact=True)
        out += buffer.getvalue()
    except Exception:  # a terminal without the block characters: the address is enough
        pass
    return out + "Ctrl+C to stop.\n"


def serve_options(bind: str, port: int, workers: int) -> dict:
    """uvicorn's settings for the table's server (benchmarks/README.md, issue 15:
    uvloop + httptools beat daphne on this workload). WebSockets through the
    ``websockets`` library, compressed (permessage-deflate) when the phone asks."""
    return {
        "host": bind,
        "port": port,
        "loop": "uvloop",
        "http": "httptools",
        "ws": "websockets-sansio",
        "ws_per_message_deflate": True,
        "lifespan": "off",  # Channels' router has no lifespan handler
        "server_header": False,
        # As daphne did: each request's line (with the phone's address) at INFO.
        "log_level": os.environ.get("LOG_LEVEL", "INFO").lower(),
        "workers": workers,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--bind", default="0.0.0.0", help="interface to listen on (all)")
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", "1")),
        help="server processes behind the one port, each table's phones in one "
        "(config/door.py; more than 1 needs REDIS_URL)",
    )
    args = parser.parse_args(argv)
    if args.workers > 1 and not os.environ.get("REDIS_URL"):
        raise SystemExit(
            "More than one process needs REDIS_URL: the processes tell each other's "
            "phones about changes through Redis."
        )
    from config import cores

    try:
        cores.wanted()  # a mistyped switch stops here, said plainly, before any process starts
    except ValueError as error:
        raise SystemExit(str(error)) from None

    url = public_url(args.port)
    os.environ["SEGNALINO_PUBLIC_URL"] = url
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ["DJANGO_SECRET_KEY"] = secret_key()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.stdout.write(banner(url))
    sys.stdout.flush()

    app, options = "config.asgi:application", serve_options(args.bind, args.port, args.workers)
    if args.workers > 1:
        from config import door

        raise SystemExit(door.serve(app, options, args.workers))

    import uvicorn

    if cores.CORE not in os.environ:  # unless the deployer named one
        cores.assign(os.environ, 0)  # the one process: the first core (config/cores.py)
    uvicorn.run(app, **options)


if __name__ == "__main__":
    main()
