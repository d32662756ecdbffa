"""The host checks a receipt a team shows in a dispute (BG-E2)."""

from __future__ import annotations

from flask import render_template, request

from ..access import host_required
from ..core.receipts import verify_receipt
from ..errors import DeskError
from ..models import Event
from .blueprint import bp


@bp.get("/receipts")
@host_required
def receipts(event: Event):
    form = {k: request.args.get(k, "").strip() for k in ("team", "round", "question", "code")}
    result = error = None
    if all(form.values()):
        try:
            result = verify_receipt(event, form["team"], _number(form["round"]),
                                    _number(form["question"]), form["code"])
        except DeskError as refusal:
            error = refusal.message
    return render_template("host/receipt.html", event=event, form=form, result=result,
                           error=error)


def _number(value: str) -> int:
    if not value.isdigit():
        raise DeskError("Round and question are whole numbers")
    return int(value)
