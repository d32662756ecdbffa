"""gunicorn's threaded worker with a buffering front: a request takes a thread only
once it has fully arrived (issue 31, finding 3).

gunicorn's ``gthread`` worker hands a connection to a thread as soon as its first
bytes arrive and reads the rest of the request in that thread, so 200 connections
sending a header byte every 2 s held every thread of 4 workers and no phone could
save. Here a thread takes what a connection has sent without ever waiting for more,
keeps it (a body over ``SPOOL_BYTES`` in a temporary file), and serves the request
only once it is complete; until then the connection waits in the worker's event
loop, holding no thread. The parser reads from that buffer, never from the socket. A
slow connection costs a buffer and a file descriptor, not a thread; how many an
address may hold, and how slowly it may send, are bounded (the numbers below;
docs/security.md).

The front also answers one refusal itself (issue 31, finding 2): a request that checks
a password, from an address over the credential limit, gets the app's 429 without the
app (security.early_refusal decides and words it), held TARPIT_SECONDS in the event
loop; a flood of wrong passwords then costs a look at the counter per request, and
the attacker's rate falls to what its connections can wait for.

Not buffered: TLS on gunicorn itself (``certfile``; the documented set-up puts TLS
on a proxy in front) falls back to gunicorn's own reading.
"""

from __future__ import annotations

import errno
import hashlib
import mmap
import os
import secrets
import selectors
import socket
import struct
import tempfile
import time
from collections import deque
from functools import partial
from typing import Any, BinaryIO

from gunicorn import http
from gunicorn.http.unreader import Unreader
from gunicorn.workers.gthread import TConn, ThreadWorker

# Connections one client address may hold open on the whole server, all its worker
# processes together (AddressCounts); beyond that a new one is closed at once. A
# phone's browser opens at most 6 to one host, a live-push stream one more; the
# server's own machine (the host's desk and projector, a proxy in front) is not
# capped. CONNECTIONS_PER_ADDRESS=0: no cap.
CONNECTIONS_PER_ADDRESS = 32
# A connection closed at the cap is logged at most this often per worker.
CAP_WARNING_SECONDS = 60.0
# A request's line and headers must arrive within this many seconds of its first
# byte (nginx's client_header_timeout is 60 s; a phone's header is one packet).
HEADER_SECONDS = 10.0
# No byte for this long while a request is arriving closes the connection.
IDLE_SECONDS = 10.0
# How often the arriving connections are looked over for those past their time. The
# worker's loop turns once per batch of events: at a 300-team night (900 kept-alive
# phones, hundreds of requests a second) scanning every one each turn took 14% of the
# server's CPU (bench/README.md, issue 33); the limits above are seconds long.
SCAN_SECONDS = 0.25
# A body must arrive at this average rate at least, after the header's grace:
# 8 KiB/s lets a 200 MB pack upload take seven hours, a trickle of a byte every
# 2 s closes after HEADER_SECONDS.
MIN_BODY_RATE = 8 * 1024
# A header block larger than this is refused (gunicorn's own limits are 4094 bytes
# for the request line and 100 fields of 8190).
MAX_HEAD_BYTES = 64 * 1024
# A chunked body (no browser sends one) is kept in memory up to this size.
MAX_CHUNKED_BYTES = 1024 * 1024
# Bodies larger than this wait in a temporary file, not in memory.
SPOOL_BYTES = 1024 * 1024
# What one thread reads of a request in one turn, before the connection waits in the
# event loop again (a large upload arriving at full speed takes several turns).
TURN_BYTES = 4 * 1024 * 1024
# A response the client does not read blocks its thread for this long at most.
SEND_SECONDS = 30
# A request that checks a password, from an address over the credential limit
# (access.CREDENTIAL_LIMIT), is refused here without the app (security.early_refusal),
# and its 429 is held this long in the event loop, holding no thread (the tarpit): an
# attacker who sends again as soon as answered gets one refusal per TARPIT_SECONDS a
# connection, and at most CONNECTIONS_PER_ADDRESS connections (docs/security.md). Less
# than IDLE_SECONDS: a tarpitted connection is held no longer than a silent one may be
# (the worker's loop looks at least once a second: a 429 may wait a second more).
TARPIT_SECONDS = 5.0

