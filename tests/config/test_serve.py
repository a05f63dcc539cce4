"""`make run` serves the table's network: a phone that is not this machine joins by
the printed address and sees a tap live.

The server is started exactly as `make run` starts it (``python -m config.serve``,
after the same collectstatic). The phones run as a separate program inside a
network namespace joined to this machine by a veth pair, so they reach the server
the way a friend's phone on the Wi-Fi does: from another address, to the one the
server printed. Without the rights to make a namespace the phones run here and
reach the printed (non-loopback) address directly.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from config.serve import lan_address, public_url
from tests.support.servers import (
    REPO,
    collect_static,
    free_port,
    prepare_database,
    sqlite_env,
    stop,
    wait_for_http,
)

_PRINTED = re.compile(r"Phones on this Wi-Fi: (http://\S+?)/?$", re.M)


def test_the_address_is_the_network_one_unless_a_public_url_is_set() -> None:
    address = lan_address()
    if address is not None:
        assert not ipaddress.ip_address(address).is_loopback
        assert public_url(8000, {}) == f"http://{address}:8000"
    assert public_url(8000, {"SEGNALINO_PUBLIC_URL": "https://segnalino.example/"}) == (
        "https://segnalino.example"
    )
    with pytest.raises(SystemExit):
        public_url(8000, {"SEGNALINO_PUBLIC_URL": "segnalino.example"})


@contextmanager
def served_as_make_run(port: int) -> Iterator[tuple[str, Path, int]]:
    """``python -m config.serve --port`` on a fresh database; yields the printed
    address, the server's log and its process id."""
    directory = tempfile.mkdtemp(prefix="segnalino-serve-")
    env = sqlite_env(
        directory,
        DJANGO_DEBUG=None,
        DJANGO_SECRET_KEY="serve-test-key",
        PORT=str(port),
        LOG_LEVEL="INFO",  # the server's access log: which address each request came from
    )
    prepare_database(env)
    collect_static(env)
    log_path = Path(directory) / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "config.serve", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while not (printed := _PRINTED.search(log_path.read_text(errors="replace"))):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(log_path.read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        url = printed.group(1)
        wait_for_http(url + "/")
        yield url, log_path, process.pid
    finally:
        stop(process)
        shutil.rmtree(directory, ignore_errors=True)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@contextmanager
def another_host() -> Iterator[list[str] | None]:
    """A network namespace joined to this machine by a veth pair, routed through
    it; yields the command prefix that runs a program there (None: no rights)."""
    if shutil.which("ip") is None or os.geteuid() != 0:
        yield None
        return
    tag = f"{os.getpid() % 100000}"
    namespace, outside, inside = f"segnalino{tag}", f"sgh{tag}", f"sgp{tag}"
    subnet = 16 + os.getpid() % 200
    try:
        _ip("netns", "add", namespace)
    except subprocess.CalledProcessError:
        yield None
        return
    try:
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", inside, "netns", namespace)
        _ip("addr", "add", f"10.213.{subnet}.1/30", "dev", outside)
        _ip("link", "set", outside, "up")
        run_inside = ["ip", "netns", "exec", namespace]
        for command in (
            ["addr", "add", f"10.213.{subnet}.2/30", "dev", inside],
            ["link", "set", inside, "up"],
            ["link", "set", "lo", "up"],
            ["route", "add", "default", "via", f"10.213.{subnet}.1"],
        ):
            subprocess.run([*run_inside, "ip", *command], check=True, capture_output=True)
        yield run_inside
    finally:
        subprocess.run(["ip", "link", "del", outside], capture_output=True)
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def test_a_phone_on_the_wifi_creates_joins_by_the_printed_address_and_sees_a_tap_live() -> None:
    if lan_address() is None:
        pytest.skip("this machine has no non-loopback network address to serve phones on")
    with served_as_make_run(free_port()) as (url, log_path, pid), another_host() as prefix:
        host = ipaddress.ip_address(url.split("//")[1].split(":")[0])
        assert not host.is_loopback, f"`make run` printed a loopback address: {url}"
        client = [sys.executable, str(REPO / "tests/support/lan_client.py"), url]
        answer = subprocess.run(
            [*(prefix or []), *client], capture_output=True, text=True, timeout=90
        )
        assert answer.returncode == 0, answer.stderr[-3000:] + log_path.read_text()[-2000:]
        result = json.loads(answer.stdout.strip().splitlines()[-1])
        # The invite link and QR code a friend scans point at the printed address.
        assert result["invite"].startswith(url + "/j/")
        assert result["qr_status"] == 200
        assert result["seen_live"] is True
        log = log_path.read_text(errors="replace")
        if prefix is not None:  # the requests really came from the other host
            # daphne's line starts with the address, uvicorn's with "INFO:".
            assert re.search(
                r"^(?:INFO:\s+)?10\.213\.\d+\.2:\d+ .*\"POST /s/\w+/act[^\"]*\" 200", log, re.M
            ), log
        # DEBUG is off on the table's network: a missing page lists no URL patterns.
        assert "URLconf" not in log
        # The one process runs on a core of its own, the first (config/cores.py).
        allowed = sorted(os.sched_getaffinity(0))
        if len(allowed) > 1:
            assert sorted(os.sched_getaffinity(pid)) == allowed[:1]
