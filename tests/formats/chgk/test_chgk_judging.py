"""Judging a ЧГК question (CHGK-1.2, 1.3): when the clock ends the checker proposes —
the pack's answer and Зачёт accepted, its Незачёт rejected — and the rest goes to the
host's review queue; the live checker records the lock with nobody clicking."""

from __future__ import annotations

import datetime as dt
import time

from answerdesk.core import review
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.livecheck import check_open_rounds
from answerdesk.models import Answer, AuditEntry, QuestionGate, Team, Verdict


def test_chgk_1_3_checker_proposes_zachet_nezachet_and_leaves_the_rest_to_the_host(chgk, app):
    texts = {"Сова": "Пушкин", "Ёж": "Александр", "Лис": "Дантес", "Кот": "дантес"}
    tokens = {name: chgk.join(name) for name in texts}
    clock = chgk.start(1, 1, seconds=1, grace=1).get_json()
    for name, text in texts.items():
        assert chgk.save(tokens[name], 1, 1, text).status_code == 200
    locks_at = dt.datetime.fromisoformat(clock["locks_at"].removesuffix("Z"))
    time.sleep(max(0.0, (locks_at - dt.datetime.now(dt.UTC).replace(tzinfo=None))
                   .total_seconds()) + 0.05)
    with app.app_context():
        check_open_rounds()  # the live checker's pass
        gate = db.session.scalar(db.select(QuestionGate))
        assert gate.state == "locked" and gate.locked_at == gate.locks_at
        assert db.session.scalar(db.select(AuditEntry.actor).where(
            AuditEntry.action == "question.lock")) == "clock"
        proposals = dict(db.session.execute(
            db.select(Team.name, Verdict.outcome).join(Answer, Verdict.answer_id == Answer.id)
            .join(Team, Answer.team_id == Team.id)).all())
        assert proposals == {"Сова": "correct", "Ёж": "wrong", "Лис": "review", "Кот": "review"}
        items = review.review_queue(event_by_code(chgk.code))
        assert len(items) == 1 and sorted(items[0].teams) == ["Кот", "Лис"]