_HEAD_END = b"\r\n\r\n"
_WAIT = object()  # handle(): the request has not fully arrived; back to the event loop
_TARPIT = object()  # handle(): refused without the app; the 429 waits in the event loop


class _Refused(Exception):
    """A request refused before it reaches the app (its status line)."""


#: The body of such a refusal: the app's own error shape for a body or header block
#: too large (errors.TooLarge), so a phone reads it as it reads the app's 413.
_REFUSAL_BODY = b'{"error": "too_large", "message": "The request is too large."}'


class _FedUnreader(Unreader):
    """The parser's source: the pieces of requests that have fully arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: deque[bytes | BinaryIO] = deque()

    def chunk(self, size_hint: int | None = None) -> bytes:
        while self.pieces:
            piece = self.pieces[0]
            if isinstance(piece, bytes):
                self.pieces.popleft()
                return piece
            data = piece.read(min(max(size_hint or 0, 65536), 1024 * 1024))
            if data:
                return data
            piece.close()
            self.pieces.popleft()
        return b""

    def close(self) -> None:
        while self.pieces:
            piece = self.pieces.popleft()
            if not isinstance(piece, bytes):
                piece.close()


class _Arriving:
    """What a connection has sent of its next request so far."""

    def __init__(self) -> None:
        self.started: float | None = None
        self.last = time.monotonic()
        self.head: bytes | None = None  # the header block, once complete
        self.length: int | None = None  # Content-Length; None: none, or chunked
        self.chunked = False
        self.spool: BinaryIO | None = None
        self.spooled = 0


class _Conn(TConn):
    """A connection that reports its closing to the per-address count."""

    def __init__(self, *args: Any, on_close: Any = None) -> None:
        super().__init__(*args)
        self.pending = bytearray()
        self.arriving: _Arriving | None = None
        self.on_close = on_close
        self.refusal: Any = None  # security.EarlyRefusal, while in the tarpit

    def close(self, graceful: bool = False) -> None:
        if self.on_close is not None:
            self.on_close(self)
            self.on_close = None
        if self.arriving is not None and self.arriving.spool is not None:
            self.arriving.spool.close()
        if self.parser is not None and isinstance(self.parser.unreader, _FedUnreader):
            self.parser.unreader.close()
        super().close(graceful)


class AddressCounts:
    """Open connections per client address, counted by every worker of the server in
    memory the master shares with them: the cap holds for the server, not per process
    (4 workers would otherwise let an address hold 4 caps).

    Each worker process counts in a row of its own (only it writes there: no lock
    between processes) and admits a connection by the sum over all rows. The master
    hands a row to each worker it forks (``pre_fork``) and clears it when the worker
    exits (``child_exit``), so what a killed worker held is forgotten with it. Addresses
    are counted in SLOTS buckets by a keyed hash (the key made at start, so no one can
    pick addresses that share a bucket with another's): two addresses in one bucket
    share a cap. Two workers admitting in the same instant may each pass the cap by one.
    """

    SLOTS = 1 << 14
    _CELL = 4  # a signed 32-bit count

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self._key = secrets.token_bytes(16)
        self._memory = mmap.mmap(-1, rows * self.SLOTS * self._CELL)  # shared across fork
        self._cells = memoryview(self._memory).cast("i")
        self._free = list(range(rows))  # the master's: rows no live worker holds

    def bucket(self, address: str) -> int:
        digest = hashlib.blake2b(address.encode(), key=self._key, digest_size=4).digest()
        return int.from_bytes(digest, "little") % self.SLOTS

    def total(self, bucket: int) -> int:
        return sum(self._cells[row * self.SLOTS + bucket] for row in range(self.rows))

    def add(self, row: int, bucket: int, delta: int) -> None:
        self._cells[row * self.SLOTS + bucket] += delta

    def take_row(self) -> int | None:
        return self._free.pop(0) if self._free else None

    def give_back(self, row: int) -> None:
        start = row * self.SLOTS * self._CELL
        self._memory[start:start + self.SLOTS * self._CELL] = bytes(self.SLOTS * self._CELL)
        self._free.append(row)


def share_address_counts(server: Any) -> None:
    """gunicorn's when_ready (master, before the first fork): the shared counts, with
    rows for twice the workers (a reload runs new workers beside the old ones)."""
    server.address_counts = AddressCounts(2 * max(server.num_workers, 1) + 2)


def assign_address_row(server: Any, worker: Any) -> None:
    """gunicorn's pre_fork (master): the worker's row in the shared counts; a worker
    with none (more workers than rows) counts alone, as a server of one."""
    counts = getattr(server, "address_counts", None)
    row = counts.take_row() if counts is not None else None
    if counts is not None and row is not None:
        worker.address_counts = (counts, row)


def release_address_row(server: Any, worker: Any) -> None:
    """gunicorn's child_exit (master): forget what the exited worker held."""
    counts: AddressCounts | None = getattr(server, "address_counts", None)
    shared = getattr(worker, "address_counts", None)
    if counts is not None and shared is not None and shared[0] is counts:
        counts.give_back(shared[1])


def _setting(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


class BufferingWorker(ThreadWorker):
    """``gthread`` with a buffering front and per-address connection caps."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.per_address = int(_setting("CONNECTIONS_PER_ADDRESS", CONNECTIONS_PER_ADDRESS))
        if int(os.environ.get("PROXY_COUNT", "0") or 0):
            self.per_address = 0  # every client comes through the proxy's one address
        self.header_seconds = _setting("HEADER_SECONDS", HEADER_SECONDS)
        self.idle_seconds = _setting("IDLE_SECONDS", IDLE_SECONDS)
        self.keepalive_seconds = float(self.cfg.keepalive)  # a setting's lookup costs a call
        # the server's shared counts and this worker's row in them (assign_address_row
        # replaces these before the fork): alone, a server of one process
        self.address_counts: tuple[AddressCounts, int] = (AddressCounts(1), 0)
        self.arriving_conns: set[_Conn] = set()
        self.tarpit: deque[tuple[float, _Conn]] = deque()  # (when to answer, connection)
        self.tarpit_seconds = _setting("TARPIT_SECONDS", TARPIT_SECONDS)
        self.next_scan = 0.0
        self.next_cap_warning = 0.0

    # -- accepting: count and cap per address ------------------------------------
    def accept(self, listener: socket.socket) -> None:
        if self.cfg.is_ssl:
            return super().accept(listener)
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        server_addr = listener.getsockname()
        address = client_addr[0] if isinstance(client_addr, tuple) else ""
        capped = bool(self.per_address and address
                      and address != (server_addr[0] if isinstance(server_addr, tuple) else ""))
        on_close = None
        if capped:
            counts, row = self.address_counts
            bucket = counts.bucket(address)
            if counts.total(bucket) >= self.per_address:
                client_sock.close()
                self._say_capped(address)
                return
            counts.add(row, bucket, 1)
            on_close = partial(self._forget, bucket)
        self.nr_conns += 1
        conn = _Conn(self.cfg, client_sock, client_addr, server_addr, on_close=on_close)
        try:
            client_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                                   struct.pack("ll", SEND_SECONDS, 0))
        except OSError:
            pass
        conn.parser = http.get_parser(self.cfg, [], client_addr)
        conn.parser.unreader = _FedUnreader()
        conn.initialized = True
        conn.data_ready = True
        self._await_request(conn)

    def _say_capped(self, address: str) -> None:
        """Tell the organiser a connection was closed at the cap, at most once a minute
        per worker (a flood of them must not fill the log): phones behind the venue's
        NAT share one address and need a higher cap (docs/security.md)."""
        now = time.monotonic()
        if now < self.next_cap_warning:
            return
        self.next_cap_warning = now + CAP_WARNING_SECONDS
        self.log.warning("a connection from %s was closed: over CONNECTIONS_PER_ADDRESS "
                         "(%d). If the venue's phones share this address (NAT), raise "
                         "CONNECTIONS_PER_ADDRESS (docs/security.md).",
                         address, self.per_address)

    def _forget(self, bucket: int, conn: _Conn) -> None:
        counts, row = self.address_counts
        counts.add(row, bucket, -1)

    # -- reading a request: never waiting in a thread ----------------------------
    def _await_request(self, conn: _Conn) -> None:
        """Wait in the event loop for the connection's next bytes (main thread)."""
        if conn.arriving is None:
            conn.arriving = _Arriving()
        self.arriving_conns.add(conn)
        conn.sock.setblocking(False)
        self.poller.register(conn.sock, selectors.EVENT_READ,
                             partial(self._on_readable, conn))

    def _on_readable(self, conn: _Conn, _sock: Any) -> None:
        self.poller.unregister(conn.sock)
        self.arriving_conns.discard(conn)
        self.enqueue_req(conn)

    def handle(self, conn: Any) -> Any:
        """In a thread: take what has arrived without waiting; an incomplete request
        goes back to the event loop (``_WAIT``), one the app would refuse as over the
        credential limit to the tarpit (``_TARPIT``), a complete one is served."""
        if isinstance(conn, _Conn) and conn.arriving is not None:
            status = self._take_in(conn)
            if status is _WAIT or status is False or status is _TARPIT:
                return status
        return super().handle(conn)

    def _early_refusal(self, conn: _Conn, head: bytes) -> Any:
        """The app's early refusal of this request (security.early_refusal), if any."""
        refuse = getattr(self.wsgi, "extensions", {}).get("answerdesk_early_refusal")
        if refuse is None:
            return None
        peer = conn.client[0] if isinstance(conn.client, tuple) else ""
        try:
            return refuse(head, peer)
        except Exception:  # noqa: BLE001 - the app then answers the request, as without it
            self.log.exception("the early refusal failed; the app answers the request")
            return None

    def _take_in(self, conn: _Conn) -> Any:
        arriving = conn.arriving
        assert arriving is not None
        conn.sock.setblocking(False)
        taken = 0
        while taken < TURN_BYTES:  # then the event loop again: a thread reads no stream
            try:
                data = conn.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                return False
            if not data:
                return False
            taken += len(data)
            arriving.last = time.monotonic()
            if arriving.started is None:
                arriving.started = arriving.last
            if arriving.spool is not None:
                arriving.spool.write(data)
                arriving.spooled += len(data)
            else:
                conn.pending += data
        try:
            pieces = self._frame(conn, arriving)
        except _Refused as refusal:
            try:
                body = _REFUSAL_BODY
                conn.sock.send(b"HTTP/1.1 " + refusal.args[0] + b"\r\nConnection: close\r\n"
                               b"Content-Type: application/json\r\n"
                               b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
                               + body)
            except OSError:
                pass
            return False
        if pieces is None:
            return _WAIT
        conn.arriving = None
        assert arriving.head is not None
        conn.refusal = self._early_refusal(conn, arriving.head)
        if conn.refusal is not None:
            for piece in pieces:
                if not isinstance(piece, bytes):
                    piece.close()
            return _TARPIT
        conn.parser.unreader.pieces.extend(pieces)
        return True

    def _frame(self, conn: _Conn, arriving: _Arriving) -> list[bytes | BinaryIO] | None:
        """The whole request once it has arrived, else None (it waits for more)."""
        if arriving.head is None:
            while conn.pending[:2] == b"\r\n":  # blank lines before a request
                del conn.pending[:2]
            end = conn.pending.find(_HEAD_END)
            if end < 0:
                if len(conn.pending) > MAX_HEAD_BYTES:
                    raise _Refused(b"431 Request Header Fields Too Large")
                return None
            head = bytes(conn.pending[:end + 4])
            del conn.pending[:end + 4]
            arriving.head = self._read_head(conn, arriving, head)
            if arriving.length and arriving.length > SPOOL_BYTES:
                arriving.spool = tempfile.TemporaryFile()
                arriving.spool.write(conn.pending)
                arriving.spooled = len(conn.pending)
                conn.pending.clear()
        if arriving.spool is not None:
            assert arriving.length is not None
            if arriving.spooled < arriving.length:
                return None
            extra = arriving.spooled - arriving.length
            if extra:
                arriving.spool.seek(arriving.length)
                conn.pending += arriving.spool.read()
                arriving.spool.truncate(arriving.length)
            arriving.spool.seek(0)
            spool, arriving.spool = arriving.spool, None
            return [arriving.head, spool]
        size = arriving.length or 0
        if arriving.chunked:
            chunked = _chunked_size(conn.pending)
            if chunked is None:
                if len(conn.pending) > MAX_CHUNKED_BYTES:
                    raise _Refused(b"413 Content Too Large")
                return None
            size = chunked
        elif len(conn.pending) < size:
            return None
        body = bytes(conn.pending[:size])
        del conn.pending[:size]
        return [arriving.head + body]

    def _read_head(self, conn: _Conn, arriving: _Arriving, head: bytes) -> bytes:
        """The body's framing from the header block, answering an Expect itself:
        the client would otherwise wait for a "100 Continue" that gunicorn sends only
        once a thread reads the body."""
        lines = head.split(b"\r\n")
        kept = []
        for line in lines:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                try:
                    arriving.length = int(value.strip())
                except ValueError:
                    arriving.length = None  # gunicorn's parser refuses it
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                arriving.chunked = True
            elif name == b"expect" and value.strip().lower() == b"100-continue":
                try:
                    conn.sock.send(b"HTTP/1.1 100 Continue\r\n\r\n")
                except OSError:
                    pass
                continue
            kept.append(line)
        if arriving.chunked or (arriving.length is not None and arriving.length < 0):
            arriving.length = None
        return b"\r\n".join(kept)

    def _drop(self, conn: _Conn) -> None:
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        self.arriving_conns.discard(conn)
        self.nr_conns -= 1
        conn.close()

    def _answer_tarpit(self, now: float) -> None:
        """Send the held 429s whose time has come (all of them when the worker stops),
        and close their connections."""
        while self.tarpit and (self.tarpit[0][0] <= now or not self.alive):
            _, conn = self.tarpit.popleft()
            refusal, conn.refusal = conn.refusal, None
            lines = [b"HTTP/1.1 429 Too Many Requests"]
            lines += [f"{name}: {value}".encode("latin-1") for name, value in refusal.headers]
            wait = max(1, int(refusal.ends_at - time.time() + 0.999))
            lines += [b"Retry-After: %d" % wait, b"Content-Length: %d" % len(refusal.body),
                      b"Connection: close", b"", refusal.body]
            try:
                conn.sock.send(b"\r\n".join(lines))
            except OSError:
                pass
            self.nr_conns -= 1
            conn.close()

    def murder_pending(self) -> None:
        """Also answer the tarpit's due 429s, and close the connections whose request
        arrives too slowly (looked over every SCAN_SECONDS, and at once when the worker
        stops)."""
        super().murder_pending()
        now = time.monotonic()
        self._answer_tarpit(now)
        if now < self.next_scan and self.alive:
            return
        self.next_scan = now + SCAN_SECONDS
        for conn in list(self.arriving_conns):
            arriving = conn.arriving
            if arriving is None:
                continue
            if arriving.started is None:
                # a kept-alive connection waiting for its next request
                if not self.alive or now - arriving.last > self.keepalive_seconds:
                    self._drop(conn)
                continue
            allowed = self.header_seconds
            if arriving.head is not None and arriving.length:
                allowed += arriving.length / MIN_BODY_RATE
            if now - arriving.last > self.idle_seconds or now - arriving.started > allowed:
                self._drop(conn)

    # -- after a request: the next one arrives through the buffer too ------------
    def finish_request(self, conn: Any, fs: Any) -> None:
        if not isinstance(conn, _Conn):
            return super().finish_request(conn, fs)
        try:
            result = fs.result() if not fs.cancelled() else False
        except Exception:
            result = False
        if result is _WAIT and self.alive:
            self._await_request(conn)
            return
        if result is _TARPIT:
            self.tarpit.append((time.monotonic() + self.tarpit_seconds, conn))
            self._answer_tarpit(time.monotonic())  # at once if stopping or no tarpit
            return
        if result is True and self.alive:
            # what the parser read ahead is the start of the next request
            conn.pending[:0] = conn.parser.unreader.take_buffered()
            conn.arriving = _Arriving()
            if conn.pending:
                self.enqueue_req(conn)
            else:
                self._await_request(conn)
            return
        self.nr_conns -= 1
        conn.close(graceful=result is True)


def _chunked_size(data: bytearray) -> int | None:
    """How many bytes at the start of ``data`` a complete chunked body takes
    (its trailers included), or None while it has not fully arrived."""
    at = 0
    while True:
        end = data.find(b"\r\n", at)
        if end < 0:
            return None
        try:
            size = int(bytes(data[at:end]).split(b";", 1)[0].strip(), 16)
        except ValueError:
            return end + 2  # malformed: gunicorn's parser answers it
        if size < 0:
            return end + 2
        at = end + 2
        if size == 0:
            break
        at += size + 2
        if at > len(data):
            return None
    while True:  # trailer fields, up to the empty line
        end = data.find(b"\r\n", at)
        if end < 0:
            return None
        if end == at:
            return end + 2
        at = end + 2
