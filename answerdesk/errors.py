"""Errors a service raises for the caller to show; each carries an HTTP status."""

from __future__ import annotations


class DeskError(Exception):
    """A refusal the user can act on: the message is shown as it is."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_json(self) -> dict[str, object]:
        return {"error": self.code, "message": self.message, **self.details}


class NotFound(DeskError):
    status = 404
    code = "not_found"


class Conflict(DeskError):
    status = 409
    code = "conflict"


class RoundLocked(Conflict):
    code = "round_locked"


class NameTaken(Conflict):
    code = "name_taken"


class Unauthorized(DeskError):
    status = 401
    code = "unauthorized"
