"""The API fuzzing loop the fuzz tests share (tests/test_schemathesis.py, the OQ-3
fuzz): schemathesis cases for each operation, driven through hypothesis directly
(schemathesis's pytest plugin does not run under pytest 9); never a 5xx, and every
refusal carries its error code and a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def fuzz_operations(operations: list[Any], max_examples: int,
                    prepare: Callable[[Any, Any, bool, int], None]) -> int:
    """Fuzz every operation; ``prepare(operation, case, flag, calls)`` points a case at
    the real event and credentials (``flag``: a random boolean hypothesis draws too).
    Returns how many requests were sent."""
    calls = 0

    def fuzzer(operation: Any) -> Callable[[], None]:
        @given(case=operation.as_strategy(), flag=st.booleans())
        @settings(max_examples=max_examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def fuzz(case: Any, flag: bool) -> None:
            nonlocal calls
            prepare(operation, case, flag, calls)
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
    return calls
