"""Своя игра's questions played over the database (SI-2).

The host starts a question (core's start, shaped by progress.start: no deadline, the
host closes it), players send one private answer each, the host says ВСЁ, the
checker proposes, the host decides and publishes the lists; a "ПРОПУСТИЛИ" claim
is settled by the server's receipt times. Services flush; the views commit.
Refusals change nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...checker import check
from ...core import audit, rounds
from ...core.teams import team_named
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, QuestionGate, Round, Team, utcnow
from . import rules
from .models import SiAnswer, SiQuestion
from .players import NO_PLAYER, player
from .themes import author_of, top_question, value_of


class OnlyFirstCounts(Conflict):
    code = "only_first_counts"


class QuestionNotOpen(Conflict):
    code = "question_not_open"


class PlayerRemoved(Conflict):
    code = "player_removed"


class AuthorsTheme(Conflict):
    code = "authors_theme"


def _gate(question: Question) -> QuestionGate | None:
    return db.session.scalar(db.select(QuestionGate).where(
        QuestionGate.question_id == question.id))


def _state(question: Question) -> SiQuestion:
    row = db.session.scalar(db.select(SiQuestion).where(SiQuestion.question_id == question.id))
    if row is None:
        row = SiQuestion(question_id=question.id)
        db.session.add(row)
    return row


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
    rnd, question = rounds.question_of(event, round_number, question_number)
    gate = _gate(question)
    if gate is None:
        raise QuestionNotOpen("Question %(question)s is not open.", question=question_number)
    if not rules.author_may_answer(author_of(rnd, rules.theme_of(question.number)) == team.id,
                                   question.number, top_question(rnd, question.number)):
        raise AuthorsTheme("You wrote this theme: you play it only by answering its most "
                           "expensive question (SI-0).")
    now = now or utcnow()
    state = _state(question)
    ends = _ends(state, gate)
    row = SiAnswer(question_id=question.id, team_id=team.id, text=text.strip(), received_at=now,
                   late=ends is not None and now > ends)
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
    state.closed_at = min(now, gate.locks_at) if gate.locks_at else now
    gate.state, gate.locked_at = "locked", state.closed_at
    rows = answers_of(question)
    for row in rows:
        if row.received_at > state.closed_at:
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


def _ends(state: SiQuestion, gate: QuestionGate) -> dt.datetime | None:
    """When answers become late: the ВСЁ, or the deadline the host set at the start."""
    ends = [t for t in (state.closed_at, gate.locks_at) if t is not None]
    return min(ends) if ends else None


def answers_of(question: Question) -> list[SiAnswer]:
    return list(db.session.scalars(db.select(SiAnswer).where(
        SiAnswer.question_id == question.id).order_by(SiAnswer.received_at, SiAnswer.id)))


def decide(event: Event, round_number: int, question_number: int, name: Any, mark: Any,
           actor: str) -> SiAnswer:
    """The host's word on one answer: correct, wrong, or none (set aside)."""
    if mark not in ("correct", "wrong", "none"):
        raise DeskError("mark must be correct, wrong or none.")
    _, question = rounds.question_of(event, round_number, question_number)
    team = team_named(event, name, NO_PLAYER)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None or row.late:
        raise NotFound("No on-time answer of '%(name)s' to this question.", name=team.name)
    audit.record(event, actor, "si.decide", f"R{round_number}Q{question_number} {team.name}",
                 before={"decision": row.decision}, after={"decision": mark})
    row.decision = mark
    if row.claim == "pending":  # the host's word answers the player's claim (SI-2.4)
        row.claim = "settled"
    db.session.flush()
    return row


def mark_of(row: SiAnswer) -> rules.Mark | None:
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
    undecided = [r.team.name for r in rows if mark_of(r) is None]
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
                       [rules.Result(r.team.name, m) for r in rows
                        if (m := mark_of(r)) is not None])


def claim(event: Event, team: Team, round_number: int, question_number: int) -> dict[str, Any]:
    """SI-2.4 "ПРОПУСТИЛИ": the claim goes to the host with the server's receipt time
    against the ВСЁ; no mark changes until the host decides (``settle_claim``)."""
    _, question = rounds.question_of(event, round_number, question_number)
    state = _state(question)
    if state.published_at is None:
        raise Conflict("The lists of question %(question)s are not published yet.",
                       question=question_number)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None:
        raise NotFound("No answer of yours to question %(question)s was received.",
                       question=question_number)
    if row.claim == "pending":
        raise Conflict("Your claim is already with the host.")
    closed_at = state.closed_at or row.received_at  # published means closed
    on_time = row.received_at <= closed_at
    row.claim = "pending"
    audit.record(event, f"player:{team.name}", "si.claim",
                 f"R{round_number}Q{question_number}", after={"on_time": on_time})
    db.session.flush()
    return {"on_time": on_time, "received_at": row.received_at.isoformat() + "Z",
            "closed_at": closed_at.isoformat() + "Z"}


def settle_claim(event: Event, round_number: int, question_number: int, name: Any, mark: Any,
                 actor: str) -> SiAnswer:
    """SI-2.4: the host's word on a "ПРОПУСТИЛИ" claim. On time: the answer is back in the
    host's hands, judged ``mark`` (correct, wrong, none); late: ``late`` lists it as
    "0 Name", ``none`` leaves it out."""
    _, question = rounds.question_of(event, round_number, question_number)
    team = team_named(event, name, NO_PLAYER)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None or row.claim != "pending":
        raise NotFound("No claim of '%(name)s' waits on this question.", name=team.name)
    state = _state(question)
    on_time = state.closed_at is None or row.received_at <= state.closed_at
    allowed = ("correct", "wrong", "none") if on_time else ("late", "none")
    if mark not in allowed:
        raise DeskError("mark must be one of %(marks)s.", marks=", ".join(allowed))
    before = mark_of(row)
    if on_time:
        row.late, row.decision = False, mark
    else:
        row.claimed = mark == "late"
    row.claim = "settled"
    audit.record(event, actor, "si.claim.settle", f"R{round_number}Q{question_number} {team.name}",
                 before={"mark": str(before) if before else None}, after={"mark": mark})
    db.session.flush()
    return row


def pending_claims(event: Event) -> list[dict[str, Any]]:
    """The claims waiting for the host, oldest answer first, with whether each came
    on time (the server's receipt against the ВСЁ)."""
    rows = db.session.execute(
        db.select(SiAnswer, Question, Round, SiQuestion)
        .join(Question, SiAnswer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .join(SiQuestion, SiQuestion.question_id == Question.id)
        .where(Round.event_id == event.id, SiAnswer.claim == "pending")
        .order_by(SiAnswer.received_at))
    return [{"player": a.team.name, "round": r.number, "question": q.number, "text": a.text,
             "on_time": s.closed_at is None or a.received_at <= s.closed_at,
             "received_at": a.received_at, "closed_at": s.closed_at}
            for a, q, r, s in rows]


def latest_question(event: Event) -> tuple[QuestionGate, Question, Round] | None:
    row = db.session.execute(
        db.select(QuestionGate, Question, Round)
        .join(Question, QuestionGate.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id).order_by(QuestionGate.id.desc()).limit(1)).first()
    return tuple(row) if row else None


def stored_state(question: Question) -> SiQuestion | None:
    """A question's ВСЁ and publication as stored (a read: polled views must not write)."""
    return db.session.scalar(db.select(SiQuestion).where(SiQuestion.question_id == question.id))
