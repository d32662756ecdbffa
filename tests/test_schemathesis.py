"""Property-based fuzzing of the JSON API from its OpenAPI document: never a 5xx.

Schemathesis generates requests for every operation of /api/openapi.json and
sends them to the Flask app object; half of them carry a real event code and
real credentials, so the handlers behind authentication are fuzzed too.
(Driven through hypothesis directly: schemathesis's pytest plugin does not
run under pytest 9.)
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MAX_EXAMPLES = 30


def test_api_never_answers_5xx(app, desk):
    token = desk.join("Фъз")
    desk.host(2, "open")
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8
    calls = 0

    def fuzzer(operation):
        @given(case=operation.as_strategy(), real=st.booleans())
        @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def fuzz(case, real):
            nonlocal calls
            if real and case.path_parameters and "code" in case.path_parameters:
                case.path_parameters["code"] = desk.code
                secret = desk.password if operation.path.startswith("/api/host/") else token
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {secret}"}
            elif real and operation.path == "/api/events":
                secret = app.config["ORGANISER_PASSWORD"]
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {secret}"}
            response = case.call()
            calls += 1
            where = (case.method, case.formatted_path, case.body, response.text[:300])
            assert response.status_code < 500, where
            if response.status_code >= 400:
                body = response.json()
                assert body["error"] and body["message"], where

        return fuzz

    for operation in operations:
        fuzzer(operation)()
    assert calls >= len(operations) * 5
