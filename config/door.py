"""The door: several server processes behind one address, each table in one of them.

``python -m config.serve --workers N`` (N > 1) serves through it. The parent
process is the door: it owns the listening socket and accepts every connection,
looks at the request line without reading it (``recv`` with ``MSG_PEEK``, so the
bytes stay for the worker), and hands the connected socket itself to one of N
worker processes over a Unix socket (``SCM_RIGHTS``); the door then closes its
copy. It never reads or writes a byte of the conversation: no proxy in the path.

Which worker: a table's requests and sockets carry its code (``/s/<CODE>/…``,
``/j/<CODE>/``, the socket ``/ws/s/<CODE>/``) and go to worker
``crc32(code) % N``, so the five phones of a table hold their sockets in one
process, which reads and renders each change once for all of them (with the
sockets spread over the processes, each process holding one re-read and
re-rendered every change: ``benchmarks/README.md``, issue 15). A watch link's
key (``/w/<key>/``, ``/ws/w/<key>/``) is hashed the same way, so one table's
watchers share a process. Everything else, and a connection whose request line
does not come within ``PEEK_SECONDS`` or cannot be parsed, goes round-robin (the
worker's HTTP parser answers it). A connection is routed by its first request:
later requests on the same kept-alive connection go to the same worker.

Each worker is uvicorn's ``Server`` on its own event loop that listens on
nothing: it takes the connections the door hands it and serves each with
uvicorn's own protocol class for the configured HTTP implementation (as
``Server.startup`` builds it), so HTTP, WebSockets, permessage-deflate, the
access log and graceful shutdown are uvicorn's.

Lifetimes:

* A worker stops when the door goes, however the door goes (even ``kill -9``):
  its end of the Unix socket then reads end-of-file and it shuts down as on
  Ctrl+C (its open sockets are closed with 1012, "service restart").
* Ctrl+C or SIGTERM to the door: it stops accepting, asks every worker to shut
  down gracefully (SIGTERM), waits up to ``GRACE_SECONDS`` and kills the rest.
* A worker that exits while the door runs is replaced at once by a new one with
  the same number, so the same tables come back to it (its phones reconnect by
  themselves). A worker that exits before it is ready (a broken setting, an
  import error) stops the door with exit status 3, as uvicorn does, rather than
  being started again forever.

``SEGNALINO_WORKER_HEADER=1`` adds ``X-Segnalino-Worker: <number> <pid>`` to
every answer and WebSocket handshake (off by default: it tells the world the
process ids); the tests use it to see which process serves a socket.

Linux and other Unix systems only (``SCM_RIGHTS``, ``SOCK_SEQPACKET``). TLS is
for the reverse proxy in front, which forwards to the door's one port.

``python -m config.door --app module:application [--bind] [--port] [--workers]``
serves any ASGI application this way with ``make run``'s options (the benchmarks
serve their floor application through it); people run ``config.serve``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
import zlib
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from companion.codes import normalise
from config import cores

REPO = Path(__file__).resolve().parent.parent
#: How long the door waits for a connection's request line before handing it on anyway.
PEEK_SECONDS = 1.0
#: A request line longer than this is not routed by its path (uvicorn answers it).
PEEK_BYTES = 8192
#: How soon the door looks again at a connection that has sent part of its line
#: (its bytes stay readable while peeked at, so waiting for "readable" would spin).
RECHECK_SECONDS = 0.01
#: How long workers have to finish their conversations when the door stops.
GRACE_SECONDS = 30.0
#: uvicorn's exit status for a server that could not start.
STARTUP_FAILURE = 3
READY = b"ready"
WORKER_HEADER = "x-segnalino-worker"

logger = logging.getLogger("uvicorn.error")


# ---------------------------------------------------------------- routing


def table_of(head: bytes) -> str | None:
    """The table a connection belongs to, from the start of its first request
    (its request line), or None if it names no table or is not a request line.

    ``/s/<code>/…``, ``/j/<code>/`` and ``/ws/s/<code>/`` give the code as
    ``companion.codes`` normalises it (so ``/s/abcde/`` is table ``ABCDE``);
    ``/w/<key>/`` and ``/ws/w/<key>/`` give ``w/<key>``.
    """
    line = head.split(b"\n", 1)[0].rstrip(b"\r")
    parts = line.split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return None
    target = parts[1].decode("latin-1")
    if not target.startswith("/"):  # absolute form: GET http://host/path HTTP/1.1
        target = urlsplit(target).path
    names = unquote(target.split("?", 1)[0]).split("/")[1:]
    if names[:1] == ["ws"]:
        names = names[1:]
    if len(names) < 2 or not names[1]:
        return None
    if names[0] in {"s", "j"}:
        return normalise(names[1]) or None
    if names[0] == "w":
        return f"w/{names[1]}"
    return None


def worker_for(table: str, workers: int) -> int:
    """The worker (0 … workers - 1) that serves ``table``: the same in every run
    and every process (crc32, not Python's per-process ``hash``)."""
    return zlib.crc32(table.encode()) % workers


def request_line_complete(head: bytes) -> bool:
    """Whether the door has seen enough of a connection to route it."""
    return b"\n" in head or len(head) >= PEEK_BYTES


# ---------------------------------------------------------------- the door (parent)


@dataclass(eq=False)
class Worker:
    """One worker process, as the door sees it."""

    index: int
    process: subprocess.Popen[bytes]
    channel: socket.socket  # the door's end of the Unix socket to the worker
    ready: bool = False
    #: Connections waiting to be handed over (the worker's queue was full, or it is
    #: being replaced): sent in order, before any new one.
    outbox: deque[socket.socket] = field(default_factory=deque)


@dataclass(eq=False)
class Arrival:
    """An accepted connection whose request line the door is waiting for."""

    sock: socket.socket
    deadline: float
    recheck: float = 0.0
    watched: bool = False  # registered with the selector
    done: bool = False


class Door:
    """Accept on ``listener``, route each connection to one of ``workers``
    processes serving ``app`` with uvicorn's ``options`` (``Config`` arguments)."""

    def __init__(
        self,
        listener: socket.socket,
        app: str,
        options: Mapping[str, Any],
        workers: int,
    ) -> None:
        self.listener = listener
        self.app = app
        self.options = {
            k: v for k, v in options.items() if k not in {"host", "port", "workers", "fd", "uds"}
        }
        self.count = workers
        self.workers: list[Worker] = []
        self.exiting: list[tuple[Worker, float]] = []  # replaced, not yet reaped
        self.selector = selectors.DefaultSelector()
        self.arrivals: deque[Arrival] = deque()  # by deadline
        self.rechecks: deque[Arrival] = deque()  # by recheck time
        self.next_worker = 0
        self.stopping = False
        self.status = 0
        self._wakeup_r, self._wakeup_w = socket.socketpair()

    # ------------------------------------------------------------ running

    def run(self) -> int:
        """Serve until Ctrl+C or SIGTERM (0), or until a worker fails to start (3)."""
        for sock in (self.listener, self._wakeup_r, self._wakeup_w):
            sock.setblocking(False)
        previous_wakeup = signal.set_wakeup_fd(self._wakeup_w.fileno())
        previous = {
            sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            self.selector.register(self.listener, selectors.EVENT_READ, self._accept)
            self.selector.register(self._wakeup_r, selectors.EVENT_READ, self._drain_wakeup)
            for index in range(self.count):
                self.workers.append(self._start(index))
            while not self.stopping:
                for key, mask in self.selector.select(self._timeout()):
                    key.data(mask)
                self._tick(time.monotonic())
        finally:
            self._stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            signal.set_wakeup_fd(previous_wakeup)
        return self.status

    def _on_signal(self, signum: int, frame: object) -> None:
        if not self.stopping:
            logger.info("Stopping the door and its %d workers", self.count)
        self.stopping = True

    def _drain_wakeup(self, mask: int) -> None:
        try:
            while self._wakeup_r.recv(512):
                pass
        except BlockingIOError:
            pass

    def _timeout(self) -> float:
        now = time.monotonic()
        soonest = now + 0.5  # reap replaced workers at least this often
        for queue, when in ((self.arrivals, "deadline"), (self.rechecks, "recheck")):
            while queue and queue[0].done:
                queue.popleft()
            if queue:
                soonest = min(soonest, getattr(queue[0], when))
        return max(0.0, soonest - now)

    def _tick(self, now: float) -> None:
        while self.rechecks and (self.rechecks[0].done or self.rechecks[0].recheck <= now):
            arrival = self.rechecks.popleft()
            if not arrival.done:
                self._watch(arrival)
        while self.arrivals and (self.arrivals[0].done or self.arrivals[0].deadline <= now):
            arrival = self.arrivals.popleft()
            if not arrival.done:  # said nothing routable in time: round-robin
                self._route(arrival, None)
        for worker, since in list(self.exiting):
            if worker.process.poll() is not None:
                self.exiting.remove((worker, since))
                logger.warning(
                    "Worker %d (pid %d) exited with status %s",
                    worker.index,
                    worker.process.pid,
                    worker.process.returncode,
                )
            elif now - since > GRACE_SECONDS:
                worker.process.kill()

    # ------------------------------------------------------------ connections

    def _accept(self, mask: int) -> None:
        for _ in range(64):  # then let the others have a turn
            try:
                sock, _address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # out of file descriptors, …: try again later
                logger.error("The door could not accept a connection: %s", error)
                return
            sock.setblocking(False)
            arrival = Arrival(sock, time.monotonic() + PEEK_SECONDS)
            self.arrivals.append(arrival)
            self._watch(arrival)

    def _watch(self, arrival: Arrival) -> None:
        arrival.watched = True
        self.selector.register(arrival.sock, selectors.EVENT_READ, lambda mask: self._peek(arrival))

    def _unwatch(self, arrival: Arrival) -> None:
        if arrival.watched:
            self.selector.unregister(arrival.sock)
            arrival.watched = False

    def _peek(self, arrival: Arrival) -> None:
        try:
            head = arrival.sock.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            head = b""
        if not head:  # gone before saying anything: nothing to answer
            self._unwatch(arrival)
            arrival.done = True
            arrival.sock.close()
        elif request_line_complete(head):
            self._route(arrival, table_of(head))
        else:
            self._unwatch(arrival)
            arrival.recheck = time.monotonic() + RECHECK_SECONDS
            self.rechecks.append(arrival)

    def _route(self, arrival: Arrival, table: str | None) -> None:
        self._unwatch(arrival)
        arrival.done = True
        if table is None:
            index = self.next_worker
            self.next_worker = (self.next_worker + 1) % self.count
        else:
            index = worker_for(table, self.count)
        worker = self.workers[index]
        worker.outbox.append(arrival.sock)
        self._hand_over(worker)

    def _hand_over(self, worker: Worker) -> None:
        """Send ``worker`` the connections in its outbox, oldest first, closing the
        door's copy of each; stop when its queue is full (and wait to be writable)."""
        while worker.outbox:
            sock = worker.outbox[0]
            try:
                socket.send_fds(worker.channel, [b"c"], [sock.fileno()])
            except (BlockingIOError, InterruptedError):
                break
            except (BrokenPipeError, ConnectionError):
                return  # the worker is gone: its replacement gets them
            except OSError as error:
                logger.error("Could not hand a connection to worker %d: %s", worker.index, error)
            worker.outbox.popleft()
            sock.close()
        self._listen_to(worker)

    # ------------------------------------------------------------ workers

    def _start(self, index: int, outbox: deque[socket.socket] | None = None) -> Worker:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        command = [
            sys.executable, "-m", "config.door",
            "--worker", str(index), "--channel-fd", str(theirs.fileno()),
            "--app", self.app, "--options", json.dumps(self.options),
        ]  # fmt: skip
        path = os.environ.get("PYTHONPATH", "")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), path) if p)}
        cores.assign(env, index)  # worker n on the n-th core (config/cores.py)
        process = subprocess.Popen(command, pass_fds=(theirs.fileno(),), env=env)
        theirs.close()
        ours.setblocking(False)
        worker = Worker(index, process, ours, outbox=outbox or deque())
        self.selector.register(ours, selectors.EVENT_READ, self._channel_handler(worker))
        self._hand_over(worker)
        return worker

    def _channel_handler(self, worker: Worker) -> Callable[[int], None]:
        def handle(mask: int) -> None:
            if mask & selectors.EVENT_READ:
                try:
                    message = worker.channel.recv(64)
                except (BlockingIOError, InterruptedError):
                    message = None
                except OSError:
                    message = b""
                if message == READY:
                    worker.ready = True
                elif message == b"":  # its end closed: the worker has exited
                    self._lost(worker)
                    return
            if mask & selectors.EVENT_WRITE:
                self._hand_over(worker)

        return handle

    def _listen_to(self, worker: Worker) -> None:
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if worker.outbox else 0)
        key = self.selector.get_map().get(worker.channel)
        if key is not None and key.events != events:
            self.selector.modify(worker.channel, events, key.data)

    def _lost(self, worker: Worker) -> None:
        self.selector.unregister(worker.channel)
        worker.channel.close()
        self.exiting.append((worker, time.monotonic()))
        if self.stopping:
            return
        if not worker.ready:
            logger.error("Worker %d could not start: stopping the door", worker.index)
            self.status = STARTUP_FAILURE
            self.stopping = True
            return
        logger.warning(
            "Worker %d (pid %d) is gone: starting another", worker.index, worker.process.pid
        )
        self.workers[worker.index] = self._start(worker.index, worker.outbox)

    # ------------------------------------------------------------ stopping

    def _stop(self) -> None:
        """Close the door, then let every worker finish (SIGTERM), up to the grace period."""
        for key in list(self.selector.get_map().values()):
            self.selector.unregister(key.fileobj)
        self.listener.close()
        for arrival in self.arrivals:
            if not arrival.done:
                arrival.sock.close()
        processes = [w.process for w in self.workers] + [w.process for w, _ in self.exiting]
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + GRACE_SECONDS
        for process in processes:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                logger.error("Worker pid %d did not stop in time: killing it", process.pid)
                process.kill()
                process.wait()
        for worker in self.workers:
            for sock in worker.outbox:
                sock.close()
            worker.channel.close()
        self.selector.close()
        self._wakeup_r.close()
        self._wakeup_w.close()


