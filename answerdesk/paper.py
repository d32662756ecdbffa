"""Paper fallback (BG-E1): the host types a team's paper sheet in.

While the round is open a paper answer is saved like a phone answer
(answers.save_answer, source "paper"). The sheets are usually collected when
the round closes, so the host may also enter them into a locked round: this
is the one way past the BG-E2 lock, open only to the host's desk; each such
answer carries an "answer.paper" audit entry, and its question is checked
again at once, so the answer lands in the same checker and review queue as
the phone answers. A team may answer one round on the phone and the next on
paper: the source is kept per answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app

from . import audit, widgets
from .answers import save_answer
from .errors import DeskError, NotFound
from .extensions import db
from .models import Answer, Event, Question, Round, Team, Verdict, utcnow
from .rounds import check_question, get_round
from .text import clean_text


@dataclass
class PaperLine:
    """One input of the paper grid, pre-filled with what the team already has."""

    number: int
    text: str
    kind: str
    current: str
    source: str
    fields: Any


def paper_grid(event: Event, team: Team, rnd: Round) -> list[PaperLine]:
    rows = {
        qid: (text, source, fields)
        for qid, text, source, fields in db.session.execute(
            db.select(Answer.question_id, Answer.text, Answer.source, Answer.fields)
            .join(Question, Answer.question_id == Question.id)
            .where(Answer.team_id == team.id, Question.round_id == rnd.id)
        )
    }
    lines = []
    for q in rnd.questions:
        current, source, fields = rows.get(q.id, ("", "", None))
        lines.append(PaperLine(number=q.number, text=q.text, kind=widgets.widget_kind(q, rnd),
                               current=current, source=source, fields=fields))
    return lines


def team_of(event: Event, team_id: int) -> Team:
    team = db.session.scalar(db.select(Team).where(Team.id == team_id, Team.event_id == event.id))
    if team is None:
        raise NotFound("No such team in this event")
    return team


def enter_sheet(
    event: Event, team: Team, round_number: int, sheet: dict[int, Any], actor: str = "host"
) -> int:
    """Store a paper sheet: {question number: text or widget fields}; empty lines are skipped.

    Returns how many answers changed.
    """
    rnd = get_round(event, round_number)
    state = rnd.state
    db.session.rollback()
    if state == "draft":
        raise DeskError(f"Round {round_number} has not started yet")
    entries = {n: v for n, v in sheet.items() if v not in (None, "", {})}
    if state == "open":
        changed = 0
        for number, value in sorted(entries.items()):
            text, fields = (value, None) if isinstance(value, str) else ("", value)
            before = _current(team, rnd, number)
            result = save_answer(team, round_number, number, text, fields=fields,
                                 source="paper", actor=actor)
            changed += before != (result.text, "paper")
        return changed
    return _enter_after_lock(event, team, round_number, entries, actor)


def _current(team: Team, rnd: Round, number: int) -> tuple[str, str] | None:
    row = db.session.execute(
        db.select(Answer.text, Answer.source)
        .join(Question, Answer.question_id == Question.id)
        .where(Answer.team_id == team.id, Question.round_id == rnd.id,
               Question.number == number)
    ).first()
    db.session.rollback()
    return tuple(row) if row else None


def _enter_after_lock(
    event: Event, team: Team, round_number: int, entries: dict[int, Any], actor: str
) -> int:
    rnd = get_round(event, round_number, for_update=True)
    questions = {q.number: q for q in rnd.questions}
    limit = current_app.config["MAX_ANSWER_LENGTH"]
    changed = []
    try:
        for number, value in sorted(entries.items()):
            question = questions.get(number)
            if question is None:
                raise NotFound(f"Round {round_number} has no question {number}")
            fields = value if isinstance(value, dict) else None
            text = widgets.answer_text(fields, widgets.widget_kind(question, rnd)) if fields \
                else clean_text(value, max_length=limit, field="text")
            if _store(event, team, rnd, question, text, fields, actor):
                changed.append(question)
    except DeskError:
        db.session.rollback()
        raise
    db.session.flush()
    for question in changed:
        check_question(question, rnd)
    db.session.commit()
    return len(changed)


def _store(event: Event, team: Team, rnd: Round, question: Question, text: str,
           fields: Any, actor: str) -> bool:
    """Upsert one answer past the lock; a changed answer loses the host's old decision."""
    answer = db.session.scalar(
        db.select(Answer)
        .where(Answer.team_id == team.id, Answer.question_id == question.id)
        .with_for_update()
    )
    if answer is not None and answer.text == text and answer.source == "paper":
        return False
    now = utcnow()
    before = None
    if answer is None:
        answer = Answer(team_id=team.id, question_id=question.id, text=text, fields=fields,
                        source="paper", created_at=now, updated_at=now)
        db.session.add(answer)
    else:
        before = {"text": answer.text, "fields": answer.fields, "source": answer.source}
        answer.text, answer.fields, answer.source = text, fields, "paper"
        answer.version += 1
        answer.updated_at = now
        verdict = db.session.scalar(db.select(Verdict).where(Verdict.answer_id == answer.id))
        if verdict is not None and verdict.decision is not None:
            before["decision"] = verdict.decision
            verdict.decision = verdict.decided_by = verdict.decided_at = None
    audit.record(event, actor, "answer.paper", f"R{rnd.number}Q{question.number} {team.name}",
                 before=before,
                 after={"text": text, "fields": fields, "source": "paper",
                        "round_state": rnd.state})
    return True
