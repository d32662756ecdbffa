"""Paper fallback (BG-E1): the host types a team's paper sheet in.

The grid shows each question with the phone's widget (widgets.widget_spec,
templates/widgets/answer_field.html) and reads it back with
widgets.fields_from_form, so a paper answer is stored as the same fields and
checker text as a phone answer; what the game adds to a line (BG: the jokers
played on it) comes from Format.paper_extras. While the round is open a paper answer is
saved like a phone answer (answers.save_answer, source "paper"). The sheets are
usually collected when the round (or a final-round question, BG-R6.2) locks,
so the host may also enter them past the lock: the one way past BG-E2, open
only to the host's desk. Both ways run the same rule checks
(widgets.prepare_answer: BG-R5.5 a valid pairing, a final question not yet shown
refused, and the game's Format.check_save, BG-R5.4 a number once, BG-J2 no answer
of one's own when copying);
each answer past the lock carries an "answer.paper" audit entry and its
question is checked again at once, so it lands in the same checker and review
queue as the phone answers. A team may answer one round on the phone and the
next on paper: the source is kept per answer, and a line left as it was (or
empty) keeps the team's phone answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import DeskError, NotFound, RoundLocked
from ..extensions import db
from ..models import Answer, Event, Question, QuestionGate, Round, Team, Verdict, utcnow
from . import audit, formats, widgets
from .answers import save_answer
from .rounds import check_question, get_round
from .states import RoundState

Sheet = dict[int, dict[str, Any]]


@dataclass
class PaperLine:
    """One question of the paper grid, with what its widget shows."""

    number: int
    text: str
    name: str  # the widget's form prefix
    spec: dict[str, Any]
    shown: bool  # BG-R6.1: a final question not shown yet takes no answer
    current: str  # the team's stored answer
    source: str
    value: str  # the widget's free-text value (answer_field's ``text``)
    fields: Any
    number_given: int | None  # BG-R5.4: the number the line now names
    #: What the event's format adds to the line (Format.paper_extras).
    extra: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass
class PaperSheet:
    lines: list[PaperLine]
    used_numbers: dict[int, int]  # BG-R5.4: number → question, for the chips


@dataclass
class SheetResult:
    changed: int = 0
    errors: dict[int, str] = field(default_factory=dict)  # question number → message


def team_of(event: Event, team_id: int) -> Team:
    team = db.session.scalar(db.select(Team).where(Team.id == team_id, Team.event_id == event.id))
    if team is None:
        raise NotFound("No such team in this event")
    return team


def line_name(number: int) -> str:
    return f"q{number}"


def paper_grid(event: Event, team: Team, rnd: Round, posted: Sheet | None = None,
               errors: Mapping[int, str] | None = None) -> PaperSheet:
    """The grid in question order, pre-filled with the team's answers, or with what the
    host posted when some lines were refused (``posted``, ``errors``)."""
    current = {
        qid: (text, source, fields)
        for qid, text, source, fields in db.session.execute(
            db.select(Answer.question_id, Answer.text, Answer.source, Answer.fields)
            .join(Question, Answer.question_id == Question.id)
            .where(Answer.team_id == team.id, Question.round_id == rnd.id)
        )
    }
    fmt = formats.of(rnd.event)
    gates, extras = _gates(rnd), fmt.paper_extras(team, rnd)
    lines = []
    for q in rnd.questions:
        text, source, fields = current.get(q.id, ("", "", None))
        value = text
        if posted is not None and q.number in posted:
            fields = posted[q.number]
            value = fields.get("line") or fields.get("text") or ""
        lines.append(PaperLine(
            number=q.number, text=q.text, name=line_name(q.number),
            spec=widgets.widget_spec(q, rnd),
            shown=not fmt.one_at_a_time(rnd) or q.id in gates,
            current=text, source=source, value=value, fields=fields,
            number_given=widgets.number_of(text), extra=extras.get(q.id, {}),
            error=(errors or {}).get(q.number),
        ))
    used = widgets.used_numbers(team, rnd) if any(
        line.spec["kind"] == "number" for line in lines) else {}
    return PaperSheet(lines=lines, used_numbers=used)


def read_sheet(event: Event, round_number: int, form: Mapping[str, str]) -> Sheet:
    """The widgets' fields per question from the posted grid (widgets.fields_from_form)."""
    rnd = get_round(event, round_number)
    sheet = {}
    for q in rnd.questions:
        name = line_name(q.number)
        fields = widgets.fields_from_form(form, name, widgets.widget_kind(q, rnd))
        if form.get(f"{name}-second"):
            fields["second"] = form[f"{name}-second"]
        sheet[q.number] = fields
    db.session.rollback()
    return sheet


