"""access.py: one place decides what a host, an assistant or a caller may do."""

from __future__ import annotations

import pytest

from answerdesk import access
from answerdesk.core.assistants import new_assistant_password
from answerdesk.core.events import event_by_code
from answerdesk.errors import Unauthorized
from answerdesk.extensions import db


@pytest.fixture
def event_and_passwords(app, demo):
    code, host_password = demo
    with app.test_request_context():
        event = event_by_code(code)
        assistant_password = new_assistant_password(event, actor="host")
        db.session.commit()
    return code, host_password, assistant_password


def test_the_password_decides_the_role_and_logout_forgets_it(app, event_and_passwords):
    code, host_password, assistant_password = event_and_passwords
    with app.test_request_context():
        event = event_by_code(code)
        assert access.log_in(event, "wrong") is None
        assert access.desk_role(event) is None and not access.has_host_session()
        assert access.log_in(event, assistant_password) == "assistant"
        assert access.desk_role(event) == "assistant" and not access.host_logged_in(event)
        assert access.log_in(event, host_password) == "host"
        assert access.host_logged_in(event) and access.has_host_session()
        access.log_out(event)
        db.session.commit()
        assert access.desk_role(event) is None


def test_the_host_api_takes_the_host_password_as_bearer_only(app, event_and_passwords):
    code, host_password, assistant_password = event_and_passwords
    headers = {"Authorization": f"Bearer {host_password}"}
    with app.test_request_context(headers=headers):
        assert access.api_host(code).code == code
    for token in (assistant_password, "wrong"):
        with app.test_request_context(headers={"Authorization": f"Bearer {token}"}):
            with pytest.raises(Unauthorized):
                access.api_host(code)
