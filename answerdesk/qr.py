"""QR codes of the team join link, drawn on the server as inline SVG (segno):
no request leaves the venue, and the CSP allows no outside images anyway."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=256)
def qr_svg(url: str, scale: int = 6) -> Markup:
    """An <svg> element that phones' cameras read as `url`.

    Kept per link: the projector's fragment reloads every few seconds, and drawing
    the code took 1.5 ms of its worker's GIL each time (issue 6)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=scale, dark="#000", light="#fff", border=2,
                          svgclass="qr", lineclass=None, title=url)
    return Markup(svg)
