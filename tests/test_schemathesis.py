"""Property-based fuzzing of the JSON API from its OpenAPI document: never a 5xx.

Schemathesis generates requests for every operation of /api/openapi.json and
sends them to the Flask app object; half of them carry a real event code and
real credentials, so the handlers behind authentication are fuzzed too.
(The loop is tests/fuzzing.py, shared with the OQ-3 fuzz.)
"""

from __future__ import annotations

import schemathesis
from fuzzing import fuzz_operations

MAX_EXAMPLES = 30


def test_api_never_answers_5xx(app, desk):
    token = desk.join("Фъз")
    desk.host(2, "open")
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8
    def prepare(operation, case, real: bool, _calls: int) -> None:
        if real and case.path_parameters and "code" in case.path_parameters:
            case.path_parameters["code"] = desk.code
            secret = desk.password if operation.path.startswith("/api/host/") else token
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {secret}"}
        elif real and operation.path == "/api/events":
            secret = app.config["ORGANISER_PASSWORD"]
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {secret}"}

    calls = fuzz_operations(operations, MAX_EXAMPLES, prepare)
    assert calls >= len(operations) * 5
