"""The host's blueprint, on its own so the page modules import it without a circle."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("host", __name__, url_prefix="/host/<code>")