def enter_sheet(
    event: Event, team: Team, round_number: int, sheet: Sheet, actor: str = "host"
) -> SheetResult:
    """Store a paper sheet {question number: widget fields}.

    Lines equal to the stored answer are skipped, and so are empty lines, but for a
    paper answer the host emptied: that one is cleared (so that, say, the copy joker
    BG-J2 may then be played on it). A phone answer is never dropped from the desk.
    A refused line does not stop the others: its message is in ``errors`` for the
    grid to show next to it.
    """
    rnd = get_round(event, round_number)
    state, kinds = rnd.state, {q.number: widgets.widget_kind(q, rnd) for q in rnd.questions}
    stored, sources = _stored(team, rnd)
    db.session.rollback()
    if state == RoundState.DRAFT:
        raise DeskError("Round %(round)s has not started yet", round=round_number)
    result = SheetResult()
    due: list[tuple[int, str, dict[str, Any]]] = []
    for number, fields in sorted(sheet.items()):
        if number not in kinds:
            raise NotFound("Round %(round)s has no question %(question)s",
                           round=round_number, question=number)
        if _blank(fields):
            if stored.get(number, ("",))[0] and sources.get(number) == "paper":
                due.append((number, "", {}))
            continue
        try:
            text = widgets.answer_text(fields, kinds[number])
        except DeskError as error:
            result.errors[number] = error.message
            continue
        if stored.get(number) == (text, str(fields.get("second") or "")):
            continue
        due.append((number, text, fields))
    past_lock = due if state != RoundState.OPEN else []
    if state == RoundState.OPEN:
        for number, text, fields in due:
            try:
                save_answer(team, round_number, number, text, fields=fields, source="paper",
                            actor=actor)
                result.changed += 1
            except RoundLocked:
                # The round locked meanwhile, or a final question locked on its own.
                past_lock.append((number, text, fields))
            except DeskError as error:
                result.errors[number] = error.message
    if past_lock:
        _enter_after_lock(event, team, round_number, past_lock, actor, result)
    return result


def _blank(fields: Any) -> bool:
    if isinstance(fields, dict):
        return all(_blank(value) for value in fields.values())
    return not str(fields or "").strip()


def _stored(team: Team, rnd: Round) -> tuple[dict[int, tuple[str, str]], dict[int, str]]:
    """The team's answers in the round: question number → (text, second answer), and
    question number → where the answer came from (phone, paper)."""
    rows = db.session.execute(
        db.select(Question.number, Answer.text, Answer.fields, Answer.source)
        .join(Answer, Answer.question_id == Question.id)
        .where(Answer.team_id == team.id, Question.round_id == rnd.id)
    ).all()
    answers = {
        number: (text, str(fields.get("second") or "") if isinstance(fields, dict) else "")
        for number, text, fields, _source in rows
    }
    return answers, {number: source for number, _t, _f, source in rows}


def _gates(rnd: Round) -> dict[int, str]:
    if not formats.of(rnd.event).one_at_a_time(rnd):
        return {}
    return dict(db.session.execute(
        db.select(QuestionGate.question_id, QuestionGate.state)
        .join(Question, QuestionGate.question_id == Question.id)
        .where(Question.round_id == rnd.id)
    ).all())


def _target(team: Team, rnd: Round, question: Question, gate: str | None,
            extra: dict[str, Any]) -> widgets.AnswerTarget:
    """What widgets.prepare_answer checks, as the desk sees it: past the round's lock
    (BG-E2) and past a final question's own lock (BG-R6.2) alike, but never for a
    final question not shown yet."""
    return widgets.AnswerTarget(
        round_id=rnd.id, round_number=rnd.number, round_kind=rnd.kind,
        question_id=question.id, question_number=question.number,
        kind=widgets.widget_kind(question, rnd),
        gated=formats.of(rnd.event).one_at_a_time(rnd),
        gate_state="open" if gate in ("open", "locked", "revealed") else gate,
        extra=extra,
    )


def _enter_after_lock(event: Event, team: Team, round_number: int,
                      lines: list[tuple[int, str, dict[str, Any]]], actor: str,
                      result: SheetResult) -> None:
    rnd = get_round(event, round_number, for_update=True)
    questions = {q.number: q for q in rnd.questions}
    fmt = formats.of(rnd.event)
    gates, extras = _gates(rnd), fmt.paper_extras(team, rnd)
    changed = []
    for number, text, fields in sorted(lines):
        question = questions[number]
        target = _target(team, rnd, question, gates.get(question.id),
                         extras.get(question.id, {}))
        try:
            text, fields = widgets.prepare_answer(team.id, target, text, fields, fmt)
        except DeskError as error:
            result.errors[number] = error.message
            continue
        if _store(event, team, rnd, question, text, fields, actor):
            changed.append(question)
    db.session.flush()
    for question in changed:
        check_question(question, rnd)
    db.session.flush()
    result.changed += len(changed)


def _store(event: Event, team: Team, rnd: Round, question: Question, text: str,
           fields: Any, actor: str) -> bool:
    """Upsert one answer past the lock; a changed answer loses the host's old decision."""
    answer = db.session.scalar(
        db.select(Answer)
        .where(Answer.team_id == team.id, Answer.question_id == question.id)
        .with_for_update()
    )
    if answer is not None and (answer.text, answer.fields, answer.source) == (
        text, fields, "paper"
    ):
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
