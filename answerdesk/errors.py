"""Errors a service raises for the caller to show; each carries an HTTP status."""

from __future__ import annotations


class DeskError(Exception):
    """A refusal the user can act on, shown in the reader's language.

    ``message`` is an English msgid whose ``%(name)s`` placeholders are filled from
    ``details`` (which also go into the JSON body), e.g.
    ``RoundLocked("Round %(round)s is locked.", round=2)``; it is translated when
    shown, so one raise serves a Bulgarian phone and an English test alike.
    """

    status = 400
    code = "bad_request"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.template = message
        self.details = details

    @property
    def message(self) -> str:
        from flask import has_request_context
        from flask_babel import gettext

        if has_request_context():
            return gettext(self.template, **{
                k: gettext(v) if isinstance(v, Msgid) else v for k, v in self.details.items()})
        return self.template % self.details if self.details else self.template

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, object]:
        return {"error": self.code, "message": self.message, **self.details}


def codes() -> list[str]:
    """Every refusal's code, sorted: this module's classes' and those of the formats
    loaded (each format's own DeskError subclasses), for the API schema's Error."""
    found: set[str] = set()
    classes: list[type[DeskError]] = [DeskError]
    while classes:
        cls = classes.pop()
        found.add(cls.code)
        classes += cls.__subclasses__()
    return sorted(found)


class Msgid(str):
    """A detail that is itself a msgid (a round's state in words): translated with the
    message, so a refusal never shows a stored code ("locked") to the reader."""


class NotFound(DeskError):
    status = 404
    code = "not_found"


class Conflict(DeskError):
    status = 409
    code = "conflict"


class RoundLocked(Conflict):
    code = "round_locked"


class WrongTeam(Conflict):
    """CHGK-3: a Central Table action for a team that does not sit there."""

    code = "wrong_team"


class BidRefused(DeskError):
    """CHGK-4.4: a bid outside 1..the team's credits, or from a team not in the auction."""

    code = "bid_refused"


class NameTaken(Conflict):
    code = "name_taken"


class Unauthorized(DeskError):
    status = 401
    code = "unauthorized"


class NotAllowed(DeskError):
    status = 403
    code = "forbidden"


class TooLarge(DeskError):
    status = 413
    code = "too_large"


class RateLimited(DeskError):
    status = 429
    code = "rate_limited"
    retry_after: int | None = None  # seconds, when known: the Retry-After header


class Busy(DeskError):
    """The database could not take the write in time: SQLite's writer queue or busy
    timeout ran out, or PostgreSQL gave up on a lock (lock_timeout), a serialization
    failure or a deadlock. Nothing was written; the same request sent again will do,
    so it is a 503 with Retry-After, which the phones' queues resend (docs/security.md)."""

    status = 503
    code = "busy"
    retry_after = 1
