"""Issue 31: rate limits count per address across every gunicorn worker, not per
worker (answerdesk/ratestore.py)."""

from __future__ import annotations

import pytest
import requests

from answerdesk.security import JOIN_LIMIT

pytestmark = pytest.mark.slow


def test_31_7_the_join_limit_counts_across_workers(serve, demo):
    """2 workers, each join on a new connection (so on whichever worker accepts it):
    the address gets JOIN_LIMIT joins in all, not JOIN_LIMIT per worker."""
    code, _ = demo
    server = serve(workers=2, threads=4)
    allowed = int(JOIN_LIMIT.split()[0])
    statuses = []
    for n in range(2 * allowed + 10):
        with requests.Session() as phone:  # a new connection each time
            statuses.append(phone.post(f"{server.url}/api/events/{code}/teams",
                                       json={"name": f"Team {n}"}, timeout=30).status_code)
    assert statuses.count(201) == allowed, statuses
    assert set(statuses[allowed:]) == {429}
