"""The app's own log names the request and the event of each refusal (issue 32)."""

from __future__ import annotations

import logging

import pytest


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def kept(app):
    handler = Kept()
    app.logger.addHandler(handler)
    yield handler.records
    app.logger.removeHandler(handler)


def test_a_refusal_is_logged_with_its_event_code_and_the_proxys_request_id(client, desk, kept):
    resp = desk.client.put(f"/api/events/{desk.code}/answers/1/1", json={"text": "x"},
                           headers={"Authorization": "Bearer not-a-token",
                                    "X-Request-Id": "proxy-42"})
    assert resp.status_code == 401
    refusal = [r for r in kept if r.getMessage().startswith("refused PUT")]
    assert len(refusal) == 1, [r.getMessage() for r in kept]
    assert refusal[0].event == desk.code
    assert refusal[0].request_id == "proxy-42"
    assert "401" in refusal[0].getMessage()


def test_a_request_without_a_sane_id_gets_one_of_its_own(client, desk, kept):
    desk.client.put(f"/api/events/{desk.code}/answers/1/1", json={"text": "x"},
                    headers={"Authorization": "Bearer nope", "X-Request-Id": "a b <script>"})
    (record,) = [r for r in kept if r.getMessage().startswith("refused")]
    assert record.request_id != "a b <script>"
    assert len(record.request_id) == 12


def test_a_line_outside_a_request_says_so(app, kept):
    app.logger.warning("outside")
    assert (kept[-1].request_id, kept[-1].event) == ("-", "-")


def test_a_child_loggers_line_is_formatted_too(app, capsys):
    """answerdesk.livecheck logs outside any request through the app's handler: its
    line must not lose itself in a formatting error (seen on PostgreSQL, issue 32)."""
    import io

    stream = io.StringIO()
    handler = app.logger.handlers[0]
    handler.setStream(stream)
    logging.getLogger(f"{app.logger.name}.livecheck").warning("live check failed; %s", "x")
    assert "[-] event=- answerdesk.livecheck: live check failed; x" in stream.getvalue()
    assert "Formatting field not found" not in capsys.readouterr().err
