"""Host API: verify a team's answer receipt (BG-E2 disputes)."""

from __future__ import annotations

from flask import jsonify, request

from ..access import api_host
from ..core.receipts import verify_receipt
from ..errors import DeskError
from .blueprint import bp


@bp.get("/host/events/<code>/receipts/<int:round_number>/<int:question_number>")
def verify(code: str, round_number: int, question_number: int):
    event = api_host(code)
    team, receipt = request.args.get("team", ""), request.args.get("code", "")
    if not team or not receipt:
        raise DeskError("team and code are required")
    return jsonify(verify_receipt(event, team, round_number, question_number, receipt).to_json())
