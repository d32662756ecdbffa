"""The base of every typed JSON response (issue 32): core's services build some of their
replies as these classes (answer_write.SavedAnswer, receipts.ReceiptCheck), so the class
a service returns is the reply model the OpenAPI document is generated from
(answerdesk/api/replies.py) and no copy of its fields can drift from it.

A ``Reply`` allows no key but its fields; an ``OpenReply`` is one a format adds its own
part to (the state; Format.public_state).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

import msgspec
from msgspec import Meta


class Reply(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A JSON response that carries exactly its fields."""


class OpenReply(msgspec.Struct, kw_only=True):
    """A JSON response that a format may add keys to."""


#: A server time as the API writes it (ISO 8601, milliseconds, "Z").
Moment = Annotated[dt.datetime, Meta(extra_json_schema={"format": "date-time"})]
