"""Своя игра played over the database (SI-1.3, SI-2.2, SI-2.2b, SI-2.4).

The host starts a question (core's question gate), players send one private
answer each, the host says ВСЁ, the checker proposes, the host decides and
publishes the lists; a "ПРОПУСТИЛИ" claim is settled by the server's receipt
times. Services flush; the views commit. Refusals change nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...checker import check
from ...core import audit, rounds
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, QuestionGate, Round, Team, utcnow
from . import rules
from .models import SiAnswer, SiPlayer, SiQuestion


class OnlyFirstCounts(Conflict):
    code = "only_first_counts"


class QuestionNotOpen(Conflict):
    code = "question_not_open"


class PlayerRemoved(Conflict):
    code = "player_removed"



def _gate(question: Question) -> QuestionGate | None:
    return db.session.scalar(db.select(QuestionGate).where(
        QuestionGate.question_id == question.id))


def _state(question: Question) -> SiQuestion:
    row = db.session.scalar(db.select(SiQuestion).where(SiQuestion.question_id == question.id))
    if row is None:
        row = SiQuestion(question_id=question.id)
        db.session.add(row)
    return row


def player(team: Team) -> SiPlayer:
    row = db.session.scalar(db.select(SiPlayer).where(SiPlayer.team_id == team.id))
    if row is None:
        row = SiPlayer(team_id=team.id, in_competition=True, warnings=0)
        db.session.add(row)
    return row


def _team(event: Event, name: Any) -> Team:
    team = next((t for t in event.teams if isinstance(name, str) and t.name == name), None)
    if team is None:
        raise NotFound("No player called '%(name)s'.", name=str(name)[:60])
    return team


def value_of(rnd: Round, question: Question) -> int:
    """The pack's own value, else SI-1.1's for the question's place."""
    if question.points:
        return question.points
    try:
        return rules.value(rnd.number, question.number)
    except ValueError:
        return rnd.points


def answer(event: Event, team: Team, round_number: int, question_number: int, text: Any,
           now: dt.datetime | None = None) -> SiAnswer:
    """SI-2.2: a player's one answer; a second is refused, the first stands.

    After ВСЁ (SI-2.2b) the answer is still received, marked late: a claim later
    shows when it came.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise DeskError("The answer must be text of 1 to 500 characters.")
    if player(team).warnings >= rules.WARNINGS_TO_REMOVE:
        raise PlayerRemoved("You were removed from the game (SI-1.3).")
    _, question = rounds.question_of(event, round_number, question_number)
    if _gate(question) is None:
        raise QuestionNotOpen("Question %(question)s is not open.", question=question_number)
    now = now or utcnow()
    state = _state(question)
    row = SiAnswer(question_id=question.id, team_id=team.id, text=text.strip(), received_at=now,
                   late=state.closed_at is not None and now > state.closed_at)
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:
        raise OnlyFirstCounts("Only your first answer counts; it is already in.") from None
    return row


def close(event: Event, round_number: int, question_number: int, actor: str,
          now: dt.datetime | None = None) -> list[SiAnswer]:
    """SI-2.2b ВСЁ: later answers are late; the checker proposes for the rest."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    gate = _gate(question)
    state = _state(question)
    if gate is None:
        raise QuestionNotOpen("Question %(question)s is not open.", question=question_number)
    if state.closed_at is not None:
        raise Conflict("Question %(question)s is already closed.", question=question_number)
    now = now or utcnow()
    state.closed_at = now
    gate.state, gate.locked_at = "locked", now
    rows = answers_of(question)
    for row in rows:
        if row.received_at > now:
            row.late = True
        if not row.late:
            verdict = check(row.text, question.key, question.mode)
            row.proposed = verdict.outcome if verdict.outcome in ("correct", "wrong") \
                else "review"
            row.proposed_reason = verdict.reason[:300]
    audit.record(event, actor, "si.close", f"R{rnd.number}Q{question.number}",
                 after={"answers": len(rows)})
    db.session.flush()
    return rows


def answers_of(question: Question) -> list[SiAnswer]:
    return list(db.session.scalars(db.select(SiAnswer).where(
        SiAnswer.question_id == question.id).order_by(SiAnswer.received_at, SiAnswer.id)))


def decide(event: Event, round_number: int, question_number: int, name: Any, mark: Any,
           actor: str) -> SiAnswer:
    """The host's word on one answer: correct, wrong, or none (set aside)."""
    if mark not in ("correct", "wrong", "none"):
        raise DeskError("mark must be correct, wrong or none.")
    _, question = rounds.question_of(event, round_number, question_number)
    team = _team(event, name)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None or row.late:
        raise NotFound("No on-time answer of '%(name)s' to this question.", name=team.name)
    audit.record(event, actor, "si.decide", f"R{round_number}Q{question_number} {team.name}",
                 before={"decision": row.decision}, after={"decision": mark})
    row.decision = mark
    db.session.flush()
    return row


