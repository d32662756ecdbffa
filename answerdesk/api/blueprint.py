"""The API's blueprint, on its own so the route modules import it without a circle."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")
