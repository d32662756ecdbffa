"""The assistant's login: a second password per event that can judge but not correct.

The host makes it on the desk; it is stored only as a hash, like the host's.
"""

from __future__ import annotations

from werkzeug.security import generate_password_hash

from ..extensions import db
from ..models import Event
from . import audit
from .events import new_password


def new_assistant_password(event: Event, actor: str = "host") -> str:
    """Make a new assistant password (the old one, and every login made with it,
    stops working); return it once."""
    password = new_password()
    event.assistant_password_hash = generate_password_hash(password)
    event.assistant_login_generation = event.assistant_login_generation + 1  # old logins end
    audit.record(event, actor, "event.assistant", event.code, after={"assistant": "new password"})
    db.session.flush()
    return password
