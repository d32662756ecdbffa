"""The join QR code, drawn on the server as inline SVG (no outside request)."""

from __future__ import annotations

import re

import segno

from answerdesk.qr import qr_svg


def test_qr_svg_encodes_the_url() -> None:
    url = "http://quiz.test/e/ABC234"
    svg = str(qr_svg(url))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert f"<title>{url}</title>" in svg
    expected = segno.make(url, error="m").svg_inline(
        scale=6, dark="#000", light="#fff", border=2, svgclass="qr", lineclass=None, title=url)
    assert svg == expected
    assert segno.make(url, error="m").designator.endswith("M")


def test_host_page_and_projector_show_the_join_code(app, client, demo) -> None:
    code, _ = demo
    join_url = f"http://quiz.test/e/{code}"
    screen = client.get(f"/e/{code}/screen").get_data(as_text=True)
    assert f"<title>{join_url}</title>" in screen and 'class="qr"' in screen
    from answerdesk.extensions import db
    from answerdesk.models import Event

    with app.app_context():
        event_id = db.session.scalar(db.select(Event.id).where(Event.code == code))
    with client.session_transaction() as sess:
        sess["desk"] = {str(event_id): ["host", 0, 2**40]}  # web.desk_login, a new event
    page = client.get(f"/host/{code}/programme").get_data(as_text=True)
    qr = re.search(r'<svg[^>]*class="qr".*?</svg>', page, re.S)
    assert qr and f"<title>{join_url}</title>" in qr.group(0)
    assert "src=" not in qr.group(0) and "href=" not in qr.group(0)