def serve(app: str, options: Mapping[str, Any], workers: int) -> int:
    """Serve ``app`` on ``options["host"]:options["port"]`` with ``workers``
    processes behind the door; return the exit status."""
    import uvicorn

    uvicorn.Config(app, **{**options, "workers": 1})  # sets up uvicorn's logging, here too
    host, port = str(options.get("host", "127.0.0.1")), int(options.get("port", 8000))
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server(
            (host, port), family=family, backlog=int(options.get("backlog", 2048))
        )
    except OSError as error:
        logger.error(error)
        return STARTUP_FAILURE
    logger.info(
        "Door on %s:%d: %d worker processes, each table's phones in one (Ctrl+C to stop)",
        host,
        port,
        workers,
    )
    return Door(listener, app, options, workers).run()


# ---------------------------------------------------------------- a worker (child)


def _worker_server_class() -> type:
    """uvicorn's ``Server``, taking its connections from the door (built on demand,
    so the door itself imports uvicorn's server only if it is one)."""
    import uvicorn

    class HandedConnectionsServer(uvicorn.Server):
        """uvicorn's server, listening on nothing: it serves the connections the
        door sends over ``channel``, and shuts down when the door's end closes."""

        def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
            super().__init__(config)
            self.channel = channel
            self.connecting: set[asyncio.Task[Any]] = set()
            self._taking = False

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await self.lifespan.startup()
            if self.lifespan.should_exit:
                sys.exit(STARTUP_FAILURE)
            config = self.config

            def create_protocol(_loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Protocol:
                # As uvicorn.Server.startup builds it for its listening sockets.
                return config.http_protocol_class(  # type: ignore[call-arg]
                    config=config,
                    server_state=self.server_state,
                    app_state=self.lifespan.state,
                    _loop=_loop,
                )

            self.create_protocol = create_protocol
            self.servers = []  # no listening socket of its own
            self.channel.setblocking(False)
            asyncio.get_running_loop().add_reader(self.channel.fileno(), self._take)
            self._taking = True
            self.channel.send(READY)
            self.started = True

        def _take(self) -> None:
            """Serve every connection the door has sent (one per message)."""
            loop = asyncio.get_running_loop()
            while True:
                try:
                    message, fds, _flags, _address = socket.recv_fds(self.channel, 16, 4)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    message, fds = b"", []
                if not message and not fds:  # the door is gone: so is this worker
                    self._stop_taking()
                    self.should_exit = True
                    return
                for fd in fds:
                    task = loop.create_task(self._connect(socket.socket(fileno=fd)))
                    self.connecting.add(task)
                    task.add_done_callback(self.connecting.discard)

        async def _connect(self, sock: socket.socket) -> None:
            loop = asyncio.get_running_loop()
            try:
                await loop.connect_accepted_socket(self.create_protocol, sock, ssl=self.config.ssl)
            except OSError as error:  # the phone left while being handed over
                logger.info("A connection handed over by the door was lost: %s", error)
                sock.close()

        def _stop_taking(self) -> None:
            if self._taking:
                asyncio.get_running_loop().remove_reader(self.channel.fileno())
                self._taking = False

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Connections the door sends from now on are closed with this process.
            self._stop_taking()
            await super().shutdown(sockets)

    return HandedConnectionsServer


def run_worker(index: int, channel_fd: int, app: str, options: Mapping[str, Any]) -> None:
    """One worker: uvicorn serving ``app`` on the connections handed over ``channel_fd``."""
    import uvicorn

    options = dict(options)
    if os.environ.get("SEGNALINO_WORKER_HEADER") == "1":
        options["headers"] = [
            *options.get("headers", []),
            (WORKER_HEADER, f"{index} {os.getpid()}"),
        ]
    config = uvicorn.Config(app, **options)
    channel = socket.socket(fileno=channel_fd)
    server = _worker_server_class()(config, channel)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    if not server.started:
        sys.exit(STARTUP_FAILURE)


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", default="config.asgi:application", help="the ASGI application")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    # Internal: how the door starts a worker.
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--channel-fd", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        run_worker(args.worker, args.channel_fd, args.app, json.loads(args.options))
        return
    from config.serve import serve_options

    raise SystemExit(
        serve(args.app, serve_options(args.bind, args.port, args.workers), args.workers)
    )


if __name__ == "__main__":
    main()
