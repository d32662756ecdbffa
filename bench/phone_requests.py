"""What the real phone page sends while a player types a round's answers (issue 33).

Starts the app as harness.py does (gunicorn, a fresh SQLite file, the BG demo
evening), opens round 2, and opens the answer sheet in Chromium
(/usr/bin/chromium, 390x844) for ``--phones`` phones of one team. One phone types
the round's answers as a thumb does: a few seconds of thought, keys 90-260 ms
apart, a pause between words, now and then a slip corrected with Backspace, then
the next question, round and round for ``--seconds``. The other phones of the
team only watch. Every request each page sends is recorded and classified (saves,
state polls, sheet reads, others) with its size; the counts per minute are what
harness.py's phone model follows (bench/README.md, "The phone's requests").

    .venv/bin/python bench/phone_requests.py [--seconds 60] [--phones 2] [--seed 33]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import TYPED, Served, host_call, join_teams, new_event, prepare_database  # noqa: E402


def kind(method: str, url: str) -> str:
    """A request's class, by what the phone's script does with it."""
    path = url.split("?", 1)[0]
    if method == "PUT" and "/answers/" in path:
        return "save (PUT answers)"
    if path.endswith("/state"):
        return "state poll (GET state)"
    if "/api/events/" in path and path.endswith("/sheet"):
        if "since=" in url:
            return "sheet changes (GET api sheet?since)"
        return "sheet read (GET api sheet)"
    if "/api/events/" in path and path.endswith("/play"):
        return "rules poll (GET play)"
    if "/static/" in path or path.endswith(".js") or path.endswith(".css"):
        return "static file"
    return f"other ({method} {path.split('/', 3)[-1]})"


def type_round(page, rng: random.Random, until: float) -> int:
    """Types answers into the open round's fields until ``until``; returns keys pressed."""
    keys = 0
    fields = page.locator("section.round.open input.answer")
    count = fields.count()
    q = 0
    while time.monotonic() < until:
        field = fields.nth(q % count)
        page.wait_for_timeout(rng.uniform(2000, 6000))  # reading, talking it over
        field.click()
        field.fill("")
        words = rng.choice(TYPED[q % count + 1]).split()
        for w, word in enumerate(words):
            if w:
                page.keyboard.type(" ")
                page.wait_for_timeout(rng.uniform(250, 900))
            for ch in word:
                if rng.random() < 0.06:  # a slip of the thumb, seen and corrected
                    page.keyboard.type("ь", delay=0)
                    page.wait_for_timeout(rng.uniform(150, 500))
                    page.keyboard.press("Backspace")
                    keys += 2
                page.keyboard.type(ch)
                keys += 1
                page.wait_for_timeout(rng.uniform(90, 260))
            if time.monotonic() >= until:
                break
        q += 1
    return keys


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--phones", type=int, default=2, help="phones of the team (one types)")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as workdir:
        url = prepare_database(None, workdir)
        code, password = new_event(url, workdir)
        server = Served(url, workdir, workers=2, threads=4).start(timeout=120)
        try:
            (token,) = asyncio.run(join_teams(server.port, code, 1, "Phones"))
            assert asyncio.run(host_call(server.port, code, password, 2, "open")) == 200
            log: list[tuple[int, float, str, str, int | str, int, int]] = []
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
                pages = []
                for n in range(args.phones):
                    ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                              is_mobile=True, has_touch=True)
                    page = ctx.new_page()

                    def record(response, n=n):
                        req = response.request
                        sent = len(req.post_data_buffer or b"")
                        try:
                            size = len(response.body())
                        except Exception:  # a redirect or an aborted body
                            size = 0
                        # A revalidation the browser made itself (its cache's ETag):
                        # the script sees 200 and the kept body, the wire a 304.
                        status = response.status
                        if "if-none-match" in req.all_headers():
                            status = f"{status}, revalidated"
                        log.append((n, time.monotonic(), req.method, req.url, status,
                                    sent, size))

                    page.on("response", record)
                    page.goto(f"{server.url}/e/{code}/sheet#token={token}")
                    page.locator("section.round.open input.answer").first.wait_for()
                    pages.append(page)
                began = time.monotonic()
                keys = type_round(pages[0], random.Random(args.seed), began + args.seconds)
                for page in pages[1:]:
                    page.wait_for_timeout(10)
                elapsed = time.monotonic() - began
                browser.close()
        finally:
            server.stop()

    figures: dict = {"seconds": round(elapsed, 1), "keys": keys, "phones": {}}
    for n in range(args.phones):
        role = "typing" if n == 0 else "watching"
        counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        statuses: dict[str, dict[int | str, int]] = defaultdict(lambda: defaultdict(int))
        for who, at, method, url_, status, sent, size in log:
            if who != n or at < began:
                continue
            c = counts[kind(method, url_)]
            c[0] += 1
            c[1] += sent
            c[2] += size
            statuses[kind(method, url_)][status] += 1
        print(f"phone {n + 1} ({role}), {elapsed:.0f} s measured, {keys} keys typed on phone 1:")
        per_minute = {}
        for name, (count, sent, size) in sorted(counts.items()):
            rate = count * 60 / elapsed
            per_minute[name] = {"per_minute": round(rate, 1), "bytes_sent": sent // max(count, 1),
                                "bytes_received": size // max(count, 1),
                                "status": dict(statuses[name])}
            print(f"  {name:28} {rate:6.1f}/min  sent {sent // max(count, 1):5d} B, "
                  f"received {size // max(count, 1):6d} B each; status {dict(statuses[name])}")
        figures["phones"][role if n < 2 else f"watching {n}"] = per_minute
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
