"""QR codes of the team join link, drawn on the server as inline SVG (segno):
no request leaves the venue, and the CSP allows no outside images anyway."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str, scale: int = 6) -> Markup:
    """An <svg> element that phones' cameras read as `url`."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=scale, dark="#000", light="#fff", border=2,
                          svgclass="qr", lineclass=None, title=url)
    return Markup(svg)
