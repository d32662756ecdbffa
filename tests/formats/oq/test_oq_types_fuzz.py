"""Property-based fuzzing of the OQ-3 question types' routes on an OpenQuiz game in
play (the suite-wide fuzzing in tests/test_schemathesis.py reaches them only on a BG
event, where they refuse at once): never a 5xx, every refusal a translated message."""

from __future__ import annotations

import schemathesis
from buzzgame import make_event, oq_player, start_question
from factories import Desk
from fuzzing import fuzz_operations

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db

MAX_EXAMPLES = 25
OQ3 = ("/oq/choose", "/oq/stake", "/oq/pass", "/oq/secret", "/type", "/choices/close",
       "/auction/close", "/judge")


def test_oq3_type_routes_never_answer_5xx(app, client):
    desk = Desk(client, *make_event(app, "oq", {1: 5, 4: 2}))
    token = oq_player(client, desk.code, "Фъз")
    oq_player(client, desk.code, "Друг")
    with app.app_context():
        event = event_by_code(desk.code)
        for q, variant in zip(event.round(1).questions, ("choices_all", "auction", "secret",
                                                         "choices", "norisk"), strict=True):
            q.details = {"variant": variant, "options": {"A": "едно", "B": "две"}}
            q.key = ["B"]
        db.session.commit()
    auth = {"Authorization": f"Bearer {desk.password}"}
    client.post(f"/api/host/events/{desk.code}/oq/scores", json={"team": "Фъз", "points": 500},
                headers=auth)
    client.post(f"/api/events/{desk.code}/oq/pick", json={"round": 1, "question": 2},
                headers={"Authorization": f"Bearer {token}"})
    start_question(client, desk.code, desk.password, 1, 1)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [r.ok() for r in schema.get_all_operations()
                  if r.ok().path.endswith(OQ3) and "/final/" not in r.ok().path]
    assert len(operations) == len(OQ3)
    def prepare(operation, case, small: bool, calls: int) -> None:
        case.path_parameters = {**(case.path_parameters or {}), "code": desk.code}
        if small and "round" in case.path_parameters:
            case.path_parameters.update(round=1, question=1 + calls % 5)
        if small and isinstance(case.body, dict) and "round" in case.body:
            case.body.update(round=1, question=1 + calls % 5)
        secret = desk.password if operation.path.startswith("/api/host/") else token
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {secret}"}

    calls = fuzz_operations(operations, MAX_EXAMPLES, prepare)
    assert calls >= len(operations) * 5
