"""The audit log: every host action leaves an entry; corrections can be undone."""

from __future__ import annotations

import csv
import io

import pytest
from factories import set_keys

from answerdesk.core import audit, review
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import AuditEntry, Team, Verdict


@pytest.fixture
def desk(plain_desk):
    """Core's audit log on the neutral format (factories.PlainQuiz), not on a game's evening."""
    return plain_desk


@pytest.fixture
def keyed_desk(app, plain_desk):
    """The neutral evening whose round 2 (2 points) asks for Левски and Марица
    (setup_round's answers)."""
    with app.app_context():
        set_keys(event_by_code(plain_desk.code), {(2, 1): ["Васил Левски", "Левски"],
                                                  (2, 2): ["Марица"]})
    return plain_desk


def login(desk):
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})


def actions(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(db.select(AuditEntry.action).order_by(AuditEntry.id)))


def entry_id(app, action: str) -> int:
    with app.app_context():
        return db.session.scalar(db.select(AuditEntry.id).where(AuditEntry.action == action)
                                 .order_by(AuditEntry.id.desc()))


def points(desk) -> dict[str, float]:
    return {r["team"]: r["points"] for r in desk.standings()}


def setup_round(desk, app):
    tokens = {n: desk.join(n) for n in ("A", "B", "C")}
    desk.host(2, "open")
    desk.save(tokens["A"], 2, 2, "Маритса")  # 2 errors: the host's review
    desk.save(tokens["B"], 2, 2, "Дунав")
    desk.save(tokens["C"], 2, 2, "река Марица")
    desk.host(2, "close")
    login(desk)
    with app.app_context():
        return db.session.scalar(db.select(Team.id).where(Team.name == "B"))


def test_every_desk_action_writes_an_audit_entry(keyed_desk, app):
    desk = keyed_desk
    team_b = setup_round(desk, app)
    with app.app_context():
        items = review.review_queue(event_by_code(desk.code))
    mar = next(i for i in items if i.text == "Маритса")
    desk.client.post(f"/host/{desk.code}/review", data={"verdicts": mar.verdict_ids,
                                                        "decision": "add"})
    river = next(i for i in items if i.text == "река Марица")
    desk.client.post(f"/host/{desk.code}/review", data={"verdicts": river.verdict_ids,
                                                        "decision": "wrong"})
    with app.app_context():
        dunav = db.session.scalar(db.select(Verdict.id).where(Verdict.outcome == "wrong"))
    desk.client.post(f"/host/{desk.code}/answers/2/2", data={"verdict": dunav,
                                                             "decision": "correct"})
    desk.client.post(f"/host/{desk.code}/paper", data={"team": team_b, "round": 2,
                                                       "q1-text": "Левски"})
    desk.client.post(f"/host/{desk.code}/corrections", data={"team": team_b, "points": "-1",
                                                             "reason": "phone at the table"})
    desk.client.post(f"/host/{desk.code}/audit/{entry_id(app, 'score.correct')}/undo")
    desk.client.post(f"/host/{desk.code}/assistant")
    logged = actions(app)
    for action in ("verdict.decide", "dispute.accept", "answer.paper", "score.correct",
                   "score.undo", "event.assistant", "round.close"):
        assert action in logged, action
    assert logged.count("verdict.decide") == 3  # add-to-key, wrong, override
    with app.app_context():
        override = db.session.scalars(db.select(AuditEntry).where(
            AuditEntry.action == "verdict.decide").order_by(AuditEntry.id)).all()[-1]
    assert override.actor == "host" and override.before["outcome"] == "wrong" \
        and override.after["decision"] == "correct" and override.subject == "R2Q2 B"


def test_undo_of_a_score_correction(keyed_desk, app):
    desk = keyed_desk
    team_b = setup_round(desk, app)
    before = points(desk)
    desk.client.post(f"/host/{desk.code}/corrections", data={"team": team_b, "points": "3",
                                                             "reason": "late sheet credited"})
    assert points(desk)["B"] == before["B"] + 3
    page = desk.client.get(f"/host/{desk.code}/standings").get_data(as_text=True)
    assert "late sheet credited" in page
    resp = desk.client.post(f"/host/{desk.code}/audit/{entry_id(app, 'score.correct')}/undo")
    assert resp.status_code == 302
    assert points(desk) == before
    again = desk.client.post(f"/host/{desk.code}/audit/{entry_id(app, 'score.correct')}/undo")
    assert again.status_code == 409


def test_undo_of_a_verdict_override_restores_the_checker(keyed_desk, app):
    desk = keyed_desk
    setup_round(desk, app)
    with app.app_context():
        dunav = db.session.scalar(db.select(Verdict.id).where(Verdict.outcome == "wrong"))
    desk.client.post(f"/host/{desk.code}/answers/2/2", data={"verdict": dunav,
                                                             "decision": "correct"})
    assert points(desk)["B"] == 2
    decided = entry_id(app, "verdict.decide")
    desk.client.post(f"/host/{desk.code}/audit/{decided}/undo")
    assert points(desk)["B"] == 0
    with app.app_context():
        verdict = db.session.get(Verdict, dunav)
        assert verdict.decision is None and verdict.final == "wrong"
        assert audit.undone_ids(event_by_code(desk.code)) == {decided}


def test_undo_refused_when_the_verdict_changed_again(desk, app):
    setup_round(desk, app)
    with app.app_context():
        dunav = db.session.scalar(db.select(Verdict.id).where(Verdict.outcome == "wrong"))
    url = f"/host/{desk.code}/answers/2/2"
    desk.client.post(url, data={"verdict": dunav, "decision": "correct"})
    first = entry_id(app, "verdict.decide")
    desk.client.post(url, data={"verdict": dunav, "decision": "wrong"})
    assert desk.client.post(f"/host/{desk.code}/audit/{first}/undo").status_code == 400


def test_audit_page_and_csv_export(desk, app):
    setup_round(desk, app)
    page = desk.client.get(f"/host/{desk.code}/audit").get_data(as_text=True)
    assert "round.close" in page and "answer.save" in page
    filtered = desk.client.get(f"/host/{desk.code}/audit?action=round.").get_data(as_text=True)
    assert "round.close" in filtered and "answer.save" not in filtered
    resp = desk.client.get(f"/host/{desk.code}/audit.csv")
    assert resp.mimetype == "text/csv" and "attachment" in resp.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
    assert rows[0]["action"] == "event.create"
    save = next(r for r in rows if r["action"] == "answer.save" and "Дунав" in r["after"])
    assert save["actor"] == "team:B" and save["subject"] == "R2Q2 B"