def _mark(row: SiAnswer) -> rules.Mark | None:
    """What an answer counts as; None while the host still has to decide."""
    if row.late:
        return rules.Mark.LATE if row.claimed else rules.Mark.NONE
    final = row.decision or row.proposed
    if final in ("correct", "wrong", "none"):
        return rules.Mark(final)
    return None


def publish(event: Event, round_number: int, question_number: int, actor: str,
            now: dt.datetime | None = None) -> rules.Lists:
    """SI-2.4: the answer is shown, then the lists; the host decides every doubt first."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    state = _state(question)
    if state.closed_at is None:
        raise Conflict("Close question %(question)s first (ВСЁ).", question=question_number)
    rows = answers_of(question)
    undecided = [r.team.name for r in rows if _mark(r) is None]
    if undecided:
        raise Conflict("Decide the answers of %(names)s first.", names=", ".join(undecided))
    state.published_at = state.published_at or now or utcnow()
    published = lists_of(rnd, question)
    audit.record(event, actor, "si.publish", f"R{rnd.number}Q{question.number}",
                 after={"lists": published.lines()})
    db.session.flush()
    return published


def lists_of(rnd: Round, question: Question) -> rules.Lists:
    rows = answers_of(question)
    return rules.lists(value_of(rnd, question),
                       [rules.Result(r.team.name, m) for r in rows if (m := _mark(r)) is not None])


def claim(event: Event, team: Team, round_number: int, question_number: int) -> dict[str, Any]:
    """SI-2.4 "ПРОПУСТИЛИ": settled by the server's receipt time against the ВСЁ.

    On time → back to the host's decision (the lists are corrected when published
    again); late → "0 Name" in the lists.
    """
    _, question = rounds.question_of(event, round_number, question_number)
    state = _state(question)
    if state.published_at is None:
        raise Conflict("The lists of question %(question)s are not published yet.",
                       question=question_number)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None:
        raise NotFound("No answer of yours to question %(question)s was received.",
                       question=question_number)
    closed_at = state.closed_at or row.received_at  # published means closed
    on_time = row.received_at <= closed_at
    if on_time:
        row.late, row.decision = False, None
        if row.proposed is None:
            row.proposed = "review"
    else:
        row.claimed = True
    audit.record(event, f"player:{team.name}", "si.claim",
                 f"R{round_number}Q{question_number}", after={"on_time": on_time})
    db.session.flush()
    return {"on_time": on_time, "received_at": row.received_at.isoformat() + "Z",
            "closed_at": closed_at.isoformat() + "Z"}


def warn(event: Event, name: Any, actor: str) -> SiPlayer:
    """SI-1.3: a warning; the second removes the player and annuls the points."""
    team = _team(event, name)
    row = player(team)
    row.warnings += 1
    audit.record(event, actor, "si.warn", team.name, after={"warnings": row.warnings})
    db.session.flush()
    return row


def scores(event: Event) -> list[rules.PlayerScore]:
    """The players' scores over the published questions (SI-2.4, SI-1.3)."""
    players = {p.team_id: p for p in db.session.scalars(db.select(SiPlayer).join(
        Team, SiPlayer.team_id == Team.id).where(Team.event_id == event.id))}
    marks = []
    for rnd in event.rounds:
        for question in rnd.questions:
            state = db.session.scalar(db.select(SiQuestion).where(
                SiQuestion.question_id == question.id))
            if state is None or state.published_at is None:
                continue
            worth = value_of(rnd, question)
            marks += [(r.team.name, m, worth) for r in answers_of(question)
                      if (m := _mark(r)) is not None]
    return rules.scores([(t.name, players[t.id].in_competition if t.id in players else True,
                          players[t.id].warnings if t.id in players else 0)
                         for t in event.teams], marks)


def public(event: Event) -> dict[str, Any]:
    """What the projector and every phone show: the latest question, its lists once
    published, and the scores."""
    row = db.session.execute(
        db.select(QuestionGate, Question, Round)
        .join(Question, QuestionGate.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id).order_by(QuestionGate.id.desc()).limit(1)).first()
    current = None
    if row is not None:
        _, question, rnd = row
        state = db.session.scalar(db.select(SiQuestion).where(
            SiQuestion.question_id == question.id))
        status = "open" if state is None or state.closed_at is None else \
            "closed" if state.published_at is None else "published"
        current = {"round": rnd.number, "question": question.number,
                   "theme": rules.theme_of(question.number), "value": value_of(rnd, question),
                   "state": status,
                   "answer": question.shown_answer if status == "published" else None,
                   "lists": lists_of(rnd, question).lines() if status == "published" else []}
    return {"current": current, "scores": [
        {"player": s.player, "points": s.points, "in_competition": s.in_competition,
         "removed": s.removed} for s in scores(event)]}
