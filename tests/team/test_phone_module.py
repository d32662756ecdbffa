"""The phone pages' scripts share one module, static/phone.js (issue 32): the token's
key, the headers, the JSON exchange with the API and the copies kept in localStorage
are written there once. Every phone page loads it first; a phone script that writes
its own headers(), fetch wrapper or token key again fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from buzzgame import make_event

STATIC = Path(__file__).resolve().parents[2] / "static"
SCRIPT = re.compile(r'<script src="/static/([\w.]+\.js)[^"]*"')

# What only phone.js may hold (a phone script's own copy of the shared parts).
OWN_COPIES = {
    "its own headers()": re.compile(r"function headers\s*\("),
    "its own fetch": re.compile(r"\bfetch\s*\("),
    "its own JSON answer reading": re.compile(r"\.json\(\)"),
    "its own Authorization header": re.compile(r"Authorization|Bearer"),
    "its own localStorage keys": re.compile(r"[\"']answerdesk:"),
    "its own localStorage copy": re.compile(r"JSON\.parse\(\s*localStorage"),
}


def phone_pages(app, client) -> dict[str, list[str]]:
    """Every page a phone gets, with its scripts in the order they load."""
    bg, _ = make_event(app, "bg", {})
    chgk, _ = make_event(app, "chgk", {})
    si, _ = make_event(app, "si", {1: 1})
    oq, _ = make_event(app, "oq", {1: 1})
    urls = [f"/e/{bg}", f"/e/{bg}/sheet", f"/e/{chgk}/sheet", f"/e/{si}/sheet",
            f"/e/{oq}/buzzer", f"/e/{oq}/buzzer/screen", f"/e/{bg}/buzzer"]
    pages = {}
    for url in urls:
        resp = client.get(url)
        assert resp.status_code == 200, url
        pages[url] = SCRIPT.findall(resp.get_data(as_text=True))
    return pages


@pytest.fixture
def pages(app, client) -> dict[str, list[str]]:
    return phone_pages(app, client)


def test_every_phone_page_loads_the_shared_module_first(pages):
    for url, scripts in pages.items():
        assert scripts and scripts[0] == "phone.js", (url, scripts)
        assert scripts.count("phone.js") == 1, (url, scripts)


def test_no_phone_script_writes_the_shared_parts_again(pages):
    scripts = sorted({name for names in pages.values() for name in names} - {"phone.js"})
    assert {"sheet.js", "widgets.js", "chgk_phone.js", "si_phone.js", "buzzer.js", "oq.js",
            "oq_me.js", "oq_board.js", "join.js", "linked.js"} <= set(scripts)
    found = []
    for name in scripts:
        source = (STATIC / name).read_text(encoding="utf-8")
        found += [f"{name}: {what}" for what, pattern in OWN_COPIES.items()
                  if pattern.search(source)]
    assert not found, found
    shared = (STATIC / "phone.js").read_text(encoding="utf-8")
    assert all(pattern.search(shared) for what, pattern in OWN_COPIES.items()
               if what != "its own localStorage copy")


def test_the_phone_keys_are_written_once_among_all_scripts():
    """A phone script not yet on a page (or a desk script) names no key of its own in
    localStorage either: the token and the queues are phone.js's."""
    keys = OWN_COPIES["its own localStorage keys"]
    holders = [p.name for p in STATIC.glob("*.js") if keys.search(p.read_text(encoding="utf-8"))]
    assert holders == ["phone.js"]
